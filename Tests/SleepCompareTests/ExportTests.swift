import Foundation
import Testing
import SleepCore
import SleepPipeline
import SleepStore

@Suite("sleepsta export", .serialized)
struct ExportTests {
    static let requiredIntervalColumns = ["night", "start", "end", "interval_seconds", "movement_sum", "movement_per_minute", "coverage_seconds"]

    @Test("intervals: the promised columns first, one row per stored interval, values as stored, ISO 8601 with offset")
    func intervals() throws {
        let w = CompareWorkspace()
        w.writeNights(seeds: [51, 52])
        try w.run()
        try w.compare()
        let all = try w.export(.intervals, analysis: .all)
        #expect(Array(all[0].prefix(7)) == Self.requiredIntervalColumns)
        #expect(all[0] == ExportTable.intervals.columns)
        let db = try SleepDatabase(path: w.db)
        #expect(all.count - 1 == Int(try db.query("SELECT COUNT(*) AS n FROM intervals")[0]["n"]!)!)
        let rows = try w.export(.intervals, interval: .fifteenMinutes)
        let stored = try db.query("""
            SELECT i.night_id, i.start_utc, i.end_utc, i.movement_sum, i.movement_per_minute, i.coverage_seconds
            FROM intervals i JOIN analyses a ON a.id = i.analysis_id JOIN nights n ON n.id = i.night_id
            WHERE a.interval_seconds = 900 ORDER BY n.night_date, n.id, i.start_utc
            """)
        #expect(rows.count - 1 == stored.count && stored.count > 40)
        let header = rows[0]
        func column(_ name: String) -> Int { header.firstIndex(of: name)! }
        for (row, s) in zip(rows.dropFirst(), stored) {
            #expect(row.count == header.count)
            #expect(row[column("night")] == s["night_id"])
            #expect(row[column("interval_seconds")] == "900")
            #expect(Double(row[column("movement_sum")]) == Double(s["movement_sum"]!))
            #expect(row[column("movement_per_minute")] == "" ? s["movement_per_minute"] == "" : Double(row[column("movement_per_minute")]) == Double(s["movement_per_minute"]!))
            #expect(row[column("coverage_seconds")] == s["coverage_seconds"])
            // Berlin summer time: the local clock and the exact instant.
            let start = row[column("start")]
            #expect(start.hasSuffix("+02:00") && start.count == 25)
            #expect(Self.utc(start) == Int64(s["start_utc"]!))
            #expect(Self.utc(row[column("end")]) == Int64(s["end_utc"]!))
        }
    }

    @Test("nights: one row per night with its metrics and parameters; epochs: one row per scored epoch")
    func nightsAndEpochs() throws {
        let w = CompareWorkspace()
        w.writeNights(seeds: [61, 62, 63])
        try w.run()
        try w.compare()
        let nights = try w.export(.nights, interval: .tenMinutes)
        #expect(nights[0] == ExportTable.nights.columns)
        #expect(nights.count == 4)
        #expect(Set(nights.dropFirst().map { $0[0] }).count == 3)
        let header = nights[0]
        func value(_ row: [String], _ name: String) -> String { row[header.firstIndex(of: name)!] }
        let db = try SleepDatabase(path: w.db)
        var p = AnalysisParameters(); p.interval = .tenMinutes
        for row in nights.dropFirst() {
            let a = try #require(try db.analysis(nightID: row[0], parametersKey: p.key))
            let m = try #require(a.metrics)
            #expect(Double(value(row, "total_sleep_time_min")) == m.totalSleepTimeMinutes)
            #expect(Double(value(row, "sleep_efficiency_pct")) == m.sleepEfficiencyPercent)
            #expect(Int(value(row, "awakenings")) == m.awakenings)
            #expect(Self.utc(value(row, "sleep_onset")) == m.sleepOnsetUTC)
            #expect(value(row, "status") == "scored")
            #expect(value(row, "parameters_key") == p.key)
            #expect(value(row, "interval_seconds") == "600" && value(row, "metric") == "mean-abs-axis")
            #expect(Double(value(row, "wake_threshold_factor")) == 4 && Double(value(row, "wake_threshold")) == a.wakeThreshold)
        }
        #expect(try w.export(.nights, analysis: .all).count == 7)   // both lengths
        #expect(try w.export(.nights).count == 4)   // the pages' analysis: one row per night
        let epochs = try w.export(.epochs, interval: .fifteenMinutes)
        #expect(epochs[0] == ExportTable.epochs.columns)
        let scores = try db.query("SELECT COUNT(*) AS n FROM scores s JOIN analyses a ON a.id = s.analysis_id WHERE a.interval_seconds = 900")
        #expect(epochs.count - 1 == Int(scores[0]["n"]!)!)
        #expect(epochs.dropFirst().allSatisfy { $0[3] == "60" && ($0[5] == "S" || $0[5] == "W" || $0[5] == "") })
    }

    @Test("a recording name with a comma and quotes is quoted (RFC 4180); a DST night shows both offsets")
    func quotingAndDST() throws {
        let w = CompareWorkspace()
        w.write("alex, \"best\" night.csv", SyntheticNight(seed: 71).csv)
        try FileManager.default.copyItem(atPath: TestFiles.repository.path + "/Data/sleepsta-app-export.json",
                                         toPath: w.data + "/sleepsta-app-export.json")
        try w.run()
        let path = w.root + "/nights.csv"
        try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .nights, outputPath: path)).run()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"alex, \"\"best\"\" night.csv\""))
        let rows = RFC4180.parse(text)
        #expect(rows.allSatisfy { $0.count == rows[0].count })
        #expect(rows.contains { $0[2] == "alex, \"best\" night.csv" })
        let intervals = try w.export(.intervals)
        let dst = intervals.filter { $0[0] == "sleepsta-app-export_2024-03-30" }.map { $0[1] }
        #expect(dst.contains { $0.hasSuffix("+01:00") } && dst.contains { $0.hasSuffix("+02:00") })
        // The app's totals close at :05, :15 …, and 10-min intervals follow them.
        #expect(dst.contains("2024-03-31T01:55:00+01:00") && dst.contains("2024-03-31T03:05:00+02:00"))
    }

    @Test("a missing database is an error and leaves no file behind")
    func missingDatabase() throws {
        let w = CompareWorkspace()
        let path = w.root + "/out.csv"
        #expect(throws: PipelineError.self) {
            try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .intervals, outputPath: path)).run()
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: w.root).filter { $0.contains("tmp") }.isEmpty)
    }

    /// `2024-06-14T23:10:00+02:00` → UTC epoch seconds (independent of LocalClock).
    static func utc(_ iso: String) -> Int64? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: iso).map { Int64($0.timeIntervalSince1970) }
    }
}
