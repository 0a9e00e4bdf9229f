import Testing
import SleepCore

/// Gaps that touch the sleep period (``SleepPeriodGaps``), the caution they give a night, the
/// export's flags, and no data apart from not worn in every method: TST + WASO + no data + not
/// worn = SPT.
@Suite("Gaps touching the sleep period, and not worn apart from no data")
struct SleepPeriodGapsTests {
    static let t0: Int64 = 1_718_366_400   // 2024-06-14 12:00 UTC

    /// 60-s epochs from `t0`, one letter each: S sleep, W wake, - no state; a space is an epoch
    /// missing from the list (a hole in the grid).
    static func epochs(_ pattern: String) -> [ScoredEpoch] {
        pattern.enumerated().compactMap { i, c in
            c == " " ? nil : ScoredEpoch(startUTC: t0 + Int64(i) * 60, activity: c == "-" ? .nan : 1,
                                         state: c == "S" ? .sleep : c == "W" ? .wake : nil)
        }
    }

    /// A scored epoch-file night of `pattern` with its sleep period `[onset, wake)` in epochs.
    static func night(_ pattern: String, onset: Int, wake: Int, status: NightStatus = .scored) -> NightAnalysis {
        let m = NightSummaryMetrics(resolutionSeconds: 60, inBedStartUTC: t0, inBedEndUTC: t0 + Int64(pattern.count) * 60,
                                    sleepOnsetUTC: t0 + Int64(onset) * 60, wakeTimeUTC: t0 + Int64(wake) * 60,
                                    timeInBedMinutes: Double(pattern.count), sleepPeriodMinutes: Double(wake - onset),
                                    totalSleepTimeMinutes: 0, sleepOnsetLatencyMinutes: Double(onset), wakeAfterSleepOnsetMinutes: 0,
                                    sleepEfficiencyPercent: 0, awakenings: 0, lightMinutes: 0, deepMinutes: 0, awakeMinutes: 0)
        return NightAnalysis(status: status, parameters: AnalysisParameters(), intervals: [], epochs: epochs(pattern), wakeThreshold: nil,
                             metrics: status == .scored ? m : nil, kind: .epochFile)
    }

    static let S10 = String(repeating: "S", count: 10), W10 = String(repeating: "W", count: 10)
    static let gap15 = String(repeating: "-", count: 15), gap10 = String(repeating: "-", count: 10)

    @Test("gaps: every span without a state, a hole in the grid included, from the first epoch's start to the last one's end")
    func gaps() {
        let e = Self.epochs("--SS" + Self.gap15 + "SW   SS-")
        let gaps = SleepPeriodGaps.gaps(e, epochSeconds: 60).map { [($0.startUTC - Self.t0) / 60, ($0.endUTC - Self.t0) / 60] }
        #expect(gaps == [[0, 2], [4, 19], [21, 24], [26, 27]])
        #expect(SleepPeriodGaps.gaps([], epochSeconds: 60).isEmpty)
    }

    @Test("a gap of more than 10 min at wake time, inside, or at onset gives the caution; one of 10 min does not")
    func caution() {
        // Sleep 0–10, a 15-min gap 10–25: the period ends where the gap begins (MMASH user 2's shape).
        #expect(SleepPeriodGaps.note(for: Self.night(Self.S10 + Self.gap15 + Self.W10, onset: 0, wake: 10))
                == .gapInSleepPeriod(longestGapSeconds: 900, place: .atWake, gaps: 1))
        // Inside: sleep, 15-min gap, sleep (then 10 min of wake, so the end of the data is not near).
        #expect(SleepPeriodGaps.note(for: Self.night(Self.S10 + Self.gap15 + Self.S10 + Self.W10, onset: 0, wake: 35))
                == .gapInSleepPeriod(longestGapSeconds: 900, place: .inside, gaps: 1))
        // At onset, with 9 min of scored wake between the gap and onset: touches.
        let W9 = String(repeating: "W", count: 9)
        #expect(SleepPeriodGaps.note(for: Self.night(Self.W10 + Self.gap15 + W9 + Self.S10, onset: 34, wake: 44))
                == .gapInSleepPeriod(longestGapSeconds: 900, place: .atOnset, gaps: 1))
        // 10 min between: does not touch.
        #expect(SleepPeriodGaps.note(for: Self.night(Self.W10 + Self.gap15 + Self.W10 + Self.S10, onset: 35, wake: 45)) == nil)
        // At wake time, 2 min missing and 3 scored between (MMASH user 2's shape): the 16-min gap
        // touches; the 2-min one is too short to count.
        #expect(SleepPeriodGaps.note(for: Self.night(Self.S10 + "--WWW" + Self.gap15 + "-" + Self.W10, onset: 0, wake: 10))
                == .gapInSleepPeriod(longestGapSeconds: 960, place: .atWake, gaps: 1))
        // A gap of exactly 10 min is not more than 10 min.
        #expect(SleepPeriodGaps.note(for: Self.night(Self.S10 + Self.gap10 + Self.S10, onset: 0, wake: 30)) == nil)
        // Two gaps: the longest is named, both counted.
        #expect(SleepPeriodGaps.note(for: Self.night(Self.S10 + Self.gap15 + Self.S10 + Self.gap15 + "-----" + Self.S10 + Self.W10, onset: 0, wake: 65))
                == .gapInSleepPeriod(longestGapSeconds: 1200, place: .inside, gaps: 2))
        // Not scored: no caution.
        #expect(SleepPeriodGaps.note(for: Self.night(Self.S10 + Self.gap15, onset: 0, wake: 10, status: .noSleepFound)) == nil)
    }

    @Test("the caution goes at the end of the notes, once however often it is applied; the status stays scored")
    func cautionedOnce() {
        var a = Self.night(Self.S10 + Self.gap15 + Self.W10, onset: 0, wake: 10)
        a.notes = [.timeInBedFromDiary(source: "d.csv row 2")]
        let once = SleepPeriodGaps.cautioned(a), twice = SleepPeriodGaps.cautioned(once)
        #expect(once.notes == [.timeInBedFromDiary(source: "d.csv row 2"), .gapInSleepPeriod(longestGapSeconds: 900, place: .atWake, gaps: 1)])
        #expect(twice == once && once.status == .scored)
        #expect(SleepPeriodGaps.cautioned(Self.night(Self.S10 + Self.S10, onset: 0, wake: 20)).notes.isEmpty)
    }

    @Test("flags: stable codes in declaration order, from the notes; empty without")
    func flags() {
        let notes: [NightNote] = [.ggirDaySleeper, .ggirOwnClock, .gapInSleepPeriod(longestGapSeconds: 900, place: .inside, gaps: 1)]
        #expect(NightFlag.flags(notes) == [.gapInSleepPeriod, .daySleeper])
        #expect(NightFlag.column(notes) == "gap-in-sleep-period;day-sleeper")
        #expect(NightFlag.column([.daySleeper]) == "day-sleeper")
        #expect(NightFlag.column([.timeInBedFromDiary(source: "d")]) == "time-in-bed-from-diary")
        #expect(NightFlag.column([.noRestBlock]) == "")
        // From the recording: a phone night without diary or rest period is the whole file in bed.
        #expect(NightFlag.column([], kind: .phoneInBed) == "whole-file-as-time-in-bed")
        #expect(NightFlag.column([.mainRestPeriod(coveredSeconds: 1, restSeconds: 1)], kind: .phoneInBed) == "main-rest-period")
        #expect(NightFlag.column([.daySleeper], kind: .wearable24h) == "day-sleeper")
        #expect(NightFlag.column([.ggirClockChange(back: true, day: CivilDate(iso: "2024-10-27")!, shiftAfterSeconds: 3600)]) == "clock-change")
        #expect(NightFlag.allCases.map(\.rawValue) == ["gap-in-sleep-period", "day-sleeper", "sleep-under-way-at-day-start",
                                                       "whole-file-as-time-in-bed", "time-in-bed-from-diary", "main-rest-period",
                                                       "clock-change", "overlaps-other-recording"], "codes are a contract: only ever appended")
        #expect(NightFlag.column([.daySleeper], overlapsOtherRecording: true) == "day-sleeper;overlaps-other-recording")
    }

    @Test("overlap: sleep periods of two recordings of one participant that share time, both flagged; touching, the same recording or another participant are not")
    func sleepPeriodOverlap() {
        typealias P = SleepPeriodOverlap.Period
        let h: Int64 = 3600
        let periods = [
            P(id: 1, participant: "p", recording: "wrist", onsetUTC: 0, wakeUTC: 8 * h),
            P(id: 2, participant: "p", recording: "phone", onsetUTC: 7 * h, wakeUTC: 9 * h),      // shares 07:00-08:00 with 1
            P(id: 3, participant: "p", recording: "phone", onsetUTC: 9 * h, wakeUTC: 10 * h),     // touches 2's end: same recording anyway
            P(id: 4, participant: "p", recording: "wrist", onsetUTC: 10 * h, wakeUTC: 11 * h),    // touches 3's end: no shared time
            P(id: 5, participant: "q", recording: "other", onsetUTC: 0, wakeUTC: 11 * h),         // another participant
            P(id: 6, participant: "p", recording: "wrist", onsetUTC: 24 * h, wakeUTC: 32 * h),
            P(id: 7, participant: "p", recording: "wrist", onsetUTC: 25 * h, wakeUTC: 26 * h),    // same recording (another analysis)
            P(id: 8, participant: "p", recording: "watch", onsetUTC: 31 * h, wakeUTC: 31 * h),    // empty period: never overlaps
            P(id: 9, participant: "p", recording: "copy", onsetUTC: 30 * h, wakeUTC: 40 * h),     // inside 6's period, from 30 h
        ]
        #expect(SleepPeriodOverlap.overlapping(periods) == [1, 2, 6, 9])
        // Order of the input does not matter.
        #expect(SleepPeriodOverlap.overlapping(periods.reversed()) == [1, 2, 6, 9])
        #expect(SleepPeriodOverlap.overlapping([]) == [])
    }

    // MARK: TST + WASO + no data + not worn = SPT, method by method

    /// An Actiwatch export (60-s counts): awake until 22:00 and from 07:00, asleep in between except
    /// a 15-min awakening at 03:30; the file's REST interval 22:00–07:00; its off-wrist channel set
    /// 02:00–02:30 (not worn); no values 04:30–04:50 (no data).
    static func actiwatchNight() -> NightData {
        let n = 24 * 60
        func minute(_ h: Int, _ m: Int) -> Int { ((h + 12) % 24) * 60 + m }   // from 12:00
        var activity = [Double](repeating: 0, count: n), rest = [Double](repeating: 0, count: n), off = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let asleep = i >= minute(22, 0) && i < minute(7, 0) && !(i >= minute(3, 30) && i < minute(3, 45))
            activity[i] = asleep ? Double(i % 3) : Double(150 + (i * 37) % 200)
            rest[i] = i >= minute(22, 0) && i < minute(7, 0) ? 1 : 0
            off[i] = i >= minute(2, 0) && i < minute(2, 30) ? 1 : 0
        }
        for i in minute(4, 30)..<minute(4, 50) { activity[i] = .nan }
        let series = EpochNightSeries(format: "actiware-csv", startUTC: t0, epochSeconds: 60, count: n, columns: [
            .init(name: "activity", sourceName: "Activity", unit: "counts", values: activity),
            .init(name: "rest_interval", sourceName: "Interval Status", unit: "flag", values: rest),
            .init(name: "off_wrist", sourceName: "Off-Wrist Status", unit: "flag", values: off),
        ])
        let window = NightWindow(date: CivilDate(year: 2024, month: 6, day: 14), startUTC: t0, endUTC: t0 + 86_400)
        return NightData(window: window, timeline: UTCOffsetTimeline(initialOffsetSeconds: 0), series: .empty(startSecond: t0),
                         epochFile: series)
    }

    @Test("epoch file: the off-wrist half hour is not worn, the 20 missing minutes are no data; the sum is SPT; the night carries the caution")
    func epochFileIdentity() throws {
        let a = EpochFileNightMethod().analyzeNight(Self.actiwatchNight(), parameters: AnalysisParameters())
        #expect(a.status == .scored, "\(a.notes)")
        let m = try #require(a.metrics)
        #expect(m.notWornInSleepPeriodMinutes == 30)
        #expect(m.noDataInSleepPeriodMinutes == 20)
        #expect(m.totalSleepTimeMinutes + m.wakeAfterSleepOnsetMinutes + 20 + 30 == m.sleepPeriodMinutes)
        #expect(a.epochFile?.nonWearMinutes == 30)
        #expect(a.notes.last == .gapInSleepPeriod(longestGapSeconds: 1800, place: .inside, gaps: 2))
        #expect(a.status == .scored)
    }

    @Test("wearable: GGIR's test_HASPT night: the sum is SPT exactly; the non-wear right after the sleep period is a gap at wake time")
    func wearableIdentity() throws {
        let (night, _) = WearableMethodTests.ggirNight()
        let a = WearableNightMethod().analyzeNight(night, parameters: AnalysisParameters())
        #expect(a.status == .scored, "\(a.notes)")
        let m = try #require(a.metrics)
        let noData = try #require(m.noDataInSleepPeriodMinutes), notWorn = try #require(m.notWornInSleepPeriodMinutes)
        #expect(m.totalSleepTimeMinutes + m.wakeAfterSleepOnsetMinutes + noData + notWorn == m.sleepPeriodMinutes,
                "\(m.totalSleepTimeMinutes) + \(m.wakeAfterSleepOnsetMinutes) + \(noData) + \(notWorn) vs \(m.sleepPeriodMinutes)")
        #expect(noData == 0 && notWorn == 0, "\(noData), \(notWorn)")
        #expect(m.totalSleepTimeMinutes == m.sleepPeriodMinutes && a.wearable?.invalidInSptMinutes == 0)
        // The invalid stretch from 5399 (where the period ends) is a gap at wake time.
        guard case .gapInSleepPeriod(let longest, .atWake, _)? = a.notes.last else { Issue.record("\(a.notes)"); return }
        #expect(longest >= 2400 * 5)
    }

    @Test("wearable: an unscored epoch is not worn when it has samples and its unscored run holds non-wear; otherwise no data")
    func wearableUnscoredKinds() {
        let (night, _) = WearableMethodTests.ggirNight()
        var steps = WearableNightAnalysis(night: night, parameters: AnalysisParameters(), stored: night.epochs!)
        // Epochs: 0 sleep; 1 no samples; 2 non-wear; 3 samples beside it, unscored (a fragment);
        // 4 sleep; 5 samples, unscored (a count window across a gap); 6 sleep; 7–8 no samples; 9 sleep.
        let samples: [UInt16] = [500, 0, 500, 500, 500, 500, 500, 0, 0, 500]
        let nonWear = [false, false, true, false, false, false, false, false, false, false]
        steps.range = WearableEpochs(startUTC: night.window.startUTC, enmo: .init(repeating: 0.01, count: 10), angleZ: .init(repeating: 0, count: 10),
                                     mad: .init(repeating: 0.01, count: 10), sampleCounts: samples, nonWear: nonWear)
        let states: [SleepWake?] = [.sleep, nil, nil, nil, .sleep, nil, .sleep, nil, nil, .sleep]
        let split = steps.unscored(states, from: 0, to: 10)
        #expect(split.notWorn == 2 && split.noData == 4, "\(split)")
        #expect(steps.unscored(states, from: 4, to: 7) == (noData: 1, notWorn: 0))
    }

    @Test("phones: not worn is 0, the 45-minute gap is no data; the sum is SPT to within one interval")
    func phoneIdentity() throws {
        let window = NightSplitter.window(for: CivilDate(year: 2024, month: 6, day: 14), timeline: berlin2024)
        var s = SyntheticNight.series()
        for i in (100 * 60)..<(145 * 60) { s.sampleCounts[i] = 0; s.movement[i] = .nan }
        s.legacyMovement = s.movement
        let a = SleepPeriodGaps.cautioned(NightAnalyzer.analyze(series: s, window: window, parameters: AnalysisParameters()))
        let m = try #require(a.metrics)
        let noData = try #require(m.noDataInSleepPeriodMinutes)
        #expect(m.notWornInSleepPeriodMinutes == 0)
        #expect(abs(m.totalSleepTimeMinutes + m.wakeAfterSleepOnsetMinutes + noData - m.sleepPeriodMinutes) <= 10,
                "\(m.totalSleepTimeMinutes) + \(m.wakeAfterSleepOnsetMinutes) + \(noData) vs \(m.sleepPeriodMinutes)")
        #expect(a.notes.last == .gapInSleepPeriod(longestGapSeconds: 45 * 60, place: .inside, gaps: 1))
    }
}
