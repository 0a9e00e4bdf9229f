/// Streams raw samples (time-ordered, in g) into per-epoch ENMO, MAD and angle-z (``RawMetrics``
/// gives the definitions and citations) in constant working memory: one epoch's norms (for MAD's
/// second pass), three rolling-median windows and the epoch indices of the samples still waiting
/// for their median. Nothing is allocated per sample once the first epoch is full.
///
/// **Epochs** follow the timestamps: epoch k covers `[gridOriginUTC + k·E, gridOriginUTC + (k+1)·E)`
/// UTC seconds, whatever the number of samples in it. For gap-free data at an exact rate that starts
/// on an epoch boundary this is GGIR's epoch of `rate · E` consecutive samples.
///
/// **angle-z edges.** The median centred on a sample needs half a window of samples on each side.
/// At the start of each *segment* (the recording, or the data after a gap longer than
/// ``RawMetrics/Configuration/maximumSampleGapSeconds``) the first full-window median is used for the
/// samples before it; at its end the last full-window median is used for the samples after it. A
/// segment shorter than the window uses the median of all its samples. The per-sample angle is
/// therefore known half a window late, so an epoch's angle-z is completed up to ~2.5 s after the
/// epoch closes; ``finish()`` completes the rest.
///
/// **Differences from GGIR** (`g.applymetrics` `rollmed`, GGIR 3.x; none affects an epoch more than
/// 2.5 s from a segment edge):
/// * GGIR processes a file in blocks of many hours and restarts the rolling median at each block;
///   sleepsta only at gaps and at the ends of the recording.
/// * Edges: GGIR pads the median with zeros and then replaces *every* zero median among the first
///   `max(60·rate, 1000)` medians by the first non-zero one (also genuine zero medians of an axis
///   held exactly horizontal in quantised data), and the zeros among the last `max(60·rate, 1000)+1`
///   by the first non-zero median *of that tail*, i.e. a median from about ten minutes before the
///   end. sleepsta back-fills the first and forward-fills the last full-window median, as GGIR did
///   before September 2022 (its `NA` padding filled by the last valid value).
/// * GGIR replaces the median by the raw signal when a block's length is not a multiple of the
///   decimation step (never the case for GGIR's own whole-minute blocks).
/// * GGIR's epoch means are differences of a cumulative sum over the block, so its last bits differ.
public struct RawMetricsAccumulator: SampleSink, Sendable {
    public let configuration: RawMetrics.Configuration
    /// Every `decimationStep`-th sample of a segment enters the rolling median.
    public let decimationStep: Int
    /// Rolling-median window length in entering samples (odd).
    public let medianWindowLength: Int

    /// Samples accepted so far.
    public private(set) var sampleCount = 0
    /// Samples skipped because a timestamp or axis was NaN or infinite.
    public private(set) var nonFiniteSampleCount = 0
    /// Continuous segments seen so far (gaps longer than the configured maximum split segments).
    public private(set) var segmentCount = 0
    /// The first error met; later samples are ignored and ``finish()`` throws it.
    public private(set) var failure: RawMetricsError?

    // Output, one element per epoch since the first sample's epoch.
    private var firstEpoch: Int64 = 0
    private var firstTimestamp = 0.0
    private var counts: [Int] = []
    private var enmo: [Double] = []
    private var mad: [Double] = []
    private var angleSums: [Double] = []

    // The open epoch.
    private var currentEpoch: Int64 = 0
    private var currentIndex = 0
    private var epochEndTime = 0.0
    private var enmoSum = 0.0
    private var norms: [Double] = []

    // The current segment's rolling median.
    private var previousTimestamp = 0.0
    private var segmentSamples = 0
    /// Samples until the next one enters the rolling median (0: this one): `segmentSamples %
    /// decimationStep == 0` without a division per sample.
    private var untilEntering = 0
    private var entered = 0
    private var firstPendingSample = 0
    private var lastAngle = Double.nan
    private var windows: RawMetrics.AxesMedianWindow
    private var pending: RawMetrics.EpochRunQueue

    public init(configuration: RawMetrics.Configuration) {
        self.configuration = configuration
        let (step, length) = configuration.angleZWindow.medianWindow(sampleRateHz: configuration.sampleRateHz)
        decimationStep = step
        medianWindowLength = length
        windows = .init(capacity: length)
        // Before the first median: 2h+1 entering samples and the step-1 samples after each.
        pending = .init(capacity: length * step + step)
        norms.reserveCapacity(Int((configuration.sampleRateHz * Double(configuration.epochSeconds)).rounded(.up)) + 16)
    }

    /// Adds one sample: `timestamp` in UTC seconds (fractional), acceleration in g.
    public mutating func add(timestamp: Double, x: Double, y: Double, z: Double) {
        guard failure == nil else { return }
        guard timestamp.isFinite, x.isFinite, y.isFinite, z.isFinite else {
            nonFiniteSampleCount += 1
            return
        }
        if sampleCount == 0 {
            firstTimestamp = timestamp
            firstEpoch = epochIndex(timestamp)
            openEpoch(firstEpoch)
            segmentCount = 1
        } else {
            if timestamp < previousTimestamp {
                failure = .timeWentBackwards(previousTimestamp: previousTimestamp, timestamp: timestamp)
                return
            }
            if timestamp - previousTimestamp > configuration.maximumSampleGapSeconds {
                finishSegment()
                segmentCount += 1
            }
            if !(timestamp < epochEndTime) {
                let e = epochIndex(timestamp)
                if (e - firstEpoch) * Int64(configuration.epochSeconds) >= RawMetrics.maximumSpanSeconds {
                    failure = .spanTooLong(firstTimestamp: firstTimestamp, timestamp: timestamp)
                    return
                }
                closeEpoch()
                while currentEpoch + 1 < e { openEpoch(currentEpoch + 1) }  // gap epochs stay empty
                openEpoch(e)
            }
        }
        previousTimestamp = timestamp
        sampleCount += 1

        let norm = (x * x + y * y + z * z).squareRoot()
        enmoSum += max(0, norm - 1)
        norms.append(norm)  // the epoch's sample count is norms.count (written at closeEpoch)

        pending.push(Int32(currentIndex))
        if untilEntering == 0 {
            untilEntering = decimationStep
            windows.push(x, y, z)
            entered += 1
            if entered >= medianWindowLength {
                // The median centred on entering sample j covers the samples of its step-block;
                // the first one also covers the blocks before it (the segment's head).
                let j = entered - 1 - medianWindowLength / 2
                let m = windows.medians
                lastAngle = RawMetrics.angleZDegrees(x: m.x, y: m.y, z: m.z)
                assignPending(upToSample: (j + 1) * decimationStep, angle: lastAngle)
            }
        }
        segmentSamples += 1
        untilEntering -= 1
    }

    /// `count` samples in order (structure of arrays): the same as ``add(timestamp:x:y:z:)`` for
    /// each, bit for bit. Runs of samples that stay in the open epoch and segment and do not enter
    /// the rolling median (nine in ten at 100 Hz) go through one loop: their norms, ENMO sum and
    /// epoch runs as the per-sample path forms them, in the same order, without a call per sample.
    /// Any other sample (the first, a gap, a new epoch, one entering the median, one out of order
    /// or not finite) goes through ``add(timestamp:x:y:z:)``.
    public mutating func add(timestamps t: UnsafePointer<Double>, x: UnsafePointer<Double>, y: UnsafePointer<Double>,
                             z: UnsafePointer<Double>, count: Int) {
        var i = 0
        let gap = configuration.maximumSampleGapSeconds
        while i < count {
            if failure == nil && sampleCount > 0 && untilEntering > 0 {
                var k = i
                var previous = previousTimestamp
                var left = untilEntering
                var sum = enmoSum
                let end = epochEndTime
                while k < count && left > 0 {
                    let tk = t[k], xk = x[k], yk = y[k], zk = z[k]
                    guard tk.isFinite, xk.isFinite, yk.isFinite, zk.isFinite,
                          tk >= previous, !(tk - previous > gap), tk < end else { break }
                    let norm = (xk * xk + yk * yk + zk * zk).squareRoot()
                    sum += max(0, norm - 1)
                    norms.append(norm)
                    previous = tk
                    left -= 1
                    k += 1
                }
                let n = k - i
                if n > 0 {
                    enmoSum = sum
                    previousTimestamp = previous
                    untilEntering = left
                    sampleCount += n
                    segmentSamples += n
                    pending.push(Int32(currentIndex), count: n)
                    i = k
                    continue
                }
            }
            add(timestamp: t[i], x: x[i], y: y[i], z: z[i])
            i += 1
        }
    }

    /// The epochs so far, with every waiting sample given its (edge) angle; the accumulator can
    /// keep going afterwards.
    public func finish() throws(RawMetricsError) -> RawMetricEpochs {
        if let failure { throw failure }
        var copy = self
        guard sampleCount > 0 else {
            return RawMetricEpochs(startUTC: configuration.gridOriginUTC, epochSeconds: configuration.epochSeconds,
                                   gridOriginUTC: configuration.gridOriginUTC, sampleCounts: [], enmo: [], mad: [],
                                   angleZDegrees: [])
        }
        copy.finishSegment()
        copy.closeEpoch()
        var angle = copy.angleSums
        for i in angle.indices { angle[i] = copy.counts[i] > 0 ? angle[i] / Double(copy.counts[i]) : .nan }
        return RawMetricEpochs(startUTC: configuration.gridOriginUTC + firstEpoch * Int64(configuration.epochSeconds),
                               epochSeconds: configuration.epochSeconds, gridOriginUTC: configuration.gridOriginUTC,
                               sampleCounts: copy.counts, enmo: copy.enmo, mad: copy.mad, angleZDegrees: angle)
    }

    // MARK: - Epochs

    private func epochIndex(_ t: Double) -> Int64 {
        RawMetrics.floorDivision(Int64(t.rounded(.down)) - configuration.gridOriginUTC, Int64(configuration.epochSeconds))
    }

    private mutating func openEpoch(_ e: Int64) {
        currentEpoch = e
        currentIndex = counts.count
        counts.append(0); enmo.append(.nan); mad.append(.nan); angleSums.append(0)
        let E = Int64(configuration.epochSeconds)
        epochEndTime = Double(configuration.gridOriginUTC + (e + 1) * E)
        enmoSum = 0
        norms.removeAll(keepingCapacity: true)
    }

    /// MAD's second pass over the epoch's norms, and the epoch's ENMO.
    private mutating func closeEpoch() {
        let n = norms.count
        guard n > 0 else { return }
        counts[currentIndex] = n
        let deviation: Double = norms.withUnsafeBufferPointer { v in
            var sum = 0.0
            for value in v { sum += value }
            let mean = sum / Double(n)
            var deviations = 0.0
            for value in v { deviations += abs(value - mean) }
            return deviations
        }
        enmo[currentIndex] = enmoSum / Double(n)
        mad[currentIndex] = deviation / Double(n)
        norms.removeAll(keepingCapacity: true)
    }

    // MARK: - Rolling median

    /// Adds `angle` once per waiting sample, in sample order, up to sample `end` of the segment.
    /// Repeated additions (not `angle · k`), so every epoch's sum is the one a sample-by-sample
    /// loop gives, bit for bit.
    private mutating func assignPending(upToSample end: Int, angle: Double) {
        let take = Swift.min(end - firstPendingSample, pending.sampleCount)
        guard take > 0 else { return }
        angleSums.withUnsafeMutableBufferPointer { sums in
            pending.pop(samples: take) { epoch, count in
                var sum = sums[Int(epoch)]
                for _ in 0..<count { sum += angle }
                sums[Int(epoch)] = sum
            }
        }
        firstPendingSample += take
    }

    private mutating func finishSegment() {
        guard segmentSamples > 0 else { return }
        let angle: Double
        if entered >= medianWindowLength { angle = lastAngle } else {
            let m = windows.medians
            angle = RawMetrics.angleZDegrees(x: m.x, y: m.y, z: m.z)
        }
        assignPending(upToSample: Int.max, angle: angle)
        windows.reset()
        pending.reset()
        segmentSamples = 0
        untilEntering = 0
        entered = 0
        firstPendingSample = 0
        lastAngle = .nan
    }
}
