import Foundation
import GRDB
import Logging
import Testing
import SleepCore
import SleepIngest
import SleepPipeline
import SleepReport
import SleepStore

/// A recording's own rows read back (`recordings`, `recording_quality`, `recording_rhythm`) are
/// input too: a value sleepsta never writes there costs that recording's pages in `render`, its
/// row in `export --what recordings`, its nights in `compare` and in a `run --prune`, each named
/// with the recording and the table (exit 1); every other recording is rendered, never a trap.
@Suite("A recording's rows read back from a database", .serialized)
struct RecordingRowTrustTests {
    static let start = StoredRowTrustTests.start
    static let phone = "(SELECT id FROM recordings WHERE path = 'phone.csv')"

    /// A value sleepsta never writes in one of phone.csv's rows; `nightPages`: whether the
    /// recording's night pages read that row (they show its facts), else only its recording page does.
    struct Damage: CustomStringConvertible {
        var table: String
        var sql: String
        var nightPages = true
        var description: String { sql }
    }

    static let damages: [Damage] = [
        Damage(table: "recordings", sql: "UPDATE recordings SET sample_count = 'many' WHERE path = 'phone.csv'"),
        Damage(table: "recordings", sql: "UPDATE recordings SET first_utc = 9223372036854775807 WHERE path = 'phone.csv'"),
        Damage(table: "recordings", sql: "UPDATE recordings SET effective_rate_hz = 1e300 WHERE path = 'phone.csv'"),
        Damage(table: "recordings", sql: "UPDATE recordings SET time_zone_source = 'sundial' WHERE path = 'phone.csv'"),
        Damage(table: "recordings", sql: "UPDATE recordings SET format = 'scroll' WHERE path = 'phone.csv'"),
        Damage(table: "recording_quality", sql: "UPDATE recording_quality SET gap_count = 'several' WHERE recording_id = \(phone)"),
        Damage(table: "recording_quality", sql: "UPDATE recording_quality SET effective_sample_rate_hz = 1e300 WHERE recording_id = \(phone)"),
        Damage(table: "recording_quality", sql: "UPDATE recording_quality SET covered_seconds = 9223372036854775807 WHERE recording_id = \(phone)"),
        Damage(table: "recording_rhythm", sql: "UPDATE recording_rhythm SET activity_f32le = x'000000' WHERE recording_id = \(phone)", nightPages: false),
        Damage(table: "recording_rhythm", sql: "UPDATE recording_rhythm SET interdaily_stability = 'high' WHERE recording_id = \(phone)", nightPages: false),
        Damage(table: "recording_rhythm", sql: "UPDATE recording_rhythm SET start_utc = 9223372036854775807 WHERE recording_id = \(phone)", nightPages: false),
        Damage(table: "recording_rhythm", sql: "UPDATE recording_rhythm SET epoch_seconds = 0 WHERE recording_id = \(phone)", nightPages: false),
    ]

    /// A day of a rest-activity rhythm per recording, as a wearable's would be stored (phones get
    /// none at ingest): so that each recording page has an actogram to draw from the row.
    static let rhythmRows = """
        INSERT INTO recording_rhythm (recording_id, source, epoch_seconds, days, status, interdaily_stability, intradaily_variability,
                                      relative_amplitude, l5, l5_start, m10, m10_start, sleep_regularity_index, activity_f32le, start_utc)
        SELECT id, 'ENMO per minute', 60, 1.0, 'computed', 0.5, 0.8, 0.9, 1.5, '02:00', 40.0, '10:00', 70.0, zeroblob(1440 * 4), \(start) FROM recordings
        """

    /// Two phone recordings (`phone.csv`, `other.csv`), one night each, with a rhythm row each.
    static func store(_ w: Workspace) throws {
        try StoredRowTrustTests.store(w)
        let queue = try DatabaseQueue(path: w.db)
        try queue.write { try $0.execute(sql: rhythmRows) }
        try queue.close()
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test("render skips the pages that read a damaged recording row, naming the recording and the table; the other recording's pages are written")
    func renderSkipsTheRecording() throws {
        let w = Workspace()
        try Self.store(w)
        // The store as sleepsta wrote it renders both recordings whole.
        let clean = try ReportRender(databasePath: w.db, reportsDirectory: w.root + "/Reports-clean").run()
        #expect(clean.skipped.isEmpty, "\(clean.skipped)")
        #expect(Self.exists(w.root + "/Reports-clean/recordings/phone.csv/actogram.png"))
        for (k, d) in Self.damages.enumerated() {
            let db = w.root + "/damaged-\(k).sqlite"
            try StoredRowTrustTests.copy(w.db, to: db, applying: d.sql)
            let reports = w.root + "/Reports-\(k)"
            let s = try ReportRender(databasePath: db, reportsDirectory: reports).run()
            #expect(!s.skipped.isEmpty && s.skipped.allSatisfy { $0.contains("phone") }, "\(d): \(s.skipped)")
            #expect(s.skipped.contains { $0.contains("recording 'phone.csv'") && $0.contains("table \(d.table)") }, "\(d): \(s.skipped)")
            for page in ["other_2024-06-15/index.html", "other_2024-06-15/movement.png", "recordings/other.csv/index.html",
                         "recordings/other.csv/actogram.png", "index.html"] {
                #expect(Self.exists(reports + "/" + page), "\(d): \(page)")
            }
            #expect(!Self.exists(reports + "/recordings/phone.csv/index.html"), "\(d)")
            #expect(Self.exists(reports + "/\(StoredRowTrustTests.night)/index.html") == !d.nightPages, "\(d)")
            let index = try String(contentsOfFile: reports + "/index.html", encoding: .utf8)
            #expect(index.contains("recordings/other.csv/index.html") && !index.contains("recordings/phone.csv/index.html"), "\(d): the index links only pages written")
        }
    }

    @Test("export --what recordings leaves out the recording whose row it cannot read, naming it and the table")
    func exportSkipsTheRecording() throws {
        let w = Workspace()
        try Self.store(w)
        for (k, d) in Self.damages.enumerated() {
            let db = w.root + "/damaged-\(k).sqlite"
            try StoredRowTrustTests.copy(w.db, to: db, applying: d.sql)
            let out = w.root + "/recordings-\(k).csv"
            let result = try Exporter(configuration: ExportConfiguration(databasePath: db, table: .recordings, analysis: .all, outputPath: out)).runReporting()
            #expect(result.unreadable.contains { $0.contains("recording 'phone.csv'") && $0.contains("table \(d.table)") }, "\(d): \(result.unreadable)")
            let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix("other.csv,") } && !lines.contains { $0.hasPrefix("phone.csv,") }, "\(d)")
        }
        // A rhythm number that is not one is left out of the participants export too, named.
        let db = w.root + "/damaged-is.sqlite"
        try StoredRowTrustTests.copy(w.db, to: db, applying: "UPDATE recording_rhythm SET interdaily_stability = 'high' WHERE recording_id = \(Self.phone)")
        let result = try Exporter(configuration: ExportConfiguration(databasePath: db, table: .participants, analysis: .all,
                                                                     outputPath: w.root + "/participants.csv")).runReporting()
        #expect(result.unreadable.count == 1 && result.unreadable[0].contains("recording 'phone.csv': table recording_rhythm: interdaily_stability"),
                "\(result.unreadable)")
    }

    static func quietLogger() -> Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    @Test("compare leaves out a night whose catalog or analysis row it cannot read, naming it, and compares the others")
    func compareSkipsTheNight() throws {
        let w = Workspace()
        try Self.store(w)
        let cases: [(table: String, sql: String)] = [
            ("recordings", "UPDATE recordings SET time_zone_source = 'sundial' WHERE path = 'phone.csv'"),
            ("recordings", "UPDATE recordings SET format = 'scroll' WHERE path = 'phone.csv'"),
            ("nights", "UPDATE nights SET offsets_json = '[]' WHERE id = '\(StoredRowTrustTests.night)'"),
            ("night_metrics", "UPDATE night_metrics SET total_sleep_time_min = 1e300 WHERE night_id = '\(StoredRowTrustTests.night)'"),
        ]
        for (k, c) in cases.enumerated() {
            let db = w.root + "/damaged-\(k).sqlite"
            try StoredRowTrustTests.copy(w.db, to: db, applying: c.sql)
            let s = try IntervalComparisonRun(configuration: CompareConfiguration(databasePath: db, reportsDirectory: w.root + "/Reports-\(k)",
                                                                                  lengths: [.tenMinutes, .fifteenMinutes]),
                                              logger: Self.quietLogger()).run()
            #expect(s.skipped.count == 1 && s.skipped[0].contains(StoredRowTrustTests.night) && s.skipped[0].contains("table \(c.table)"), "\(c.sql): \(s.skipped)")
            #expect(s.comparison.nights.map(\.nightID) == ["other_2024-06-15"], "\(c.sql)")
            #expect(Self.exists(s.reportFolder + "/index.html"), "\(c.sql)")
            let run = try #require(try SleepDatabase(path: db).allRuns().last)
            #expect(run.command == "compare" && run.status == "some-files-failed", "\(c.sql)")
        }
    }

    @Test("run --prune removes the recording whose file is gone and skips, named, the damaged rows of a recording that stays (exit 1)")
    func pruneSkipsTheRecording() throws {
        let damages = Self.damages + [
            Damage(table: "nights", sql: "UPDATE nights SET offsets_json = '[]' WHERE id = '\(StoredRowTrustTests.night)'"),
        ]
        for d in damages {
            let w = Workspace()
            try Self.store(w)
            w.write("third.csv", Workspace.phoneNight(startUTC: Self.start + 2 * 86_400))
            _ = try w.run()
            // phone.csv's rows are damaged and other.csv's file is gone.
            let queue = try DatabaseQueue(path: w.db)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                try db.execute(sql: d.sql)
                #expect(db.changesCount > 0, "\(d)")
            }
            try queue.close()
            try FileManager.default.removeItem(atPath: w.data + "/other.csv")
            let s = try w.run { $0.prune = true }
            #expect(s.prunedRecordings == 1 && s.exitCode == ExitStatus.someFilesFailed, "\(d): pruned \(s.prunedRecordings), exit \(s.exitCode)")
            #expect(s.unreadableRows.contains { $0.contains("phone") && $0.contains("table \(d.table)") }, "\(d): \(s.unreadableRows)")
            // A file hashed again whose stored recording row cannot be read fails, naming the row; the run goes on.
            #expect(s.failures.allSatisfy { $0.path == "phone.csv" && $0.error.contains("recording 'phone.csv': table \(d.table)") }, "\(d): \(s.failures)")
            #expect(try SleepDatabase(path: w.db).recordingPaths() == ["phone.csv", "third.csv"], "\(d)")
            #expect(!Self.exists(w.reports + "/other_2024-06-15") && !Self.exists(w.reports + "/recordings/other.csv"), "\(d): pruned pages")
            for page in ["third_2024-06-16/index.html", "recordings/third.csv/index.html", "index.html"] {
                #expect(Self.exists(w.reports + "/" + page), "\(d): \(page)")
            }
        }
    }

    @Test("nightly with a diary re-derives the nights: one whose recording row cannot be read is named and not analysed, the other is (exit 1)")
    func rederiveSkipsTheNight() throws {
        let w = Workspace()
        try Self.store(w)
        let queue = try DatabaseQueue(path: w.db)
        try queue.write { try $0.execute(sql: "UPDATE recordings SET first_utc = 9223372036854775807 WHERE path = 'phone.csv'") }
        try queue.close()
        let diaryPath = w.root + "/diary.csv"
        try "id,night,in_bed,out_of_bed\nphone,2024-06-14,23:30,06:30\nother,2024-06-15,23:30,06:30\n".write(toFile: diaryPath, atomically: true, encoding: .utf8)
        let s = try w.run { $0.diary = try? SleepDiary.read(path: diaryPath) }
        #expect(s.exitCode == ExitStatus.someFilesFailed)
        #expect(s.unreadableRows.contains { $0.contains("recording 'phone.csv': table recordings: first_utc") }, "\(s.unreadableRows)")
        let counts = try SleepDatabase(path: w.db).query("SELECT night_id, COUNT(*) AS n FROM analyses GROUP BY night_id ORDER BY night_id")
        #expect(counts.map { "\($0["night_id"]!) \($0["n"]!)" } == ["other_2024-06-15 2", "\(StoredRowTrustTests.night) 1"], "\(counts)")
        #expect(Self.exists(w.reports + "/other_2024-06-15/index.html"))
    }

    @Test("the commands exit 1 naming the recording and the table on stderr",
          .enabled(if: SleepstaBinary.path != nil, Comment(rawValue: SleepstaBinary.missingMessage)))
    func exitCodes() throws {
        let w = Workspace()
        try Self.store(w)
        let db = w.root + "/damaged.sqlite"
        try StoredRowTrustTests.copy(w.db, to: db, applying: "UPDATE recordings SET time_zone_source = 'sundial' WHERE path = 'phone.csv'")
        let commands: [[String]] = [
            ["render", "--db", db, "--reports", w.root + "/R-render"],
            ["compare", "--db", db, "--reports", w.root + "/R-compare", "--intervals", "10m,15m", "--quiet"],
            ["export", "--db", db, "--what", "recordings", "--output", w.root + "/recordings.csv"],
        ]
        for (k, arguments) in commands.enumerated() {
            let child = try ChildProcess.sleepsta(arguments, in: w.root, outputPrefix: w.root + "/cli-\(k)")
            let r = child.wait()
            #expect(r.exitCode == ExitStatus.someFilesFailed, "\(arguments[0]): \(String(describing: r.exitCode)) \(r.stderr)")
            #expect(r.stderr.contains("recording 'phone.csv'") && r.stderr.contains("table recordings") && r.stderr.contains("time_zone_source 'sundial'"),
                    "\(arguments[0]): \(r.stderr)")
        }
        #expect(Self.exists(w.root + "/R-render/recordings/other.csv/index.html"))
    }
}
