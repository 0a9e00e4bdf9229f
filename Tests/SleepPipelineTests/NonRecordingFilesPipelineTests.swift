import Foundation
import Testing
import SleepIngest
import SleepPipeline
import SleepStore

/// A study folder as downloaded: recordings beside tables that are no recordings (MMASH's sleep
/// summary, activity log, participant details …) and the usual non-data files. The tables are
/// skipped with a line each in the summary and fail nothing; a file in no format still fails,
/// naming its line and what to change.
@Suite("Files that are not recordings in a run", .serialized)
struct NonRecordingFilesPipelineTests {
    static let sideFiles: [(String, String)] = [
        ("sleep.csv", ",In Bed Date,In Bed Time,Out Bed Date,Out Bed Time,Onset Date,Onset Time,Latency,Efficiency,Total Minutes in Bed,Total Sleep Time (TST),Wake After Sleep Onset (WASO),Number of Awakenings\n1,2,03:57,2,07:30,2,03:57,0,92.02,213,196,17,9\n"),
        ("Activity.csv", ",Activity,Start,End,Day\n0,2,10:00,10:22,1\n1,9,10:37,10:40,1\n"),
        ("user_info.csv", ",Gender,Weight,Height,Age\n0,M,65,169,29\n"),
        ("RR.csv", ",ibi_s,day,time\n0,0.768,1,10:10:22\n1,0.772,1,10:10:23\n"),
        ("questionnaire.csv", ",MEQ,STAI1,STAI2,Pittsburgh,Daily_stress\n0,47.0,41,35,7,20\n"),
        ("saliva.csv", ",SAMPLES,Cortisol NORM,Melatonin NORM\n0,before sleep,0.034,1.7e-05\n"),
    ]

    static func render(_ s: RunSummary, _ w: Workspace) -> String {
        RunSummaryText.render(s, configuration: PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports))
    }

    @Test("one recording with MMASH-like tables and non-data files: exit 0, a line per table, nothing stored or failed for them")
    func sideFilesSkipped() throws {
        let w = Workspace()
        try FileManager.default.createDirectory(atPath: w.data + "/user_1", withIntermediateDirectories: true)
        w.write("user_1/night.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start, hours: 3))
        for (name, text) in Self.sideFiles { w.write("user_1/" + name, text) }
        for name in ["README.txt", "notes.md", "protocol.pdf", "data.xlsx", "consent.docx", "photo.jpg", ".DS_Store", "desktop.ini", "Thumbs.db"] {
            w.write(name, "%PDF-1.4 PK\u{03}\u{04} not data")
        }
        for command in ["run", "nightly"] {
            let s = try w.run(tz: "Europe/Berlin") { $0.command = command }
            #expect(s.exitCode == ExitStatus.success, "\(command): \(s.failures)")
            #expect(s.failures.isEmpty && s.filesSeen == 1)
            #expect(s.notRecordings.count == 6)
            let text = Self.render(s, w)
            #expect(text.contains("1 file(s) in \(w.data): \(command == "run" ? "1 ingested, 0 unchanged" : "0 ingested, 1 unchanged"), 0 failed; 6 skipped as not recordings"), "\(text)")
            for line in ["not a recording: user_1/sleep.csv (an ActiLife sleep summary)",
                         "not a recording: user_1/user_info.csv (a participant table)",
                         "not a recording: user_1/Activity.csv (an activity diary)",
                         "not a recording: user_1/RR.csv (heart-beat (RR) intervals)",
                         "not a recording: user_1/questionnaire.csv (questionnaire scores)",
                         "not a recording: user_1/saliva.csv (saliva samples (hormone assays))"] {
                #expect(text.contains(line), "\(line) missing from:\n\(text)")
            }
            for name in ["README", "notes", "protocol", "data.xlsx", "consent", "photo", "DS_Store", "desktop", "Thumbs"] {
                #expect(!text.contains(name), "\(name) in:\n\(text)")
            }
        }
        let db = try SleepDatabase(path: w.db)
        #expect(try db.query("SELECT path FROM recordings").map { $0["path"]! } == ["user_1/night.csv"])
        #expect(try db.query("SELECT COUNT(*) AS n FROM run_failures")[0]["n"] == "0")
        #expect(try db.query("SELECT status FROM runs").map { $0["status"]! } == ["ok", "ok"])
    }

    @Test("a ';' file with decimal commas in no format fails with its line and the hint; timestamp;x;y;z is read like its comma copy")
    func semicolonFiles() throws {
        let w = Workspace()
        let night = Workspace.phoneNight(startUTC: PipelineTests.night1Start, hours: 3)
        w.write("comma.csv", night)
        w.write("semicolon.csv", night.replacingOccurrences(of: ",", with: ";").replacingOccurrences(of: ".", with: ","))
        w.write("export.csv", "Zeit;X;Y;Z;Temperatur\n2024-06-14 23:00:00;0,012;-0,981;0,104;21,5\n")
        let s = try w.run()
        #expect(s.exitCode == ExitStatus.someFilesFailed && s.filesIngested == 2 && s.notRecordings.isEmpty)
        let failure = try #require(s.failures.first)
        #expect(s.failures.count == 1 && failure.path == "export.csv")
        #expect(failure.error.contains("export.csv:1: unrecognised format: line 1 separates its 5 fields with ';' and line 2 writes decimals with a comma ('0,012'): sleepsta reads ';'-separated text only as a raw-sample file of 4 columns"), "\(failure.error)")
        #expect(failure.error.contains("ActiGraph .agd") && failure.error.contains("Axivity .cwa"))
        #expect(Self.render(s, w).contains("export.csv:1: unrecognised format"))
        let db = try SleepDatabase(path: w.db)
        let metrics = try db.query("""
            SELECT m.night_id, m.total_sleep_time_min, m.waso_min, m.sleep_onset_latency_min FROM night_metrics m ORDER BY m.night_id
            """)
        #expect(metrics.count == 2)
        if metrics.count == 2 {
            #expect(metrics[0]["total_sleep_time_min"] == metrics[1]["total_sleep_time_min"] && metrics[0]["waso_min"] == metrics[1]["waso_min"], "\(metrics)")
        }
    }

    @Test("the command line: `run` exits 0 on such a folder; `inspect` says what a table is and fails only on the unknown file",
          .enabled(if: SleepstaBinary.path != nil, Comment(rawValue: SleepstaBinary.missingMessage)))
    func commandLine() throws {
        let w = Workspace()
        w.write("night.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start, hours: 1))
        for (name, text) in Self.sideFiles { w.write(name, text) }
        func sleepsta(_ arguments: [String]) throws -> ChildProcess.Outcome {
            try ChildProcess.sleepsta(arguments, in: w.data, outputPrefix: w.root + "/cli-\(UUID().uuidString)").wait()
        }
        let run = try sleepsta(["run", "--data", w.data, "--db", w.db, "--reports", w.reports, "--tz", "Europe/Berlin", "-q"])
        #expect(run.exitCode == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("not a recording: sleep.csv (an ActiLife sleep summary)"), "\(run.stdout)")
        let side = try sleepsta(["inspect", "sleep.csv", "Activity.csv"])
        #expect(side.exitCode == 0 && side.stderr.isEmpty, "\(side.stderr)")
        #expect(side.stdout.contains("format   not a recording: an ActiLife sleep summary") && side.stdout.contains("not a recording: an activity diary"), "\(side.stdout)")
        w.write("export.csv", "Zeit;X;Y;Z;Temperatur\n2024-06-14 23:00:00;0,012;-0,981;0,104;21,5\n")
        let mixed = try sleepsta(["inspect", "user_info.csv", "export.csv", "--format", "json"])
        #expect(mixed.exitCode == 1 && mixed.stdout.contains("\"kind\" : \"participantDetails\""), "\(mixed.stdout)")
        #expect(mixed.stderr.contains("export.csv:1: unrecognised format: line 1 separates its 5 fields with ';'"), "\(mixed.stderr)")
    }

    @Test("a real MMASH user folder (../shared/external) runs with exit 0: Actigraph.csv stored, its tables skipped",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func mmashUserFolder() throws {
        let source = try #require(ExternalData.url("mmash/user_1"))
        let w = Workspace()
        try FileManager.default.copyItem(atPath: source.path, toPath: w.data + "/user_1")
        let s = try w.run()
        #expect(s.exitCode == ExitStatus.success, "\(s.failures)")
        #expect(s.filesIngested == 1 && s.failures.isEmpty)
        let listed = Set(s.notRecordings.map(\.path))
        let tables = try FileManager.default.contentsOfDirectory(atPath: source.path).filter { $0 != "Actigraph.csv" && $0.hasSuffix(".csv") }
        #expect(listed == Set(tables.map { "user_1/" + $0 }), "\(s.notRecordings)")
        #expect(listed.contains("user_1/sleep.csv"))
        print("MMASH user_1: " + Self.render(s, w).split(separator: "\n").filter { $0.hasPrefix("not a recording") || $0.hasPrefix("sleepsta") }.joined(separator: " | "))
    }
}
