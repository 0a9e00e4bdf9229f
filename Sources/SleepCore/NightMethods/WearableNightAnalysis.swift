/// One night of the wearable method (``WearableNightMethod``), in the steps its documentation lists:
/// valid data, the guider window (with GGIR's day-sleeper rerun), stillness at one attitude outside
/// it, sleep and wake, onset and wake-up, metrics. Each step cites its source where it is implemented.
package struct WearableNightAnalysis {
    let night: NightData
    let parameters: AnalysisParameters
    /// The night's epochs with still stretches that are a worn wrist taken as worn.
    let all: WearableEpochs
    let stillStretches: [StillWearCheck.Stretch]
    /// Stillness at one attitude the method adds to GGIR's non-wear: `[from, to)` UTC seconds.
    var laidDown: [[Int64]]
    /// The epochs the night is judged on (moved to 18:00 to 18:00 for a day sleeper).
    package var range: WearableEpochs
    var summary: WearableNightSummary
    /// The day's only rest block was sleep carried from the day before (``ownWindow(_:in:carried:)``).
    var carriedOnly = false

    var W: NightWindow { night.window }
    static let E = WearableEpochs.epochSeconds

    /// Step 1: still stretches that are a worn wrist are worn (the stored flags are GGIR's 2013
    /// rule's); a device laid down is non-wear for the whole time it lay there (``StillWearCheck``).
    let judgesStillness: Bool

    package init(night: NightData, parameters: AnalysisParameters, stored: WearableEpochs, judgesStillness: Bool = true) {
        self.night = night; self.parameters = parameters; self.judgesStillness = judgesStillness
        let (judged, stillStretches, grown) = judgesStillness ? StillWearCheck.applied(stored) : (stored, [], [])
        // The diary's non-wear rows: off the wrist, whatever the data and the still-wear check say.
        var all = judged
        all.markNotWorn(night.diaryNotWornUTC)
        self.all = all; self.stillStretches = stillStretches
        laidDown = grown.map { [all.epochStartUTC($0.lowerBound), all.epochStartUTC($0.upperBound)] }
        range = all.slice(from: night.window.startUTC, to: night.window.endUTC)
        summary = WearableNightSummary(epochs: range)
        summary = summarised(range)
    }

    /// The night's quality facts over `e`, with the still and laid-down stretches that lie in it.
    func summarised(_ e: WearableEpochs) -> WearableNightSummary {
        var s = WearableNightSummary(epochs: e)
        func within(_ span: [Int64]) -> [Int64]? {
            let from = max(span[0], e.startUTC), to = min(span[1], e.endUTC)
            return from < to ? [from, to] : nil
        }
        s.stillWornSpansUTC = stillStretches.filter(\.worn).compactMap { within([all.epochStartUTC($0.startEpoch), all.epochStartUTC($0.endEpoch)]) }
        let turns = stillStretches.filter(\.wornByTurns).compactMap { within([all.epochStartUTC($0.startEpoch), all.epochStartUTC($0.endEpoch)]) }
        s.stillBetweenTurnsSpansUTC = turns.isEmpty ? nil : turns
        s.laidDownSpansUTC = laidDown.compactMap(within)
        let diary = night.diaryNotWornUTC.compactMap(within)
        s.diaryNotWornSpansUTC = diary.isEmpty ? nil : diary
        s.temperatureDecides = StillWearCheck.isLive(all.temperature) ? true : nil
        return s
    }

    func result(_ status: NightStatus, _ notes: [NightNote], states: [SleepWake?]? = nil,
                metrics: NightSummaryMetrics? = nil, period: (Int64, Int64)? = nil) -> NightAnalysis {
        WearableNightResult(night: night, parameters: parameters, epochs: range)
            .make(status, notes, summary: summary, states: states, metrics: metrics, period: period)
    }

    /// The night's main period (steps 1 to 5), then every other sleep of its day and a class for
    /// each of its minutes (``WearableDayPeriods``).
    mutating func analyze() -> NightAnalysis {
        var a = analyzeMain()
        day(&a)
        return a
    }

    /// The day's periods (the main one first; none on a day without a main period, which is left
    /// out of the summaries) and minutes, from the window's start to the end of the night's epochs,
    /// with the non-wear the method judged.
    func day(_ a: inout NightAnalysis) {
        var e = all.slice(from: W.startUTC, to: max(W.endUTC, all.endUTC))
        let step = Int64(Self.E)
        for span in laidDown where span.count == 2 {
            let from = max(0, Int(LocalClock.floorDiv(span[0] - e.startUTC, step))), to = min(e.count, Int(LocalClock.floorDiv(span[1] - e.startUTC, step)))
            for k in from..<max(from, to) { e.nonWear[k] = true }
        }
        let main = a.status == .scored ? a.metrics.flatMap { SleepPeriod(main: $0, source: night.guide == nil ? .data : .diary) } : nil
        var others = WearableDayPeriods.Found(periods: [], carriedUntilUTC: nil)
        // A day left out (too few valid hours, no rest) has no periods: its minutes still get classes.
        if main != nil, case .success(let states) = sleepWake(e) {
            let finder = WearableDayPeriods(epochs: e, window: W, threshold: summary.hdczaThresholdDegrees ?? .nan, states: states)
            others = finder.find(main: main.map { ($0.inBedStartUTC, $0.inBedEndUTC) })
            // The diary's rows first: a period found in the data gives way to the row that names it.
            others.periods = SleepPeriod.others(night.diarySleeps.compactMap(finder.diaryPeriod) + others.periods, besides: main)
        }
        let periods = (main.map { [$0] } ?? []) + others.periods
        a.periods = periods.isEmpty ? nil : periods
        a.day = DayMinutes.wearable(window: W, epochs: e, laidDownUTC: laidDown, temperatureDecides: summary.temperatureDecides == true,
                                    periods: periods, carriedUntilUTC: others.carriedUntilUTC)
    }

    mutating func analyzeMain() -> NightAnalysis {
        if let refused = validData() { return refused }
        guard var spt = guider() else {
            return result(.noSleepFound, [carriedOnly ? .onlyCarriedSleep : .noRestBlock])
        }
        if night.guide == nil { spt = daySleeperRerun(spt) }
        markLaidDownOutside(spt)
        summary.hdczaThresholdDegrees = spt.threshold.isNaN ? nil : spt.threshold
        summary.guiderOnsetUTC = range.epochStartUTC(spt.span.startEpoch)
        summary.guiderWakeupUTC = range.epochStartUTC(spt.span.endEpoch)
        summary.nonWearNearWindowMinutes = WearableNightMethod.nonWearNear(spt.span, in: range)
        let states: [SleepWake?]
        switch sleepWake() {
        case .failure(let refused): return refused.analysis
        case .success(let s): states = s
        }
        guard let (on, wk) = Self.onsetAndWake(states, window: spt.span) else {
            return result(.noSleepFound, [.noBoutInWindow], states: states)
        }
        return metrics(states, onset: on, wake: wk)
    }

    /// Step 1's verdict: a night with less than 16 valid hours is `insufficient-data` (GGIR part 4's
    /// `includenightcrit = 16`), with the hours in its note; nothing is estimated.
    func validData() -> NightAnalysis? {
        let dataSeconds = (0..<range.count).reduce(0) { $0 + (range.hasData($1) ? Self.E : 0) }
        if dataSeconds > 0 && summary.validHours == 0 {
            return result(.insufficientData, [.notWornAllData(dataSeconds: dataSeconds)])
        }
        guard summary.validHours >= WearableNightMethod.minimumValidHours else {
            return result(.insufficientData, [.tooFewValidHours(validHours: summary.validHours, nightSeconds: Int(W.durationSeconds),
                                                                requiredHours: WearableNightMethod.minimumValidHours)])
        }
        return nil
    }

    /// Step 2: the guider window: a sleep diary row (GGIR's `sleeplog` guider) when `--diary` gives
    /// one for this night, else HDCZA on angle-z (van Hees et al. 2018).
    mutating func guider() -> SleepPeriodTimeWindow? {
        let E64 = Int64(Self.E)
        if let g = night.guide {
            let from = max(0, min(range.count, Int(LocalClock.floorDiv(g.startUTC - range.startUTC, E64))))
            let to = max(0, min(range.count, Int(LocalClock.floorDiv(g.endUTC - range.startUTC, E64))))
            if to > from {
                summary.guider = "sleeplog (\(g.source))"
                return SleepPeriodTimeWindow(span: EpochSpan(startEpoch: from, endEpoch: to), threshold: .nan, candidateBlocks: [])
            }
        }
        guard let found = WearableNightMethod.guider(range) else { return nil }
        summary.guider = "HDCZA"
        let own = Self.ownWindow(found, in: range, carried: range.startUTC == W.startUTC)
        carriedOnly = own == nil
        return own
    }

    /// HDCZA's window made the day's own: cut where someone got up inside it (a split night is two
    /// periods, the longer one main; ``WearableDayPeriods``), and, when it holds sleep under way at
    /// the day's start (`carried`: the epochs start with the day), another block instead: that sleep
    /// began the day before and is that day's. A night with one rest block and nobody up keeps
    /// GGIR's window as it is. Nil: the only rest of the day was carried.
    static func ownWindow(_ w: SleepPeriodTimeWindow, in e: WearableEpochs, carried: Bool) -> SleepPeriodTimeWindow? {
        let angles = (0..<e.count).map { e.hasData($0) ? Double(e.angleZ[$0]) : 0 }
        let x = HDCZA.changeStatistic(angles, WearableNightMethod.hdcza)
        let rest = { (k: Int) in e.isValid(k) && x[k] < w.threshold }
        let lead = WearableDayPeriods.epochs(WearableDayPeriods.carriedLeadMinutes)
        func longest(_ blocks: [EpochSpan]) -> EpochSpan? {
            let pieces = blocks.flatMap { WearableDayPeriods.pieces(of: $0, in: e, rest: rest) }
                .filter { !(carried && $0.startEpoch < lead) && $0.length > 0 }
            guard let most = pieces.map(\.length).max() else { return nil }
            return pieces.first { $0.length == most }
        }
        if let own = longest([w.span]), own == w.span { return w }
        guard let own = longest(w.candidateBlocks + [w.span]) else { return nil }
        return SleepPeriodTimeWindow(span: own, threshold: w.threshold, candidateBlocks: w.candidateBlocks)
    }

    /// GGIR (`g.sib.det`): the window's last epoch lies in the window's last hour (11:00 to noon,
    /// also on a 23- or 25-h DST night), up to the window's very end: HDCZA runs again on 18:00 to
    /// 18:00, and a window found there replaces it.
    mutating func daySleeperRerun(_ spt: SleepPeriodTimeWindow) -> SleepPeriodTimeWindow {
        guard spt.span.endEpoch >= range.count - 3600 / Self.E else { return spt }
        let startLocal = night.timeline.localSecond(atUTC: W.startUTC) + 6 * 3600
        let shifted = all.slice(from: night.timeline.utcSecond(atLocal: startLocal), to: night.timeline.utcSecond(atLocal: startLocal + 86_400))
        guard let later = WearableNightMethod.guider(shifted) else { return spt }
        range = shifted
        summary = summarised(range)
        summary.guider = "HDCZA"
        summary.daysleeper = true
        return later
    }

    /// Stillness at one attitude outside the window: a device laid down for a while (``StillWearCheck``).
    mutating func markLaidDownOutside(_ spt: SleepPeriodTimeWindow) {
        guard judgesStillness else { return }
        let shortRests = StillWearCheck.laidDownOutside(range, window: spt.span)
        guard !shortRests.isEmpty else { return }
        for r in shortRests { for i in r { range.nonWear[i] = true } }
        laidDown += shortRests.map { [range.epochStartUTC($0.lowerBound), range.epochStartUTC($0.upperBound)] }
        let (guider, daysleeper) = (summary.guider, summary.daysleeper)
        summary = summarised(range)
        summary.guider = guider; summary.daysleeper = daysleeper
    }

    struct Refused: Error { var analysis: NightAnalysis }

    /// Step 3: sustained inactivity bouts (van Hees 2015) or counts scored per minute (Cole–Kripke,
    /// Sadeh as ActiLife); invalid epochs are neither sleep nor wake.
    func sleepWake() -> Result<[SleepWake?], Refused> { sleepWake(range) }

    func sleepWake(_ range: WearableEpochs) -> Result<[SleepWake?], Refused> {
        let p = parameters
        switch p.sleepAlgorithm ?? .vanHees2015 {
        case .vanHees2015:
            let angles = (0..<range.count).map { range.hasData($0) ? Double(range.angleZ[$0]) : .nan }
            let sib = VanHees2015.score(angleZDegrees: angles, epochSeconds: Double(Self.E),
                                        timeThresholdMinutes: WearableNightMethod.timeThresholdMinutes,
                                        angleThresholdDegrees: WearableNightMethod.angleThresholdDegrees)
            return .success(WearableNightMethod.withoutNonWearFragments((0..<range.count).map { range.isValid($0) ? sib[$0] : nil }, range))
        case let choice:
            guard let scored = WearableNightMethod.countStates(range, algorithm: choice) else {
                return .failure(Refused(analysis: result(.unsuitable, [.noCountsForAlgorithm(choice)])))
            }
            return .success(scored)
        }
    }

    /// Step 4 (GGIR part 4, `relyonguider = FALSE`): the start of the first and the end of the last
    /// sleep run that overlaps the guider window, as epoch indices.
    static func onsetAndWake(_ states: [SleepWake?], window: EpochSpan) -> (Int, Int)? {
        var onset: Int? = nil, wake: Int? = nil
        var i = 0
        while i < states.count {
            guard states[i] == .sleep else { i += 1; continue }
            var j = i
            while j < states.count && states[j] == .sleep { j += 1 }
            if j > window.startEpoch && i < window.endEpoch {
                if onset == nil { onset = i }
                wake = j
            }
            i = j
        }
        guard let onset, let wake else { return nil }
        return (onset, wake)
    }

    /// Step 5: metrics in GGIR's part-4 names and the AASM/yasa names, with the guider window as
    /// time in bed; invalid minutes inside the sleep period count in neither sleep nor WASO, and
    /// are reported as no data and not worn apart (``unscored(_:from:to:)``). Every epoch of
    /// `[onset, wake)` is one of sleep, wake, no data or not worn, so TST + WASO + no data + not
    /// worn = SPT exactly.
    mutating func metrics(_ states: [SleepWake?], onset on: Int, wake wk: Int) -> NightAnalysis {
        let E = Double(Self.E)
        let t = Self.tally(states, on..<wk)
        let (sleepEpochs, wakeEpochs, invalidEpochs, awakenings) = (t.sleep, t.wake, t.unscored, t.awakenings)
        let split = unscored(states, from: on, to: wk)
        let onsetUTC = range.epochStartUTC(on), wakeUTC = range.epochStartUTC(wk)
        let inBedStart = min(summary.guiderOnsetUTC!, onsetUTC), inBedEnd = max(summary.guiderWakeupUTC!, wakeUTC)
        let tst = Double(sleepEpochs) * E / 60, waso = Double(wakeEpochs) * E / 60
        let spMinutes = Double(wakeUTC - onsetUTC) / 60, tib = Double(inBedEnd - inBedStart) / 60
        summary.sleepOnsetUTC = onsetUTC; summary.wakeupUTC = wakeUTC
        summary.sptDurationMinutes = spMinutes
        summary.sleepDurationInSptMinutes = tst
        summary.wasoMinutes = waso
        summary.numberOfAwakenings = awakenings
        summary.invalidInSptMinutes = Double(invalidEpochs) * E / 60
        let metrics = NightSummaryMetrics(
            resolutionSeconds: Self.E, inBedStartUTC: inBedStart, inBedEndUTC: inBedEnd,
            sleepOnsetUTC: onsetUTC, wakeTimeUTC: wakeUTC, timeInBedMinutes: tib, sleepPeriodMinutes: spMinutes,
            totalSleepTimeMinutes: tst, sleepOnsetLatencyMinutes: Double(onsetUTC - inBedStart) / 60,
            wakeAfterSleepOnsetMinutes: waso, sleepEfficiencyPercent: tib > 0 ? tst / tib * 100 : 0, awakenings: awakenings,
            lightMinutes: 0, deepMinutes: 0, awakeMinutes: waso,
            sleepMaintenanceEfficiencyPercent: spMinutes > 0 ? tst / spMinutes * 100 : nil,
            sleepFragmentationIndexPerHour: tst > 0 ? Double(awakenings + 1) / (tst / 60) : nil,
            noDataInSleepPeriodMinutes: Double(split.noData) * E / 60,
            notWornInSleepPeriodMinutes: Double(split.notWorn) * E / 60)
        return result(.scored, summary.daysleeper ? [.daySleeper] : [], states: states, metrics: metrics, period: (onsetUTC, wakeUTC))
    }

    /// Sleep, wake and unscored epochs of a sleep period's epochs, and its awakenings: wake runs
    /// that follow sleep (an unscored epoch neither ends nor starts one).
    struct Tally { var sleep = 0, wake = 0, unscored = 0, awakenings = 0 }
    static func tally(_ states: [SleepWake?], _ r: Range<Int>) -> Tally {
        var t = Tally()
        var previous: SleepWake? = nil
        for k in r {
            guard let s = states[k] else { t.unscored += 1; continue }
            if s == .sleep { t.sleep += 1 } else { t.wake += 1; if previous == .sleep { t.awakenings += 1 } }
            previous = s
        }
        return t
    }

    /// The unscored epochs of `[from, to)` in two kinds: not worn, and no data. An unscored epoch is
    /// not worn when it has samples and its run of unscored epochs holds an epoch with samples
    /// flagged non-wear: the flagged epochs themselves, a sleep fragment beside them left unscored
    /// (``WearableNightMethod/withoutNonWearFragments(_:_:)``), a count minute whose scoring window
    /// reached into them. Every other unscored epoch is no data: without samples, or unscored only
    /// because its neighbours have none (a count scorer's window across a gap).
    package func unscored(_ states: [SleepWake?], from: Int, to: Int) -> (noData: Int, notWorn: Int) {
        var noData = 0, notWorn = 0, k = from
        while k < to {
            guard states[k] == nil else { k += 1; continue }
            var j = k
            while j < to && states[j] == nil { j += 1 }
            let offWrist = (k..<j).contains { range.hasData($0) && range.nonWear[$0] }
            for i in k..<j { if offWrist && range.hasData(i) { notWorn += 1 } else { noData += 1 } }
            k = j
        }
        return (noData, notWorn)
    }
}
