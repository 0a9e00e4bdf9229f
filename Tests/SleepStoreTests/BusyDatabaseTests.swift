import Foundation
import GRDB
import Testing
import SleepStore

/// A database another program holds (an open write transaction): a write says it waits, and
/// when the wait runs out the error names the database, the holder where the system tells, and
/// what to do, not SQLite's bare "SQLite error 5".
@Suite("A database another program holds", .serialized)
struct BusyDatabaseTests {
    /// The "waiting for" lines, collected for the test's database only.
    final class Notices: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        init(path: String) {
            BusyWait.setNoticeSink { [self] line in
                if line.contains(path) { lock.lock(); lines.append(line); lock.unlock() }
            }
        }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    static func newPath() -> String { NSTemporaryDirectory() + "sleepsta-busy-\(UUID().uuidString).sqlite" }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test("a write waits the timeout, says so when the wait starts, then says who holds it and what to do")
    func heldByAnotherConnection() throws {
        let path = Self.newPath()
        defer { Self.remove(path) }
        let db = try SleepDatabase(path: path, busyTimeout: 0.8)
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true   // the transaction stays open between accesses, as another program's does
        let other = try DatabaseQueue(path: path, configuration: configuration)
        try other.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
        let notices = Notices(path: path)
        let started = Date()
        let error = #expect(throws: (any Error).self) { try db.markRunsInterrupted() }
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.75 && waited < 5, "waited \(waited) s")
        #expect(notices.all == ["waiting for \(path): another program holds it (SQLite busy); waiting up to 0.8 s for it to let go"])
        let text = error.map(SleepDatabase.shortDescription) ?? ""
        #expect(text.hasPrefix("another program holds it (SQLite busy) and did not let go within 0.8 s: close that program, or end its open transaction"), "\(text)")
        #expect(text.contains("SLEEPSTA_BUSY_TIMEOUT=SECONDS waits longer") && text.contains("the run lock (\(path).lock) refuses the second at once"))
        #expect(!text.contains("SQLite error 5"))

        try other.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        #expect(throws: Never.self) { try db.markRunsInterrupted() }

        // A holder that lets go during the wait: the write goes through, after the one line (said
        // once the wait passes a second, so a moment's contention says nothing).
        let patient = try SleepDatabase(path: path, busyTimeout: 10)
        try other.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
        let letGo = Thread { usleep(1_600_000); try? other.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") } }
        letGo.start()
        let before = notices.all.count
        #expect(throws: Never.self) { try patient.markRunsInterrupted() }
        #expect(notices.all.count == before + 1 && notices.all.last?.contains("waiting up to 10 s for it to let go") == true, "\(notices.all)")
    }

    @Test("the holder is named by process id and name where the system tells (Linux); opening the database waits too",
          .enabled(if: SQLiteHolder.binary != nil, "sqlite3 shell not found"))
    func heldByAnotherProcess() throws {
        let path = Self.newPath()
        defer { Self.remove(path) }
        _ = try SleepDatabase(path: path)
        let holder = try SQLiteHolder(path: path)
        defer { holder.release() }
        #if os(Linux)
        #expect(LockHolders.of(databasePath: path) == [LockHolders.Holder(pid: holder.pid, name: "sqlite3")])
        #endif
        let notices = Notices(path: path)
        let error = #expect(throws: (any Error).self) {
            let db = try SleepDatabase(path: path, busyTimeout: 0.5)
            try db.markRunsInterrupted()
        }
        let text = error.map(SleepDatabase.shortDescription) ?? ""
        #if os(Linux)
        let held = "SQLite busy: process \(holder.pid) (sqlite3)"
        #expect(text == "database \(path): " + BusyWait.explanation() && text.contains("another program holds it (\(held)) and did not let go within 0.5 s"), "\(text)")
        #expect(notices.all.count == 1 && notices.all.first?.contains("another program holds it (\(held)); waiting up to 0.5 s") == true, "\(notices.all)")
        #else
        #expect(text.hasPrefix("another program holds it (SQLite busy"), "\(text)")
        #endif
        holder.release()
        #expect(LockHolders.of(databasePath: path).isEmpty)
        #expect(throws: Never.self) { try SleepDatabase(path: path, busyTimeout: 0.5).markRunsInterrupted() }
    }

    @Test("SLEEPSTA_BUSY_TIMEOUT: seconds, else 30; a value that is not seconds is refused by name")
    func configuredTimeout() throws {
        #expect(try BusyWait.configuredTimeout(environment: [:]) == 30)
        #expect(try BusyWait.configuredTimeout(environment: ["SLEEPSTA_BUSY_TIMEOUT": "2.5"]) == 2.5)
        #expect(try BusyWait.configuredTimeout(environment: ["SLEEPSTA_BUSY_TIMEOUT": "0"]) == 0)
        for bad in ["abc", "-1", "inf", "100000"] {
            #expect(throws: (any Error).self) { try BusyWait.configuredTimeout(environment: ["SLEEPSTA_BUSY_TIMEOUT": bad]) }
        }
        let e = #expect(throws: StoreError.self) { try BusyWait.configuredTimeout(environment: ["SLEEPSTA_BUSY_TIMEOUT": "soon"]) }
        #expect(e?.message == "SLEEPSTA_BUSY_TIMEOUT='soon': expected the seconds to wait for a database another program holds, 0 to 86400 (default 30)")
        // The back-off: what was slept grows with the tries, 100 ms a try after the first ones.
        #expect(BusyWait.waitedSeconds(tries: 0) == 0)
        #expect(abs(BusyWait.waitedSeconds(tries: 11) - 0.228) < 1e-9)
        #expect(abs(BusyWait.waitedSeconds(tries: 21) - 1.228) < 1e-9)
    }
}
