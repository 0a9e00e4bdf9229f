import SleepCore

/// Where every reader of raw samples hands its samples: the per-second accumulator, the caller's
/// ``SampleSink`` (e.g. for ActiGraph counts), and the quality facts that need to see each sample
/// (steps back in time, clipping, gravity, stillness). One place, so that every format gets the
/// same QC and the same policy for bad timestamps.
///
/// Timestamp policy (all counted in the ``QualitySummary``):
/// * equal to the previous sample: kept (counted by the accumulator as a duplicate);
/// * earlier, but in the same second: kept, counted (a per-second mean does not depend on order);
/// * earlier by at most ``backwardToleranceSeconds`` and in an earlier second: dropped, counted
///   (logging jitter, a clock nudged by network time);
/// * earlier by more: the file is refused (a clock reset or a spliced file cannot be placed).
package struct SampleIntake<Sink: SampleSink> {
    static var backwardToleranceSeconds: Double { 1.0 }

    package enum Rejection: Error {
        case backwards(bySeconds: Double)
        case spanTooLong(days: Int64)
        /// Not a time between 1970 and about 5100 (a corrupt field, or the wrong unit).
        case implausibleTime(Double)
    }

    /// Later than this (seconds since 1970, about the year 5100) is not a recording's time.
    static var latestPlausibleSecond: Double { 1e11 }

    var accumulator = SecondAccumulator()
    var sink: Sink
    private var last = -Double.infinity
    private(set) var backwardKept = 0
    private(set) var backwardDropped = 0
    /// Clipping threshold in g (range − 0.5 g), nil when the device range is unknown.
    let clipThresholdG: Double?
    private(set) var clipped = 0
    /// Sum of |a| of each closed second's first sample, and how many seconds; the open second's is
    /// in `open`. Per second, so that a second summed on another thread (``appendSecond(_:)``) gives
    /// the same bits.
    private var normSum = 0.0
    private var normCount = 0
    private var open = SecondStats()
    private var openSecond: Int64 = .min
    // Not an Optional: testing and unwrapping an optional struct per sample copied the whole
    // tracker (an outlined copy in perf record, on the ingest hot path).
    private var stillness = StillnessTracker()
    private let tracksStillness: Bool

    package init(sink: Sink, deviceRangeG: Double? = nil, trackStillness: Bool = true) {
        self.sink = sink
        clipThresholdG = deviceRangeG.map { $0 - 0.5 }
        tracksStillness = trackStillness
    }

    @inline(__always)
    package mutating func add(timestamp t: Double, x: Double, y: Double, z: Double) throws(Rejection) {
        guard t >= 0 && t < Self.latestPlausibleSecond else { throw .implausibleTime(t) }
        if t < last {
            if floor(t) != floor(last) {
                if last - t <= Self.backwardToleranceSeconds { backwardDropped += 1; return }
                throw .backwards(bySeconds: last - t)
            }
            backwardKept += 1
        } else {
            last = t
        }
        do { try accumulator.add(timestamp: t, x: x, y: y, z: z) } catch {
            if case .timeWentBackwards = error { backwardDropped += 1; return }   // cannot happen after the check above
            throw Self.rejection(error)
        }
        sink.add(timestamp: t, x: x, y: y, z: z)
        if let c = clipThresholdG, abs(x) >= c || abs(y) >= c || abs(z) >= c { clipped += 1 }
        let second = SecondAccumulator.second(of: t)
        if second != openSecond {
            closeOpenSecond()
            openSecond = second
        }
        open.add(x: x, y: y, z: z)
    }

    /// The accumulator's refusal as the intake's (one mapping for ``add(timestamp:x:y:z:)`` and
    /// ``appendSecond(_:)``).
    static func rejection(_ failure: SecondAccumulator.Failure) -> Rejection {
        switch failure {
        case .timeWentBackwards(let previous, let second): return .backwards(bySeconds: Double(previous - second))
        case .spanTooLong(let first, let now): return .spanTooLong(days: (now - first) / 86_400)
        }
    }

    /// Hands the open second's facts on (to the |a| total and the stillness tracker).
    @inline(__always)
    private mutating func closeOpenSecond() {
        guard open.count > 0 else { return }
        normSum += open.firstNorm
        normCount += 1
        let minute = LocalClock.floorDiv(openSecond, 60)
        if minute != vector.minute { vector.flush(); vector.minute = minute }
        vector.sum.0 += open.sum.x; vector.sum.1 += open.sum.y; vector.sum.2 += open.sum.z
        vector.count += open.count
        if tracksStillness { stillness.addSecond(openSecond, open) }
        open = SecondStats()
    }

    /// Whether ``appendSecond(_:)`` may stand in for adding samples one by one: nothing here looks
    /// at single samples (no clipping range, a sink that discards).
    var takesWholeSeconds: Bool { clipThresholdG == nil && Sink.takesWholeSeconds }

    /// Timestamp of the latest sample kept so far (−∞ before the first).
    var latestTimestamp: Double { last }

    /// A whole second summed elsewhere (``SecondAggregate``), with the same result as adding its
    /// samples one by one. The caller guarantees what ``add(timestamp:x:y:z:)`` would check: the
    /// samples are in time order, plausible, no earlier than ``latestTimestamp``, and the second is
    /// later than every second added so far; and ``takesWholeSeconds``.
    mutating func appendSecond(_ a: SecondAggregate) throws(Rejection) {
        closeOpenSecond()
        do { try accumulator.appendCompleteSecond(a.complete) } catch { throw Self.rejection(error) }
        openSecond = a.complete.second
        open = a.stats
        last = a.lastTimestamp
    }

    /// One sample repeated at `rateHz` over the whole UTC seconds `seconds` (ActiGraph's idle-sleep
    /// fill), with the same result as adding each repetition with ``add(timestamp:x:y:z:)`` at
    /// `second + k / rateHz`: one second's sums are computed once and appended per second, so the
    /// work grows with the seconds, not the samples (a file stating weeks of idle sleep at 10 kHz
    /// once meant billions of calls). A sink that wants every sample gets them one by one.
    mutating func addRepeated(x: Double, y: Double, z: Double, seconds: Range<Int64>, rateHz: Int) throws(Rejection) {
        guard !seconds.isEmpty, rateHz > 0 else { return }
        let step = 1.0 / Double(rateHz)
        guard Sink.self == DiscardingSampleSink.self else {
            for s in seconds {
                for k in 0..<rateHz { try add(timestamp: Double(s) + Double(k) * step, x: x, y: y, z: z) }
            }
            return
        }
        var stats = SecondStats()
        var movement = 0.0, legacy = 0.0
        let c = SecondAccumulator.contribution(x: x, y: y, z: z)
        for _ in 0..<rateHz { movement += c.movement; legacy += c.legacy; stats.add(x: x, y: y, z: z) }
        let clips = clipThresholdG.map { abs(x) >= $0 || abs(y) >= $0 || abs(z) >= $0 } ?? false
        for s in seconds {
            let lastTimestamp = Double(s) + Double(rateHz - 1) * step
            guard Double(s) >= 0, lastTimestamp < Self.latestPlausibleSecond else { throw .implausibleTime(lastTimestamp) }
            try appendSecond(SecondAggregate(
                complete: .init(second: s, movementSum: movement, legacySum: legacy, count: rateHz, duplicates: 0,
                                lastTimestampBits: lastTimestamp.bitPattern),
                stats: stats, lastTimestamp: lastTimestamp))
            if clips { clipped += rateHz }
        }
    }

    /// Mean |a| over the first sample of every second, in the reader's output unit (g): the
    /// gravity check needs the level (≈ 1 g or ≈ 0), which one sample a second gives as well as
    /// all of them, without a square root per sample on the reading core.
    var meanNorm: Double {
        let n = normCount + (open.count > 0 ? 1 : 0)
        return n > 0 ? (normSum + open.firstNorm) / Double(n) : 0
    }

    /// Gravity as told by the mean |a|: ≈ 1 g with gravity, ≈ 0 without; see ``refinedGravity(_:)``.
    var gravity: GravityContent {
        let m = meanNorm
        return refinedGravity((m > 0.7 && m < 1.3) ? .included : (m < 0.3 ? .removed : .unknown))
    }

    /// Per-minute mean acceleration vectors: with gravity each minute's mean points along gravity
    /// (length ≈ 1 g, whatever the movement); without it the movement averages out (length ≈ 0).
    struct MinuteVectors {
        var minute: Int64 = .min
        var sum = (0.0, 0.0, 0.0)
        var count = 0
        var lengthSum = 0.0
        var minutes = 0
        mutating func flush() {
            if count >= 10 {
                let n = Double(count)
                lengthSum += ((sum.0 / n) * (sum.0 / n) + (sum.1 / n) * (sum.1 / n) + (sum.2 / n) * (sum.2 / n)).squareRoot()
                minutes += 1
            }
            sum = (0, 0, 0); count = 0
        }
    }
    private var vector = MinuteVectors()

    /// The mean length of the per-minute mean vectors (in the input's unit), with at least 5 minutes.
    var meanMinuteVectorLength: Double? {
        var v = vector
        if open.count > 0 {
            if LocalClock.floorDiv(openSecond, 60) != v.minute { v.flush() }
            v.sum.0 += open.sum.x; v.sum.1 += open.sum.y; v.sum.2 += open.sum.z; v.count += open.count
        }
        v.flush()
        return v.minutes >= 5 ? v.lengthSum / Double(v.minutes) : nil
    }

    /// A mean |a| near 1 (or near 9.81) from movement alone is not gravity: user acceleration of a
    /// restless start can average |a| ≈ 1 in m/s². Without a gravity vector in the per-minute means
    /// (their length below 0.3 of the mean |a|), the acceleration is taken as gravity-free.
    func refinedGravity(_ byNorm: GravityContent, meanNorm: Double? = nil) -> GravityContent {
        guard byNorm != .removed, let length = meanMinuteVectorLength else { return byNorm }
        let m = meanNorm ?? self.meanNorm
        return length < 0.3 * m ? .removed : byNorm
    }

    /// The per-second series and the quality facts of everything added so far.
    package func finish(nominalSampleRateHz: Double? = nil, deviceRangeG: Double? = nil) -> (SecondSeries, QualitySummary) {
        let series = accumulator.finish()
        var q = QualitySummary(series: [series], sampleCount: accumulator.sampleCount,
                               duplicateTimestamps: accumulator.duplicateTimestampCount)
        q.measureRates(series: [series], nominalHz: nominalSampleRateHz)
        q.backwardTimestampsKept = backwardKept
        q.backwardSamplesDropped = backwardDropped
        q.deviceRangeG = deviceRangeG
        q.clippedSamples = clipThresholdG == nil ? nil : clipped
        if tracksStillness {
            var tracker = stillness
            if open.count > 0 { tracker.addSecond(openSecond, open) }
            let s = tracker.finished()
            q.stillPeriods = s.periods; q.stillSeconds = s.seconds; q.longestStillSeconds = s.longest
        }
        return (series, q)
    }

    /// Warnings for the facts a user should hear about.
    package func warnings(_ q: QualitySummary) -> [String] {
        var w: [String] = []
        if q.duplicateTimestamps > 0 { w.append("\(q.duplicateTimestamps) samples repeat the previous timestamp (kept)") }
        let capped = accumulator.secondsOverSampleCountCap
        if capped > 0 {
            w.append("\(capped) second(s) hold more than \(SecondAccumulator.maximumStoredSampleCount) samples: their stored sample count is capped at \(SecondAccumulator.maximumStoredSampleCount) (their movement uses every sample)")
        }
        if backwardKept > 0 { w.append("\(backwardKept) samples are earlier than the sample before them within the same second (kept)") }
        if backwardDropped > 0 { w.append("\(backwardDropped) samples go back in time by up to \(Int(Self.backwardToleranceSeconds)) s into an earlier second (dropped)") }
        if let c = q.clippedSamples, c > 0, let r = q.deviceRangeG {
            w.append("\(c) samples reach within 0.5 g of the device range ±\(String(format1: r)) g (clipped movement)")
        }
        return w
    }
}

/// What the quality checks need of one second's samples, summed in time order: their count, |a| of
/// the first (the gravity check), and per axis the sum, sum of squares, minimum and maximum
/// (stillness). Summed per second so that a parser thread can sum whole seconds and hand them over.
///
/// The per-axis values are (x, y, z, 0) vectors, 16-byte aligned: lane by lane the same operations
/// as scalars. As scalar tuples the compiler paired them into unaligned 16-byte loads and stores
/// on the parser's stack, which straddle a cache line whenever the frame lands on one (the same
/// stall as in AutoCalibration.FeatureCollector).
struct SecondStats: Sendable {
    var count = 0
    var firstNorm = 0.0
    var sum = SIMD4<Double>()
    var sumSq = SIMD4<Double>()
    var lo = SIMD4<Double>(repeating: .infinity)
    var hi = SIMD4<Double>(repeating: -.infinity)

    @inline(__always)
    mutating func add(x: Double, y: Double, z: Double) {
        if count == 0 { firstNorm = (x * x + y * y + z * z).squareRoot() }
        count &+= 1
        let v = SIMD4(x, y, z, 0)
        sum += v
        sumSq += v * v
        lo.formMinimum(with: v)
        hi.formMaximum(with: v)
    }
}

/// One second summed on a parser thread: the accumulator's sums and the quality facts, and the
/// last sample's timestamp (for the next sample's time-order check).
struct SecondAggregate: Sendable {
    var complete: SecondAccumulator.CompleteSecond
    var stats: SecondStats
    var lastTimestamp: Double
}

/// Periods in which the acceleration hardly varies, by the thresholds of van Hees et al. 2013
/// (GGIR's non-wear rule: per axis, value range < 50 mg and SD < 13 mg; still when at least 2 of
/// the 3 axes are), applied to consecutive 15-min blocks as they stream past; a still period is a
/// run of still blocks lasting at least 60 min (GGIR's window). Blocks are whole seconds on a grid
/// that starts at the first sample's second. The full GGIR procedure with overlapping windows is
/// ``StillnessNonWear`` in SleepCore, which needs the samples in memory; this is its constant-memory
/// screening for QC, fed one second's ``SecondStats`` at a time.
struct StillnessTracker {
    static let blockSeconds = 900.0
    static let minimumBlocks = 4
    static let rangeG = 0.05
    static let sdG = 0.013

    private var blockStart = Double.nan
    private var n = 0.0
    private var sum = (0.0, 0.0, 0.0)
    private var sumSq = (0.0, 0.0, 0.0)
    private var lo = (0.0, 0.0, 0.0)
    private var hi = (0.0, 0.0, 0.0)
    private var runBlocks = 0
    private var runSeconds = 0.0
    private var blockLast = 0.0
    private var lastStillBlockStart = Double.nan
    private(set) var periods = 0
    private(set) var stillSeconds = 0.0
    private(set) var longestSeconds = 0.0

    mutating func addSecond(_ second: Int64, _ s: SecondStats) {
        let t = Double(second)
        if blockStart.isNaN || t >= blockStart + Self.blockSeconds {
            closeBlock()
            // Blocks stay on the grid of the first second, so a gap skips whole blocks.
            blockStart = blockStart.isNaN ? t : blockStart + Self.blockSeconds * ((t - blockStart) / Self.blockSeconds).rounded(.down)
            n = 0; sum = (0, 0, 0); sumSq = (0, 0, 0); lo = (s.lo.x, s.lo.y, s.lo.z); hi = (s.hi.x, s.hi.y, s.hi.z)
        }
        n += Double(s.count)
        blockLast = t
        sum.0 += s.sum.x; sum.1 += s.sum.y; sum.2 += s.sum.z
        sumSq.0 += s.sumSq.x; sumSq.1 += s.sumSq.y; sumSq.2 += s.sumSq.z
        lo.0 = min(lo.0, s.lo.x); lo.1 = min(lo.1, s.lo.y); lo.2 = min(lo.2, s.lo.z)
        hi.0 = max(hi.0, s.hi.x); hi.1 = max(hi.1, s.hi.y); hi.2 = max(hi.2, s.hi.z)
    }

    private mutating func closeBlock() {
        guard !blockStart.isNaN, n >= 2 else { return }
        func still(_ s: Double, _ s2: Double, _ l: Double, _ h: Double) -> Bool {
            let variance = max(0, (s2 - s * s / n) / (n - 1))
            return h - l < Self.rangeG && variance.squareRoot() < Self.sdG
        }
        let axes = (still(sum.0, sumSq.0, lo.0, hi.0) ? 1 : 0) + (still(sum.1, sumSq.1, lo.1, hi.1) ? 1 : 0)
            + (still(sum.2, sumSq.2, lo.2, hi.2) ? 1 : 0)
        let contiguous = !lastStillBlockStart.isNaN && blockStart - lastStillBlockStart <= Self.blockSeconds + 0.5
        if axes >= 2 {
            if !contiguous { flushRun() }
            runBlocks += 1
            // A block's seconds: whole blocks 900, the last one up to its last sample.
            runSeconds += min(Self.blockSeconds, (blockLast - blockStart).rounded(.down) + 1)
            lastStillBlockStart = blockStart
        } else {
            flushRun()
            lastStillBlockStart = .nan
        }
    }

    /// Counts the run of still blocks in progress, if long enough, and starts over.
    private mutating func flushRun() {
        if runSeconds >= Self.blockSeconds * Double(Self.minimumBlocks) { periods += 1; stillSeconds += runSeconds; longestSeconds = max(longestSeconds, runSeconds) }
        runBlocks = 0
        runSeconds = 0
    }

    func finished() -> (periods: Int, seconds: Int, longest: Int) {
        var copy = self
        copy.closeBlock()
        copy.flushRun()
        return (copy.periods, Int(copy.stillSeconds), Int(copy.longestSeconds))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
