/// ENMO, MAD and angle-z per epoch, as produced by ``RawMetricsAccumulator`` or
/// ``RawMetrics/epochs(timestamps:x:y:z:configuration:)``.
///
/// Epoch `i` covers UTC seconds `[startUTC + i·epochSeconds, startUTC + (i+1)·epochSeconds)`.
/// Epochs without samples (gaps) have `sampleCounts[i] == 0` and NaN metrics. An epoch at the
/// start or end of the data, or beside a gap, may be partly covered: its metrics are over the
/// samples it has (GGIR drops an incomplete last epoch; filter on ``sampleCounts`` to do the same).
public struct RawMetricEpochs: Sendable {
    /// UTC second at which epoch 0 starts (on the grid through ``gridOriginUTC``).
    public var startUTC: Int64
    public var epochSeconds: Int
    public var gridOriginUTC: Int64
    /// Samples per epoch.
    public var sampleCounts: [Int]
    /// ENMO in g per epoch.
    public var enmo: [Double]
    /// MAD in g per epoch; nil after ``aggregated(toEpochSeconds:)``, because an epoch's MAD needs the
    /// deviations from *that* epoch's mean norm, which finer epochs do not keep (compute MAD at the
    /// wanted epoch length instead).
    public var mad: [Double]?
    /// angle-z in degrees per epoch (mean of the per-sample angles).
    public var angleZDegrees: [Double]

    public init(startUTC: Int64, epochSeconds: Int, gridOriginUTC: Int64, sampleCounts: [Int], enmo: [Double],
                mad: [Double]?, angleZDegrees: [Double]) {
        precondition(sampleCounts.count == enmo.count && enmo.count == angleZDegrees.count
                     && (mad == nil || mad!.count == enmo.count), "per-epoch arrays must have equal lengths")
        self.startUTC = startUTC
        self.epochSeconds = epochSeconds
        self.gridOriginUTC = gridOriginUTC
        self.sampleCounts = sampleCounts
        self.enmo = enmo
        self.mad = mad
        self.angleZDegrees = angleZDegrees
    }

    public var count: Int { sampleCounts.count }
    /// UTC second one past the last epoch.
    public var endUTC: Int64 { startUTC + Int64(count * epochSeconds) }
    /// UTC start of epoch `i`.
    public func epochStartUTC(_ i: Int) -> Int64 { startUTC + Int64(i * epochSeconds) }

    /// The same metrics on longer epochs (a multiple of ``epochSeconds``) on the same grid.
    ///
    /// ENMO and angle-z are means over samples, so each longer epoch is the sample-weighted mean
    /// of the shorter epochs it covers: equal to computing it directly up to rounding of the
    /// last bits. MAD cannot be re-aggregated and becomes nil.
    public func aggregated(toEpochSeconds newSeconds: Int) throws(RawMetricsError) -> RawMetricEpochs {
        guard newSeconds >= epochSeconds, newSeconds % epochSeconds == 0 else {
            throw .invalidConfiguration("epochs of \(epochSeconds) s can only be aggregated to a multiple of \(epochSeconds) s, not \(newSeconds) s")
        }
        let L = Int64(newSeconds)
        guard count > 0 else {
            return RawMetricEpochs(startUTC: startUTC, epochSeconds: newSeconds, gridOriginUTC: gridOriginUTC,
                                   sampleCounts: [], enmo: [], mad: nil, angleZDegrees: [])
        }
        let newStart = gridOriginUTC + RawMetrics.floorDivision(startUTC - gridOriginUTC, L) * L
        let newCount = Int(RawMetrics.floorDivision(endUTC - 1 - newStart, L)) + 1
        var counts = [Int](repeating: 0, count: newCount)
        var enmoSum = [Double](repeating: 0, count: newCount)
        var angleSum = [Double](repeating: 0, count: newCount)
        for i in 0..<count where sampleCounts[i] > 0 {
            let k = Int((epochStartUTC(i) - newStart) / L)
            let n = Double(sampleCounts[i])
            counts[k] += sampleCounts[i]
            enmoSum[k] += enmo[i] * n
            angleSum[k] += angleZDegrees[i] * n
        }
        var newEnmo = [Double](repeating: .nan, count: newCount)
        var newAngle = newEnmo
        for k in 0..<newCount where counts[k] > 0 {
            newEnmo[k] = enmoSum[k] / Double(counts[k])
            newAngle[k] = angleSum[k] / Double(counts[k])
        }
        return RawMetricEpochs(startUTC: newStart, epochSeconds: newSeconds, gridOriginUTC: gridOriginUTC,
                               sampleCounts: counts, enmo: newEnmo, mad: nil, angleZDegrees: newAngle)
    }
}

/// Why raw metrics could not be computed, or should not be. `description` is a sentence the CLI
/// can print as it is.
public enum RawMetricsError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidConfiguration(String)
    /// A sample's timestamp lies before the previous sample's.
    case timeWentBackwards(previousTimestamp: Double, timestamp: Double)
    /// The recording would span more than ``RawMetrics/maximumSpanSeconds``.
    case spanTooLong(firstTimestamp: Double, timestamp: Double)
    /// The metric means nothing (or nothing comparable) for input with this gravity content.
    case metricUnavailable(metric: RawMetrics.Metric, gravity: RawMetrics.Gravity, reason: String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let message):
            return "raw metrics: \(message)"
        case .timeWentBackwards(let previous, let t):
            return "raw metrics: sample at \(t) s (UTC) lies before the previous sample at \(previous) s; samples must be in time order"
        case .spanTooLong(let first, let t):
            return "raw metrics: sample at \(t) s (UTC) is more than \(RawMetrics.maximumSpanSeconds / 86_400) days after the first sample at \(first) s; the timestamp is probably corrupt"
        case .metricUnavailable(let metric, let gravity, let reason):
            return "\(metric.rawValue) is not available for this recording (gravity \(gravity.rawValue)): \(reason)"
        }
    }
}
