/// A linear per-axis calibration: calibrated = (raw + offset) · scale (GGIR's convention,
/// `scale(data, center = -offset, scale = 1/scale)`).
public struct LinearCalibration: Sendable, Hashable, Codable {
    public var offset: [Double]
    public var scale: [Double]
    public init(offset: [Double], scale: [Double]) {
        precondition(offset.count == 3 && scale.count == 3)
        self.offset = offset; self.scale = scale
    }
    /// The calibration an ``AutoCalibration`` result puts in effect.
    public init(_ result: AutoCalibration.Result) {
        self.init(offset: [result.offset.x, result.offset.y, result.offset.z], scale: [result.scale.x, result.scale.y, result.scale.z])
    }
    @inlinable
    public func apply(_ x: Double, _ y: Double, _ z: Double) -> (Double, Double, Double) {
        ((x + offset[0]) * scale[0], (y + offset[1]) * scale[1], (z + offset[2]) * scale[2])
    }
}

/// Streams raw samples (g, with gravity) into the wearable milestone: ENMO, angle-z and MAD per
/// 5-s epoch (``RawMetricsAccumulator``, GGIR's definitions) and the per-epoch axis statistics the
/// non-wear rule needs (``EpochAxisStatistics``), optionally through a calibration first. Constant
/// work per sample; memory grows with the number of epochs only.
///
/// The angle-z median window depends on the sample rate, which a CSV does not state: the first
/// samples (up to 512, or 4 s) are held until the rate is known from their median spacing, then
/// replayed. Devices' stated rates are integers or, for GENEActiv, close to one (85.7 Hz → 86 gives
/// the same window as GGIR's 85.7).
public struct WearableEpochSink: SampleSink, Sendable {
    /// Which share of the work this sink does. A reader's pass can run the milestone as two sinks
    /// over the same samples, one beside the reader and one on the other core (`SplitWearableSink`
    /// in SleepIngest), split one of two ways:
    /// - ``Role/statistics`` beside a binary decoder and ``Role/metrics`` (the rolling medians: most
    ///   of the arithmetic) on the worker, joined by ``merged(statistics:metrics:)`` (the axis
    ///   statistics on the metrics' side instead leave the reader's core idle; measured in
    ///   docs/performance-engineering.md).
    /// - ``Role/features`` beside a text reader (the busier side there) and
    ///   ``Role/metricsAndStatistics`` on the worker, joined by ``merged(features:rest:)``.
    ///
    /// Either way the joined sink is the one ``Role/complete`` sink would have been, bit for bit.
    public enum Role: Sendable {
        /// Everything.
        case complete
        /// Calibration features, the per-epoch axis statistics of the non-wear rule, ActiGraph counts.
        case statistics
        /// ENMO, angle-z and MAD (``RawMetricsAccumulator``).
        case metrics
        /// Calibration features and ActiGraph counts only (beside a text reader, whose worker then
        /// takes the metrics and the axis statistics: ``merged(features:rest:)``).
        case features
        /// Everything but the features and counts.
        case metricsAndStatistics

        /// Whether this share keeps the metrics (``RawMetricsAccumulator``).
        var computesMetrics: Bool { self == .complete || self == .metrics || self == .metricsAndStatistics }
        /// Whether this share collects the calibration features and counts (when asked for).
        var collectsFeaturesAndCounts: Bool { self == .complete || self == .statistics || self == .features }
        /// Whether this share sums the non-wear rule's axis statistics.
        var computesAxisStatistics: Bool { self == .complete || self == .statistics || self == .metricsAndStatistics }
    }
    public private(set) var role: Role
    public let calibration: LinearCalibration?
    /// The calibration as (x, y, z, 0) lanes, read per sample: the arrays of ``LinearCalibration``
    /// cost a retain, a release and bounds checks on every sample (over half of the reader's core in
    /// a calibrated pass). Lane by lane the same two IEEE operations as ``LinearCalibration/apply(_:_:_:)``.
    private let calibrates: Bool
    private let calibrationOffset: SIMD4<Double>
    private let calibrationScale: SIMD4<Double>
    /// Auto-calibration features (van Hees 2014) of the samples as read, before any calibration.
    private var features = AutoCalibration.FeatureCollector()
    private var collectsFeatures: Bool
    private var held: [(Double, Double, Double, Double)] = []
    private var metrics: RawMetricsAccumulator?
    /// Whether the rate is fixed (``start()`` ran). A flag, not `metrics == nil`: comparing the
    /// optional accumulator with nil copied it (arrays and all) for every sample.
    private var started = false
    private var countsRequested: Bool
    private var countStream: ActiGraphCountStream?
    /// Why counts were asked for but not computed (the rate has no ActiLife path), else nil.
    public private(set) var countsUnavailableReason: String?
    private var stats = EpochAxisStatistics(startUTC: 0)
    /// Temperature readings averaged per 5-s epoch, in time order: the epoch (UTC second / 5) and
    /// the mean; the open epoch's sum and count.
    private var temperatureEpochs: [Int64] = []
    private var temperatureMeans: [Float] = []
    private var temperatureOpen: (epoch: Int64, sum: Double, n: Int)? = nil
    private var failureText: String?
    /// Samples whose timestamp or axis was not finite (skipped, as by the metrics).
    public private(set) var nonFiniteSamples = 0
    public private(set) var sampleRateHz: Double?
    /// Samples earlier than the one before (the readers keep those within one second for the
    /// per-second mean, whose value does not depend on order): skipped here, where order matters.
    public private(set) var outOfOrderSamples = 0
    private var lastTimestamp = -Double.infinity

    // The open epoch of the axis statistics.
    private var epoch: Int64 = .min
    /// The open epoch's first second and the next epoch's, as times (none before the first sample).
    private var epochStart = Double.infinity, epochEnd = -Double.infinity
    private var n = 0
    // (x, y, z, 0) vectors, 16-byte aligned: lane by lane the same operations as scalars (see
    // AutoCalibration.FeatureCollector for why not scalars).
    private var ref = SIMD4<Double>(), s = SIMD4<Double>(), ss = SIMD4<Double>()
    private var lo = SIMD4<Double>(), hi = SIMD4<Double>()

    /// - Parameters:
    ///   - calibration: applied to every sample first (the second pass, once a calibration is known).
    ///   - collectCalibrationFeatures: also collect ``AutoCalibration`` features of the raw samples.
    ///   - activityCounts: also compute ActiGraph counts per epoch (``ActiGraphCountStream``) of the
    ///     samples as read, before any calibration (ActiLife does not calibrate).
    ///   - role: the share of the work (``Role``); features and counts are computed by the
    ///     `complete`, `statistics` and `features` shares only.
    public init(calibration: LinearCalibration? = nil, collectCalibrationFeatures: Bool = false, activityCounts: Bool = false,
                role: Role = .complete) {
        self.role = role
        self.calibration = calibration
        // The features share sees only the samples as read (features and counts are of those).
        calibrates = calibration != nil && role != .features
        if let c = calibration {
            calibrationOffset = SIMD4(c.offset[0], c.offset[1], c.offset[2], 0)
            calibrationScale = SIMD4(c.scale[0], c.scale[1], c.scale[2], 1)
        } else {
            calibrationOffset = .zero; calibrationScale = .one
        }
        collectsFeatures = collectCalibrationFeatures && role.collectsFeaturesAndCounts
        countsRequested = activityCounts && role.collectsFeaturesAndCounts
        precondition(!(activityCounts && calibration != nil), "counts are of the samples as read: ask for them in the uncalibrated pass")
        held.reserveCapacity(512)
    }

    /// ActiGraph counts of the `count` 5-s epochs from `startUTC`, when asked for and computable.
    public func activityCounts(startUTC: Int64, count: Int) -> WearableEpochs.Counts? {
        countStream?.counts(startUTC: startUTC, count: count)
    }

    /// The rate the counts were computed at, when they were.
    public var activityCountsRateHz: Int? { countStream?.sampleRateHz }

    /// Whether this share has anything to compute: a `features` share asked for neither features
    /// nor counts (a calibrated pass's, beside a text reader) has not, and need not see the samples.
    public var hasWork: Bool { role.computesMetrics || role.computesAxisStatistics || collectsFeatures || countsRequested }

    /// The auto-calibration features of the samples as read, when collected.
    public var calibrationFeatures: AutoCalibration.Features? { collectsFeatures ? features.finish() : nil }

    public mutating func add(timestamp t: Double, x rawX: Double, y rawY: Double, z rawZ: Double) {
        guard failureText == nil else { return }
        if collectsFeatures { features.add(timestamp: t, x: rawX, y: rawY, z: rawZ) }
        let v = calibrated(SIMD4(rawX, rawY, rawZ, 0))
        let x = v.x, y = v.y, z = v.z
        guard t.isFinite, x.isFinite, y.isFinite, z.isFinite else { nonFiniteSamples += 1; return }
        guard t >= lastTimestamp else { outOfOrderSamples += 1; return }
        lastTimestamp = t
        if !started {
            held.append((t, x, y, z))
            if held.count >= 512 || t - held[0].0 >= 4 { start() }
            return
        }
        consume(t, x, y, z)
    }

    /// A temperature reading (°C): averaged per epoch, kept whatever the share (the readings come a
    /// block or page at a time, not per sample). Readings outside −20…60 °C are not a skin or room
    /// temperature (an Axivity block without a sensor value) and are dropped.
    public mutating func addTemperature(timestamp t: Double, celsius: Double) {
        guard t.isFinite, celsius.isFinite, celsius >= -20, celsius <= 60 else { return }
        let e = LocalClock.floorDiv(Int64(t.rounded(.down)), Int64(WearableEpochs.epochSeconds))
        if let open = temperatureOpen, open.epoch != e { closeTemperature() }
        if temperatureOpen == nil { temperatureOpen = (e, 0, 0) }
        temperatureOpen!.sum += celsius
        temperatureOpen!.n += 1
    }

    private mutating func closeTemperature() {
        guard let open = temperatureOpen else { return }
        temperatureEpochs.append(open.epoch)
        temperatureMeans.append(Float(open.sum / Double(open.n)))
        temperatureOpen = nil
    }

    /// The temperature per epoch of `count` epochs from `startUTC` (NaN without a reading), nil
    /// without any reading.
    func temperature(startUTC: Int64, count: Int) -> [Float]? {
        var copy = self
        copy.closeTemperature()
        guard !copy.temperatureEpochs.isEmpty else { return nil }
        var result = [Float](repeating: .nan, count: count)
        let first = startUTC / Int64(WearableEpochs.epochSeconds)
        for (e, v) in zip(copy.temperatureEpochs, copy.temperatureMeans) {
            let i = Int(e - first)
            if i >= 0 && i < count { result[i] = v }
        }
        return result
    }

    /// Fixes the rate from the held samples and replays them.
    private mutating func start() {
        guard !held.isEmpty else { return }
        started = true
        var diffs: [Double] = []
        for i in 1..<max(1, held.count) where held[i].0 > held[i - 1].0 { diffs.append(held[i].0 - held[i - 1].0) }
        diffs.sort()
        let rate = diffs.isEmpty ? 1 : Swift.max(1, (1 / diffs[diffs.count / 2]).rounded())
        sampleRateHz = rate
        do {
            let configuration = try RawMetrics.Configuration(sampleRateHz: rate, epochSeconds: WearableEpochs.epochSeconds)
            // Only the shares that compute metrics have one (theirs is the one merged).
            if role.computesMetrics { metrics = RawMetricsAccumulator(configuration: configuration) }
        } catch {
            failureText = "\(error)"
            return
        }
        if countsRequested {
            do { countStream = try ActiGraphCountStream(sampleRateHz: Int(rate)) } catch {
                countsUnavailableReason = "ActiGraph counts need a sample rate of 30–100 Hz in steps of 10 (ActiLife's resampling to 30 Hz); this recording's is \(Int(rate)) Hz"
            }
        }
        let replay = held
        held = []
        for (t, x, y, z) in replay { consume(t, x, y, z) }
    }

    /// One sink doing the work of both: `statistics`' features, axis statistics and counts with
    /// `metrics`' accumulator. Both must have seen the same samples (the same reader pass).
    public static func merged(statistics: WearableEpochSink, metrics: WearableEpochSink) -> WearableEpochSink {
        precondition(statistics.role == .statistics && metrics.role == .metrics, "merge the two shares of one pass")
        var whole = statistics
        whole.role = .complete
        whole.metrics = metrics.metrics
        if whole.failureText == nil { whole.failureText = metrics.failureText }
        return whole
    }

    /// One sink doing the work of both: `features`' calibration features and counts with the
    /// metrics and axis statistics of `rest`. Both must have seen the same samples.
    public static func merged(features: WearableEpochSink, rest: WearableEpochSink) -> WearableEpochSink {
        precondition(features.role == .features && rest.role == .metricsAndStatistics, "merge the two shares of one pass")
        var whole = rest
        whole.role = .complete
        whole.features = features.features
        whole.collectsFeatures = features.collectsFeatures
        whole.countsRequested = features.countsRequested
        whole.countStream = features.countStream
        whole.countsUnavailableReason = features.countsUnavailableReason
        whole.temperatureEpochs = features.temperatureEpochs
        whole.temperatureMeans = features.temperatureMeans
        whole.temperatureOpen = features.temperatureOpen
        if whole.failureText == nil { whole.failureText = features.failureText }
        return whole
    }

    @inline(__always)
    private mutating func consume(_ t: Double, _ x: Double, _ y: Double, _ z: Double) {
        if role.computesMetrics { metrics!.add(timestamp: t, x: x, y: y, z: z) }
        if role.collectsFeaturesAndCounts { countStream?.add(timestamp: t, x: x, y: y, z: z) }
        guard role.computesAxisStatistics else { return }
        let v = SIMD4(x, y, z, 0)
        // Within the open epoch's [start, end) the epoch index is the open one: the bounds are
        // whole seconds, so `start ≤ t < end` is exactly `start ≤ floor(t) < end`. Two comparisons
        // instead of a floor (a libm call) and an integer division per sample; outside them the
        // index is another epoch's (a later one: samples arrive in time order).
        if !(t >= epochStart && t < epochEnd) { openStatisticsEpoch(at: t, first: v) }
        Self.accumulate(v, origin: ref, &n, &s, &ss, &lo, &hi)
    }

    /// One sample into an epoch's axis statistics: the count, the sums of its difference from the
    /// epoch's first sample and of their squares, the minimum and maximum (lane by lane).
    @inline(__always)
    private static func accumulate(_ v: SIMD4<Double>, origin: SIMD4<Double>, _ n: inout Int, _ s: inout SIMD4<Double>,
                                   _ ss: inout SIMD4<Double>, _ lo: inout SIMD4<Double>, _ hi: inout SIMD4<Double>) {
        n += 1
        let d = v - origin
        s += d
        ss += d * d
        lo.formMinimum(with: v)
        hi.formMaximum(with: v)
    }

    /// The sample through the calibration, when this share applies one (else as read).
    @inline(__always)
    private func calibrated(_ v: SIMD4<Double>) -> SIMD4<Double> {
        calibrates ? (v + calibrationOffset) * calibrationScale : v
    }

    /// Closes the open epoch of the axis statistics and opens the one holding `t`, whose first
    /// sample is `v`.
    private mutating func openStatisticsEpoch(at t: Double, first v: SIMD4<Double>) {
        let e = LocalClock.floorDiv(Int64(t.rounded(.down)), Int64(WearableEpochs.epochSeconds))
        closeEpoch(upTo: e)
        ref = v; lo = v; hi = v
        epochStart = Double(e * Int64(WearableEpochs.epochSeconds))
        epochEnd = Double((e + 1) * Int64(WearableEpochs.epochSeconds))
    }

    /// Samples up to a run read at once by ``add(timestamps:x:y:z:count:)`` (its calibrated copy: 24 KB).
    static let runSamples = 1024

    /// `count` samples in order (structure of arrays): the same as ``add(timestamp:x:y:z:)`` for
    /// each, bit for bit, with the work done in runs (``SplitWearableSink`` hands its batches here
    /// on both cores). A run is the samples, up to ``runSamples``, that are finite after the
    /// calibration and in time order once the rate is fixed: each share's state (features, metrics,
    /// counts, axis statistics) takes the run in one loop, in sample order, as the per-sample path
    /// would, the shares being independent of each other. Any other sample goes one by one.
    public mutating func add(timestamps t: UnsafePointer<Double>, x: UnsafePointer<Double>, y: UnsafePointer<Double>,
                             z: UnsafePointer<Double>, count: Int) {
        let block = Self.runSamples
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * block) { buffer in
            let cx = buffer.baseAddress!, cy = cx + block, cz = cy + block
            var i = 0
            while i < count {
                guard started, failureText == nil else {
                    add(timestamp: t[i], x: x[i], y: y[i], z: z[i])
                    i += 1
                    continue
                }
                let runEnd = Swift.min(count, i + block)
                var k = i
                var last = lastTimestamp
                if calibrates {
                    while k < runEnd {
                        let tk = t[k]
                        let v = calibrated(SIMD4(x[k], y[k], z[k], 0))
                        guard tk.isFinite, v.x.isFinite, v.y.isFinite, v.z.isFinite, tk >= last else { break }
                        cx[k - i] = v.x; cy[k - i] = v.y; cz[k - i] = v.z
                        last = tk
                        k += 1
                    }
                } else {
                    // The samples as read: checked in place, not copied.
                    while k < runEnd {
                        let tk = t[k]
                        guard tk.isFinite, x[k].isFinite, y[k].isFinite, z[k].isFinite, tk >= last else { break }
                        last = tk
                        k += 1
                    }
                }
                let (rx, ry, rz) = calibrates ? (UnsafePointer(cx), UnsafePointer(cy), UnsafePointer(cz)) : (x + i, y + i, z + i)
                let n = k - i
                guard n > 0 else {
                    add(timestamp: t[i], x: x[i], y: y[i], z: z[i])
                    i += 1
                    continue
                }
                // Features are of the samples as read; the rest of the calibrated ones.
                if collectsFeatures { for j in i..<k { features.add(timestamp: t[j], x: x[j], y: y[j], z: z[j]) } }
                lastTimestamp = last
                if role.computesMetrics { metrics!.add(timestamps: t + i, x: rx, y: ry, z: rz, count: n) }
                if role.collectsFeaturesAndCounts && countStream != nil {
                    for j in 0..<n { countStream!.add(timestamp: t[i + j], x: rx[j], y: ry[j], z: rz[j]) }
                }
                if role.computesAxisStatistics { addStatistics(t + i, rx, ry, rz, n) }
                i = k
            }
        }
    }

    /// The axis statistics of `n` samples in time order: per epoch, one loop over its samples with
    /// the sums in registers, the same operations in the same order as ``consume(_:_:_:_:)``.
    private mutating func addStatistics(_ t: UnsafePointer<Double>, _ x: UnsafePointer<Double>, _ y: UnsafePointer<Double>,
                                        _ z: UnsafePointer<Double>, _ count: Int) {
        var j = 0
        while j < count {
            let first = t[j]
            if !(first >= epochStart && first < epochEnd) { openStatisticsEpoch(at: first, first: SIMD4(x[j], y[j], z[j], 0)) }
            // In time order, every sample from here to the epoch's end is in it.
            let end = epochEnd, origin = ref
            var k = n, sum = s, squares = ss, low = lo, high = hi
            while j < count && t[j] < end {
                Self.accumulate(SIMD4(x[j], y[j], z[j], 0), origin: origin, &k, &sum, &squares, &low, &high)
                j += 1
            }
            n = k; s = sum; ss = squares; lo = low; hi = high
        }
    }

    /// Closes the open epoch and adds empty epochs up to (not including) `next`.
    private mutating func closeEpoch(upTo next: Int64) {
        if epoch == .min {
            stats = EpochAxisStatistics(startUTC: next * Int64(WearableEpochs.epochSeconds))
        } else {
            let k = Double(n)
            let mean = (ref.x + s.x / k, ref.y + s.y / k, ref.z + s.z / k)
            let m2 = (ss.x - s.x * s.x / k, ss.y - s.y * s.y / k, ss.z - s.z * s.z / k)
            stats.append(count: n, mean: mean, m2: m2, minimum: (lo.x, lo.y, lo.z), maximum: (hi.x, hi.y, hi.z))
            var gap = epoch + 1
            let empty = (Double.nan, Double.nan, Double.nan)
            while gap < next { stats.append(count: 0, mean: empty, m2: empty, minimum: empty, maximum: empty); gap += 1 }
        }
        epoch = next
        n = 0; s = .zero; ss = .zero
    }

    /// The milestone: metrics per epoch with the non-wear flag, the axis statistics, and how the
    /// non-wear rule judged the 15-min blocks.
    public func finish() throws(RawMetricsError) -> (epochs: WearableEpochs, statistics: EpochAxisStatistics) {
        precondition(role == .complete, "finish a complete sink (merge a split one first)")
        var copy = self
        if !copy.started { copy.start() }
        if let failure = copy.failureText { throw .invalidConfiguration(failure) }
        guard let accumulator = copy.metrics, copy.epoch != .min else { return (.empty(startUTC: 0), EpochAxisStatistics(startUTC: 0)) }
        copy.closeEpoch(upTo: copy.epoch + 1)
        let raw = try accumulator.finish()
        let stats = copy.stats
        let nonWear = EpochStillnessNonWear.nonWear(stats).epochs
        // Both follow the same 5-s grid through UTC 0 from the first sample's epoch.
        precondition(raw.startUTC == stats.startUTC, "metrics and statistics must share the epoch grid")
        let n = Swift.min(raw.enmo.count, stats.count)
        let epochs = WearableEpochs(
            startUTC: raw.startUTC,
            enmo: raw.enmo.prefix(n).map(Float.init), angleZ: raw.angleZDegrees.prefix(n).map(Float.init),
            mad: (raw.mad ?? raw.enmo.map { _ in .nan }).prefix(n).map(Float.init),
            sampleCounts: raw.sampleCounts.prefix(n).map { UInt16(clamping: $0) }, nonWear: Array(nonWear.prefix(n)),
            counts: copy.countStream?.counts(startUTC: raw.startUTC, count: n),
            temperature: copy.temperature(startUTC: raw.startUTC, count: n))
        return (epochs, stats)
    }
}
