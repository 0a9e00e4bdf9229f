import Foundation
import GRDB

/// The schema's migrations as a database has them (``Schema``): which ran, which this version knows,
/// and a refusal to touch a file a newer sleepsta wrote.
extension SleepDatabase {
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
    static func refuseIfWrittenByNewerVersion(path: String, busyMode: Database.BusyMode = .immediateError) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let superseded: Bool
        do {
            var configuration = Configuration()
            configuration.busyMode = busyMode
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            superseded = try queue.read { db in try Schema.migrator.hasBeenSuperseded(db) }
        } catch {
            throw StoreError(BusyWait.isBusy(error) ? "database \(path): \(BusyWait.explanation())" : "cannot open database \(path): \(error)")
        }
        if superseded {
            throw StoreError("database \(path) was written by a newer sleepsta (unknown schema migrations); refusing to touch it")
        }
    }

    /// Creates a database with the schema as it was after migration `lastMigration` — what an
    /// older sleepsta left behind — so that migrating forward can be tested on real files.
    package static func createSchema(path: String, upTo lastMigration: String) throws {
        let queue = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(queue, upTo: lastMigration)
        try queue.close()
    }
}
