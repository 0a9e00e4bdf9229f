import Foundation
import Testing
import SleepCore
import SleepIngest
import SleepPipeline
import SleepStore

/// The device software's own night numbers from epoch files: Actiware's sleep intervals and
/// statistics, ActiLife's Tudor-Locke periods the same in `run` and `periods`, and the invariant
/// that a night's TST and WASO are the sleep and wake epochs of its reported sleep period.
@Suite("Device software night rules", .serialized)
struct DeviceNightRuleTests {
    static let enabled = ExternalData.available
    static let skip = Comment(rawValue: ExternalData.skipMessage)

    /// Actiware's sleep interval, computed from the export's epochs, its REST intervals and its
    /// settings, for every SLEEP interval its statistics section lists.
    static func reproduce(_ relativePath: String) throws -> [(stated: ActiwareStatedInterval, ours: Range<Int>, statistics: ActiwareIntervalStatistics, epoch: Int)] {
        let path = try #require(ExternalData.url(relativePath)).path
        let file = try ActiwareCSVReader().read(path: path, options: IngestOptions())
        let analysis = try #require(file.actiware)
        let counts = try #require(file.column(named: "activity")).values
        let E = file.epochSeconds
        let states = Oakley.score(countsPerEpoch: counts, epochSeconds: E, threshold: .counts(analysis.settings.wakeThreshold), variant: .actiware)
        let mobile = ActiwareIntervals.mobile(counts: counts, epochSeconds: E)
        func index(_ utc: Int64) -> Int { Int((utc - file.firstEpochStartUTC) / Int64(E)) }
        var out: [(stated: ActiwareStatedInterval, ours: Range<Int>, statistics: ActiwareIntervalStatistics, epoch: Int)] = []
        for rest in analysis.intervals where rest.kind == .rest {
            let restRange = index(rest.startUTC)..<index(rest.endUTC)
            let stated = try #require(analysis.intervals.first { $0.kind == .sleep && $0.number == rest.number }, "SLEEP \(rest.number)")
            let ours = try #require(ActiwareIntervals.sleepInterval(mobile: mobile, rest: restRange, epochSeconds: E, settings: analysis.settings))
            out.append((stated, ours, ActiwareIntervals.statistics(states: states, mobile: mobile, rest: restRange, sleep: ours, epochSeconds: E), E))
        }
        return out
    }

    @Test("Actiware English export (30 s): all 7 SLEEP intervals to the epoch; sleep time, wake time and efficiency as Actiware prints them", .enabled(if: enabled, skip))
    func actiwareEnglish() throws {
        let path = try #require(ExternalData.url("actiware_rpx/test_sample_rpx_eng.csv")).path
        let file = try ActiwareCSVReader().read(path: path, options: IngestOptions())
        let settings = try #require(file.actiware?.settings)
        #expect(settings == ActiwareSettings(sleepOnsetMinutes: 10, sleepEndMinutes: 10, wakeThreshold: 40, detectionAlgorithm: "By minutes scored as immobile"))
        let rows = try Self.reproduce("actiware_rpx/test_sample_rpx_eng.csv")
        #expect(rows.count == 7)
        var matched = 0
        for r in rows {
            let start = file.startUTC(ofEpoch: r.ours.lowerBound), end = file.startUTC(ofEpoch: r.ours.upperBound)
            let s = try #require(r.stated.statistics)
            print("Actiware SLEEP \(r.stated.number): onset \(start - r.stated.startUTC) s, end \(end - r.stated.endUTC) s; sleep \(r.statistics.sleepMinutes) vs \(s.sleepMinutes), wake \(r.statistics.wakeMinutes) vs \(s.wakeMinutes), efficiency \(r.statistics.efficiencyPercent ?? .nan) vs \(s.efficiencyPercent ?? .nan)")
            #expect(abs(start - r.stated.startUTC) <= Int64(r.epoch) && abs(end - r.stated.endUTC) <= Int64(r.epoch))
            #expect(abs(r.statistics.sleepMinutes - s.sleepMinutes) <= 1 && abs(r.statistics.wakeMinutes - s.wakeMinutes) <= 1)
            #expect(abs((r.statistics.efficiencyPercent ?? 0) - (s.efficiencyPercent ?? 100)) <= 0.5)
            if start == r.stated.startUTC && end == r.stated.endUTC && r.statistics.sleepMinutes == s.sleepMinutes
                && abs((r.statistics.efficiencyPercent ?? 0) - (s.efficiencyPercent ?? 0)) < 0.005 { matched += 1 }
        }
        ReferenceReport.record("Actiware English SLEEP intervals (exact: onset, end, sleep, wake, efficiency to 0.01 %)", matched: matched, total: rows.count)
        #expect(matched == 7)
    }

    @Test("Actiware French export (60 s): all 6 SOMMEIL intervals to the epoch; immobile = the export's own Mobilité column in every epoch", .enabled(if: enabled, skip))
    func actiwareFrench() throws {
        let rows = try Self.reproduce("actiware_rpx/test_sample_rpx_fr.csv")
        #expect(rows.count == 6)
        let path = try #require(ExternalData.url("actiware_rpx/test_sample_rpx_fr.csv")).path
        let file = try ActiwareCSVReader().read(path: path, options: IngestOptions())
        var exact = 0
        for r in rows {
            let start = file.startUTC(ofEpoch: r.ours.lowerBound), end = file.startUTC(ofEpoch: r.ours.upperBound)
            #expect(start == r.stated.startUTC && end == r.stated.endUTC, "SOMMEIL \(r.stated.number)")
            if start == r.stated.startUTC && end == r.stated.endUTC { exact += 1 }
        }
        ReferenceReport.record("Actiware French SOMMEIL intervals (onset and end exact)", matched: exact, total: rows.count)
        let counts = try #require(file.column(named: "activity")).values
        let stated = try #require(file.column(named: "mobility")).values
        let ours = ActiwareIntervals.mobile(counts: counts, epochSeconds: file.epochSeconds)
        var compared = 0, agree = 0
        for i in counts.indices where !stated[i].isNaN {
            guard let m = ours[i] else { continue }
            compared += 1
            if m == (stated[i] == 1) { agree += 1 }
        }
        ReferenceReport.record("Actiware French mobility (immobile < 4 counts/min)", matched: agree, total: compared)
        #expect(compared > 11_000 && agree == compared)
    }

    @Test("Actiware Dutch export (GGIRread's test file): settings and every RUST/SLAAP row with its statistics read (its epochs are cut short, so the intervals cannot be recomputed)", .enabled(if: enabled, skip))
    func actiwareDutchStatistics() throws {
        let path = try #require(ExternalData.url("peer_test_files/ggirread/Actiwatch.csv")).path
        let file = try ActiwareCSVReader().read(path: path, options: IngestOptions())
        let analysis = try #require(file.actiware)
        #expect(analysis.settings.sleepOnsetMinutes == 10 && analysis.settings.sleepEndMinutes == 10 && analysis.settings.wakeThreshold == 40)
        #expect(analysis.settings.statesImmobileMinutes)
        #expect(analysis.intervals.filter { $0.kind == .rest }.count == 6 && analysis.intervals.filter { $0.kind == .sleep }.count == 6)
        let first = try #require(analysis.intervals.first { $0.kind == .sleep && $0.number == 1 })
        #expect(first.endUTC - first.startUTC == Int64(665.5 * 60))
        #expect(first.statistics == ActiwareIntervalStatistics(durationMinutes: 665.5, sleepMinutes: 613, wakeMinutes: 52.5, invalidMinutes: 0,
                                                               efficiencyPercent: 89.72, wakeBouts: 58))
    }

    @Test("Actiware's rule: the onset section may hold one mobile epoch, not two; the end is the last epoch of the last section; none when rest is too short")
    func actiwareRuleUnits() {
        // 60-s epochs, 3-min settings: mobile (≥ 4 counts) at 2 and 5, and 9, 10.
        let counts: [Double] = [9, 9, 0, 0, 5, 0, 0, 0, 0, 9, 9, 0]
        let mobile = ActiwareIntervals.mobile(counts: counts, epochSeconds: 60)
        #expect(mobile[3] == false && mobile[4] == true && mobile[0] == true)
        let s = ActiwareSettings(sleepOnsetMinutes: 3, sleepEndMinutes: 3)
        // First section of 3 with ≤ 1 mobile: [1, 4) has 1 mobile (index 1) → start 1.
        // Last section of 3 ending inside rest [0, 12): [9, 12) holds 2 mobile; [8, 11) holds 2; [7, 10) holds 1 → ends at 10, interval end = 9.
        #expect(ActiwareIntervals.sleepInterval(mobile: mobile, rest: 0..<12, epochSeconds: 60, settings: s) == 1..<9)
        #expect(ActiwareIntervals.sleepInterval(mobile: mobile, rest: 0..<2, epochSeconds: 60, settings: s) == nil)
        // 30-s epochs: 2 counts per epoch is 4 per minute: mobile.
        #expect(ActiwareIntervals.mobile(counts: [1, 2, .nan], epochSeconds: 30) == [false, true, nil])
    }

    @Test("every night of every epoch file in ../shared/external: TST and WASO are the sleep and wake epochs between its sleep onset and wake time", .enabled(if: enabled, skip))
    func totalSleepTimeInvariant() throws {
        let w = try EpochFilePipelineTests.workspaceWithSharedEpochFiles()
        for f in ["mmash/user_15/Actigraph.csv", "mmash/user_16/Actigraph.csv", "mmash/user_17/Actigraph.csv", "mmash/user_18/Actigraph.csv",
                  "mmash/user_20/Actigraph.csv", "mmash/user_21/Actigraph.csv", "mmash/user_22/Actigraph.csv",
                  "actigraph_sleepr_actilife/GT3XPlus-RawData-Day01.csv", "actigraph_sleepr_actilife/ActiSleepPlus-RawData-Day01.csv",
                  "peer_test_files/pyactigraphy/test_sample.AWD", "peer_test_files/pyactigraphy/test_sample.agd"] {
            guard let source = ExternalData.url(f)?.path, FileManager.default.fileExists(atPath: source) else { continue }
            let target = w.data + "/" + f.replacingOccurrences(of: "/", with: "_")
            try FileManager.default.copyItem(atPath: source, toPath: target)
        }
        _ = try w.run(tz: nil) { _ in }
        let db = try SleepDatabase(path: w.db)
        let rows = try db.query("""
            SELECT a.id, a.night_id, m.sleep_onset_utc, m.wake_time_utc, m.total_sleep_time_min, m.waso_min, m.resolution_seconds
            FROM analyses a JOIN night_metrics m ON m.analysis_id = a.id WHERE a.status = 'scored'
            """)
        var held = 0
        for row in rows {
            let onset = Int64(row["sleep_onset_utc"]!)!, wake = Int64(row["wake_time_utc"]!)!
            let epochs = try db.epochs(analysisID: Int64(row["id"]!)!)
            var sleep = 0.0, awake = 0.0
            for e in epochs where e.epoch.startUTC >= onset && e.epoch.startUTC < wake {
                if e.epoch.state == .sleep { sleep += Double(e.seconds) / 60 } else if e.epoch.state == .wake { awake += Double(e.seconds) / 60 }
            }
            let tst = Double(row["total_sleep_time_min"]!)!, waso = Double(row["waso_min"]!)!
            #expect(abs(sleep - tst) < 1e-6 && abs(awake - waso) < 1e-6, "\(row["night_id"]!): TST \(tst) vs \(sleep) sleep minutes, WASO \(waso) vs \(awake)")
            if abs(sleep - tst) < 1e-6 && abs(awake - waso) < 1e-6 { held += 1 }
        }
        ReferenceReport.record("epoch-file nights whose TST / WASO are the sleep / wake epochs of their sleep period", matched: held, total: rows.count)
        #expect(rows.count >= 30)
    }

    @Test("run and periods: the same time in bed and TST for every shared ActiLife and MMASH file (Tudor-Locke, minutes without data left out)", .enabled(if: enabled, skip))
    func runAndPeriodsAgree() throws {
        let w = Workspace()
        var files = ["actigraph_sleepr_actilife/GT3XPlus-RawData-Day01.agd", "actigraph_sleepr_actilife/GT3XPlus-RawData-Day01.csv",
                     "actigraph_sleepr_actilife/ActiSleepPlus-RawData-Day01.agd", "actigraph_sleepr_actilife/ActiSleepPlus-RawData-Day01.csv",
                     "actigraph_sleepr_actilife/GT3XPlus-RawData-Day01-10sec60sec.csv"]
        files += [1, 2, 15, 16, 17, 18, 20, 21, 22].map { "mmash/user_\($0)/Actigraph.csv" }
        for f in files {
            let target = w.data + "/" + f.replacingOccurrences(of: "/", with: "_")
            try FileManager.default.copyItem(atPath: try #require(ExternalData.url(f)).path, toPath: target)
        }
        _ = try w.run(tz: nil) { _ in }
        let db = try SleepDatabase(path: w.db)
        var compared = 0, agreed = 0
        for f in files {
            let name = f.replacingOccurrences(of: "/", with: "_")
            let nights = try db.query("""
                SELECT m.in_bed_start_utc, m.in_bed_end_utc, m.total_sleep_time_min, a.details_json FROM recordings r
                JOIN nights n ON n.recording_id = r.id JOIN analyses a ON a.night_id = n.id JOIN night_metrics m ON m.analysis_id = a.id
                WHERE r.path = ? AND a.status = 'scored'
                """, [name])
            let result = try SleepPeriodsRun.run(SleepPeriodsRequest(path: w.data + "/" + name, sleepAlgorithm: .coleKripke))
            let periods = result.periods, grid = result.scored.recording
            for night in nights {
                let facts = try JSONDecoder().decode(EpochFileNightSummary.self, from: Data(night["details_json"]!.utf8))
                guard facts.guider?.hasPrefix("ActiLife's Tudor-Locke") == true else { continue }
                compared += 1
                let inBed = Int64(night["in_bed_start_utc"]!)!, outBed = Int64(night["in_bed_end_utc"]!)!
                let match = periods.first { grid.startUTC(ofEpoch: $0.inBedEpoch) == inBed }
                let same = match.map { grid.startUTC(ofEpoch: $0.outBedEpoch) == outBed
                    && $0.totalSleepTimeMinutes == Double(night["total_sleep_time_min"]!)! } ?? false
                #expect(same, "\(name): run \(inBed)–\(outBed) TST \(night["total_sleep_time_min"]!), periods \(periods.map { "\($0.inBedEpoch)–\($0.outBedEpoch) \($0.totalSleepTimeMinutes)" })")
                if same { agreed += 1 }
            }
        }
        ReferenceReport.record("ActiLife/MMASH nights: run's time in bed and TST = periods'", matched: agreed, total: compared)
        #expect(compared >= 12)
    }
}
