import Testing
import SleepCore

/// For methods that score per epoch, the comparison's sleep/wake labels are the epochs the
/// metrics saw, not the intervals' majority votes.
@Suite("The labels the metrics use")
struct MetricsLabellingTests {
    /// A scored night of `kind`: 5-s epochs sleeping from 600 s to 3600 s with one 30-s wake bout
    /// at 1800 s, summed into 10-min intervals by majority.
    static func analysis(kind: RecordingKind) -> NightAnalysis {
        let epochs = (0..<(4200 / 5)).map { k -> ScoredEpoch in
            let t = Int64(k * 5)
            let sleep = t >= 600 && t < 3600 && !(t >= 1800 && t < 1830)
            return ScoredEpoch(startUTC: t, activity: 0, state: sleep ? .sleep : .wake)
        }
        let intervals = stride(from: Int64(0), to: 4200, by: 600).map { s -> AnalyzedInterval in
            let inside = epochs.filter { $0.startUTC >= s && $0.startUTC < s + 600 }
            let sleep = inside.filter { $0.state == .sleep }.count
            return AnalyzedInterval(movement: IntervalMovement(startUTC: s, endUTC: s + 600, movementSum: 0, legacyMovementSum: 0, coverageSeconds: 600),
                                    state: sleep * 2 >= inside.count ? .sleep : .wake, phase: .light)
        }
        let m = NightSummaryMetrics(resolutionSeconds: kind == .phoneInBed ? 600 : 5, inBedStartUTC: 0, inBedEndUTC: 4200,
                                    sleepOnsetUTC: 600, wakeTimeUTC: 3600, timeInBedMinutes: 70, sleepPeriodMinutes: 50,
                                    totalSleepTimeMinutes: 49.5, sleepOnsetLatencyMinutes: 10, wakeAfterSleepOnsetMinutes: 0.5,
                                    sleepEfficiencyPercent: 70, awakenings: 1, lightMinutes: 49.5, deepMinutes: 0, awakeMinutes: 20.5,
                                    sleepMaintenanceEfficiencyPercent: 99, sleepFragmentationIndexPerHour: 1.2)
        return NightAnalysis(status: .scored, parameters: AnalysisParameters(), intervals: intervals, epochs: epochs,
                             wakeThreshold: nil, metrics: m, kind: kind)
    }

    @Test("wearable: the hypnogram is the 5-s epochs (the 30-s awakening is there), not the intervals (where a majority hides it)")
    func wearableUsesEpochs() throws {
        let a = Self.analysis(kind: .wearable24h)
        let h = try #require(IntervalHypnogram.metricsLabelling(a))
        #expect(h.intervalSeconds == 5 && h.awakenings.count == 1 && h.awakenings[0].minutes == 0.5)
        #expect(try #require(IntervalHypnogram(a)).awakenings.isEmpty, "the intervals' majority hides the bout")
        #expect(!a.labels().metricsDependOnInterval && a.labels().scoredPer == "5-s epochs")
    }

    @Test("phone: the hypnogram is the intervals, as its metrics are per interval")
    func phoneUsesIntervals() throws {
        let a = Self.analysis(kind: .phoneInBed)
        let h = try #require(IntervalHypnogram.metricsLabelling(a))
        #expect(h.intervalSeconds == 600 && a.labels().metricsDependOnInterval && a.labels().scoredPer == "10m intervals")
    }
}
