/// Tudor-Locke et al. (2014) sleep-period detection on already-scored sleep/wake epochs,
/// with ActiLife's per-period sleep statistics.
///
/// **Source.** C. Tudor-Locke, T. V. Barreira, J. M. Schuna Jr, E. F. Mire, P. T. Katzmarzyk,
/// "Fully automated waist-worn accelerometer algorithm for detecting children's sleep-period
/// time separate from 24-h physical activity or sedentary behaviors", *Appl. Physiol. Nutr.
/// Metab.* 39(1):53–57, 2014. Bedtime is the first of `bedtimeStartMinutes` consecutive
/// minutes scored asleep; wake time is the first of `wakeTimeEndMinutes` consecutive minutes
/// scored awake after it; the block in between is a sleep period if it lasts at least
/// `minSleepPeriodMinutes` (160) and at most `maxSleepPeriodMinutes` (1440).
///
/// **Behaviour reproduced.** ActiLife 6 (ActiLife 6 User's Manual, 2012) as pinned down by
/// actigraph.sleepr 0.2.0 (`apply_tudor_locke`, dipetkov/actigraph.sleepr), whose test
/// compares with ActiLife's exported sleep periods. On runs of equal labels:
/// 1. an awake run shorter than the wake-time definition, or an asleep run shorter than the
///    bedtime definition, takes the label of the run before it (a leading short run counts
///    as awake);
/// 2. consecutive runs with the same resulting label form blocks; an asleep block shorter
///    than `minSleepPeriodMinutes` is discarded, as is one with fewer than
///    `minNonzeroEpochs` epochs of non-zero counts or longer than `maxSleepPeriodMinutes`;
/// 3. ``EndOfRecording/dropOpenPeriods`` (ActiLife): a block that runs into the end of the
///    recording is dropped, because no wake time closes it (sleepr keeps it; its test
///    filters these out before comparing).
///
/// Statistics per period, as ActiLife reports them (minutes and percent):
/// in-bed = onset = first epoch, latency = 0 (by Tudor-Locke's definition), duration,
/// total sleep time = minutes in asleep runs, wake after onset = duration − TST,
/// awakenings = number of awake runs, average awakening = WASO / awakenings (0 if none),
/// total counts, movement index = 100 × epochs with count > 0 / epochs,
/// fragmentation index = 100 × one-minute asleep runs / asleep runs,
/// sleep fragmentation index = movement index + fragmentation index (ActiLife adds the two
/// *rounded* indices, see ``TudorLockeSleepPeriod/sleepFragmentationIndexActiLifePercent``),
/// efficiency = 100 × TST / duration.
///
/// Not reproduced: sleepr documents that ActiLife sometimes drops a period whose non-zero
/// epoch count equals `minNonzeroEpochs` exactly (cause unknown); none occurs in the
/// reference data.
public enum TudorLockeSleepPeriods {
    /// What to do with a sleep block that is still open when the recording ends.
    public enum EndOfRecording: String, Sendable, Hashable, Codable, CaseIterable {
        /// ActiLife: drop it (it has no wake time).
        case dropOpenPeriods
        /// actigraph.sleepr: keep it, ending at the last epoch.
        case keepOpenPeriods
    }

    /// Tudor-Locke parameters. Defaults are ActiLife's "Tudor-Locke Default".
    public struct Parameters: Sendable, Hashable, Codable {
        /// Bedtime definition: consecutive asleep minutes that start a period (5).
        public var bedtimeStartMinutes: Int
        /// Wake-time definition: consecutive awake minutes that end a period (10).
        public var wakeTimeEndMinutes: Int
        /// Shortest sleep period (160 min).
        public var minSleepPeriodMinutes: Int
        /// Longest sleep period (1440 min).
        public var maxSleepPeriodMinutes: Int
        /// Fewest epochs with count > 0 inside a period (0).
        public var minNonzeroEpochs: Int
        /// Treatment of a period still open at the end of the recording.
        public var endOfRecording: EndOfRecording

        public init(bedtimeStartMinutes: Int = 5, wakeTimeEndMinutes: Int = 10, minSleepPeriodMinutes: Int = 160,
                    maxSleepPeriodMinutes: Int = 1440, minNonzeroEpochs: Int = 0,
                    endOfRecording: EndOfRecording = .dropOpenPeriods) {
            precondition(bedtimeStartMinutes >= 1 && wakeTimeEndMinutes >= 1 && minSleepPeriodMinutes >= 0
                         && maxSleepPeriodMinutes >= minSleepPeriodMinutes && minNonzeroEpochs >= 0,
                         "invalid Tudor-Locke parameters")
            self.bedtimeStartMinutes = bedtimeStartMinutes
            self.wakeTimeEndMinutes = wakeTimeEndMinutes
            self.minSleepPeriodMinutes = minSleepPeriodMinutes
            self.maxSleepPeriodMinutes = maxSleepPeriodMinutes
            self.minNonzeroEpochs = minNonzeroEpochs
            self.endOfRecording = endOfRecording
        }

        /// ActiLife's "Tudor-Locke Default": 5 / 10 / 160 / 1440 / 0.
        public static let actiLifeDefault = Parameters()
    }

    /// Detects sleep periods in scored epochs.
    ///
    /// - Parameters:
    ///   - sleepWake: one label per epoch (from Sadeh, Cole–Kripke or any scorer).
    ///   - counts: the activity counts of the same epochs (ActiLife uses axis 1; finite); used
    ///     for total counts, the movement index and `minNonzeroEpochs`.
    ///   - epochSeconds: epoch length; ActiLife runs this on 60-s epochs. Must divide 60.
    ///     Minute parameters are converted to epochs, statistics are reported in minutes, and
    ///     the fragmentation index counts asleep runs lasting at most one minute.
    public static func detect(sleepWake: [SleepWake], counts: [Double], epochSeconds: Int = 60,
                              parameters: Parameters = .actiLifeDefault) -> [TudorLockeSleepPeriod] {
        precondition(sleepWake.count == counts.count, "one count per scored epoch")
        precondition(counts.allSatisfy(\.isFinite), "Tudor-Locke needs finite counts")
        precondition(epochSeconds > 0 && 60 % epochSeconds == 0, "epochSeconds must divide 60")
        let perMinute = 60 / epochSeconds
        let bedtimeEpochs = parameters.bedtimeStartMinutes * perMinute
        let wakeEpochs = parameters.wakeTimeEndMinutes * perMinute
        let minEpochs = parameters.minSleepPeriodMinutes * perMinute
        let maxEpochs = parameters.maxSleepPeriodMinutes * perMinute

        let runs = PeriodsRunLength.runs(sleepWake)
        // Step 1: short runs take the previous run's (already resolved) label.
        var resolved: [SleepWake] = []
        resolved.reserveCapacity(runs.count)
        for (index, run) in runs.enumerated() {
            let isShort = run.value == .wake ? run.length < wakeEpochs : run.length < bedtimeEpochs
            resolved.append(isShort ? (index == 0 ? .wake : resolved[index - 1]) : run.value)
        }

        var periods: [TudorLockeSleepPeriod] = []
        var first = 0
        while first < runs.count {
            var last = first
            while last + 1 < runs.count && resolved[last + 1] == resolved[first] { last += 1 }
            defer { first = last + 1 }
            guard resolved[first] == .sleep else { continue }
            let start = runs[first].start
            let end = runs[last].end
            let length = end - start
            guard length >= minEpochs, length <= maxEpochs else { continue }
            if parameters.endOfRecording == .dropOpenPeriods && end == sleepWake.count { continue }

            var sleepEpochs = 0, awakenings = 0, sleepBouts = 0, oneMinuteBouts = 0
            for run in runs[first...last] {
                if run.value == .sleep {
                    sleepEpochs += run.length
                    sleepBouts += 1
                    if run.length <= perMinute { oneMinuteBouts += 1 }
                } else {
                    awakenings += 1
                }
            }
            var totalCounts = 0.0
            var nonzeroEpochs = 0
            for epoch in start..<end {
                totalCounts += counts[epoch]
                if counts[epoch] > 0 { nonzeroEpochs += 1 }
            }
            guard nonzeroEpochs >= parameters.minNonzeroEpochs else { continue }
            periods.append(TudorLockeSleepPeriod(
                span: EpochSpan(startEpoch: start, endEpoch: end), epochSeconds: epochSeconds,
                sleepEpochs: sleepEpochs, awakenings: awakenings, sleepBouts: sleepBouts,
                oneMinuteSleepBouts: oneMinuteBouts, totalCounts: totalCounts, nonzeroEpochs: nonzeroEpochs))
        }
        return periods
    }

    /// Sleep periods in epochs of which some have no data (`nil` label or NaN count), the one rule
    /// that `run` (time in bed of ActiGraph-count nights) and `periods` share.
    ///
    /// ActiLife's data has no gaps, so ActiLife has no rule for them. Here an epoch without data is
    /// left out of the runs: it neither starts, continues nor ends a run of sleep or wake, so a
    /// gap inside a night is not an awakening and a gap after it is not sleep. Periods are found on
    /// the epochs with data and mapped back to the clock: in bed at the first epoch of the period,
    /// out of bed after its last; the epochs without data between them are counted
    /// (``TudorLockeSleepPeriod/epochsWithoutData``) and are neither sleep nor wake. The shortest
    /// and longest period apply to the time elapsed (gaps included): a 160-min night with a 20-min
    /// gap is a sleep period.
    public static func detect(states: [SleepWake?], counts: [Double], epochSeconds: Int = 60,
                              parameters: Parameters = .actiLifeDefault) -> [TudorLockeSleepPeriod] {
        precondition(states.count == counts.count, "one count per epoch")
        let kept = states.indices.filter { states[$0] != nil && counts[$0].isFinite }
        // The shortest and longest period are time elapsed between bedtime and wake time (clock
        // minutes, gaps included), so they are applied after mapping back.
        var onKept = parameters
        onKept.minSleepPeriodMinutes = 0
        onKept.maxSleepPeriodMinutes = Int.max / 120
        let found = detect(sleepWake: kept.map { states[$0]! }, counts: kept.map { counts[$0] },
                           epochSeconds: epochSeconds, parameters: onKept)
        let perMinute = 60 / epochSeconds
        return found.compactMap { p in
            let length = kept[p.span.endEpoch - 1] + 1 - kept[p.span.startEpoch]
            guard length >= parameters.minSleepPeriodMinutes * perMinute, length <= parameters.maxSleepPeriodMinutes * perMinute else { return nil }
            let start = kept[p.span.startEpoch], end = kept[p.span.endEpoch - 1] + 1
            var mapped = TudorLockeSleepPeriod(span: EpochSpan(startEpoch: start, endEpoch: end), epochSeconds: p.epochSeconds,
                                               sleepEpochs: p.sleepEpochs, awakenings: p.awakenings, sleepBouts: p.sleepBouts,
                                               oneMinuteSleepBouts: p.oneMinuteSleepBouts, totalCounts: p.totalCounts,
                                               nonzeroEpochs: p.nonzeroEpochs)
            mapped.epochsWithoutData = (end - start) - p.span.length
            return mapped
        }
    }
}

/// One Tudor-Locke sleep period with ActiLife's statistics (see ``TudorLockeSleepPeriods``).
public struct TudorLockeSleepPeriod: Sendable, Hashable {
    /// In-bed epoch (inclusive) to out-of-bed epoch (exclusive, ActiLife's "Out Bed Time").
    public let span: EpochSpan
    public let epochSeconds: Int
    /// Epochs scored asleep inside the period.
    public let sleepEpochs: Int
    /// Number of awake runs inside the period (ActiLife "Number of Awakenings").
    public let awakenings: Int
    /// Number of asleep runs inside the period.
    public let sleepBouts: Int
    /// Asleep runs lasting at most one minute.
    public let oneMinuteSleepBouts: Int
    /// Sum of counts over the period (ActiLife "Total Counts", axis 1).
    public let totalCounts: Double
    /// Epochs with count > 0.
    public let nonzeroEpochs: Int
    /// Epochs of the span without data (left out of the runs; see ``TudorLockeSleepPeriods/detect(states:counts:epochSeconds:parameters:)``).
    public var epochsWithoutData: Int = 0

    public init(span: EpochSpan, epochSeconds: Int, sleepEpochs: Int, awakenings: Int, sleepBouts: Int,
                oneMinuteSleepBouts: Int, totalCounts: Double, nonzeroEpochs: Int) {
        self.span = span
        self.epochSeconds = epochSeconds
        self.sleepEpochs = sleepEpochs
        self.awakenings = awakenings
        self.sleepBouts = sleepBouts
        self.oneMinuteSleepBouts = oneMinuteSleepBouts
        self.totalCounts = totalCounts
        self.nonzeroEpochs = nonzeroEpochs
    }

    private var minutesPerEpoch: Double { Double(epochSeconds) / 60 }

    /// First epoch in bed (ActiLife "In Bed Time").
    public var inBedEpoch: Int { span.startEpoch }
    /// First epoch after the period (ActiLife "Out Bed Time").
    public var outBedEpoch: Int { span.endEpoch }
    /// Sleep onset epoch; equals the in-bed epoch under Tudor-Locke.
    public var onsetEpoch: Int { span.startEpoch }
    /// Sleep latency; 0 by Tudor-Locke's definition.
    public var latencyMinutes: Double { 0 }
    /// Time in bed ("Total Minutes in Bed", sleepr `duration`).
    public var durationMinutes: Double { Double(span.length) * minutesPerEpoch }
    /// Total sleep time.
    public var totalSleepTimeMinutes: Double { Double(sleepEpochs) * minutesPerEpoch }
    /// Wake after sleep onset = duration − TST − latency (− minutes without data).
    public var wakeAfterOnsetMinutes: Double { Double(span.length - sleepEpochs - epochsWithoutData) * minutesPerEpoch }
    /// Mean awakening length; 0 when there is none.
    public var averageAwakeningMinutes: Double {
        awakenings > 0 ? wakeAfterOnsetMinutes / Double(awakenings) : 0
    }
    /// 100 × TST / time in bed (less the minutes without data).
    public var efficiencyPercent: Double { 100 * Double(sleepEpochs) / Double(max(1, span.length - epochsWithoutData)) }
    /// 100 × epochs with count > 0 / epochs with data (ActiLife "Movement Index").
    public var movementIndexPercent: Double { 100 * Double(nonzeroEpochs) / Double(max(1, span.length - epochsWithoutData)) }
    /// 100 × one-minute asleep runs / asleep runs (ActiLife "Fragmentation Index").
    public var fragmentationIndexPercent: Double {
        sleepBouts > 0 ? 100 * Double(oneMinuteSleepBouts) / Double(sleepBouts) : 0
    }
    /// Movement index + fragmentation index.
    public var sleepFragmentationIndexPercent: Double { movementIndexPercent + fragmentationIndexPercent }

    /// The sleep fragmentation index exactly as ActiLife prints it: ActiLife adds the movement
    /// and fragmentation indices *after* rounding each to 3 decimals (.NET `Math.Round`,
    /// midpoint to even), e.g. 11.257 + 9.091 = 20.348 where the unrounded sum gives 20.347.
    /// Use this only to reproduce ActiLife exports; ``sleepFragmentationIndexPercent`` is the
    /// definition.
    public var sleepFragmentationIndexActiLifePercent: Double {
        func round3(_ value: Double) -> Double { (value * 1000).rounded(.toNearestOrEven) / 1000 }
        return round3(movementIndexPercent) + round3(fragmentationIndexPercent)
    }
}
