import Foundation
import Testing
import SleepCore
import SleepPipeline
import SleepStore
import SleepstaWorkloads

/// What readers refuse or report reaches a run as a failed file or a warning, and what pages print
/// of the files is printable; `--method ggir` on a recording of a day or less says what GGIR does.
@Suite("Runs over files whose statements do not hold", .serialized)
struct StatedFactsPipelineTests {
    static let ingestFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SleepIngestTests/Fixtures").path

    /// The scalars of a page that ``PrintableText`` escapes, but for line breaks and tabs.
    static func rawControls(_ html: String) -> [String] {
        html.unicodeScalars.filter { $0 != "\n" && $0 != "\t" && PrintableText.firstControl(in: String($0)) != nil }
            .map { String($0.value, radix: 16) }
    }

    @Test("U+202E in an app's survey answer and a Sleep as Android comment never reaches a page raw")
    func bidiNeverOnPages() throws {
        let w = Workspace()
        w.write("app.json", """
            {"timeZone": "Europe/Berlin", "nights": [{"id": "n1", "intervalSeconds": 600,
              "motionData": [\((0..<48).map { "{\"motion\": \($0 % 5 == 0 ? 60 : 2), \"timestamp\": \(1_718_398_800 + $0 * 600)}" }.joined(separator: ","))],
              "preBedSurvey": {"note": "\u{202E}gnp.csv tea"},
              "postBedSurvey": [{"question": "rested\u{2066}?", "answer": "\u{202E}4\\u0007"}]}]}
            """)
        let export = try String(contentsOfFile: Self.ingestFixtures + "/spec_sleep-export.csv", encoding: .utf8)
        #expect(export.contains("#home \"\"quiet\"\" night"))
        w.write("sleep-export.csv", export.replacingOccurrences(of: "#home \"\"quiet\"\" night", with: "#home \u{202E}quiet\u{200F} night"))
        let summary = try w.run()
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        #expect(summary.nightsStored >= 2)
        var pages = 0
        let walker = try #require(FileManager.default.enumerator(atPath: w.reports))
        while let item = walker.nextObject() as? String {
            guard item.hasSuffix(".html") else { continue }
            let html = try String(contentsOfFile: w.reports + "/" + item, encoding: .utf8)
            #expect(Self.rawControls(html).isEmpty, "\(item): \(Self.rawControls(html))")
            pages += 1
        }
        #expect(pages >= 3)
        let nightPages = try FileManager.default.contentsOfDirectory(atPath: w.reports).filter { $0.contains("_20") }
            .compactMap { try? String(contentsOfFile: w.reports + "/" + $0 + "/index.html", encoding: .utf8) }
        #expect(nightPages.contains { $0.contains("\\u{202E}gnp.csv tea") }, "the survey answer is shown, escaped")
    }

    @Test("an Actiware export in an unknown language is a failed file of the run (exit 1), stored nowhere; the other files go on")
    func unknownLanguageFails() throws {
        let w = Workspace()
        var t = "\"Actiware Export File  (Version 05.00 )\"\n\"Epoch Length:\",\"60\",\"seconds\"\n"
        t += "\"Línea\",\"Fecha\",\"Hora\",\"Actividad\",\"Marcador\",\"Sueño/Vigilia\",\n"
        for i in 0..<600 {
            let s = 21 * 3600 + i * 60
            t += "\"\(i + 1)\",\"\(s >= 86_400 ? "05/07/2015" : "04/07/2015")\",\"\(String(format: "%02d:%02d:00", s / 3600 % 24, s / 60 % 60))\",\"\(i % 9 == 0 ? 40 : 0)\",\"0\",\"0\",\n"
        }
        w.write("es.csv", t)
        w.write("alex.csv", Workspace.phoneNight(startUTC: 1_718_398_800))
        let summary = try w.run()
        #expect(summary.filesIngested == 1 && summary.failures.count == 1, "\(summary.failures)")
        let failure = try #require(summary.failures.first)
        #expect(failure.path.hasSuffix("es.csv") && failure.error.contains("no activity column") && failure.error.contains("'Actividad'"), "\(failure)")
        #expect(summary.exitCode == ExitStatus.someFilesFailed)
        let db = try SleepDatabase(path: w.db)
        #expect(try db.query("SELECT path FROM recordings").map { $0["path"] ?? "" } == ["alex.csv"])
    }

    // MARK: --method ggir on a recording of a day or less

    /// A 25-Hz wrist `.cwa` from `startUTC` lasting `hours`.
    static func shortWrist(_ w: Workspace, startUTC: Int64, hours: Double) throws {
        var g = WearableCSVGenerator(days: hours / 24, rateHz: 25)
        g.startEpochSecond = startUTC
        try WearableCWAGenerator(signal: g).write(to: w.data + "/wrist.cwa")
    }

    /// GGIR 3.3-6 itself (`../shared/peers/ggir/run_ggir.R FILE OUT Europe/Berlin device`, its
    /// defaults) on exactly these files: its part 4 night, or none (nil: no row in either summary).
    static let shortCases: [(startUTC: Int64, hours: Double, ggir: (onset: String, wake: String, spt: Double, tst: Double, invalid: Double, guider: String)?)] = [
        // 14:00 to 10:00: one night cut short at the start; GGIR stores no HDCZA window for it and,
        // with no other night to average, guides part 4 by L5 ± 6 h (18:00:35 to 06:00:35).
        (1_718_366_400, 20, ("23:12:45", "06:53:45", 460.98, 295.44, 0.2917, "L512")),
        // 22:00 to 08:00: GGIR's part 3 finds no sustained inactivity in valid epochs; part 4 writes no night.
        (1_718_395_200, 10, nil),
        // Noon to noon: a whole day, HDCZA's window.
        (1_718_359_200, 24, ("23:10:40", "06:51:55", 461.28, 101.16, 0.2605, "HDCZA")),
    ]

    @Test("--method ggir on a recording of a day or less: GGIR's own outcome (its L5 ± 6 h guider, its missing night), never 'not supplied'",
          arguments: 0..<3)
    func ggirShortRecording(k: Int) throws {
        let c = Self.shortCases[k]
        let w = Workspace()
        try Self.shortWrist(w, startUTC: c.startUTC, hours: c.hours)
        let summary = try w.run(tz: "Europe/Berlin") { $0.parameters.nightMethod = .ggir }
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        let rows = try Self.ggirNights(w)
        #expect(!rows.isEmpty)
        for row in rows { #expect(!(row["notes_json"] ?? "").contains("ggir-no-whole-recording"), "\(c.hours) h: \(row)") }
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        func clock(_ utc: String?) -> String {
            guard let s = utc, let t = Int64(s) else { return "–" }
            return LocalClock.hhmmss(localSecond: t + Int64(berlin.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))))
        }
        guard let ggir = c.ggir else {
            for row in rows {
                #expect(row["status"] != "scored", "\(c.hours) h: GGIR writes no night, sleepsta scored \(row)")
                #expect((row["notes_json"] ?? "").contains("ggir-no-bouts"), "\(c.hours) h: \(row)")
            }
            return
        }
        let row = try #require(rows.first { $0["status"] == "scored" }, "\(c.hours) h: \(rows)")
        #expect(clock(row["sleep_onset_utc"]) == ggir.onset && clock(row["wake_time_utc"]) == ggir.wake,
                "\(c.hours) h: \(clock(row["sleep_onset_utc"])) to \(clock(row["wake_time_utc"])), GGIR \(ggir.onset) to \(ggir.wake)")
        let spt = Double(row["sleep_period_min"] ?? "") ?? .nan, tst = Double(row["total_sleep_time_min"] ?? "") ?? .nan
        #expect(abs(spt - ggir.spt) <= 1 && abs(tst - ggir.tst) <= 1, "\(c.hours) h: SPT \(spt) / TST \(tst), GGIR \(ggir.spt) / \(ggir.tst)")
        let details = try JSONDecoder().decode(WearableNightSummary.self, from: Data((row["details_json"] ?? "{}").utf8))
        // One known difference: on these files GGIR's part 1 ends 15 min before the file does
        // (09:44:55 of a file to 10:00:00) and counts that quarter hour missing; sleepsta judges it.
        let lastQuarter = 180.0 / 17_280
        #expect(abs(details.fractionNightInvalid + lastQuarter - ggir.invalid) < 0.0015, "\(c.hours) h: invalid \(details.fractionNightInvalid), GGIR \(ggir.invalid)")
        #expect(details.guider?.contains(ggir.guider == "L512" ? "L512" : "HDCZA") == true, "\(String(describing: details.guider))")
    }

    static func ggirNights(_ w: Workspace) throws -> [[String: String]] {
        try SleepDatabase(path: w.db).query("""
            SELECT n.night_date, a.status, a.notes_json, a.details_json, m.sleep_onset_utc, m.wake_time_utc, m.sleep_period_min, m.total_sleep_time_min
            FROM analyses a JOIN nights n ON n.id = a.night_id LEFT JOIN night_metrics m ON m.analysis_id = a.id ORDER BY n.night_date
            """)
    }
}
