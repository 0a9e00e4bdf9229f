import Foundation
import Testing
import SleepCore
import SleepIngest
import SleepPipeline
import SleepReport
import SleepStore

/// Page folders: no two participants or recordings share one (a name already taken is bumped),
/// contradictory participants rows are named by row, and a page folder that is a symbolic link
/// or a file stops rendering with its path instead of losing pages.
@Suite("Report folders: one page per participant and recording, page folders that are real folders", .serialized)
struct ReportFolderTests {
    static let day: Int64 = 86_400

    /// Two `.csv` names of the same safe form (`c___.csv`) whose folder hashes agree in their low
    /// 32 bits: found by a search over three-letter CJK names (about a million tried).
    static func collidingNames() -> (String, String) {
        ("c\u{4E2E}\u{4E6D}\u{4E75}.csv", "c\u{4E42}\u{4E77}\u{4E48}.csv")
    }

    @Test("names already taken are bumped, none is another's own name, and the order given decides who keeps the plain one")
    func bumping() {
        let names = FolderNames.assign(["a", "b", "c", "d"], base: { ["a": "x", "b": "x", "c": "x-2", "d": "x"][$0]! })
        #expect(names == ["a": "x", "b": "x-3", "c": "x-2", "d": "x-4"])
        let (one, two) = Self.collidingNames()
        #expect(one != two && ReportBuilder.recordingFolder(one) == ReportBuilder.recordingFolder(two))
        let folders = ReportBuilder.recordingFolders([two, one, "plain.csv"])
        #expect(Set(folders.values).count == 3 && folders["plain.csv"] == "recordings/plain.csv")
        #expect(folders[min(one, two)] == ReportBuilder.recordingFolder(one) && folders[max(one, two)] == ReportBuilder.recordingFolder(one) + "-2")
        // A participant id that is another id's folder name, and one id in two groups.
        let crafted = String(ReportBuilder.recordingFolder("x?").dropFirst("recordings/".count))
        let people = [Participant(id: "x?"), Participant(id: crafted), Participant(id: "P", group: "a"), Participant(id: "P", group: "b")]
        let pages = ReportBuilder.participantFolders(people)
        #expect(Set(pages.values).count == 4, "\(pages)")
        #expect(pages[Participant(id: "P", group: "a")] == "participants/P" && pages[Participant(id: "P", group: "b")] == "participants/P-2")
    }

    @Test("a cohort run: an id in two groups and colliding ids and file names each get a page; contradictory rows in the summary and run_failures")
    func cohortRun() throws {
        let w = Workspace()
        let (one, two) = Self.collidingNames()
        let crafted = String(ReportBuilder.recordingFolder("x?").dropFirst("recordings/".count))
        let files = ["n1.csv", "n2.csv", "n3.csv", "n4.csv", one, two]
        for (k, f) in files.enumerated() { w.write(f, Workspace.phoneNight(startUTC: PipelineTests.night1Start + Int64(k) * Self.day)) }
        let table = w.root + "/participants.csv"
        try Data("""
            id,group,path
            P,a,n1.csv
            P,b,n2.csv
            Q,a,n1.csv
            x?,,n3.csv
            \(crafted),,n4.csv

            """.utf8).write(to: URL(fileURLWithPath: table))
        let rule = try ParticipantOption.rule(table)
        let summary = try w.run(tz: "Europe/Berlin") { $0.participants = rule; $0.participantsOption = table }
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        // The two colliding files are in no row: a line each.
        #expect(summary.participantProblems.count == 4, "\(summary.participantProblems)")
        #expect(summary.participantProblems.filter { $0.contains("is in no row, so it is a participant of its own") }.count == 2)
        #expect(summary.participantProblems.contains { $0.hasPrefix("\(table) row 3: id 'P' is in group 'b' here but in group 'a' in row 2") })
        #expect(summary.participantProblems.contains { $0.hasPrefix("\(table) row 4: path 'n1.csv' is already participant 'P''s (row 2)") })
        var c = PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports)
        c.participantsOption = table
        let text = RunSummaryText.render(summary, configuration: c)
        #expect(text.contains("row 3: id 'P' is in group 'b'"), "\(text)")
        let stored = try SleepDatabase(path: w.db).latestRunFailures(commands: ["run"])
        #expect(stored.filter { $0.path == table }.count == 4, "\(stored)")

        // Six participants (P twice, x?, the crafted id, and the two colliding files on their own), six pages.
        let index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        let pages = try FileManager.default.contentsOfDirectory(atPath: w.reports + "/participants")
        #expect(pages.count == 6, "\(pages.sorted())")
        for page in pages {
            #expect(index.contains("participants/\(page)/index.html"), "\(page)")
        }
        let p2 = try String(contentsOfFile: w.reports + "/participants/P-2/index.html", encoding: .utf8)
        #expect(p2.contains("group b") && p2.contains("n2.csv") && !p2.contains("n1.csv"))
        let recordings = try FileManager.default.contentsOfDirectory(atPath: w.reports + "/recordings")
        #expect(recordings.count == 6, "\(recordings.sorted())")
        let shared = ReportBuilder.recordingFolder(one)
        #expect(index.contains("\(shared)/index.html") && index.contains("\(shared)-2/index.html"))
    }

    @Test("participants/ or recordings/ a symbolic link or a file: run and render stop with its path (exit 2), writing no page there")
    func pageFolderNotAFolder() throws {
        let w = Workspace()
        w.write("n1.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start))
        _ = try w.run(tz: "Europe/Berlin") { _ in }
        let fm = FileManager.default
        try fm.removeItem(atPath: w.reports + "/recordings")
        _ = fm.createFile(atPath: w.reports + "/recordings", contents: Data("x".utf8))
        var message = ""
        do { _ = try ReportRender(databasePath: w.db, reportsDirectory: w.reports).run() } catch let e as PipelineError { message = e.description; #expect(e.exitCode == 2) }
        #expect(message.contains(w.reports + "/recordings is not a folder"), "\(message)")
        try fm.removeItem(atPath: w.reports + "/recordings")
        let rendered = try ReportRender(databasePath: w.db, reportsDirectory: w.reports).run()
        #expect(rendered.skipped.isEmpty && fm.fileExists(atPath: w.reports + "/recordings/n1.csv/index.html"))

        let elsewhere = w.root + "/elsewhere"
        try fm.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try fm.removeItem(atPath: w.reports + "/participants")
        try fm.createSymbolicLink(atPath: w.reports + "/participants", withDestinationPath: elsewhere)
        message = ""
        do { _ = try w.run(tz: "Europe/Berlin") { _ in } } catch let e as PipelineError { message = e.description; #expect(e.exitCode == 2) }
        #expect(message.contains(w.reports + "/participants is a symbolic link (to \(elsewhere))"), "\(message)")
        #expect(try fm.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }
}
