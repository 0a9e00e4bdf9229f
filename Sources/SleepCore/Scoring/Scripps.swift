/// The Scripps Clinic sleep/wake algorithm.
///
/// `D = 0.204 · (0.0064a₋₁₀ + 0.0074a₋₉ + 0.0112a₋₈ + 0.0112a₋₇ + 0.0118a₋₆ + 0.0118a₋₅ + 0.0128a₋₄
/// + 0.0188a₋₃ + 0.0280a₋₂ + 0.0664a₋₁ + 0.0300a₀ + 0.0112a₊₁ + 0.0100a₊₂)`, where aₖ is the activity of
/// the epoch k epochs from the scored one; **sleep if D < 1**.
///
/// - Kripke DF, Hahn EK, Grizas AP, Wadiak KH, Loving RT, Poceta JS, Shadan FF, Cronin JW, Kline LE.
///   Wrist actigraphic scoring for sleep laboratory patients: algorithm development. *J Sleep Res*
///   2010;19(4):612–619, doi:10.1111/j.1365-2869.2010.00835.x.
/// - pyActigraphy 1.2.2 `ScoringMixin.Scripps` (weights "identical to the original publication"),
///   reproduced label for label (see `ScorerReferenceTests`). The weights apply per input epoch, exactly
///   as pyActigraphy applies them, whatever the epoch length.
///
/// The comparison is exact: with the weights ×10 000 and P = 204/1000, D < 1 ⇔ 204 · Σ w·a < 10⁷.
public struct Scripps: SleepWakeScorer {
    public enum Variant: String, Sendable, Hashable, Codable, CaseIterable {
        /// Counts outside the record and missing counts inside the window are 0; every epoch with a
        /// count is scored (the paper's formula with ActiLife-style edges; sleepsta's choice).
        case zeroPadded
        /// pyActigraphy 1.2.2: a centred window of 21 epochs (−10…+10, the weights after +2 are 0) must
        /// lie inside the record with no missing count, so the first and last 10 epochs are not scored
        /// (pyActigraphy reports them as wake).
        case pyActigraphy
    }

    public var variant: Variant

    public init(variant: Variant = .zeroPadded) {
        self.variant = variant
    }

    public func score(countsPerEpoch: [Double]) -> [SleepWake?] {
        Self.score(countsPerEpoch: countsPerEpoch, variant: variant)
    }

    /// Weights ×10 000 for offsets −10…+2.
    static let weights: [Double] = [64, 74, 112, 112, 118, 118, 128, 188, 280, 664, 300, 112, 100]

    /// Scores epochs of activity (`Double.nan` = missing). `nil` = not scored.
    public static func score(countsPerEpoch: [Double], variant: Variant = .zeroPadded) -> [SleepWake?] {
        let sums: [Double]
        switch variant {
        case .zeroPadded:
            sums = SleepWakeKernel.weightedSums(countsPerEpoch, weights: weights, firstOffset: -10, edges: .zeroPadding)
        case .pyActigraphy:
            sums = SleepWakeKernel.weightedSums(
                countsPerEpoch, weights: weights + [Double](repeating: 0, count: 8), firstOffset: -10,
                edges: .completeWindow)
        }
        return SleepWakeKernel.labels(sums) { 204 * $0 < 10_000_000 }
    }
}
