/// Non-parametric rest-activity rhythm metrics of a multi-day activity recording: interdaily
/// stability (IS), intradaily variability (IV), L5, M10 (with their start times) and relative
/// amplitude (RA).
///
/// Sources: Witting et al. (1990, Biol Psychiatry 27:563–572) for IS and IV; Van Someren et al.
/// (1997, J Biol Rhythms 12:146–156; 1999, Chronobiol Int 16:505–518) for L5, M10 and RA. The
/// reference software reproduced exactly is **pyActigraphy 1.2.2** (Hammad et al. 2021, PLoS
/// Comput Biol 17:e1009514), `MetricsMixin.IS/IV/L5/M10/RA` with their defaults:
///
/// - **Binarization** (default on): an epoch is 1 when its count is `> 4`, else 0; a missing
///   epoch (NaN) stays missing.
/// - **IS, IV** use the (binarized) data resampled to **1 h** bins anchored at the first epoch
///   (pandas `resample('1H', origin='start').sum()`): a bin is the sum of its epochs, missing
///   epochs are skipped, an all-missing bin is 0 and the last, possibly incomplete, bin is kept
///   as a partial sum.
///   - IS = var(hourly profile) / var(all bins), where the hourly profile is the mean of the bins
///     at each clock time and both variances are *sample* variances (n − 1).
///   - IV = mean of squared successive differences / var(all bins) (sample variance).
/// - **L5 / M10** use the (binarized) data at the native epoch length (no resampling): the
///   average day (mean per clock time over all days) is treated as cyclic and L5 (M10) is the
///   mean of the 5 h (10 h) window with the lowest (highest) sum. The window start is reported
///   as seconds since midnight.
/// - RA = (M10 − L5)/(M10 + L5).
///
/// Witting's published formulas use population-type normalisations
/// (IS = N·Σₕ(x̄ₕ − x̄)² / (p·Σᵢ(xᵢ − x̄)²), IV = N·Σ(xᵢ − xᵢ₋₁)² / ((N − 1)·Σ(xᵢ − x̄)²)); they are
/// available as ``Formula/witting1990``. The two differ by about a factor N/(N−1) for IV and
/// p/(p−1)·(N−1)/N for IS (e.g. 24/23 for hourly bins).
///
/// Known pyActigraphy behaviours *not* copied: when several windows tie exactly (common with
/// binarized data), pyActigraphy picks whichever pandas' floating-point rolling sum makes
/// smallest and may report it on the second copy of the day (e.g. "1 day 01:07:00");
/// sleepsta reports the earliest clock time among windows equal within 1e-11 relative.
public struct RestActivityMetrics: Sendable, Hashable, Codable {

    /// Normalisation of IS and IV.
    public enum Formula: String, Sendable, Hashable, Codable, CaseIterable {
        /// pyActigraphy 1.2.2: ratios of pandas sample variances (n − 1).
        case pyActigraphy
        /// Witting et al. 1990 as printed (population sums with N and p factors).
        case witting1990
    }

    public struct Options: Sendable, Hashable, Codable {
        /// Binarize counts (count > ``threshold`` → 1, else 0) before every metric.
        public var binarize: Bool
        /// Binarization threshold in counts per epoch (pyActigraphy default 4).
        public var threshold: Double
        /// Bin length for IS and IV, seconds (pyActigraphy default 1 h). Must be a multiple of
        /// the epoch length and divide 24 h.
        public var resampleSeconds: Int
        /// IS/IV normalisation.
        public var formula: Formula

        public init(binarize: Bool = true, threshold: Double = 4, resampleSeconds: Int = 3600,
                    formula: Formula = .pyActigraphy) {
            self.binarize = binarize
            self.threshold = threshold
            self.resampleSeconds = resampleSeconds
            self.formula = formula
        }
    }

    /// Interdaily stability (0–1 for the Witting form; nil without enough data).
    public var interdailyStability: Double?
    /// Intradaily variability (≈0–2).
    public var intradailyVariability: Double?
    /// Mean (binarized) activity per epoch in the least active 5 h of the average day.
    public var l5: Double?
    /// Start of the L5 window, seconds since local midnight.
    public var l5StartSecondsSinceMidnight: Int?
    /// Mean (binarized) activity per epoch in the most active 10 h of the average day.
    public var m10: Double?
    /// Start of the M10 window, seconds since local midnight.
    public var m10StartSecondsSinceMidnight: Int?
    /// Relative amplitude (M10 − L5)/(M10 + L5).
    public var relativeAmplitude: Double?
    /// Options used.
    public var options: Options

    public init(interdailyStability: Double?, intradailyVariability: Double?, l5: Double?, l5StartSecondsSinceMidnight: Int?,
                m10: Double?, m10StartSecondsSinceMidnight: Int?, relativeAmplitude: Double?, options: Options) {
        self.interdailyStability = interdailyStability; self.intradailyVariability = intradailyVariability
        self.l5 = l5; self.l5StartSecondsSinceMidnight = l5StartSecondsSinceMidnight
        self.m10 = m10; self.m10StartSecondsSinceMidnight = m10StartSecondsSinceMidnight
        self.relativeAmplitude = relativeAmplitude; self.options = options
    }

    /// Local clock time (seconds since midnight, 0..<86400) of a UTC instant.
    public static func secondsSinceMidnight(unixSeconds: Int64, utcOffsetSeconds: Int) -> Int {
        let local = unixSeconds + Int64(utcOffsetSeconds)
        let r = local % 86_400
        return Int(r < 0 ? r + 86_400 : r)
    }

    /// All metrics of a regular epoch series.
    ///
    /// - Parameters:
    ///   - counts: activity per epoch; `Double.nan` marks a missing epoch.
    ///   - epochSeconds: epoch length; must divide 24 h.
    ///   - startSecondsSinceMidnight: local clock time of the first epoch's start.
    public static func compute(
        counts: [Double], epochSeconds: Int, startSecondsSinceMidnight: Int, options: Options = Options()
    ) -> RestActivityMetrics {
        let values = prepared(counts, options: options)
        let bins = resampled(values, epochSeconds: epochSeconds, binSeconds: options.resampleSeconds)
        let l5 = window(values, epochSeconds: epochSeconds, start: startSecondsSinceMidnight, hours: 5, lowest: true)
        let m10 = window(values, epochSeconds: epochSeconds, start: startSecondsSinceMidnight, hours: 10, lowest: false)
        var ra: Double? = nil
        if let l = l5?.mean, let m = m10?.mean, m + l != 0 { ra = (m - l) / (m + l) }
        return RestActivityMetrics(
            interdailyStability: interdailyStability(bins, binSeconds: options.resampleSeconds, formula: options.formula),
            intradailyVariability: intradailyVariability(bins, formula: options.formula),
            l5: l5?.mean, l5StartSecondsSinceMidnight: l5?.start,
            m10: m10?.mean, m10StartSecondsSinceMidnight: m10?.start,
            relativeAmplitude: ra, options: options)
    }

    /// All metrics of a regular epoch series whose first epoch starts at a UTC instant; clock
    /// times (L5/M10 starts, grouping by time of day) are local, `utcOffsetSeconds` east of UTC.
    public static func compute(
        counts: [Double], epochSeconds: Int, startUnixSeconds: Int64, utcOffsetSeconds: Int,
        options: Options = Options()
    ) -> RestActivityMetrics {
        compute(counts: counts, epochSeconds: epochSeconds,
                startSecondsSinceMidnight: secondsSinceMidnight(unixSeconds: startUnixSeconds, utcOffsetSeconds: utcOffsetSeconds),
                options: options)
    }

    // MARK: - steps

    /// Binarized copy (NaN kept) or the counts themselves.
    static func prepared(_ counts: [Double], options: Options) -> [Double] {
        guard options.binarize else { return counts }
        let threshold = options.threshold
        return counts.map { $0.isNaN ? .nan : ($0 > threshold ? 1 : 0) }
    }

    /// Sums of consecutive groups of `binSeconds / epochSeconds` epochs starting at the first
    /// epoch; NaN skipped, all-NaN bin = 0 (pandas `sum`). Identity when the bin is one epoch.
    package static func resampled(_ values: [Double], epochSeconds: Int, binSeconds: Int) -> [Double] {
        precondition(epochSeconds > 0 && binSeconds >= epochSeconds && binSeconds % epochSeconds == 0,
                     "resampling length must be a multiple of the epoch length")
        let m = binSeconds / epochSeconds
        if m == 1 { return values }
        let binCount = (values.count + m - 1) / m
        var bins = [Double](repeating: 0, count: binCount)
        values.withUnsafeBufferPointer { v in
            for b in 0..<binCount {
                var s = 0.0
                for i in (b * m)..<min(v.count, (b + 1) * m) where !v[i].isNaN { s += v[i] }
                bins[b] = s
            }
        }
        return bins
    }

    /// Mean and sample variance (n − 1) of the non-NaN values.
    private static func meanAndSampleVariance(_ values: [Double]) -> (mean: Double, variance: Double?, count: Int) {
        var n = 0
        var s = 0.0
        for x in values where !x.isNaN { s += x; n += 1 }
        guard n > 0 else { return (.nan, nil, 0) }
        let mean = s / Double(n)
        var ss = 0.0
        for x in values where !x.isNaN { ss += (x - mean) * (x - mean) }
        return (mean, n > 1 ? ss / Double(n - 1) : nil, n)
    }

    /// IS of already binned values; bins `k` and `k + 86400/binSeconds` share a clock time.
    public static func interdailyStability(_ bins: [Double], binSeconds: Int, formula: Formula = .pyActigraphy) -> Double? {
        precondition(86_400 % binSeconds == 0, "bin length must divide 24 h")
        let p = 86_400 / binSeconds
        var sums = [Double](repeating: 0, count: p)
        var counts = [Int](repeating: 0, count: p)
        for (k, x) in bins.enumerated() where !x.isNaN {
            sums[k % p] += x
            counts[k % p] += 1
        }
        var profile: [Double] = []
        for h in 0..<p where counts[h] > 0 { profile.append(sums[h] / Double(counts[h])) }
        let all = meanAndSampleVariance(bins)
        switch formula {
        case .pyActigraphy:
            guard let vAll = all.variance, vAll > 0, let vProfile = meanAndSampleVariance(profile).variance else { return nil }
            return vProfile / vAll
        case .witting1990:
            guard all.count > 1 else { return nil }
            var num = 0.0
            for x in profile { num += (x - all.mean) * (x - all.mean) }
            var den = 0.0
            for x in bins where !x.isNaN { den += (x - all.mean) * (x - all.mean) }
            guard den > 0 else { return nil }
            return Double(all.count) * num / (Double(profile.count) * den)
        }
    }

    /// IV of already binned values (successive differences skip pairs with a missing bin).
    public static func intradailyVariability(_ bins: [Double], formula: Formula = .pyActigraphy) -> Double? {
        var sumSq = 0.0
        var pairs = 0
        if bins.count > 1 {
            for i in 1..<bins.count where !bins[i].isNaN && !bins[i - 1].isNaN {
                let d = bins[i] - bins[i - 1]
                sumSq += d * d
                pairs += 1
            }
        }
        let all = meanAndSampleVariance(bins)
        guard pairs > 0, let vAll = all.variance, vAll > 0 else { return nil }
        switch formula {
        case .pyActigraphy:
            return (sumSq / Double(pairs)) / vAll
        case .witting1990:
            let n = Double(all.count)
            let ss = vAll * (n - 1)
            return n * sumSq / ((n - 1) * ss)
        }
    }

    /// Average day at the native epoch length: mean per clock-time slot, slot 0 starting at
    /// midnight (+ the sub-epoch phase of the start time). NaN when a slot has no data.
    static func averageDay(_ values: [Double], epochSeconds: Int, start: Int) -> (profile: [Double], phase: Int) {
        precondition(epochSeconds > 0 && 86_400 % epochSeconds == 0, "epoch length must divide 24 h")
        let p = 86_400 / epochSeconds
        let startMod = ((start % 86_400) + 86_400) % 86_400
        let phase = startMod % epochSeconds
        let firstSlot = (startMod - phase) / epochSeconds
        var sums = [Double](repeating: 0, count: p)
        var counts = [Int](repeating: 0, count: p)
        values.withUnsafeBufferPointer { v in
            var slot = firstSlot
            for i in 0..<v.count {
                if !v[i].isNaN { sums[slot] += v[i]; counts[slot] += 1 }
                slot += 1
                if slot == p { slot = 0 }
            }
        }
        let profile = (0..<p).map { counts[$0] > 0 ? sums[$0] / Double(counts[$0]) : Double.nan }
        return (profile, phase)
    }

    /// Lowest / highest mean over a cyclic window of `hours` on the average day.
    static func window(_ values: [Double], epochSeconds: Int, start: Int, hours: Int, lowest: Bool) -> (mean: Double, start: Int)? {
        guard !values.isEmpty else { return nil }
        let (profile, phase) = averageDay(values, epochSeconds: epochSeconds, start: start)
        precondition((hours * 3600) % epochSeconds == 0, "window must be a whole number of epochs")
        let p = profile.count
        let k = hours * 3600 / epochSeconds
        guard profile.contains(where: { !$0.isNaN }) else { return nil }
        // Compensated (Neumaier) prefix sums over two copies of the day: window sums are
        // differences of prefixes, accurate to ~1 ulp of the window sum, so exact ties stay ties.
        var hiPrefix = [Double](repeating: 0, count: 2 * p + 1)
        var loPrefix = [Double](repeating: 0, count: 2 * p + 1)
        var s = 0.0
        var c = 0.0
        for i in 0..<(2 * p) {
            let x = profile[i % p].isNaN ? 0 : profile[i % p]  // pandas rolling sum skips NaN
            let t = s + x
            if abs(s) >= abs(x) { c += (s - t) + x } else { c += (x - t) + s }
            s = t
            hiPrefix[i + 1] = s
            loPrefix[i + 1] = c
        }
        var sums = [Double](repeating: 0, count: p)
        for i in 0..<p {
            sums[i] = (hiPrefix[i + k] - hiPrefix[i]) + (loPrefix[i + k] - loPrefix[i])
        }
        var best = sums[0]
        for x in sums { best = lowest ? min(best, x) : max(best, x) }
        let tolerance = 1e-11 * max(abs(best), 1e-300)
        let slot = sums.firstIndex { abs($0 - best) <= tolerance } ?? 0
        return (best / Double(k), slot * epochSeconds + phase)
    }
}
