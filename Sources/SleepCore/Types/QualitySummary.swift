/// Data-quality facts of a recording, gathered while reading (actipy's `info` idea): the one type
/// ingest fills, the store keeps and the night page shows.
public struct QualitySummary: Sendable, Equatable, Codable {
    public var sampleCount: Int = 0
    /// Samples per covered second.
    public var effectiveSampleRateHz: Double = 0
    public var coveredSeconds: Int = 0
    public var spanSeconds: Int = 0
    /// Gaps of at least ``QualitySummary/gapThresholdSeconds`` without samples.
    public var gapCount: Int = 0
    public var gapTotalSeconds: Int = 0
    public var longestGapSeconds: Int = 0
    /// Samples sharing the exact timestamp of the previous sample (kept, counted).
    public var duplicateTimestamps: Int = 0
    // Facts added with the device readers (optional: older stored summaries lack them; nil = not measured).
    /// The rate the device or header states, else the median samples per fully covered second.
    public var nominalSampleRateHz: Double? = nil
    /// (effective − nominal) / nominal × 100: the device clock or logger running fast (+) or slow (−).
    public var sampleRateDriftPercent: Double? = nil
    /// Lowest and highest effective rate over the clock hours with at least half their seconds covered.
    public var hourlyRateMinHz: Double? = nil
    public var hourlyRateMaxHz: Double? = nil
    /// Samples earlier than the previous one but in the same second: kept (the per-second mean does not depend on order).
    public var backwardTimestampsKept: Int? = nil
    /// Samples up to 1 s earlier than the previous one, in an earlier second: dropped (larger steps back are refused).
    public var backwardSamplesDropped: Int? = nil
    /// Measuring range of the device (±g), when the file states it.
    public var deviceRangeG: Double? = nil
    /// Samples with an axis within 0.5 g of the range (GGIR's clipping threshold), when the range is known.
    public var clippedSamples: Int? = nil
    /// Seconds a device left out while idle (ActiGraph idle-sleep mode) and that were filled with its last sample.
    public var idleSleepSecondsFilled: Int? = nil
    /// Damaged blocks or records that were skipped (bad checksum), when the format has them.
    public var skippedBlocks: Int? = nil
    /// Still periods: at least ``stillPeriodMinimumSeconds`` in which no axis varied by more than
    /// GGIR's non-wear thresholds (device not worn, or a phone lying away from the sleeper).
    public var stillPeriods: Int? = nil
    public var stillSeconds: Int? = nil
    public var longestStillSeconds: Int? = nil
    // Facts of the wearable method (nil for other kinds), added by the batch after reading.
    /// Auto-calibration (van Hees 2014): `calibrated`, or `skipped: <reason>`.
    public var calibration: String? = nil
    public var calibrationErrorBeforeMilliG: Double? = nil
    public var calibrationErrorAfterMilliG: Double? = nil
    /// Offset (g) and scale per axis applied as (raw + offset) · scale.
    public var calibrationOffsetG: [Double]? = nil
    public var calibrationScale: [Double]? = nil
    /// ActiGraph counts from the raw samples (asked for by a counts-based `--sleep-algorithm`):
    /// `computed …`, or `not computed: <reason>`; nil when not asked for.
    public var activityCounts: String? = nil
    /// 5-s epochs (GGIR's milestone) with data, and those flagged non-wear (GGIR 2013 rule).
    public var wearableEpochs: Int? = nil
    public var nonWearSeconds: Int? = nil
    public var nonWearPeriods: Int? = nil

    public static let gapThresholdSeconds = 60

    public init() {}

    /// Measures a base series.
    /// `series` is walked once, one series at a time (a lazy sequence need not hold them all).
    public init<Series: Sequence<SecondSeries>>(series: Series, sampleCount: Int, duplicateTimestamps: Int) {
        self.sampleCount = sampleCount
        self.duplicateTimestamps = duplicateTimestamps
        for s in series {
            coveredSeconds += s.coveredSeconds
            spanSeconds += s.count
            var run = 0
            for c in s.sampleCounts {
                if c == 0 { run += 1; continue }
                if run >= Self.gapThresholdSeconds { gapCount += 1; gapTotalSeconds += run; longestGapSeconds = max(longestGapSeconds, run) }
                run = 0
            }
        }
        effectiveSampleRateHz = coveredSeconds > 0 ? Double(sampleCount) / Double(coveredSeconds) : 0
    }
}
