#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GRDB

/// Waiting for a database another program holds: SQLite answers "busy" while another connection
/// writes (an open write transaction in an SQLite browser, a notebook, a backup tool). Two
/// sleepsta runs never meet here: the run lock (``RunLock``, `FILE.lock`) refuses the second at
/// once. So a wait is said when it starts, and a wait that runs out is an error naming the
/// database, the program that holds it where the system tells (Linux: `/proc/locks`) and what to
/// do, rather than SQLite's bare "SQLite error 5" after a silent half minute.
public enum BusyWait {
    /// How long a write waits for another program to let go, unless ``environmentVariable`` says.
    public static let defaultTimeout: TimeInterval = 30
    /// Seconds to wait instead of ``defaultTimeout`` (`0` gives up at once).
    public static let environmentVariable = "SLEEPSTA_BUSY_TIMEOUT"

    /// The wait from ``environmentVariable``, else ``defaultTimeout``; a value that is not a number
    /// of seconds is refused, not ignored.
    public static func configuredTimeout(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> TimeInterval {
        guard let text = environment[environmentVariable], !text.isEmpty else { return defaultTimeout }
        guard let seconds = TimeInterval(text), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
            throw StoreError("\(environmentVariable)='\(text)': expected the seconds to wait for a database another program holds, 0 to 86400 (default \(Int(defaultTimeout)))")
        }
        return seconds
    }

    /// Sends each "waiting for" line to `sink` (default: stderr, `sleepsta: …`). `run` and
    /// `nightly` send them to their log, which clears the progress bar first.
    public static func setNoticeSink(_ sink: @escaping @Sendable (String) -> Void) {
        mutex.lock(); defer { mutex.unlock() }
        noticeSink = sink
    }

    /// Whether `error` is SQLite's "busy" or "locked": another connection held the database.
    public static func isBusy(_ error: any Error) -> Bool {
        guard let e = error as? DatabaseError else { return false }
        return e.resultCode == .SQLITE_BUSY || e.resultCode == .SQLITE_LOCKED
    }

    /// What a busy error means, for the message that follows `database PATH: `: who held it (as
    /// found when the last wait ran out) and what to do.
    public static func explanation() -> String {
        mutex.lock(); let last = lastGiveUp; mutex.unlock()
        let held = last.map { holderText($0.holders) } ?? ""
        let waited = last.map { " within \(secondsText($0.seconds))" } ?? ""
        return "another program holds it (SQLite busy\(held)) and did not let go\(waited): close that program, or end its open "
            + "transaction (an SQLite browser, a notebook, a backup copying the file), then run again; \(environmentVariable)=SECONDS "
            + "waits longer. Two sleepsta runs never wait here: the run lock (\(last.map { $0.path + ".lock" } ?? "FILE.lock")) refuses the second at once"
    }

    /// SQLite's busy handler for the connections of the database at `path`: waits up to `timeout`,
    /// says so after the first moment, and records who held it when it gives up. Stateless per
    /// wait (the time waited follows from the number of tries), so one handler serves every
    /// connection of a pool.
    static func callback(path: String, timeout: TimeInterval) -> Database.BusyCallback {
        let sayAfter = min(1, timeout / 4)
        return { tries in
            let waited = waitedSeconds(tries: tries)
            if waited >= timeout {
                let holders = LockHolders.of(databasePath: path)
                mutex.lock(); lastGiveUp = (path, timeout, holders); mutex.unlock()
                return false
            }
            if waited >= sayAfter, tries == 0 || waitedSeconds(tries: tries - 1) < sayAfter {
                notice("waiting for \(path): another program holds it (SQLite busy\(holderText(LockHolders.of(databasePath: path)))); "
                       + "waiting up to \(secondsText(timeout)) for it to let go")
            }
            usleep(useconds_t(delay(tries: tries) * 1_000_000))
            return true
        }
    }

    // MARK: - Internals

    private static let mutex = NSLock()
    private nonisolated(unsafe) static var noticeSink: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("sleepsta: \(line)\n".utf8))
    }
    private nonisolated(unsafe) static var lastGiveUp: (path: String, seconds: TimeInterval, holders: [LockHolders.Holder])?

    static func notice(_ line: String) {
        mutex.lock(); let sink = noticeSink; mutex.unlock()
        sink(line)
    }

    /// SQLite's own back-off (sqliteDefaultBusyCallback): short sleeps first, then 100 ms.
    private static let delays: [TimeInterval] = [0.001, 0.002, 0.005, 0.010, 0.015, 0.020, 0.025, 0.025, 0.025, 0.050, 0.050]

    static func delay(tries: Int) -> TimeInterval { tries < delays.count ? delays[tries] : 0.1 }

    /// The time slept before try `tries` (0 before the first).
    package static func waitedSeconds(tries: Int) -> TimeInterval {
        let early = delays.prefix(min(tries, delays.count)).reduce(0, +)
        return early + Double(max(0, tries - delays.count)) * 0.1
    }

    static func holderText(_ holders: [LockHolders.Holder]) -> String {
        holders.isEmpty ? "" : ": " + holders.map { "process \($0.pid)" + ($0.name.isEmpty ? "" : " (\($0.name))") }.joined(separator: ", ")
    }

    static func secondsText(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}

/// The processes holding an SQLite write lock on a database, from Linux's `/proc/locks`: the WAL
/// write lock (byte 120 of `FILE-shm`) or, in rollback-journal mode, a write lock in the lock
/// bytes of the file itself (from 0x40000000). Empty where the system does not tell (macOS, a
/// process in another pid namespace) and for this process's own locks.
package enum LockHolders {
    package struct Holder: Equatable, Sendable {
        package var pid: Int32; package var name: String
        package init(pid: Int32, name: String) { self.pid = pid; self.name = name }
    }

    package static func of(databasePath path: String) -> [Holder] {
        guard let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return [] }
        let shm = fileID(path + "-shm"), db = fileID(path)
        var pids: [Int32] = []
        for line in table.split(separator: "\n") {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            // `N: POSIX ADVISORY WRITE PID MAJ:MIN:INODE START END`; `N: -> …` is a waiter.
            guard f.count >= 8, f[1] == "POSIX", f[3] == "WRITE", let pid = Int32(f[4]), pid > 0, pid != getpid(),
                  let start = UInt64(f[6]) else { continue }
            let end = UInt64(f[7]) ?? UInt64.max
            let id = String(f[5])
            let holdsWAL = id == shm && start <= 120 && end >= 120
            let holdsFile = id == db && end >= 0x4000_0000
            if (holdsWAL || holdsFile) && !pids.contains(pid) { pids.append(pid) }
        }
        return pids.map { pid in
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            return Holder(pid: pid, name: comm.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// `MAJ:MIN:INODE` as `/proc/locks` writes it (hexadecimal device numbers), nil when missing.
    static func fileID(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        let dev = UInt64(st.st_dev)
        // glibc's major()/minor() (macros Swift does not import).
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & 0xffff_f000)
        let minor = (dev & 0xff) | ((dev >> 12) & 0xffff_ff00)
        return String(major, radix: 16).leftPadded(2) + ":" + String(minor, radix: 16).leftPadded(2) + ":" + String(st.st_ino)
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
