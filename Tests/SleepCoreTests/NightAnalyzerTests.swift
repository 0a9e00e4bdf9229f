import Testing
import SleepCore

/// A synthetic night whose truth is known: awake 20 min, asleep, a 20-minute awakening,
/// asleep, awake the last 10 min. Sleep seconds carry sensor noise; wake seconds movement.
struct SyntheticNight {
    static let start: Int64 = 1_718_359_200 + 10 * 3600 + 1200 // 22:20 local (+02:00)
    static let solMinutes = 20
    static let awakeningStartMinute = 250
    static let awakeningMinutes = 20
    static let totalMinutes = 480
    static let finalWakeMinutes = 10

    static func isAwake(minute m: Int) -> Bool {
        m < solMinutes || (m >= awakeningStartMinute && m < awakeningStartMinute + awakeningMinutes) || m >= totalMinutes - finalWakeMinutes
    }

    static func series() -> SecondSeries {
        var state: UInt64 = 42
        func noise() -> Float { state = state &* 6364136223846793005 &+ 1442695040888963407; return Float(state >> 40) / Float(1 << 24) }
        var m = [Float]()
        for s in 0..<(totalMinutes * 60) {
            let awake = isAwake(minute: s / 60)
            m.append(awake ? 0.05 + 0.1 * noise() : 0.001 + 0.002 * noise())
        }
        return SecondSeries(startSecond: start, movement: m, legacyMovement: m, sampleCounts: .init(repeating: 1, count: m.count))
    }
}

@Suite("Night analysis")
struct NightAnalyzerTests {
    let window = NightSplitter.window(for: CivilDate(year: 2024, month: 6, day: 14), timeline: berlin2024)

    @Test("metrics of a known night are within one interval of the truth, at 10 and 15 minutes", arguments: [600, 900])
    func knownNight(intervalSeconds: Int) throws {
        var p = AnalysisParameters()
        p.interval = IntervalLength(seconds: intervalSeconds)!
        let a = NightAnalyzer.analyze(series: SyntheticNight.series(), window: window, parameters: p)
        #expect(a.status == .scored)
        let m = try #require(a.metrics)
        let resolution = Double(intervalSeconds) / 60
        let n = SyntheticNight.self
        #expect(m.timeInBedMinutes == Double(n.totalMinutes))
        #expect(abs(m.sleepOnsetLatencyMinutes! - Double(n.solMinutes)) <= resolution)   // onset snaps to intervals
        let trueTST = Double(n.totalMinutes - n.solMinutes - n.awakeningMinutes - n.finalWakeMinutes)
        #expect(abs(m.totalSleepTimeMinutes - trueTST) <= resolution + 4)
        #expect(abs(m.wakeAfterSleepOnsetMinutes - Double(n.awakeningMinutes)) <= resolution + 4)
        #expect(m.awakenings == 1, "\(a.intervals.map { ($0.movement.startUTC - SyntheticNight.start) / 60 }) \(a.intervals.map { $0.state?.letter ?? "-" }) onset \((m.sleepOnsetUTC! - SyntheticNight.start) / 60) wake \((m.wakeTimeUTC! - SyntheticNight.start) / 60)")
        #expect(abs(m.sleepEfficiencyPercent - 100 * m.totalSleepTimeMinutes / m.timeInBedMinutes) < 1e-9)
        #expect(abs(m.lightMinutes + m.deepMinutes - m.totalSleepTimeMinutes) < 1e-9)
        #expect(a.intervals.allSatisfy { $0.movement.durationSeconds == intervalSeconds })
    }

    @Test("identical inputs give identical analyses")
    func deterministic() {
        let a = NightAnalyzer.analyze(series: SyntheticNight.series(), window: window, parameters: AnalysisParameters())
        let b = NightAnalyzer.analyze(series: SyntheticNight.series(), window: window, parameters: AnalysisParameters())
        #expect(a == b)
    }

    @Test("scaling the movement (other units, other phone) does not change the scoring")
    func scaleInvariance() {
        let s = SyntheticNight.series()
        var scaled = s
        scaled.movement = s.movement.map { $0 * 9.80665 }
        let a = NightAnalyzer.analyze(series: s, window: window, parameters: AnalysisParameters())
        let b = NightAnalyzer.analyze(series: scaled, window: window, parameters: AnalysisParameters())
        #expect(a.epochs.map(\.state) == b.epochs.map(\.state))
        #expect(a.metrics?.totalSleepTimeMinutes == b.metrics?.totalSleepTimeMinutes)
    }

    @Test("a night with too little data is marked, not scored")
    func insufficientData() {
        let s = SyntheticNight.series().slice(from: SyntheticNight.start, to: SyntheticNight.start + 3600)
        let a = NightAnalyzer.analyze(series: s, window: window, parameters: AnalysisParameters())
        #expect(a.status == .insufficientData)
        #expect(a.metrics == nil)
        #expect(a.intervals.count == 6)   // still charted
    }

    @Test("the Oakley weighting and relative threshold, by hand")
    func scorerByHand() {
        // Median activity 1; factor 4: an isolated 3 → 3 + 0.2 + 0.2 + 0.04 + 0.04 = 3.48 ≤ 4 → sleep;
        // a 4 → 4.48 > 4 → wake; its neighbours get 1 + 0.2·4 + ... = 2.04 → sleep.
        let activity: [Double] = [1, 1, 1, 1, 3, 1, 1, 1, 4, 1, 1, 1, .nan]
        let (states, threshold) = PhoneSleepScorer.score(activity: activity, thresholdFactor: 4)
        #expect(threshold == 4)
        #expect(states[4] == .sleep)
        #expect(states[8] == .wake)
        #expect(states[7] == .sleep && states[9] == .sleep)
        #expect(states[12] == nil)
    }

    @Test("persistent sleep needs a run of the given length")
    func persistentSleep() {
        let S = SleepWake.sleep, W = SleepWake.wake
        let states: [SleepWake?] = [W, S, S, W, S, S, S, S, W, W, S, S, S, W, S]
        #expect(NightAnalyzer.persistentSleepPeriod(states, minimumRun: 3) == 4..<13)
        #expect(NightAnalyzer.persistentSleepPeriod(states, minimumRun: 5) == nil)
    }
}

/// A night as the app exports it: 10-min totals that close at :05, :15 … (the app started at
/// 22:55), asleep throughout except one 10-min awakening, 04:15–04:25 local.
struct AppTotalsNight {
    static let start: Int64 = SyntheticNight.start + 35 * 60   // 22:55 local (+02:00)
    static let intervals = 48
    static let awakeInterval = 32                                   // 22:55 + 320 min = 04:15
    /// Per-second movement: sleep 1 mg; the awakening 8 mg, enough for its own epochs to be wake
    /// and too little for Oakley's weights to spill wake into the neighbouring epochs.
    static func series() -> SecondSeries {
        var m = [Float]()
        for k in 0..<intervals { m += Array(repeating: k == awakeInterval ? 0.008 : 0.001, count: 600) }
        return SecondSeries(startSecond: start, movement: m, legacyMovement: m, sampleCounts: .init(repeating: 1, count: m.count),
                            sourceResolutionSeconds: 600)
    }
}

@Suite("Interval grid of interval-total sources")
struct SourcePhaseGridTests {
    let window = NightSplitter.window(for: CivilDate(year: 2024, month: 6, day: 14), timeline: berlin2024)

    @Test("10-minute intervals follow the app's :05 totals, so a 10-minute awakening is not split into two sleep intervals")
    func tenMinutesFollowTheSource() throws {
        let a = NightAnalyzer.analyze(series: AppTotalsNight.series(), window: window, parameters: AnalysisParameters())
        let m = try #require(a.metrics)
        #expect(a.intervals.first?.movement.startUTC == AppTotalsNight.start)
        #expect(a.intervals.allSatisfy { ($0.movement.startUTC - AppTotalsNight.start) % 600 == 0 })
        #expect(m.awakenings == 1 && m.wakeAfterSleepOnsetMinutes == 10, "\(a.intervals.map { $0.state?.letter ?? "-" })")
        #expect(a.notes.isEmpty)
    }

    @Test("15-minute intervals cannot follow 10-minute totals: they stay on the clock and the night says why")
    func fifteenMinutesSayWhy() throws {
        var p = AnalysisParameters()
        p.interval = IntervalLength(seconds: 900)!
        let a = NightAnalyzer.analyze(series: AppTotalsNight.series(), window: window, parameters: p)
        #expect(a.intervals.allSatisfy { ($0.movement.startUTC - window.startUTC) % 900 == 0 })
        #expect(a.notes == [.intervalGridOffSource(intervalSeconds: 900, sourceSeconds: 600)], "\(a.notes)")
        #expect(try #require(a.metrics).awakenings == 1)
    }

    @Test("raw samples keep the clock grid through local noon")
    func rawSamplesKeepTheClock() {
        var s = AppTotalsNight.series()
        s.sourceResolutionSeconds = 1
        let a = NightAnalyzer.analyze(series: s, window: window, parameters: AnalysisParameters())
        #expect(a.intervals.allSatisfy { ($0.movement.startUTC - window.startUTC) % 600 == 0 })
        #expect(a.metrics?.awakenings == 0)   // the split this grid makes of the source's awakening
    }
}

@Suite("Gaps inside the sleep period")
struct SleepPeriodGapTests {
    let window = NightSplitter.window(for: CivilDate(year: 2024, month: 6, day: 14), timeline: berlin2024)

    /// The known night with 45 minutes of no data while asleep (minutes 100–145): the gap is
    /// neither sleep nor wake, so WASO and awakenings are those of the real awakening alone.
    @Test("a 45-minute gap while asleep is reported as no data, not counted as wake", arguments: [600, 900])
    func gapIsNotWake(intervalSeconds: Int) throws {
        var s = SyntheticNight.series()
        for i in (100 * 60)..<(145 * 60) { s.sampleCounts[i] = 0; s.movement[i] = .nan }
        s.legacyMovement = s.movement
        var p = AnalysisParameters()
        p.interval = IntervalLength(seconds: intervalSeconds)!
        let a = NightAnalyzer.analyze(series: s, window: window, parameters: p)
        let m = try #require(a.metrics)
        let resolution = Double(intervalSeconds) / 60
        #expect(m.awakenings == 1, "\(a.intervals.map { $0.state?.letter ?? "-" })")
        #expect(abs(m.wakeAfterSleepOnsetMinutes - Double(SyntheticNight.awakeningMinutes)) <= resolution + 4)
        let noData = try #require(m.noDataInSleepPeriodMinutes)
        #expect(noData > 45 - 2 * resolution && noData <= 45, "\(noData)")
        #expect(abs(m.sleepEfficiencyPercent - 100 * m.totalSleepTimeMinutes / (m.timeInBedMinutes - noData)) < 1e-9)
    }

    @Test("a night without gaps reports no minutes without data and keeps SE = TST / TIB")
    func noGap() throws {
        let m = try #require(NightAnalyzer.analyze(series: SyntheticNight.series(), window: window, parameters: AnalysisParameters()).metrics)
        #expect(m.noDataInSleepPeriodMinutes == 0)
        #expect(abs(m.sleepEfficiencyPercent - 100 * m.totalSleepTimeMinutes / m.timeInBedMinutes) < 1e-9)
    }
}
