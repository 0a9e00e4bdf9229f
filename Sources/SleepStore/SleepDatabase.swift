import Foundation
import GRDB
import SleepCore

/// Errors the store reports in words a user can act on.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The SQLite database of nights, base series, analyses and runs (WAL mode, foreign keys on).
///
/// Every write that belongs together is one transaction: a recording with all its nights and
/// their analyses, or one night's analysis. A failure leaves nothing half written.
public final class SleepDatabase: Sendable {
    public let path: String
    package let pool: DatabasePool

    /// Opens (creating or migrating) the database at `path`. A write waits `busyTimeout` seconds
    /// for another program that holds the database (nil: ``BusyWait/configuredTimeout(environment:)``,
    /// 30 s unless `SLEEPSTA_BUSY_TIMEOUT` says), saying so when the wait starts.
    public init(path: String, busyTimeout: TimeInterval? = nil) throws {
        self.path = path
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .callback(BusyWait.callback(path: path, timeout: try busyTimeout ?? BusyWait.configuredTimeout()))
        // Opening a pool writes (GRDB makes sure a WAL file exists), so look first, read-only.
        try Self.refuseIfWrittenByNewerVersion(path: path, busyMode: config.busyMode)
        do {
            pool = try DatabasePool(path: path, configuration: config)
        } catch {
            throw StoreError(BusyWait.isBusy(error) ? "database \(path): \(BusyWait.explanation())" : "cannot open database \(path): \(error)")
        }
        let migrator = Schema.migrator
        do {
            try pool.read { db in
                if try migrator.hasBeenSuperseded(db) {
                    throw StoreError("database \(path) was written by a newer sleepsta (unknown schema migrations); refusing to touch it")
                }
            }
            try migrator.migrate(pool)
        } catch where BusyWait.isBusy(error) {
            throw StoreError("database \(path): \(BusyWait.explanation())")
        }
    }

    /// Row counts per table (for tests and `--verbose`).
    public func rowCounts() throws -> [String: Int] {
        try pool.read { db in
            var result: [String: Int] = [:]
            for t in ["recordings", "nights", "base_series", "epoch_series", "analyses", "intervals", "scores", "night_metrics", "runs"] {
                result[t] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(t)") ?? 0
            }
            return result
        }
    }

    /// The interval lengths (seconds) of the stored analyses, shortest first.
    public func storedIntervalSeconds() throws -> [Int] {
        try pool.read { db in try Int.fetchAll(db, sql: "SELECT DISTINCT interval_seconds FROM analyses ORDER BY 1") }
    }

    /// Runs a read-only SQL query for the package's tests and the bench; values as text. Not part of
    /// the library's interface: SQL stays inside SleepStore.
    package func query(_ sql: String, _ arguments: [any DatabaseValueConvertible & Sendable] = []) throws -> [[String: String]] {
        try pool.read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                var d: [String: String] = [:]
                for (col, value) in row {
                    switch value.storage {
                    case .null: d[col] = ""
                    case .int64(let i): d[col] = String(i)
                    case .double(let x): d[col] = String(x)
                    case .string(let t): d[col] = t
                    case .blob(let b): d[col] = "<\(b.count) bytes>"
                    }
                }
                return d
            }
        }
    }

    public func integrityCheck() throws -> String {
        try pool.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" }
    }
}
