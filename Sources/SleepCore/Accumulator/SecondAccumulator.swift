/// Streams raw samples (time-ordered) into a ``SecondSeries``.
///
/// Hand-written rather than built on a collection library because it runs once per sample inside
/// the parsers' hot loop: no allocation per sample, sums kept in `Double` (a `Float` running sum
/// over millions of samples loses digits), one branch per sample for the second boundary.
public struct SecondAccumulator: Sendable {
    /// Refuse recordings whose span exceeds this many seconds: a timestamp far in the future or
    /// past is almost always corrupt input, and the series is allocated per second.
    public static let maximumSpanSeconds: Int64 = 62 * 86_400

    public enum Failure: Error, Equatable, Sendable {
        /// The sample at this UTC second lies before the previous sample's second.
        case timeWentBackwards(previousSecond: Int64, second: Int64)
        /// The sample would stretch the recording beyond ``SecondAccumulator/maximumSpanSeconds``.
        case spanTooLong(firstSecond: Int64, second: Int64)
    }

    // Internal and @usableFromInline (not private) so that `add` inlines into the readers' parse
    // loops in other modules: the call was about 15 % of single-core CSV ingest (perf record).
    @usableFromInline var series = SecondSeries.empty()
    @usableFromInline var started = false
    @usableFromInline var currentSecond: Int64 = 0
    @usableFromInline var sumMovement = 0.0
    @usableFromInline var sumLegacy = 0.0
    @usableFromInline var samplesInSecond = 0
    @usableFromInline var samples = 0
    @usableFromInline var duplicates = 0
    public var sampleCount: Int { samples }
    public var duplicateTimestampCount: Int { duplicates }
    /// Seconds holding more than ``maximumStoredSampleCount`` samples: their count is stored as
    /// that maximum (the per-second means still use every sample).
    @usableFromInline var cappedSecondCount = 0
    public var secondsOverSampleCountCap: Int {
        cappedSecondCount + (samplesInSecond > Self.maximumStoredSampleCount ? 1 : 0)   // the open second too
    }
    /// The largest per-second sample count the series stores (`sampleCounts` is 16-bit).
    public static let maximumStoredSampleCount = Int(UInt16.max)
    @usableFromInline var lastTimestampBits: UInt64 = 0

    public init(reservingSeconds: Int = 0) {
        series.movement.reserveCapacity(reservingSeconds)
        series.legacyMovement.reserveCapacity(reservingSeconds)
        series.sampleCounts.reserveCapacity(reservingSeconds)
    }

    /// Adds one sample at `timestamp` (UTC seconds since 1970, fractional) with acceleration in g.
    @inlinable @inline(__always)
    public mutating func add(timestamp: Double, x: Double, y: Double, z: Double) throws(Failure) {
        let second = Self.second(of: timestamp)
        try add(second: second, timestampBits: timestamp.bitPattern, x: x, y: y, z: z)
    }

    @inlinable @inline(__always)
    mutating func add(second: Int64, timestampBits: UInt64, x: Double, y: Double, z: Double) throws(Failure) {
        if !started {
            started = true
            series.startSecond = second
            currentSecond = second
        } else if second != currentSecond {
            if second < currentSecond { throw .timeWentBackwards(previousSecond: currentSecond, second: second) }
            if second - series.startSecond >= Self.maximumSpanSeconds {
                throw .spanTooLong(firstSecond: series.startSecond, second: second)
            }
            flush()
            let gap = Int(second - currentSecond - 1)
            if gap > 0 { appendGap(gap) }
            currentSecond = second
        } else if timestampBits == lastTimestampBits && samplesInSecond > 0 {
            duplicates += 1
        }
        lastTimestampBits = timestampBits
        let c = Self.contribution(x: x, y: y, z: z)
        sumMovement += c.movement
        sumLegacy += c.legacy
        samplesInSecond += 1
        samples += 1
    }

    /// The whole UTC second a timestamp falls in (floor). Written as a truncating conversion and a
    /// correction: `rounded(.down)` is a call to libm's `floor` on the x86-64 baseline Swift targets
    /// (no SSE4.1 `roundsd`), once per sample in every reader (perf record: `floor@plt`).
    @inlinable @inline(__always)
    public static func second(of timestamp: Double) -> Int64 {
        let truncated = Int64(timestamp)
        return Double(truncated) > timestamp ? truncated - 1 : truncated
    }

    /// One sample's share of its second's sums: (|x|+|y|+|z|)/3 and the app's legacy formula
    /// |x| + |y| + |z|/3. Shared with readers that sum whole seconds elsewhere (on other threads) and
    /// hand them over with ``appendCompleteSecond(_:)``: the same operations in the same order give
    /// the same bits.
    @inlinable @inline(__always)
    public static func contribution(x: Double, y: Double, z: Double) -> (movement: Double, legacy: Double) {
        let ax = abs(x), ay = abs(y), az = abs(z)
        return ((ax + ay + az) / 3, ax + ay + az / 3)
    }

    /// A second summed elsewhere: sums of ``contribution(x:y:z:)`` over its samples in time order
    /// (starting from 0), their count, the repeated timestamps among them, and the last sample's
    /// timestamp bits. The result equals adding those samples one by one, provided `second` is later
    /// than every second added so far.
    public struct CompleteSecond: Sendable {
        public var second: Int64
        public var movementSum: Double
        public var legacySum: Double
        public var count: Int
        public var duplicates: Int
        public var lastTimestampBits: UInt64
        public init(second: Int64, movementSum: Double, legacySum: Double, count: Int, duplicates: Int, lastTimestampBits: UInt64) {
            self.second = second; self.movementSum = movementSum; self.legacySum = legacySum
            self.count = count; self.duplicates = duplicates; self.lastTimestampBits = lastTimestampBits
        }
    }

    /// Appends a ``CompleteSecond`` as if its samples had been added one by one.
    public mutating func appendCompleteSecond(_ c: CompleteSecond) throws(Failure) {
        precondition(c.count > 0)
        if !started {
            started = true
            series.startSecond = c.second
        } else {
            if c.second <= currentSecond { throw .timeWentBackwards(previousSecond: currentSecond, second: c.second) }
            if c.second - series.startSecond >= Self.maximumSpanSeconds {
                throw .spanTooLong(firstSecond: series.startSecond, second: c.second)
            }
            flush()
            let gap = Int(c.second - currentSecond - 1)
            if gap > 0 { appendGap(gap) }
        }
        currentSecond = c.second
        sumMovement = c.movementSum
        sumLegacy = c.legacySum
        samplesInSecond = c.count
        samples += c.count
        duplicates += c.duplicates
        lastTimestampBits = c.lastTimestampBits
    }

    @usableFromInline
    mutating func flush() {
        guard samplesInSecond > 0 else { return }
        let n = Double(samplesInSecond)
        series.movement.append(Float(sumMovement / n))
        series.legacyMovement.append(Float(sumLegacy / n))
        if samplesInSecond > Self.maximumStoredSampleCount { cappedSecondCount += 1 }
        series.sampleCounts.append(UInt16(clamping: samplesInSecond))
        sumMovement = 0; sumLegacy = 0; samplesInSecond = 0
    }

    @usableFromInline
    mutating func appendGap(_ seconds: Int) {
        series.movement.append(contentsOf: repeatElement(.nan, count: seconds))
        series.legacyMovement.append(contentsOf: repeatElement(.nan, count: seconds))
        series.sampleCounts.append(contentsOf: repeatElement(0, count: seconds))
    }

    /// The base series so far (the accumulator can keep going afterwards).
    public func finish() -> SecondSeries {
        var copy = self
        copy.flush()
        return copy.series
    }
}
