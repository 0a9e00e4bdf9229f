/// Cole–Kripke sleep/wake scoring of 1-minute epochs.
///
/// `D = P · (W₋₄A₋₄ + W₋₃A₋₃ + W₋₂A₋₂ + W₋₁A₋₁ + W₀A₀ + W₊₁A₊₁ + W₊₂A₊₂)`, where `A` is the activity of
/// the minute at that offset; the minute is **sleep if D < 1**, wake otherwise.
///
/// - Cole RJ, Kripke DF, Gruen W, Mullaney DJ, Gillin JC. Automatic sleep/wake identification from
///   wrist activity. *Sleep* 1992;15(5):461–469, doi:10.1093/sleep/15.5.461. Parameter sets on p. 466,
///   one per data reduction of the Actillume's activity into minutes.
/// - ActiGraph ActiLife 6 (User's Manual 04/03/2012 and ActiGraph's support note "Where can I find
///   documentation for the Sadeh and Cole-Kripke algorithms"): the mean-activity parameters applied to
///   ActiGraph axis-1 counts divided by 100 and capped at 300, zero padding at the record edges.
///   Reproduced label for label on ActiLife's own export (see `ScorerReferenceTests`).
/// - pyActigraphy 1.2.2 `ScoringMixin.CK` (Hammad et al. 2021): see ``Variant/pyActigraphyMean``.
///
/// The ActiLife and 1992 variants compare the weighted sum with the threshold in exact arithmetic
/// (integer weights, `Σ W·A < 1/P`), so that integer counts never round across the threshold.
public struct ColeKripke: SleepWakeScorer {
    /// Published parameter sets and implementations. All score 1-minute epochs.
    public enum Variant: String, Sendable, Hashable, Codable, CaseIterable {
        /// ActiLife 6: `A = min(counts / 100, 300)` of axis-1 counts per minute; P = 0.001,
        /// W = 106, 54, 58, 76, 230, 74, 67; counts outside the record (and missing counts inside a
        /// window) are 0. Every minute with a count is scored.
        case actilife
        /// Cole et al. 1992, "mean activity per minute" (the mean of the Actillume's 2-s values):
        /// P = 0.001, W = 106, 54, 58, 76, 230, 74, 67. Input used as given; zero padding.
        case meanActivity1992
        /// Cole et al. 1992, "maximum 10-s overlapping epoch per minute": P = 0.00001,
        /// W = 404, 598, 326, 441, 1408, 508, 350. Input used as given; zero padding.
        case maxOverlapping10s1992
        /// Cole et al. 1992, "maximum 10-s nonoverlapping epoch per minute": P = 0.00001,
        /// W = 550, 378, 413, 699, 1736, 287, 309. Input used as given; zero padding.
        case maxNonOverlapping10s1992
        /// Cole et al. 1992, "maximum 30-s nonoverlapping epoch per minute": P = 0.0001,
        /// W = 50, 30, 14, 28, 121, 8, 50. Input used as given; zero padding.
        case maxNonOverlapping30s1992
        /// pyActigraphy 1.2.2 `CK(settings="mean")`: input counts per minute divided by 30 (it takes the
        /// paper's mean of 2-s epochs), the mean-activity weights, and a centred window of 9 minutes
        /// (−4…+4, the last two weights 0) that must lie inside the record with no missing count:
        /// the first and last 4 minutes are not scored (pyActigraphy reports them as wake).
        ///
        /// pyActigraphy's other settings are not offered because their weights differ from the paper:
        /// "10sec_max_overlap" uses 50, 30, 300, 400, 1400, 500, 350; "10sec_max_non_overlap" ends in 300
        /// instead of 309; "30sec_max_non_overlap" has 12 instead of 121.
        case pyActigraphyMean
    }


    public var variant: Variant
    /// Apply Webster's rescoring rules after scoring (``WebsterRescoring``).
    public var rescoring: WebsterRescoring.Variant?

    public init(variant: Variant = .actilife, rescoring: WebsterRescoring.Variant? = nil) {
        self.variant = variant
        self.rescoring = rescoring
    }

    public func score(countsPerEpoch: [Double]) -> [SleepWake?] {
        Self.score(countsPerEpoch: countsPerEpoch, variant: variant, rescoring: rescoring)
    }

    /// Scores 1-minute epochs.
    /// - Parameters:
    ///   - countsPerEpoch: activity per minute (ActiGraph axis-1 counts for `.actilife` and
    ///     `.pyActigraphyMean`; the paper's reduction for the 1992 variants); `Double.nan` = missing.
    ///   - variant: parameter set and edge handling.
    ///   - rescoring: Webster's rescoring rules to apply to the result (`nil` = none, as ActiLife).
    /// - Returns: one label per minute; `nil` where the minute is not scored.
    public static func score(
        countsPerEpoch: [Double], variant: Variant = .actilife, rescoring: WebsterRescoring.Variant? = nil
    ) -> [SleepWake?] {
        let p = parameters(variant)
        let activity: [Double]
        switch variant {
        case .actilife:
            // min(c/100, 300) · w  ==  min(c, 30000) · w / 100: keep integer counts exact.
            activity = countsPerEpoch.map { $0.isNaN ? .nan : Swift.min($0, 30_000) }
        default:
            activity = countsPerEpoch
        }
        let sums = SleepWakeKernel.weightedSums(
            activity, weights: p.weights, firstOffset: -4, edges: p.edges)
        let limit = p.sumLimit
        let labels = SleepWakeKernel.labels(sums) { $0 < limit }
        guard let rescoring else { return labels }
        return WebsterRescoring.apply(labels, variant: rescoring)
    }

    /// The raw index D = P · Σ W·A per minute (NaN where not scored), for plots and diagnostics.
    public static func index(countsPerEpoch: [Double], variant: Variant = .actilife) -> [Double] {
        let p = parameters(variant)
        let activity: [Double] = variant == .actilife
            ? countsPerEpoch.map { $0.isNaN ? .nan : Swift.min($0, 30_000) } : countsPerEpoch
        return SleepWakeKernel.weightedSums(activity, weights: p.weights, firstOffset: -4, edges: p.edges)
            .map { $0 / p.sumLimit }
    }

    /// Weights over offsets −4…(+2 or +4) and the limit L such that sleep ⇔ Σ W·A < L (L = 1/P after
    /// folding the input scaling into it).
    struct Parameters {
        let weights: [Double]
        let sumLimit: Double
        let edges: SleepWakeWindowEdges
    }

    static func parameters(_ variant: Variant) -> Parameters {
        let mean: [Double] = [106, 54, 58, 76, 230, 74, 67]
        switch variant {
        case .actilife:
            // 0.001 · Σ W·(c/100) < 1  ⇔  Σ W·c < 100 000
            return Parameters(weights: mean, sumLimit: 100_000, edges: .zeroPadding)
        case .meanActivity1992:
            return Parameters(weights: mean, sumLimit: 1_000, edges: .zeroPadding)
        case .maxOverlapping10s1992:
            return Parameters(weights: [404, 598, 326, 441, 1408, 508, 350], sumLimit: 100_000, edges: .zeroPadding)
        case .maxNonOverlapping10s1992:
            return Parameters(weights: [550, 378, 413, 699, 1736, 287, 309], sumLimit: 100_000, edges: .zeroPadding)
        case .maxNonOverlapping30s1992:
            return Parameters(weights: [50, 30, 14, 28, 121, 8, 50], sumLimit: 10_000, edges: .zeroPadding)
        case .pyActigraphyMean:
            // 0.001 · Σ W·(c/30) < 1  ⇔  Σ W·c < 30 000; window −4…+4 with zero weights at +3, +4.
            return Parameters(weights: mean + [0, 0], sumLimit: 30_000, edges: .completeWindow)
        }
    }
}

extension ColeKripke.Variant {
    /// The epoch whose per-minute maximum the 1992 variant scores (10 or 30 s), nil for the others.
    public var maximumEpochSeconds: Int? {
        switch self {
        case .maxOverlapping10s1992, .maxNonOverlapping10s1992: return 10
        case .maxNonOverlapping30s1992: return 30
        default: return nil
        }
    }
}
