import Foundation
import SleepCore
import SleepReport
import SleepStore

/// Which stored analyses an export lists (`--analysis`).
public enum AnalysisSelection: Sendable, Equatable, CustomStringConvertible {
    /// What the pages show: per night, the analysis under the parameters of the last finished
    /// `run` or `nightly` (the remembered ones; `--interval` replaces their interval length).
    /// One row per night in the nights export.
    case current
    /// Every stored analysis: a night appears once per parameter set (its rows differ in
    /// `analysis_id` and `parameters_key`).
    case all
    /// The analyses of one `parameters_key`.
    case key(String)

    public init(_ text: String) {
        switch text {
        case "current": self = .current
        case "all": self = .all
        default: self = .key(text)
        }
    }

    public var description: String {
        switch self {
        case .current: return "current"
        case .all: return "all"
        case .key(let k): return k
        }
    }
}

/// What to export from which database, to where.
public struct ExportConfiguration: Sendable {
    public var databasePath: String
    public var table: ExportTable
    /// Only analyses with this interval length; nil for all.
    public var interval: IntervalLength?
    /// Which analyses: the pages' (default), all, or one parameters key.
    public var analysis: AnalysisSelection
    /// nil: standard output.
    public var outputPath: String?
    /// How recordings map to participants for `--what participants`, `periods` and `days`; nil: the last run's (`--participants`).
    public var participants: ParticipantRule? = nil
    /// Which participants and nights the study exports count (`--min-valid-nights`, `--min-wear-hours`).
    public var inclusion: InclusionRule = .none

    public init(databasePath: String, table: ExportTable, interval: IntervalLength? = nil, analysis: AnalysisSelection = .current,
                outputPath: String? = nil) {
        self.databasePath = databasePath; self.table = table; self.interval = interval; self.analysis = analysis
        self.outputPath = outputPath
    }
}

/// Writes an ``ExportTable`` as CSV, walking the store one analysis at a time. Times are ISO 8601
/// with the local UTC offset of the night (`2024-03-31T03:10:00+02:00`), so they are both the
/// local clock and an exact instant.
///
/// The whole export reads one snapshot of the store (one read transaction): a run storing nights
/// meanwhile neither tears it nor shows in it, and the export says on ``notice`` that it runs.
public struct Exporter {
    public var configuration: ExportConfiguration
    /// Receives what the user should know beside the CSV (a run in progress, nights without a
    /// current analysis); the CLI writes it to stderr.
    public var notice: @Sendable (String) -> Void = { _ in }

    public init(configuration: ExportConfiguration) { self.configuration = configuration }

    /// - Returns: the number of data rows written.
    @discardableResult
    public func run() throws -> Int { try runReporting().rows }

    /// What an export wrote, and the stored rows it could not read (each named, its analysis left
    /// out of the CSV): the CLI exits 1 when there are any.
    public struct Result: Sendable {
        public var rows: Int
        public var unreadable: [String]
    }

    /// Collects the rows an export skips (written from the snapshot's closure).
    final class Unreadable: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) { lock.lock(); items.append(PrintableText.escaped(s)); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
    }

    public func runReporting() throws -> Result {
        let unreadable = Unreadable()
        let rows = try write(unreadable)
        return Result(rows: rows, unreadable: unreadable.all)
    }

    func write(_ unreadable: Unreadable) throws -> Int {
        let c = configuration
        guard FileManager.default.fileExists(atPath: c.databasePath) else {
            throw PipelineError.environment("database \(c.databasePath) does not exist; create it with `sleepsta run`")
        }
        let db: SleepDatabase
        do { db = try SleepDatabase(path: c.databasePath) } catch { throw PipelineError.environment("\(error)") }
        return try db.exportSnapshot { snapshot in
            if c.table != .runs, RunLock.isHeld(databasePath: c.databasePath) {
                let running = try snapshot.runs().last { $0.status == "running" }
                notice("a run is in progress" + (running.map { " (run \($0.id.map(String.init) ?? "?"), \($0.command), started \($0.startedUTC))" } ?? "")
                       + ": this export is the store as it was when the export began; nights the run stores later are not in it")
            }
            if c.table == .runs {
                return try RunsExportCSV.write(snapshot, databasePath: c.databasePath, columns: ExportTable.runs.columns, to: try CSVOutput(path: c.outputPath))
            }
            let analyses = try selectedAnalyses(snapshot, unreadable: unreadable)
            if c.table == .recordings { return try Self.writeRecordings(snapshot, analyses: analyses, unreadable: unreadable, to: try CSVOutput(path: c.outputPath)) }
            let rule = { try c.participants ?? ParticipantOption.remembered(runs: snapshot.runs()) }
            if c.table == .participants {
                return try Self.writeParticipants(snapshot, analyses: analyses, rule: try rule(), unreadable: unreadable, to: try CSVOutput(path: c.outputPath))
            }
            if let study = StudyExportCSV.Table(rawValue: c.table.rawValue) {
                return try StudyExportCSV.write(study, snapshot, analyses: analyses, rule: c.inclusion, participant: ParticipantMatcher(try rule()).participant(recordingPath:),
                                                unreadable: unreadable.add, to: try CSVOutput(path: c.outputPath))
            }
            if c.table == .periods || c.table == .days {
                let matcher = ParticipantMatcher(try rule())
                return try DayExportCSV.write(snapshot, analyses: analyses, days: c.table == .days,
                                              participant: { matcher.participant(recordingPath: $0) }, to: try CSVOutput(path: c.outputPath))
            }
            let kind: AnalysisCSVRows.Table = c.table == .nights ? .nights : c.table == .intervals ? .intervals : .epochs
            let overlapping = kind == .nights ? AnalysisCSVRows.overlappingAnalyses(analyses, participant: ParticipantMatcher(try rule()).participant(recordingPath:)) : []
            let out = try CSVOutput(path: c.outputPath)
            return try out.whole {
                var rows = 0
                try out.write(CSVFormat.line(c.table.columns))
                for a in analyses {
                    // An analysis whose rows cannot be read is named and left out, whole.
                    let lines: [String]
                    do { lines = try AnalysisCSVRows.lines(kind, a, snapshot: snapshot, overlapping: overlapping) } catch let e as StoredRowError {
                        unreadable.add("night '\(a.night.nightID)': \(e.message)")
                        continue
                    }
                    for line in lines { try out.write(line) }
                    rows += lines.count
                }
                return rows
            }
        }
    }

    /// The analyses `--analysis` and `--interval` select, by night.
    func selectedAnalyses(_ snapshot: ExportSnapshot, unreadable: Unreadable = Unreadable()) throws -> [AnalysisExportEntry] {
        let c = configuration
        let stored = try snapshot.analyses(intervalSeconds: c.interval?.seconds, unreadable: unreadable.add)
        if let interval = c.interval, stored.isEmpty { throw try Self.notAnalysed(interval, snapshot) }
        switch c.analysis {
        case .all:
            return stored
        case .key(let key):
            let chosen = stored.filter { $0.parametersKey == key }
            guard !chosen.isEmpty else {
                let keys = Set(stored.map(\.parametersKey)).sorted()
                // The key comes from the command line (and the stored ones from the store): shown escaped.
                throw PipelineError.environment("no stored analysis has parameters_key '\(PrintableText.escaped(key))'\(c.interval.map { " at \($0)" } ?? ""); nothing was exported. "
                    + "Stored keys: \(keys.map(PrintableText.escaped).joined(separator: " | ")); or use --analysis current (what the pages show) or all")
            }
            return chosen
        case .current:
            let remembered = try snapshot.lastFinishedRun(commands: ["run", "nightly"])
                .flatMap(RunParameters.recorded(in:))
            var parameters = remembered?.analysis ?? AnalysisParameters()
            if remembered == nil { notice("no finished run is recorded: --analysis current takes the default parameters") }
            if let interval = c.interval { parameters.interval = interval }
            let keys = NightAnalysisMethods.keys(parameters)
            let chosen = stored.filter { keys[$0.night.kind] == $0.parametersKey }
            let missing = Set(stored.map(\.night.nightID)).subtracting(chosen.map(\.night.nightID))
            if !missing.isEmpty {
                notice("\(missing.count == 1 ? "1 night has" : "\(missing.count) nights have") no analysis under the current parameters and are not exported "
                       + "(\(missing.sorted().prefix(3).joined(separator: ", "))\(missing.count > 3 ? ", …" : "")); --analysis all lists every stored analysis")
            }
            if chosen.isEmpty, let interval = c.interval {
                throw PipelineError.environment("no analysis at \(interval) under the current parameters is stored; nothing was exported. "
                    + "--analysis all lists the \(stored.count) stored at \(interval), or derive it: `sleepsta run --interval \(interval)` with the same --data and --db")
            }
            return chosen
        }
    }

    /// `--interval` names a length no stored analysis has: a header alone would look like "no
    /// nights". Say so, name the stored lengths and how to derive the missing one (nothing is written).
    static func notAnalysed(_ interval: IntervalLength, _ snapshot: ExportSnapshot) throws -> PipelineError {
        let stored = try Set(snapshot.analyses(unreadable: { _ in }).map(\.parameters.interval)).sorted().map(\.description)
        guard !stored.isEmpty else {
            return .environment("no analysis is stored in the database at all: run `sleepsta run --interval \(interval)` first")
        }
        return .environment("no analysis with \(interval) intervals is stored (stored: \(stored.joined(separator: ", "))); nothing was exported. "
            + "Derive it from the stored series (no raw file is read): `sleepsta run --interval \(interval)` with the same --data and --db, then export again")
    }
}
