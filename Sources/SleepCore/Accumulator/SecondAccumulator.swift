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
    @usableFromInline var lastTimestampBits: UInt64 = 0

    public init(reservingSeconds: Int = 0) {
        series.movement.reserveCapacity(reservingSeconds)
        series.legacyMovement.reserveCapacity(reservingSeconds)
        series.sampleCounts.reserveCapacity(reservingSeconds)
    }

    /// Adds one sample at `timestamp` (UTC seconds since 1970, fractional) with acceleration in g.
    @inlinable @inline(__always)
    public mutating func add(timestamp: Double, x: Double, y: Double, z: Double) throws(Failure) {
        let second = Int64(timestamp.rounded(.down))
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
        let ax = abs(x), ay = abs(y), az = abs(z)
        sumMovement += (ax + ay + az) / 3
        sumLegacy += ax + ay + az / 3
        samplesInSecond += 1
        samples += 1
    }

    @usableFromInline
    mutating func flush() {
        guard samplesInSecond > 0 else { return }
        let n = Double(samplesInSecond)
        series.movement.append(Float(sumMovement / n))
        series.legacyMovement.append(Float(sumLegacy / n))
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
