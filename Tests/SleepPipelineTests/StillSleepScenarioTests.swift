import Foundation
import Testing
import SleepCore
import SleepPipeline
import SleepStore
import SleepstaWorkloads

/// The wearable method against the generators' hard cases: a sleeper who does not turn for 3 h
/// (at the start of one night, in the middle of the next), a device taken off at night and laid on
/// a nightstand on its side, one laid flat on a table for an afternoon, and one taken off for a
/// 20-min shower; each file with and without a temperature channel, as CSV and as `.cwa`.
@Suite("Still sleep, nightstands, tables and showers through the pipeline", .serialized)
struct StillSleepScenarioTests {
    /// 06-14 23:10–02:10 still (from falling asleep), 06-16 02:00–05:00 still (in the middle), 06-17
    /// 02:00–07:30 on the nightstand, 06-15 07:40–08:00 the shower, 06-18 04:30–12:30 a day sleeper,
    /// and the recording ends at 02:00 of 06-19 (``WearableEvent/hardCases``).
    static let events = WearableEvent.hardCases
    /// The script's table afternoon: 06-15 14:00–17:00 local.
    static let table: (from: Int64, to: Int64) = (1_718_452_800, 1_718_463_600)

    struct Variant: CustomStringConvertible {
        var format: String, temperature: Bool
        var description: String { "\(format)\(temperature ? " with temperature" : "")" }
    }

    @Test("Still sleepers lose ≤ 10 min of TST, onset and wake within 15 min; the nightstand, table and shower are not worn and never sleep",
          arguments: [Variant(format: "csv", temperature: false), Variant(format: "csv", temperature: true),
                      Variant(format: "cwa", temperature: false), Variant(format: "cwa", temperature: true)])
    func scenarios(_ v: Variant) throws {
        // Two rates, two encodings: CSV at 10 Hz, .cwa at 25 Hz (an Axivity rate; 100 Hz would
        // only make the file four times longer to write and read).
        var generator = WearableCSVGenerator(days: WearableEvent.hardCaseDays, rateHz: v.format == "cwa" ? 25 : 10, events: Self.events, temperature: v.temperature)
        generator.seed = 29
        let truth = generator.truth()
        let spans = generator.eventSpansUTC()
        let w = Workspace()
        let file = w.data + "/scenario." + v.format
        if v.format == "cwa" { try WearableCWAGenerator(signal: generator).write(to: file) } else { try generator.write(to: file) }
        let summary = try w.run(tz: "Europe/Berlin") { _ in }
        try? FileManager.default.removeItem(atPath: file)
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        let db = try SleepDatabase(path: w.db)
        let rows = try db.query("""
            SELECT a.night_id, a.status, m.sleep_onset_utc, m.wake_time_utc, m.total_sleep_time_min
            FROM analyses a LEFT JOIN night_metrics m ON m.analysis_id = a.id ORDER BY a.night_id
            """)
        func night(_ date: String) throws -> (onset: Int64, wake: Int64, tst: Double) {
            let row = try #require(rows.first { $0["night_id"]!.hasSuffix(date) }, "no night \(date) in \(rows)")
            #expect(row["status"] == "scored", "\(v) \(date): \(row)")
            return (Int64(row["sleep_onset_utc"] ?? "0") ?? 0, Int64(row["wake_time_utc"] ?? "0") ?? 0, Double(row["total_sleep_time_min"] ?? "0") ?? 0)
        }
        // The still sleepers: nights 06-14 (still from the start) and 06-15 (still in the middle).
        for (date, scripted) in [("2024-06-14", truth[0]), ("2024-06-15", truth[1])] {
            let n = try night(date)
            let dOn = Double(n.onset - scripted.onsetUTC) / 60, dWake = Double(n.wake - scripted.wakeUTC) / 60
            let lost = Double(scripted.sleepMinutes) - n.tst
            print("SCENARIO \(v) \(date): onset \(dOn) min, wake \(dWake) min, TST \(n.tst) (script \(scripted.sleepMinutes), lost \(lost))")
            #expect(abs(dOn) <= 15 && abs(dWake) <= 15, "\(v) \(date): onset \(dOn), wake \(dWake) min")
            #expect(lost <= 10 && lost >= -30, "\(v) \(date): TST \(n.tst) against \(scripted.sleepMinutes)")
        }
        // The nightstand: the night ends when the device was taken off, and its onset is the script's.
        let stand = try night("2024-06-16")
        print("SCENARIO \(v) 2024-06-16: onset \(Double(stand.onset - truth[2].onsetUTC) / 60) min, wake \(Double(stand.wake - spans[2].from) / 60) min from the take-off")
        #expect(abs(stand.onset - truth[2].onsetUTC) <= 15 * 60)
        #expect(stand.wake <= spans[2].from + 5 * 60 && stand.wake >= spans[2].from - 30 * 60, "\(v): wake \(stand.wake), taken off \(spans[2].from)")
        // The day sleeper: the night's window ends at noon, so the guider runs again from 18:00 to
        // 18:00 (GGIR's daysleeper) and finds the day sleep whole.
        let day = try night("2024-06-17")
        let dayFacts = try JSONDecoder().decode(WearableNightSummary.self, from: Data(try #require(
            try db.query("SELECT details_json FROM analyses WHERE night_id LIKE '%2024-06-17'").first?["details_json"]).utf8))
        print("SCENARIO \(v) 2024-06-17 day sleeper: onset \(Double(day.onset - spans[4].from) / 60) min, wake \(Double(day.wake - spans[4].to) / 60) min, TST \(day.tst) of 480")
        #expect(dayFacts.daysleeper && dayFacts.guider == "HDCZA", "\(v): \(dayFacts)")
        // The .cwa's block temperature is read and decides the still stretches (the CSV's column is not read).
        let stillFacts = try JSONDecoder().decode(WearableNightSummary.self, from: Data(try #require(
            try db.query("SELECT details_json FROM analyses WHERE night_id LIKE '%2024-06-14'").first?["details_json"]).utf8))
        #expect(stillFacts.temperatureDecides == (v.format == "cwa" && v.temperature ? true : nil), "\(v): \(stillFacts)")
        #expect(abs(day.onset - spans[4].from) <= 15 * 60 && abs(day.wake - spans[4].to) <= 15 * 60, "\(v): \(day)")
        #expect(day.tst >= 450 && day.tst <= 490, "\(v): TST \(day.tst)")
        // The short last day (06-18 12:00 to 06-19 02:00) is too little data.
        #expect(rows.first { $0["night_id"]!.hasSuffix("2024-06-18") }?["status"] == "insufficient-data")
        // Nightstand, shower and table: not worn (no state) and never sleep.
        for (label, span) in [("nightstand", spans[2]), ("shower", spans[3]), ("table", Self.table)] {
            let counts = try #require(try db.query("""
                SELECT COUNT(*) AS n, SUM(s.state IS NULL) AS off, SUM(s.state = 'S') AS sleep
                FROM scores s WHERE s.start_utc >= ? AND s.start_utc < ?
                """, [span.0, span.1]).first)
            let n = Int(counts["n"]!)!, off = Int(counts["off"] ?? "0") ?? 0, sleep = Int(counts["sleep"] ?? "0") ?? 0
            print("SCENARIO \(v) \(label): \(n) epochs, \(off) not worn, \(sleep) sleep")
            #expect(n == Int(span.1 - span.0) / 5, "\(v) \(label): \(n) epochs")
            #expect(sleep == 0, "\(v) \(label): \(sleep) epochs scored sleep")
            #expect(Double(off) >= 0.95 * Double(n), "\(v) \(label): \(off) of \(n) epochs not worn")
        }
        #expect(try db.query("SELECT COUNT(*) AS n FROM scores WHERE state = 'S'").first?["n"].flatMap { Int($0) } ?? 0 > 0)
        // The pages say what was taken as worn and as laid down; a caution only where non-wear remains by the night.
        let still = try String(contentsOfFile: w.reports + "/scenario_2024-06-14/index.html", encoding: .utf8)
        #expect(still.contains("Still, but worn") && still.contains("07:40–08:00") && !still.contains("<p class=\"note caution\"></p>"))
        #expect(!still.contains("class=\"note caution\""), "no non-wear is left in the still sleeper's night")
        let standPage = try String(contentsOfFile: w.reports + "/scenario_2024-06-16/index.html", encoding: .utf8)
        #expect(standPage.contains("class=\"note caution\">30 min marked not worn"), "the nightstand begins as the sleep window ends")
    }
}

/// The wearable method over a change of the clocks: the night of the change lasts 25 h (autumn)
/// or 23 h (spring) on the wall clock the script follows, while the device's clock keeps its offset.
@Suite("Wrist nights over a clock change (DST)", .serialized)
struct ClockChangeWearableTests {
    @Test("Autumn (25-h night) and spring (23-h night), CSV and .cwa: every full night within 15 min of the script's onset and wake, TST within 30 min; the window spans the wall clock's noon to noon",
          arguments: [("autumn", "csv"), ("autumn", "cwa"), ("spring", "csv"), ("spring", "cwa")])
    func clockChange(_ season: String, _ format: String) throws {
        let rate = format == "cwa" ? 100 : 10
        let generator = season == "autumn" ? WearableCSVGenerator.autumnClockChange(rateHz: rate)
                                            : WearableCSVGenerator.springClockChange(rateHz: rate)
        let truth = generator.truth()
        let w = Workspace()
        let file = w.data + "/dst-\(season)." + format
        // The 100 Hz .cwa files are the GGIR parity tests' too.
        if format == "cwa" { try SharedRecordings.writeCWA(generator, to: file) } else { try generator.write(to: file) }
        let summary = try w.run(tz: "Europe/Berlin") { _ in }
        try? FileManager.default.removeItem(atPath: file)
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        let db = try SleepDatabase(path: w.db)
        let rows = try db.query("""
            SELECT a.night_id, a.status, n.window_start_utc, n.window_end_utc, m.sleep_onset_utc, m.wake_time_utc, m.total_sleep_time_min
            FROM analyses a JOIN nights n ON n.id = a.night_id LEFT JOIN night_metrics m ON m.analysis_id = a.id ORDER BY a.night_id
            """)
        let changeNight = season == "autumn" ? "2024-10-26" : "2024-03-30"
        let change = try #require(rows.first { $0["night_id"]!.hasSuffix(changeNight) })
        let hours = (Int64(change["window_end_utc"]!)! - Int64(change["window_start_utc"]!)!) / 3600
        #expect(hours == (season == "autumn" ? 25 : 23), "\(season): the night of the change spans \(hours) h")
        var scored = 0
        for row in rows where row["status"] == "scored" {
            let onset = Int64(row["sleep_onset_utc"]!)!, wake = Int64(row["wake_time_utc"]!)!, tst = Double(row["total_sleep_time_min"]!)!
            let night = try #require(truth.first { abs($0.onsetUTC - onset) < 4 * 3600 }, "no scripted night near \(row["night_id"]!)")
            let dOn = Double(onset - night.onsetUTC) / 60, dWake = Double(wake - night.wakeUTC) / 60, dTST = tst - Double(night.sleepMinutes)
            print("DST \(season) \(format) \(row["night_id"]!): onset \(dOn) min, wake \(dWake) min, TST \(tst) (script \(night.sleepMinutes))")
            #expect(abs(dOn) <= 15 && abs(dWake) <= 15 && abs(dTST) <= 30, "\(season) \(format): \(row)")
            scored += 1
        }
        // The three nights that start inside the four days, the change night among them.
        #expect(scored == 3, "\(season) \(format): \(rows.map { "\($0["night_id"]!) \($0["status"]!)" })")
    }
}
