/// An epoch-by-epoch sleep/wake scorer working on activity counts.
///
/// Every scorer in `Scoring/` takes one value per epoch (missing epochs as `Double.nan`) and returns one
/// label per epoch. `nil` means *not scored*: the epoch's own count is missing, or the variant requires a
/// complete window that the record does not provide (pyActigraphy leaves the first and last epochs of a
/// record unscored; Actiware leaves the first two minutes unscored). What a variant does at the edges is
/// documented on its `Variant` case; see also the DocC article "Sleep/wake scoring".
public protocol SleepWakeScorer: Sendable {
    /// One label per input epoch; `nil` = not scored.
    func score(countsPerEpoch: [Double]) -> [SleepWake?]
}

/// How a sliding window treats values outside the record and missing (NaN) values inside it.
enum SleepWakeWindowEdges: Sendable {
    /// Values outside the record and missing values count as 0 (ActiLife, Actiware); the epoch
    /// itself is still unscored when its own value is missing.
    case zeroPadding
    /// The whole window (all offsets, including zero-weight ones) must lie inside the record and
    /// hold no missing value, as pandas' `rolling(window, center=True)` requires (pyActigraphy).
    case completeWindow
}

/// Weighted moving sums shared by the linear scorers (Cole–Kripke, Scripps, Oakley).
enum SleepWakeKernel {
    /// `result[i] = sum_k weights[k] * values[i + firstOffset + k]`, or NaN where the epoch is not scored.
    ///
    /// Weights are given as integers where the published weights allow it, so that sums of integer
    /// counts are exact and thresholds are compared without rounding (a tie stays a tie).
    static func weightedSums(
        _ values: [Double], weights: [Double], firstOffset: Int, edges: SleepWakeWindowEdges
    ) -> [Double] {
        let n = values.count
        var out = [Double](repeating: .nan, count: n)
        guard n > 0 else { return out }
        let span = weights.count
        values.withUnsafeBufferPointer { x in
            weights.withUnsafeBufferPointer { w in
                out.withUnsafeMutableBufferPointer { o in
                    for i in 0..<n where !x[i].isNaN {
                        var sum = 0.0
                        var complete = true
                        for k in 0..<span {
                            let j = i + firstOffset + k
                            guard j >= 0, j < n, !x[j].isNaN else {
                                complete = false
                                continue
                            }
                            sum += w[k] * x[j]
                        }
                        if edges == .completeWindow && !complete { continue }
                        o[i] = sum
                    }
                }
            }
        }
        return out
    }

    /// Labels from scores: NaN = not scored, otherwise `isSleep(score)`.
    @inline(__always)
    static func labels(_ scores: [Double], isSleep: (Double) -> Bool) -> [SleepWake?] {
        scores.map { $0.isNaN ? nil : (isSleep($0) ? .sleep : .wake) }
    }
}
