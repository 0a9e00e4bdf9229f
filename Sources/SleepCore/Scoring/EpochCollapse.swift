/// ActiLife's re-integration of short epochs into longer ones (e.g. 10-s counts into 60-s epochs).
///
/// Each input epoch goes into the output epoch that contains its start time, with output epochs
/// aligned on the clock (multiples of the output length since midnight: for 60 s, whole minutes).
/// Counts, steps and inclinometer seconds are summed; lux is the mean, rounded down. Output epochs that
/// only part of the record covers (a recording that starts or stops mid-minute) are kept with what
/// they have, as ActiLife does.
///
/// - ActiGraph ActiLife 6 User's Manual (04/03/2012), "Re-integrate epochs"; the convention is stated
///   and reproduced by actigraph.sleepr 0.2 `collapse_epochs` (Petkova), whose tests assert identity
///   with ActiLife exports. Reproduced here for every epoch and column of the two ActiLife exports
///   (GT3X+ and ActiSleep+, 10 s → 60 s; see `ScorerReferenceTests`). Lux: the exports agree with
///   `floor(mean)`; they cannot tell whether ActiLife divides by the epochs present or by the full
///   count in an incomplete minute (its lux is 0 there), sleepsta uses the epochs present.
public enum EpochCollapse {
    /// How one column is combined within an output epoch.
    public enum Reduction: String, Sendable, Hashable, Codable {
        /// Sum of the present values (axis counts, steps, inclinometer seconds).
        case sum
        /// Mean of the present values, rounded down (ActiLife's lux).
        case floorMean
        /// Largest present value (Cole et al. 1992's "maximum epoch per minute" reductions).
        case maximum
    }

    /// The collapsed series.
    public struct Result: Sendable, Equatable {
        /// Start of the first output epoch, in the same clock as `firstEpochStartSeconds`.
        public var firstOutputStartSeconds: Int64
        /// Output length in seconds.
        public var outputEpochSeconds: Int
        /// One array per input column, one value per output epoch (NaN when no input value was present).
        public var columns: [[Double]]
        /// Number of input epochs with a value (in the first column) per output epoch.
        public var presentInputEpochs: [Int]
    }

    /// Collapses columns of equally spaced epochs into longer, clock-aligned epochs.
    /// - Parameters:
    ///   - columns: one array per quantity (all the same length), one value per input epoch;
    ///     `Double.nan` = missing (skipped).
    ///   - reductions: one per column (default: all `.sum`).
    ///   - inputEpochSeconds: input epoch length (must divide `outputEpochSeconds`).
    ///   - outputEpochSeconds: output epoch length.
    ///   - firstEpochStartSeconds: start of the first input epoch in seconds on a clock whose zero is a
    ///     midnight (local seconds since 1970, or seconds of the day); only its remainder modulo
    ///     `outputEpochSeconds` matters.
    ///   - keepIncomplete: `true` (ActiLife) keeps output epochs with fewer input epochs than
    ///     `outputEpochSeconds / inputEpochSeconds`; `false` sets them to NaN (the grid stays regular).
    /// - Returns: `nil` when the lengths are inconsistent.
    public static func collapse(
        columns: [[Double]], reductions: [Reduction]? = nil,
        inputEpochSeconds: Int, outputEpochSeconds: Int, firstEpochStartSeconds: Int64,
        keepIncomplete: Bool = true
    ) -> Result? {
        guard inputEpochSeconds > 0, outputEpochSeconds >= inputEpochSeconds,
              outputEpochSeconds % inputEpochSeconds == 0 else { return nil }
        let n = columns.first?.count ?? 0
        guard columns.allSatisfy({ $0.count == n }) else { return nil }
        let reductions = reductions ?? [Reduction](repeating: .sum, count: columns.count)
        guard reductions.count == columns.count else { return nil }

        let out64 = Int64(outputEpochSeconds)
        let offset = Int((firstEpochStartSeconds % out64 + out64) % out64)  // seconds into the first output epoch
        let firstOutputStart = firstEpochStartSeconds - Int64(offset)
        let outputCount = n == 0 ? 0 : (offset + (n - 1) * inputEpochSeconds) / outputEpochSeconds + 1
        let perOutput = outputEpochSeconds / inputEpochSeconds

        var present = [Int](repeating: 0, count: outputCount)
        var resultColumns: [[Double]] = []
        resultColumns.reserveCapacity(columns.count)
        for (c, column) in columns.enumerated() {
            var sums = [Double](repeating: 0, count: outputCount)
            var maxima = [Double](repeating: -.infinity, count: outputCount)
            var counts = [Int](repeating: 0, count: outputCount)
            column.withUnsafeBufferPointer { x in
                for i in 0..<n where !x[i].isNaN {
                    let o = (offset + i * inputEpochSeconds) / outputEpochSeconds
                    sums[o] += x[i]
                    maxima[o] = Swift.max(maxima[o], x[i])
                    counts[o] += 1
                }
            }
            if c == 0 { present = counts }
            var values = [Double](repeating: .nan, count: outputCount)
            for o in 0..<outputCount where counts[o] > 0 {
                if !keepIncomplete && counts[o] < perOutput { continue }
                switch reductions[c] {
                case .sum: values[o] = sums[o]
                case .floorMean: values[o] = (sums[o] / Double(counts[o])).rounded(.down)
                case .maximum: values[o] = maxima[o]
                }
            }
            resultColumns.append(values)
        }
        return Result(
            firstOutputStartSeconds: firstOutputStart, outputEpochSeconds: outputEpochSeconds,
            columns: resultColumns, presentInputEpochs: present)
    }

    /// Collapses one column (see ``collapse(columns:reductions:inputEpochSeconds:outputEpochSeconds:firstEpochStartSeconds:keepIncomplete:)``).
    public static func collapse(
        _ values: [Double], reduction: Reduction = .sum,
        inputEpochSeconds: Int, outputEpochSeconds: Int, firstEpochStartSeconds: Int64,
        keepIncomplete: Bool = true
    ) -> [Double]? {
        collapse(
            columns: [values], reductions: [reduction], inputEpochSeconds: inputEpochSeconds,
            outputEpochSeconds: outputEpochSeconds, firstEpochStartSeconds: firstEpochStartSeconds,
            keepIncomplete: keepIncomplete
        )?.columns[0]
    }
}
