import Foundation
import Testing
import SleepCore
import SleepIngest
import SleepPipeline
import SleepReport

/// The library behind `sleepsta score`, `periods` and `counts`, run on the reference files and
/// compared through the CSV each command prints (so the column contract is tested too).
@Suite("Epoch commands: score, periods, counts")
struct EpochCommandTests {
    static let external = Comment(rawValue: ExternalData.skipMessage)

    static func path(_ relative: String) throws -> String { try #require(ExternalData.url(relative)).path }

    /// Our CSV output as rows of named fields.
    static func table(_ lines: [String]) -> [[String: String]] {
        let rows = TestCSV.rows(lines.joined())
        guard let header = rows.first else { return [] }
        return rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// `6/27/2012` + `10:54 AM` (ActiLife's export) as `2012-06-27T10:54:00`, parsed here
    /// independently of the readers.
    static func actiLifeTime(_ date: String, _ time: String) -> String {
        let d = date.split(separator: "/").map { Int($0)! }
        let parts = time.split(separator: " ")
        let hm = parts[0].split(separator: ":").map { Int($0)! }
        var hour = hm[0] % 12
        if parts.count > 1 && parts[1] == "PM" { hour += 12 }
        return String(format: "%04d-%02d-%02dT%02d:%02d:00", d[2], d[0], d[1], hour, hm[1])
    }

    // MARK: score vs ActiLife and Actiware

    @Test("score sadeh / cole-kripke on the GT3X+ .agd (10 s collapsed to 60 s) = ActiLife 6's labels",
          .enabled(if: ExternalData.available, external))
    func scoreMatchesActiLife() throws {
        let agd = try Self.path("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01.agd")
        for (algorithm, export) in [(ScoringAlgorithm.sadeh, "Sadeh"), (.coleKripke, "ColeKripke")] {
            let result = try EpochScoring.run(ScoreRequest(path: agd, algorithm: algorithm, epochSeconds: 60))
            #expect(result.recording.epochSeconds == 60)
            #expect(result.header == ["start", "activity", "score", "state"])
            let ours = Self.table(result.csvLines())
            let reference = TestCSV.rows(try #require(try ExternalData.text("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01-\(export).csv")))
            let title = reference[0]
            let date = title.firstIndex(of: "Date")!, time = title.firstIndex(of: "Time")!
            let axis1 = title.firstIndex(of: "Axis1")!, label = title.firstIndex(of: "Sleep or Awake?")!
            let rows = Array(reference.dropFirst())
            var matched = 0
            for (i, row) in rows.enumerated() where i < ours.count {
                let same = ours[i]["start"] == Self.actiLifeTime(row[date], row[time])
                    && ours[i]["activity"] == row[axis1] && ours[i]["state"] == row[label]
                if same { matched += 1 } else { Issue.record("\(export) minute \(i): ours \(ours[i]), ActiLife \(row)") }
            }
            ReferenceReport.record("sleepsta score --algorithm \(algorithm.rawValue) on GT3X+ .agd (10 s → 60 s) vs ActiLife 6 labels",
                                   matched: matched, total: rows.count, note: "start, axis1 and S/W per minute")
            #expect(ours.count == rows.count)
            #expect(matched == rows.count)
        }
    }

    @Test("--epoch 60s collapses 10-s .agd epochs exactly as ActiLife (every column and minute)",
          .enabled(if: ExternalData.available, external))
    func collapseMatchesActiLife() throws {
        for device in ["GT3XPlus", "ActiSleepPlus"] {
            let agd = try FormatDetector.readEpochs(path: try Self.path("actigraph_sleepr_actilife/\(device)-RawData-Day01.agd"),
                                                    options: IngestOptions())
            let minutes = try agd.collapsed(toEpochSeconds: 60)
            let reference = TestCSV.rows(try #require(try ExternalData.text("actigraph_sleepr_actilife/\(device)-RawData-Day01-10sec60sec.csv")))
            let title = reference[0]
            var matched = 0, total = 0
            for (i, row) in reference.dropFirst().enumerated() {
                total += 1
                let start = LocalClock.isoLocal(localSecond: minutes.firstEpochLocalSecond + Int64(i * 60))
                if i < minutes.count && start + "Z" == row[0] { matched += 1 }
                for (c, name) in title.enumerated().dropFirst() {
                    total += 1
                    if i < minutes.count, let v = minutes.column(named: name)?.values[i], v == Double(row[c]) { matched += 1 }
                }
            }
            ReferenceReport.record("ActiLife 10 s → 60 s collapse of the \(device) .agd (sleepsta --epoch 60s)", matched: matched, total: total,
                                   note: "\(reference.count - 1) minutes × timestamp + \(title.count - 1) columns")
            #expect(minutes.count == reference.count - 1)
            #expect(matched == total)
        }
    }

    @Test("score oakley --threshold 40 on both Actiware exports = Actiware's Sleep/Wake column",
          .enabled(if: ExternalData.available, external))
    func oakleyMatchesActiware() throws {
        for (file, epoch) in [("test_sample_rpx_eng.csv", "30"), ("test_sample_rpx_fr.csv", "60")] {
            let result = try EpochScoring.run(ScoreRequest(path: try Self.path("actiware_rpx/\(file)"), algorithm: .oakley, threshold: "40"))
            #expect(String(result.recording.epochSeconds) == epoch)
            #expect(result.header.last == "file_state")
            let rows = Self.table(result.csvLines())
            let labelled = rows.filter { $0["file_state"] != "" }
            let matched = labelled.filter { $0["state"] == $0["file_state"] }.count
            ReferenceReport.record("sleepsta score --algorithm oakley --threshold 40 on Actiware \(file) (\(epoch) s) vs Actiware",
                                   matched: matched, total: labelled.count, note: "epochs Actiware scored")
            #expect(matched == labelled.count)
            #expect(labelled.count == (epoch == "30" ? 20156 : 11552))
            #expect(rows.first?["start"] == (epoch == "30" ? "2015-07-04T09:45:00+01:00" : "2015-02-04T11:45:00+01:00"))
        }
    }

    @Test("score oakley on QUT 15-s Actiwatch counts = Actiware classification", .enabled(if: ExternalData.available, external))
    func oakleyMatchesQUT() throws {
        var matched = 0, total = 0
        for night in ["p02_n01", "p02_n02", "p03_n01", "p03_n02"] {
            // The QUT files are excerpts of longer recordings: zero padding, not Actiware's unscored start.
            let result = try EpochScoring.run(ScoreRequest(path: try Self.path("qut_applewatch_actiwatch/\(night)_ready.csv"),
                                                           algorithm: .oakley, variant: "zero-padded", threshold: "40"))
            #expect(result.recording.epochSeconds == 15 && result.columnName == "activity")
            let labelled = Self.table(result.csvLines()).filter { $0["file_state"] != "" }
            let m = labelled.filter { $0["state"] == $0["file_state"] }.count
            ReferenceReport.record("sleepsta score --algorithm oakley on QUT \(night) (15 s) vs Actiware classification",
                                   matched: m, total: labelled.count)
            matched += m; total += labelled.count
        }
        #expect(matched == total && total == 1506 + 1670 + 2067 + 1984)
    }

    // MARK: periods vs ActiLife

    /// ActiLife 6 sleep-period exports (Sadeh + Tudor-Locke), the rows quoted in
    /// Tests/SleepCoreTests/SleepPeriodTests.swift from dipetkov/actigraph.sleepr @ f2d82ed5
    /// (`inst/extdata/GT3XPlus-RawData-Day01-sleep-periods.csv`) and @ 4a29afe9
    /// (`ActiSleepPlus-RawData-Day01-sleep-periods.csv`, header renamed to the newer names).
    static let actiLifePeriods: [(device: String, rows: String)] = [
        ("GT3XPlus", """
        Sadeh,Tudor-Locke Default,5,10,160,1440,0,2012-06-28T00:03:00Z,2012-06-28T07:38:00Z,2012-06-28T00:03:00Z,97.14,0,455,442,13,4,3.25,9126,5.934,40,45.934
        Sadeh,Tudor-Locke Custom1,5,5,20,1440,5,2012-06-27T16:15:00Z,2012-06-27T16:46:00Z,2012-06-27T16:15:00Z,100.0,0,31,31,0,0,0.0,346,35.484,0,35.484
        Sadeh,Tudor-Locke Custom1,5,5,20,1440,5,2012-06-27T20:55:00Z,2012-06-27T21:26:00Z,2012-06-27T20:55:00Z,100.0,0,31,31,0,0,0.0,261,25.806,0,25.806
        Sadeh,Tudor-Locke Custom1,5,5,20,1440,5,2012-06-27T21:35:00Z,2012-06-27T22:09:00Z,2012-06-27T21:35:00Z,100.0,0,34,34,0,0,0.0,271,32.353,0,32.353
        Sadeh,Tudor-Locke Custom1,5,5,20,1440,5,2012-06-28T00:03:00Z,2012-06-28T07:25:00Z,2012-06-28T00:03:00Z,99.55,0,442,440,2,2,1.0,2077,4.751,0,4.751
        Sadeh,Tudor-Locke Custom1,5,5,20,1440,5,2012-06-28T09:41:00Z,2012-06-28T10:21:00Z,2012-06-28T09:41:00Z,100.0,0,40,40,0,0,0.0,329,20.0,0,20.0
        Sadeh,Tudor-Locke Custom1,5,5,20,1440,5,2012-06-28T10:30:00Z,2012-06-28T10:53:00Z,2012-06-28T10:30:00Z,91.3,0,23,21,2,1,2.0,483,39.13,0,39.13
        Sadeh,Tudor-Locke Custom2,10,12,60,1440,20,2012-06-27T19:03:00Z,2012-06-27T22:09:00Z,2012-06-27T19:03:00Z,76.88,0,186,143,43,5,8.6,31673,31.72,0,31.72
        Sadeh,Tudor-Locke Custom2,10,12,60,1440,20,2012-06-27T22:56:00Z,2012-06-28T07:38:00Z,2012-06-27T22:56:00Z,91.76,0,522,479,43,11,3.91,27998,9.004,25,34.004
        Sadeh,Tudor-Locke Custom2,10,12,60,1440,20,2012-06-28T09:41:00Z,2012-06-28T10:53:00Z,2012-06-28T09:41:00Z,84.72,0,72,61,11,2,5.5,10662,33.333,0,33.333
        """),
        ("ActiSleepPlus", """
        Sadeh,Tudor-Locke Default,5,10,160,1440,0,2012-04-05T00:15:00Z,2012-04-05T06:37:00Z,2012-04-05T00:15:00Z,92.93,0,382,355,27,10,2.7,7831,11.257,9.091,20.348
        Sadeh,Tudor-Locke Custom1,5,5,20,1440,5,2012-04-05T00:15:00Z,2012-04-05T01:57:00Z,2012-04-05T00:15:00Z,97.06,0,102,99,3,3,1.0,2121,6.863,0.0,6.863
        Sadeh,Tudor-Locke Custom1,5,5,20,1440,5,2012-04-05T02:04:00Z,2012-04-05T04:09:00Z,2012-04-05T02:04:00Z,95.2,0,125,119,6,3,2.0,2013,9.6,25.0,34.6
        Sadeh,Tudor-Locke Custom1,5,5,20,1440,5,2012-04-05T04:16:00Z,2012-04-05T06:37:00Z,2012-04-05T04:16:00Z,97.16,0,141,137,4,2,2.0,1901,12.766,0.0,12.766
        Sadeh,Tudor-Locke Custom2,10,12,60,1440,20,2012-04-05T00:15:00Z,2012-04-05T06:37:00Z,2012-04-05T00:15:00Z,92.93,0,382,355,27,10,2.7,7831,11.257,9.091,20.348
        """),
    ]
    /// The export's columns after the parameters, and the `periods` column each corresponds to.
    static let exportColumns = ["in_bed_time", "out_bed_time", "onset", "efficiency", "latency", "duration", "total_sleep_time",
                                "wake_after_onset", "nb_awakenings", "ave_awakening", "total_counts", "movement_index",
                                "fragmentation_index", "sleep_fragmentation_index"]

    /// Equal at the precision ActiLife printed.
    static func same(_ ours: String?, _ printed: String) -> Bool {
        if printed.hasSuffix("Z") { return ours == String(printed.dropLast()) }
        guard let ours, let a = Double(ours), let b = Double(printed) else { return false }
        let decimals = printed.split(separator: ".").dropFirst().first?.count ?? 0
        return abs(a - b) <= 0.5 * pow(10, -Double(decimals)) + 1e-9
    }

    @Test("periods --algorithm tudor-locke on the .agd files = ActiLife's sleep periods, every statistic",
          .enabled(if: ExternalData.available, external))
    func periodsMatchActiLife() throws {
        for (device, text) in Self.actiLifePeriods {
            let rows = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            var groups: [[String]: [[String]]] = [:]
            var order: [[String]] = []
            for row in rows {
                let key = Array(row[0..<7])
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(row)
            }
            for key in order {
                let expected = groups[key]!
                let parameters = try SleepPeriodsRun.parameters(
                    bedtimeStart: Int(key[2])!, wakeTimeEnd: Int(key[3])!, minSleepPeriod: Int(key[4])!,
                    maxSleepPeriod: Int(key[5])!, minNonzeroEpochs: Int(key[6])!)
                let result = try SleepPeriodsRun.run(SleepPeriodsRequest(
                    path: try Self.path("actigraph_sleepr_actilife/\(device)-RawData-Day01.agd"), sleepAlgorithm: .sadeh,
                    parameters: parameters))
                let lines = result.csvLines()
                #expect(TestCSV.rows(lines[0])[0] == SleepPeriodsResult.header)
                let ours = Self.table(lines)
                var matched = 0, fields = 0, fieldsMatched = 0
                for row in expected {
                    let values = Array(row[7...])
                    guard let period = ours.first(where: { $0["in_bed_time"] == String(values[0].dropLast()) }) else {
                        Issue.record("\(device) \(key[1]): no period at \(values[0])"); continue
                    }
                    var all = true
                    for (column, printed) in zip(Self.exportColumns, values) {
                        fields += 1
                        if Self.same(period[column], printed) { fieldsMatched += 1 } else {
                            all = false
                            Issue.record("\(device) \(key[1]) \(values[0]): \(column) ours \(period[column] ?? "-"), ActiLife \(printed)")
                        }
                    }
                    if all { matched += 1 }
                }
                ReferenceReport.record("sleepsta periods (sadeh, tudor-locke \(key[2...6].joined(separator: "/"))) on \(device) .agd vs ActiLife",
                                       matched: matched, total: expected.count, note: "\(fieldsMatched)/\(fields) statistics")
                #expect(ours.count == expected.count)
                #expect(matched == expected.count)
            }
        }
    }

    // MARK: counts vs ActiLife

    @Test("counts --epoch 5s on the 100 Hz raw CSV = ActiLife's 5-s counts and the .agd read directly",
          .enabled(if: ExternalData.available, external))
    func countsMatchActiLife() throws {
        let raw = try ActivityCountsRun.run(CountsRequest(path: try Self.path("agcounts_link_100hz/example_raw_100hz_pygt3x.csv"), epochSeconds: 5))
        let ours = Self.table(raw.csvLines())
        #expect(TestCSV.rows(raw.csvLines()[0])[0] == ["start", "axis1", "axis2", "axis3", "vm"])
        let reference = TestCSV.rows(try #require(try ExternalData.text("agcounts_link_100hz/example5sec_actilife_counts.csv")))
        let title = reference[0]
        var matched = 0, total = 0
        for (i, row) in reference.dropFirst().enumerated() {
            for axis in ["axis1", "axis2", "axis3"] {
                total += 1
                if i < ours.count && ours[i][axis] == row[title.firstIndex(of: axis)!] { matched += 1 }
            }
            #expect(i < ours.count && ours[i]["start"] == row[0])
            if i < ours.count, let vm = Double(ours[i]["vm"] ?? ""), let printed = Double(row[title.firstIndex(of: "vector_magnitude")!]) {
                #expect(abs(vm - printed) <= 0.005 + 1e-9, "vm at 2 decimals")
            }
        }
        ReferenceReport.record("sleepsta counts --epoch 5s on example_raw_100hz_pygt3x.csv vs ActiLife 6.13.4 5-s counts",
                               matched: matched, total: total, note: "\(ours.count) epochs × 3 axes")
        #expect(matched == total && total == 108)

        let agd = try ActivityCountsRun.run(CountsRequest(path: try Self.path("agcounts_link_100hz/example5sec.agd"), epochSeconds: 5))
        let agdLines = agd.csvLines()
        let rawLines = raw.csvLines()
        let same = zip(agdLines.dropFirst(), rawLines.dropFirst()).filter { $0 == $1 }.count
        ReferenceReport.record("sleepsta counts on the raw CSV vs sleepsta counts on example5sec.agd (identical CSV rows)",
                               matched: same, total: agdLines.count - 1)
        #expect(agdLines == rawLines)
    }

    @Test("counts --epoch 5s on the original .gt3x (through the raw-sample reader's sink) = ActiLife's 5-s counts",
          .enabled(if: ExternalData.available, external))
    func countsFromGT3XMatchActiLife() throws {
        let result = try ActivityCountsRun.run(CountsRequest(path: try Self.path("agcounts_link_100hz/example.gt3x"), epochSeconds: 5))
        let ours = Self.table(result.csvLines())
        let reference = TestCSV.rows(try #require(try ExternalData.text("agcounts_link_100hz/example5sec_actilife_counts.csv")))
        let title = reference[0]
        var matched = 0, total = 0
        for (i, row) in reference.dropFirst().enumerated() {
            // The .gt3x states the device's offset (−05:00); the local digits are ActiLife's.
            #expect(i < ours.count && ours[i]["start"] == row[0] + "-05:00")
            for axis in ["axis1", "axis2", "axis3"] {
                total += 1
                if i < ours.count && ours[i][axis] == row[title.firstIndex(of: axis)!] { matched += 1 }
            }
        }
        ReferenceReport.record("sleepsta counts --epoch 5s on example.gt3x vs ActiLife 6.13.4 5-s counts",
                               matched: matched, total: total, note: "\(ours.count) epochs × 3 axes")
        #expect(matched == total && total == 108)
    }

    // MARK: Clock

    @Test("--tz places a device clock that runs through a DST change; output times carry the offsets")
    func dstWithTimeZone() throws {
        let folder = NSTemporaryDirectory() + "sleepsta-epoch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 01:50 … 02:09 on the device clock, Berlin's spring-forward night (02:00 → 03:00).
        var text = "timestamp,axis1,axis2,axis3\n"
        for m in 0..<20 { text += String(format: "2024-03-31T%02d:%02d:00,%d,0,0\n", 1 + (50 + m) / 60, (50 + m) % 60, m * 10) }
        let path = folder + "/dst.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try EpochScoring.run(ScoreRequest(path: path, algorithm: .sadeh, timeZoneIdentifier: "Europe/Berlin"))
        let starts = result.epochs.map(\.startUTC)
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $1 - $0 == 60 }, "the device clock does not jump")
        let rows = Self.table(result.csvLines())
        #expect(rows[0]["start"] == "2024-03-31T01:50:00+01:00")
        #expect(rows[9]["start"] == "2024-03-31T01:59:00+01:00")
        #expect(rows[10]["start"] == "2024-03-31T03:00:00+02:00")
        // Without --tz the same file prints the device clock without offsets.
        let plain = Self.table(try EpochScoring.run(ScoreRequest(path: path, algorithm: .sadeh)).csvLines())
        #expect(plain[10]["start"] == "2024-03-31T02:00:00")
    }

    // MARK: Usage and input errors

    @Test("Bad options are refused with a message that names the fix", .enabled(if: ExternalData.available, external))
    func usageErrors() throws {
        let agd = try Self.path("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01.agd")
        let actiware = try Self.path("actiware_rpx/test_sample_rpx_fr.csv")
        func error(_ request: ScoreRequest) -> EpochCommandError? {
            #expect(throws: EpochCommandError.self) { try EpochScoring.run(request) }
        }
        var e = error(ScoreRequest(path: agd, algorithm: .sadeh, variant: "textbook"))
        #expect(e == .usage("--variant 'textbook' is not a variant of sadeh: use actilife, pyactigraphy"))
        e = error(ScoreRequest(path: agd, algorithm: .coleKripke, epochSeconds: 30))
        #expect(e?.exitCode == 2 && e?.description.contains("60-s epochs") == true)
        e = error(ScoreRequest(path: agd, algorithm: .sadeh, threshold: "40"))
        #expect(e?.description.contains("--threshold applies to oakley only") == true)
        e = error(ScoreRequest(path: agd, algorithm: .scripps, epochSeconds: 45))
        #expect(e?.description.contains("multiple of 10 s") == true)
        e = error(ScoreRequest(path: agd, algorithm: .oakley))
        #expect(e?.description.contains("15-, 30-, 60- and 120-s") == true)
        e = error(ScoreRequest(path: agd, algorithm: .sadeh, column: "heart"))
        #expect(e?.description.contains("it has axis1, axis2") == true)
        e = error(ScoreRequest(path: agd, algorithm: .vanHees2015))
        #expect(e?.exitCode == 1 && e?.description.contains("angle-z") == true)
        e = error(ScoreRequest(path: actiware, algorithm: .oakley, threshold: "loud"))
        #expect(e?.description.contains("low (20), medium (40)") == true)
        let counts = #expect(throws: EpochCommandError.self) { try ActivityCountsRun.run(CountsRequest(path: actiware)) }
        #expect(counts?.description.contains("no axis1 column") == true)
        let periods = #expect(throws: EpochCommandError.self) {
            try SleepPeriodsRun.run(SleepPeriodsRequest(path: agd, sleepAlgorithm: .oakley))
        }
        #expect(periods?.exitCode == 2)
        #expect(throws: EpochCommandError.self) {
            try SleepPeriodsRun.parameters(bedtimeStart: 5, wakeTimeEnd: 10, minSleepPeriod: 200, maxSleepPeriod: 100, minNonzeroEpochs: 0)
        }
        let missing = #expect(throws: IngestError.self) { try EpochScoring.run(ScoreRequest(path: "/nonexistent.csv", algorithm: .sadeh)) }
        #expect(missing?.message.contains("cannot open") == true)
    }

    @Test func variantNamesAreKebabCase() {
        #expect(ScoringAlgorithm.coleKripke.variantNames == ["actilife", "mean-activity-1992", "max-overlapping-10s-1992",
                                                            "max-non-overlapping-10s-1992", "max-non-overlapping-30s-1992",
                                                            "pyactigraphy-mean"])
        #expect(ScoringAlgorithm.oakley.variantNames == ["actiware", "zero-padded", "pyactigraphy"])
        #expect(EpochCSVText.fixed(97.144, decimals: 2) == "97.14" && EpochCSVText.fixed(40, decimals: 3) == "40.000")
        #expect(EpochCSVText.fixed(0.0005, decimals: 3) == "0.001" && EpochCSVText.number(473) == "473")
    }

    // MARK: The built command, end to end

    static func runBinary(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SleepstaBinary.path!)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test("sleepsta score / periods / counts as a user runs them",
          .enabled(if: ExternalData.available && SleepstaBinary.path != nil,
                   Comment(rawValue: ExternalData.available ? SleepstaBinary.missingMessage : ExternalData.skipMessage)))
    func commandLine() throws {
        let agd = try Self.path("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01.agd")
        let score = try Self.runBinary(["score", agd, "--algorithm", "sadeh", "--epoch", "60s", "--format", "csv"])
        #expect(score.status == 0)
        #expect(score.stdout.split(separator: "\n").count == 1501)
        #expect(score.stdout.hasPrefix("start,activity,score,state\n2012-06-27T10:54:00,1465,"))
        #expect(score.stderr.contains("note:"))

        let periods = try Self.runBinary(["periods", agd, "--algorithm", "tudor-locke", "--sleep-algorithm", "sadeh",
                                          "--bedtime-start", "5", "--wake-time-end", "10", "--min-sleep-period", "160",
                                          "--max-sleep-period", "1440", "--min-nonzero-epochs", "0", "--format", "csv", "--quiet"])
        #expect(periods.status == 0 && periods.stderr.isEmpty)
        #expect(periods.stdout == SleepPeriodsResult.header.joined(separator: ",") + "\n"
                + "2012-06-28T00:03:00,2012-06-28T07:38:00,2012-06-28T00:03:00,0,97.14,455,442,13,4,3.25,9126,5.934,40.000,45.934\n")

        let raw = try Self.path("agcounts_link_100hz/example_raw_100hz_pygt3x.csv")
        let counts = try Self.runBinary(["counts", raw, "--epoch", "5s", "--format", "csv"])
        #expect(counts.status == 0)
        #expect(counts.stdout.hasPrefix("start,axis1,axis2,axis3,vm\n2023-06-13T08:34:00,171,92,261,325.3"))

        let json = try Self.runBinary(["counts", raw, "--format", "json"])
        #expect(json.status == 2 && json.stderr.contains("only csv"))
        let unknown = try Self.runBinary(["score", agd, "--algorithm", "sleepy", "--format", "csv"])
        #expect(unknown.status == 2 && unknown.stderr.contains("--algorithm")
                && ["cole-kripke", "sadeh", "oakley", "scripps", "van-hees-2015"].allSatisfy { unknown.stderr.contains("'\($0)'") }, "\(unknown.stderr)")
        let unreadable = try Self.runBinary(["score", raw + ".missing", "--algorithm", "sadeh"])
        #expect(unreadable.status == 1 && unreadable.stderr.contains("cannot open"))
    }
}
