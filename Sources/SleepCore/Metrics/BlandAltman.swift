#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Bland–Altman agreement of a night statistic (TST, WASO, SE, SOL, …) measured by a test method
/// and a reference method across nights or subjects.
///
/// Definitions (Bland & Altman 1986, Lancet i:307–310; 1999, Stat Methods Med Res 8:135–160),
/// as in yasa `SleepStatsAgreement` (parametric method) and the SRI pipeline (Menghini et al.
/// 2021, `groupDiscr` via R `BlandAltmanLeh::bland.altman.stats`):
/// - difference dᵢ = testᵢ − referenceᵢ (device minus reference);
/// - bias = mean(d);
/// - SD = sample standard deviation of d with n − 1 in the denominator;
/// - limits of agreement = bias ± 1.96 · SD (``multiplier``);
/// - 95 % confidence intervals (parametric, Bland & Altman 1986): bias ± t · SD/√n and
///   each limit ± t · SD · √(3/n), t the (1+confidence)/2 quantile of Student's t with n − 1
///   degrees of freedom (yasa's `parm` CI; BlandAltmanLeh uses the same t and √3 factor).
/// - proportional bias: ordinary least squares of d on the reference value (SRI / yasa
///   `size = reference`), reported as ``proportionalBiasSlope`` / ``proportionalBiasIntercept``.
public struct BlandAltman: Sendable, Hashable, Codable {
    /// Number of paired values.
    public var count: Int
    /// Per-pair differences test − reference, in input order.
    public var differences: [Double]
    /// Mean difference (test − reference).
    public var bias: Double
    /// Sample SD of the differences (n − 1); nil for n < 2.
    public var standardDeviation: Double?
    /// Multiplier of the SD for the limits (1.96 by default).
    public var multiplier: Double
    /// bias − multiplier · SD.
    public var lowerLimitOfAgreement: Double?
    /// bias + multiplier · SD.
    public var upperLimitOfAgreement: Double?
    /// Confidence level of the intervals below (0.95 by default).
    public var confidence: Double
    /// Parametric CI of the bias (nil for n < 2).
    public var biasConfidenceInterval: ClosedRange<Double>?
    /// Parametric CI of the lower limit.
    public var lowerLimitConfidenceInterval: ClosedRange<Double>?
    /// Parametric CI of the upper limit.
    public var upperLimitConfidenceInterval: ClosedRange<Double>?
    /// Slope of the OLS regression difference ~ reference (nil when the reference is constant).
    public var proportionalBiasSlope: Double?
    /// Intercept of that regression.
    public var proportionalBiasIntercept: Double?

    /// Computes the Bland–Altman statistics; nil when there is no pair.
    public static func compute(
        reference: [Double], test: [Double], multiplier: Double = 1.96, confidence: Double = 0.95
    ) -> BlandAltman? {
        precondition(reference.count == test.count, "paired values needed")
        precondition(confidence > 0 && confidence < 1, "confidence must be in (0, 1)")
        let n = reference.count
        guard n > 0 else { return nil }
        let d = (0..<n).map { test[$0] - reference[$0] }
        let mean = d.reduce(0, +) / Double(n)
        var result = BlandAltman(
            count: n, differences: d, bias: mean, standardDeviation: nil, multiplier: multiplier,
            lowerLimitOfAgreement: nil, upperLimitOfAgreement: nil, confidence: confidence,
            biasConfidenceInterval: nil, lowerLimitConfidenceInterval: nil,
            upperLimitConfidenceInterval: nil, proportionalBiasSlope: nil, proportionalBiasIntercept: nil)
        guard n >= 2 else { return result }
        var ss = 0.0
        for x in d { ss += (x - mean) * (x - mean) }
        let sd = (ss / Double(n - 1)).squareRoot()
        let lower = mean - multiplier * sd
        let upper = mean + multiplier * sd
        result.standardDeviation = sd
        result.lowerLimitOfAgreement = lower
        result.upperLimitOfAgreement = upper
        let t = StudentT.quantile((1 + confidence) / 2, degreesOfFreedom: Double(n - 1))
        let seBias = sd / Double(n).squareRoot()
        let seLimit = seBias * Double(3).squareRoot()
        result.biasConfidenceInterval = (mean - t * seBias)...(mean + t * seBias)
        result.lowerLimitConfidenceInterval = (lower - t * seLimit)...(lower + t * seLimit)
        result.upperLimitConfidenceInterval = (upper - t * seLimit)...(upper + t * seLimit)

        let meanRef = reference.reduce(0, +) / Double(n)
        var sxx = 0.0
        var sxy = 0.0
        for i in 0..<n {
            sxx += (reference[i] - meanRef) * (reference[i] - meanRef)
            sxy += (reference[i] - meanRef) * (d[i] - mean)
        }
        if sxx > 0 {
            let slope = sxy / sxx
            result.proportionalBiasSlope = slope
            result.proportionalBiasIntercept = mean - slope * meanRef
        }
        return result
    }

    /// Student's t distribution (CDF through the regularized incomplete beta function, quantile by
    /// bisection). Accurate to ~1e-12; only used for confidence intervals.
    public enum StudentT {
        /// P(T ≤ t) for ν degrees of freedom.
        public static func cdf(_ t: Double, degreesOfFreedom nu: Double) -> Double {
            let x = nu / (nu + t * t)
            let tail = 0.5 * regularizedIncompleteBeta(x, a: nu / 2, b: 0.5)
            return t >= 0 ? 1 - tail : tail
        }

        /// The p-quantile for ν degrees of freedom (0 < p < 1).
        public static func quantile(_ p: Double, degreesOfFreedom nu: Double) -> Double {
            precondition(p > 0 && p < 1 && nu > 0)
            if p == 0.5 { return 0 }
            if p < 0.5 { return -quantile(1 - p, degreesOfFreedom: nu) }
            var lo = 0.0
            var hi = 1.0
            while cdf(hi, degreesOfFreedom: nu) < p { hi *= 2 }
            for _ in 0..<200 {
                let mid = 0.5 * (lo + hi)
                if cdf(mid, degreesOfFreedom: nu) < p { lo = mid } else { hi = mid }
                if hi - lo <= 1e-15 * hi { break }
            }
            return 0.5 * (lo + hi)
        }

        /// I_x(a, b) by the continued fraction of the incomplete beta function (modified Lentz),
        /// using the symmetry I_x(a,b) = 1 − I_{1−x}(b,a) where it converges faster.
        static func regularizedIncompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
            if x <= 0 { return 0 }
            if x >= 1 { return 1 }
            let logFront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x)
            if x < (a + 1) / (a + b + 2) {
                return exp(logFront) * continuedFraction(x, a: a, b: b) / a
            }
            return 1 - exp(logFront) * continuedFraction(1 - x, a: b, b: a) / b
        }

        private static func continuedFraction(_ x: Double, a: Double, b: Double) -> Double {
            let tiny = 1e-300
            var c = 1.0
            var d = 1 - (a + b) * x / (a + 1)
            if abs(d) < tiny { d = tiny }
            d = 1 / d
            var h = d
            for m in 1...500 {
                let m = Double(m)
                // even step
                var num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
                d = 1 + num * d
                if abs(d) < tiny { d = tiny }
                c = 1 + num / c
                if abs(c) < tiny { c = tiny }
                d = 1 / d
                h *= d * c
                // odd step
                num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
                d = 1 + num * d
                if abs(d) < tiny { d = tiny }
                c = 1 + num / c
                if abs(c) < tiny { c = tiny }
                d = 1 / d
                let delta = d * c
                h *= delta
                if abs(delta - 1) < 1e-16 { break }
            }
            return h
        }
    }
}
