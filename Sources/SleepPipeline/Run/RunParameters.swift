import Foundation
import SleepCore
import SleepStore

/// A run's parameters as its `runs` row stores them (`parameters_json`): the analysis parameters,
/// the zone option, the folders, the kind and unit options, the diary. The store remembers them:
/// `nightly` reuses those of the last finished `run` or `nightly` for every option it is not
/// given (as GGIR reuses its config.csv), and a run whose parameters differ says what changed.
public struct RunParameters: Codable, Sendable, Equatable {
    public var analysis: AnalysisParameters
    /// The phone method's analysis key (kept for scripts that read it; ``keys`` has every method's).
    public var key: String
    public var timeZone: String?
    public var dataDirectory: String
    public var reportsDirectory: String
    public var kind: String?
    public var units: String
    /// `--shard K/N` (absent otherwise): what `merge` checks.
    public var shard: ShardStamp?
    /// The sleep diary's path as given (absent without one); its digest is in ``analysis``.
    public var diary: String?
    /// `--participants` as given (absent: each file is a participant).
    public var participants: String?

    public init(_ c: PipelineConfiguration, shard: ShardStamp? = nil) {
        analysis = c.parameters; key = c.parameters.key; timeZone = c.timeZoneIdentifier
        dataDirectory = c.dataDirectory; reportsDirectory = c.reportsDirectory
        kind = c.kindOverride?.rawValue; units = c.units.rawValue; self.shard = shard
        diary = c.diary?.path
        participants = c.participantsOption
    }

    /// The parameters the last finished `run` or `nightly` of the database at `path` used; nil
    /// when there is no database, no such run, or its row predates these fields.
    public static func remembered(databasePath path: String) throws -> (run: Int64, parameters: RunParameters)? {
        // No database yet, or one this user cannot write (the run then says so itself). Read before
        // the run lock, without waiting long: another run may hold it (the run then exits 3 as it should).
        guard FileManager.default.fileExists(atPath: path), access(path, W_OK) == 0 else { return nil }
        let last: RunRecord?
        do { last = try SleepDatabase.lastFinishedRun(path: path, commands: ["run", "nightly"]) } catch {
            throw PipelineError.environment("database \(path): \(SleepDatabase.shortDescription(error))")
        }
        guard let run = last, let id = run.id, let p = recorded(in: run) else { return nil }
        return (id, p)
    }

    /// The parameters a `runs` row records; nil for a row from before these fields.
    static func recorded(in run: RunRecord) -> RunParameters? {
        try? JSONDecoder().decode(RunParameters.self, from: Data(run.parametersJSON.utf8))
    }

    /// What differs from `old`, one phrase per parameter (`interval 10m → 15m`), in a fixed order.
    public func changes(from old: RunParameters) -> [String] {
        var out: [String] = []
        func note(_ name: String, _ a: String?, _ b: String?, none: String = "none") {
            if a != b { out.append("\(name) \(a ?? none) → \(b ?? none)") }
        }
        note("interval", old.analysis.interval.description, analysis.interval.description)
        note("metric", old.analysis.metric.rawValue, analysis.metric.rawValue)
        note("wake-threshold", "\(old.analysis.wakeThresholdFactor)", "\(analysis.wakeThresholdFactor)")
        note("sleep-algorithm", old.analysis.sleepAlgorithm?.rawValue, analysis.sleepAlgorithm?.rawValue, none: "auto")
        note("method", old.analysis.nightMethod?.rawValue, analysis.nightMethod?.rawValue, none: "sleepsta")
        note("kind", old.kind, kind, none: "auto")
        note("units", old.units, units)
        note("tz", old.timeZone, timeZone)
        if old.diary != diary || old.analysis.diaryDigest != analysis.diaryDigest {
            out.append(old.diary == diary ? "diary \(diary ?? "none") (its content changed)" : "diary \(old.diary ?? "none") → \(diary ?? "none")")
        }
        note("participants", old.participants, participants, none: "file")
        note("data", old.dataDirectory, dataDirectory)
        note("reports", old.reportsDirectory, reportsDirectory)
        return out
    }
}
