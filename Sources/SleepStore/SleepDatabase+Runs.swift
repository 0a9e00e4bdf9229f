import Foundation
import GRDB

/// The run log: a run begins and finishes here, and an incremental (`nightly`) run asks for the
/// previous one.
extension SleepDatabase {
    /// The most recent run before `runID` (or the most recent of all) of one of `commands` (of
    /// any command when nil), finished or not.
    public func previousRun(before runID: Int64? = nil, commands: [String]? = nil) throws -> RunRecord? {
        try pool.read { db in
            var sql = "SELECT * FROM runs WHERE id < ?"
            var arguments: [any DatabaseValueConvertible] = [runID ?? Int64.max]
            if let commands {
                sql += " AND command IN (\(commands.map { _ in "?" }.joined(separator: ", ")))"
                arguments += commands.map { $0 as any DatabaseValueConvertible }
            }
            guard let r = try Row.fetchOne(db, sql: sql + " ORDER BY id DESC LIMIT 1",
                                           arguments: StatementArguments(arguments)) else { return nil }
            return try Self.runRecord(r)
        }
    }

    /// The last `run` or `nightly` that finished (`ok` or `some-files-failed`): the parameters a
    /// `nightly` reuses for the options it is not given, as GGIR reuses its config.csv.
    public func lastFinishedRun(commands: [String]) throws -> RunRecord? {
        try pool.read { try Self.lastFinishedRun($0, commands: commands) }
    }

    /// ``lastFinishedRun(commands:)`` of the database at `path`, not migrated: asked before a run
    /// takes the lock (another run may be writing), so it only reads and does not wait long for a
    /// writer. A plain connection, not a read-only one: after a run was killed, SQLite may first
    /// have to recover the WAL index, which a read-only connection cannot ("attempt to write a
    /// readonly database"). nil when the file holds no `runs` table.
    public static func lastFinishedRun(path: String, commands: [String]) throws -> RunRecord? {
        var configuration = Configuration()
        configuration.busyMode = .callback(BusyWait.callback(path: path, timeout: min(5, try BusyWait.configuredTimeout())))
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            guard try db.tableExists("runs") else { return nil }
            return try lastFinishedRun(db, commands: commands)
        }
    }

    static func lastFinishedRun(_ db: Database, commands: [String]) throws -> RunRecord? {
        let marks = commands.map { _ in "?" }.joined(separator: ", ")
        return try Row.fetchOne(db, sql: """
            SELECT * FROM runs WHERE command IN (\(marks)) AND status IN ('ok', 'some-files-failed') ORDER BY id DESC LIMIT 1
            """, arguments: StatementArguments(commands)).map { try Self.runRecord($0) }
    }

    /// The newest run that stored an analysis with one of `keys` of any of these nights, and how
    /// many of the nights are still in the store: what tells whether a comparison made by an
    /// earlier run is stale.
    public func latestAnalysisRun(nightIDs: [String], keys: [String]) throws -> (runID: Int64?, nightsPresent: Int) {
        try pool.read { db in
            var latest: Int64? = nil, present = 0
            for start in stride(from: 0, to: nightIDs.count, by: 500) {
                let chunk = Array(nightIDs[start..<min(start + 500, nightIDs.count)])
                let marks = chunk.map { _ in "?" }.joined(separator: ", ")
                let keyMarks = keys.map { _ in "?" }.joined(separator: ", ")
                if let id = try Int64.fetchOne(db, sql: "SELECT MAX(run_id) FROM analyses WHERE night_id IN (\(marks)) AND parameters_key IN (\(keyMarks))",
                                               arguments: StatementArguments(chunk + keys)) {
                    latest = max(latest ?? id, id)
                }
                present += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM nights WHERE id IN (\(marks))", arguments: StatementArguments(chunk)) ?? 0
            }
            return (latest, present)
        }
    }

    /// Marks every run still `running` as `interrupted`: called by a run that holds the run lock,
    /// so no live process is behind any of them (a run killed, or a machine that lost power, never
    /// finished its row). `finished_utc` stays empty: such a run did not finish. Returns their ids.
    @discardableResult
    public func markRunsInterrupted() throws -> [Int64] {
        try pool.write { db in
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM runs WHERE status = 'running' ORDER BY id")
            try db.execute(sql: "UPDATE runs SET status = 'interrupted' WHERE status = 'running'")
            return ids
        }
    }

    /// Every run, oldest first.
    public func allRuns() throws -> [RunRecord] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM runs ORDER BY id").map { try Self.runRecord($0) }
        }
    }

    public func beginRun(_ run: RunRecord) throws -> Int64 {
        try pool.write { db in
            try db.execute(sql: """
                INSERT INTO runs (started_utc, tool_version, command, parameters_json, status, parameters_changed) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [run.startedUTC, run.toolVersion, run.command, run.parametersJSON, run.status, run.parametersChanged])
            return db.lastInsertedRowID
        }
    }

    public func finishRun(_ run: RunRecord, failures: [(path: String, error: String)]) throws {
        guard let id = run.id else { return }
        try pool.write { db in
            try db.execute(sql: """
                UPDATE runs SET finished_utc = ?, files_seen = ?, files_ingested = ?, files_unchanged = ?, files_failed = ?, status = ?
                WHERE id = ?
                """, arguments: [run.finishedUTC, run.filesSeen, run.filesIngested, run.filesUnchanged, run.filesFailed, run.status, id])
            for f in failures {
                try db.execute(sql: "INSERT INTO run_failures (run_id, path, error) VALUES (?, ?, ?)", arguments: [id, f.path, f.error])
            }
        }
    }

    /// The files that failed in the latest run of one of `commands` (the run whose index page
    /// lists them), by path.
    public func latestRunFailures(commands: [String]) throws -> [(path: String, error: String)] {
        try pool.read { db in
            let marks = commands.map { _ in "?" }.joined(separator: ", ")
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM runs WHERE command IN (\(marks)) ORDER BY id DESC LIMIT 1",
                                              arguments: StatementArguments(commands)) else { return [] }
            return try Row.fetchAll(db, sql: "SELECT path, error FROM run_failures WHERE run_id = ? ORDER BY path, rowid",
                                    arguments: [id]).map { (path: $0["path"], error: $0["error"]) }
        }
    }

    /// The shell command that lists every failure of run `runID`, for a summary that lists only
    /// the first few.
    public static func failuresCommand(databasePath: String, runID: Int64?) -> String {
        "sqlite3 \(databasePath) \"SELECT path, error FROM run_failures WHERE run_id = \(runID.map(String.init) ?? "?")\""
    }
}
