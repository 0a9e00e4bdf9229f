import Foundation
import Logging
import Testing
import SleepCore
import SleepPipeline
import SleepStore

/// End-to-end runs over temporary data folders.
final class Workspace {
    let root = NSTemporaryDirectory() + "sleepsta-pipeline-\(UUID().uuidString)"
    var data: String { root + "/Data" }
    var db: String { root + "/db.sqlite" }
    var reports: String { root + "/Reports" }

    init() { try! FileManager.default.createDirectory(atPath: root + "/Data", withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: root) }

    func write(_ name: String, _ text: String) {
        _ = FileManager.default.createFile(atPath: data + "/" + name, contents: Data(text.utf8))
    }

    /// A 1 Hz phone night: restless first 20 minutes and last 10, still in between but for a 20-minute awakening.
    static func phoneNight(startUTC: Int64, hours: Int = 8) -> String {
        phoneNightLock.lock()
        let samples = phoneNightSamples[hours] ?? makePhoneNightSamples(hours: hours)
        phoneNightSamples[hours] = samples
        phoneNightLock.unlock()
        var text = "timestamp,x,y,z\n"
        text.reserveCapacity(samples.count * 40)
        for (s, xyz) in samples.enumerated() { text += "\(startUTC + Int64(s)),\(xyz)\n" }
        return text
    }

    /// The `x,y,z` fields of each second of a night `hours` long: the same for every start (the
    /// noise is seeded alike), so they are formatted once per length; dozens of tests write nights.
    nonisolated(unsafe) static var phoneNightSamples: [Int: [String]] = [:]
    static let phoneNightLock = NSLock()

    static func makePhoneNightSamples(hours: Int) -> [String] {
        var state: UInt64 = 7
        func noise() -> Double { state = state &* 6364136223846793005 &+ 1442695040888963407; return Double(state >> 11) / Double(1 << 53) - 0.5 }
        return (0..<(hours * 3600)).map { s in
            let minute = s / 60
            let awake = minute < 20 || (minute >= 250 && minute < 270) || minute >= hours * 60 - 10
            let a = awake ? 0.15 : 0.004
            return "\(String(format: "%.4f", a * noise())),\(String(format: "%.4f", a * noise())),\(String(format: "%.4f", a * noise()))"
        }
    }

    func run(interval: IntervalLength = .tenMinutes, tz: String? = "Europe/Berlin") throws -> RunSummary {
        try run(tz: tz) { $0.parameters.interval = interval }
    }

    /// A run with the options `configure` sets (`--kind`, `--units`, `--prune` …).
    func run(tz: String? = "Europe/Berlin", configure: (inout PipelineConfiguration) -> Void) throws -> RunSummary {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        var c = PipelineConfiguration(dataDirectory: data, databasePath: db, reportsDirectory: reports,
                                      parameters: AnalysisParameters(), timeZoneIdentifier: tz)
        configure(&c)
        return try Pipeline(configuration: c, logger: logger).run()
    }

    /// Every report file with its bytes and modification time.
    func reportFiles() throws -> [String: (Data, Date)] {
        var result: [String: (Data, Date)] = [:]
        let walker = FileManager.default.enumerator(atPath: reports)!
        while let item = walker.nextObject() as? String {
            let p = reports + "/" + item
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: p, isDirectory: &isDir)
            if isDir.boolValue { continue }
            let date = try FileManager.default.attributesOfItem(atPath: p)[.modificationDate] as! Date
            result[item] = (try Data(contentsOf: URL(fileURLWithPath: p)), date)
        }
        return result
    }
}

@Suite("Pipeline end to end", .serialized)
struct PipelineTests {
    static let night1Start: Int64 = 1_718_398_800 // 2024-06-14T23:00:00+02:00

    @Test("good files are stored and reported; bad files are reported, stored nowhere, and do not stop the batch")
    func goodAndBad() throws {
        let w = Workspace()
        w.write("alex.csv", Workspace.phoneNight(startUTC: Self.night1Start))
        w.write("broken.csv", "timestamp,x,y,z\n1718398800,0.1,0.1,0.1\n1718398801,0.1,oops,0.1\n")
        w.write("backwards.csv", "1718398800,0.1,0.1,0.1\n1718398700,0.1,0.1,0.1\n")
        w.write("empty.json", "")
        w.write("notes.txt", "ignored: not a recording")
        let s = try w.run()
        #expect(s.filesSeen == 4)
        #expect(s.filesIngested == 1)
        #expect(s.filesFailed == 3)
        let errors = s.failures.map(\.error).sorted()
        #expect(errors.contains { $0.contains("backwards.csv:2: time goes backwards") })
        #expect(errors.contains { $0.contains("broken.csv:3: y = 'oops' is not a number") })
        #expect(errors.contains { $0.contains("empty.json") && $0.contains("empty file") })
        let db = try SleepDatabase(path: w.db)
        #expect(try db.query("SELECT path FROM recordings").map { $0["path"]! } == ["alex.csv"])
        #expect(try db.nightIDs() == ["alex_2024-06-14"])
        #expect(try db.query("SELECT COUNT(*) AS n FROM run_failures")[0]["n"] == "3")
        #expect(FileManager.default.fileExists(atPath: w.reports + "/index.html"))
        #expect(FileManager.default.fileExists(atPath: w.reports + "/alex_2024-06-14/index.html"))
        #expect(FileManager.default.fileExists(atPath: w.reports + "/alex_2024-06-14/movement.png"))
        let metrics = try db.query("SELECT * FROM night_metrics")[0]
        #expect(abs(Double(metrics["sleep_onset_latency_min"]!)! - 20) <= 3)
        #expect(metrics["awakenings"] == "1")
        #expect(try db.integrityCheck() == "ok")
    }

    @Test("a second run does no duplicate work and changes no row and no file")
    func idempotent() throws {
        let w = Workspace()
        w.write("alex.csv", Workspace.phoneNight(startUTC: Self.night1Start))
        _ = try w.run()
        let db = try SleepDatabase(path: w.db)
        let dataTables = ["recordings", "nights", "base_series", "analyses", "intervals", "scores", "night_metrics"]
        func snapshot() throws -> [String: [[String: String]]] {
            var result: [String: [[String: String]]] = [:]
            for t in dataTables { result[t] = try db.query("SELECT * FROM \(t) ORDER BY 1, 2") }
            return result
        }
        let rowsBefore = try snapshot()
        let filesBefore = try w.reportFiles()
        let second = try w.run()
        #expect(second.filesIngested == 0 && second.filesUnchanged == 1 && second.nightsAnalysed == 0)
        #expect(second.reportsWritten == 0)
        #expect(try snapshot() == rowsBefore)
        let filesAfter = try w.reportFiles()
        #expect(Set(filesAfter.keys) == Set(filesBefore.keys))
        for (k, v) in filesBefore { #expect(filesAfter[k]!.0 == v.0 && filesAfter[k]!.1 == v.1, "\(k)") }
        #expect(try db.rowCounts()["runs"] == 2)
    }

    @Test("--interval 15m gives 900-s intervals whose per-minute means agree with the 10-minute ones over the same time")
    func fifteenVersusTen() throws {
        let w = Workspace()
        w.write("alex.csv", Workspace.phoneNight(startUTC: Self.night1Start))
        _ = try w.run(interval: .tenMinutes)
        let s15 = try w.run(interval: .fifteenMinutes)
        #expect(s15.filesUnchanged == 1 && s15.nightsAnalysed == 1)   // re-derived from the stored base series
        let db = try SleepDatabase(path: w.db)
        var p10 = AnalysisParameters(); p10.interval = .tenMinutes
        var p15 = AnalysisParameters(); p15.interval = .fifteenMinutes
        let a10 = try #require(try db.analysis(nightID: "alex_2024-06-14", parametersKey: p10.key))
        let a15 = try #require(try db.analysis(nightID: "alex_2024-06-14", parametersKey: p15.key))
        #expect(a15.intervals.allSatisfy { $0.movement.durationSeconds == 900 })
        #expect(try db.query("SELECT DISTINCT interval_seconds FROM intervals ORDER BY 1").map { $0["interval_seconds"]! } == ["600", "900"])
        // Over each half hour both lengths tile, the coverage-weighted per-minute means are equal.
        var compared = 0
        for iv in a15.intervals where (iv.movement.startUTC - a15.intervals[0].movement.startUTC) % 1800 == 0 {
            let start = iv.movement.startUTC, end = start + 1800
            let ten = a10.intervals.filter { $0.movement.startUTC >= start && $0.movement.endUTC <= end }.map(\.movement)
            let fifteen = a15.intervals.filter { $0.movement.startUTC >= start && $0.movement.endUTC <= end }.map(\.movement)
            guard ten.count == 3, fifteen.count == 2 else { continue }
            let cov10 = ten.reduce(0) { $0 + $1.coverageSeconds }, cov15 = fifteen.reduce(0) { $0 + $1.coverageSeconds }
            guard cov10 > 0 else { continue }
            let mean10 = ten.reduce(0) { $0 + $1.movementSum } / Double(cov10) * 60
            let mean15 = fifteen.reduce(0) { $0 + $1.movementSum } / Double(cov15) * 60
            #expect(cov10 == cov15)
            #expect(abs(mean10 - mean15) <= 1e-9 * max(1, mean10))
            compared += 1
        }
        #expect(compared >= 15)
        // Clock alignment: every interval starts on a quarter hour of the local clock.
        let tl = UTCOffsetTimeline.fixed(7200)
        #expect(a15.intervals.allSatisfy { tl.localSecond(atUTC: $0.movement.startUTC) % 900 == 0 })
    }

    @Test("a changed file replaces its nights; a renamed identical file is not ingested twice")
    func changedAndRenamed() throws {
        let w = Workspace()
        w.write("alex.csv", Workspace.phoneNight(startUTC: Self.night1Start))
        _ = try w.run()
        try FileManager.default.moveItem(atPath: w.data + "/alex.csv", toPath: w.data + "/alex-copy.csv")
        let renamed = try w.run()
        #expect(renamed.filesUnchanged == 1 && renamed.filesIngested == 0)
        w.write("alex-copy.csv", Workspace.phoneNight(startUTC: Self.night1Start, hours: 7))
        let changed = try w.run()
        #expect(changed.filesIngested == 1)
        let db = try SleepDatabase(path: w.db)
        #expect(try db.rowCounts()["recordings"] == 1)
        #expect(try db.rowCounts()["nights"] == 1)
    }

    @Test("the sample data in Data/ runs through (when present), with the DST night 23 h long")
    func bundledSamples() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let w = Workspace()
        for name in ["phone-1hz-alex.csv", "sleepsta-app-export.json"] {
            try FileManager.default.copyItem(atPath: repo.path + "/Data/" + name, toPath: w.data + "/" + name)
        }
        let s = try w.run()
        #expect(s.failures.isEmpty)
        #expect(s.nightsStored == 4)
        let db = try SleepDatabase(path: w.db)
        let dst = try db.query("SELECT (window_end_utc - window_start_utc) AS seconds FROM nights WHERE id = 'sleepsta-app-export_2024-03-30'")
        #expect(dst.first?["seconds"] == "82800")
        let statuses = try db.query("SELECT status FROM analyses").map { $0["status"]! }
        #expect(statuses.allSatisfy { $0 == "scored" })
        let html = try String(contentsOfFile: w.reports + "/sleepsta-app-export_2024-03-30/index.html", encoding: .utf8)
        #expect(html.contains("clock change &lt;confused&gt;"))
        #expect(html.contains("tea &amp; honey") == false)   // that answer belongs to the night before
        let html29 = try String(contentsOfFile: w.reports + "/sleepsta-app-export_2024-03-29/index.html", encoding: .utf8)
        #expect(html29.contains("tea &amp; honey"))
    }

    @Test("a missing data folder and an unknown zone are environment errors")
    func environmentErrors() throws {
        let w = Workspace()
        try FileManager.default.removeItem(atPath: w.data)
        #expect(throws: PipelineError.self) { try w.run() }
        let w2 = Workspace()
        #expect(throws: PipelineError.self) { try w2.run(tz: "Atlantis/Capital") }
    }
}
