#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import Testing
import SleepIngest
import SleepPipeline
import SleepReport
import SleepStore

/// Issue 15, the batch's part: a file that shrinks or is rewritten while it is read, the run lock
/// under other spellings of the database, control characters in file names, runs that were
/// killed, and spreadsheet formulas in exports.
@Suite("Nightly batch: files that change, lie or explode", .serialized)
struct ChangingInputPipelineTests {
    static let evening: Int64 = 1_718_398_800   // 2024-06-14T23:00:00+02:00

    func failures(_ db: String) throws -> [[String: String]] {
        try SleepDatabase(path: db).query("SELECT path, error FROM run_failures ORDER BY rowid")
    }

    func storedPaths(_ db: String) throws -> Set<String> {
        Set(try SleepDatabase(path: db).query("SELECT path FROM recordings").compactMap { $0["path"] })
    }

    @Test("a file truncated while it is read: reported as changed, nothing of it stored, the batch goes on, the next run reads it")
    func truncatedWhileRead() throws {
        let w = Workspace()
        let content = Workspace.phoneNight(startUTC: Self.evening)
        w.write("good.csv", Workspace.phoneNight(startUTC: Self.evening + 86_400))
        w.write("shrinking.csv", content)
        let shrinking = w.data + "/shrinking.csv"
        ParallelRawCSVReader.afterMappingForTesting = { path in if path == shrinking { _ = truncate(path, 100) } }
        let summary: RunSummary
        do {
            defer { ParallelRawCSVReader.afterMappingForTesting = nil }
            summary = try w.run()
        }
        #expect(summary.exitCode == ExitStatus.someFilesFailed)
        let failure = summary.failures.first { $0.path == "shrinking.csv" }
        #expect(failure?.error.contains("changed while it was read") == true, "\(summary.failures)")
        #expect(try storedPaths(w.db) == ["good.csv"])
        #expect(try SleepDatabase(path: w.db).query("SELECT status FROM runs").map { $0["status"] } == ["some-files-failed"])

        w.write("shrinking.csv", content)   // the copy completes
        let next = try w.run()
        #expect(next.failures.isEmpty, "\(next.failures)")
        #expect(next.filesIngested == 1)
        #expect(try storedPaths(w.db) == ["good.csv", "shrinking.csv"])
    }

    @Test("a file rewritten in place while it is read (same size, modification time put back): a failed file, retried next run")
    func rewrittenInPlace() throws {
        let w = Workspace()
        let old = Workspace.phoneNight(startUTC: Self.evening)
        let new = old.replacingOccurrences(of: "0.0", with: "0.1")
        #expect(old.utf8.count == new.utf8.count && old != new)
        w.write("export.csv", old)
        let path = w.data + "/export.csv"
        ParallelRawCSVReader.afterMappingForTesting = { p in
            guard p == path else { return }
            var st = stat()
            stat(p, &st)
            let fd = open(p, O_WRONLY)   // no O_TRUNC: in place, as a sync tool or an exporting app writes
            _ = new.withCString { pwrite(fd, $0, strlen($0), 0) }
            var times = [st.st_atim, st.st_mtim]
            futimens(fd, &times)
            close(fd)
        }
        let summary: RunSummary
        do {
            defer { ParallelRawCSVReader.afterMappingForTesting = nil }
            summary = try w.run()
        }
        #expect(summary.failures.map(\.path) == ["export.csv"])
        #expect(summary.failures.first?.error.contains("changed while it was read") == true, "\(summary.failures)")
        #expect(try storedPaths(w.db).isEmpty, "a mix of both versions was stored")

        let next = try w.run()
        #expect(next.failures.isEmpty && next.filesIngested == 1)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == new)
        let sha = try FileHashing.contentHash(path: path).blake3
        #expect(try SleepDatabase(path: w.db).query("SELECT content_hash FROM recordings").first?["content_hash"] == sha)
    }

    @Test("a reader's error for a file that changed meanwhile (a row cut by truncation) is reported as the change")
    func readerErrorOfAChangedFile() throws {
        let w = Workspace()
        w.write("cut.csv", Workspace.phoneNight(startUTC: Self.evening))
        let path = w.data + "/cut.csv"
        let seen = try FileStability.snapshot(path: path)
        let parseError = IngestError(file: path, line: 27_779, message: "expected 4 comma-separated fields (timestamp,x,y,z), found 1")
        #expect(seen.explaining(parseError, path: path) == parseError)   // unchanged: the reader's error stands
        _ = truncate(path, 1000)
        let explained = seen.explaining(parseError, path: path)
        #expect(explained.line == nil && explained.message.contains("changed while it was read"), "\(explained)")
        #expect(explained.message.contains("size \(seen.sizeBytes) -> 1000 bytes"), "\(explained)")
    }

    @Test("the run lock is the database file's own: a symlinked --db or a deleted FILE.lock meets the same lock (exit 3)")
    func lockUnderOtherSpellings() throws {
        let w = Workspace()
        w.write("night.csv", Workspace.phoneNight(startUTC: Self.evening))
        _ = try w.run()
        let held = try RunLock.forRun(databasePath: w.db)
        defer { withExtendedLifetime(held) {} }

        let alias = w.root + "/alias.sqlite"
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: w.db)
        for spelling in [alias, w.root + "/Data/../db.sqlite"] {
            #expect(throws: PipelineError.self) { _ = try RunLock.forRun(databasePath: spelling) }
            do { _ = try RunLock.forRun(databasePath: spelling) } catch {
                #expect(error.exitCode == ExitStatus.locked)
                #expect(error.description == "another sleepsta run holds \(spelling).lock; exiting")
            }
        }
        try FileManager.default.removeItem(atPath: w.db + ".lock")
        #expect(throws: PipelineError.self) { _ = try RunLock.forRun(databasePath: w.db) }

        // The whole run: exit 3, nothing recorded.
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let c = PipelineConfiguration(dataDirectory: w.data, databasePath: alias, reportsDirectory: w.reports, timeZoneIdentifier: "Europe/Berlin")
        do {
            _ = try Pipeline(configuration: c, logger: logger).run()
            Issue.record("a second run wrote while the lock was held")
        } catch let error as PipelineError {
            #expect(error.exitCode == ExitStatus.locked)
        }
        #expect(try SleepDatabase(path: w.db).query("SELECT COUNT(*) AS n FROM runs")[0]["n"] == "1")
    }

    @Test("a newline in a file name forges no line: escaped in the summary, the stored error and the pages")
    func controlCharactersInNames() throws {
        let w = Workspace()
        let forged = "bad\n2024-06-16T04:15:02+0000 error : all files fine\u{1B}[2K.csv"
        w.write(forged, "timestamp,x,y,z\n1718398800,0.1,oops,0.1\n")
        w.write("night\nsecond line.csv", Workspace.phoneNight(startUTC: Self.evening))
        let summary = try w.run()
        let text = RunSummaryText.render(summary, configuration: PipelineConfiguration(dataDirectory: w.data, databasePath: w.db,
                                                                                        reportsDirectory: w.reports))
        #expect(!text.contains("\u{1B}"))
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("2024-06-16T04:15:02") }, "\(text)")
        #expect(text.contains("bad\\n2024-06-16T04:15:02+0000 error : all files fine\\u{1B}[2K.csv:2:"), "\(text)")
        let stored = try failures(w.db)
        #expect(stored.count == 1)
        #expect(stored.first?["path"] == forged)   // the file's real name, to find it
        #expect(stored.first?["error"]?.contains("\n") == false, "\(stored)")
        #expect(stored.first?["error"]?.hasPrefix(w.data + "/bad\\n2024") == true, "\(stored)")

        // The stderr line of an environment error (exit 2 or 3) names paths too.
        #expect(ExitStatus.errorLine(PipelineError.environment("data folder /srv/x\nsleepsta: all fine does not exist"))
                == "sleepsta: data folder /srv/x\\nsleepsta: all fine does not exist\n")

        let index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(index.contains("night\\nsecond line.csv"), "the page shows the name escaped")
        #expect(!index.contains("night\nsecond line.csv"))
    }

    @Test("runs killed before they finished: the next run marks them interrupted; export --what runs says so")
    func interruptedRuns() throws {
        let w = Workspace()
        w.write("night.csv", Workspace.phoneNight(startUTC: Self.evening))
        _ = try w.run()
        // A run killed with SIGKILL leaves its row like this.
        let killedID = try SleepDatabase(path: w.db).beginRun(RunRecord(startedUTC: "2024-06-16T02:15:01Z", toolVersion: "0.1.0",
                                                                        command: "nightly", parametersJSON: "{}"))
        func exportedStatus() throws -> [String: String] {
            let out = w.root + "/runs.csv"
            try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .runs, outputPath: out)).run()
            let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            #expect(lines.first?.prefix(6).joined(separator: ",") == "run,started_utc,finished_utc,tool_version,command,status")
            return Dictionary(lines.dropFirst().map { (String($0[0]), String($0[5])) }, uniquingKeysWith: { a, _ in a })
        }
        // No live process holds the lock: the row is shown as interrupted before any run marks it.
        #expect(try exportedStatus() == ["1": "ok", "\(killedID)": "interrupted"])
        // A live run (the lock held) is shown as running.
        do {
            let live = try RunLock.forRun(databasePath: w.db)
            #expect(try exportedStatus()["\(killedID)"] == "running")
            withExtendedLifetime(live) {}
        }
        _ = try w.run()
        let rows = try SleepDatabase(path: w.db).query("SELECT id, status, finished_utc FROM runs ORDER BY id")
        #expect(rows.map { $0["status"]! } == ["ok", "interrupted", "ok"])
        #expect((rows[1]["finished_utc"] ?? "").isEmpty)   // it never finished
        #expect(try exportedStatus()["\(killedID)"] == "interrupted")
    }

    @Test("CSV exports: cells a spreadsheet would run as a formula are prefixed with ' and quoted; numbers stay numbers")
    func formulaCells() {
        #expect(CSVFormat.field("=HYPERLINK(\"http://x\",\"y\")") == "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"")
        #expect(CSVFormat.field("+cmd|' /C calc'!A0") == "\"'+cmd|' /C calc'!A0\"")
        #expect(CSVFormat.field("@SUM(A1)") == "\"'@SUM(A1)\"")
        #expect(CSVFormat.field("-night") == "\"'-night\"")
        #expect(CSVFormat.field("-0.25") == "-0.25")
        #expect(CSVFormat.field("+3") == "+3")
        #expect(CSVFormat.field("phone-1hz_2024-06-14") == "phone-1hz_2024-06-14")
        #expect(CSVFormat.line([CSVFormat.number(-1.5), "=1+1"]) == "-1.5,\"'=1+1\"\n")
    }
}
