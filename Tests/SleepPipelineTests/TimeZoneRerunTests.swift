import Foundation
import Testing
import SleepCore
import SleepPipeline
import SleepStore

/// Issue 14 item 4: the zone that splits nights is a parameter; a new `--tz` splits them again.
@Suite("--tz on a re-run", .serialized)
struct TimeZoneRerunTests {
    /// 2024-06-14 10:30Z to 14:30Z: across noon UTC (two nights) but not across noon in Berlin (12:30 to 16:30 CEST: one night).
    static let start: Int64 = 1_718_361_000

    @Test("data first placed in UTC is split again on the Berlin clock when --tz is given; the page and the export say so")
    func rerunWithZone() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: Self.start, hours: 4))
        let first = try w.run(tz: nil)
        #expect(first.filesIngested == 1)
        let db = try SleepDatabase(path: w.db)
        #expect(try db.nightIDs() == ["phone_2024-06-13", "phone_2024-06-14"])
        let utcPage = try String(contentsOfFile: w.reports + "/phone_2024-06-14/index.html", encoding: .utf8)
        #expect(utcPage.contains("time zone UTC, assumed"), "the header must not claim offsets from the data")
        #expect(!utcPage.contains("UTC offsets from the data"))

        let second = try w.run(tz: "Europe/Berlin")
        #expect(second.filesIngested == 1 && second.filesUnchanged == 0, "a new zone is not 'unchanged'")
        #expect(try db.nightIDs() == ["phone_2024-06-14"])
        let night = try #require(try db.night(id: "phone_2024-06-14"))
        #expect(night.timeZone == "Europe/Berlin")
        #expect(night.timeline.offset(atUTC: Self.start) == 7200)
        #expect(!FileManager.default.fileExists(atPath: w.reports + "/phone_2024-06-13"), "the gone night's report folder is removed")
        let page = try String(contentsOfFile: w.reports + "/phone_2024-06-14/index.html", encoding: .utf8)
        #expect(page.contains("time zone Europe/Berlin (from --tz)"))

        // The nights export states the zone and its source.
        let out = w.root + "/nights.csv"
        try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .nights, outputPath: out)).run()
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = lines[0]
        let zone = try #require(header.firstIndex(of: "time_zone")), source = try #require(header.firstIndex(of: "time_zone_source"))
        #expect(lines.count == 2)
        #expect(lines[1][zone] == "Europe/Berlin" && lines[1][source] == "option")

        // The same zone again: unchanged.
        let third = try w.run(tz: "Europe/Berlin")
        #expect(third.filesUnchanged == 1 && third.filesIngested == 0)
        // No --tz: the nights keep the zone they were split with.
        let fourth = try w.run(tz: nil)
        #expect(fourth.filesUnchanged == 1)
        #expect(try db.nightIDs() == ["phone_2024-06-14"])
    }

    @Test("the nights export's time_zone_source says when UTC was assumed")
    func assumedSource() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: Self.start, hours: 4))
        _ = try w.run(tz: nil)
        let out = w.root + "/nights.csv"
        try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .nights, outputPath: out)).run()
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let source = try #require(lines[0].firstIndex(of: "time_zone_source"))
        #expect(lines.count > 1 && lines.dropFirst().allSatisfy { $0[source] == "assumed-utc" })
    }
}
