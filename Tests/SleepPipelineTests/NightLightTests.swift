import Foundation
import Testing
import SleepCore
import SleepPipeline
import SleepStore

/// Light per night (``NightLight``): mean lux over the sleep period and the hour before onset,
/// in the nights export's `mean_lux_sleep` and `mean_lux_hour_before`.
@Suite("Light per night")
struct NightLightTests {
    /// A night of 30-s epochs from 20:00 UTC with `lux(i)` in a channel named `name`.
    static func series(name: String = "white_light", epochs: Int = 1440, lux: (Int) -> Double) -> EpochNightSeries {
        EpochNightSeries(format: "actiware-csv", startUTC: 1_700_000_000, epochSeconds: 30, count: epochs,
                         columns: [.init(name: "activity", sourceName: "Activity", unit: "counts", values: Array(repeating: 0, count: epochs)),
                                   .init(name: name, sourceName: "White Light", unit: "lux", values: (0..<epochs).map(lux))])
    }

    @Test("means over the epochs of each span with a value; a step, a ramp and gaps, three channel names")
    func means() throws {
        let onset: Int64 = 1_700_000_000 + 4 * 3600, wake = onset + 2 * 3600
        // A lit evening (300 lux) and a dark night (2 lux): the hour before and the period apart.
        let step = try #require(NightLight.compute(Self.series { i in i < 480 ? 300 : 2 }, onsetUTC: onset, wakeUTC: wake))
        #expect(step.meanLuxHourBefore == 300 && step.meanLuxSleepPeriod == 2 && step.columnTitle == "White Light")
        // A ramp i: the mean of epochs 480…719 is 599.5; the hour before, 360…479, is 419.5.
        let ramp = try #require(NightLight.compute(Self.series(name: "lux") { Double($0) }, onsetUTC: onset, wakeUTC: wake))
        #expect(ramp.meanLuxSleepPeriod == 599.5 && ramp.meanLuxHourBefore == 419.5)
        // Epochs without a value are left out of the mean; a span without any has none.
        let gaps = try #require(NightLight.compute(Self.series(name: "light") { i in i >= 360 && i < 480 ? .nan : (i % 2 == 0 ? 10 : .nan) },
                                                   onsetUTC: onset, wakeUTC: wake))
        #expect(gaps.meanLuxSleepPeriod == 10 && gaps.meanLuxHourBefore == nil)
        // No light channel: no light at all (not zero lux).
        let dark = EpochNightSeries(format: "actiwatch-awd", startUTC: 0, epochSeconds: 60, count: 10,
                                    columns: [.init(name: "activity", sourceName: "Activity", unit: "counts", values: Array(repeating: 1, count: 10))])
        #expect(NightLight.compute(dark, onsetUTC: 60, wakeUTC: 300) == nil)
    }

    /// Actiware's own statistics: `Avg White` (lux) of each `SLEEP` interval, by its start.
    static func actiwareSleepLight(_ path: String) throws -> [String: Double] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var out: [String: Double] = [:]
        var header: [String]? = nil
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            if fields.first == "Interval Type" { header = fields; continue }
            guard let h = header, fields.first == "SLEEP", let avg = h.firstIndex(where: { $0.hasPrefix("Avg White") }),
                  let date = h.firstIndex(of: "Start Date").map({ fields[$0] }), let time = h.firstIndex(of: "Start Time").map({ fields[$0] }),
                  avg < fields.count, let value = Double(fields[avg].replacingOccurrences(of: ",", with: ".")) else { continue }
            // dd/mm/yyyy → yyyy-mm-dd
            let d = date.split(separator: "/")
            guard d.count == 3 else { continue }
            out["\(d[2])-\(d[1])-\(d[0])T\(time)"] = value
        }
        return out
    }

    @Test("mean_lux_sleep equals Actiware's Avg White of its SLEEP interval, every scored night of the English export",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func actiwareAverageWhite() throws {
        let w = Workspace()
        let file = "actiware_rpx/test_sample_rpx_eng.csv"
        try FileManager.default.copyItem(atPath: try #require(ExternalData.url(file)).path, toPath: w.data + "/eng.csv")
        let reference = try Self.actiwareSleepLight(w.data + "/eng.csv")
        #expect(reference.count == 7, "\(reference)")
        _ = try w.run(tz: nil) { _ in }
        let export = try StoreTrustTests.nightsExport(w)
        let col = { (name: String) in export.header.firstIndex(of: name)! }
        var matched = 0
        for row in export.rows where row[col("status")] == "scored" {
            let onset = String(row[col("sleep_onset")].prefix(19))   // local clock, without the offset
            guard let theirs = reference[onset] else { continue }
            let ours = try #require(Double(row[col("mean_lux_sleep")]), "\(row[col("night")]): no mean_lux_sleep")
            // Actiware averages its own unrounded light and prints the mean to 0.01 lux; the export's
            // epochs carry light to 0.01 lux, with dark readings at the floor of 0.01 (Actiware's
            // Exposure White runs 0.2–0.5 % below the sum of the printed epochs). So: within 0.01 lux.
            #expect(abs(ours - theirs) <= 0.01, "\(row[col("night")]): \(ours) lux vs Actiware's \(theirs)")
            #expect(Double(row[col("mean_lux_hour_before")]) != nil)
            matched += 1
        }
        print("REFERENCE mean_lux_sleep on Actiware test_sample_rpx_eng.csv vs Actiware's Avg White per SLEEP interval: \(matched)/\(reference.count) matched")
        #expect(matched == reference.count)
    }
}
