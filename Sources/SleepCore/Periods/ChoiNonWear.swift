/// Choi et al. (2011) wear / non-wear classification of 60-s ActiGraph count epochs, as
/// ActiLife 6 runs it.
///
/// **Source.** L. Choi, Z. Liu, C. E. Matthews, M. S. Buchowski, "Validation of
/// accelerometer wear and nonwear time classification algorithm", *Med. Sci. Sports Exerc.*
/// 43(2):357–364, 2011. A non-wear period is at least 90 consecutive minutes of zero counts,
/// allowing short intervals (≤ 2 min) of non-zero counts when they are surrounded by at
/// least 30 minutes of zeros up- and downstream.
///
/// **Behaviour reproduced.** ActiLife 6 (ActiLife 6 User's Manual, 2012), as pinned down by
/// the R package actigraph.sleepr 0.2.0 (`apply_choi`, dipetkov/actigraph.sleepr), whose
/// tests assert identity with ActiLife's exported periods. The rule is evaluated on runs of
/// zero / non-zero epochs:
/// 1. an epoch is "zero" when its count is exactly 0 (axis 1, or the vector magnitude);
/// 2. zero runs shorter than `spikeTolerance` epochs are relabelled non-zero (so
///    `spike, 0, spike` becomes one longer spike) and runs are merged;
/// 3. a non-zero run of at most `spikeTolerance` epochs whose preceding *and* following
///    runs are each at least `minWindowLength` epochs long is relabelled zero ("artifactual
///    movement"); runs are merged again;
/// 4. every zero run of at least `minPeriodLength` epochs is a non-wear period.
///
/// Step 2 is ActiLife's (and sleepr's) reading of the paper's spike allowance; the paper's
/// own R package (PhysicalActivity::wearingMarking) scans windows instead and can differ at
/// period edges. Epochs are assumed to be 60 s ("minutes" in the paper); collapse shorter
/// epochs first.
public enum ChoiNonWear {
    /// Choi parameters, in epochs (= minutes for 60-s epochs). Defaults are the paper's.
    public struct Parameters: Sendable, Hashable, Codable {
        /// Minimum number of consecutive zero epochs that make a non-wear period (paper: 90).
        public var minPeriodLength: Int
        /// Minimum zero run required before and after an artifactual spike (paper: 30).
        public var minWindowLength: Int
        /// Longest non-zero run that can be artifactual movement (paper: 2).
        public var spikeTolerance: Int
        /// Use the vector magnitude √(a1² + a2² + a3²) instead of axis 1.
        public var useMagnitude: Bool

        public init(minPeriodLength: Int = 90, minWindowLength: Int = 30, spikeTolerance: Int = 2,
                    useMagnitude: Bool = false) {
            precondition(minPeriodLength >= 1 && minWindowLength >= spikeTolerance && spikeTolerance >= 0,
                         "Choi needs minPeriodLength >= 1 and minWindowLength >= spikeTolerance >= 0")
            self.minPeriodLength = minPeriodLength
            self.minWindowLength = minWindowLength
            self.spikeTolerance = spikeTolerance
            self.useMagnitude = useMagnitude
        }

        /// Choi et al. 2011: 90 / 30 / 2, axis 1.
        public static let paper = Parameters()
    }

    /// Classifies a series of per-epoch activity values (axis-1 counts or the vector magnitude).
    /// Values must be finite: impute missing epochs before calling (ActiLife data has none).
    public static func classify(activity: [Double], parameters: Parameters = .paper) -> WearClassification {
        precondition(activity.allSatisfy(\.isFinite), "Choi needs finite counts; impute missing epochs first")
        typealias Run = PeriodsRunLength.Run<Bool>
        // Run value: true = zero epoch (candidate non-wear).
        var runs = PeriodsRunLength.runs(activity.map { $0 == 0 })

        for index in runs.indices where runs[index].value && runs[index].length < parameters.spikeTolerance {
            runs[index].value = false
        }
        runs = PeriodsRunLength.merged(runs)

        // Decide every relabelling from the merged runs of the previous round, as ActiLife does.
        let before = runs
        for index in before.indices where !before[index].value && before[index].length <= parameters.spikeTolerance {
            let previousLength = index > 0 ? before[index - 1].length : 0
            let nextLength = index + 1 < before.count ? before[index + 1].length : 0
            if previousLength >= parameters.minWindowLength && nextLength >= parameters.minWindowLength {
                runs[index].value = true
            }
        }
        runs = PeriodsRunLength.merged(runs)

        let periods = runs
            .filter { $0.value && $0.length >= parameters.minPeriodLength }
            .map { EpochSpan(startEpoch: $0.start, length: $0.length) }
        return WearClassification(epochCount: activity.count, nonWearPeriods: periods)
    }

    /// Classifies ActiGraph count epochs, picking axis 1 or the vector magnitude per `parameters`.
    public static func classify(axis1: [Double], axis2: [Double], axis3: [Double],
                                parameters: Parameters = .paper) -> WearClassification {
        classify(activity: NonWearActivity.select(axis1: axis1, axis2: axis2, axis3: axis3,
                                                  useMagnitude: parameters.useMagnitude),
                 parameters: parameters)
    }
}

/// Activity selection shared by the count-based non-wear rules.
enum NonWearActivity {
    /// Axis 1, or the vector magnitude √(a1² + a2² + a3²) as ActiLife and sleepr compute it.
    static func select(axis1: [Double], axis2: [Double], axis3: [Double], useMagnitude: Bool) -> [Double] {
        precondition(axis1.count == axis2.count && axis1.count == axis3.count, "axes must have equal length")
        guard useMagnitude else { return axis1 }
        var magnitude = [Double](repeating: 0, count: axis1.count)
        for index in magnitude.indices {
            let a1 = axis1[index], a2 = axis2[index], a3 = axis3[index]
            magnitude[index] = (a1 * a1 + a2 * a2 + a3 * a3).squareRoot()
        }
        return magnitude
    }
}
