/// The per-second base series of a recording: the milestone every interval, score and chart is
/// derived from, so that changing an interval length never re-reads raw data.
///
/// Index `i` covers UTC seconds `[startSecond + i, startSecond + i + 1)`.
/// Seconds without samples have `sampleCounts[i] == 0` and NaN movement: gaps stay visible.
public struct SecondSeries: Sendable, Equatable {
    /// UTC epoch second of index 0.
    public var startSecond: Int64
    /// Mean over the second's samples of (|x|+|y|+|z|)/3, in g (``MovementMetric/meanAbsoluteAxis``).
    public var movement: [Float]
    /// Mean over the second's samples of |x|+|y|+|z|/3, in g (``MovementMetric/legacyApp``).
    public var legacyMovement: [Float]
    /// Samples that fell in each second (0 = no data). Saturates at `UInt16.max`.
    public var sampleCounts: [UInt16]
    /// Resolution of the source in seconds: 1 for raw samples; the interval length for sources that
    /// only hold interval totals (the app's JSON export), whose totals are spread evenly over their seconds.
    public var sourceResolutionSeconds: Int

    public init(startSecond: Int64, movement: [Float], legacyMovement: [Float], sampleCounts: [UInt16],
                sourceResolutionSeconds: Int = 1) {
        precondition(movement.count == legacyMovement.count && movement.count == sampleCounts.count)
        self.startSecond = startSecond
        self.movement = movement
        self.legacyMovement = legacyMovement
        self.sampleCounts = sampleCounts
        self.sourceResolutionSeconds = sourceResolutionSeconds
    }

    public static func empty(startSecond: Int64 = 0) -> SecondSeries {
        SecondSeries(startSecond: startSecond, movement: [], legacyMovement: [], sampleCounts: [])
    }

    public var count: Int { movement.count }
    public var isEmpty: Bool { movement.isEmpty }
    /// One past the last second, UTC.
    public var endSecond: Int64 { startSecond + Int64(count) }
    public var coveredSeconds: Int { sampleCounts.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } }
    public var totalSamples: Int { sampleCounts.reduce(0) { $0 + Int($1) } }

    public func values(for metric: MovementMetric) -> [Float] {
        metric == .meanAbsoluteAxis ? movement : legacyMovement
    }

    /// The series with the seconds of `spans` (`[from, to)` UTC each) made gaps, as seconds without
    /// a sample are, and how many seconds with data that removed. Unchanged (its storage shared)
    /// where no span meets it.
    public func removingData(in spans: [[Int64]]) -> (series: SecondSeries, removedSeconds: Int) {
        var copy = self, removed = 0
        for span in spans where span.count == 2 {
            let lo = max(span[0], startSecond), hi = min(span[1], endSecond)
            guard hi > lo else { continue }
            for k in Int(lo - startSecond)..<Int(hi - startSecond) where copy.sampleCounts[k] > 0 {
                copy.sampleCounts[k] = 0; copy.movement[k] = .nan; copy.legacyMovement[k] = .nan
                removed += 1
            }
        }
        return (removed > 0 ? copy : self, removed)
    }

    /// The seconds `[from, to)` (UTC) as a new series; seconds outside the recording are gaps.
    ///
    /// Memory: the whole series is returned as it is (sharing its storage), and a series whose two
    /// movement channels share one array (the app export's, where both are the app's totals) gives
    /// a slice that shares one array too, so slicing a recording into nights does not copy every
    /// second twice over.
    public func slice(from: Int64, to: Int64) -> SecondSeries {
        guard to > from else { return .empty(startSecond: from) }
        if from == startSecond && to == endSecond { return self }
        let n = Int(to - from)
        let shared = channelsShareStorage
        var m = [Float](repeating: .nan, count: n)
        var l = shared ? [] : [Float](repeating: .nan, count: n)
        var c = [UInt16](repeating: 0, count: n)
        let lo = max(from, startSecond), hi = min(to, endSecond)
        if hi > lo {
            let src = Int(lo - startSecond), dst = Int(lo - from), len = Int(hi - lo)
            m.replaceSubrange(dst..<dst + len, with: movement[src..<src + len])
            if !shared { l.replaceSubrange(dst..<dst + len, with: legacyMovement[src..<src + len]) }
            c.replaceSubrange(dst..<dst + len, with: sampleCounts[src..<src + len])
        }
        return SecondSeries(startSecond: from, movement: m, legacyMovement: shared ? m : l, sampleCounts: c,
                            sourceResolutionSeconds: sourceResolutionSeconds)
    }

    /// Whether `movement` and `legacyMovement` are one array (the same storage), not just equal.
    package var channelsShareStorage: Bool {
        movement.withUnsafeBufferPointer { m in legacyMovement.withUnsafeBufferPointer { l in m.baseAddress == l.baseAddress } }
            && !movement.isEmpty
    }

    /// UTC seconds of the first and one past the last covered second, or nil without data.
    public var dataSpan: (first: Int64, end: Int64)? {
        guard let f = sampleCounts.firstIndex(where: { $0 > 0 }),
              let l = sampleCounts.lastIndex(where: { $0 > 0 }) else { return nil }
        return (startSecond + Int64(f), startSecond + Int64(l) + 1)
    }

    /// The series cut to its first and last covered seconds.
    public func trimmedToData() -> SecondSeries {
        guard let span = dataSpan else { return self }
        return slice(from: span.first, to: span.end)
    }
}
