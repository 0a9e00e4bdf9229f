/// Per 5-s epoch and axis: samples, mean, sum of squared deviations (M2), minimum and maximum of
/// the raw acceleration (g). What the non-wear rule needs of the raw signal, kept at epoch
/// resolution so that it streams (a 7-day 100 Hz recording: 120,960 epochs, about 12 MB) and any
/// window of whole epochs can be judged by pooling (Chan, Golub & LeVeque 1979).
public struct EpochAxisStatistics: Sendable, Equatable {
    public var startUTC: Int64
    public var counts: [Int32] = []
    public var mean: [[Double]] = [[], [], []]
    public var m2: [[Double]] = [[], [], []]
    public var minimum: [[Double]] = [[], [], []]
    public var maximum: [[Double]] = [[], [], []]

    public init(startUTC: Int64) { self.startUTC = startUTC }

    public var count: Int { counts.count }

    /// Appends an epoch (empty epochs have count 0 and NaN statistics).
    package mutating func append(count n: Int, mean m: (Double, Double, Double), m2 s: (Double, Double, Double),
                         minimum lo: (Double, Double, Double), maximum hi: (Double, Double, Double)) {
        counts.append(Int32(n))
        mean[0].append(m.0); mean[1].append(m.1); mean[2].append(m.2)
        m2[0].append(s.0); m2[1].append(s.1); m2[2].append(s.2)
        minimum[0].append(lo.0); minimum[1].append(lo.1); minimum[2].append(lo.2)
        maximum[0].append(hi.0); maximum[1].append(hi.1); maximum[2].append(hi.2)
    }

    /// Pooled value range and sample SD (n − 1) of `axis` over epochs `range`; nil with < 2 samples.
    public func pooled(axis: Int, _ range: Range<Int>) -> (range: Double, sd: Double)? {
        var n = 0.0, mu = 0.0, s = 0.0, lo = Double.infinity, hi = -Double.infinity
        for i in range where counts[i] > 0 {
            let nb = Double(counts[i]), mb = mean[axis][i]
            let total = n + nb
            let delta = mb - mu
            s += m2[axis][i] + delta * delta * n * nb / total
            mu += delta * nb / total
            n = total
            lo = Swift.min(lo, minimum[axis][i]); hi = Swift.max(hi, maximum[axis][i])
        }
        guard n >= 2 else { return nil }
        return (hi - lo, (Swift.max(0, s) / (n - 1)).squareRoot())
    }
}
