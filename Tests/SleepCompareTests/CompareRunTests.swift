import Foundation
import Testing
import SleepCore
import SleepPipeline
import SleepReport
import SleepStore

@Suite("sleepsta compare end to end", .serialized)
struct CompareRunTests {
    @Test("compare derives missing lengths from the stored base series, writes the report and links it from the index")
    func reportAndIndexLink() throws {
        let w = CompareWorkspace()
        w.writeNights(seeds: [7, 8, 9])
        try w.run()
        let s = try w.compare()
        #expect(s.analysesComputed == 3 && s.analysesReused == 3)
        #expect(s.comparison.pairs.count == 1 && s.comparison.pairs[0].nights.count == 3)
        #expect(s.indexLinked)
        let db = try SleepDatabase(path: w.db)
        #expect(try db.query("SELECT interval_seconds, COUNT(*) AS n FROM analyses GROUP BY 1 ORDER BY 1").map { $0["n"]! } == ["3", "3"])
        #expect(try db.query("SELECT DISTINCT interval_seconds FROM intervals ORDER BY 1").map { $0["interval_seconds"]! } == ["600", "900"])
        // The derived 15-minute analyses are the ones NightAnalyzer gives for the stored series.
        for id in try db.nightIDs() {
            var p = AnalysisParameters(); p.interval = .fifteenMinutes
            let night = try #require(try db.night(id: id))
            let stored = try #require(try db.analysis(nightID: id, parametersKey: p.key))
            #expect(stored.metrics == NightAnalyzer.analyze(series: night.series, window: night.window, parameters: p).metrics)
        }
        let folder = w.reports + "/compare-10m-15m"
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(files.contains("index.html") && files.contains("statistics.csv") && files.contains("night-differences.csv"))
        #expect(files.filter { $0.hasPrefix("movement-") }.count == 3)
        #expect(files.filter { $0.hasPrefix("bland-altman-15m-vs-10m-") }.count == ComparedMetric.allCases.count)
        let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/bland-altman-15m-vs-10m-total_sleep_time_min.png"))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let page = try String(contentsOfFile: folder + "/index.html", encoding: .utf8)
        #expect(page.contains("ICC(2,1)") && page.contains("limits of agreement") && page.contains("Cohen's κ"))
        for metric in ComparedMetric.allCases { #expect(page.contains(metric.rawValue)) }
        let index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(index.contains("<a href=\"compare-10m-15m/index.html\">Interval lengths compared: 10m vs 15m</a>"))
        // The statistics CSV carries the same numbers as the comparison.
        let stats = RFC4180.parse(try String(contentsOfFile: folder + "/statistics.csv", encoding: .utf8))
        let tstRow = try #require(stats.first { $0.count > 2 && $0[2] == "total_sleep_time_min" })
        let tst = s.comparison.pairs[0].agreement(.totalSleepTime)
        #expect(Double(tstRow[7]) == tst.blandAltman?.bias && Double(tstRow[14]) == tst.intraclassCorrelation)
    }

    @Test("as `make report` runs them, nightly then compare: the index links the comparison at once, and a second round writes nothing")
    func nightlyThenCompare() throws {
        let w = CompareWorkspace()
        w.writeNights(seeds: [5, 6])
        try w.run(command: "nightly")
        let s = try w.compare()
        #expect(s.indexLinked)
        let index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(index.contains("<a href=\"compare-10m-15m/index.html\">Interval lengths compared: 10m vs 15m</a>"))
        let files = try w.reportFiles()
        #expect(try w.run(command: "nightly").reportsWritten == 0)
        #expect(try w.compare().reportsWritten == 0)
        let after = try w.reportFiles()
        #expect(Set(after.keys) == Set(files.keys))
        for (name, (bytes, _)) in files { #expect(after[name]?.0 == bytes, "\(name) changed") }
    }

    @Test("a second compare, a later run and a compare without the raw files change no row and no file")
    func idempotentWithoutRawFiles() throws {
        let w = CompareWorkspace()
        w.writeNights(seeds: [11, 12])
        try w.run()
        try w.compare()
        let rows = try w.dataRows()
        let files = try w.reportFiles()
        let again = try w.run()                 // the index already links the comparison
        #expect(again.reportsWritten == 0)
        try FileManager.default.removeItem(atPath: w.data)   // no raw file can be read now
        let second = try w.compare()
        #expect(second.analysesComputed == 0 && second.analysesReused == 4)
        #expect(second.reportsWritten == 0)
        #expect(try w.dataRows() == rows)
        let after = try w.reportFiles()
        #expect(Set(after.keys) == Set(files.keys))
        for (name, (bytes, date)) in files { #expect(after[name]?.0 == bytes && after[name]?.1 == date, "\(name)") }
    }

    @Test("four lengths over a database without raw files: pairs against the shortest, analyses stored once")
    func fourLengthsFromStoreOnly() throws {
        let w = CompareWorkspace()
        w.writeNights(seeds: [21, 22])
        try w.run()
        try FileManager.default.removeItem(atPath: w.data)
        let lengths = [IntervalLength(seconds: 1800)!, .fifteenMinutes, IntervalLength(seconds: 300)!, .tenMinutes]
        let s = try w.compare(lengths)
        #expect(s.comparison.lengths.map(\.description) == ["5m", "10m", "15m", "30m"])
        #expect(s.comparison.pairs.map { "\($0.test) vs \($0.reference)" } == ["10m vs 5m", "15m vs 5m", "30m vs 5m"])
        #expect(s.comparison.pairs.map(\.pooledGrid.cellSeconds) == [300, 300, 300])
        #expect(s.analysesComputed == 6 && s.analysesReused == 2)
        #expect(s.reportFolder.hasSuffix("/compare-5m-10m-15m-30m"))
        let table = ComparisonTable.markdown(s.comparison)
        #expect(table.components(separatedBy: "\n").filter { $0.hasPrefix("| TST") }.count == 3)
        #expect(try SleepDatabase(path: w.db).query("SELECT COUNT(*) AS n FROM analyses")[0]["n"] == "8")
    }

    @Test("nights are chosen by id or evening date; unknown ones, a missing database and one length are errors")
    func selectionAndErrors() throws {
        let w = CompareWorkspace()
        w.writeNights(seeds: [31, 32, 33])
        try w.run()
        let ids = try SleepDatabase(path: w.db).nightIDs()
        let byDate = try w.compare(nights: ["2024-06-12"])
        #expect(byDate.comparison.nights.map(\.nightID) == ["phone-2_2024-06-12"])   // evenings 11, 12, 13 June
        let byID = try w.compare(nights: [ids[0], ids[1]])
        #expect(byID.comparison.nights.map(\.nightID) == Array(ids.prefix(2)))
        // Charts of nights no longer compared are removed.
        let charts = try FileManager.default.contentsOfDirectory(atPath: w.reports + "/compare-10m-15m").filter { $0.hasPrefix("movement-") }
        #expect(charts.sorted() == ids.prefix(2).map { "movement-\($0).png" })
        #expect(throws: PipelineError.self) { try w.compare(nights: ["2031-01-01"]) }
        #expect(throws: PipelineError.self) { try w.compare([.tenMinutes, .tenMinutes]) }
        let empty = CompareWorkspace()
        #expect(throws: PipelineError.self) { try empty.compare() }
    }

    @Test("names from input are escaped on the comparison page")
    func escaping() throws {
        let w = CompareWorkspace()
        w.write("night&<1>.csv", SyntheticNight(seed: 41).csv)
        try w.run()
        try w.compare()
        let page = try String(contentsOfFile: w.reports + "/compare-10m-15m/index.html", encoding: .utf8)
        #expect(page.contains("night&amp;&lt;1&gt;.csv"))
        #expect(!page.contains("night&<1>"))
    }

    @Test("the bundled sample nights, the spring DST night included, compare at 10 and 15 minutes")
    func bundledSamples() throws {
        let w = CompareWorkspace()
        for name in ["phone-1hz-alex.csv", "sleepsta-app-export.json"] {
            try FileManager.default.copyItem(atPath: TestFiles.repository.path + "/Data/" + name, toPath: w.data + "/" + name)
        }
        try w.run()
        let s = try w.compare()
        #expect(s.comparison.nights.count == 4)
        #expect(s.comparison.incompleteNights.isEmpty)
        let pair = s.comparison.pairs[0]
        // In-bed time does not depend on the interval length.
        #expect(pair.agreement(.timeInBed).blandAltman?.bias == 0)
        // The 15-minute grid of the 23-hour night still lies on the local clock.
        let dst = try #require(s.comparison.nights.first { $0.nightID == "sleepsta-app-export_2024-03-30" })
        let catalog = try SleepDatabase(path: w.db).nightCatalog()
        let timeline = try #require(catalog.first { $0.nightID == dst.nightID }).timeline
        #expect(dst.analyses[1].intervals.allSatisfy { timeline.localSecond(atUTC: $0.movement.startUTC) % 900 == 0 })
    }
}
