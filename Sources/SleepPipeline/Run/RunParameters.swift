import Foundation
import SleepCore
import SleepIngest
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
    /// The study file (path and SHA-256) and the ignore globs in force.
    public var study: StudyFile.Stamp?
    public var ignore: [String]?

    public init(_ c: PipelineConfiguration, shard: ShardStamp? = nil) {
        analysis = c.parameters; key = c.parameters.key; timeZone = c.timeZoneIdentifier
        dataDirectory = c.dataDirectory; reportsDirectory = c.reportsDirectory
        kind = c.kindOverride?.rawValue; units = c.units.rawValue; self.shard = shard
        diary = c.diary?.path
        participants = c.participantsOption
        study = c.study; ignore = c.ignored.globs.isEmpty ? nil : c.ignored.globs
    }

    /// The parameters the last finished `run` or `nightly` of the database at `path` used; nil
    /// when there is no database, no such run, or its row predates these fields. `given` names the
    /// parameters the command line gives (``RememberedParameter/key``): those are not taken from
    /// the row, so a remembered value that cannot be used is overridden by giving its option.
    /// A remembered value the command line would refuse, or a row that cannot be read, is an
    /// environment error (exit 2) naming the parameter and its option: never applied, never dropped.
    public static func remembered(databasePath path: String, given: Set<String> = []) throws -> (run: Int64, parameters: RunParameters)? {
        // No database yet, or one this user cannot write (the run then says so itself). Read before
        // the run lock, without waiting long: another run may hold it (the run then exits 3 as it should).
        guard FileManager.default.fileExists(atPath: path), access(path, W_OK) == 0 else { return nil }
        let last: RunRecord?
        do { last = try SleepDatabase.lastFinishedRun(path: path, commands: ["run", "nightly"]) } catch {
            throw PipelineError.environment("database \(path): \(SleepDatabase.shortDescription(error))")
        }
        guard let run = last, let id = run.id else { return nil }
        do {
            guard let p = try checked(run.parametersJSON, given: given) else { return nil }
            return (id, p)
        } catch let e as RememberedProblem {
            throw PipelineError.environment("database \(path): the last run's parameters (runs row \(id)): \(e.message)")
        }
    }

    /// The parameters a `runs` row records; nil for a row from before these fields, or one that
    /// cannot be read (what a changed parameter is compared with; ``remembered(databasePath:given:)``
    /// is what refuses such a row).
    static func recorded(in run: RunRecord) -> RunParameters? {
        try? checked(run.parametersJSON, given: [])
    }

    /// A remembered value that cannot be used (``RememberedParameter``).
    public typealias RememberedProblem = RememberedParameterProblem

    /// ``checked(_:given:)`` for the fuzz target: a `parameters_json` text as nightly reads it.
    public static func remembered(parametersJSON json: String, given: Set<String>) throws -> RunParameters? {
        try checked(json, given: given)
    }

    /// `json` decoded with the rules of the command line (``AnalysisParameters`` and
    /// ``IntervalLength`` decode only values the command line accepts); the parameters in `given`
    /// are not read from it. nil for a row without these fields (an older sleepsta's).
    static func checked(_ json: String, given: Set<String>) throws -> RunParameters? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)), var row = object as? [String: Any] else {
            throw RememberedProblem(message: "parameters_json is not a JSON object, so nightly cannot tell which interval, diary, zone or participants to keep; "
                                    + "run `sleepsta run` with the options you want (it records them), then nightly again")
        }
        guard var analysis = row["analysis"] as? [String: Any] else {
            if row["analysis"] == nil { return nil }
            throw RememberedProblem(message: "analysis is not a JSON object; give --interval, --metric and --wake-threshold, or run `sleepsta run` to record new parameters")
        }
        let defaults = (try? JSONSerialization.jsonObject(with: JSONEncoder().encode(AnalysisParameters()))) as? [String: Any] ?? [:]
        for p in RememberedParameter.all where given.contains(p.key) {
            if p.inAnalysis { analysis[p.field] = defaults[p.field] } else { row[p.field] = nil }
        }
        row["analysis"] = analysis
        if row["units"] == nil { row["units"] = AccelerationUnits.auto.rawValue }
        let p: RunParameters
        do { p = try JSONDecoder().decode(RunParameters.self, from: JSONSerialization.data(withJSONObject: row)) } catch let error as DecodingError {
            throw RememberedParameter.problem(error)
        }
        try p.checkOptions()
        return p
    }

    /// The values the command line checks with its own types (``RememberedParameter``).
    func checkOptions() throws {
        if let kind, kind != RecordingKind.phoneInBed.rawValue, kind != RecordingKind.wearable24h.rawValue {
            throw RememberedParameter.named("kind").refused("'\(PrintableText.escaped(kind))' is not auto, phone-in-bed or wearable-24h")
        }
        if AccelerationUnits(rawValue: units) == nil {
            throw RememberedParameter.named("units").refused("'\(PrintableText.escaped(units))' is not auto, g or m/s2")
        }
        if let timeZone, ZoneTimeline.timeline(identifier: timeZone) == nil {
            throw RememberedParameter.named("timeZone").refused("'\(PrintableText.escaped(timeZone))' is not an IANA time zone")
        }
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
        note("study", old.study?.path, study?.path)
        note("data", old.dataDirectory, dataDirectory)
        note("reports", old.reportsDirectory, reportsDirectory)
        return out
    }
}
