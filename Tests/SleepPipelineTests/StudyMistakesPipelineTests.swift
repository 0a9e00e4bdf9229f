import Foundation
import Testing
import SleepCore
import SleepIngest
import SleepPipeline
import SleepReport
import SleepStore
import SleepstaWorkloads

/// What a researcher with a participants table and a diary meets: every mistake of the table in
/// the summary and in `run_failures` (a warning: exit 0), a diary keyed by participant id, the
/// diary's rows counted by kind, a wrist night naming the diary row that guided it, and the pages
/// of a grouping the run no longer has removed.
@Suite("Study mistakes: participants table and diary in a run", .serialized)
struct StudyMistakesPipelineTests {
    static let day: Int64 = 86_400

    /// Phone nights S01/a.csv, S02/a.csv, S03/a.csv, S03/b.csv and extra.csv, one an evening from 2024-06-14.
    func phoneStudy(_ w: Workspace) throws {
        for folder in ["S01", "S02", "S03"] { try FileManager.default.createDirectory(atPath: w.data + "/" + folder, withIntermediateDirectories: true) }
        for (k, f) in ["S01/a.csv", "S02/a.csv", "S03/a.csv", "S03/b.csv", "extra.csv"].enumerated() {
            w.write(f, Workspace.phoneNight(startUTC: PipelineTests.night1Start + Int64(k) * Self.day, hours: 3))
        }
    }

    func table(_ w: Workspace, _ text: String, name: String = "participants.csv") throws -> (String, ParticipantRule) {
        let path = w.root + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, try ParticipantOption.rule(path))
    }

    @Test("a typo in a path, an id in two groups, a recording in no table row: a line each in the summary and run_failures, exit 0")
    func tableMistakes() throws {
        let w = Workspace()
        try phoneStudy(w)
        let (path, rule) = try table(w, "id,group,path\nS01,control,S01\nS02,control,S02/a.cvs\nS03,control,S03/a.csv\nS03,treated,S03/b.csv\n")
        let summary = try w.run { $0.participants = rule; $0.participantsOption = path }
        #expect(summary.failures.isEmpty && summary.exitCode == ExitStatus.success, "a table mistake is a warning")
        var c = PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports)
        c.participantsOption = path
        let text = RunSummaryText.render(summary, configuration: c)
        #expect(text.contains("participants: 4 mistakes in the table, each below; the other rows apply (\(path))"), "\(text)")
        #expect(text.contains("\(path) row 3: path 'S02/a.cvs' matches no recording under --data (expected a recording's path relative to --data, a folder holding recordings, or a file name; the nearest is 'S02/a.csv')"), "\(text)")
        #expect(text.contains("\(path) row 5: id 'S03' is in group 'treated' here but in group 'control' in row 4; the two are kept apart as two participants (expected one group per id)"), "\(text)")
        #expect(text.contains("\(path): recording 'S02/a.csv' is in no row"), "\(text)")
        #expect(text.contains("\(path): recording 'extra.csv' is in no row, so it is a participant of its own named by its path (expected a row id,group,extra.csv)"), "\(text)")
        let stored = try SleepDatabase(path: w.db).latestRunFailures(commands: ["run"]).filter { $0.path == path }
        #expect(stored.count == 4, "\(stored)")
        let run = try SleepDatabase(path: w.db).query("SELECT status FROM runs ORDER BY id DESC LIMIT 1")
        #expect(run.first?["status"] == "ok")
    }

    @Test("a diary keyed by participant id applies through the table; without one, each id's line says --participants maps ids to files")
    func diaryByParticipant() throws {
        let w = Workspace()
        try phoneStudy(w)
        try "id,night,in_bed,out_of_bed,type\nP02,2024-06-15,23:00,02:00,sleep\nP02,2024-06-15,14:00,14:30,nap\n"
            .write(toFile: w.root + "/diary.csv", atomically: true, encoding: .utf8)
        // P02 is no file or folder name (S02 would match the folder S02/): only the table maps it.
        let diary = try SleepDiary.read(path: w.root + "/diary.csv")
        let alone = try w.run { $0.diary = diary }
        let d0 = try #require(alone.diary)
        #expect(d0.applied == 0 && alone.exitCode == ExitStatus.someFilesFailed)
        #expect(d0.problems.contains { $0.hasSuffix("rows 2, 3: id 'P02' matches no recording (ids match a path, a file name with or without its extension, or a folder name; if it is a participant id, --participants FILE with a table id,group,path maps ids to files)") }, "\(d0.problems)")

        let (path, rule) = try table(w, "id,path\nS01,S01/a.csv\nP02,S02/a.csv\nS03,S03\nX,extra.csv\n")
        let summary = try w.run { $0.participants = rule; $0.participantsOption = path; $0.diary = diary }
        let d = try #require(summary.diary)
        #expect(d.applied == 2 && d.problems.isEmpty && summary.exitCode == ExitStatus.success, "\(d.problems)")
        let text = RunSummaryText.render(summary, configuration: PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports))
        #expect(text.contains("diary: 2 of 2 row(s) applied (\(w.root)/diary.csv): sleep 1 of 1, nap 1 of 1"), "\(text)")
        let guided = try SleepDatabase(path: w.db).query("""
            SELECT r.path, g.source FROM analysis_guides g JOIN analyses a ON a.id = g.analysis_id
            JOIN nights n ON n.id = a.night_id JOIN recordings r ON r.id = n.recording_id
            """)
        #expect(guided == [["path": "S02/a.csv", "source": "the sleep diary (diary.csv row 2)"]], "\(guided)")
    }

    @Test("a diary-guided wrist night names its diary row on its page and in its stored analysis; nap and nonwear rows are applied and counted")
    func wristNightGuided() throws {
        let w = Workspace()
        try SharedRecordings.writeCWA(WearableCSVGenerator(days: 3), to: w.data + "/wrist-3d.cwa")
        try """
            id,night,in_bed,out_of_bed,type
            wrist-3d,2024-06-14,22:30,07:30,sleep
            wrist-3d,2024-06-14,15:00,15:40,nap
            wrist-3d,2024-06-14,18:00,19:00,nonwear
            wrist-3d,2024-06-20,18:00,19:00,nonwear
            """.write(toFile: w.root + "/diary.csv", atomically: true, encoding: .utf8)
        let diary = try SleepDiary.read(path: w.root + "/diary.csv")
        let summary = try w.run { $0.diary = diary }
        let text = RunSummaryText.render(summary, configuration: PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports))
        #expect(text.contains("diary: 3 of 4 row(s) applied (\(w.root)/diary.csv): sleep 1 of 1, nap 1 of 1, nonwear 1 of 2"), "\(text)")
        #expect(text.contains("row 5: 'wrist-3d' has no night of 2024-06-20"), "\(text)")
        let db = try SleepDatabase(path: w.db)
        let stored = try db.query("SELECT json_extract(details_json, '$.guider') AS g FROM analyses WHERE night_id = 'wrist-3d_2024-06-14'")
        #expect(stored.map { $0["g"] } == ["sleeplog (the sleep diary (diary.csv row 2))"], "\(stored)")
        let periods = try db.query("SELECT g.kind, g.source FROM analysis_diary_periods g JOIN analyses a ON a.id = g.analysis_id ORDER BY g.start_utc")
        #expect(periods == [["kind": "nap", "source": "the sleep diary (diary.csv row 3)"], ["kind": "nonwear", "source": "the sleep diary (diary.csv row 4)"]], "\(periods)")
        let page = try String(contentsOfFile: w.reports + "/wrist-3d_2024-06-14/index.html", encoding: .utf8)
        #expect(page.contains("in bed to out of bed from the sleep diary (diary.csv row 2)"), "the guider row names the diary row")
        #expect(!page.contains("no diary") && !page.contains("HDCZA (van Hees 2018): the longest block"), "a diary-guided night does not credit HDCZA")
        #expect(page.contains("Not worn by the diary (nonwear rows)") && page.contains("18:00"), "the nonwear row's span is on the page")
        // The nonwear hour is not worn in the day's minutes (it was worn and moving in the data).
        let a = try #require(try db.query("SELECT json_extract(details_json, '$.diaryNotWornSpansUTC') AS s FROM analyses WHERE night_id = 'wrist-3d_2024-06-14'").first?["s"])
        let from = 1_718_323_200 + 16 * 3600   // 2024-06-14 18:00 local (UTC+2)
        #expect(a == "[[\(from),\(from + 3600)]]", "\(a)")
        // Without the diary HDCZA is the guider and the page says so.
        let plain = try Workspace.pageOfUnguidedWrist()
        #expect(plain.contains("HDCZA (van Hees 2018): the longest block") && plain.contains("no diary"))

        // --method ggir does as GGIR's part 4, which reads no self-reported non-wear: the row is
        // not counted as applied, the summary says why, and so does the night.
        let ggir = try w.run { $0.diary = diary; $0.parameters.nightMethod = .ggir }
        let ggirText = RunSummaryText.render(ggir, configuration: PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports))
        #expect(ggirText.contains("sleep 1 of 1, nap 1 of 1, nonwear 0 of 2"), "\(ggirText)")
        #expect(ggirText.contains("row 4: nonwear not applied to wrist-3d.cwa: --method ggir does as GGIR's part 4"), "\(ggirText)")
        // Two analyses of the night: the default method's (which applied the row) and GGIR's.
        let notes = try db.query("SELECT notes_json AS n FROM analyses WHERE night_id = 'wrist-3d_2024-06-14'").map { $0["n"] ?? "" }
        let leftOut = notes.filter { $0.contains("\"code\":\"ggir-diary-nonwear-not-applied\"") }
        #expect(notes.count == 2 && leftOut.count == 1 && leftOut[0].contains("\"seconds\":3600"), "\(notes)")
        let ggirPage = try String(contentsOfFile: w.reports + "/wrist-3d_2024-06-14/index.html", encoding: .utf8)
        #expect(ggirPage.contains("nonwear rows (60 min of this night&#39;s window) are not applied")
                || ggirPage.contains("nonwear rows (60 min of this night's window) are not applied"), "the night page says the row is left out")
    }

    @Test("a phone night's diary nonwear row is no data: time in bed keeps its span, TST loses the hour, the note and the gap flag say so; counted as applied")
    func phoneNonwear() throws {
        func nights(_ diaryText: String?) throws -> (row: [String: String], summary: String) {
            let w = Workspace()
            w.write("alex.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start))
            var diary: SleepDiary? = nil
            if let diaryText {
                try diaryText.write(toFile: w.root + "/diary.csv", atomically: true, encoding: .utf8)
                diary = try SleepDiary.read(path: w.root + "/diary.csv")
            }
            let summary = try w.run { $0.diary = diary }
            try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .nights, outputPath: w.root + "/n.csv")).run()
            let rows = TestCSV.rows(try String(contentsOfFile: w.root + "/n.csv", encoding: .utf8))
            #expect(rows.count == 2, "\(rows)")
            let text = RunSummaryText.render(summary, configuration: PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports))
            let page = (try? String(contentsOfFile: w.reports + "/alex_2024-06-14/index.html", encoding: .utf8)) ?? ""
            return (Dictionary(uniqueKeysWithValues: zip(rows[0], rows[1])), text + page)
        }
        let plain = try nights(nil)
        // 01:00-02:00 local, in the still middle of the night: the phone on the bedside.
        let off = try nights("id,night,in_bed,out_of_bed,type\nalex,2024-06-14,01:00,02:00,nonwear\n")
        #expect(off.summary.contains("nonwear 1 of 1"), "\(off.summary)")
        #expect(off.summary.contains("60 min of time in bed as no data (the phone off the mattress"), "the night page says what the row did")
        #expect(plain.row["status"] == "scored" && off.row["status"] == "scored")
        #expect(off.row["in_bed_start"] == plain.row["in_bed_start"] && off.row["in_bed_end"] == plain.row["in_bed_end"])
        let tst = (Double(plain.row["total_sleep_time_min"] ?? "") ?? 0) - (Double(off.row["total_sleep_time_min"] ?? "") ?? 0)
        #expect(abs(tst - 60) <= 10, "TST loses the hour, to the interval's resolution: \(tst) min")
        #expect((Double(off.row["no_data_in_sleep_period_min"] ?? "") ?? 0) >= 50, "\(off.row)")
        #expect(off.row["flags"]?.split(separator: ";").contains("gap-in-sleep-period") == true, "\(off.row["flags"] ?? "")")
        #expect(plain.row["flags"]?.contains("gap-in-sleep-period") == false)
    }

    @Test("another grouping removes the participant pages the run no longer has, and leaves a user's own file")
    func staleParticipantPages() throws {
        let w = Workspace()
        try phoneStudy(w)
        let (path, rule) = try table(w, "id,path\nP1,S01\nP2,S02\nP3,S03\nP4,extra.csv\n")
        _ = try w.run { $0.participants = rule; $0.participantsOption = path }
        let pages = w.reports + "/participants"
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: pages)) == ["P1", "P2", "P3", "P4"])
        try "mine".write(toFile: pages + "/P4/notes.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: pages + "/mine", withIntermediateDirectories: true)
        try "<h1>not a page</h1>".write(toFile: pages + "/mine/index.html", atomically: true, encoding: .utf8)
        _ = try w.run { $0.participants = .folder(level: 1); $0.participantsOption = "folder" }
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: pages))
        #expect(after == ["S01", "S02", "S03", "extra.csv", "P4", "mine"], "\(after.sorted())")
        #expect(try FileManager.default.contentsOfDirectory(atPath: pages + "/P4") == ["notes.txt"], "only sleepsta's files go")
        #expect(FileManager.default.fileExists(atPath: pages + "/mine/index.html"))
        #expect(FileManager.default.fileExists(atPath: pages + "/S03/index.html"))
    }
}

extension Workspace {
    /// The page of a wrist night run without a diary.
    static func pageOfUnguidedWrist() throws -> String {
        let w = Workspace()
        try SharedRecordings.writeCWA(WearableCSVGenerator(days: 3), to: w.data + "/wrist-3d.cwa")
        _ = try w.run()
        return try String(contentsOfFile: w.reports + "/wrist-3d_2024-06-14/index.html", encoding: .utf8)
    }
}
