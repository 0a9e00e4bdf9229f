/// Every sleep period of a wrist recording's day besides the main one (``WearableNightMethod``):
/// the other half of a split night, a night worker's second sleep, a nap, and the sleep of an
/// earlier day that runs on past this day's start.
///
/// **The physical reasons, before the rules.**
/// - Asleep, muscle tone falls and the forearm lies at one angle for minutes on end between
///   posture changes; awake and still (reading, a film, a desk), the arm is held by muscle tone and
///   posture is kept actively, so the wrist moves by a few degrees every minute or two (a page, the
///   face, a cup, the mouse). A sleep outside the main period is therefore built from sustained
///   inactivity, no change of angle-z above 5° for 5 min (van Hees et al. 2015), which still wake
///   makes only in short, broken bouts: the bouts of a sleep must fill ``minimumSleepFraction`` of
///   its sleep period, at least ``minimumRestFraction`` of it must be rest by HDCZA's low change
///   of angle-z at the day's own threshold (van Hees et al. 2018), GGIR's other signal of rest, and
///   it may hold at most ``maximumChangesPerHour`` changes of angle above 5° an hour (a sleeper
///   shifts posture a few times an hour; the adjustments of still wake come every minute or two).
/// - Bouts with wake between them are one sleep while the wake is brief (under
///   ``maximumGapMinutes``: the brief awakenings inside sleep last minutes) and nobody got up:
///   lying awake in bed moves the wrist little, while being up and about keeps ENMO above GGIR's
///   light-activity threshold (`threshold.lig`, 40 mg) minute after minute; ``upAndAboutMinutes``
///   of it (the bathroom and back is less) keep two bouts apart. The main period keeps GGIR's
///   window (HDCZA joins its blocks up to 60 min apart, `spt_max_gap_dur`), cut only where someone
///   got up inside it (``pieces(of:in:rest:)``): a split night is two periods.
/// - A nap needs at least ``SleepPeriod/napMinimumSleepMinutes`` of sleep (GGIR part 5's
///   `possible_nap_dur` starts at 15 min; Sundararajan et al. 2021 and the nap literature treat
///   shorter rests as unreliable at the wrist). Nothing here looks at the time of day: shift
///   workers sleep by day and nap in the evening.
/// - A sleep belongs to the day of its onset. Sleep already under way at the day's start (in its
///   first ``carriedLeadMinutes``) began the day before: it is carried, not a period of this day.
/// - A nap's time in bed is its sleep period (the bouts' first start to last end): no diary says
///   when the sleeper lay down.
///
/// Onset and wake of each period follow GGIR part 4 as for the main period: the start of the first
/// and the end of the last sustained inactivity bout of the sleep.
public struct WearableDayPeriods {
    /// Wake shorter than this joins two sustained inactivity bouts into one sleep (minutes): the
    /// brief awakenings of sleep last minutes; wake of half an hour ends a nap. (GGIR joins HDCZA's
    /// blocks up to 60 min apart, `spt_max_gap_dur`, which the main period keeps.)
    public static let maximumGapMinutes = 30.0
    /// Share of a period's SPT that must be HDCZA rest (the day's threshold).
    public static let minimumRestFraction = 0.5
    /// Most changes of angle-z above 5° (epoch to epoch) an hour of a sleep outside the main period
    /// may hold: a sleeper shifts posture a few times an hour (De Koninck et al. 1992), awake and
    /// still the arm is adjusted every minute or two.
    public static let maximumChangesPerHour = 12.0
    /// GGIR `threshold.lig`: ENMO (g) at or above which an epoch is active.
    public static let activeENMOG: Float = 0.040
    /// Active minutes in a gap that mean someone got up (``WearableDayPeriods``).
    public static let upAndAboutMinutes = 20.0
    /// Share of a period's SPT that sustained inactivity must fill outside the main period.
    public static let minimumSleepFraction = 0.7
    /// Sleep under way this soon after the day's start was begun the day before (minutes).
    public static let carriedLeadMinutes = 5.0

    /// The rules' part of the method's parameters key: a change derives stored nights again.
    public static let key = "day-periods(rest>=\(minimumRestFraction),gap<\(Int(maximumGapMinutes))min,up\(Int(upAndAboutMinutes))min@\(Int(activeENMOG * 1000))mg,sib>=\(minimumSleepFraction),changes<=\(Int(maximumChangesPerHour))/h,carried\(Int(carriedLeadMinutes))min,diary-rows)"

    static let E = WearableEpochs.epochSeconds
    static func epochs(_ minutes: Double) -> Int { Int(minutes * 60) / E }

    /// The judged epochs from the day's start to the end of what the night holds (the window and
    /// the 6 h after it, so a period that began in the day can end after it).
    public let e: WearableEpochs
    public let window: NightWindow
    /// HDCZA's rest per epoch at the day's threshold, invalid epochs never at rest.
    let rest: [Bool]
    /// Sustained inactivity per epoch (van Hees 2015); nil where invalid.
    let states: [SleepWake?]

    /// - Parameters:
    ///   - epochs: judged epochs (non-wear as the method decided) starting at the window's start.
    ///   - threshold: HDCZA's threshold of the day (degrees), so that rest means what it means for
    ///     the main period; NaN (a diary guided the night) computes it as HDCZA does.
    public init(epochs: WearableEpochs, window: NightWindow, threshold: Double, states: [SleepWake?]) {
        let e = epochs
        self.e = e; self.window = window; self.states = Self.withLeadingBout(states, e)
        let angles = (0..<e.count).map { e.hasData($0) ? Double(e.angleZ[$0]) : 0 }
        let x = HDCZA.changeStatistic(angles, WearableNightMethod.hdcza)
        var t = threshold
        if !t.isFinite {
            let day = Array(x.prefix(Int(window.durationSeconds) / Self.E))
            t = min(max(PeriodsRollingWindow.quantile(day, probability: 0.10) * 15, 0.13), 0.50)
        }
        rest = (0..<e.count).map { e.isValid($0) && x[$0] < t }
    }

    /// `states` with the day's leading stillness scored as a bout: van Hees 2015 scores the
    /// stretches between two changes of angle above 5°, so stillness that began before the day's
    /// start (sleep under way at noon) is not a bout until its first change. Where the epochs from
    /// the day's start to that change are all valid and last more than 5 min, they hold no change
    /// above 5° for more than 5 min: the definition's bout, and carried sleep if it is sleep.
    static func withLeadingBout(_ states: [SleepWake?], _ e: WearableEpochs) -> [SleepWake?] {
        var result = states
        var c = 0
        while c + 1 < e.count && e.isValid(c) && e.isValid(c + 1)
                && abs(Double(e.angleZ[c + 1] - e.angleZ[c])) <= WearableNightMethod.angleThresholdDegrees { c += 1 }
        guard c >= epochs(WearableNightMethod.timeThresholdMinutes), c < result.count else { return result }
        for k in 0...c { result[k] = .sleep }
        return result
    }

    /// Changes of angle-z above 5° from one valid epoch to the next within `r`.
    func changes(_ r: Range<Int>) -> Int {
        r.dropLast().reduce(0) { n, k in
            n + (e.isValid(k) && e.isValid(k + 1) && abs(Double(e.angleZ[k + 1] - e.angleZ[k])) > WearableNightMethod.angleThresholdDegrees ? 1 : 0)
        }
    }

    /// Whether epochs `gap` hold someone up and about: ``upAndAboutMinutes`` of active epochs.
    static func isUpAndAbout(_ e: WearableEpochs, _ gap: Range<Int>) -> Bool {
        var active = 0
        for k in gap where e.hasData(k) && e.enmo[k] >= activeENMOG { active += 1 }
        return active >= epochs(upAndAboutMinutes)
    }

    /// HDCZA's window cut where someone got up inside it: the pieces, in time order. A window
    /// without such a gap is returned whole, so the main period of a night nobody left stays GGIR's.
    static func pieces(of span: EpochSpan, in e: WearableEpochs, rest: (Int) -> Bool) -> [EpochSpan] {
        var result: [EpochSpan] = [], start = span.startEpoch, k = span.startEpoch
        while k < span.endEpoch {
            guard !rest(k) else { k += 1; continue }
            var j = k
            while j < span.endEpoch && !rest(j) { j += 1 }
            if k > start && j < span.endEpoch && isUpAndAbout(e, k..<j) {
                result.append(EpochSpan(startEpoch: start, endEpoch: k)); start = j
            }
            k = j
        }
        result.append(EpochSpan(startEpoch: start, endEpoch: span.endEpoch))
        return result
    }

    /// Candidate sleeps: runs of sustained inactivity joined across wake shorter than
    /// ``maximumGapMinutes`` in which nobody got up.
    func sleepBlocks() -> [EpochSpan] {
        var runs: [EpochSpan] = [], k = 0
        while k < states.count {
            guard states[k] == .sleep else { k += 1; continue }
            var j = k
            while j < states.count && states[j] == .sleep { j += 1 }
            runs.append(EpochSpan(startEpoch: k, endEpoch: j))
            k = j
        }
        var blocks: [EpochSpan] = []
        for r in runs {
            if let last = blocks.last, r.startEpoch - last.endEpoch < Self.epochs(Self.maximumGapMinutes),
               !Self.isUpAndAbout(e, last.endEpoch..<r.startEpoch) {
                blocks[blocks.count - 1] = EpochSpan(startEpoch: last.startEpoch, endEpoch: r.endEpoch)
            } else {
                blocks.append(r)
            }
        }
        return blocks
    }

    /// Sleep in a block: onset and wake (epochs), sleep, wake and unscored epochs between them and
    /// the awakenings; nil when no sustained inactivity bout overlaps the block.
    struct Sleep { var onset: Int, wake: Int, sleep: Int, awake: Int, awakenings: Int }
    func sleep(in block: EpochSpan) -> Sleep? {
        guard let (on, wk) = WearableNightAnalysis.onsetAndWake(states, window: block) else { return nil }
        let t = WearableNightAnalysis.tally(states, on..<wk)
        return Sleep(onset: on, wake: wk, sleep: t.sleep, awake: t.wake, awakenings: t.awakenings)
    }

    /// A period the sleep diary names besides the main one (``DiaryPeriodGuide``): the row is its
    /// time in bed, and onset and wake follow GGIR part 4 as for a diary-guided main period (the
    /// first and last sustained inactivity bout that overlaps it). A `nap` row is a nap; another
    /// `sleep` row is secondary from ``SleepPeriod/secondaryMinimumMinutes`` of sleep period, else a
    /// nap. Nil when no bout overlaps the row: the diary names a sleep the wrist did not record.
    public func diaryPeriod(_ g: DiaryPeriodGuide) -> SleepPeriod? {
        func index(_ utc: Int64) -> Int { max(0, min(e.count, Int(LocalClock.floorDiv(utc - e.startUTC, Int64(Self.E))))) }
        let from = index(g.startUTC), to = index(g.endUTC)
        guard to > from, let s = sleep(in: EpochSpan(startEpoch: from, endEpoch: to)) else { return nil }
        var p = period(s, inBed: (min(g.startUTC, e.epochStartUTC(s.onset)), max(g.endUTC, e.epochStartUTC(s.wake))), source: .diary)
        if g.kind == .nap { p.kind = .nap }
        return p
    }

    /// The period of `s` with time in bed `inBed` (UTC): secondary or nap by its SPT, the metrics
    /// of a night's (TST and WASO from the bouts' epochs, efficiency = TST / time in bed).
    func period(_ s: Sleep, inBed: (Int64, Int64), source: SleepPeriodSource) -> SleepPeriod {
        let Es = Double(Self.E) / 60
        let onUTC = e.epochStartUTC(s.onset), wkUTC = e.epochStartUTC(s.wake)
        let spt = Double(wkUTC - onUTC) / 60, tst = Double(s.sleep) * Es, tib = Double(inBed.1 - inBed.0) / 60
        return SleepPeriod(kind: SleepPeriod.otherKind(sleepPeriodMinutes: spt), source: source, inBedStartUTC: inBed.0, inBedEndUTC: inBed.1,
                           sleepOnsetUTC: onUTC, wakeTimeUTC: wkUTC, sleepPeriodMinutes: spt, totalSleepTimeMinutes: tst,
                           wasoMinutes: Double(s.awake) * Es, awakenings: s.awakenings, sleepEfficiencyPercent: tib > 0 ? tst / tib * 100 : 0)
    }

    /// What the day holds besides its main period.
    public struct Found: Sendable {
        /// The other periods (secondary, nap) with onset in the day, in time order.
        public var periods: [SleepPeriod]
        /// The end (UTC) of sleep carried from the day before, nil when the day began awake.
        public var carriedUntilUTC: Int64?
    }

    /// The day's other periods: rest blocks with enough sleep that neither overlap `main` (the
    /// main period's time in bed, UTC) nor began the day before.
    public func find(main: (from: Int64, to: Int64)?) -> Found {
        var found = Found(periods: [], carriedUntilUTC: nil)
        let dayEnd = window.endUTC, lead = Self.epochs(Self.carriedLeadMinutes)
        let Es = Double(Self.E) / 60
        for block in sleepBlocks() {
            guard let s = sleep(in: block) else { continue }
            let onUTC = e.epochStartUTC(s.onset), wkUTC = e.epochStartUTC(s.wake)
            if block.startEpoch < lead && e.startUTC <= window.startUTC {
                found.carriedUntilUTC = wkUTC
                continue
            }
            guard onUTC < dayEnd else { continue }
            let inBed = (min(e.epochStartUTC(block.startEpoch), onUTC), max(e.epochStartUTC(block.endEpoch), wkUTC))
            if let m = main, inBed.0 < m.to && m.from < inBed.1 { continue }
            let spt = Double(wkUTC - onUTC) / 60, tst = Double(s.sleep) * Es
            let atRest = (s.onset..<s.wake).reduce(0) { $0 + (rest[$1] ? 1 : 0) }
            guard tst >= SleepPeriod.napMinimumSleepMinutes, tst >= Self.minimumSleepFraction * spt,
                  Double(atRest) >= Self.minimumRestFraction * Double(s.wake - s.onset),
                  Double(changes(s.onset..<s.wake)) <= Self.maximumChangesPerHour * spt / 60 else { continue }
            found.periods.append(period(s, inBed: inBed, source: .data))
        }
        return found
    }
}
