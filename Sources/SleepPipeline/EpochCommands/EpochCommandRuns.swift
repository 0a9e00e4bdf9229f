import SleepCore
import SleepIngest

// `score`, `periods` and `counts` on one file: SleepIngest reads it (an epoch file as it is, or
// raw samples), SleepCore computes; the CLI writes the result with SleepReport's CSV.

extension EpochScoring {
    public static func run(_ request: ScoreRequest) throws -> ScoreResult {
        try run(request) { try EpochInput.load(path: request.path, timeZoneIdentifier: request.timeZoneIdentifier) }
    }
}

extension SleepPeriodsRun {
    public static func run(_ request: SleepPeriodsRequest) throws -> SleepPeriodsResult {
        try run(request) { try EpochInput.load(path: request.path, timeZoneIdentifier: request.timeZoneIdentifier) }
    }
}

extension ActivityCountsRun {
    public static func run(_ request: CountsRequest) throws -> CountsResult {
        try run(request) { try EpochInput.load(path: request.path, timeZoneIdentifier: request.timeZoneIdentifier) }
    }
}
