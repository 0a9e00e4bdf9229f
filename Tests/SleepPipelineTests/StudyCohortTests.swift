import Foundation
import Testing
import SleepStore

/// A study as researchers keep it: one folder per participant holding recordings of eleven formats
/// (MMASH's folders as downloaded, with their side tables; two Actiware exports; QUT; `.agd`; a wrist
/// `.cwa`; `.AWD`; `.mtn`; a phone log; the app's export), a participants table with a group column
/// and a study file at the data folder's root. `run` twice and `nightly` exit 0; the protocol file
/// is written; nothing fails.
@Suite("A study cohort from a study file", .serialized,
       .enabled(if: SleepstaBinary.path != nil, Comment(rawValue: SleepstaBinary.missingMessage)),
       .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
struct StudyCohortTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// participant → (group, files from ../shared/external or the repository's Data/).
    static let cohort: [(id: String, group: String, files: [String])] = [
        ("S01", "control", ["mmash/user_1/Actigraph.csv", "mmash/user_1/sleep.csv", "mmash/user_1/user_info.csv", "mmash/user_1/Activity.csv"]),
        ("S02", "control", ["mmash/user_2/Actigraph.csv", "mmash/user_2/sleep.csv", "mmash/user_2/user_info.csv", "mmash/user_2/Activity.csv"]),
        ("S03", "control", ["actiware_rpx/test_sample_rpx_eng.csv"]),
        ("S04", "control", ["actiware_rpx/test_sample_rpx_fr.csv"]),
        ("S05", "control", ["qut_applewatch_actiwatch/p02_n01_ready.csv"]),
        ("S06", "shift", ["peer_test_files/pyactigraphy/test_sample.agd"]),
        ("S07", "shift", ["peer_test_files/ggirread/ax6_testfile.cwa"]),
        ("S08", "shift", ["peer_test_files/pyactigraphy/test_sample.AWD"]),
        ("S09", "shift", ["peer_test_files/pyactigraphy/test_sample.mtn"]),
        ("S10", "shift", ["Data/phone-1hz-alex.csv"]),
        ("S11", "shift", ["Data/sleepsta-app-export.json"]),
    ]

    static func build(_ w: Workspace) throws {
        let fm = FileManager.default
        for p in cohort {
            try fm.createDirectory(atPath: w.data + "/" + p.id, withIntermediateDirectories: true)
            for file in p.files {
                let source = file.hasPrefix("Data/") ? repo + "/" + file : try #require(ExternalData.url(file)).path
                try fm.copyItem(atPath: source, toPath: w.data + "/" + p.id + "/" + (file as NSString).lastPathComponent)
            }
        }
        w.write("participants.csv", "id,group,path\n" + cohort.map { "\($0.id),\($0.group),\($0.id)" }.joined(separator: "\n") + "\n")
        w.write("consent.pdf", "%PDF-1.4 not data")
        // A superseded export kept in the folder: left out by the study file's glob.
        try fm.createDirectory(atPath: w.data + "/superseded", withIntermediateDirectories: true)
        try fm.copyItem(atPath: repo + "/Data/phone-1hz-alex.csv", toPath: w.data + "/superseded/S10-first-export.csv")
        w.write("sleepsta.toml", """
            title = "Shift work pilot"
            tz = "Europe/Berlin"
            participants = "participants.csv"
            ignore = ["*.pdf", "superseded"]

            """)
    }

    static func sleepsta(_ arguments: [String], in w: Workspace) throws -> ChildProcess.Outcome {
        try ChildProcess.sleepsta(arguments, in: w.root, outputPrefix: w.root + "/cli-\(UUID().uuidString)").wait()
    }

    @Test("run twice and nightly from the study file: exit 0, each side table named once, the protocol written, no failure stored")
    func cohortRuns() throws {
        let w = Workspace()
        try Self.build(w)
        let first = try Self.sleepsta(["run", "-q"], in: w)
        #expect(first.exitCode == 0, "\(first.stdout)\n\(first.stderr)")
        #expect(first.stdout.contains("11 file(s) in Data: 11 ingested, 0 unchanged, 0 failed; 6 skipped as not recordings; 2 ignored (*.pdf, superseded, the study's own files)"), "\(first.stdout)")
        #expect(first.stdout.contains("not a recording: S01/sleep.csv (an ActiLife sleep summary)"))
        let second = try Self.sleepsta(["run", "-q"], in: w)
        #expect(second.exitCode == 0 && second.stdout.contains("0 ingested, 11 unchanged, 0 failed"), "\(second.stdout)\n\(second.stderr)")
        let nightly = try Self.sleepsta(["nightly", "-q"], in: w)
        #expect(nightly.exitCode == 0, "\(nightly.stdout)\n\(nightly.stderr)")
        let protocolText = try String(contentsOfFile: w.reports + "/protocol.toml", encoding: .utf8)
        #expect(protocolText.contains("title = \"Shift work pilot\"  # study file") && protocolText.contains("tz = \"Europe/Berlin\"  # study file"), "\(protocolText)")
        let db = try SleepDatabase(path: w.data + "/sleepsta.sqlite")
        #expect(try db.query("SELECT COUNT(*) AS n FROM recordings")[0]["n"] == "11")
        #expect(try db.query("SELECT COUNT(*) AS n FROM run_failures")[0]["n"] == "0")
        #expect(try db.query("SELECT DISTINCT status FROM runs").map { $0["status"]! } == ["ok"])
        let nights = Int(try db.query("SELECT COUNT(*) AS n FROM nights")[0]["n"] ?? "0") ?? 0
        #expect(nights >= 30, "\(nights) nights")
    }

    /// Table 1 recomputed by pandas from the nights export and the participants table; quality has
    /// a row per recording; flags is a column of the nights export.
    static let pandasCheck = """
        import sys, pandas as pd
        d = sys.argv[1]
        g = pd.read_csv(d + "/groups.csv"); q = pd.read_csv(d + "/quality.csv")
        n = pd.read_csv(d + "/nights.csv"); p = pd.read_csv(d + "/Data/participants.csv")
        assert set(g["group"]) == {"control", "shift"}, set(g["group"])
        assert len(q) == 11 and q["recording"].is_unique, q["recording"].tolist()
        assert "flags" in n.columns and "wear_hours" in q.columns
        n["participant"] = n["recording"].str.split("/").str[0]
        n = n.merge(p[["id", "group"]], left_on="participant", right_on="id")
        scored = n[(n["status"] == "scored") & n["total_sleep_time_min"].notna()]
        # Table 1 has a row per group, metric and method (parameters_key): methods are not pooled.
        for (group, key), rows in scored.groupby(["group", "parameters_key"]):
            r = g[(g["group"] == group) & (g["parameters_key"] == key) & (g["metric"] == "total_sleep_time_min")].iloc[0]
            assert int(r["nights"]) == len(rows), (group, r["nights"], len(rows))
            assert abs(r["nights_mean"] - rows["total_sleep_time_min"].mean()) < 0.01, (group, r["nights_mean"])
            if len(rows) > 1:
                assert abs(r["nights_sd"] - rows["total_sleep_time_min"].std(ddof=1)) < 0.01, (group, r["nights_sd"])
            means = rows.groupby("participant")["total_sleep_time_min"].mean()
            assert int(r["participants"]) == len(means), (group, r["participants"], len(means))
            assert abs(r["participants_mean"] - means.mean()) < 0.01, (group, r["participants_mean"])
        assert scored.groupby(["group", "parameters_key"]).ngroups >= 3
        print("ok", len(scored), g["parameters_key"].nunique())
        """

    @Test("Table 1, quality and the nights' flags load in pandas, and Table 1 is what pandas computes from the nights",
          .enabled(if: Pandas.available, Pandas.skipMessage))
    func studyExportsInPandas() throws {
        let w = Workspace()
        try Self.build(w)
        let run = try Self.sleepsta(["run", "-q"], in: w)
        #expect(run.exitCode == 0, "\(run.stdout)\n\(run.stderr)")
        for what in ["groups", "quality", "nights"] {
            let out = try Self.sleepsta(["export", "--what", what, "--db", "Data/sleepsta.sqlite", "--output", what + ".csv"], in: w)
            #expect(out.exitCode == 0, "\(what): \(out.stderr)")
        }
        let check = try Pandas.run(Self.pandasCheck, arguments: [w.root])
        #expect(check.status == 0 && check.output.hasPrefix("ok"), "\(check.output)")
        // The index shows the export's tables: one per method, never one pooling them.
        let keys = Int(check.output.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
        let index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(index.components(separatedBy: "<h3 id=\"table-1-").count - 1 == keys, "\(keys) parameter sets in groups.csv")
        for kind in ["phone-in-bed: ", "wearable-24h: ", "epoch-file: "] { #expect(index.contains(kind), "no Table 1 for \(kind)") }
    }
}
