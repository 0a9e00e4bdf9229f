/// A half-open run of epochs `[startEpoch, endEpoch)` in an epoch series, indexed from 0.
///
/// Every period detector in this folder (non-wear, sleep periods, the sleep period time
/// window) reports its periods as `EpochSpan`s so that callers map them to clock time with
/// one rule: `start = recordingStart + startEpoch × epochSeconds`,
/// `end = recordingStart + endEpoch × epochSeconds`. This matches how ActiLife exports
/// periods: `period_end` is the first minute *after* the period and `length` is
/// `end − start` in epochs.
public struct EpochSpan: Sendable, Hashable, Codable, CustomStringConvertible {
    /// First epoch of the span (inclusive).
    public var startEpoch: Int
    /// First epoch after the span (exclusive).
    public var endEpoch: Int

    public init(startEpoch: Int, endEpoch: Int) {
        precondition(startEpoch >= 0 && endEpoch >= startEpoch, "EpochSpan needs 0 <= start <= end")
        self.startEpoch = startEpoch
        self.endEpoch = endEpoch
    }

    public init(startEpoch: Int, length: Int) {
        self.init(startEpoch: startEpoch, endEpoch: startEpoch + length)
    }

    /// Number of epochs in the span.
    public var length: Int { endEpoch - startEpoch }

    public var isEmpty: Bool { endEpoch == startEpoch }

    /// The span as a Swift range of epoch indices.
    public var range: Range<Int> { startEpoch..<endEpoch }

    public func contains(_ epoch: Int) -> Bool { epoch >= startEpoch && epoch < endEpoch }

    public var description: String { "[\(startEpoch), \(endEpoch)) (\(length) epochs)" }
}
