import Foundation
import Testing
import SleepCore

/// Property: for nights whose sleep/wake truth is known, the night metrics at 10- and 15-minute
/// intervals are each within the interval resolution of the truth, and the same input gives the
/// same output.
///
/// The bound: an interval takes the majority label of its epochs (NightAnalyzer), so an interval
/// that holds a sleep/wake boundary of the truth mislabels at most its minority part, at most
/// half an interval; intervals without a boundary are exact. With k_L intervals holding a
/// boundary, TST, WASO and SPT are within k_L·L/2, SE within k_L·L/2 / TIB, and sleep onset
/// (and SOL) and wake time within L/2 each (one boundary each). Awakenings: a wake bout longer
/// than L always wins an interval, one shorter than L/2 never does, so
/// #(truth bouts > L) ≤ awakenings_L ≤ truth awakenings.
@Suite("Interval lengths against a known truth")
struct ResolutionBoundTests {
    static let seeds: [UInt64] = Array(1...40)

    @Test("10- and 15-minute metrics are within the resolution bound of the truth", arguments: seeds)
    func withinResolution(seed: UInt64) throws {
        let night = SyntheticNight(seed: seed)
        let truth = night.truthMetrics
        for length in [IntervalLength.tenMinutes, .fifteenMinutes] {
            var p = AnalysisParameters()
            p.interval = length
            let a = NightAnalyzer.analyze(series: night.series, window: night.window, parameters: p)
            try #require(a.status == .scored, "seed \(seed) at \(length): \(a.status)")
            let m = try #require(a.metrics)
            // The scorer reads the synthetic epochs back exactly, so only the intervals blur the truth.
            let scored = a.epochs.filter { $0.startUTC >= night.dataStartUTC && $0.startUTC < night.dataEndUTC }
            #expect(scored.map(\.state) == night.truth.map { Optional($0) }, "seed \(seed): epochs differ from the truth")

            let L = Double(length.seconds) / 60
            let k = Double(Set(night.boundariesUTC.map { (Int64($0) - a.intervals[0].movement.startUTC) / Int64(length.seconds) }).count)
            let half = L / 2 + 1e-9
            #expect(m.timeInBedMinutes == truth.timeInBedMinutes)
            #expect(abs(m.totalSleepTimeMinutes - truth.totalSleepMinutes) <= k * half, "seed \(seed) \(length) TST")
            #expect(abs(m.wakeAfterSleepOnsetMinutes - (truth.wakeAfterSleepOnsetMinutes ?? 0)) <= k * half, "seed \(seed) \(length) WASO")
            #expect(abs(m.sleepPeriodMinutes - truth.sleepPeriodMinutes) <= 2 * half, "seed \(seed) \(length) SPT")
            #expect(abs(m.sleepEfficiencyPercent - (truth.sleepEfficiencyPercent ?? 0)) <= k * half / truth.timeInBedMinutes * 100 + 1e-9)
            #expect(abs((m.sleepOnsetLatencyMinutes ?? .nan) - (truth.sleepOnsetLatencyMinutes ?? .nan)) <= half, "seed \(seed) \(length) SOL")
            let truthWake = night.dataStartUTC + Int64((truth.sleepOnsetLatencyMinutes! + truth.sleepPeriodMinutes) * 60)
            #expect(abs(Double(m.wakeTimeUTC! - truthWake) / 60) <= half, "seed \(seed) \(length) wake time")
            let bouts = night.awakeningMinutes
            #expect(bouts.count == truth.awakenings)
            #expect(m.awakenings <= truth.awakenings, "seed \(seed) \(length): awakenings invented")
            #expect(m.awakenings >= bouts.filter { Double($0) > L }.count, "seed \(seed) \(length): a long awakening lost")
            // The hypnogram the comparison uses counts the same awakenings as the metrics.
            #expect(IntervalHypnogram(a)?.awakenings.count == m.awakenings)
        }
    }

    @Test("a comparison of the same nights is the same on every run; hidden awakenings are the short ones")
    func deterministicAndHiddenAwakenings() throws {
        func compare() -> IntervalLengthComparison {
            let nights = (1...6).map { k -> IntervalLengthComparison.Night in
                let night = SyntheticNight(seed: UInt64(100 + k), evening: k)
                let analyses = [IntervalLength.tenMinutes, .fifteenMinutes].map { length -> NightAnalysis in
                    var p = AnalysisParameters()
                    p.interval = length
                    return NightAnalyzer.analyze(series: night.series, window: night.window, parameters: p)
                }
                return .init(nightID: "night-\(k)", windowStartUTC: night.window.startUTC, analyses: analyses)
            }
            return IntervalLengthComparison.compute(lengths: [.tenMinutes, .fifteenMinutes], nights: nights)
        }
        let first = compare(), second = compare()
        #expect(first == second)
        let pair = try #require(first.pairs.first)
        #expect(pair.nights.count == 6)
        for (k, n) in pair.nights.enumerated() {
            let night = SyntheticNight(seed: UInt64(101 + k), evening: k + 1)
            // Awakenings longer than 15 min are seen at both lengths and never hidden.
            let long = night.awakeningMinutes.filter { $0 > 15 }.count
            #expect(n.hiddenAwakenings.referenceAwakenings - n.hiddenAwakenings.hiddenCount >= long)
            #expect(n.hiddenAwakenings.hidden.allSatisfy { $0.minutes <= 10 })
            // Every difference is test − reference.
            for metric in ComparedMetric.allCases {
                if let d = n.difference(metric) { #expect(d == n.testValue(metric)! - n.referenceValue(metric)!) }
            }
        }
        // The medium (6–9 min) awakenings of these nights: some seen at 10 min are hidden at 15.
        #expect(pair.hiddenAwakenings > 0, "\(pair.hiddenAwakenings) of \(pair.referenceAwakenings)")
        let tst = pair.agreement(.totalSleepTime)
        #expect(tst.count == 6)
        #expect(abs(tst.blandAltman!.bias - pair.nights.map { $0.difference(.totalSleepTime)! }.reduce(0, +) / 6) < 1e-12)
    }
}
