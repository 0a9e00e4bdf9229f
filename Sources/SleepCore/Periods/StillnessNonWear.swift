/// Non-wear from raw acceleration by *stillness*: a monitor lying on a table shows almost no
/// variation on its axes. This is the rule of van Hees et al. as implemented in GGIR.
///
/// **Sources.**
/// * V. T. van Hees et al., "Estimation of daily energy expenditure in pregnant and
///   non-pregnant women using a wrist-worn tri-axial accelerometer", *PLoS ONE*
///   6(7):e22922, 2011 — per-axis standard deviation and value range in 30-min blocks.
/// * V. T. van Hees et al., "Separating movement and gravity components in an acceleration
///   signal and implications for the assessment of human daily physical activity",
///   *PLoS ONE* 8(4):e61691, 2013 — 60-min windows evaluated every 15 min, SD threshold
///   13 mg, range threshold 50 mg, non-wear when at least 2 of the 3 axes are still.
/// * Reference software: GGIR (wadpac/GGIR, `detect_nonwear_clipping.R` and the
///   `wearthreshold = 2` test in `g.weardec.R`).
///
/// **What GGIR computes** (reproduced by ``Criterion/rangeAndStandardDeviation``): for every
/// 15-min block a 60-min window of raw samples is examined; an axis is still when its value
/// range is below 50 mg **and** its SD (n − 1) is below 13 mg. The block's score is the number
/// of still axes (0–3). A score of 1 between two blocks scoring ≥ 2 is raised to 2. Blocks
/// scoring ≥ `minStillAxes` (2) are non-wear. The two papers word the rule as "SD below the
/// threshold *or* range below 50 mg"; ``Criterion/rangeOrStandardDeviation`` offers that
/// reading. Windows (``WindowScheme``):
/// * ``WindowScheme/ggir2013`` (GGIR `nonwear_approach = "2013"`, its long-time default): the
///   window is centred on the block; the first three blocks all use the first hour of data
///   (starting at the second sample, as GGIR indexes it) and the last blocks share a window
///   that starts three blocks before the end.
/// * ``WindowScheme/ggir2023`` (GGIR `"2023"`): the 60-min window *starts* at each block, is
///   subsampled to about 5 Hz (every ⌈rate / 5⌉-th sample, starting at the block's second
///   sample), and a still window flags all four blocks it covers.
///
/// Not reproduced: GGIR's later clean-up in `g.weardec` that turns short wear islands between
/// non-wear into non-wear, and its edge corrections; the last incomplete block is not
/// assessed (reported as worn), as in GGIR.
public enum StillnessNonWear {
    /// How the SD and range tests combine per axis.
    public enum Criterion: String, Sendable, Hashable, Codable, CaseIterable {
        /// GGIR's code: range < threshold AND SD < threshold.
        case rangeAndStandardDeviation
        /// The papers' wording: SD < threshold OR range < threshold.
        case rangeOrStandardDeviation
    }

    /// Which samples are examined for each block (GGIR's `nonwear_approach`).
    public enum WindowScheme: String, Sendable, Hashable, Codable, CaseIterable {
        case ggir2013
        case ggir2023
    }

    public struct Parameters: Sendable, Hashable, Codable {
        /// Resolution of the result (GGIR `windowsizes[2]`, 900 s).
        public var blockSeconds: Int
        /// Length of the examined window (GGIR `windowsizes[3]`, 3600 s).
        public var windowSeconds: Int
        /// Per-axis SD threshold in g (13 mg).
        public var standardDeviationThresholdG: Double
        /// Per-axis value-range threshold in g (50 mg).
        public var rangeThresholdG: Double
        /// Still axes needed for non-wear (GGIR `wearthreshold`, 2).
        public var minStillAxes: Int
        public var criterion: Criterion
        public var windowScheme: WindowScheme

        public init(blockSeconds: Int = 900, windowSeconds: Int = 3600, standardDeviationThresholdG: Double = 0.013,
                    rangeThresholdG: Double = 0.05, minStillAxes: Int = 2,
                    criterion: Criterion = .rangeAndStandardDeviation, windowScheme: WindowScheme = .ggir2013) {
            precondition(blockSeconds > 0 && windowSeconds >= blockSeconds && (1...3).contains(minStillAxes),
                         "invalid stillness parameters")
            self.blockSeconds = blockSeconds
            self.windowSeconds = windowSeconds
            self.standardDeviationThresholdG = standardDeviationThresholdG
            self.rangeThresholdG = rangeThresholdG
            self.minStillAxes = minStillAxes
            self.criterion = criterion
            self.windowScheme = windowScheme
        }

        /// GGIR defaults (van Hees 2013): 15-min blocks, 60-min windows, 13 mg, 50 mg, 2 axes.
        public static let ggir = Parameters()
    }

    /// Per-block result.
    public struct Result: Sendable, Hashable {
        public let blockSeconds: Int
        /// Still axes per block after GGIR's isolated-1 rule (GGIR's `NWav`).
        public let stillAxes: [Int]
        /// `true` where the block is non-wear.
        public let isNonWearBlock: [Bool]

        /// Maps the blocks onto an epoch grid starting at the same instant. An epoch is
        /// non-wear when its start lies in a non-wear block; epochs after the last complete
        /// block are not assessed and stay worn.
        public func wearClassification(epochSeconds: Double, epochCount: Int) -> WearClassification {
            precondition(epochSeconds > 0)
            var periods: [EpochSpan] = []
            var runStart: Int?
            for epoch in 0..<epochCount {
                let block = Int((Double(epoch) * epochSeconds / Double(blockSeconds)).rounded(.down))
                let nonWear = block < isNonWearBlock.count && isNonWearBlock[block]
                if nonWear, runStart == nil { runStart = epoch }
                if !nonWear, let start = runStart {
                    periods.append(EpochSpan(startEpoch: start, endEpoch: epoch))
                    runStart = nil
                }
            }
            if let start = runStart { periods.append(EpochSpan(startEpoch: start, endEpoch: epochCount)) }
            return WearClassification(epochCount: epochCount, nonWearPeriods: periods)
        }
    }

    /// Classifies raw tri-axial acceleration (in g, gravity included or not) sampled at
    /// `sampleRateHz`.
    public static func detect(x: [Double], y: [Double], z: [Double], sampleRateHz: Double,
                              parameters: Parameters = .ggir) -> Result {
        precondition(x.count == y.count && x.count == z.count, "axes must have equal length")
        precondition(sampleRateHz > 0)
        let block = Int((Double(parameters.blockSeconds) * sampleRateHz).rounded())
        let window = Int((Double(parameters.windowSeconds) * sampleRateHz).rounded())
        let sampleCount = x.count
        let blockCount = block > 0 ? sampleCount / block : 0
        var flags = [[Bool]](repeating: [false, false, false], count: blockCount)
        var stillAxes = [Int](repeating: 0, count: blockCount)
        let axes = [x, y, z]

        switch parameters.windowScheme {
        case .ggir2013:
            let crit = window / block / 2 + 1
            for h in stride(from: 1, through: blockCount, by: 1) {
                let range: Range<Int>
                if h <= crit {
                    range = 1..<window
                } else if h >= blockCount - crit {
                    range = max(0, (blockCount - crit) * block)..<(blockCount * block)
                } else {
                    let start = (h - 1) * block + block / 2 - window / 2
                    range = start..<(start + window)
                }
                let clipped = max(0, range.lowerBound)..<min(sampleCount, range.upperBound)
                for axis in 0..<3 where isStill(axes[axis], clipped, step: 1, parameters) {
                    flags[h - 1][axis] = true
                }
                stillAxes[h - 1] = flags[h - 1].filter { $0 }.count
            }
        case .ggir2023:
            let step = Int((sampleRateHz / 5).rounded(.up))
            let blocksPerWindow = max(1, window / block)
            for h in 0..<blockCount {
                let start = h * block + 1
                let clipped = min(start, sampleCount)..<min(h * block + window, sampleCount)
                for axis in 0..<3 where isStill(axes[axis], clipped, step: step, parameters) {
                    for flagged in h..<min(h + blocksPerWindow, blockCount) { flags[flagged][axis] = true }
                }
                stillAxes[h] = flags[h].filter { $0 }.count
            }
        }

        // GGIR: a single 1 between two blocks scoring > 1 becomes 2.
        if blockCount >= 3 {
            for h in 1..<(blockCount - 1) where stillAxes[h] == 1 && stillAxes[h - 1] > 1 && stillAxes[h + 1] > 1 {
                stillAxes[h] = 2
            }
        }
        return Result(blockSeconds: parameters.blockSeconds, stillAxes: stillAxes,
                      isNonWearBlock: stillAxes.map { $0 >= parameters.minStillAxes })
    }

    /// Range and SD (n − 1) of every `step`-th sample in `range`.
    private static func isStill(_ values: [Double], _ range: Range<Int>, step: Int, _ p: Parameters) -> Bool {
        guard range.count >= 2 else { return false }
        return values.withUnsafeBufferPointer { buffer in
            var minimum = Double.infinity, maximum = -Double.infinity, sum = 0.0, n = 0
            var index = range.lowerBound
            while index < range.upperBound {
                let v = buffer[index]
                minimum = Swift.min(minimum, v)
                maximum = Swift.max(maximum, v)
                sum += v
                n += 1
                index += step
            }
            guard n >= 2 else { return false }
            let rangeStill = maximum - minimum < p.rangeThresholdG
            if p.criterion == .rangeAndStandardDeviation && !rangeStill { return false }
            let mean = sum / Double(n)
            var squares = 0.0
            index = range.lowerBound
            while index < range.upperBound {
                let d = buffer[index] - mean
                squares += d * d
                index += step
            }
            let sdStill = (squares / Double(n - 1)).squareRoot() < p.standardDeviationThresholdG
            return p.criterion == .rangeAndStandardDeviation ? sdStill : (rangeStill || sdStill)
        }
    }
}
