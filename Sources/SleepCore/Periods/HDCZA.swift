/// HDCZA — "Heuristic algorithm looking at the Distribution of Change in Z-Angle": detection
/// of the main sleep period time window (SPT window) from the wrist's z-angle, without a
/// sleep diary.
///
/// **Source.** V. T. van Hees, S. Sabia, S. E. Jones et al., "Estimating sleep parameters
/// using an accelerometer without sleep diary", *Scientific Reports* 8:12975, 2018.
///
/// **Reference software.** GGIR 3.x, `HASPT(..., HASPT.algo = "HDCZA")` (`R/HASPT.R` of the
/// `params_sleep` era, which builds the window with `rle`; read in the j262byuu/GGIR fork of
/// wadpac/GGIR @ 3a784fd). Checked against the expectations of GGIR's own
/// `tests/testthat/test_HASPT.R` (wadpac/GGIR, cran/GGIR @ 1f1f29eb), whose input is rebuilt
/// exactly. Older GGIR (`HDCZA.R`, `HASPT.R` before the `rle` rewrite) reported the start one
/// epoch earlier. Input: GGIR's `anglez`, the z-angle atan(z / √(x² + y²)) in degrees
/// summarised per 5-s epoch (GGIR computes it on low-pass smoothed raw data; producing it is
/// not part of this type) — for one night (GGIR passes noon to noon; its re-run shifted by 6 h when the
/// window ends within an hour of noon, for day sleepers, is left to the caller).
/// Steps, for an angle-z series with one value per `epochSeconds`:
/// 1. x[i] = median of the absolute successive differences of angle-z inside a 5-minute
///    window (k = 60 epochs, zoo's centred alignment: epochs i − 29 … i + 30, i.e. 59
///    differences); x = 0 where the window does not fit (zoo `fill = 0`);
/// 2. threshold = 10th percentile of x (R type 7) × 15, constrained to [0.13, 0.50] (GGIR
///    3.x; GGIR's older `HDCZA()` defaulted to `constrain2range = FALSE`, using 0.20 only when
///    the product was 0 — use `.percentile(10, multiplier: 15, constrainedTo: nil)` for the
///    unconstrained form) — or a fixed value (GGIR `HDCZA_threshold` of length 1);
/// 3. no movement where x < threshold; invalid (non-wear) epochs per ``InvalidEpochs``;
/// 4. no-movement blocks of at most 30 min are dropped, interior gaps shorter than 60 min
///    between the remaining blocks are filled (optionally only when also shorter than
///    `maxGapRatio` × both neighbours, GGIR `spt_max_gap_ratio`), and the longest block (the
///    first one on ties) is the SPT window.
///
/// ``Variant/paperDescription`` instead follows the three-step description usually given for
/// the paper (5-min rolling median of angle-z → absolute successive differences → 5-min rolling
/// median of those, with partial windows at the edges). It is sleepsta's reading of the text,
/// not checked against any reference; GGIR (``Variant/ggir``) is the default.
///
/// Indexing: the returned ``SleepPeriodTimeWindow/span`` is the no-movement block in 0-based
/// epochs; GGIR reports `SPTE_start = start + 1` and `SPTE_end = end + 1` (see
/// ``SleepPeriodTimeWindow/ggirStart``), and — like GGIR — a block that reaches the last
/// epoch ends one epoch early.
public enum HDCZA {
    public enum Variant: String, Sendable, Hashable, Codable, CaseIterable {
        /// GGIR's code: rolling median of absolute angle differences, zero-filled edges.
        case ggir
        /// Rolling median of angle, absolute differences, rolling median (see above).
        case paperDescription
    }

    /// Treatment of invalid (e.g. non-wear) epochs — GGIR's `HASPT.ignore.invalid`.
    public enum InvalidEpochs: String, Sendable, Hashable, Codable, CaseIterable {
        /// GGIR `FALSE` (default): judge them on their (imputed) signal like any other epoch.
        case useSignal
        /// GGIR `TRUE`: never count them as no movement.
        case treatAsMovement
        /// GGIR `NA`: always count them as no movement.
        case treatAsStill
    }

    public enum Threshold: Sendable, Hashable, Codable {
        /// `percentile`-th percentile of x times `multiplier`, optionally constrained.
        case percentile(Double, multiplier: Double, constrainedTo: ClosedRange<Double>?)
        /// A fixed threshold in degrees.
        case fixed(Double)

        /// GGIR default: 10th percentile × 15, constrained to [0.13, 0.50].
        public static let ggir = Threshold.percentile(10, multiplier: 15, constrainedTo: 0.13...0.50)
    }

    public struct Parameters: Sendable, Hashable, Codable {
        /// Epoch length of the angle-z series (GGIR `ws3`, 5 s).
        public var epochSeconds: Double
        /// Rolling window length (5 min).
        public var windowMinutes: Double
        public var threshold: Threshold
        /// Blocks must be longer than this (GGIR `spt_min_block_dur`, 30 min).
        public var minBlockMinutes: Double
        /// Gaps shorter than this are filled (GGIR `spt_max_gap_dur`, 60 min).
        public var maxGapMinutes: Double
        /// GGIR `spt_max_gap_ratio` (off by default).
        public var maxGapRatio: Double?
        public var variant: Variant
        public var invalidEpochs: InvalidEpochs

        public init(epochSeconds: Double = 5, windowMinutes: Double = 5, threshold: Threshold = .ggir,
                    minBlockMinutes: Double = 30, maxGapMinutes: Double = 60, maxGapRatio: Double? = nil,
                    variant: Variant = .ggir, invalidEpochs: InvalidEpochs = .useSignal) {
            precondition(epochSeconds > 0 && windowMinutes > 0 && minBlockMinutes >= 0 && maxGapMinutes >= 0)
            self.epochSeconds = epochSeconds
            self.windowMinutes = windowMinutes
            self.threshold = threshold
            self.minBlockMinutes = minBlockMinutes
            self.maxGapMinutes = maxGapMinutes
            self.maxGapRatio = maxGapRatio
            self.variant = variant
            self.invalidEpochs = invalidEpochs
        }

        /// GGIR / van Hees 2018 defaults on 5-s epochs.
        public static let ggir = Parameters()

        func epochs(minutes: Double) -> Int { Int((minutes * 60 / epochSeconds).rounded()) }
    }

    /// Detects the SPT window in one night's angle-z series (degrees, one value per epoch).
    ///
    /// - Parameters:
    ///   - angleZ: angle-z per epoch; non-finite values are taken as 0, as GGIR's `g.sib.det`
    ///     does.
    ///   - invalid: optional per-epoch invalid flag (e.g. `!WearClassification.isWorn`).
    /// - Returns: the window, or `nil` when no block is long enough (or every epoch is invalid).
    public static func detect(angleZ: [Double], invalid: [Bool]? = nil,
                              parameters: Parameters = .ggir) -> SleepPeriodTimeWindow? {
        let angle = angleZ.map { $0.isFinite ? $0 : 0 }
        let x = changeStatistic(angle, parameters)
        guard !x.isEmpty else { return nil }
        let threshold: Double
        switch parameters.threshold {
        case .fixed(let value):
            threshold = value
        case .percentile(let percentile, let multiplier, let range):
            var value = PeriodsRollingWindow.quantile(x, probability: percentile / 100) * multiplier
            if let range { value = min(max(value, range.lowerBound), range.upperBound) }
            threshold = value
        }
        let flags = invalid ?? [Bool](repeating: false, count: x.count)
        precondition(flags.count == x.count, "one invalid flag per epoch")
        if !flags.isEmpty && flags.allSatisfy({ $0 }) { return nil }
        var noMovement = [Bool](repeating: false, count: x.count)
        for i in x.indices {
            switch parameters.invalidEpochs {
            case .useSignal: noMovement[i] = x[i] < threshold
            case .treatAsMovement: noMovement[i] = x[i] < threshold && !flags[i]
            case .treatAsStill: noMovement[i] = x[i] < threshold || flags[i]
            }
        }
        return SleepPeriodTimeWindowSteps.longestBlock(
            noMovement: noMovement, minBlockEpochs: parameters.epochs(minutes: parameters.minBlockMinutes),
            maxGapEpochs: parameters.epochs(minutes: parameters.maxGapMinutes),
            maxGapRatio: parameters.maxGapRatio, threshold: threshold)
    }

    /// The per-epoch change statistic x (degrees) that HDCZA thresholds.
    public static func changeStatistic(_ angleZ: [Double], _ parameters: Parameters = .ggir) -> [Double] {
        let n = angleZ.count
        guard n > 0 else { return [] }
        let width = max(2, parameters.epochs(minutes: parameters.windowMinutes))
        switch parameters.variant {
        case .ggir:
            // x[i] = median(|diff(angle[i+lo ... i+hi])|) = median of diffs d[i+lo ... i+hi-1].
            let (lower, upper) = PeriodsRollingWindow.centredOffsets(width: width)
            guard n >= 2 else { return [0] }
            var differences = [Double](repeating: 0, count: n - 1)
            for i in 0..<(n - 1) { differences[i] = abs(angleZ[i + 1] - angleZ[i]) }
            let medians = PeriodsRollingWindow.median(differences, lower: lower, upper: upper - 1, partial: false)
            var x = [Double](repeating: 0, count: n)
            for i in 0..<n where i + lower >= 0 && i + upper <= n - 1 { x[i] = medians[i] }
            return x
        case .paperDescription:
            let (lower, upper) = PeriodsRollingWindow.centredOffsets(width: width)
            let smoothed = PeriodsRollingWindow.median(angleZ, lower: lower, upper: upper, partial: true)
            var differences = [Double](repeating: 0, count: n)
            for i in 1..<max(n, 1) { differences[i] = abs(smoothed[i] - smoothed[i - 1]) }
            if n > 1 { differences[0] = differences[1] }
            return PeriodsRollingWindow.median(differences, lower: lower, upper: upper, partial: true)
        }
    }
}
