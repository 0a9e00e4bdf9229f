import Foundation
import Testing
import SleepStore

/// A study file at the data folder's root holds the protocol: `run` and `nightly` read it with no
/// option at all, options on the command line override its keys and say so, `protocol.toml`
/// beside the reports records every value with its source, and a mistake in it stops with its line.
@Suite("The study file (sleepsta.toml)", .serialized,
       .enabled(if: SleepstaBinary.path != nil, Comment(rawValue: SleepstaBinary.missingMessage)))
struct StudyFileCLITests {
    static func sleepsta(_ arguments: [String], in w: Workspace) throws -> ChildProcess.Outcome {
        try ChildProcess.sleepsta(arguments, in: w.root, outputPrefix: w.root + "/cli-\(UUID().uuidString)").wait()
    }

    static func study(_ w: Workspace) {
        for folder in ["S01", "S02", "old"] { try? FileManager.default.createDirectory(atPath: w.data + "/" + folder, withIntermediateDirectories: true) }
        w.write("S01/night.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start, hours: 8))
        w.write("S02/night.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start + 86_400, hours: 7))
        w.write("old/night-copy.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start + 3 * 86_400, hours: 6))
        w.write("participants.csv", "id,group,path\nS01,control,S01\nS02,shift,S02\n")
        w.write("sleepsta.toml", """
            # Pilot study protocol
            title = "Pilot"
            tz = "Europe/Berlin"
            interval = "15m"   # the app's second interval length
            participants = "participants.csv"
            ignore = ["old/*", "*.pdf"]
            db = "../study.sqlite"
            reports = "../StudyReports"

            """)
    }

    @Test("run and nightly with no option read Data/sleepsta.toml; protocol.toml records each value and its source; --interval overrides and says so")
    func studyAtDataRoot() throws {
        let w = Workspace()
        Self.study(w)
        let run = try Self.sleepsta(["run", "-q"], in: w)
        #expect(run.exitCode == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("2 file(s) in Data: 2 ingested, 0 unchanged, 0 failed; 2 ignored (old/*, *.pdf, the study's own files)"), "\(run.stdout)")
        #expect(!run.stdout.contains("not a recording"), "\(run.stdout)")
        let protocolPath = w.root + "/StudyReports/protocol.toml"
        let first = try String(contentsOfFile: protocolPath, encoding: .utf8)
        for line in ["title = \"Pilot\"  # study file", "tz = \"Europe/Berlin\"  # study file", "interval = \"15m\"  # study file",
                     "method = \"sleepsta\"  # default", "ignore = [\"old/*\", \"*.pdf\"]  # study file",
                     "participants = \"\(w.data)/participants.csv\"  # study file", "/Data/sleepsta.toml (sha256 "] {
            #expect(first.contains(line), "\(line) missing from:\n\(first)")
        }
        let db = try SleepDatabase(path: w.root + "/study.sqlite")
        #expect(try db.query("SELECT path FROM recordings ORDER BY path").map { $0["path"]! } == ["S01/night.csv", "S02/night.csv"])
        let parameters = try db.query("SELECT parameters_json AS p FROM runs")[0]["p"] ?? ""
        #expect(parameters.contains("sleepsta.toml") && parameters.contains("\"interval\":{\"seconds\":900}") && parameters.contains("old\\/*"), "\(parameters)")

        // nightly under the same protocol: nothing to do; a second one leaves the protocol file untouched.
        let nightly = try Self.sleepsta(["nightly", "-q"], in: w)
        #expect(nightly.exitCode == 0 && nightly.stdout.contains("0 ingested, 2 unchanged"), "\(nightly.stdout)\n\(nightly.stderr)")
        #expect(try String(contentsOfFile: protocolPath, encoding: .utf8).contains("interval = \"15m\"  # study file"))
        let modified = try FileManager.default.attributesOfItem(atPath: protocolPath)[.modificationDate] as? Date
        let again = try Self.sleepsta(["nightly", "-q"], in: w)
        #expect(again.exitCode == 0 && again.stdout.contains("0 ingested, 2 unchanged"), "\(again.stdout)\n\(again.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: protocolPath)[.modificationDate] as? Date == modified)

        let override = try Self.sleepsta(["nightly", "-q", "--interval", "10m"], in: w)
        #expect(override.exitCode == 0, "\(override.stdout)\n\(override.stderr)")
        #expect(override.stdout.contains("--interval 10m overrides the study file's interval \"15m\" (Data/sleepsta.toml line 4 (interval))"), "\(override.stdout)")
        #expect(try String(contentsOfFile: protocolPath, encoding: .utf8).contains("interval = \"10m\"  # command line (overrides the study file)"))
    }

    @Test("a mistake in the study file stops the run with its line: an unknown key with the nearest one, a wrong type, a table")
    func mistakes() throws {
        let w = Workspace()
        w.write("night.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start, hours: 2))
        let cases: [(String, String)] = [
            ("title = \"x\"\ntzz = \"UTC\"\n", "bad.toml:2: unknown key 'tzz' (did you mean 'tz'?); a study file holds title, data, db"),
            ("interval = 15\n", "bad.toml:1: 'interval' must be a string in quotes (interval length (--interval))"),
            ("interval = \"15 minutes\"\n", "study file bad.toml line 1 (interval): '15 minutes' is not a value of --interval"),
            ("[study]\ntz = \"UTC\"\n", "bad.toml:1: a study file's keys stand at the top level, without [tables]"),
            ("tz = \"UTC\"\ntz = \"Europe/Berlin\"\n", "bad.toml:2: 'tz' is given twice (first on line 1)"),
            ("diary = \"missing.csv\"\n", "--diary:"),
        ]
        for (text, message) in cases {
            try text.write(toFile: w.root + "/bad.toml", atomically: true, encoding: .utf8)
            let out = try Self.sleepsta(["run", "-q", "--study", "bad.toml"], in: w)
            #expect(out.exitCode == 2, "\(text): \(out.stdout)")
            #expect(out.stderr.contains(message), "\(text): expected \(message) in:\n\(out.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: w.db))
    }

    @Test("run without a study file names what it drops of the last run's options, and how to keep them")
    func runSaysWhatItDrops() throws {
        let w = Workspace()
        try FileManager.default.createDirectory(atPath: w.data + "/p1", withIntermediateDirectories: true)
        w.write("p1/night.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start, hours: 3))
        let common = ["--data", "Data", "--db", w.db, "--reports", w.reports, "-q"]
        let first = try Self.sleepsta(["run", "--tz", "Europe/Berlin", "--participants", "folder", "--interval", "15m"] + common, in: w)
        #expect(first.exitCode == 0, "\(first.stdout)\n\(first.stderr)")
        #expect(!first.stdout.contains("run uses only"))
        let bare = try Self.sleepsta(["run", "--interval", "15m"] + common, in: w)
        #expect(bare.exitCode == 0, "\(bare.stdout)\n\(bare.stderr)")
        #expect(bare.stdout.contains("run uses only the options it is given, so these of the last run are not used: tz Europe/Berlin → none; participants folder → file (recordings stored with a zone keep it; new files that state none are read on the UTC clock). Give them again, keep them in a study file (docs/study-file.md), or use nightly, which reuses them."), "\(bare.stdout)")
        let nightly = try Self.sleepsta(["nightly"] + common, in: w)
        #expect(nightly.exitCode == 0 && !nightly.stdout.contains("run uses only"), "\(nightly.stdout)")
    }
}
