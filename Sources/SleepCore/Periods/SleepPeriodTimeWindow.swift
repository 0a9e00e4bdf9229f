/// The main sleep period time window (SPT window) of one recording or night, as found by
/// ``HDCZA`` or ``MovementSPTWindow``.
public struct SleepPeriodTimeWindow: Sendable, Hashable {
    /// The window as epochs `[startEpoch, endEpoch)`: the first and one-past-the-last epoch of
    /// the longest (gap-filled) no-movement block.
    public let span: EpochSpan
    /// The movement threshold that was applied (degrees for angle-z, the movement series'
    /// unit otherwise) — GGIR's `tib.threshold`.
    public let threshold: Double
    /// Every detected (gap-filled) block before the longest one was chosen, in time order.
    public let candidateBlocks: [EpochSpan]

    public init(span: EpochSpan, threshold: Double, candidateBlocks: [EpochSpan]) {
        self.span = span
        self.threshold = threshold
        self.candidateBlocks = candidateBlocks
    }

    /// GGIR's `SPTE_start` (`startEpoch + 1`). GGIR turns it into clock time as
    /// `SPTE_start × epochSeconds` after the analysed window's start, i.e. one epoch (5 s)
    /// after ``span``'s start. Provided for comparison with GGIR output.
    public var ggirStart: Int { span.startEpoch + 1 }
    /// GGIR's `SPTE_end` (`endEpoch + 1`).
    public var ggirEnd: Int { span.endEpoch + 1 }
}

/// The final three steps that GGIR's `HASPT` applies to a per-epoch no-movement indicator,
/// whatever produced it (HDCZA, NotWorn, sleepsta's movement fallback). Reproduces GGIR 3.x
/// (`HASPT.R`, the `rle`-based version, wadpac/GGIR ≥ 3.1) including its indexing.
package enum SleepPeriodTimeWindowSteps {
    /// - Parameters:
    ///   - noMovement: per-epoch "no movement" indicator.
    ///   - minBlockEpochs: blocks of at most this many epochs are discarded (GGIR keeps blocks
    ///     *longer* than `spt_min_block_dur`).
    ///   - maxGapEpochs: interior gaps shorter than this are filled (`spt_max_gap_dur`).
    ///   - maxGapRatio: optional GGIR `spt_max_gap_ratio`; a gap is then filled only when it
    ///     is also shorter than this fraction of both neighbouring blocks.
    package static func longestBlock(noMovement: [Bool], minBlockEpochs: Int, maxGapEpochs: Int, maxGapRatio: Double?,
                             threshold: Double) -> SleepPeriodTimeWindow? {
        let n = noMovement.count
        guard n > 0 else { return nil }
        typealias Run = PeriodsRunLength.Run<Bool>
        // GGIR pads the indicator with a 0 on both sides and, each time it rebuilds the runs,
        // keeps only the first n values of the padded vector: the result is the indicator
        // shifted right by one epoch. The shift is undone when the window is reported.
        var padded = [false] + noMovement + [false]
        var runs = PeriodsRunLength.runs(padded)

        func rebuild() {
            var values: [Bool] = []
            values.reserveCapacity(n)
            for run in runs { values.append(contentsOf: repeatElement(run.value, count: run.length)) }
            padded = Array(values.prefix(n))
            runs = PeriodsRunLength.runs(padded)
        }

        var removed = false
        for index in runs.indices where index != 0 && index != runs.count - 1
            && runs[index].value && runs[index].length <= minBlockEpochs {
            runs[index].value = false
            removed = true
        }
        if removed { rebuild() }

        var filled = false
        let segmentCount = runs.count
        let original = runs
        for index in original.indices where index != 0 && index != segmentCount - 1
            && !original[index].value && original[index].length < maxGapEpochs {
            if let ratio = maxGapRatio, ratio < 1, segmentCount > 3 {
                let length = Double(original[index].length)
                guard length / Double(original[index + 1].length) < ratio,
                      length / Double(original[index - 1].length) < ratio else { continue }
            }
            runs[index].value = true
            filled = true
        }
        if filled { rebuild() }

        let blocks = runs.filter(\.value)
        guard let longest = blocks.max(by: { $0.length < $1.length }),
              let chosen = blocks.first(where: { $0.length == longest.length }) else { return nil }
        // `chosen` indexes the shifted vector (vector index k holds epoch k − 1). GGIR cuts
        // that vector to n values, so a block reaching the last epoch loses that epoch.
        let end = min(chosen.end, n)
        let span = EpochSpan(startEpoch: chosen.start - 1, endEpoch: end - 1)
        let candidates = blocks.map { EpochSpan(startEpoch: $0.start - 1, endEpoch: min($0.end, n) - 1) }
        return SleepPeriodTimeWindow(span: span, threshold: threshold, candidateBlocks: candidates)
    }
}

/// Rolling statistics and quantiles shared by the SPT-window detectors.
enum PeriodsRollingWindow {
    /// Median of `values[i + lower ... i + upper]` for every `i`. When the window leaves the
    /// series, `partial` uses the part inside it; otherwise the output is `fill` (zoo's
    /// `rollapply(..., fill = fill)`).
    static func median(_ values: [Double], lower: Int, upper: Int, partial: Bool, fill: Double = 0) -> [Double] {
        precondition(lower <= upper)
        let n = values.count
        var output = [Double](repeating: fill, count: n)
        guard n > 0 else { return output }
        var sorted: [Double] = []
        sorted.reserveCapacity(upper - lower + 1)
        var windowStart = 0, windowEnd = 0  // current contents: values[windowStart..<windowEnd]

        func insertionIndex(_ v: Double) -> Int {
            var lo = 0, hi = sorted.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if sorted[mid] < v { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }

        for i in 0..<n {
            let from = max(0, i + lower), to = min(n, i + upper + 1)
            while windowEnd < to {
                sorted.insert(values[windowEnd], at: insertionIndex(values[windowEnd]))
                windowEnd += 1
            }
            while windowStart < from {
                sorted.remove(at: insertionIndex(values[windowStart]))
                windowStart += 1
            }
            let complete = i + lower >= 0 && i + upper < n
            guard (complete || partial) && !sorted.isEmpty else { continue }
            let count = sorted.count
            output[i] = count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
        }
        return output
    }

    /// R's default quantile (type 7): `(1 − h)·x[lo] + h·x[hi]` on the sorted values.
    static func quantile(_ values: [Double], probability: Double) -> Double {
        precondition(!values.isEmpty && (0...1).contains(probability))
        let sorted = values.sorted()
        let index = Double(sorted.count - 1) * probability  // 0-based
        let lo = Int(index.rounded(.down))
        let hi = Int(index.rounded(.up))
        let h = index - Double(lo)
        guard hi != lo, sorted[hi] != sorted[lo] else { return sorted[lo] }
        return (1 - h) * sorted[lo] + h * sorted[hi]
    }

    /// Sample standard deviation (n − 1), two-pass.
    static func standardDeviation(_ values: [Double]) -> Double {
        guard values.count >= 2 else { return .nan }
        let mean = values.reduce(0, +) / Double(values.count)
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (squares / Double(values.count - 1)).squareRoot()
    }

    /// zoo's centred alignment for a width-`w` window: offsets `floor(w/2) − w + 1 ... floor(w/2)`.
    static func centredOffsets(width: Int) -> (lower: Int, upper: Int) {
        (width / 2 - width + 1, width / 2)
    }
}
