/// GGIR's non-wear rule (van Hees et al. 2013, `nonwear_approach = "2013"`; see ``StillnessNonWear``
/// for the sources and the sample-level implementation) judged from ``EpochAxisStatistics``, so
/// that a recording of any length is classified while it streams.
///
/// The recording is cut into 15-min blocks from its first epoch. Each block is judged on a 60-min
/// window centred on it (the first three blocks on the first hour, the last blocks on the data from
/// three blocks before the end, as GGIR does); an axis is still when its value range is below 50 mg
/// and its SD below 13 mg; a block is non-wear when at least 2 of the 3 axes are still, after GGIR's
/// rule that lifts a single still axis between two non-wear blocks to 2. Epochs take their block's
/// flag; the last incomplete block is not judged (worn), as in GGIR.
///
/// Chosen over the stillness-only QC screening because it is GGIR's default and the published
/// rule; a watch lying still on a table for an hour or more is non-wear, never sleep.
///
/// Difference from ``StillnessNonWear/detect(x:y:z:sampleRateHz:parameters:)``: windows are whole
/// 5-s epochs on the time grid, so GGIR's first window, which starts at the second sample, starts
/// here at the first; the SD is pooled from per-epoch statistics (equal to the two-pass SD up to
/// rounding). The tests check that both give the same blocks.
public enum EpochStillnessNonWear {
    public static func nonWear(_ stats: EpochAxisStatistics, epochSeconds: Int = WearableEpochs.epochSeconds,
                               parameters p: StillnessNonWear.Parameters = .ggir) -> (epochs: [Bool], blocks: [Bool]) {
        let block = p.blockSeconds / epochSeconds, window = p.windowSeconds / epochSeconds
        let n = stats.count
        let blockCount = block > 0 ? n / block : 0
        var stillAxes = [Int](repeating: 0, count: blockCount)
        let crit = window / block / 2 + 1
        for h in stride(from: 1, through: blockCount, by: 1) {
            let range: Range<Int>
            if h <= crit { range = 0..<window }
            else if h >= blockCount - crit { range = max(0, (blockCount - crit) * block)..<(blockCount * block) }
            else { let start = (h - 1) * block + block / 2 - window / 2; range = start..<(start + window) }
            let clipped = max(0, range.lowerBound)..<min(n, range.upperBound)
            for axis in 0..<3 {
                guard let v = stats.pooled(axis: axis, clipped) else { continue }
                let rangeStill = v.range < p.rangeThresholdG, sdStill = v.sd < p.standardDeviationThresholdG
                let still = p.criterion == .rangeAndStandardDeviation ? (rangeStill && sdStill) : (rangeStill || sdStill)
                if still { stillAxes[h - 1] += 1 }
            }
        }
        if blockCount >= 3 {
            for h in 1..<(blockCount - 1) where stillAxes[h] == 1 && stillAxes[h - 1] > 1 && stillAxes[h + 1] > 1 { stillAxes[h] = 2 }
        }
        let blocks = stillAxes.map { $0 >= p.minStillAxes }
        var epochs = [Bool](repeating: false, count: n)
        for (b, flag) in blocks.enumerated() where flag {
            for i in (b * block)..<min(n, (b + 1) * block) { epochs[i] = true }
        }
        return (epochs, blocks)
    }
}
