
/// What `sleepsta periods` is asked to do: score 60-s epochs with Sadeh or Cole–Kripke, then find
/// Tudor-Locke sleep periods with ActiLife's statistics.
public struct SleepPeriodsRequest: Sendable {
    public var path: String
    /// `sadeh` or `cole-kripke`.
    public var sleepAlgorithm: ScoringAlgorithm
    public var variant: String?
    public var rescore: String?
    public var column: String?
    public var timeZoneIdentifier: String?
    public var parameters: TudorLockeSleepPeriods.Parameters

    public init(path: String, sleepAlgorithm: ScoringAlgorithm = .sadeh, variant: String? = nil, rescore: String? = nil,
                column: String? = nil, timeZoneIdentifier: String? = nil,
                parameters: TudorLockeSleepPeriods.Parameters = .actiLifeDefault) {
        self.path = path; self.sleepAlgorithm = sleepAlgorithm; self.variant = variant; self.rescore = rescore
        self.column = column; self.timeZoneIdentifier = timeZoneIdentifier; self.parameters = parameters
    }
}

/// The result of `sleepsta periods`: one row per sleep period, ActiLife's columns.
public struct SleepPeriodsResult: Sendable {
    /// The scored 60-s epochs the periods were found in.
    public var scored: ScoreResult
    public var periods: [TudorLockeSleepPeriod]
    /// Epochs without a label (missing counts), left out of the sleep/wake runs.
    public var unscoredEpochs: Int
    public var notes: [String]

    /// The public column contract of `sleepsta periods --format csv`.
}

/// `sleepsta periods`.
public enum SleepPeriodsRun {
    /// The sleep periods of the input `load` reads (after the request is checked).
    public static func run(_ request: SleepPeriodsRequest, load: () throws -> EpochInput) throws -> SleepPeriodsResult {
        guard request.sleepAlgorithm == .sadeh || request.sleepAlgorithm == .coleKripke else {
            throw EpochCommandError.usage("--sleep-algorithm must be sadeh or cole-kripke (ActiLife's Tudor-Locke inputs)")
        }
        let input = try load()
        let scored = try EpochScoring.score(input, ScoreRequest(
            path: request.path, algorithm: request.sleepAlgorithm, variant: request.variant, rescore: request.rescore,
            epochSeconds: 60, column: request.column, timeZoneIdentifier: request.timeZoneIdentifier))
        // Minutes without counts are left out of the runs, as `run` does for ActiGraph-count nights
        // (``TudorLockeSleepPeriods/detect(states:counts:epochSeconds:parameters:)``), and counted.
        let states = scored.epochs.map { $0.activity.isNaN ? nil : $0.state }
        let unscored = states.filter { $0 == nil }.count
        let counts = scored.epochs.map(\.activity)
        let periods = TudorLockeSleepPeriods.detect(states: states, counts: counts, epochSeconds: 60, parameters: request.parameters)
        var notes = scored.notes
        if unscored > 0 { notes.append("\(unscored) minutes without counts were left out of the sleep/wake runs (neither sleep nor wake; as run does)") }
        return SleepPeriodsResult(scored: scored, periods: periods, unscoredEpochs: unscored, notes: notes)
    }

    /// Checks Tudor-Locke parameters as the command line gives them.
    public static func parameters(bedtimeStart: Int, wakeTimeEnd: Int, minSleepPeriod: Int, maxSleepPeriod: Int,
                                  minNonzeroEpochs: Int) throws(EpochCommandError) -> TudorLockeSleepPeriods.Parameters {
        guard bedtimeStart >= 1 else { throw .usage("--bedtime-start \(bedtimeStart): must be at least 1 minute") }
        guard wakeTimeEnd >= 1 else { throw .usage("--wake-time-end \(wakeTimeEnd): must be at least 1 minute") }
        guard minSleepPeriod >= 0 else { throw .usage("--min-sleep-period \(minSleepPeriod): must be 0 or more minutes") }
        guard maxSleepPeriod >= minSleepPeriod else { throw .usage("--max-sleep-period \(maxSleepPeriod): must be at least --min-sleep-period (\(minSleepPeriod))") }
        guard minNonzeroEpochs >= 0 else { throw .usage("--min-nonzero-epochs \(minNonzeroEpochs): must be 0 or more") }
        return TudorLockeSleepPeriods.Parameters(bedtimeStartMinutes: bedtimeStart, wakeTimeEndMinutes: wakeTimeEnd,
                                                 minSleepPeriodMinutes: minSleepPeriod, maxSleepPeriodMinutes: maxSleepPeriod,
                                                 minNonzeroEpochs: minNonzeroEpochs)
    }
}
