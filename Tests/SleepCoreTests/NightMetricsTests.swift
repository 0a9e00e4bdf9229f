import Testing
import SleepCore

/// A hypnogram given as bouts (stage, seconds), expanded to any epoch length.
private struct NightMetricsTruth {
    var bouts: [(SleepStage, Int)]

    var totalSeconds: Int { bouts.reduce(0) { $0 + $1.1 } }

    /// Stage at second `t` (bouts are half-open `[start, end)`).
    func stage(atSecond t: Int) -> SleepStage {
        var start = 0
        for (stage, length) in bouts {
            if t < start + length { return stage }
            start += length
        }
        return bouts.last!.0
    }

    /// One label per epoch of `epochSeconds`: the stage holding the most 30-s sub-epochs of the
    /// interval (plurality; ties go to the earliest of the tied stages in wake, light, deep,
    /// REM order). Exact when every bout boundary falls on an epoch boundary.
    func hypnogram(epochSeconds: Int) -> [SleepStage] {
        precondition(totalSeconds % epochSeconds == 0 && epochSeconds % 30 == 0)
        return (0..<(totalSeconds / epochSeconds)).map { i in
            var votes = [Int](repeating: 0, count: 4)
            for k in 0..<(epochSeconds / 30) {
                votes[Int(stage(atSecond: i * epochSeconds + k * 30).rawValue)] += 1
            }
            let best = votes.max()!
            return SleepStage(rawValue: UInt8(votes.firstIndex(of: best)!))!
        }
    }
}

@Suite struct NightMetricsTests {

    /// yasa's `Hypnogram.sleep_statistics` documentation example (1-min epochs, values rounded
    /// to 4 decimals by yasa): W×10, N1×4, W×1, N2×30, N3×30, W×5, REM×25, N2×15, W×10.
    /// Light = N1 + N2, deep = N3.
    @Test func yasaDocumentationExample() throws {
        let bouts: [(SleepStage, Int)] = [(.wake, 10), (.light, 4), (.wake, 1), (.light, 30), (.deep, 30),
                                          (.wake, 5), (.rem, 25), (.light, 15), (.wake, 10)]
        let hypnogram = bouts.flatMap { Array(repeating: $0.0, count: $0.1) }
        let m = NightMetrics.compute(stages: hypnogram, epochSeconds: 60)
        // yasa's printed values (4 decimals); light = N1 + N2 percentages added.
        let printed: [(String, Double?, Double)] = [
            ("TIB", m.timeInBedMinutes, 130), ("SPT", m.sleepPeriodMinutes, 110),
            ("WASO", m.wakeAfterSleepOnsetMinutes, 6), ("TST", m.totalSleepMinutes, 104),
            ("SE", m.sleepEfficiencyPercent, 80), ("SME", m.sleepMaintenanceEfficiencyPercent, 94.5455),
            ("SFI", m.sleepFragmentationIndexPerHour, 1.7308), ("SOL", m.sleepOnsetLatencyMinutes, 10),
            ("SOL_5min", m.persistentSleepLatencyMinutes, 15), ("WAKE", m.wakeMinutes, 26),
            ("N1+N2", m.stages?.lightMinutes, 4 + 45), ("N3", m.stages?.deepMinutes, 30), ("REM", m.stages?.remMinutes, 25),
            ("%N1+%N2", m.stages?.lightPercent, 3.8462 + 43.2692), ("%N3", m.stages?.deepPercent, 28.8462),
            ("%REM", m.stages?.remPercent, 24.0385),
        ]
        var matched = 0
        for (name, ours, theirs) in printed {
            if let ours, abs(ours - theirs) <= 1e-4 { matched += 1 } else {
                Issue.record("\(name): ours \(String(describing: ours)) yasa \(theirs)")
            }
        }
        ReferenceReport.record("yasa Hypnogram.sleep_statistics documentation example", matched: matched,
                               total: printed.count, note: "printed to 4 decimals")
        #expect(m.awakenings == 2)
        #expect(m.sleepToWakeTransitions == 3)
        #expect(m.finalWakeMinutes == 10)
        #expect(m.wakeAfterSleepOnsetToLightsOnMinutes == 16)
    }

    /// yasa's 2-stage documentation example (30-s epochs: W×10, S×40, W×5, S×40, W×10).
    @Test func yasaTwoStageExample() {
        let hypnogram: [SleepWake] = [(SleepWake.wake, 10), (.sleep, 40), (.wake, 5), (.sleep, 40), (.wake, 10)]
            .flatMap { Array(repeating: $0.0, count: $0.1) }
        let m = NightMetrics.compute(sleepWake: hypnogram, epochSeconds: 30)
        #expect(m.timeInBedMinutes == 52.5)
        #expect(m.sleepPeriodMinutes == 42.5)
        #expect(m.wakeAfterSleepOnsetMinutes == 2.5)
        #expect(m.totalSleepMinutes == 40)
        #expect(abs(m.sleepEfficiencyPercent! - 76.1905) < 0.5e-4)
        #expect(abs(m.sleepMaintenanceEfficiencyPercent! - 94.1176) < 0.5e-4)
        #expect(m.sleepOnsetLatencyMinutes == 5)
        #expect(m.persistentSleepLatencyMinutes == 5)
        #expect(m.wakeMinutes == 12.5)
        #expect(m.stages == nil)
        // Our SFI counts both sleep→wake transitions (mid-night and final): 2 / (40/60 h).
        #expect(m.sleepToWakeTransitions == 2)
        #expect(m.sleepFragmentationIndexPerHour == 3)
    }

    /// Bout boundaries on 30-min multiples: every resolution (30 s, 60 s, 10 min, 15 min) must
    /// give identical values.
    @Test func identicalAtEveryResolutionWhenBoundariesAlign() {
        let truth = NightMetricsTruth(bouts: [
            (.wake, 1800), (.light, 3600), (.deep, 1800), (.wake, 1800), (.light, 1800), (.rem, 3600),
            (.wake, 3600), (.light, 5400), (.deep, 1800), (.rem, 1800), (.wake, 1800),
        ])
        let options = NightMetrics.Options(persistentSleepMinutes: 5, minimumAwakeningMinutes: 45)
        let reference = NightMetrics.compute(stages: truth.hypnogram(epochSeconds: 30), epochSeconds: 30, options: options)
        #expect(reference.timeInBedMinutes == 480)
        #expect(reference.totalSleepMinutes == 330)
        #expect(reference.sleepOnsetLatencyMinutes == 30)
        #expect(reference.sleepPeriodMinutes == 420)
        #expect(reference.wakeAfterSleepOnsetMinutes == 90)
        #expect(reference.awakenings == 2 && reference.awakeningsAtLeastMinimum == 1)
        #expect(reference.sleepToWakeTransitions == 3)
        for epoch in [60, 600, 900] {
            var m = NightMetrics.compute(stages: truth.hypnogram(epochSeconds: epoch), epochSeconds: Double(epoch), options: options)
            #expect(m.epochSeconds == Double(epoch))
            m.epochSeconds = 30
            #expect(m == reference, "epoch \(epoch) s")
        }
    }

    /// Boundaries off the grid (on 30-s multiples, bouts > 30 min): coarse hypnograms made by
    /// plurality vote per interval move each boundary by at most half an interval, so every
    /// value stays within (boundaries involved) × E/2 of the 30-s truth.
    @Test func withinResolutionWhenBoundariesDoNotAlign() {
        let truth = NightMetricsTruth(bouts: [
            (.wake, 23 * 60 + 30), (.light, 47 * 60), (.deep, 41 * 60 + 30), (.wake, 30 * 60 + 30), (.light, 52 * 60 + 30),
            (.rem, 56 * 60 + 30), (.wake, 61 * 60 + 30), (.light, 77 * 60), (.rem, 40 * 60 + 30), (.wake, 109 * 60 + 30),
        ])
        #expect(truth.totalSeconds == 540 * 60)
        // Awakenings of 30.5 and 61.5 min: a 46-min minimum stays > 15 min away from both.
        let options = NightMetrics.Options(persistentSleepMinutes: 5, minimumAwakeningMinutes: 46)
        let exact = NightMetrics.compute(stages: truth.hypnogram(epochSeconds: 30), epochSeconds: 30, options: options)
        // Truth computed by hand from the bouts.
        #expect(exact.sleepOnsetLatencyMinutes == 23.5)
        #expect(exact.totalSleepMinutes == 47 + 41.5 + 52.5 + 56.5 + 77 + 40.5)
        #expect(exact.wakeAfterSleepOnsetMinutes == 30.5 + 61.5)
        #expect(exact.finalWakeMinutes == 109.5)
        #expect(exact.awakenings == 2 && exact.awakeningsAtLeastMinimum == 1)
        let sleepWakeBoundaries = 6.0  // W|S, S|W, W|S, S|W, W|S, S|W
        for epoch in [60, 600, 900] {
            let halfMinutes = Double(epoch) / 120
            let m = NightMetrics.compute(stages: truth.hypnogram(epochSeconds: epoch), epochSeconds: Double(epoch), options: options)
            #expect(m.timeInBedMinutes == exact.timeInBedMinutes)
            #expect(abs(m.totalSleepMinutes - exact.totalSleepMinutes) <= sleepWakeBoundaries * halfMinutes)
            #expect(abs(m.sleepOnsetLatencyMinutes! - exact.sleepOnsetLatencyMinutes!) <= halfMinutes)
            #expect(abs(m.persistentSleepLatencyMinutes! - exact.persistentSleepLatencyMinutes!) <= halfMinutes)
            #expect(abs(m.sleepPeriodMinutes - exact.sleepPeriodMinutes) <= 2 * halfMinutes)
            #expect(abs(m.wakeAfterSleepOnsetMinutes! - exact.wakeAfterSleepOnsetMinutes!) <= 4 * halfMinutes)
            #expect(abs(m.finalWakeMinutes! - exact.finalWakeMinutes!) <= halfMinutes)
            #expect(abs(m.sleepEfficiencyPercent! - exact.sleepEfficiencyPercent!)
                    <= 100 * sleepWakeBoundaries * halfMinutes / exact.timeInBedMinutes)
            #expect(m.awakenings == exact.awakenings)
            #expect(m.awakeningsAtLeastMinimum == exact.awakeningsAtLeastMinimum)
            #expect(m.sleepToWakeTransitions == exact.sleepToWakeTransitions)
            // Each stage has 4 boundaries at most (light: 3 bouts → ≤ 6).
            #expect(abs(m.stages!.lightMinutes - exact.stages!.lightMinutes) <= 6 * halfMinutes)
            #expect(abs(m.stages!.deepMinutes - exact.stages!.deepMinutes) <= 2 * halfMinutes)
            #expect(abs(m.stages!.remMinutes - exact.stages!.remMinutes) <= 4 * halfMinutes)
            let tstBoundError = sleepWakeBoundaries * halfMinutes
            let sfiBound = Double(exact.sleepToWakeTransitions) * 60
                * (1 / (exact.totalSleepMinutes - tstBoundError) - 1 / exact.totalSleepMinutes)
            #expect(abs(m.sleepFragmentationIndexPerHour! - exact.sleepFragmentationIndexPerHour!) <= sfiBound + 1e-12)
        }
    }

    /// Lights off/on inside an interval: only the overlapping part counts.
    @Test func lightsBoundsCutIntervals() throws {
        let hypnogram: [SleepWake] = [.wake, .sleep, .sleep, .wake]  // 15-min intervals
        let m = NightMetrics.compute(sleepWake: hypnogram, epochSeconds: 900, lightsOffSeconds: 300, lightsOnSeconds: 3300)
        #expect(m.timeInBedMinutes == 50)
        #expect(m.sleepOnsetLatencyMinutes == 10)
        #expect(m.totalSleepMinutes == 30)
        #expect(m.sleepPeriodMinutes == 30)
        #expect(m.wakeAfterSleepOnsetMinutes == 0)
        #expect(m.finalWakeMinutes == 10)
        #expect(m.awakenings == 0 && m.sleepToWakeTransitions == 1)
        #expect(m.sleepFragmentationIndexPerHour == 2)
        #expect(m.sleepEfficiencyPercent == 60)
        // Bounds beyond the hypnogram are clipped to it.
        let clipped = NightMetrics.compute(sleepWake: hypnogram, epochSeconds: 900, lightsOffSeconds: -600, lightsOnSeconds: 99_999)
        #expect(clipped.timeInBedMinutes == 60)
        // Lights on before the first sleep: no sleep inside TIB.
        let early = NightMetrics.compute(sleepWake: hypnogram, epochSeconds: 900, lightsOnSeconds: 900)
        #expect(early.totalSleepMinutes == 0 && early.sleepOnsetLatencyMinutes == nil)
    }

    @Test func noSleepAndEmptyNights() {
        let awake = NightMetrics.compute(sleepWake: Array(repeating: .wake, count: 20), epochSeconds: 60)
        #expect(awake.timeInBedMinutes == 20 && awake.totalSleepMinutes == 0)
        #expect(awake.sleepEfficiencyPercent == 0)
        #expect(awake.sleepMaintenanceEfficiencyPercent == nil)
        #expect(awake.sleepOnsetLatencyMinutes == nil && awake.persistentSleepLatencyMinutes == nil)
        #expect(awake.wakeAfterSleepOnsetMinutes == nil && awake.sleepFragmentationIndexPerHour == nil)
        #expect(awake.awakenings == 0)
        let empty = NightMetrics.compute(stages: [], epochSeconds: 30)
        #expect(empty.timeInBedMinutes == 0 && empty.sleepEfficiencyPercent == nil)
        #expect(empty.stages?.lightPercent == nil)
        // Sleep runs shorter than the persistent-sleep length do not start persistent sleep.
        let fragmented: [SleepWake] = [.wake, .sleep, .sleep, .wake, .sleep, .sleep, .sleep, .sleep, .sleep, .sleep]
        let f = NightMetrics.compute(sleepWake: fragmented, epochSeconds: 60)
        #expect(f.sleepOnsetLatencyMinutes == 1 && f.persistentSleepLatencyMinutes == 4)
        let strict = NightMetrics.compute(sleepWake: fragmented, epochSeconds: 60,
                                          options: .init(persistentSleepMinutes: 10))
        #expect(strict.persistentSleepLatencyMinutes == nil)
    }
}
