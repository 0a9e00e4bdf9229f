/// Main sleep period time window from a per-epoch *movement* series, for inputs without a
/// gravity component (phone "user acceleration", activity counts), where HDCZA's angle-z does
/// not exist.
///
/// Two methods:
/// * ``Method/rollingMedian`` — **sleepsta's own adaptation of HDCZA, not a published
///   algorithm and not validated against PSG or diaries.** HDCZA's logic applied to movement
///   instead of the change in angle-z: x = centred rolling median of movement over
///   `windowMinutes` (partial windows at the edges), threshold = `percentile`-th percentile of
///   x × `multiplier` (optionally constrained), no movement where x ≤ threshold (≤ rather than
///   HDCZA's <, so that a perfectly still, all-zero stretch counts as still), then HDCZA's
///   block rules (blocks > 30 min, gaps < 60 min filled, longest block).
/// * ``Method/ggirNotWorn`` — GGIR 3.x `HASPT(..., HASPT.algo = "NotWorn")` (wadpac/GGIR
///   `R/HASPT.R`), GGIR's guider for count or acceleration data when angle-z is not usable:
///   x = circular centred moving average of movement over 5 min (`stats::filter`,
///   `sides = 2`, `circular = TRUE`), threshold = 5 % of the SD of the non-zero x (or the 10th
///   percentile of x when that is below the smallest movement value), plus 0.001; no movement
///   where x < threshold, invalid epochs always count as no movement; then the same block
///   rules. Checked against the expectations in GGIR's `test_HASPT.R`.
public enum MovementSPTWindow {
    public enum Method: String, Sendable, Hashable, Codable, CaseIterable {
        case rollingMedian
        case ggirNotWorn
    }

    public struct Parameters: Sendable, Hashable, Codable {
        /// Epoch length of the movement series in seconds.
        public var epochSeconds: Double
        /// Smoothing window (5 min).
        public var windowMinutes: Double
        /// ``Method/rollingMedian`` only: percentile of x (10).
        public var percentile: Double
        /// ``Method/rollingMedian`` only: multiplier (15).
        public var multiplier: Double
        /// ``Method/rollingMedian`` only: optional bounds for the threshold.
        public var thresholdRange: ClosedRange<Double>?
        public var minBlockMinutes: Double
        public var maxGapMinutes: Double
        public var maxGapRatio: Double?
        public var method: Method

        public init(epochSeconds: Double = 5, windowMinutes: Double = 5, percentile: Double = 10, multiplier: Double = 15,
                    thresholdRange: ClosedRange<Double>? = nil, minBlockMinutes: Double = 30, maxGapMinutes: Double = 60,
                    maxGapRatio: Double? = nil, method: Method = .rollingMedian) {
            precondition(epochSeconds > 0 && windowMinutes > 0 && (0...100).contains(percentile))
            self.epochSeconds = epochSeconds
            self.windowMinutes = windowMinutes
            self.percentile = percentile
            self.multiplier = multiplier
            self.thresholdRange = thresholdRange
            self.minBlockMinutes = minBlockMinutes
            self.maxGapMinutes = maxGapMinutes
            self.maxGapRatio = maxGapRatio
            self.method = method
        }

        func epochs(minutes: Double) -> Int { Int((minutes * 60 / epochSeconds).rounded()) }
    }

    /// Detects the SPT window in one night's movement series (any non-negative unit, e.g. g).
    ///
    /// - Parameter invalid: optional per-epoch invalid flag. ``Method/rollingMedian`` treats
    ///   invalid epochs as movement (they cannot extend a sleep window); ``Method/ggirNotWorn``
    ///   treats them as no movement, as GGIR does for this guider.
    public static func detect(movement: [Double], invalid: [Bool]? = nil,
                              parameters: Parameters = Parameters()) -> SleepPeriodTimeWindow? {
        let n = movement.count
        guard n > 0 else { return nil }
        let values = movement.map { $0.isFinite ? $0 : 0 }
        let flags = invalid ?? [Bool](repeating: false, count: n)
        precondition(flags.count == n, "one invalid flag per epoch")
        let width = max(1, parameters.epochs(minutes: parameters.windowMinutes))
        let (lower, upper) = PeriodsRollingWindow.centredOffsets(width: width)

        var noMovement = [Bool](repeating: false, count: n)
        let threshold: Double
        switch parameters.method {
        case .rollingMedian:
            if flags.allSatisfy({ $0 }) { return nil }
            let x = PeriodsRollingWindow.median(values, lower: lower, upper: upper, partial: true)
            var value = PeriodsRollingWindow.quantile(x, probability: parameters.percentile / 100) * parameters.multiplier
            if let range = parameters.thresholdRange { value = min(max(value, range.lowerBound), range.upperBound) }
            threshold = value
            for i in 0..<n { noMovement[i] = x[i] <= threshold && !flags[i] }
        case .ggirNotWorn:
            let x = circularMovingAverage(values, lower: lower, upper: upper)
            let nonzero = x.filter { $0 != 0 }
            var activityThreshold = 0.0
            if !nonzero.isEmpty {
                activityThreshold = PeriodsRollingWindow.standardDeviation(nonzero) * 0.05
                if activityThreshold.isNaN || activityThreshold < (values.min() ?? 0) {
                    activityThreshold = PeriodsRollingWindow.quantile(x, probability: 0.1)
                }
            }
            threshold = activityThreshold + 0.001
            for i in 0..<n { noMovement[i] = x[i] < threshold || flags[i] }
        }
        return SleepPeriodTimeWindowSteps.longestBlock(
            noMovement: noMovement, minBlockEpochs: parameters.epochs(minutes: parameters.minBlockMinutes),
            maxGapEpochs: parameters.epochs(minutes: parameters.maxGapMinutes),
            maxGapRatio: parameters.maxGapRatio, threshold: threshold)
    }

    /// R `stats::filter(x, rep(1/w, w), sides = 2, circular = TRUE)`: y[i] = Σ x[i + o] / w over
    /// offsets o in `lower...upper`, indices wrapping around. Summed in R's order (from the
    /// largest offset down) so that results agree to the last bit.
    static func circularMovingAverage(_ values: [Double], lower: Int, upper: Int) -> [Double] {
        let n = values.count
        let weight = 1 / Double(upper - lower + 1)
        var output = [Double](repeating: 0, count: n)
        values.withUnsafeBufferPointer { x in
            for i in 0..<n {
                var sum = 0.0
                var offset = upper
                while offset >= lower {
                    var index = (i + offset) % n
                    if index < 0 { index += n }
                    sum += weight * x[index]
                    offset -= 1
                }
                output[i] = sum
            }
        }
        return output
    }
}
