/// Oakley's sleep/wake scoring, the algorithm of Philips Respironics Actiware (Actiwatch).
///
/// The activity score of an epoch is a weighted sum of the counts within ±2 minutes of it, with
/// weights that depend on the epoch length so that each minute carries the same weight:
///
/// | epoch | centre | each epoch within ±1 min | each epoch in ±(1, 2] min |
/// |---|---|---|---|
/// | 15 s | 4 | 1/5 (4 epochs each side) | 1/25 (4 epochs each side) |
/// | 30 s | 2 | 1/5 (2 each side) | 1/25 (2 each side) |
/// | 60 s | 1 | 1/5 | 1/25 |
/// | 120 s | 1/2 | 0.12 (the epochs at ±2 min; pyActigraphy's docstring says 1/8, its code 0.12) | — |
///
/// The epoch is **wake if the score is greater than the wake threshold** (Low 20, Medium 40, High 80
/// counts, or Actiware's automatic threshold), sleep otherwise: a score of exactly 40 is sleep.
///
/// - Oakley NR. Validation with polysomnography of the Sleepwatch sleep/wake scoring algorithm used by
///   the Actiwatch activity monitoring system. Technical report, Mini-Mitter, Bend OR, 1997.
/// - Respironics. Actiwatch Communication and Sleep Analysis Software, instruction manual (weights,
///   thresholds, automatic threshold), as quoted by pyActigraphy 1.2.2 `ScoringMixin.Oakley`.
/// - Reproduced on Actiware 5 exports (30-s and 60-s Actiwatch 2) and on the Actiware column of the QUT
///   Apple Watch/Actiwatch data (15 s); see `ScorerReferenceTests`.
///
/// **Arithmetic and ties.** The ``Variant/actiware`` variant evaluates the score as Actiware does: in
/// double precision, with Actiware's decimal weights (0.04, 0.2, 1, scaled ×2 for 30-s and ×4 for
/// 15-s epochs), summed from the earliest epoch of the window to the latest, and compared with
/// `>`. A score that is exactly the threshold in exact arithmetic can lie just above it in floating
/// point (counts 5, 0, 36, 1, 90 at 60 s: exactly 40, but 40.00000000000001 summed in this order),
/// and the label then follows the floating-point value (wake). Every exact tie in the reference
/// exports (English 30-s lines 7629, 10184, 10464, 10985; French 60-s lines 5782, 5874; QUT 15-s
/// p02_n01 row 689) evaluates to exactly 40.0 in this order and Actiware scores each one sleep, so
/// this order reproduces all of them; see `ScorerReferenceTests`. The other variants (pyActigraphy,
/// actigraph.sleepr) compute with the weights scaled to integers (×25, or ×50 for 120 s), so integer
/// counts give exact scores and a tie stays a tie.
public struct Oakley: SleepWakeScorer {
    /// Actiware's wake threshold selection.
    public enum WakeThreshold: Sendable, Hashable, Codable {
        /// 20 counts.
        case low
        /// 40 counts (Actiware's default).
        case medium
        /// 80 counts.
        case high
        /// Actiware's automatic threshold, computed from the scored counts (``automaticThreshold(countsPerEpoch:epochSeconds:)``).
        case automatic
        /// Any value in counts.
        case counts(Double)
    }

    public enum Variant: String, Sendable, Hashable, Codable, CaseIterable {
        /// Actiware 5: missing counts inside a window count as 0 (and so do counts after the end of
        /// the record); an epoch whose own count is missing is not scored, and neither are the epochs
        /// of the first 2 minutes of the record (both Actiware exports leave them unscored). Wake if
        /// score > threshold.
        case actiware
        /// Every epoch with a count is scored, counts outside the record are 0 (actigraph.sleepr 0.3
        /// `apply_oakley`). Wake if score > threshold.
        case zeroPadded
        /// pyActigraphy 1.2.2 `ScoringMixin.Oakley`: the whole ±2-minute window must lie inside the
        /// record with no missing count (pandas `rolling(center=True)`), otherwise the epoch is not
        /// scored (pyActigraphy reports it as wake); **wake if score ≥ threshold** (sleep if below).
        case pyActigraphy
    }

    public var epochSeconds: Int
    public var threshold: WakeThreshold
    public var variant: Variant

    public init(epochSeconds: Int, threshold: WakeThreshold = .medium, variant: Variant = .actiware) {
        self.epochSeconds = epochSeconds
        self.threshold = threshold
        self.variant = variant
    }

    public func score(countsPerEpoch: [Double]) -> [SleepWake?] {
        Self.score(countsPerEpoch: countsPerEpoch, epochSeconds: epochSeconds, threshold: threshold, variant: variant)
    }

    /// Epoch lengths the algorithm defines weights for.
    public static let supportedEpochSeconds: Set<Int> = [15, 30, 60, 120]

    /// Scores epochs of 15, 30, 60 or 120 s (others: every epoch `nil`).
    /// - Parameters:
    ///   - countsPerEpoch: Actiwatch activity counts per epoch; `Double.nan` = missing.
    ///   - threshold: wake threshold; `.automatic` is computed from `countsPerEpoch`.
    /// - Returns: one label per epoch, `nil` where not scored.
    public static func score(
        countsPerEpoch: [Double], epochSeconds: Int, threshold: WakeThreshold = .medium, variant: Variant = .actiware
    ) -> [SleepWake?] {
        guard let kernel = kernel(epochSeconds: epochSeconds),
              let limit = thresholdCounts(threshold, countsPerEpoch: countsPerEpoch, epochSeconds: epochSeconds)
        else { return [SleepWake?](repeating: nil, count: countsPerEpoch.count) }
        if variant == .actiware {
            var labels = SleepWakeKernel.labels(actiwareScores(countsPerEpoch, kernel: kernel)) { $0 <= limit }
            let leading = Swift.min(labels.count, 120 / epochSeconds)
            for i in 0..<leading { labels[i] = nil }
            return labels
        }
        let sums = SleepWakeKernel.weightedSums(
            countsPerEpoch, weights: kernel.weights, firstOffset: -kernel.halfWidth,
            edges: variant == .pyActigraphy ? .completeWindow : .zeroPadding)
        let scaledLimit = limit * kernel.divisor
        var labels: [SleepWake?]
        if variant == .pyActigraphy {
            labels = SleepWakeKernel.labels(sums) { $0 < scaledLimit }
        } else {
            labels = SleepWakeKernel.labels(sums) { $0 <= scaledLimit }
        }
        return labels
    }

    /// Actiware's activity scores in double precision (see the type's notes on ties): per epoch the
    /// sum, from the window's earliest epoch to its latest, of count × Actiware's decimal weight;
    /// counts outside the record or missing count 0; NaN where the epoch's own count is missing.
    static func actiwareScores(_ counts: [Double], kernel: Kernel) -> [Double] {
        let weights = kernel.weights.map { $0 / kernel.divisor }   // 1/25 = 0.04, 5/25 = 0.2, 25/25 = 1 …
        let n = counts.count
        var scores = [Double](repeating: .nan, count: n)
        counts.withUnsafeBufferPointer { c in
            for i in 0..<n where !c[i].isNaN {
                var s = 0.0
                for (k, w) in weights.enumerated() {
                    let j = i + k - kernel.halfWidth
                    if j >= 0 && j < n && !c[j].isNaN { s += c[j] * w }
                }
                scores[i] = s
            }
        }
        return scores
    }

    /// The activity score per epoch (weighted sum in counts; NaN where the epoch's count is missing).
    /// Counts outside the record and missing counts inside the window count as 0.
    public static func activityScores(countsPerEpoch: [Double], epochSeconds: Int) -> [Double] {
        guard let kernel = kernel(epochSeconds: epochSeconds) else {
            return [Double](repeating: .nan, count: countsPerEpoch.count)
        }
        return SleepWakeKernel.weightedSums(
            countsPerEpoch, weights: kernel.weights, firstOffset: -kernel.halfWidth, edges: .zeroPadding
        ).map { $0 / kernel.divisor }
    }

    /// Actiware's automatic wake threshold, as the Actiwatch manual defines it (quoted by pyActigraphy):
    /// the sum of all counts divided by the MOBILE time in minutes, times 0.88888, where an epoch is
    /// MOBILE if its count is at least the number of 15-s intervals in the epoch (1 for 15 s, 2 for 30 s,
    /// 4 for 60 s, 8 for 120 s). Missing counts are skipped. `nil` when no epoch is mobile.
    ///
    /// Actiware computes it over the data set being analysed; pass the counts of that span.
    public static func automaticThreshold(countsPerEpoch: [Double], epochSeconds: Int) -> Double? {
        guard epochSeconds > 0 else { return nil }
        let mobileCount = Double(epochSeconds / 15)
        var sum = 0.0
        var mobile = 0
        for c in countsPerEpoch where !c.isNaN {
            sum += c
            if c >= mobileCount { mobile += 1 }
        }
        guard mobile > 0 else { return nil }
        let mobileMinutes = Double(mobile) * Double(epochSeconds) / 60
        return sum / mobileMinutes * 0.88888
    }

    static func thresholdCounts(_ threshold: WakeThreshold, countsPerEpoch: [Double], epochSeconds: Int) -> Double? {
        switch threshold {
        case .low: return 20
        case .medium: return 40
        case .high: return 80
        case .counts(let v): return v
        case .automatic: return automaticThreshold(countsPerEpoch: countsPerEpoch, epochSeconds: epochSeconds)
        }
    }

    /// Integer weights over −halfWidth…+halfWidth and the divisor that turns them into Actiware's.
    struct Kernel {
        let weights: [Double]
        let halfWidth: Int
        let divisor: Double
    }

    static func kernel(epochSeconds: Int) -> Kernel? {
        switch epochSeconds {
        case 15:  // 1/25 ×4, 1/5 ×4, 4, 1/5 ×4, 1/25 ×4
            let side4 = [Double](repeating: 1, count: 4), side1 = [Double](repeating: 5, count: 4)
            return Kernel(weights: side4 + side1 + [100] + side1 + side4, halfWidth: 8, divisor: 25)
        case 30:
            return Kernel(weights: [1, 1, 5, 5, 50, 5, 5, 1, 1], halfWidth: 4, divisor: 25)
        case 60:
            return Kernel(weights: [1, 5, 25, 5, 1], halfWidth: 2, divisor: 25)
        case 120:  // 0.12, 0.5, 0.12 as pyActigraphy's code and actigraph.sleepr use (pyActigraphy's docstring says 1/8)
            return Kernel(weights: [6, 25, 6], halfWidth: 1, divisor: 50)
        default:
            return nil
        }
    }
}
