import Foundation
import Logging
import SleepCore
import SleepIngest
import SleepReport
import SleepStore

/// The batch: Ingest → Core → Store → Report over a data folder. Incremental and idempotent:
/// files are known by content hash, analyses by their parameters, report files are rewritten
/// only when their bytes change.
///
/// Crash safety: each file's recording, nights and analyses are one transaction, and so is each
/// re-derived analysis, so a run killed at any point leaves whole nights or none. Report files
/// are written to a temporary file and renamed. A run that did not finish leaves its `runs` row
/// unfinished, and the next run then renders every night (see ``ReportScope``).
public struct Pipeline {
    public var configuration: PipelineConfiguration
    public var logger: Logger
    /// Receives progress (a terminal bar); nil for none.
    public var progress: (any PipelineProgressObserver)?

    public init(configuration: PipelineConfiguration, logger: Logger, progress: (any PipelineProgressObserver)? = nil) {
        self.configuration = configuration; self.logger = logger; self.progress = progress
    }

    public func run() throws -> RunSummary {
        let c = configuration
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: c.dataDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PipelineError.environment("data folder \(c.dataDirectory) does not exist or is not a folder")
        }
        if let tz = c.timeZoneIdentifier, ZoneTimeline.timeline(identifier: tz) == nil {
            throw PipelineError.environment("unknown time zone '\(tz)': expected an IANA name such as Europe/Berlin")
        }
        try prepareReportsDirectory()
        let dbDirectory = (c.databasePath as NSString).deletingLastPathComponent
        if !dbDirectory.isEmpty { try? FileManager.default.createDirectory(atPath: dbDirectory, withIntermediateDirectories: true) }
        if FileManager.default.fileExists(atPath: c.databasePath) && access(c.databasePath, W_OK) != 0 {
            throw PipelineError.environment("database \(c.databasePath) is read-only (\(String(cString: strerror(errno)))); nothing was changed")
        }
        let lock = try RunLock.forRun(databasePath: c.databasePath)
        defer { withExtendedLifetime(lock) {} }
        let db: SleepDatabase
        do { db = try SleepDatabase(path: c.databasePath) } catch { throw PipelineError.environment("\(error)") }
        defer { progress?.finish() }
        try storing { try markInterruptedRuns(db) }

        let started = Date()
        var run = RunRecord(startedUTC: Self.timestamp(started), toolVersion: c.toolVersion, command: c.command,
                            parametersJSON: Self.parametersJSON(c))
        // What this run changes against the parameters the store remembers (the last finished run's).
        let changes = try storing { try db.lastFinishedRun(commands: ["run", "nightly"]) }
            .flatMap(RunParameters.recorded(in:))
            .map { RunParameters(c).changes(from: $0) } ?? []
        if !changes.isEmpty { run.parametersChanged = changes.joined(separator: "; ") }
        // The last run that wrote night pages (`compare` and `export` do not).
        let previous = try storing { try db.previousRun(commands: ["run", "nightly"]) }
        run.id = try storing { try db.beginRun(run) }
        do {
            var summary = try work(db: db, run: run, previous: previous)
            summary.parameterChanges = changes
            let finished = Date()
            run.finishedUTC = Self.timestamp(finished)
            run.filesSeen = summary.filesSeen
            run.filesIngested = summary.filesIngested
            run.filesUnchanged = summary.filesUnchanged
            run.filesFailed = summary.filesFailed
            run.status = summary.failures.isEmpty ? "ok" : "some-files-failed"
            let diaryProblems = summary.diary.map { d in d.problems.map { (d.path, $0) } } ?? []
            let participantProblems = summary.participantProblems.map { (configuration.participantsOption ?? "--participants", $0) }
            try storing { try db.finishRun(run, failures: (summary.failures + diaryProblems + participantProblems).map { ($0.0, PrintableText.escaped($0.1)) }) }
            summary.runID = run.id
            summary.startedUTC = run.startedUTC
            summary.finishedUTC = run.finishedUTC ?? ""
            summary.durationSeconds = finished.timeIntervalSince(started)
            return summary
        } catch {
            // Best effort (the disk may be full): say in the runs table that this run failed, so
            // the next run knows the reports may be behind the store.
            run.finishedUTC = Self.timestamp()
            run.status = "failed"
            try? db.finishRun(run, failures: [])
            throw error
        }
    }

    /// Ingest, re-derive, render: the run between its `runs` row's start and finish.
    private func work(db: SleepDatabase, run: RunRecord, previous: RunRecord?) throws -> RunSummary {
        let c = configuration
        var summary = RunSummary()
        let swept = ReportWriter.removeStaleTemporaryFiles(in: c.reportsDirectory)
        if swept > 0 { logger.notice("removed \(Plural.count(swept, "temporary report file")) left by an interrupted run") }

        let folder: DataFolderScan
        do { folder = try DataFolderScan.scan(c.dataDirectory, excludedName: (c.databasePath as NSString).lastPathComponent, ignoring: c.ignored) }
        catch { throw PipelineError.environment(error.description) }
        summary.filesIgnored = folder.ignored.count
        let (scan, shardStamp) = folder.restricted(to: c.shard)   // Shard.swift: `--shard K/N`
        if let shardStamp, let id = run.id {
            try storing { try db.updateRunParameters(id: id, json: Self.parametersJSON(c, shard: shardStamp)) }
        }
        // Nights whose pages must be rendered by an `affected`-scope run.
        var affected = try ingestAll(scan, db: db, runID: run.id, summary: &summary)
        try handleGoneRecordings(scan: folder, db: db, summary: &summary)
        if let diary = c.diary { try reportDiaryProblems(diary, db: db, summary: &summary) }
        if case .table(let rows) = c.participants {
            summary.participantProblems = ParticipantsTable.problems(rows, path: c.participantsOption ?? "--participants", recordings: try storing { try db.recordingPaths() }, present: summary.failures.map(\.path))
        }
        affected.formUnion(try rederive(db: db, runID: run.id, summary: &summary))
        try renderReports(db: db, run: run, previous: previous, affected: affected, summary: &summary)
        return summary
    }

    /// Runs a store operation; its failure (disk full, read-only, corrupt file) stops the run as an
    /// environment error rather than being blamed on the file being ingested.
    @discardableResult
    func storing<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw Self.storeError(error, databasePath: configuration.databasePath) }
    }

    /// ``storing(_:)`` for a read of one file's or night's stored rows: a row that breaks the store's
    /// rules (``StoredRowError``, naming it) costs that file or night, not the run.
    func storingRow<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as StoredRowError { throw e } catch { throw Self.storeError(error, databasePath: configuration.databasePath) }
    }

    /// A store operation's failure as the run reports it: an environment error naming the database.
    static func storeError(_ error: any Error, databasePath: String) -> any Error {
        if error is PipelineError { return error }
        return PipelineError.environment("database \(databasePath): \(SleepDatabase.shortDescription(error))")
    }

    func writingReports<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as PipelineError { throw error } catch {
            throw PipelineError.environment("reports \(configuration.reportsDirectory): \(SleepDatabase.shortDescription(error))")
        }
    }

    enum IngestOutcome {
        case unchanged, unchangedByStat, moved(nightIDs: [String])
        case ingested(nightIDs: [String], kind: RecordingKind, warnings: [String])
        /// A copy of a recording stored under another path that still exists: stored once.
        case twin(of: String)
    }

    static func timestamp(_ date: Date = Date()) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try e.encode(value), as: UTF8.self)
    }

    /// The run's parameters for the `runs` table (``RunParameters``): a nightly run compares them
    /// with the previous run's to know what its reports show, and reuses them for options it is not given.
    static func parametersJSON(_ c: PipelineConfiguration, shard: ShardStamp? = nil) -> String {
        (try? json(RunParameters(c, shard: shard))) ?? "{}"
    }
}
