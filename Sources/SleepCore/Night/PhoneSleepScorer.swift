/// Sleep/wake per epoch from phone or wearable movement of arbitrary scale.
///
/// The weighting is Oakley's (Oakley 1997, Cambridge Neurotechnology technical report; the
/// algorithm Philips Actiware uses): the activity of an epoch is the weighted sum of the epochs
/// within ±2 minutes, weights 1/25, 1/5, 1, 1/5, 1/25 at 60-s epochs, and the epoch is wake when
/// that sum exceeds a threshold. Actiware's fixed thresholds (20/40/80) are in device counts; phone
/// user acceleration has no such scale, so the threshold here is relative to the night itself:
/// `wakeThresholdFactor × median epoch activity` over the epochs with data. That is sleepsta's
/// adaptation (like Actiware's automatic threshold, it is invariant to the movement's units), and
/// every stored result names it `oakley-relative` with its factor.
public enum PhoneSleepScorer {
    /// - Parameters:
    ///   - activity: movement per 60-s epoch (NaN = no data); missing neighbours count as 0, as in
    ///     Actiware, and the record's edges are zero-padded (``Oakley/Variant/zeroPadded``).
    ///   - thresholdFactor: multiple of the median activity of epochs with data.
    /// - Returns: per epoch `.sleep`/`.wake`, nil where the epoch has no data; and the threshold.
    public static func score(activity: [Double], thresholdFactor: Double, epochSeconds: Int = 60) -> (states: [SleepWake?], threshold: Double) {
        let present = activity.filter { !$0.isNaN }.sorted()
        guard !present.isEmpty else { return (Array(repeating: nil, count: activity.count), .nan) }
        let median = present.count % 2 == 1 ? present[present.count / 2]
            : (present[present.count / 2 - 1] + present[present.count / 2]) / 2
        let threshold = thresholdFactor * median
        let states = Oakley.score(countsPerEpoch: activity, epochSeconds: epochSeconds, threshold: .counts(threshold), variant: .zeroPadded)
        return (states, threshold)
    }
}
