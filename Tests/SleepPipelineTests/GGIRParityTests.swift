import Foundation
import GRDB
import Testing
import SleepCore
import SleepPipeline
import SleepStore
import SleepstaWorkloads

/// `--method ggir` against GGIR 3.3-6 itself. The reference rows are GGIR's own output
/// (`part4_nightsummary_sleep_full.csv` and `part4_nightsummary_sleep_cleaned.csv`) from running
/// GGIR 3.3-6 with its defaults (`../shared/peers/ggir/run_ggir.R FILE OUT Europe/Berlin device`,
/// what `make validate-ggir` runs) on exactly the files these tests generate: the bench's 7-day
/// `.cwa` and the hard cases' `.cwa` (still sleepers, a nightstand, a table, a shower, a day sleeper).
/// GGIR is not needed to run the tests.
@Suite("GGIR parity: --method ggir reproduces GGIR 3.3-6's nights", .serialized)
struct GGIRParityTests {
    /// GGIR's night: evening date, kept in its cleaned summary, `sleeponset_ts`, `wakeup_ts`,
    /// SptDuration and SleepDurationInSpt (min), `fraction_night_invalid`.
    typealias Reference = (date: String, kept: Bool, onset: String, wake: String, spt: Double, tst: Double, invalid: Double)

    static let benchWeek: [Reference] = [
        ("2024-06-13", false, "02:46:30", "05:40:45", 174.24, 172.68, 0.625),
        ("2024-06-14", true, "23:17:25", "06:53:20", 455.94, 199.92, 0.177),
        ("2024-06-15", false, "06:45:00", "06:51:55", 6.90, 6.90, 0.438),
        ("2024-06-16", true, "23:10:35", "06:47:30", 456.90, 109.26, 0.24),
        ("2024-06-17", true, "03:30:00", "06:55:10", 205.14, 203.82, 0.177),
        ("2024-06-18", true, "23:09:55", "06:53:15", 463.32, 13.26, 0.312),
        ("2024-06-19", true, "23:21:05", "06:52:05", 451.02, 404.40, 0.031),
        ("2024-06-20", false, "23:20:50", "23:44:55", 24.06, 24.06, 0.51),
    ]
    static let hardCases: [Reference] = [
        ("2024-06-13", false, "03:45:00", "06:52:30", 187.50, 184.56, 0.656),
        ("2024-06-14", true, "05:00:00", "07:59:55", 179.94, 131.94, 0.24),
        ("2024-06-15", false, "06:48:10", "06:54:00", 5.82, 5.82, 0.354),
        ("2024-06-16", false, "04:03:45", "06:54:00", 170.22, 1.98, 0.344),
        ("2024-06-17", true, "04:29:15", "04:44:55", 15.66, 15.66, 0.26),
        ("2024-06-18", false, "23:17:25", "00:59:55", 102.48, 102.48, 0.458),
    ]

    /// The files `sleepsta-bench scenarios` writes over a change of the clocks (Europe/Berlin, 100 Hz):
    /// GGIR reads the device's clock as wall-clock time (``GGIRClockView``), so after the change its
    /// times are the device's, an hour later (autumn) or earlier (spring) than real time.
    static let autumn: [Reference] = [
        ("2024-10-24", false, "02:46:30", "05:40:45", 174.24, 172.68, 0.625),
        ("2024-10-25", true, "03:45:00", "06:53:20", 188.34, 187.44, 0.177),
        ("2024-10-26", false, "06:45:00", "07:53:25", 68.40, 68.16, 0.479),
        ("2024-10-27", true, "03:00:00", "05:59:55", 179.94, 177.90, 0.167),
        ("2024-10-28", false, "00:13:05", "00:44:55", 31.86, 31.86, 0.469),
    ]
    static let spring: [Reference] = [
        ("2024-03-28", false, "22:59:42", "04:56:31", 356.82, 1.98, 0.781),
        ("2024-03-29", true, "23:07:30", "06:52:15", 464.76, 127.56, 0.229),
        ("2024-03-30", true, "23:12:00", "05:52:10", 400.14, 130.08, 0.312),
        ("2024-03-31", true, "22:10:35", "05:47:30", 456.90, 109.26, 0.24),
    ]

    @Test("Autumn's change of the clocks (.cwa): GGIR's hour of filler and its clock an hour late, reproduced")
    func autumnClockChange() throws {
        try check(WearableCSVGenerator.autumnClockChange(rateHz: 100), Self.autumn, shared: true)
    }

    @Test("Spring's change of the clocks (.cwa): GGIR's dropped hour and its clock an hour early, reproduced (23-h night included)")
    func springClockChange() throws {
        try check(WearableCSVGenerator.springClockChange(rateHz: 100), Self.spring, shared: true)
    }

    @Test("The bench's 7-day .cwa: every night GGIR keeps within one 5-s epoch (onset, wake) and 1 min (SPT, TST); the nights it drops are not scored")
    func benchWeek() throws {
        try check(WearableCSVGenerator(days: 7), Self.benchWeek)
    }

    @Test("The hard cases (.cwa): GGIR's nights, still sleep lost and all, reproduced")
    func hardCases() throws {
        var g = WearableCSVGenerator(days: WearableEvent.hardCaseDays, rateHz: 100, events: WearableEvent.hardCases)
        g.seed = 29
        try check(g, Self.hardCases)
    }

    @Test("A .cwa stored before its GGIR scores followed GGIR's clock is read again once by --method ggir, then matches GGIR")
    func scoresStoredBeforeAreReadAgain() throws {
        try check(WearableCSVGenerator.springClockChange(rateHz: 100), Self.spring, shared: true) { w in
            // As an older sleepsta left it (migration v16 gives such a .cwa milestone version 0):
            // the default method's run, without the scores' clock.
            _ = try w.run(tz: "Europe/Berlin")
            try DatabaseQueue(path: w.db).write { try $0.execute(sql: "UPDATE recordings SET ggir_scores_clock = NULL, milestone_version = 0") }
            let db = try SleepDatabase(path: w.db)
            let hash = try #require(try db.query("SELECT content_hash FROM recordings").first?["content_hash"])
            #expect(try db.milestoneOutdated(contentHash: hash))
        } after: { w, summary in
            #expect(summary.filesIngested == 1, "read again for its GGIR scores")
            let db = try SleepDatabase(path: w.db)
            #expect(try db.query("SELECT milestone_version FROM recordings").first?["milestone_version"] == String(SleepDatabase.milestoneVersion))
            let hash = try #require(try db.query("SELECT content_hash FROM recordings").first?["content_hash"])
            #expect(try !db.milestoneOutdated(contentHash: hash))
        }
    }

    /// `shared`: the file is one other tests read too (the clock changes), made once per process.
    func check(_ generator: WearableCSVGenerator, _ reference: [Reference], shared: Bool = false, before: (Workspace) throws -> Void = { _ in },
               after: (Workspace, RunSummary) throws -> Void = { _, _ in }) throws {
        let w = Workspace()
        let file = w.data + "/wrist.cwa"
        if shared { try SharedRecordings.writeCWA(generator, to: file) } else { try WearableCWAGenerator(signal: generator).write(to: file) }
        try before(w)
        let summary = try w.run(tz: "Europe/Berlin") { $0.parameters.nightMethod = .ggir }
        try after(w, summary)
        try? FileManager.default.removeItem(atPath: file)
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        let db = try SleepDatabase(path: w.db)
        let rows = try db.query("""
            SELECT n.night_date, a.status, a.notes_json, a.details_json, m.sleep_onset_utc, m.wake_time_utc,
                   m.sleep_period_min, m.total_sleep_time_min
            FROM analyses a JOIN nights n ON n.id = a.night_id LEFT JOIN night_metrics m ON m.analysis_id = a.id
            """)
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        func clock(_ utc: String?) -> String {
            guard let s = utc, let t = Int64(s) else { return "–" }
            let local = t + Int64(berlin.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t))))
            return LocalClock.hhmmss(localSecond: local)
        }
        for r in reference {
            let row = try #require(rows.first { $0["night_date"] == r.date }, "no night \(r.date)")
            let details = try JSONDecoder().decode(WearableNightSummary.self, from: Data((row["details_json"] ?? "{}").utf8))
            #expect(abs(details.fractionNightInvalid - r.invalid) < 0.0015, "\(r.date): invalid fraction \(details.fractionNightInvalid), GGIR \(r.invalid)")
            if r.kept {
                #expect(row["status"] == "scored", "\(r.date): \(row["status"] ?? "") \(StoredNotes.text(row["notes_json"]))")
                #expect(clock(row["sleep_onset_utc"]) == r.onset && clock(row["wake_time_utc"]) == r.wake,
                        "\(r.date): onset \(clock(row["sleep_onset_utc"])) / wake \(clock(row["wake_time_utc"])), GGIR \(r.onset) / \(r.wake)")
                let spt = Double(row["sleep_period_min"] ?? "") ?? .nan
                let tst = Double(row["total_sleep_time_min"] ?? "") ?? .nan
                #expect(abs(spt - r.spt) <= 1 && abs(tst - r.tst) <= 1, "\(r.date): SPT \(spt) / TST \(tst), GGIR \(r.spt) / \(r.tst)")
            } else {
                #expect(row["status"] != "scored", "\(r.date): GGIR drops this night, sleepsta scored it")
            }
        }
        // A night GGIR has no row for is not scored either.
        let known = Set(reference.map(\.date))
        for row in rows where !known.contains(row["night_date"] ?? "") { #expect(row["status"] != "scored", "\(row)") }
    }
}
