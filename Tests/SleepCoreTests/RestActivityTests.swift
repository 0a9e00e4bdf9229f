import Foundation
import Testing
import SleepCore

/// One Actiware epoch table, read the way pyActigraphy's `read_raw_rpx` reads it.
private struct RestActivityRecording {
    var counts: [Double]
    var sleepWake: [SleepWake?]
    var epochSeconds: Int
    var startSecondsSinceMidnight: Int

    /// Parses the "Epoch-by-Epoch Data" table of an Actiware 5 export (English or French).
    /// Like `read_raw_rpx(drop_na=True)`, epochs without activity at the start or the end are
    /// dropped (interior gaps would be kept as NaN by pyActigraphy's `asfreq`).
    static func parse(_ text: String) -> RestActivityRecording? {
        let rows = TestCSV.rows(text)
        guard let headerIndex = rows.lastIndex(where: { r in
            (r.first == "Line" || r.first == "Ligne") && r.contains(where: { $0 == "Activity" || $0 == "Activité" })
        }) else { return nil }
        let header = rows[headerIndex]
        guard let timeCol = header.firstIndex(where: { $0 == "Time" || $0 == "Heure" }),
              let activityCol = header.firstIndex(where: { $0 == "Activity" || $0 == "Activité" }),
              let swCol = header.firstIndex(where: { $0 == "Sleep/Wake" || $0 == "Sommeil/Éveil" })
        else { return nil }
        var counts: [Double] = []
        var sleepWake: [SleepWake?] = []
        var times: [Int] = []
        for row in rows[(headerIndex + 1)...] where row.count > swCol && Int(row[0]) != nil {
            counts.append(Double(row[activityCol]) ?? .nan)  // "NAN" → nil → NaN
            switch row[swCol] {
            case "0": sleepWake.append(.sleep)
            case "1": sleepWake.append(.wake)
            default: sleepWake.append(nil)
            }
            let hms = row[timeCol].split(separator: ":").compactMap { Int($0) }
            times.append(hms.count == 3 ? hms[0] * 3600 + hms[1] * 60 + hms[2] : -1)
        }
        guard let first = counts.firstIndex(where: { !$0.isNaN }),
              let last = counts.lastIndex(where: { !$0.isNaN }), times.count > 1 else { return nil }
        let epoch = ((times[1] - times[0]) % 86_400 + 86_400) % 86_400
        return RestActivityRecording(
            counts: Array(counts[first...last]), sleepWake: Array(sleepWake[first...last]),
            epochSeconds: epoch, startSecondsSinceMidnight: times[first])
    }
}

private func restActivityFixture() throws -> [String: Any] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/rest-activity/pyactigraphy_reference.json")
    let data = try Data(contentsOf: url)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

private func relativeClose(_ a: Double?, _ b: Double, tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance * max(abs(b), 1e-300)
}

@Suite struct RestActivityTests {

    @Test(.enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func matchesPyActigraphyOnActiwareRecordings() throws {
        let fixture = try restActivityFixture()
        let recordings = try #require(fixture["recordings"] as? [String: [String: Any]])
        for (file, reference) in recordings.sorted(by: { $0.key < $1.key }) {
            let text = try #require(try ExternalData.text("actiware_rpx/\(file)"))
            let recording = try #require(RestActivityRecording.parse(text))
            #expect(recording.counts.count == reference["n_epochs"] as? Int)
            #expect(recording.epochSeconds == reference["epoch_seconds"] as? Int)

            var matched = 0
            var total = 0
            var worstRelative = 0.0
            func check(_ name: String, _ ours: Double?, _ theirs: Any?) {
                guard let theirs = theirs as? Double else { Issue.record("\(file) \(name): no reference"); return }
                total += 1
                if let ours { worstRelative = max(worstRelative, abs(ours - theirs) / max(abs(theirs), 1e-300)) }
                if relativeClose(ours, theirs) { matched += 1 } else {
                    Issue.record("\(file) \(name): ours \(String(describing: ours)) pyActigraphy \(theirs)")
                }
            }
            func checkStart(_ name: String, _ ours: Int?, _ theirs: Any?) {
                total += 1
                if let ours, ours == theirs as? Int { matched += 1 } else {
                    Issue.record("\(file) \(name): ours \(String(describing: ours)) pyActigraphy \(String(describing: theirs))")
                }
            }

            for (key, binarize) in [("binarized_1h", true), ("counts_1h", false)] {
                let ref = try #require(reference[key] as? [String: Any])
                let m = RestActivityMetrics.compute(
                    counts: recording.counts, epochSeconds: recording.epochSeconds,
                    startSecondsSinceMidnight: recording.startSecondsSinceMidnight,
                    options: .init(binarize: binarize))
                check("\(key) IS", m.interdailyStability, ref["IS"])
                check("\(key) IV", m.intradailyVariability, ref["IV"])
                check("\(key) L5", m.l5, ref["L5"])
                check("\(key) M10", m.m10, ref["M10"])
                check("\(key) RA", m.relativeAmplitude, ref["RA"])
                checkStart("\(key) L5 start", m.l5StartSecondsSinceMidnight, ref["L5_start_seconds"])
                checkStart("\(key) M10 start", m.m10StartSecondsSinceMidnight, ref["M10_start_seconds"])
            }
            let ref30 = try #require(reference["binarized_30min"] as? [String: Any])
            let m30 = RestActivityMetrics.compute(
                counts: recording.counts, epochSeconds: recording.epochSeconds,
                startSecondsSinceMidnight: recording.startSecondsSinceMidnight,
                options: .init(resampleSeconds: 1800))
            check("30min IS", m30.interdailyStability, ref30["IS"])
            check("30min IV", m30.intradailyVariability, ref30["IV"])

            check("SRI Actiware sleep/wake",
                  SleepRegularityIndex.compute(states: recording.sleepWake, epochSeconds: recording.epochSeconds),
                  reference["SRI_actiware_sleep_wake_threshold0"])
            // Binarized activity as a stand-in state series (1 = "wake" when count > 4).
            let activityStates: [SleepWake?] = recording.counts.map { $0.isNaN ? nil : ($0 > 4 ? .wake : .sleep) }
            check("SRI binarized activity",
                  SleepRegularityIndex.compute(states: activityStates, epochSeconds: recording.epochSeconds),
                  reference["SRI_activity_threshold4"])

            ReferenceReport.record("pyActigraphy 1.2.2 rest-activity \(file)", matched: matched, total: total,
                                   note: "IS/IV/L5/M10/RA (+starts) binarized & counts, IS/IV 30 min, SRI; rel. tol 1e-9, worst \(worstRelative)")
            #expect(matched == total)
        }
    }

    /// pyActigraphy's IS is a ratio of sample variances: for a perfectly periodic series of N
    /// hourly bins with p = 24 clock hours it equals p(N−1)/(N(p−1)), while Witting's printed
    /// formula gives exactly 1.
    @Test func periodicSeriesShowsTheFormulaDifference() throws {
        let day: [Double] = (0..<24).map { (h: Int) -> Double in
            if h < 7 { return 0 }
            let level: Int = (h * 37) % 11 + 1
            return Double(level)
        }
        let hourly = Array(repeating: day, count: 7).flatMap { $0 }
        let n = Double(hourly.count)
        let pyIS = try #require(RestActivityMetrics.interdailyStability(hourly, binSeconds: 3600))
        #expect(abs(pyIS - 24 * (n - 1) / (n * 23)) < 1e-12)
        let wittingIS = try #require(RestActivityMetrics.interdailyStability(hourly, binSeconds: 3600, formula: .witting1990))
        #expect(abs(wittingIS - 1) < 1e-12)
        let pyIV = try #require(RestActivityMetrics.intradailyVariability(hourly))
        let wittingIV = try #require(RestActivityMetrics.intradailyVariability(hourly, formula: .witting1990))
        #expect(abs(wittingIV / pyIV - n / (n - 1)) < 1e-12)
    }

    /// Resampling from 1-min epochs to 1-h bins keeps a partial last bin and starts bins at the
    /// first epoch (pandas `origin='start'`).
    @Test func resamplingIsAnchoredAtTheFirstEpochAndKeepsThePartialBin() {
        let values: [Double] = (0..<150).map { Double($0 % 3) }  // 2.5 h of 1-min epochs
        let bins = RestActivityMetrics.resampled(values, epochSeconds: 60, binSeconds: 3600)
        #expect(bins.count == 3)
        #expect(bins[0] == 60)   // 20 × (0+1+2)
        #expect(bins[2] == 30)   // 30 epochs: 10 × (0+1+2)
        let withGap = [Double.nan, .nan, 1, 2]
        #expect(RestActivityMetrics.resampled(withGap, epochSeconds: 30, binSeconds: 60) == [0, 3])
    }

    /// L5 / M10 windows wrap around midnight and the start time is clock time.
    @Test func l5AndM10OnASyntheticWeek() throws {
        // 1-min epochs starting at 12:00; active (10 counts) 08:00–20:00, 2 counts 20:00–24:00,
        // 0 counts 00:00–08:00. L5 = any 5 h inside 00:00–08:00 → earliest 00:00; M10 starts 08:00.
        let start = 12 * 3600
        var counts: [Double] = []
        for i in 0..<(7 * 1440) {
            let clock = (start + i * 60) % 86_400
            counts.append(clock >= 8 * 3600 && clock < 20 * 3600 ? 10 : (clock >= 20 * 3600 ? 2 : 0))
        }
        let raw = RestActivityMetrics.compute(counts: counts, epochSeconds: 60, startSecondsSinceMidnight: start,
                                              options: .init(binarize: false))
        #expect(raw.l5 == 0)
        #expect(raw.l5StartSecondsSinceMidnight == 0)
        #expect(raw.m10 == 10)
        #expect(raw.m10StartSecondsSinceMidnight == 8 * 3600)
        #expect(raw.relativeAmplitude == 1)
        // Binarized (> 4): the 2-count evening becomes 0 → L5 can start as early as 20:00.
        let bin = RestActivityMetrics.compute(counts: counts, epochSeconds: 60, startSecondsSinceMidnight: start)
        #expect(bin.l5 == 0)
        #expect(bin.l5StartSecondsSinceMidnight == 0)
        #expect(bin.m10 == 1)
        // 2015-07-04 11:00:00 UTC at UTC+1 is 12:00 local.
        let fromUTC = RestActivityMetrics.compute(counts: counts, epochSeconds: 60, startUnixSeconds: 1_436_007_600,
                                                  utcOffsetSeconds: 3600, options: .init(binarize: false))
        #expect(fromUTC == raw)
        #expect(RestActivityMetrics.secondsSinceMidnight(unixSeconds: 1_436_000_000, utcOffsetSeconds: 3600)
                == (1_436_000_000 + 3600) % 86_400)
        #expect(RestActivityMetrics.secondsSinceMidnight(unixSeconds: -10, utcOffsetSeconds: 0) == 86_390)
    }

    @Test func sleepRegularityIndexExtremesAndMissingData() throws {
        // 15-min epochs: 96 per day. Sleep 00:00–08:00 every day → 100.
        let regularDay: [SleepWake?] = (0..<96).map { $0 < 32 ? .sleep : .wake }
        let regular = Array(repeating: regularDay, count: 5).flatMap { $0 }
        #expect(SleepRegularityIndex.compute(states: regular, epochSeconds: 900) == 100)
        #expect(SleepRegularityIndex.compute(states: regular, epochSeconds: 900, variant: .phillips2017) == 100)
        // Each day the exact opposite of the day before → −100.
        let inverted: [SleepWake?] = regularDay.map { $0 == .sleep ? .wake : .sleep }
        let alternating = [regularDay, inverted, regularDay, inverted].flatMap { $0 }
        #expect(SleepRegularityIndex.compute(states: alternating, epochSeconds: 900) == -100)
        // Half of the clock times flip once over 3 days: pyActigraphy averages per clock time.
        var shifted = Array(repeating: regularDay, count: 3).flatMap { $0 }
        for i in 96..<(96 + 48) { shifted[i] = shifted[i] == .sleep ? .wake : .sleep }
        // 48 slots with 0/2 equal pairs, 48 with 2/2 → mean share 0.5 → SRI 0.
        #expect(SleepRegularityIndex.compute(states: shifted, epochSeconds: 900) == 0)
        #expect(SleepRegularityIndex.compute(states: shifted, epochSeconds: 900, variant: .phillips2017) == 0)
        // A missing epoch: pyActigraphy binarizes it to sleep; Phillips drops both of its pairs.
        var gap = regular
        gap[96 + 40] = nil  // a wake epoch on day 2 goes missing
        let py = try #require(SleepRegularityIndex.compute(states: gap, epochSeconds: 900))
        #expect(abs(py - (200 * ((95.0 + 2.0 / 4.0) / 96) - 100)) < 1e-12)
        #expect(SleepRegularityIndex.compute(states: gap, epochSeconds: 900, variant: .phillips2017) == 100)
        // Less than 24 h: no pair.
        #expect(SleepRegularityIndex.compute(states: regularDay, epochSeconds: 900) == nil)
    }
}
