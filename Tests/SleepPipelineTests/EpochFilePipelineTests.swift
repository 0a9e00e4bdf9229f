import Foundation
import Logging
import Testing
import SleepCore
import SleepIngest
import SleepPipeline
import SleepReport
import SleepStore
import SleepstaWorkloads

/// Epoch files (Actiware, QUT, MMASH, `.agd`, ActiLife CSV) through `run` (issue 13).
@Suite("Epoch files through the pipeline", .serialized)
struct EpochFilePipelineTests {
    /// Copies of every epoch recording in ../shared/external into a workspace.
    static func workspaceWithSharedEpochFiles() throws -> Workspace {
        let w = Workspace()
        let fm = FileManager.default
        let files = ["actiware_rpx/test_sample_rpx_eng.csv", "actiware_rpx/test_sample_rpx_fr.csv",
                     "qut_applewatch_actiwatch/p02_n01_ready.csv", "qut_applewatch_actiwatch/p02_n02_ready.csv",
                     "qut_applewatch_actiwatch/p03_n01_ready.csv", "qut_applewatch_actiwatch/p03_n02_ready.csv",
                     "mmash/user_1/Actigraph.csv", "mmash/user_2/Actigraph.csv",
                     "actigraph_sleepr_actilife/GT3XPlus-RawData-Day01.agd", "actigraph_sleepr_actilife/ActiSleepPlus-RawData-Day01.agd",
                     "actigraph_sleepr_actilife/GT3XPlus-RawData-Day01-Sadeh.csv", "agcounts_link_100hz/example5sec.agd"]
        for f in files {
            let source = try #require(ExternalData.url(f)).path
            let target = w.data + "/" + (f.hasPrefix("mmash/") ? f : (f as NSString).lastPathComponent)
            try fm.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try fm.copyItem(atPath: source, toPath: target)
        }
        return w
    }

    @Test("every epoch recording of ../shared/external: stored, scored nights, index and recording pages", .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func everyEpochFile() throws {
        let w = try Self.workspaceWithSharedEpochFiles()
        let summary = try w.run(tz: nil) { _ in }
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        #expect(summary.filesIngested == 12)
        let db = try SleepDatabase(path: w.db)
        let kinds = try db.query("SELECT DISTINCT kind FROM recordings").map { $0["kind"]! }
        #expect(kinds == ["epoch-file"])
        let perFile = try db.query("""
            SELECT r.path, SUM(a.status = 'scored') AS scored FROM recordings r JOIN nights n ON n.recording_id = r.id
            JOIN analyses a ON a.night_id = n.id GROUP BY r.path ORDER BY r.path
            """)
        for row in perFile where row["path"] != "example5sec.agd" {   // 3 minutes of data: no night to score
            #expect(Int(row["scored"]!)! >= 1, "\(row)")
        }
        let index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(index.contains("test_sample_rpx_eng_2015-07-05/index.html"))
        #expect(index.contains("recordings/test_sample_rpx_eng.csv/index.html"))
        let page = try String(contentsOfFile: w.reports + "/recordings/test_sample_rpx_eng.csv/index.html", encoding: .utf8)
        #expect(page.contains("actogram.png") && page.contains("Interdaily stability"))
        #expect(FileManager.default.fileExists(atPath: w.reports + "/recordings/test_sample_rpx_eng.csv/actogram.png"))
        let night = try String(contentsOfFile: w.reports + "/test_sample_rpx_eng_2015-07-05/index.html", encoding: .utf8)
        #expect(night.contains("../recordings/test_sample_rpx_eng.csv/index.html") && night.contains("Agreement with it"))
        // Actiware's own SLEEP interval beside ours: the same to the second (20:10:30–06:08:30).
        #expect(night.contains("Actiware&#39;s sleep interval") || night.contains("Actiware's sleep interval"))
        #expect(night.contains("the export (SLEEP 2, line") && night.contains("20:10:30–06:08:30") && night.contains("+0.0 min / +0.0 min"))
        // The French export's off-wrist days (zero counts from 10/02 07:38) are not a night of sleep.
        let offWrist = try db.query("""
            SELECT m.total_sleep_time_min AS tst, a.details_json FROM analyses a LEFT JOIN night_metrics m ON m.analysis_id = a.id
            WHERE a.night_id = 'test_sample_rpx_fr_2015-02-10'
            """).first
        let facts = try JSONDecoder().decode(EpochFileNightSummary.self, from: Data(try #require(offWrist?["details_json"]).utf8))
        #expect((facts.nonWearMinutes ?? 0) >= 20 * 60, "\(facts)")
        #expect(Double(offWrist?["tst"] ?? "") ?? 0 < 300, "\(String(describing: offWrist))")
    }

    @Test("QUT: each night's TST from the Actiwatch counts equals the TST of Actiware's own labels within 5 minutes", .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func qutTotalSleepTime() throws {
        let w = try Self.workspaceWithSharedEpochFiles()
        _ = try w.run(tz: nil) { _ in }
        let db = try SleepDatabase(path: w.db)
        let rows = try db.query("""
            SELECT a.night_id, m.total_sleep_time_min AS tst, a.details_json FROM analyses a JOIN night_metrics m ON m.analysis_id = a.id
            WHERE a.night_id LIKE 'p0%' ORDER BY a.night_id
            """)
        #expect(rows.count == 4)
        for row in rows {
            let facts = try JSONDecoder().decode(EpochFileNightSummary.self, from: Data(row["details_json"]!.utf8))
            let ours = Double(row["tst"]!)!, actiware = try #require(facts.fileTotalSleepMinutes)
            print("QUT \(row["night_id"]!): TST \(ours) min from counts (Oakley, Actiware's arithmetic), \(actiware) min from Actiware's labels; κ \(facts.agreementKappa ?? .nan) over \(facts.agreementEpochs ?? 0) epochs")
            #expect(abs(ours - actiware) <= 5)
            #expect((facts.agreementKappa ?? 0) > 0.99)
        }
    }

    @Test("--sleep-algorithm sadeh on ActiLife's Sadeh export: every minute of time in bed as ActiLife labelled it (κ 1); Cole–Kripke by default", .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func actiLifeSadehExport() throws {
        let w = Workspace()
        try FileManager.default.copyItem(atPath: try #require(ExternalData.url("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01-Sadeh.csv")).path,
                                         toPath: w.data + "/sadeh.csv")
        for choice in [nil, SleepAlgorithmChoice.sadeh] {
            let summary = try w.run(tz: nil) { $0.parameters.sleepAlgorithm = choice }
            #expect(summary.failures.isEmpty)
            let algorithm = choice == nil ? "epoch-file-device-defaults" : "epoch-file-device-defaults-sadeh"
            let row = try #require(try SleepDatabase(path: w.db).query(
                "SELECT details_json FROM analyses WHERE status = 'scored' AND algorithm = ?", [algorithm]).first)
            let facts = try JSONDecoder().decode(EpochFileNightSummary.self, from: Data(row["details_json"]!.utf8))
            print("ActiLife Sadeh export, \(choice?.rawValue ?? "default (cole-kripke)"): κ \(facts.agreementKappa ?? .nan), accuracy \(facts.agreementAccuracy ?? .nan) over \(facts.agreementEpochs ?? 0) minutes; \(facts.scorer ?? "")")
            if choice == .sadeh {
                #expect(facts.agreementKappa == 1 && facts.agreementAccuracy == 1 && (facts.agreementEpochs ?? 0) >= 300)
                #expect(facts.scorer?.hasPrefix("Sadeh as ActiLife") == true)
            } else {
                #expect(facts.scorer?.hasPrefix("Cole–Kripke as ActiLife") == true)
            }
        }
    }

    @Test("Actiware rhythm through the database equals pyActigraphy 1.2.2 (IS, IV, RA, L5, M10 and their onsets, SRI)", .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func rhythmEqualsPyActigraphy() throws {
        let w = try Self.workspaceWithSharedEpochFiles()
        _ = try w.run(tz: nil) { _ in }
        let db = try SleepDatabase(path: w.db)
        // pyActigraphy 1.2.2 defaults (binarize, threshold 4, 1 h), from Tests/SleepCoreTests/Fixtures/rest-activity.
        let reference: [String: (IS: Double, IV: Double, RA: Double, L5: Double, L5start: String, M10: Double, M10start: String, SRI: Double)] = [
            "test_sample_rpx_eng.csv": (0.800314344855609, 0.32964759472034283, 0.8112731029732522, 0.09785714285714285, "01:07",
                                        0.9391666666666667, "07:28:30", 59.43287037037038),
        ]
        let stored = try db.recordingsWithRhythm()
        for (path, ref) in reference {
            let item = try #require(stored.first { $0.recording.path == path })
            let m = try #require(item.rhythm?.metrics)
            func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) <= 1e-9 * max(1, abs(b)) } ?? false }
            #expect(close(m.interdailyStability, ref.IS) && close(m.intradailyVariability, ref.IV) && close(m.relativeAmplitude, ref.RA))
            #expect(close(m.l5, ref.L5) && close(m.m10, ref.M10))
            #expect(item.l5Start == ref.L5start && item.m10Start == ref.M10start)
            #expect(close(item.rhythm?.sleepRegularityIndex, ref.SRI))
        }
        let short = try #require(stored.first { $0.recording.path == "p02_n01_ready.csv" })
        #expect(short.rhythm?.status == .tooShort && short.rhythm?.statusReason?.contains("3 days") == true)
        // The same numbers through `export --what recordings` (tidy: one row per measure).
        let csv = w.root + "/recordings.csv"
        let rows = try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .recordings, outputPath: csv)).run()
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == ExportTable.recordings.columns.joined(separator: ","))
        #expect(rows == lines.count - 1)
        let isLine = try #require(lines.first { $0.hasPrefix("test_sample_rpx_eng.csv,") && $0.contains(",interdaily_stability,") })
        #expect(isLine.contains(",0.8003143448"), "\(isLine)")
        #expect(lines.contains { $0.hasPrefix("test_sample_rpx_eng.csv,") && $0.contains(",total_sleep_time_min,WE,") })
        #expect(lines.contains { $0.hasPrefix("test_sample_rpx_eng.csv,") && $0.contains(",m10_start,recording,07:28:30,") })
    }

    @Test("MMASH: TST, sleep onset and WASO against ActiLife's sleep.csv, without and with a diary from Activity.csv", .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func mmashAgainstActiLife() throws {
        let w = try Self.workspaceWithSharedEpochFiles()
        // A diary from Activity.csv: in bed = start of the first "sleeping" row (code 1) of day 2's
        // night, out of bed = start of the first later row that is neither sleeping (1) nor 0.
        var diary = ["id,night,in_bed,out_of_bed"]
        for user in ["user_1", "user_2"] {
            let text = try #require(try ExternalData.text("mmash/\(user)/Activity.csv"))
            let rows = text.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            guard let first = rows.firstIndex(where: { $0[1] == "1" }) else { continue }
            let rise = rows[(first + 1)...].first { $0[1] != "1" && $0[1] != "0" }
            diary.append("\(user),1970-01-01,\(rows[first][2]),\(rise?[2] ?? "08:00")")
        }
        let diaryPath = w.root + "/diary.csv"
        try diary.joined(separator: "\n").write(toFile: diaryPath, atomically: true, encoding: .utf8)
        var table: [String] = []
        var within30 = [false: 0, true: 0]
        for withDiary in [false, true] {
            try? FileManager.default.removeItem(atPath: w.db)
            _ = try w.run(tz: nil) { c in if withDiary { c.diary = try? SleepDiary.read(path: diaryPath) } }
            let db = try SleepDatabase(path: w.db)
            for user in ["user_1", "user_2"] {
                let reference = try #require(try ExternalData.text("mmash/\(user)/sleep.csv")).split(whereSeparator: \.isNewline)[1].split(separator: ",").map(String.init)
                let refTST = Double(reference[10])!, refWASO = Double(reference[11])!, refOnset = reference[6]
                let row = try #require(try db.query("""
                    SELECT m.total_sleep_time_min AS tst, m.waso_min AS waso, m.sleep_onset_utc AS onset, a.details_json,
                        m.no_data_in_sleep_period_min AS nodata
                    FROM analyses a JOIN night_metrics m ON m.analysis_id = a.id WHERE a.night_id = 'mmash_\(user)_Actigraph_1970-01-01'
                    """).first)
                let tst = Double(row["tst"]!)!, waso = Double(row["waso"]!)!, noData = Double(row["nodata"]!)!
                let onset = LocalClock.hhmm(localSecond: Int64(row["onset"]!)!)
                let guider = try JSONDecoder().decode(EpochFileNightSummary.self, from: Data(row["details_json"]!.utf8)).guider ?? ""
                table.append("MMASH \(user) \(withDiary ? "with diary   " : "without diary"): TST \(tst) (ActiLife \(refTST), Δ \(tst - refTST)), onset \(onset) (ActiLife \(refOnset)), WASO \(waso) (ActiLife \(refWASO)), no data in the sleep period \(noData) min; time in bed from \(guider)")
                // MMASH's CSV lacks rows ActiLife had (user 2: 04:00–05:00 of the night): those
                // minutes are no data here, neither sleep nor wake; ActiLife scored them.
                if abs(tst - refTST) <= 30 { within30[withDiary, default: 0] += 1 }
                if withDiary && user == "user_2" {
                    // ActiLife's TST lies between ours and ours + the minutes the file lacks.
                    #expect(refTST >= tst && refTST <= tst + noData, "\(table.last!)")
                }
            }
        }
        table.forEach { print($0) }
        // Without a diary (ActiLife's own Tudor-Locke guider): user 1 within 30 minutes of
        // ActiLife's TST. User 2's file lacks 104 minutes of the night (all of 04:00–05:00), which
        // ActiLife had: no Tudor-Locke period reaches 160 min, the movement detector stops at the
        // gap; with the diary's time in bed, ActiLife's TST lies between ours and ours plus the
        // missing minutes (asserted above). User 1's diary starts 3.5 h before ActiLife's in-bed
        // time: the participant's account and ActiLife's guess differ, printed, not asserted.
        #expect(within30[false, default: 0] >= 1, "\(table)")
    }

    @Test("QUT Apple Watch ENMO scored by the phones' relative rule against Actiware's labels: κ per night and pooled", .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func qutEnmoAgreement() throws {
        var pooled = ConfusionMatrix(classCount: 2)
        for night in ["p02_n01", "p02_n02", "p03_n01", "p03_n02"] {
            let path = try #require(ExternalData.url("qut_applewatch_actiwatch/\(night)_ready.csv")).path
            let file = try QUTEpochCSVReader().read(path: path, options: IngestOptions())
            let series = RecordingRead.milestone(file)
            let method = EpochFileNightMethod(column: "enmo")
            let window = NightWindow(date: CivilDate(year: 1999, month: 12, day: 31), startUTC: series.startUTC - 3600, endUTC: series.endUTC + 3600)
            let data = NightData(window: window, timeline: file.timeline, series: .empty(startSecond: series.startUTC), epochFile: series)
            let a = method.analyze(data, parameters: AnalysisParameters())
            let e = try #require(a.epochFile)
            // Pool the epochs: our 60-s labels spread over the file's 15-s epochs.
            let states = try #require(method.recordingStates(series))
            let labels = try #require(series.fileLabels)
            var m = ConfusionMatrix(classCount: 2)
            for i in 0..<series.count { if let r = labels[i], let o = states[i] { m.add(reference: r == .sleep ? 0 : 1, test: o == .sleep ? 0 : 1) } }
            pooled.add(m)
            print("QUT ENMO \(night): accuracy \(String(format: "%.3f", m.accuracy ?? .nan)), κ \(String(format: "%.3f", m.cohenKappa ?? .nan)) over \(m.total) epochs (in bed: κ \(String(format: "%.3f", e.agreementKappa ?? .nan)))")
        }
        print("QUT ENMO pooled: accuracy \(String(format: "%.3f", pooled.accuracy ?? .nan)), κ \(String(format: "%.3f", pooled.cohenKappa ?? .nan)) over \(pooled.total) epochs")
        #expect(pooled.total > 6000)
        // Measured: pooled κ 0.744 with the phones' default factor (4), fixed in advance (issue 13's goal: 0.75).
        #expect((pooled.cohenKappa ?? 0) > 0.7)
    }

    @Test("A 3-day wrist recording gets its rhythm (ENMO per minute) and an actogram on its recording page")
    func wearableRhythm() throws {
        let w = Workspace()
        try WearableCSVGenerator(days: 3).write(to: w.data + "/wrist-3d.csv")
        let summary = try w.run { _ in }
        #expect(summary.failures.isEmpty)
        let db = try SleepDatabase(path: w.db)
        let item = try #require(try db.recordingsWithRhythm().first)
        #expect(item.recording.kind == .wearable24h)
        let rhythm = try #require(item.rhythm)
        print("WEARABLE RHYTHM: \(rhythm.status) \(rhythm.days) days, IS \(rhythm.metrics?.interdailyStability ?? .nan), IV \(rhythm.metrics?.intradailyVariability ?? .nan), RA \(rhythm.metrics?.relativeAmplitude ?? .nan), L5 from \(item.l5Start ?? "-"), M10 from \(item.m10Start ?? "-"), SRI \(rhythm.sleepRegularityIndex ?? .nan)")
        if rhythm.days >= RecordingRhythm.minimumDays {
            // The scripted days repeat: a strong rhythm, the least active 5 h at night.
            #expect((rhythm.metrics?.interdailyStability ?? 0) > 0.5)
            #expect((rhythm.metrics?.relativeAmplitude ?? 0) > 0.5)
            let l5 = RecordingRhythm.seconds(clockText: item.l5Start) ?? -1
            #expect(l5 >= 21 * 3600 || l5 <= 5 * 3600, "L5 from \(item.l5Start ?? "-")")
        } else {
            #expect(rhythm.status == .tooShort)
        }
        // The table afternoon (GGIR non-wear) is marked not worn for the actogram, a few hours of minutes.
        let notWorn = rhythm.nonWear?.filter { $0 }.count ?? 0
        #expect(notWorn >= 120 && notWorn <= 240, "\(notWorn) minutes not worn")
        #expect(FileManager.default.fileExists(atPath: w.reports + "/recordings/wrist-3d.csv/actogram.png"))
    }

    @Test("Actiware's floating-point tie rule: exact 40 that sums to 40.00000000000001 is wake; integer arithmetic keeps the tie (sleep)")
    func actiwareTieRule() {
        let counts: [Double] = [0, 0, 0, 0, 5, 0, 36, 1, 90, 0, 0]   // epoch 6: 0.04·5 + 0.2·0 + 36 + 0.2·1 + 0.04·90 = 40 exactly
        let actiware = Oakley.score(countsPerEpoch: counts, epochSeconds: 60, threshold: .medium, variant: .actiware)
        let exact = Oakley.score(countsPerEpoch: counts, epochSeconds: 60, threshold: .medium, variant: .zeroPadded)
        #expect(actiware[6] == .wake)
        #expect(exact[6] == .sleep)
    }

    @Test("Sleep diary: rows that cannot be used are named by row, the others guide time in bed")
    func diaryRows() throws {
        let text = """
            id,night,in_bed,out_of_bed,type
            night1,2024-03-30,23:00,07:00,sleep
            night1,2024-03-30,23:30,07:00,sleep
            night1,2024-03-31,25:00,07:00,
            night1,2024-04-01,23:00,22:00,
            night1,2024-04-01,14:00,14:40,nap
            ghost,2024-03-30,23:00,07:00,
            """
        let diary = try SleepDiary.parse(text, path: "diary.csv")
        #expect(diary.entries.count == 3)
        #expect(diary.problems.count == 3)
        #expect(diary.problems.contains { $0.contains("row 3") && $0.contains("second sleep row") })
        #expect(diary.problems.contains { $0.contains("row 4") && $0.contains("'25:00'") })
        #expect(diary.problems.contains { $0.contains("row 5") })
        #expect(diary.unmatchedRows(recordingPaths: ["phones/night1.csv"]).map(\.row) == [7])
        let window = NightWindow(date: CivilDate(year: 2024, month: 3, day: 30), startUTC: 1_711_796_400, endUTC: 1_711_879_200)
        let guide = try #require(diary.guide(recordingPath: "phones/night1.csv", night: window, timeline: .fixed(3600)))
        #expect(guide.startUTC == 1_711_836_000 && guide.endUTC == 1_711_864_800)   // 23:00 and 07:00 at UTC+1
        #expect(guide.source.contains("row 2"))
        #expect(throws: IngestError.self) { try SleepDiary.parse("a,b\n1,2", path: "bad.csv") }
    }

    @Test("A synthetic Actiwatch export through run: diary-guided time in bed, epoch-file kind, night metrics averaged per recording")
    func syntheticActiwatchWithDiary() throws {
        let w = Workspace()
        // 4 days of 60-s QUT-format epochs: active days (counts 200), still nights 23:00–07:00 (counts 0–3).
        var lines = ["timestamp,Actiwatch activity counts,Actiware classification,Apple Watch ENMO"]
        var t = Int64(1_717_243_200)   // 2024-06-01 12:00 UTC
        for _ in 0..<(4 * 1440) {
            let hour = Int((t % 86_400) / 3600)
            let night = hour >= 23 || hour < 7
            let counts = night ? (t % 7 == 0 ? 3 : 0) : 200
            let d = CivilDate(daysSinceEpoch: t / 86_400), sec = Int(t % 86_400)
            let stamp = String(format: "%02d/%02d/%04d %02d:%02d:%02d", d.day, d.month, d.year, sec / 3600, sec / 60 % 60, sec % 60)
            lines.append("\(stamp),\(counts),\(night ? 0 : 1),0.01")
            t += 60
        }
        w.write("watch.csv", lines.joined(separator: "\n") + "\n")
        let diaryPath = w.root + "/diary.csv"
        try "id,night,in_bed,out_of_bed\nwatch,2024-06-02,22:30,07:30\n".write(toFile: diaryPath, atomically: true, encoding: .utf8)
        let summary = try w.run(tz: "UTC") { c in c.diary = try? SleepDiary.read(path: diaryPath) }
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        let db = try SleepDatabase(path: w.db)
        let rows = try db.query("""
            SELECT a.night_id, a.status, m.in_bed_start_utc AS a, m.in_bed_end_utc AS b, m.total_sleep_time_min AS tst, a.details_json
            FROM analyses a JOIN night_metrics m ON m.analysis_id = a.id ORDER BY a.night_id
            """)
        #expect(rows.count == 4)
        let guided = try #require(rows.first { $0["night_id"]!.hasSuffix("2024-06-02") })
        #expect(Int64(guided["a"]!)! == 1_717_367_400 && Int64(guided["b"]!)! == 1_717_399_800)   // 22:30 – 07:30 UTC
        #expect(guided["details_json"]!.contains("sleep diary"))
        for row in rows { #expect(abs(Double(row["tst"]!)! - 480) <= 15, "\(row)") }
        let page = try String(contentsOfFile: w.reports + "/recordings/watch.csv/index.html", encoding: .utf8)
        #expect(page.contains("Total sleep time (min)") && page.contains("(n=4)"))
        // The night page's method sentence is the branch that ran for Actiwatch counts, not all three.
        let nightPage = try String(contentsOfFile: w.reports + "/watch_2024-06-02/index.html", encoding: .utf8)
        #expect(nightPage.contains("Actiwatch-compatible counts scored by Oakley") && nightPage.contains("immobile-minutes sleep interval"))
        #expect(!nightPage.contains("Cole–Kripke") && !nightPage.contains("phones&#39; rule") && !nightPage.contains("phones' rule"), "no other family's words")
        // The diary is part of the analysis key: without it, the nights are analysed again.
        _ = try w.run(tz: "UTC") { _ in }
        #expect(try db.query("SELECT COUNT(DISTINCT parameters_key) AS n FROM analyses").first?["n"] == "2")
    }

    @Test("A 24-h epoch file's first morning and last afternoon are fragments of a day: insufficient data, listed apart, not nights")
    func dayFragments() throws {
        let w = Workspace()
        // 60-s QUT-format epochs from 09:00 on 2024-06-01 to 15:00 on 2024-06-03 (UTC): two whole
        // nights (still 23:00–07:00) between a 3-h morning and a 3-h afternoon.
        var lines = ["timestamp,Actiwatch activity counts,Actiware classification,Apple Watch ENMO"]
        var t = Int64(1_717_232_400)   // 2024-06-01 09:00 UTC
        while t < 1_717_426_800 {      // 2024-06-03 15:00 UTC
            let hour = Int((t % 86_400) / 3600)
            let night = hour >= 23 || hour < 7
            let d = CivilDate(daysSinceEpoch: t / 86_400), sec = Int(t % 86_400)
            let stamp = String(format: "%02d/%02d/%04d %02d:%02d:%02d", d.day, d.month, d.year, sec / 3600, sec / 60 % 60, sec % 60)
            lines.append("\(stamp),\(night ? (t % 7 == 0 ? 3 : 0) : 200 + Int(t % 50)),\(night ? 0 : 1),0.01")
            t += 60
        }
        w.write("watch.csv", lines.joined(separator: "\n") + "\n")
        let summary = try w.run(tz: "UTC") { _ in }
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        let db = try SleepDatabase(path: w.db)
        let rows = Dictionary(uniqueKeysWithValues: try db.query("SELECT night_id, status, notes_json FROM analyses").map {
            ($0["night_id"]!, ($0["status"]!, StoredNotes.text($0["notes_json"])))
        })
        #expect(rows["watch_2024-05-31"]?.0 == "insufficient-data" && rows["watch_2024-05-31"]?.1.contains("a fragment of a day") == true,
                "\(String(describing: rows["watch_2024-05-31"]))")
        #expect(rows["watch_2024-06-03"]?.0 == "insufficient-data" && rows["watch_2024-06-03"]?.1.contains("none of it in 00:00–06:00") == true,
                "\(String(describing: rows["watch_2024-06-03"]))")
        #expect(rows["watch_2024-06-01"]?.0 == "scored" && rows["watch_2024-06-02"]?.0 == "scored", "\(rows)")
        // The index lists the fragments apart, with the reason; the overview shows the two nights.
        let index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        let apart = try #require(index.range(of: "Nights with too little data"), "the index has no list of nights apart")
        #expect(index[apart.lowerBound...].contains("watch_2024-05-31") && index[apart.lowerBound...].contains("a fragment of a day"))
        #expect(FileManager.default.fileExists(atPath: w.reports + "/overview.png") && !FileManager.default.fileExists(atPath: w.reports + "/overview-2.png"))
        #expect(FileManager.default.fileExists(atPath: w.reports + "/participants/watch.csv/overview.png"))
    }

}

@Suite("Recording page folders")
struct RecordingFolderTests {
    @Test("recordings with the same stem or the same made-safe path get folders of their own")
    func distinctFolders() {
        let paths = ["p.csv", "p.json", "a/b.csv", "a_b.csv", "sub/p.csv", "é.csv", ".hidden.csv"]
        let folders = paths.map(ReportBuilder.recordingFolder)
        #expect(Set(folders).count == paths.count, "\(folders)")
        #expect(ReportBuilder.recordingFolder("p.csv") == "recordings/p.csv")
        #expect(folders.allSatisfy { $0.hasPrefix("recordings/") && !$0.dropFirst("recordings/".count).contains("/") })
    }
}
