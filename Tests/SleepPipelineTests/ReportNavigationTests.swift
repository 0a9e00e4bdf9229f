import Foundation
import Testing
import SleepCore
import SleepPipeline
import SleepReport
import SleepStore

/// Issue 14 item 9: night pages link their neighbours, the definitions ship with the reports, and
/// the index lists the files that failed.
@Suite("Report navigation, definitions and failed files", .serialized)
struct ReportNavigationTests {
    @Test("three nights: the middle page links both neighbours, the ends one each; every page links definitions.html, which exists")
    func previousAndNext() throws {
        let w = Workspace()
        for k in 0..<3 { w.write("n\(k + 1).csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start + Int64(k) * 86_400, hours: 7)) }
        // By default each file is its own participant: no page links another file's night.
        _ = try w.run()
        for id in ["n1_2024-06-14", "n2_2024-06-15", "n3_2024-06-16"] {
            let alone = try String(contentsOfFile: w.reports + "/\(id)/index.html", encoding: .utf8)
            #expect(!alone.contains("rel=\"prev\"") && !alone.contains("rel=\"next\""))
        }
        // One participant's three files: the pages link their neighbours.
        _ = try w.run(tz: "Europe/Berlin") { $0.participants = .table((1...3).map { ParticipantTableRow(id: "P", group: "", path: "n\($0).csv") }) }
        func page(_ id: String) throws -> String { try String(contentsOfFile: w.reports + "/\(id)/index.html", encoding: .utf8) }
        let first = try page("n1_2024-06-14"), middle = try page("n2_2024-06-15"), last = try page("n3_2024-06-16")
        #expect(!first.contains("rel=\"prev\"") && first.contains("href=\"../n2_2024-06-15/index.html\" rel=\"next\""))
        #expect(middle.contains("href=\"../n1_2024-06-14/index.html\" rel=\"prev\"") && middle.contains("href=\"../n3_2024-06-16/index.html\" rel=\"next\""))
        #expect(last.contains("href=\"../n2_2024-06-15/index.html\" rel=\"prev\"") && !last.contains("rel=\"next\""))
        for p in [first, middle, last] { #expect(p.contains("href=\"../definitions.html\"")) }
        let index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(index.contains("href=\"definitions.html\""))
        let definitions = try String(contentsOfFile: w.reports + "/definitions.html", encoding: .utf8)
        #expect(definitions.contains("Wake after sleep onset (WASO)") && definitions.contains("Wake threshold"))
        #expect(!index.contains("Files that failed"))
    }

    @Test("the index lists each failed file with its error (escaped), also when no night was stored")
    func failedFilesOnTheIndex() throws {
        let w = Workspace()
        w.write("broken<b>.csv", "timestamp,x,y,z\n1718398800,0.1,0.1,0.1\n1718398801,0.1,oops,0.1\n")
        let s = try w.run()
        #expect(s.filesFailed == 1)
        let index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(index.contains("Files that failed (1)"))
        #expect(index.contains("<code>broken&lt;b&gt;.csv</code>"))
        #expect(index.contains("oops"))
        #expect(index.contains("No nights are stored yet."))
        #expect(!index.contains("<th>Awakenings</th>"), "no empty nights table")

        // A good file next time: the failure is gone from the index (it lists the latest run's).
        try FileManager.default.removeItem(atPath: w.data + "/broken<b>.csv")
        w.write("ok.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start, hours: 7))
        _ = try w.run()
        let after = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(!after.contains("Files that failed") && after.contains("ok_2024-06-14"))
    }
}

@Suite("Night ids drop device extensions")
struct NightNamingTests {
    @Test(".gt3x, .cwa and .bin (also gzipped) are dropped like .csv and .json")
    func stems() {
        #expect(NightNaming.recordingStem("participant.cwa") == "participant")
        #expect(NightNaming.recordingStem("site/w1.gt3x") == "site_w1")
        #expect(NightNaming.recordingStem("g.BIN.gz") == "g")
        #expect(NightNaming.recordingStem("night.csv.gz") == "night")
        #expect(NightNaming.recordingStem("notes.bin.txt") == "notes.bin.txt")
    }
}
