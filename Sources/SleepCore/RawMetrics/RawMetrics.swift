#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Movement metrics from raw tri-axial acceleration (in g): ENMO, MAD and angle-z, per epoch.
///
/// **Definitions** (per sample aᵢ = (xᵢ, yᵢ, zᵢ), epoch E with n samples, ‖a‖ the Euclidean norm):
/// * **ENMO** (Euclidean Norm Minus One) = (1/n) Σ max(0, ‖aᵢ‖ − 1 g).
///   V. T. van Hees et al., "Separating movement and gravity components in an acceleration signal
///   and implications for the assessment of human daily physical activity", *PLoS ONE* 8(4):e61691,
///   2013. GGIR `g.applymetrics`: negative values are set to 0 per sample, then averaged per epoch.
/// * **MAD** (Mean Amplitude Deviation) = (1/n) Σ |‖aᵢ‖ − r̄|, r̄ = (1/n) Σ ‖aᵢ‖ over the same epoch.
///   H. Vähä-Ypyä et al., "A universal, accurate intensity-based classification of different physical
///   activities using raw data of accelerometer", *Clin Physiol Funct Imaging* 35(1):64–70, 2015.
///   GGIR `g.applymetrics` computes the epoch mean of the norm, then the epoch mean of the absolute
///   deviations from it (two passes, as here).
/// * **angle-z** = atan(z̃ / √(x̃² + ỹ²)) · 180/π per sample, where x̃, ỹ, z̃ are centred rolling
///   medians of each axis over about 5 s, then averaged per epoch.
///   V. T. van Hees et al., "A novel, open access method to assess sleep duration using a wrist-worn
///   accelerometer", *PLoS ONE* 10(11):e0142533, 2015. The rolling-median window is GGIR's
///   (`g.applymetrics`, internal `rollmed`); see ``AngleZWindow`` for its two versions.
///
/// Reference software: GGIR (wadpac/GGIR, `R/g.applymetrics.R`), reimplemented from its
/// definitions. Differences from GGIR, all at segment edges or block boundaries, are listed on
/// ``RawMetricsAccumulator``.
///
/// The streaming implementation is ``RawMetricsAccumulator``; ``epochs(timestamps:x:y:z:configuration:)``
/// is an independent array implementation of the same definitions (the tests check that both agree
/// bit for bit). Which metric means anything depends on whether the input contains gravity: see
/// ``suitability(of:gravity:)``.
public enum RawMetrics {
    /// The metrics computed here. Raw values are the names GGIR uses in its output.
    public enum Metric: String, Sendable, Hashable, CaseIterable, Codable {
        case enmo = "ENMO"
        case mad = "MAD"
        case angleZ = "anglez"
    }

    /// Which rolling median feeds angle-z. The two differ in which samples enter the window.
    public enum AngleZWindow: String, Sendable, Hashable, CaseIterable, Codable {
        /// GGIR since September 2022 (wadpac/GGIR pull request #640, "Speeding up GGIR part 1"):
        /// only every `step = max(⌊rate / 10⌋, 1)`-th sample enters the median (about 10 per second),
        /// the window holds `round(r · 5)` of those samples, made odd (+1 if even), where `r` is 10
        /// when `step > 1` and the sample rate otherwise (51 at 100 Hz; R's `round`, halves to even),
        /// and each median is held for the `step` samples that follow the sample it is centred on.
        /// GGIR's default and sleepsta's.
        case ggir = "ggir"
        /// The 2015 paper and GGIR before that change (and the angle-z HDCZA was developed on): every
        /// sample enters the median, window `round(rate · 5)` samples made odd (501 at 100 Hz).
        case fullRate = "full-rate"

        /// The decimation step and the window length (in entering samples, odd) at `sampleRateHz`.
        public func medianWindow(sampleRateHz: Double) -> (decimationStep: Int, length: Int) {
            let step: Int
            let windowRate: Double
            switch self {
            case .ggir:
                step = max(Int((sampleRateHz / 10).rounded(.down)), 1)
                windowRate = step > 1 ? 10 : sampleRateHz
            case .fullRate:
                step = 1
                windowRate = sampleRateHz
            }
            var length = Int((windowRate * 5).rounded(.toNearestOrEven))
            if length % 2 == 0 { length += 1 }
            return (step, length)
        }
    }

    /// What the metrics are computed over.
    public struct Configuration: Sendable, Hashable {
        /// Nominal sample rate; only the angle-z window depends on it (epochs follow the timestamps).
        public var sampleRateHz: Double
        /// Epoch length in seconds: 1 for a per-second base, 5 for GGIR's default epoch (`ws3`).
        public var epochSeconds: Int
        /// Epochs lie on a grid through this UTC second (0: on whole multiples of the epoch length,
        /// which are also local-clock boundaries for every epoch length dividing 15 minutes).
        public var gridOriginUTC: Int64
        public var angleZWindow: AngleZWindow
        /// Two consecutive samples further apart than this start a new *segment*: the rolling median
        /// does not reach across a gap (each segment's edges are handled as the recording's edges).
        public var maximumSampleGapSeconds: Double

        public init(sampleRateHz: Double, epochSeconds: Int = 5, gridOriginUTC: Int64 = 0,
                    angleZWindow: AngleZWindow = .ggir, maximumSampleGapSeconds: Double = 1) throws(RawMetricsError) {
            guard sampleRateHz.isFinite, sampleRateHz > 0, sampleRateHz <= 100_000 else {
                throw .invalidConfiguration("sample rate must be a positive number of Hz, got \(sampleRateHz)")
            }
            guard epochSeconds >= 1, epochSeconds <= 86_400 else {
                throw .invalidConfiguration("epoch length must be 1 to 86400 seconds, got \(epochSeconds)")
            }
            guard maximumSampleGapSeconds.isFinite, maximumSampleGapSeconds > 0 else {
                throw .invalidConfiguration("maximum sample gap must be a positive number of seconds")
            }
            self.sampleRateHz = sampleRateHz
            self.epochSeconds = epochSeconds
            self.gridOriginUTC = gridOriginUTC
            self.angleZWindow = angleZWindow
            self.maximumSampleGapSeconds = maximumSampleGapSeconds
        }
    }

    /// The largest span of a recording, as for ``SecondAccumulator``: a timestamp far away is corrupt input.
    public static let maximumSpanSeconds: Int64 = SecondAccumulator.maximumSpanSeconds

    /// GGIR's z-angle in degrees: the angle between the z axis and the horizontal plane, from a
    /// (median) gravity vector. `atan(z / √(x² + y²)) / (π / 180)` written as GGIR writes it; a zero
    /// vector has no angle (NaN), as in GGIR.
    @inlinable
    public static func angleZDegrees(x: Double, y: Double, z: Double) -> Double {
        atan(z / (x * x + y * y).squareRoot()) / (Double.pi / 180)
    }

    /// The metrics of a whole recording held in arrays: an implementation independent of
    /// ``RawMetricsAccumulator`` (whole-array passes instead of streaming) with identical results.
    /// Samples with a non-finite timestamp or axis are skipped, as by the accumulator.
    public static func epochs(timestamps: [Double], x: [Double], y: [Double], z: [Double],
                              configuration: Configuration) throws(RawMetricsError) -> RawMetricEpochs {
        guard timestamps.count == x.count, x.count == y.count, y.count == z.count else {
            throw .invalidConfiguration("timestamps and axes must have equal lengths")
        }
        // Accepted samples, in order.
        var kept: [Int] = []
        kept.reserveCapacity(timestamps.count)
        for i in timestamps.indices where timestamps[i].isFinite && x[i].isFinite && y[i].isFinite && z[i].isFinite {
            kept.append(i)
        }
        let E = Int64(configuration.epochSeconds)
        guard let first = kept.first else {
            return RawMetricEpochs(startUTC: configuration.gridOriginUTC, epochSeconds: configuration.epochSeconds,
                                   gridOriginUTC: configuration.gridOriginUTC, sampleCounts: [], enmo: [], mad: [],
                                   angleZDegrees: [])
        }
        func epochIndex(_ t: Double) -> Int64 {
            floorDivision(Int64(t.rounded(.down)) - configuration.gridOriginUTC, E)
        }
        let firstEpoch = epochIndex(timestamps[first])
        var previous = timestamps[first]
        var epochOf = [Int](repeating: 0, count: kept.count)
        var segmentStarts: [Int] = [0]
        for (k, i) in kept.enumerated() {
            let t = timestamps[i]
            if t < previous { throw .timeWentBackwards(previousTimestamp: previous, timestamp: t) }
            let e = epochIndex(t)
            if (e - firstEpoch) * E >= maximumSpanSeconds {
                throw .spanTooLong(firstTimestamp: timestamps[first], timestamp: t)
            }
            if k > 0 && t - previous > configuration.maximumSampleGapSeconds { segmentStarts.append(k) }
            epochOf[k] = Int(e - firstEpoch)
            previous = t
        }
        let epochCount = epochOf[kept.count - 1] + 1

        // angle-z per accepted sample, segment by segment.
        let (step, W) = configuration.angleZWindow.medianWindow(sampleRateHz: configuration.sampleRateHz)
        let h = W / 2
        var angle = [Double](repeating: .nan, count: kept.count)
        segmentStarts.append(kept.count)
        for s in 0..<(segmentStarts.count - 1) {
            let lo = segmentStarts[s], hi = segmentStarts[s + 1]
            let decimated = stride(from: lo, to: hi, by: step).map { kept[$0] }
            let medianAngles = centredMedianAngles(decimated.map { x[$0] }, decimated.map { y[$0] },
                                                   decimated.map { z[$0] }, windowLength: W)
            for k in lo..<hi {
                let block = (k - lo) / step
                // Edges: the first full-window median back to the start, the last one to the end.
                let j = medianAngles.count == 1 ? 0 : min(max(block, h), decimated.count - 1 - h) - h
                angle[k] = medianAngles[j]
            }
        }

        // Epoch sums in sample order (the accumulator adds in the same order: identical rounding).
        var counts = [Int](repeating: 0, count: epochCount)
        var enmoSum = [Double](repeating: 0, count: epochCount)
        var normSum = [Double](repeating: 0, count: epochCount)
        var angleSum = [Double](repeating: 0, count: epochCount)
        var norms = [Double](repeating: 0, count: kept.count)
        for (k, i) in kept.enumerated() {
            let n = (x[i] * x[i] + y[i] * y[i] + z[i] * z[i]).squareRoot()
            norms[k] = n
            let e = epochOf[k]
            counts[e] += 1
            enmoSum[e] += max(0, n - 1)
            normSum[e] += n
            angleSum[e] += angle[k]
        }
        var deviationSum = [Double](repeating: 0, count: epochCount)
        for k in kept.indices {
            let e = epochOf[k]
            deviationSum[e] += abs(norms[k] - normSum[e] / Double(counts[e]))
        }
        var enmo = [Double](repeating: .nan, count: epochCount)
        var mad = enmo, angleZ = enmo
        for e in 0..<epochCount where counts[e] > 0 {
            let n = Double(counts[e])
            enmo[e] = enmoSum[e] / n
            mad[e] = deviationSum[e] / n
            angleZ[e] = angleSum[e] / n
        }
        return RawMetricEpochs(startUTC: configuration.gridOriginUTC + firstEpoch * E,
                               epochSeconds: configuration.epochSeconds, gridOriginUTC: configuration.gridOriginUTC,
                               sampleCounts: counts, enmo: enmo, mad: mad, angleZDegrees: angleZ)
    }

    /// The metrics of the samples in a ``RawSampleBuffer``.
    public static func epochs(of buffer: RawSampleBuffer, configuration: Configuration) throws(RawMetricsError) -> RawMetricEpochs {
        try epochs(timestamps: buffer.timestamps, x: buffer.x, y: buffer.y, z: buffer.z, configuration: configuration)
    }

    /// angle-z of the centred medians of one segment's entering samples: element j is the median
    /// centred on entering sample j + h; a segment shorter than the window has one element, the
    /// angle of the medians of all its samples.
    static func centredMedianAngles(_ x: [Double], _ y: [Double], _ z: [Double], windowLength W: Int) -> [Double] {
        let n = x.count
        var wx = MedianWindow(capacity: W), wy = MedianWindow(capacity: W), wz = MedianWindow(capacity: W)
        if n < W {
            for i in 0..<n { wx.push(x[i]); wy.push(y[i]); wz.push(z[i]) }
            return [angleZDegrees(x: wx.median, y: wy.median, z: wz.median)]
        }
        var result: [Double] = []
        result.reserveCapacity(n - W + 1)
        for i in 0..<n {
            wx.push(x[i]); wy.push(y[i]); wz.push(z[i])
            if i >= W - 1 { result.append(angleZDegrees(x: wx.median, y: wy.median, z: wz.median)) }
        }
        return result
    }

    @inlinable
    static func floorDivision(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
