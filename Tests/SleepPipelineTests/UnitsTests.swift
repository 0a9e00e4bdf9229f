import Foundation
import Logging
import Testing
import SleepCore
import SleepIngest
import SleepPipeline
import SleepStore

/// Issue: a gravity-free raw CSV in m/s² was taken as g (movement 9.81× too large, units stored as g).
@Suite("Acceleration units of raw CSVs")
struct UnitsTests {
    static func run(_ w: Workspace, units: AccelerationUnits) throws {
        _ = try w.run { $0.units = units }
    }

    /// The phone night of ``Workspace/phoneNight(startUTC:hours:)`` with every axis × 9.80665 (m/s²).
    static func inMetresPerSecondSquared() -> String {
        let g = Workspace.phoneNight(startUTC: 1_718_402_400)
        return g.split(separator: "\n").enumerated().map { i, line -> String in
            guard i > 0 else { return String(line) }
            let f = line.split(separator: ",")
            return "\(f[0]),\(f[1...3].map { String(format: "%.5f", Double($0)! * 9.80665) }.joined(separator: ","))"
        }.joined(separator: "\n") + "\n"
    }

    static func facts(_ w: Workspace) throws -> (units: String, warnings: String, movement: Double, tst: Double) {
        let db = try SleepDatabase(path: w.db)
        let r = try #require(try db.query("SELECT r.units, (SELECT group_concat(text, char(10)) FROM recording_warnings w WHERE w.recording_id = r.id) AS warnings FROM recordings r").first)
        let m = try #require(try db.query("SELECT SUM(movement_sum) AS s FROM intervals").first)
        let t = try #require(try db.query("SELECT total_sleep_time_min AS t FROM night_metrics").first)
        return (r["units"]!, r["warnings"]!, Double(m["s"]!)!, Double(t["t"]!)!)
    }

    @Test("auto: user acceleration in m/s² is recognised by its noise floor, converted to g, and said so; the same night in g is left alone")
    func autoDetects() throws {
        let inG = Workspace(), inMS2 = Workspace(), forced = Workspace()
        inG.write("night.csv", Workspace.phoneNight(startUTC: 1_718_402_400))
        inMS2.write("night.csv", Self.inMetresPerSecondSquared())
        forced.write("night.csv", Self.inMetresPerSecondSquared())
        try Self.run(inG, units: .auto)
        try Self.run(inMS2, units: .auto)
        try Self.run(forced, units: .g)
        let a = try Self.facts(inG), b = try Self.facts(inMS2), c = try Self.facts(forced)
        #expect(a.units == "g" && !a.warnings.contains("m/s²"))
        #expect(b.units == "m/s² (converted to g)" && b.warnings.contains("divided by 9.80665"))
        #expect(abs(b.movement / a.movement - 1) < 1e-3, "\(a.movement) vs \(b.movement)")   // 5-decimal rounding of the m/s² text
        #expect(a.tst == b.tst)
        #expect(c.units == "g" && abs(c.movement / a.movement - 9.80665) < 0.01)   // --units g: as written
    }
}

/// Issue: a deleted recording kept its nights and pages silently.
@Suite("Recordings whose file is gone")
struct GoneRecordingTests {
    static func run(_ w: Workspace, prune: Bool) throws -> RunSummary {
        try w.run { $0.prune = prune }
    }

    @Test("kept and listed without --prune; removed with their nights and report folders with it; an empty folder prunes nothing")
    func goneFiles() throws {
        let w = Workspace()
        w.write("a.csv", Workspace.phoneNight(startUTC: 1_718_402_400))
        w.write("b.csv", Workspace.phoneNight(startUTC: 1_718_488_800))
        _ = try Self.run(w, prune: false)
        try FileManager.default.removeItem(atPath: w.data + "/b.csv")
        let kept = try Self.run(w, prune: false)
        #expect(kept.goneRecordings == ["b.csv"] && kept.prunedRecordings == 0)
        let text = RunSummaryText.render(kept, configuration: PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports))
        #expect(text.contains("gone: 1 stored recording(s)") && text.contains("--prune"))
        let db = try SleepDatabase(path: w.db)
        #expect(try db.recordingPaths() == ["a.csv", "b.csv"])
        let bNight = try #require(try db.nightIDs().first { $0.hasPrefix("b_") })
        #expect(FileManager.default.fileExists(atPath: w.reports + "/" + bNight + "/index.html"))
        let pruned = try Self.run(w, prune: true)
        #expect(pruned.prunedRecordings == 1)
        let paths = try db.recordingPaths(), ids = try db.nightIDs()
        #expect(paths == ["a.csv"] && !ids.contains(bNight))
        #expect(!FileManager.default.fileExists(atPath: w.reports + "/" + bNight))
        let index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(!index.contains(bNight))
        // An empty data folder (an unmounted disk?) prunes nothing.
        try FileManager.default.removeItem(atPath: w.data + "/a.csv")
        let empty = try Self.run(w, prune: true)
        let after = try db.recordingPaths()
        #expect(empty.prunedRecordings == 0 && after == ["a.csv"])
    }
}
