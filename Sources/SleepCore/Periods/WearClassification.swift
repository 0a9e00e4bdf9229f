/// The result of a non-wear detector: the non-wear periods and, derived from them, a
/// per-epoch wear flag.
///
/// Non-wear is a *flag*, never a deletion: the epoch series keeps its length and every
/// downstream step decides for itself what to do with unworn epochs (skip them in scoring,
/// report them, grey them out in a chart).
public struct WearClassification: Sendable, Hashable {
    /// Number of epochs that were classified.
    public let epochCount: Int
    /// Non-wear periods in time order, non-overlapping.
    public let nonWearPeriods: [EpochSpan]
    /// Per-epoch flag, `true` = worn, `false` = inside a non-wear period.
    public let isWorn: [Bool]

    /// Builds the classification from non-overlapping, time-ordered non-wear periods.
    public init(epochCount: Int, nonWearPeriods: [EpochSpan]) {
        precondition(epochCount >= 0)
        var worn = [Bool](repeating: true, count: epochCount)
        var previousEnd = 0
        for period in nonWearPeriods {
            precondition(period.startEpoch >= previousEnd && period.endEpoch <= epochCount,
                         "non-wear periods must be ordered, non-overlapping and inside the series")
            for epoch in period.range { worn[epoch] = false }
            previousEnd = period.endEpoch
        }
        self.epochCount = epochCount
        self.nonWearPeriods = nonWearPeriods
        self.isWorn = worn
    }

    /// Number of epochs flagged as worn.
    public var wornEpochCount: Int { isWorn.reduce(0) { $0 + ($1 ? 1 : 0) } }

    /// The complement of `nonWearPeriods` inside `[0, epochCount)`.
    public var wearPeriods: [EpochSpan] { segments.filter(\.isWorn).map(\.span) }

    /// The whole series cut into alternating wear / non-wear segments, in time order — the
    /// layout of ActiLife's wear-time-validation export (`wear = TRUE/FALSE` rows).
    public var segments: [WearSegment] {
        var result: [WearSegment] = []
        var cursor = 0
        for period in nonWearPeriods {
            if period.startEpoch > cursor {
                result.append(WearSegment(span: EpochSpan(startEpoch: cursor, endEpoch: period.startEpoch), isWorn: true))
            }
            if !period.isEmpty { result.append(WearSegment(span: period, isWorn: false)) }
            cursor = period.endEpoch
        }
        if cursor < epochCount {
            result.append(WearSegment(span: EpochSpan(startEpoch: cursor, endEpoch: epochCount), isWorn: true))
        }
        return result
    }
}

/// One row of a wear / non-wear segmentation (see ``WearClassification/segments``).
public struct WearSegment: Sendable, Hashable {
    public let span: EpochSpan
    public let isWorn: Bool

    public init(span: EpochSpan, isWorn: Bool) {
        self.span = span
        self.isWorn = isWorn
    }
}
