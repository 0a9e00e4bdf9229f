import Foundation
import GRDB

/// What an incremental (`nightly`) run needs to know about the store beyond single nights: the
/// previous run, the nights of a recording, the schema's migrations.
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
            return Self.runRecord(r)
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
        configuration.busyMode = .timeout(5)
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
            """, arguments: StatementArguments(commands)).map(Self.runRecord)
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
            try Row.fetchAll(db, sql: "SELECT * FROM runs ORDER BY id").map(Self.runRecord)
        }
    }

    /// Ids of the nights of the recording with this content (by date).
    public func nightIDs(contentHash hash: String) throws -> [String] {
        try pool.read { db in
            try String.fetchAll(db, sql: """
                SELECT n.id FROM nights n JOIN recordings r ON r.id = n.recording_id WHERE r.content_hash = ?
                ORDER BY n.night_date, n.id
                """, arguments: [hash])
        }
    }

    /// Names of the schema migrations applied to this database, in order.
    public func appliedMigrations() throws -> [String] {
        try pool.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
    }

    /// Names of every migration this version of sleepsta knows, in order.
    public static var knownMigrations: [String] { Schema.migrator.migrations }

    /// Throws when the file at `path` holds migrations this version does not know (a newer sleepsta
    /// wrote it), without changing it: a plain connection (not a pool, which writes on opening)
    /// only reads GRDB's migration table. Not a read-only connection: after a crash SQLite must
    /// recover the WAL index, which a read-only connection cannot (the kill tests found this).
    /// A missing file passes (it will be created).
    static func refuseIfWrittenByNewerVersion(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let superseded: Bool
        do {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            superseded = try queue.read { db in try Schema.migrator.hasBeenSuperseded(db) }
        } catch {
            throw StoreError("cannot open database \(path): \(error)")
        }
        if superseded {
            throw StoreError("database \(path) was written by a newer sleepsta (unknown schema migrations); refusing to touch it")
        }
    }

    /// Creates a database with the schema as it was after migration `lastMigration` — what an
    /// older sleepsta left behind — so that migrating forward can be tested on real files.
    static func createSchema(path: String, upTo lastMigration: String) throws {
        let queue = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(queue, upTo: lastMigration)
        try queue.close()
    }
}
