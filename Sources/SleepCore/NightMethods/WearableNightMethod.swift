/// The wearable method: one night (noon to noon, local clock) of a wrist accelerometer worn day
/// and night, analysed with GGIR's default chain from the 5-s milestone (``WearableEpochs``).
///
/// Steps, in the order of the science (each cites its source where it is implemented):
/// 1. **Valid data.** Epochs with samples and not flagged non-wear (``EpochStillnessNonWear``, GGIR's
///    2013 rule), except still stretches at skin temperature or, without a temperature channel,
///    whose angle keeps changing a little back and forth, or whose stillness a turn joins to
///    another still posture (for at most 2 h), which are a still sleeper's worn wrist,
///    not a device laid down (``StillWearCheck``); a device laid
///    down is non-wear for all the time it lay still. A night with less than 16 valid hours is
///    `insufficient-data` (GGIR part 4's `includenightcrit = 16`), with the hours in the reason;
///    nothing is estimated.
/// 2. **Sleep period time window (the guider).** ``HDCZA`` on angle-z (van Hees et al. 2018, GGIR
///    `HASPT.algo = "HDCZA"`), GGIR's defaults. Invalid epochs count as movement
///    (`HASPT.ignore.invalid = TRUE`): GGIR's default judges them on values it imputes from other
///    days, which sleepsta does not do, so a still table or a gap can never become a sleep window.
///    **Day sleepers:** when the window ends in its last hour (from 11:00 up to noon), HDCZA runs
///    again on 18:00 to 18:00, as GGIR does.
/// 3. **Sleep/wake.** Sustained inactivity bouts of ``VanHees2015`` (5° / 5 min, van Hees et al.
///    2015) on angle-z; invalid epochs are neither sleep nor wake. `--sleep-algorithm cole-kripke`
///    or `sadeh` score instead ActiGraph axis-1 counts computed from the raw samples
///    (``ActiGraphCountStream``: agcounts/ActiLife) per minute with ActiLife's Cole–Kripke or Sadeh
///    (``ColeKripke``, ``Sadeh``; as GGIR offers with `Sadeh_axis`); a minute without valid epochs is
///    missing, and each valid 5-s epoch takes its minute's label.
/// 4. **Sleep onset and wake-up** (GGIR part 4, `relyonguider = FALSE`): start of the first and end
///    of the last sustained inactivity bout that overlaps the guider window.
/// 5. **Metrics**, in GGIR's part-4 names (``WearableNightSummary``) and in the AASM/yasa names used
///    for phones (``NightSummaryMetrics``, with the guider window as time in bed). Invalid minutes
///    inside the sleep period are reported and counted in neither sleep nor WASO.
/// 6. **Movement phases** (awake / light / deep): intervals inside the sleep period, deep where the
///    interval's ENMO is at or below the night's quantile of sleep intervals. Movement-intensity
///    levels, not EEG stages.
public struct WearableNightMethod: NightAnalysisMethod {
    /// GGIR `includenightcrit`.
    public static let minimumValidHours = 16.0
    public static let hdcza = HDCZA.Parameters(invalidEpochs: .treatAsMovement)
    public static let angleThresholdDegrees = 5.0
    public static let timeThresholdMinutes = 5.0

    /// Whether still stretches are judged (``StillWearCheck``): false leaves GGIR's 2013 non-wear
    /// rule as it is, the chain GGIR runs with `nonwear_approach = "2013"`, for a comparison.
    public var judgesStillness = true

    public init(judgesStillness: Bool = true) { self.judgesStillness = judgesStillness }
    public var kind: RecordingKind { .wearable24h }
    public var algorithm: String { "ggir-hdcza-vanhees2015" }
    public func algorithm(_ p: AnalysisParameters) -> String {
        switch p.sleepAlgorithm ?? .vanHees2015 {
        case .vanHees2015: return algorithm
        case .coleKripke: return "ggir-hdcza-colekripke-actilife"
        case .sadeh: return "ggir-hdcza-sadeh-actilife"
        }
    }

    /// The page's line on how sleep and wake were told apart.
    public static func sleepWakeText(_ choice: SleepAlgorithmChoice?) -> String {
        switch choice ?? .vanHees2015 {
        case .vanHees2015:
            return "van Hees 2015: sustained inactivity, no angle-z change above \(Int(angleThresholdDegrees))° for more than \(Int(timeThresholdMinutes)) min"
        case .coleKripke:
            return "Cole–Kripke (Cole et al. 1992) with ActiLife's parameters on ActiGraph axis-1 (device y) counts per minute, computed from the raw samples as ActiLife does (Neishabouri et al. 2022, agcounts); --sleep-algorithm cole-kripke"
        case .sadeh:
            return "Sadeh (Sadeh et al. 1994) with ActiLife's parameters on ActiGraph axis-1 (device y) counts per minute, computed from the raw samples as ActiLife does (Neishabouri et al. 2022, agcounts); --sleep-algorithm sadeh"
        }
    }
    public var summary: String { summary(AnalysisParameters()) }
    public func summary(_ p: AnalysisParameters) -> String {
        let sleep: String
        switch p.sleepAlgorithm ?? .vanHees2015 {
        case .vanHees2015: sleep = "sleep by sustained inactivity (van Hees 2015, 5° / 5 min)"
        case .coleKripke: sleep = "sleep by Cole–Kripke as ActiLife on axis-1 counts per minute computed from the raw samples (agcounts)"
        case .sadeh: sleep = "sleep by Sadeh as ActiLife on axis-1 counts per minute computed from the raw samples (agcounts)"
        }
        return "wearable-24h: GGIR's chain on 5-s epochs — non-wear (van Hees 2013; still stretches are worn where the device's temperature holds at skin level, or, without a temperature channel, where the angle wanders or turns into another still posture; a device laid down is not worn while it lies still), sleep period window by HDCZA on angle-z (van Hees 2018), \(sleep), phases on ENMO"
    }

    public func parametersKey(_ p: AnalysisParameters) -> String {
        return "method=\(kind.rawValue);interval=\(p.interval.seconds)s;metrics=enmo+anglez+mad@5s;nonwear=ggir2013+\(StillWearCheck.key);"
            + "spt=hdcza-ggir+daysleeper(lasthour)+\(WearableDayPeriods.key);sleep=\(Self.sleepKey(p.sleepAlgorithm));"
            + "includenight=\(Self.minimumValidHours)h;deep=q\(p.deepQuantile)"
            + (p.diaryDigest.map { ";diary=\($0)" } ?? "")
    }

    /// Epochs of the hour before a guider window and of the half hour after it, beside the window
    /// itself, in which non-wear is reported (``WearableNightSummary/nonWearNearWindowMinutes``).
    static let nonWearLookBeforeEpochs = 3600 / WearableEpochs.epochSeconds
    static let nonWearLookAfterEpochs = 1800 / WearableEpochs.epochSeconds

    /// Minutes of non-wear (with data) from an hour before `span` to half an hour after it.
    static func nonWearNear(_ span: EpochSpan, in e: WearableEpochs) -> Double {
        let from = max(0, span.startEpoch - nonWearLookBeforeEpochs), to = min(e.count, span.endEpoch + nonWearLookAfterEpochs)
        guard from < to else { return 0 }
        let n = (from..<to).reduce(0) { $0 + (e.hasData($1) && e.nonWear[$1] ? 1 : 0) }
        return Double(n * WearableEpochs.epochSeconds) / 60
    }

    public func analyze(_ night: NightData, parameters p: AnalysisParameters) -> NightAnalysis {
        guard let stored = night.epochs, stored.count > 0 else {
            return NightAnalysis(status: .unsuitable, parameters: p, intervals: [], epochs: [], wakeThreshold: nil, metrics: nil,
                                 kind: kind, notes: [.wearableNoEpochs])
        }
        var steps = WearableNightAnalysis(night: night, parameters: p, stored: stored, judgesStillness: judgesStillness)
        return steps.analyze()
    }

    /// Sleep runs shorter than a bout (``timeThresholdMinutes``) beside non-wear, left unscored:
    /// the bout they belong to lies mostly in the non-wear, whose stillness began an epoch or two
    /// before the flag (the rolling median of angle-z straddles the moment a device is put down),
    /// so the fragment is the edge of a device laid down, not a sustained inactivity bout of its own.
    static func withoutNonWearFragments(_ states: [SleepWake?], _ e: WearableEpochs) -> [SleepWake?] {
        var result = states
        let shortest = Int(timeThresholdMinutes * 60) / WearableEpochs.epochSeconds
        func offWrist(_ k: Int) -> Bool { k >= 0 && k < e.count && e.hasData(k) && e.nonWear[k] }
        var i = 0
        while i < result.count {
            guard result[i] == .sleep else { i += 1; continue }
            var j = i
            while j < result.count && result[j] == .sleep { j += 1 }
            if j - i < shortest && (offWrist(i - 1) || offWrist(j)) { for k in i..<j { result[k] = nil } }
            i = j
        }
        return result
    }

    static func sleepKey(_ choice: SleepAlgorithmChoice?) -> String {
        switch choice ?? .vanHees2015 {
        case .vanHees2015: return "vanhees2015(\(angleThresholdDegrees)deg,\(timeThresholdMinutes)min,nonwear-fragments-unscored)"
        case .coleKripke: return "colekripke-actilife(axis1-counts-agcounts,60s)"
        case .sadeh: return "sadeh-actilife(axis1-counts-agcounts,60s)"
        }
    }

    /// Sleep/wake per 5-s epoch from ActiGraph axis-1 counts summed per UTC minute and scored with
    /// ActiLife's Cole–Kripke or Sadeh. A minute with no valid (worn, with data) epoch is missing
    /// (NaN: the scorers leave minutes whose window reaches it unscored); invalid epochs get no label.
    /// nil when the epochs carry no counts.
    static func countStates(_ e: WearableEpochs, algorithm: SleepAlgorithmChoice) -> [SleepWake?]? {
        guard let c = e.counts, e.count > 0 else { return nil }
        let firstMinute = LocalClock.floorDiv(e.startUTC, 60)
        let minutes = Int(LocalClock.floorDiv(e.endUTC - 1, 60) - firstMinute) + 1
        var sums = [Double](repeating: 0, count: minutes), valid = [Int](repeating: 0, count: minutes)
        func minute(_ i: Int) -> Int { Int(LocalClock.floorDiv(e.epochStartUTC(i), 60) - firstMinute) }
        for i in 0..<e.count where e.isValid(i) {
            sums[minute(i)] += Double(c.axis1[i]); valid[minute(i)] += 1
        }
        let perMinute = zip(sums, valid).map { $1 > 0 ? $0 : Double.nan }
        let labels = algorithm == .sadeh ? Sadeh.score(countsPerEpoch: perMinute, variant: .actilife)
                                         : ColeKripke.score(countsPerEpoch: perMinute, variant: .actilife, rescoring: nil)
        return (0..<e.count).map { e.isValid($0) ? labels[minute($0)] : nil }
    }

    static func guider(_ e: WearableEpochs) -> SleepPeriodTimeWindow? {
        let angles = e.angleZ.map(Double.init)
        let invalid = (0..<e.count).map { !e.isValid($0) }
        return HDCZA.detect(angleZ: angles, invalid: invalid, parameters: hdcza)
    }

    /// Intervals of `length` on the local-clock grid through `origin` over the epochs' span:
    /// movement = ENMO·s over valid epochs (so per minute it is ENMO in g·s/min; × 1000/60 for mg),
    /// the legacy column the base series' legacy formula, coverage = valid seconds, state = majority
    /// of the scored epochs (ties sleep, as for phones).
    static func intervals(_ e: WearableEpochs, base: SecondSeries, length: IntervalLength, origin: Int64,
                          states: [SleepWake?]?) -> [AnalyzedInterval] {
        guard e.count > 0 else { return [] }
        let legacy = IntervalAggregator.aggregate(base, length: length, gridOriginUTC: origin, fromUTC: e.startUTC, toUTC: e.endUTC)
        let E = WearableEpochs.epochSeconds
        var k = 0
        return legacy.map { iv in
            var sum = 0.0, covered = 0, sleep = 0, wake = 0
            while k < e.count && e.epochStartUTC(k) < iv.endUTC {
                if e.epochStartUTC(k) >= iv.startUTC && e.isValid(k) {
                    sum += Double(e.enmo[k]) * Double(E); covered += E
                    if let s = states?[k] { if s == .sleep { sleep += 1 } else { wake += 1 } }
                }
                k += 1
            }
            let movement = IntervalMovement(startUTC: iv.startUTC, endUTC: iv.endUTC, movementSum: sum,
                                            legacyMovementSum: iv.legacyMovementSum, coverageSeconds: covered)
            return AnalyzedInterval(movement: movement, state: sleep + wake > 0 ? (sleep >= wake ? .sleep : .wake) : nil, phase: nil)
        }
    }
}

/// What the wearable method found in one night, in GGIR part 4's names (its `part4_nightsummary`
/// columns), plus the night's data quality.
public struct WearableNightSummary: Sendable, Equatable, Codable {
    /// GGIR `guider`: what found the sleep period time window.
    public var guider: String? = nil
    /// GGIR `guider_onset` / `guider_wakeup` (UTC seconds).
    public var guiderOnsetUTC: Int64? = nil
    public var guiderWakeupUTC: Int64? = nil
    /// GGIR `sleeponset` / `wakeup` (UTC seconds).
    public var sleepOnsetUTC: Int64? = nil
    public var wakeupUTC: Int64? = nil
    /// GGIR `SptDuration` (minutes here; GGIR reports hours).
    public var sptDurationMinutes: Double? = nil
    /// GGIR `SleepDurationInSpt` (minutes).
    public var sleepDurationInSptMinutes: Double? = nil
    /// GGIR `WASO` (minutes).
    public var wasoMinutes: Double? = nil
    /// GGIR `number_of_awakenings`.
    public var numberOfAwakenings: Int? = nil
    /// GGIR `fraction_night_invalid`: share of the night's epochs without valid (worn) data.
    public var fractionNightInvalid: Double
    /// Invalid (non-wear or missing) minutes inside the sleep period: neither sleep nor wake.
    public var invalidInSptMinutes: Double? = nil
    /// Worn hours with data in the night window.
    public var validHours: Double
    public var nonWearMinutes: Double
    public var noDataMinutes: Double
    /// Minutes marked not worn inside the guider window, in the hour before it or the half hour
    /// after it: a sleeper lying still for an hour looks like a device off the wrist to GGIR's 2013
    /// rule, and such a stretch can move the window's start late (the night page says so).
    public var nonWearNearWindowMinutes: Double? = nil
    /// Stretches GGIR's 2013 rule flags as non-wear that were taken as worn, being still with the
    /// small back-and-forth changes of angle of a resting forearm (``StillWearCheck``): `[from, to)`
    /// UTC seconds within the night's epochs. Their epochs count as valid.
    public var stillWornSpansUTC: [[Int64]]? = nil
    /// The part of ``stillWornSpansUTC`` taken as worn for turns alone: stillness at one attitude
    /// that a turn joins to another still segment (``StillWearCheck``, a sleeper between posture
    /// changes), neither the temperature nor a wander of the angle deciding. Nil: none.
    public var stillBetweenTurnsSpansUTC: [[Int64]]? = nil
    /// Stillness at one attitude that the method added to GGIR's non-wear: the rest of the time a
    /// laid-down device lay there, and shorter rests outside the sleep window (``StillWearCheck``).
    public var laidDownSpansUTC: [[Int64]]? = nil
    /// The sleep diary's `nonwear` rows within the night's epochs: not worn, whatever the data say.
    public var diaryNotWornSpansUTC: [[Int64]]? = nil
    /// `e` with the non-wear flags as the method judged them: ``stillWornSpansUTC`` worn,
    /// ``laidDownSpansUTC`` and ``diaryNotWornSpansUTC`` not worn (the stored flags are GGIR's rule's).
    public func judgedNonWear(_ e: WearableEpochs) -> WearableEpochs {
        var result = e
        let step = Int64(WearableEpochs.epochSeconds)
        if invalidSpansUTC != nil { result.nonWear = .init(repeating: false, count: e.count) }
        for (spans, flag) in [(stillWornSpansUTC, false), (laidDownSpansUTC, true), (invalidSpansUTC, true), (diaryNotWornSpansUTC, true)] {
            for span in spans ?? [] where span.count == 2 {
                let from = max(0, Int((span[0] - e.startUTC + step - 1) / step)), to = min(e.count, Int((span[1] - e.startUTC + step - 1) / step))
                for k in from..<max(from, to) { result.nonWear[k] = flag }
            }
        }
        return result
    }
    /// Whether a live temperature channel judged the still stretches (``StillWearCheck``); nil when
    /// the recording has none (the angle judged them).
    public var temperatureDecides: Bool? = nil
    /// The method's own invalid (not worn) stretches, replacing the stored flags altogether where
    /// given: GGIR parity's blocks after its `g.weardec` clean-up (``GGIRNightMethod``).
    public var invalidSpansUTC: [[Int64]]? = nil
    /// GGIR `daysleeper`: the window was searched from 18:00 to 18:00.
    public var daysleeper = false
    /// HDCZA's threshold on the change in angle-z (degrees).
    public var hdczaThresholdDegrees: Double? = nil

    package init(epochs e: WearableEpochs) {
        let E = Double(WearableEpochs.epochSeconds)
        var valid = 0, nonWear = 0, noData = 0
        for i in 0..<e.count {
            if !e.hasData(i) { noData += 1 } else if e.nonWear[i] { nonWear += 1 } else { valid += 1 }
        }
        validHours = Double(valid) * E / 3600
        nonWearMinutes = Double(nonWear) * E / 60
        noDataMinutes = Double(noData) * E / 60
        fractionNightInvalid = e.count > 0 ? Double(e.count - valid) / Double(e.count) : 1
    }
}
