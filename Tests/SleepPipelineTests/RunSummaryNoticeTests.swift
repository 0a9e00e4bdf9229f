import Foundation
import Testing
import SleepIngest
import SleepPipeline
import SleepStore

/// A sleep diary's rows that guide no night are visible to cron: listed in the summary on stdout
/// and stored with the run, and a diary none of whose rows applies makes the run exit 1.
@Suite("Sleep diary use in the run summary")
struct DiaryUseTests {
    /// A 3-hour phone night (`night1.csv`, 2024-06-14) run with the diary `text`.
    func run(_ w: Workspace, diary text: String) throws -> RunSummary {
        w.write("night1.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start, hours: 3))
        try text.write(toFile: w.root + "/diary.csv", atomically: true, encoding: .utf8)
        let diary = try SleepDiary.read(path: w.root + "/diary.csv")
        return try w.run { $0.diary = diary }
    }

    @Test("every row unusable (an id typo, 25:29, 01/03/2026): each listed by row, stored with the run, exit 1")
    func noRowApplies() throws {
        let w = Workspace()
        let summary = try run(w, diary: """
            id,night,in_bed,out_of_bed
            nigth1,2024-06-14,23:00,07:00
            night1,2024-06-14,25:29,07:00
            night1,01/03/2026,23:00,07:00
            """)
        let d = try #require(summary.diary)
        #expect(d.rows == 3 && d.applied == 0 && d.problems.count == 3)
        #expect(summary.failures.isEmpty && summary.exitCode == ExitStatus.someFilesFailed)
        let text = RunSummaryText.render(summary, configuration: PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports))
        #expect(text.contains("diary: 0 of 3 row(s) applied") && text.contains("none, so the run exits 1"), "\(text)")
        for row in ["row 2", "row 3", "row 4"] { #expect(text.contains(row), "\(row): \(text)") }
        let stored = try SleepDatabase(path: w.db).query("SELECT path, error FROM run_failures")
        #expect(stored.count == 3 && stored.allSatisfy { $0["path"]!.hasSuffix("diary.csv") })
    }

    @Test("one row applies, one names a night the recording does not have: exit 0, the other row listed")
    func someRowsApply() throws {
        let w = Workspace()
        let summary = try run(w, diary: """
            id,night,in_bed,out_of_bed
            night1,2024-06-14,23:00,02:00
            night1,2024-06-20,23:00,07:00
            """)
        let d = try #require(summary.diary)
        #expect(d.rows == 2 && d.applied == 1 && summary.exitCode == ExitStatus.success)
        #expect(d.problems.count == 1 && d.problems[0].contains("row 3") && d.problems[0].contains("has no night of 2024-06-20"), "\(d.problems)")
    }
}

/// A copy of a recording in another folder is stored once, and the summary says so.
@Suite("Identical files in the run summary")
struct TwinFileTests {
    @Test("a copy in another folder: stored once under the path met first, named in the summary on every run")
    func twinIsReported() throws {
        let w = Workspace()
        for folder in ["a", "b"] { try FileManager.default.createDirectory(atPath: w.data + "/" + folder, withIntermediateDirectories: true) }
        let night = Workspace.phoneNight(startUTC: PipelineTests.night1Start, hours: 3)
        w.write("a/x.csv", night)
        w.write("b/x.csv", night)
        for _ in 0..<2 {
            let summary = try w.run()
            #expect(summary.twins.count == 1 && summary.twins[0].path == "b/x.csv" && summary.twins[0].storedAs == "a/x.csv")
            let text = RunSummaryText.render(summary, configuration: PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports))
            #expect(text.contains("same content, stored once: b/x.csv = a/x.csv"), "\(text)")
        }
        #expect(try SleepDatabase(path: w.db).recordingPaths() == ["a/x.csv"])
    }
}
