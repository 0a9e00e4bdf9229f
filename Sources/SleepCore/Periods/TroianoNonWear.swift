/// Troiano et al. (2008) wear / non-wear classification of 60-s ActiGraph count epochs, as
/// ActiLife 6 runs it.
///
/// **Source.** R. P. Troiano, D. Berrigan, K. W. Dodd, L. C. Mâsse, T. Tilert, M. McDowell,
/// "Physical activity in the United States measured by accelerometer", *Med. Sci. Sports
/// Exerc.* 40(1):181–188, 2008 (the NHANES 2003–04 SAS code). A non-wear period starts with
/// at least 60 consecutive minutes of zero counts and ends at more than 2 minutes of non-zero
/// counts, or at any count above a stop level (100).
///
/// **Behaviour reproduced.** ActiLife 6 "Wear Time Validation" (ActiLife 6 User's Manual,
/// 2012), as pinned down by actigraph.sleepr 0.2.0 (`apply_troiano`, dipetkov/actigraph.sleepr),
/// whose tests assert identity with ActiLife exports for both settings of ActiLife's option
/// *"Require consecutive epochs outside of the activity threshold"* (sleepr's
/// `endat_nnz_seq`):
///
/// * ``SpikeRule/consecutive`` (option on, the default): epochs are labelled zero
///   (count ≤ `activityThreshold`, or count > `maxNonzeroCount`), spike
///   (`activityThreshold` < count ≤ `maxNonzeroCount`) or stop (count > `spikeStopLevel`).
///   A spike run of at most `spikeTolerance` epochs that is followed by a zero run takes the
///   label of the run before it (so it joins a preceding zero run; at the very start of the
///   series it counts as wear). Zero runs of at least `minPeriodLength` epochs are non-wear.
/// * ``SpikeRule/total`` (option off): from each zero epoch, the longest non-wear period
///   that starts there may contain at most `spikeTolerance` spike epochs *in total* (not
///   necessarily consecutive), cannot cross a stop epoch and never ends on a spike. Scanning
///   forward, the first start whose period reaches `minPeriodLength` is taken, the scan
///   resumes after that period, and so on (sleepr's `wle` + overlap removal).
///
/// Epochs are assumed to be 60 s; collapse shorter epochs first.
public enum TroianoNonWear {
    /// How spikes inside a non-wear period are counted (ActiLife's *"Require consecutive
    /// epochs outside of the activity threshold"*).
    public enum SpikeRule: String, Sendable, Hashable, Codable, CaseIterable {
        /// Option on (ActiLife default): a period ends at more than `spikeTolerance`
        /// *consecutive* spike epochs.
        case consecutive
        /// Option off: at most `spikeTolerance` spike epochs in the whole period.
        case total
    }

    /// Troiano parameters, in epochs (= minutes for 60-s epochs) and counts per epoch.
    /// Defaults are the paper's / ActiLife's.
    public struct Parameters: Sendable, Hashable, Codable {
        /// Highest count that is still "zero" (default 0).
        public var activityThreshold: Double
        /// Minimum length of a non-wear period (default 60).
        public var minPeriodLength: Int
        /// Counts above this are treated as zero (default +∞, i.e. never).
        public var maxNonzeroCount: Double
        /// Spike allowance (default 2).
        public var spikeTolerance: Int
        /// Any count above this ends a non-wear period (default 100).
        public var spikeStopLevel: Double
        /// Use the vector magnitude instead of axis 1.
        public var useMagnitude: Bool
        /// ActiLife's consecutive-epochs option.
        public var spikeRule: SpikeRule

        public init(activityThreshold: Double = 0, minPeriodLength: Int = 60, maxNonzeroCount: Double = .infinity,
                    spikeTolerance: Int = 2, spikeStopLevel: Double = 100, useMagnitude: Bool = false,
                    spikeRule: SpikeRule = .consecutive) {
            precondition(minPeriodLength >= 1 && spikeTolerance >= 0, "Troiano needs minPeriodLength >= 1, spikeTolerance >= 0")
            self.activityThreshold = activityThreshold
            self.minPeriodLength = minPeriodLength
            self.maxNonzeroCount = maxNonzeroCount
            self.spikeTolerance = spikeTolerance
            self.spikeStopLevel = spikeStopLevel
            self.useMagnitude = useMagnitude
            self.spikeRule = spikeRule
        }

        /// Troiano et al. 2008 / ActiLife default: threshold 0, 60 min, tolerance 2, stop 100.
        public static let paper = Parameters()
    }

    /// Classifies a series of per-epoch activity values (axis-1 counts or the vector magnitude).
    /// Values must be finite: impute missing epochs before calling (ActiLife data has none).
    public static func classify(activity: [Double], parameters: Parameters = .paper) -> WearClassification {
        precondition(activity.allSatisfy(\.isFinite), "Troiano needs finite counts; impute missing epochs first")
        let periods: [EpochSpan]
        switch parameters.spikeRule {
        case .consecutive: periods = consecutiveRulePeriods(activity, parameters)
        case .total: periods = totalRulePeriods(activity, parameters)
        }
        return WearClassification(epochCount: activity.count, nonWearPeriods: periods)
    }

    /// Classifies ActiGraph count epochs, picking axis 1 or the vector magnitude per `parameters`.
    public static func classify(axis1: [Double], axis2: [Double], axis3: [Double],
                                parameters: Parameters = .paper) -> WearClassification {
        classify(activity: NonWearActivity.select(axis1: axis1, axis2: axis2, axis3: axis3,
                                                  useMagnitude: parameters.useMagnitude),
                 parameters: parameters)
    }

    private enum EpochLabel: Equatable { case zero, spike, stop }

    private static func consecutiveRulePeriods(_ activity: [Double], _ p: Parameters) -> [EpochSpan] {
        let labels: [EpochLabel] = activity.map { count in
            if count > p.spikeStopLevel { return .stop }
            if count > p.activityThreshold && count <= p.maxNonzeroCount { return .spike }
            return .zero
        }
        var runs = PeriodsRunLength.runs(labels)
        let original = runs
        for index in original.indices
        where original[index].value == .spike && original[index].length <= p.spikeTolerance
            && index + 1 < original.count && original[index + 1].value == .zero {
            // Last observation carried forward; a leading tolerated spike counts as wear.
            runs[index].value = index == 0 ? .spike : runs[index - 1].value
        }
        return PeriodsRunLength.merged(runs)
            .filter { $0.value == .zero && $0.length >= p.minPeriodLength }
            .map { EpochSpan(startEpoch: $0.start, length: $0.length) }
    }

    private static func totalRulePeriods(_ activity: [Double], _ p: Parameters) -> [EpochSpan] {
        let lengths = longestPeriodStartingAt(activity, p)
        var periods: [EpochSpan] = []
        var epoch = 0
        while epoch < lengths.count {
            if lengths[epoch] >= p.minPeriodLength {
                periods.append(EpochSpan(startEpoch: epoch, length: lengths[epoch]))
                epoch += lengths[epoch]
            } else {
                epoch += 1
            }
        }
        return periods
    }

    /// For every epoch, the length of the longest non-wear period that starts there under the
    /// "total spikes" rule (0 when the epoch itself is not zero). Scans backwards keeping the
    /// current zero run and the zero runs that follow each of the next `spikeTolerance` spikes.
    private static func longestPeriodStartingAt(_ activity: [Double], _ p: Parameters) -> [Int] {
        let tolerance = p.spikeTolerance
        var zeroRuns = [Int](repeating: 0, count: tolerance + 1)
        var lengths = [Int](repeating: 0, count: activity.count)
        for epoch in stride(from: activity.count - 1, through: 0, by: -1) {
            let count = activity[epoch] > p.maxNonzeroCount ? 0 : activity[epoch]
            if count <= p.activityThreshold {
                zeroRuns[0] += 1
                var length = zeroRuns[0]
                // Include spike j (and the zeros after it) only if some zero run follows at or
                // beyond it, so that the period never ends on a spike.
                var include = false
                for j in stride(from: tolerance, to: 0, by: -1) {
                    if zeroRuns[j] > 0 { include = true }
                    if include { length += zeroRuns[j] + 1 }
                }
                lengths[epoch] = length
            } else if count > p.spikeStopLevel {
                for j in zeroRuns.indices { zeroRuns[j] = 0 }
            } else {
                for j in stride(from: tolerance, to: 0, by: -1) { zeroRuns[j] = zeroRuns[j - 1] }
                zeroRuns[0] = 0
            }
        }
        return lengths
    }
}
