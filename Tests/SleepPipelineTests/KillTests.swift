#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GRDB
import Testing
import SleepPipeline
import SleepReport
import SleepStore

/// A data folder big enough for kills to land in ingest and in report writing (three 3-hour 50 Hz
/// logs, 21 MB each, and five 8-hour 1 Hz logs), generated once, with the database and reports of
/// an uninterrupted `nightly` run over it as the reference, and how long that run's phases took.
private let nightlyFixtureRoot = NSTemporaryDirectory() + "sleepsta-nightly-\(getpid())"

final class NightlyFixture: @unchecked Sendable {
    static let shared = NightlyFixture()

    let root = nightlyFixtureRoot
    var data: String { root + "/Data" }
    let arguments = ["nightly", "--data", "Data", "--db", "db.sqlite", "--reports", "Reports", "--tz", "Europe/Berlin"]
    private(set) var referenceStore: StoreSnapshot?
    private(set) var referenceDatabase = ""
    private(set) var referenceReports: [String: Data] = [:]
    /// Seconds from start to the first report file, and to the end, of the reference run.
    private(set) var reportPhaseStart = 0.0
    private(set) var runDuration = 0.0
    private(set) var setupError: String?
    private var workspaces = 0
    private let lock = NSLock()

    private init() {
        atexit { try? FileManager.default.removeItem(atPath: nightlyFixtureRoot) }
        do { try prepare() } catch { setupError = "\(error)" }
    }

    private func prepare() throws {
        guard SleepstaBinary.path != nil else { setupError = SleepstaBinary.missingMessage; return }
        let fm = FileManager.default
        try? fm.removeItem(atPath: root)
        try fm.createDirectory(atPath: data, withIntermediateDirectories: true)
        let firstEvening: Int64 = 1_718_391_600   // 2024-06-14T19:00:00Z, 21:00 in Berlin
        for k in 0..<3 {
            let bytes = SyntheticNights.rawCSV(startUTC: firstEvening + Int64(k) * 86_400 + 3600, hours: 3, rateHz: 50, seed: UInt64(100 + k))
            _ = fm.createFile(atPath: data + "/phone-50hz-\(k + 1).csv", contents: Data(bytes))
        }
        for k in 0..<5 {
            let bytes = SyntheticNights.rawCSV(startUTC: firstEvening + Int64(k + 3) * 86_400 + 1800, hours: 8, rateHz: 1, seed: UInt64(200 + k))
            _ = fm.createFile(atPath: data + "/phone-1hz-\(k + 1).csv", contents: Data(bytes))
        }
        let reference = try workspace("reference")
        let start = ContinuousClock.now
        let child = try ChildProcess.sleepsta(arguments, in: reference, outputPrefix: reference + "/run")
        var firstReport: Duration?
        var outcome: ChildProcess.Outcome?
        while outcome == nil {
            if firstReport == nil, !ReportTree.files(in: reference + "/Reports").isEmpty { firstReport = ContinuousClock.now - start }
            outcome = child.poll()
            if outcome == nil { usleep(2_000) }
        }
        let total = ContinuousClock.now - start
        guard outcome?.exitCode == 0 else { setupError = "reference run failed: \(outcome!)"; return }
        runDuration = Self.seconds(total)
        reportPhaseStart = Self.seconds(firstReport ?? total)
        referenceDatabase = reference + "/db.sqlite"
        referenceStore = try StoreSnapshot(databasePath: referenceDatabase)
        referenceReports = ReportTree.files(in: reference + "/Reports")
    }

    /// A fresh folder with `Data` (a link to the shared recordings) and an empty `Reports`; the
    /// database and reports are created there by the run, with the same relative paths as the reference.
    func workspace(_ name: String) throws -> String {
        lock.lock(); workspaces += 1; let n = workspaces; lock.unlock()
        let dir = root + "/\(name)-\(n)"
        try FileManager.default.createDirectory(atPath: dir + "/Reports", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/Data", withDestinationPath: data)
        return dir
    }

    /// Runs `nightly` to the end in `dir`.
    func runToEnd(in dir: String, label: String = "rerun") throws -> ChildProcess.Outcome {
        try ChildProcess.sleepsta(arguments, in: dir, outputPrefix: dir + "/" + label).wait()
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

@Suite("Nightly under kills, concurrency and a hostile environment (child processes)", .serialized)
struct KillTests {
    let fixture = NightlyFixture.shared

    func requireFixture() throws -> StoreSnapshot {
        if let error = fixture.setupError { Issue.record(Comment(rawValue: error)) }
        return try #require(fixture.referenceStore)
    }

    /// What a database left by a killed run must satisfy: integrity, and whole nights only — every
    /// stored row is one the full run stores too, every recording has all its nights, every night
    /// its base series and analysis, and every analysis all its intervals and scores.
    func checkConsistent(_ dir: String, reference: StoreSnapshot, context: String) throws {
        let dbPath = dir + "/db.sqlite"
        guard FileManager.default.fileExists(atPath: dbPath) else { return }   // killed before the database existed
        let db = try SleepDatabase(path: dbPath)
        #expect(try db.integrityCheck() == "ok", "\(context)")
        #expect(try db.query("PRAGMA foreign_key_check").isEmpty, "\(context)")
        let snapshot = try StoreSnapshot(databasePath: dbPath)
        #expect(snapshot.isSubset(of: reference), "\(context): rows that the uninterrupted run does not store")
        let referenceDB = try SleepDatabase(path: fixture.referenceDatabase)
        for sql in Self.wholenessQueries {
            let stored = Set(try db.query(sql).map { row in row.keys.sorted().map { k in "\(k)=\(row[k]!)" }.joined(separator: "|") })
            let full = Set(try referenceDB.query(sql).map { row in row.keys.sorted().map { k in "\(k)=\(row[k]!)" }.joined(separator: "|") })
            #expect(stored.isSubset(of: full), "\(context): part of a night stored: \(stored.subtracting(full).sorted().prefix(3))")
        }
    }

    /// Per recording its night count, per night whether it has a base series and how many analyses,
    /// per analysis its interval and score counts: a subset of the full run's rows means whole nights.
    static let wholenessQueries = [
        "SELECT r.content_hash AS sha, (SELECT COUNT(*) FROM nights n WHERE n.recording_id = r.id) AS nights FROM recordings r",
        "SELECT n.id, (SELECT COUNT(*) FROM base_series b WHERE b.night_id = n.id) AS series, (SELECT COUNT(*) FROM analyses a WHERE a.night_id = n.id) AS analyses FROM nights n",
        "SELECT a.id, a.night_id, (SELECT COUNT(*) FROM intervals i WHERE i.analysis_id = a.id) AS intervals, (SELECT COUNT(*) FROM scores s WHERE s.analysis_id = a.id) AS scores, (SELECT COUNT(*) FROM night_metrics m WHERE m.analysis_id = a.id) AS metrics FROM analyses a",
    ]

    @Test("SIGKILL at ≥ 20 random points during ingest and report writing: consistent store, then the next run equals an uninterrupted one")
    func killedRunsRecover() throws {
        let reference = try requireFixture()
        var rng = SplitMix64(seed: 20_240_614)
        var landed = (ingest: 0, reports: 0, finishedFirst: 0, beforeDatabase: 0)
        var leftovers = (walBytes: 0, temporaryReports: 0)
        let wanted = 10   // kills that landed, per phase
        var attempt = 0
        while (landed.ingest < wanted || landed.reports < wanted) && attempt < 80 {
            attempt += 1
            // Aim at the phase still short of kills; where a kill really landed is read from the disk afterwards.
            let aimAtReports = landed.ingest >= wanted || (landed.reports < wanted && attempt % 2 == 0)
            let u = 0.03 + 0.94 * rng.nextUnit()
            let delay = aimAtReports
                ? fixture.reportPhaseStart + u * 0.9 * (fixture.runDuration - fixture.reportPhaseStart)
                : u * fixture.reportPhaseStart
            let dir = try fixture.workspace("kill")
            let child = try ChildProcess.sleepsta(fixture.arguments, in: dir, outputPrefix: dir + "/killed")
            if aimAtReports {
                // Wait for the first report file, then kill a random part of the way through the
                // reference's report phase (the timing of ingest varies with the machine's load).
                while ReportTree.files(in: dir + "/Reports").isEmpty && child.isRunning { usleep(1_000) }
                usleep(useconds_t(u * 0.9 * (fixture.runDuration - fixture.reportPhaseStart) * 1_000_000))
            } else {
                usleep(useconds_t(delay * 1_000_000))
            }
            if child.isRunning { child.kill() }   // never signal a pid that may have been reused
            let killed = child.wait()
            guard killed.killed else { landed.finishedFirst += 1; continue }
            let reportFiles = ReportTree.files(in: dir + "/Reports")
            // Only kills after the database exists count as "during ingest"; earlier ones are start-up.
            if !FileManager.default.fileExists(atPath: dir + "/db.sqlite") { landed.beforeDatabase += 1 }
            else if reportFiles.isEmpty { landed.ingest += 1 } else { landed.reports += 1 }
            // What the kill left behind for the next run to cope with.
            let wal = (try? FileManager.default.attributesOfItem(atPath: dir + "/db.sqlite-wal")[.size] as? NSNumber)?.intValue ?? 0
            if wal > 0 { leftovers.walBytes += 1 }
            if reportFiles.keys.contains(where: { ReportWriter.isTemporaryFileName(($0 as NSString).lastPathComponent) }) { leftovers.temporaryReports += 1 }
            let context = "kill \(attempt) after \(String(format: "%.3f", delay)) s (\(reportFiles.isEmpty ? "ingest" : "reports"))"
            // Inspect a copy, so that the next run meets the state the kill left (hot WAL and all).
            let inspected = dir + "/inspected"
            try FileManager.default.createDirectory(atPath: inspected, withIntermediateDirectories: false)
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: dir + "/db.sqlite" + suffix) {
                try FileManager.default.copyItem(atPath: dir + "/db.sqlite" + suffix, toPath: inspected + "/db.sqlite" + suffix)
            }
            try checkConsistent(inspected, reference: reference, context: context)
            let rerun = try fixture.runToEnd(in: dir)
            #expect(rerun.exitCode == 0, "\(context): rerun \(rerun)")
            let store = try StoreSnapshot(databasePath: dir + "/db.sqlite")
            #expect(store == reference, "\(context): \(store.differences(from: reference))")
            let reports = ReportTree.files(in: dir + "/Reports")
            #expect(reports == fixture.referenceReports, "\(context): \(ReportTree.differences(reports, fixture.referenceReports))")
            #expect(try SleepDatabase(path: dir + "/db.sqlite").integrityCheck() == "ok")
            try? FileManager.default.removeItem(atPath: dir)
        }
        print("KILL TEST: \(landed.ingest + landed.reports + landed.beforeDatabase) kills (\(landed.ingest) during ingest, \(landed.reports) during report writing, \(landed.beforeDatabase) at start-up), \(landed.finishedFirst) runs finished before their kill, \(attempt) attempts; \(leftovers.walBytes) left a non-empty WAL, \(leftovers.temporaryReports) a half-written report file; reference run \(String(format: "%.2f", fixture.runDuration)) s, reports from \(String(format: "%.2f", fixture.reportPhaseStart)) s")
        #expect(landed.ingest >= wanted && landed.reports >= wanted, "kills landed: \(landed)")
    }

    @Test("two nightly runs started at once: one works, the other exits 3 at once; the database equals a single run's")
    func concurrentRuns() throws {
        let reference = try requireFixture()
        let dir = try fixture.workspace("concurrent")
        let first = try ChildProcess.sleepsta(fixture.arguments, in: dir, outputPrefix: dir + "/first")
        let second = try ChildProcess.sleepsta(fixture.arguments, in: dir, outputPrefix: dir + "/second")
        let outcomes = [first.wait(), second.wait()]
        #expect(outcomes.compactMap(\.exitCode).sorted() == [0, 3], "\(outcomes)")
        if let loser = outcomes.first(where: { $0.exitCode == 3 }) {
            #expect(loser.stderr.contains("another sleepsta run holds"))
            #expect(loser.stdout.isEmpty)
        }
        #expect(try StoreSnapshot(databasePath: dir + "/db.sqlite") == reference)
        #expect(ReportTree.files(in: dir + "/Reports") == fixture.referenceReports)
        let db = try SleepDatabase(path: dir + "/db.sqlite")
        #expect(try db.query("SELECT COUNT(*) AS n FROM runs")[0]["n"] == "1")   // the loser recorded nothing
    }

    @Test("a run started while the lock is held exits 3 without touching anything")
    func lockHeld() throws {
        _ = try requireFixture()
        let dir = try fixture.workspace("locked")
        let fd = open(dir + "/db.sqlite.lock", O_RDWR | O_CREAT, 0o644)
        #expect(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
        defer { close(fd) }
        let outcome = try fixture.runToEnd(in: dir)
        #expect(outcome.exitCode == 3)
        #expect(outcome.stderr.contains("another sleepsta run holds"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/db.sqlite"))
        #expect(ReportTree.files(in: dir + "/Reports").isEmpty)
    }

    @Test("disk full during ingest and during report writing: exit 2 with the reason, store consistent, the next run completes")
    func diskFull() throws {
        let reference = try requireFixture()
        // RLIMIT_FSIZE makes writes beyond the limit fail (EFBIG) as a full disk would (ENOSPC),
        // without the privileges a small file system would need; SIGXFSZ is ignored so the write
        // returns the error instead of killing the process.
        let ingestDir = try fixture.workspace("full-ingest")
        let ingest = try ChildProcess.sleepsta(fixture.arguments, in: ingestDir, prelude: "trap '' XFSZ; ulimit -f 2048",
                                               outputPrefix: ingestDir + "/full").wait()
        #expect(ingest.exitCode == 2, "\(ingest)")
        #expect(ingest.stderr.contains("database") && (ingest.stderr.contains("full") || ingest.stderr.contains("large") || ingest.stderr.contains("I/O")), "\(ingest.stderr)")
        try checkConsistent(ingestDir, reference: reference, context: "disk full during ingest")
        let ingestRerun = try fixture.runToEnd(in: ingestDir)
        #expect(ingestRerun.exitCode == 0)
        #expect(try StoreSnapshot(databasePath: ingestDir + "/db.sqlite") == reference)
        #expect(ReportTree.files(in: ingestDir + "/Reports") == fixture.referenceReports)

        // Reports: with 1-minute intervals a night page (a row per interval) is larger than the
        // 40 KiB the run may write per file, while the database's -shm (32 KiB) and the few WAL
        // pages of the runs row fit. The store is complete and the reports folder empty.
        let reportDir = try fixture.workspace("full-reports")
        let oneMinute = fixture.arguments + ["--interval", "1m"]
        #expect(try ChildProcess.sleepsta(oneMinute, in: reportDir, outputPrefix: reportDir + "/first").wait().exitCode == 0)
        let complete = ReportTree.files(in: reportDir + "/Reports")
        let storeBefore = try StoreSnapshot(databasePath: reportDir + "/db.sqlite")
        #expect(complete.values.contains { $0.count > 40 << 10 }, "a page must exceed the limit for this test to test anything")
        try FileManager.default.removeItem(atPath: reportDir + "/Reports")
        try FileManager.default.createDirectory(atPath: reportDir + "/Reports", withIntermediateDirectories: false)
        let full = try ChildProcess.sleepsta(oneMinute, in: reportDir, prelude: "trap '' XFSZ; ulimit -f 80",
                                             outputPrefix: reportDir + "/full").wait()
        #expect(full.exitCode == 2, "\(full)")
        #expect(full.stderr.contains("cannot write"), "\(full.stderr)")
        #expect(!ReportTree.files(in: reportDir + "/Reports").keys.contains { ($0 as NSString).lastPathComponent.hasPrefix(".") },
                "a failed write leaves no temporary file")
        let db = try SleepDatabase(path: reportDir + "/db.sqlite")
        #expect(try db.integrityCheck() == "ok")
        #expect(try db.query("SELECT status FROM runs ORDER BY id").compactMap { $0["status"] } == ["ok", "failed"])
        let rerun = try ChildProcess.sleepsta(oneMinute, in: reportDir, outputPrefix: reportDir + "/rerun").wait()
        #expect(rerun.exitCode == 0)
        #expect(rerun.stdout.contains("did not finish"), "the run after a failed one renders every night: \(rerun.stdout)")
        #expect(ReportTree.differences(ReportTree.files(in: reportDir + "/Reports"), complete).isEmpty)
        #expect(try StoreSnapshot(databasePath: reportDir + "/db.sqlite") == storeBefore)
    }

    @Test("a read-only database: exit 2 naming it, the file untouched")
    func readOnlyDatabase() throws {
        _ = try requireFixture()
        let dir = try fixture.workspace("read-only")
        #expect(try fixture.runToEnd(in: dir).exitCode == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/db.sqlite"))
        chmod(dir + "/db.sqlite", 0o444)
        // root ignores file modes, so as root the run drops to `nobody` (setpriv, util-linux).
        var wrapper = ""
        if geteuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                Issue.record("running as root without /usr/bin/setpriv: cannot make a file read-only for the run; test not run")
                return
            }
            guard let binary = SleepstaBinary.path, Self.othersCanExecute(binary) else {
                print("read-only database test skipped: the sleepsta binary is not reachable for user nobody")
                return
            }
            chmod(dir, 0o777); chmod(dir + "/Reports", 0o777)
            wrapper = "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups"
        }
        let outcome = try ChildProcess.sleepsta(fixture.arguments, in: dir, wrapper: wrapper, outputPrefix: dir + "/ro").wait()
        #expect(outcome.exitCode == 2, "\(outcome)")
        #expect(outcome.stderr.contains("db.sqlite is read-only"), "\(outcome.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/db.sqlite")) == before)
    }

    /// Whether every folder on the way to `path` and the file itself are executable by others.
    static func othersCanExecute(_ path: String) -> Bool {
        var p = path
        while !p.isEmpty && p != "/" {
            var st = stat()
            guard stat(p, &st) == 0, st.st_mode & 0o001 != 0 else { return false }
            p = (p as NSString).deletingLastPathComponent
        }
        return true
    }

    @Test("a database from a newer sleepsta is refused with a clear message and left byte for byte as it was")
    func newerSchemaRefused() throws {
        _ = try requireFixture()
        let dir = try fixture.workspace("newer")
        #expect(try fixture.runToEnd(in: dir).exitCode == 0)
        do {
            let queue = try DatabaseQueue(path: dir + "/db.sqlite")
            try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: ["v99-from-the-future"]) }
            try queue.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/db.sqlite"))
        let reportsBefore = ReportTree.files(in: dir + "/Reports")
        let outcome = try fixture.runToEnd(in: dir)
        #expect(outcome.exitCode == 2)
        #expect(outcome.stderr.contains("newer sleepsta"), "\(outcome.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/db.sqlite")) == before)
        #expect(ReportTree.files(in: dir + "/Reports") == reportsBefore)
    }

    @Test("a database with an older schema is migrated forward and then used as usual")
    func olderSchemaMigrated() throws {
        let reference = try requireFixture()
        let dir = try fixture.workspace("older")
        let oldest = try #require(SleepDatabase.knownMigrations.first)
        try SleepDatabase.createSchema(path: dir + "/db.sqlite", upTo: oldest)
        let outcome = try fixture.runToEnd(in: dir)
        #expect(outcome.exitCode == 0, "\(outcome)")
        #expect(try SleepDatabase(path: dir + "/db.sqlite").appliedMigrations() == SleepDatabase.knownMigrations)
        #expect(try StoreSnapshot(databasePath: dir + "/db.sqlite") == reference)
    }

    @Test("a missing reports folder: exit 2 before anything is stored")
    func missingReportsFolder() throws {
        _ = try requireFixture()
        let dir = try fixture.workspace("no-reports")
        try FileManager.default.removeItem(atPath: dir + "/Reports")
        let outcome = try fixture.runToEnd(in: dir)
        #expect(outcome.exitCode == 2)
        #expect(outcome.stderr.contains("reports folder Reports does not exist"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/db.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/Reports"))
    }

    @Test("usage errors exit 2 (not argument-parser's 64); help exits 0")
    func usageErrors() throws {
        _ = try requireFixture()
        let dir = try fixture.workspace("usage")
        for bad in [["nightly", "--interval", "7x"], ["nightly", "--no-such-option"], ["nightly", "--verbose", "--quiet"]] {
            let outcome = try ChildProcess.sleepsta(bad, in: dir, outputPrefix: dir + "/usage").wait()
            #expect(outcome.exitCode == 2, "\(bad): \(outcome)")
            #expect(outcome.stderr.contains("Usage: sleepsta nightly"), "\(bad)")
        }
        let help = try ChildProcess.sleepsta(["nightly", "--help"], in: dir, outputPrefix: dir + "/help").wait()
        #expect(help.exitCode == 0)
        #expect(help.stdout.contains("Exit codes"))
    }

    @Test("quiet under cron: with stderr not a terminal, a clean nightly run writes nothing to stderr and the summary to stdout")
    func quietWhenNotATerminal() throws {
        _ = try requireFixture()
        let dir = try fixture.workspace("quiet")
        let first = try fixture.runToEnd(in: dir)
        #expect(first.exitCode == 0)
        #expect(first.stderr.isEmpty, "\(first.stderr)")
        #expect(first.stdout.contains("nightly: 8 file(s) in Data: 8 ingested, 0 unchanged, 0 failed"))
        let second = try fixture.runToEnd(in: dir)
        #expect(second.stdout.contains("0 ingested, 8 unchanged"))
        #expect(second.stdout.contains("0 of 8 night(s) rendered"))
        let verbose = try ChildProcess.sleepsta(fixture.arguments + ["--verbose"], in: dir, outputPrefix: dir + "/verbose").wait()
        // swift-log's stream handler: ISO 8601 timestamp, level, label.
        #expect(verbose.stderr.contains("debug sleepsta"), "\(verbose.stderr)")
        #expect(verbose.stderr.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"#, options: .regularExpression) != nil)
    }
}
