/// Movement summed over one clock-aligned interval.
public struct IntervalMovement: Sendable, Equatable, Codable {
    /// UTC seconds `[startUTC, endUTC)`.
    public var startUTC: Int64
    public var endUTC: Int64
    /// Sum of the per-second movement over the covered seconds: the app's accumulator (g·s).
    public var movementSum: Double
    /// The same with the app's legacy formula.
    public var legacyMovementSum: Double
    /// Seconds of the interval that hold data.
    public var coverageSeconds: Int
    /// `movementSum / coverageSeconds * 60`: mean movement per minute of data, comparable across
    /// interval lengths and robust to gaps. Nil when the interval holds no data.
    public var movementPerMinute: Double? {
        coverageSeconds > 0 ? movementSum / Double(coverageSeconds) * 60 : nil
    }
    public var durationSeconds: Int { Int(endUTC - startUTC) }

    public init(startUTC: Int64, endUTC: Int64, movementSum: Double, legacyMovementSum: Double, coverageSeconds: Int) {
        self.startUTC = startUTC; self.endUTC = endUTC; self.movementSum = movementSum
        self.legacyMovementSum = legacyMovementSum; self.coverageSeconds = coverageSeconds
    }
}

/// Re-aggregates a per-second base series into intervals of any length.
public enum IntervalAggregator {
    /// Intervals of `length` on a grid through `gridOriginUTC` (a boundary, e.g. the night's local
    /// noon, which puts 10- and 15-minute boundaries on the clock: 00:00, 00:10, ...), covering
    /// `[fromUTC, toUTC)` rounded outwards to the grid. Every interval is returned, including empty
    /// ones (coverage 0), so gaps are visible.
    public static func aggregate(_ series: SecondSeries, length: IntervalLength, gridOriginUTC: Int64,
                                 fromUTC: Int64, toUTC: Int64) -> [IntervalMovement] {
        guard toUTC > fromUTC else { return [] }
        let L = Int64(length.seconds)
        let first = gridOriginUTC + LocalClock.floorDiv(fromUTC - gridOriginUTC, L) * L
        let lastEnd = gridOriginUTC + (LocalClock.floorDiv(toUTC - 1 - gridOriginUTC, L) + 1) * L
        var result: [IntervalMovement] = []
        result.reserveCapacity(Int((lastEnd - first) / L))
        series.movement.withUnsafeBufferPointer { mov in
            series.legacyMovement.withUnsafeBufferPointer { leg in
                series.sampleCounts.withUnsafeBufferPointer { cnt in
                    var start = first
                    while start < lastEnd {
                        let end = start + L
                        let lo = Int(max(start, series.startSecond) - series.startSecond)
                        let hi = Int(min(end, series.endSecond) - series.startSecond)
                        var sum = 0.0, legacy = 0.0, covered = 0
                        if hi > lo {
                            for i in lo..<hi where cnt[i] > 0 {
                                sum += Double(mov[i]); legacy += Double(leg[i]); covered += 1
                            }
                        }
                        result.append(IntervalMovement(startUTC: start, endUTC: end, movementSum: sum,
                                                       legacyMovementSum: legacy, coverageSeconds: covered))
                        start = end
                    }
                }
            }
        }
        return result
    }
}
