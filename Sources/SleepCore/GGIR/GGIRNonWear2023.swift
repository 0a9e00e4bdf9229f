/// GGIR 3.x's default non-wear rule (`nonwear_approach = "2023"`), judged from
/// ``EpochAxisStatistics`` while the recording streams, for the GGIR parity method
/// (``GGIRNightMethod``). The score it gives each 15-min block is stored per epoch so that the
/// parity method can be derived again from the database.
///
/// **Source.** GGIR 3.3-6, `detect_nonwear_clipping.R` (`nonwear_approach = "2023"`),
/// `get_nw_clip_block_params.R` (thresholds, chunk sizes), `get_starttime_weekday_truncdata.R`
/// (start alignment) and `g.getmeta.R` (chunks); the rule is van Hees et al. 2013 (PLoS ONE
/// 8(4):e61691) with GGIR 3's forward window and range threshold.
///
/// What GGIR does, reproduced here:
/// - The data start at the first whole 15-min boundary of the clock (earlier samples are dropped);
///   blocks of 15 min follow from there. Every UTC offset in use is a multiple of 15 min, so the
///   boundaries are those of UTC.
/// - The file is read in chunks (an Axivity `.cwa`: 36 h; `.gt3x`: 24 h; GENEActiv and raw CSV: 87,072 s); each
///   chunk holds whole blocks and no window looks across a chunk's end. A last chunk under 1 h is
///   not processed at all (its epochs are missing to GGIR).
/// - For each block h, the 60 min from its start (truncated at the chunk's end) are still on an
///   axis when the value range is below 150 mg and the SD below 13 mg; a still window marks that
///   axis in blocks h to h + 3. A block's score is its marked axes (0–3).
/// - Within a chunk, a score of 1 between two blocks scoring above 1 becomes 2 (left to right,
///   in place; the chunk's first and last block are skipped).
///
/// **Deviation.** GGIR tests every ⌈rate / 5⌉-th sample (5 Hz); the statistics here pool every
/// sample of each 5-s epoch. The SD of the two differs by sampling noise only; the range of all
/// samples can only be larger, so a window GGIR finds still by a hair may not be here. A recording
/// whose first sample falls inside the first 5-s epoch of a 15-min boundary starts at that boundary
/// here; GGIR starts at the next one. Clipping (GGIR's `clippingscore`) is not computed.
public enum GGIRNonWear2023 {
    /// Stored per epoch for epochs GGIR does not judge (before the aligned start, after the last
    /// processed block).
    public static let notJudged: UInt8 = .max
    public static let rangeThresholdG = 0.150
    public static let standardDeviationThresholdG = 0.013
    public static let blockSeconds = 900
    public static let windowSeconds = 3600

    /// GGIR's read chunk in seconds of data for a format (`get_nw_clip_block_params.R`).
    public static func chunkSeconds(format: SourceFormat?) -> Int? {
        switch format {
        case .samples(.axivityCWA)?: return 36 * 3600            // 24 h × rate / 80 pages of 120 samples (packed AX3)
        case .samples(.actiGraphGT3X)?: return 24 * 3600
        // GGIR's default, round(14,512 × rate / 50) blocks of 300 samples: GENEActiv pages, and the
        // rows of a raw CSV (21,467 is the older Genea's).
        default: return 14_512 * 300 / 50
        }
    }

    /// The ends of GGIR's read chunks, in 15-min blocks from the aligned start: chunk k ends where
    /// the k-th chunk of data, counted from the recording's first epoch (`firstUTC`), ends, floored
    /// to whole blocks; the last ends with the data. `clock`: GGIR's view of a device clock across a
    /// change of the clocks, whose chunks end at the same true instants, an hour later or earlier
    /// on GGIR's rows.
    public static func chunkEnds(firstUTC: Int64, alignedUTC: Int64, totalBlocks: Int, chunkSeconds: Int?,
                                 clock: GGIRClockView? = nil) -> [Int] {
        guard let c = chunkSeconds, c > 0 else { return [totalBlocks] }
        var ends: [Int] = []
        var k = 1
        while true {
            let end = firstUTC + Int64(k * c)
            let blocks = Int(((clock?.ggirUTC(end) ?? end) - alignedUTC) / Int64(blockSeconds))
            if blocks >= totalBlocks { ends.append(totalBlocks); break }
            if blocks > (ends.last ?? 0) { ends.append(blocks) }
            k += 1
        }
        return ends
    }

    /// The score (0–3 still axes, or ``notJudged``) of every epoch of `stats`' grid. With `clock`
    /// (a device clock across a change of the clocks), the rule runs on GGIR's rows (the filler hour
    /// included, the dropped hour left out, its chunks where GGIR's fall) and each epoch gets the
    /// score of its row.
    public static func scores(_ stats: EpochAxisStatistics, chunkSeconds: Int?, clock: GGIRClockView?) -> [UInt8] {
        guard let clock else { return scores(stats, chunkSeconds: chunkSeconds) }
        return clock.epochScores(scores(clock.statistics(stats), chunkSeconds: chunkSeconds, chunkClock: clock))
    }

    /// The score (0–3 still axes, or ``notJudged``) of every epoch of `stats`' grid.
    public static func scores(_ stats: EpochAxisStatistics, chunkSeconds: Int?, chunkClock: GGIRClockView? = nil) -> [UInt8] {
        let E = WearableEpochs.epochSeconds
        let n = stats.count
        var result = [UInt8](repeating: notJudged, count: n)
        guard n > 0 else { return result }
        let perBlock = blockSeconds / E, perWindow = windowSeconds / E
        // First whole 15-min boundary at or after the first epoch.
        let block = Int64(blockSeconds)
        let alignedUTC = ((stats.startUTC + block - 1) / block) * block
        let first = Int((alignedUTC - stats.startUTC) / Int64(E))
        guard first < n else { return result }
        let totalBlocks = (n - first) / perBlock
        let chunkEnds = Self.chunkEnds(firstUTC: stats.startUTC, alignedUTC: alignedUTC, totalBlocks: totalBlocks, chunkSeconds: chunkSeconds,
                                            clock: chunkClock)
        var chunkStart = 0
        for chunkEnd in chunkEnds {
            defer { chunkStart = chunkEnd }
            let count = chunkEnd - chunkStart
            // g.getmeta: a chunk with less than an hour of data is not processed.
            guard count * blockSeconds >= windowSeconds else { break }
            var marked = [[Bool]](repeating: [false, false, false], count: count)
            for h in 0..<count {
                let from = first + (chunkStart + h) * perBlock
                let to = min(from + perWindow, first + chunkEnd * perBlock)
                for axis in 0..<3 {
                    guard let v = stats.pooled(axis: axis, from..<to),
                          v.range < rangeThresholdG && v.sd < standardDeviationThresholdG else { continue }
                    for b in h..<min(h + 4, count) { marked[b][axis] = true }
                }
            }
            var score = marked.map { $0.reduce(0) { $0 + ($1 ? 1 : 0) } }
            for i in score.indices where score[i] == 1 && i > 0 && i < count - 1 {
                if score[i - 1] > 1 && score[i + 1] > 1 { score[i] = 2 }
            }
            for (h, s) in score.enumerated() {
                let from = first + (chunkStart + h) * perBlock
                for i in from..<(from + perBlock) { result[i] = UInt8(s) }
            }
        }
        return result
    }
}
