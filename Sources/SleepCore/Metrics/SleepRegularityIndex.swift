/// Sleep Regularity Index (SRI): the likelihood that two epochs 24 h apart are in the same
/// sleep/wake state, rescaled to −100 (alternating) … 100 (perfectly regular).
///
/// Phillips et al. (2017, Sci Rep 7:3216):
/// SRI = −100 + 200/(M·(N−1)) · Σⱼ Σᵢ δ(s(i,j), s(i+1,j)), with M epochs per day, N days,
/// s(i,j) the state on day i at clock time j and δ = 1 when equal.
///
/// Variants (they coincide for complete recordings of whole days):
/// - ``Variant/pyActigraphy``: pyActigraphy 1.2.2 `sleep.scoring.sri.sri(data, threshold)` as
///   called by `SleepRegularityIndex(bin_threshold=0)` on 0 = sleep / 1 = wake scores: for
///   every clock time the share of equal consecutive (24 h apart) pairs is computed, and the
///   SRI is 200 × the mean of these shares − 100 (each clock time weighs the same even when
///   some have one more day). Binarization `value > threshold` turns a missing score into 0,
///   i.e. **sleep**; a clock time seen only once makes pyActigraphy return NaN (nil here).
///   Note that pyActigraphy's `SleepRegularityIndex` ignores its `freq` argument: the SRI is
///   computed at the epoch length of the scoring.
/// - ``Variant/phillips2017``: pooled over all pairs (t, t + 24 h) where both epochs are scored;
///   pairs with a missing epoch are left out (the usual handling of gaps, e.g. Windred et al.
///   2024, Sleep 47:zsad253).
public enum SleepRegularityIndex {

    public enum Variant: String, Sendable, Hashable, Codable, CaseIterable {
        case pyActigraphy
        case phillips2017
    }

    /// SRI of a regular sleep/wake series (nil = missing epoch); nil when no pair 24 h apart
    /// exists (or, for `.pyActigraphy`, when some clock time occurs only once).
    ///
    /// - Parameters:
    ///   - states: one state per epoch.
    ///   - epochSeconds: epoch length; must divide 24 h.
    public static func compute(states: [SleepWake?], epochSeconds: Int, variant: Variant = .pyActigraphy) -> Double? {
        precondition(epochSeconds > 0 && 86_400 % epochSeconds == 0, "epoch length must divide 24 h")
        let lag = 86_400 / epochSeconds
        guard states.count > lag else { return nil }
        switch variant {
        case .phillips2017:
            var pairs = 0
            var same = 0
            for i in 0..<(states.count - lag) {
                guard let a = states[i], let b = states[i + lag] else { continue }
                pairs += 1
                if a == b { same += 1 }
            }
            guard pairs > 0 else { return nil }
            return 200 * Double(same) / Double(pairs) - 100
        case .pyActigraphy:
            // Missing → 0 (sleep) as `np.where(x > threshold, 1, 0)` does.
            let binary: [UInt8] = states.map { $0 == .wake ? 1 : 0 }
            var shareSum = 0.0
            for slot in 0..<lag {
                var pairs = 0
                var same = 0
                var i = slot
                while i + lag < binary.count {
                    pairs += 1
                    if binary[i] == binary[i + lag] { same += 1 }
                    i += lag
                }
                guard pairs > 0 else { return nil }
                shareSum += Double(same) / Double(pairs)
            }
            return 200 * shareSum / Double(lag) - 100
        }
    }
}
