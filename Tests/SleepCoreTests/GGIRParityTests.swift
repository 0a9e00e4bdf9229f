import Testing
@testable import SleepCore

/// The pieces of GGIR parity (``GGIRNonWear2023``, ``GGIRPart2``) against GGIR 3.3-6's code read by
/// hand: `detect_nonwear_clipping.R` (`"2023"`), `g.weardec.R` and `g.impute.R`.
@Suite("GGIR parity: the 2023 non-wear rule, g.weardec and the imputation")
struct GGIRPartsTests {
    static let perBlock = 180   // 5-s epochs per 15 min

    /// Per-epoch statistics of `blocks` 15-min blocks from UTC 0: still blocks have 2 mg of spread
    /// on every axis, moving ones 200 mg.
    static func statistics(blocks: Int, still: Set<Int>) -> EpochAxisStatistics {
        var s = EpochAxisStatistics(startUTC: 0)
        for b in 0..<blocks {
            let spread = still.contains(b) ? 0.002 : 0.2
            for _ in 0..<perBlock {
                // 500 samples uniform over ±spread/2: M2 = n · spread² / 12.
                let m2 = 500 * spread * spread / 12
                s.append(count: 500, mean: (0, 0, 1), m2: (m2, m2, m2), minimum: (-spread / 2, -spread / 2, 1 - spread / 2),
                         maximum: (spread / 2, spread / 2, 1 + spread / 2))
            }
        }
        return s
    }

    static func blockScores(_ scores: [UInt8]) -> [UInt8] { stride(from: 0, to: scores.count, by: perBlock).map { scores[$0] } }

    @Test("a still hour from a block marks that block and the three after it; 45 still minutes mark nothing")
    func forwardWindow() {
        let hour = Self.blockScores(GGIRNonWear2023.scores(Self.statistics(blocks: 16, still: [4, 5, 6, 7]), chunkSeconds: nil))
        #expect(hour == [0, 0, 0, 0, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0])
        let short = Self.blockScores(GGIRNonWear2023.scores(Self.statistics(blocks: 16, still: [4, 5, 6]), chunkSeconds: nil))
        #expect(short.allSatisfy { $0 == 0 })
    }

    @Test("windows stop at a chunk's end: a still last block of a chunk is non-wear on its own; a last chunk under an hour is not judged")
    func chunks() {
        // Chunks of 4 h (16 blocks): block 15 ends the first chunk, 16 blocks then 2 (30 min, not judged).
        let scores = GGIRNonWear2023.scores(Self.statistics(blocks: 34, still: [15]), chunkSeconds: 4 * 3600)
        let blocks = Self.blockScores(scores)
        #expect(blocks[15] == 3 && blocks[14] == 0 && blocks[16] == 0)
        #expect(blocks[32] == GGIRNonWear2023.notJudged && blocks[33] == GGIRNonWear2023.notJudged)
    }

    @Test("the data start at the first whole quarter hour")
    func alignment() {
        var s = Self.statistics(blocks: 10, still: [])
        s.startUTC = 600   // 00:10: the first 60 epochs precede 00:15
        let scores = GGIRNonWear2023.scores(s, chunkSeconds: nil)
        #expect(scores[0..<60].allSatisfy { $0 == GGIRNonWear2023.notJudged })
        #expect(scores[60] == 0)
    }

    @Test("g.weardec: a short wear gap between non-wear runs becomes non-wear; a long one does not; non-wear near an edge takes the edge")
    func wearGaps() {
        func r3(_ nonWear: [Int], count: Int) -> [Int] {
            let r1 = (0..<count).map { nonWear.contains($0) }
            let result = GGIRPart2.wearGapsAndEdges(r1)
            return result.indices.filter { result[$0] }
        }
        // 8 blocks of non-wear, 2 worn, 8 of non-wear, in the middle of 200 blocks: 2 / 16 < 0.3 → filled.
        #expect(r3(Array(50..<58) + Array(60..<68), count: 200) == [58, 59])
        // A 40-block (10 h) gap is not.
        #expect(r3(Array(50..<58) + Array(98..<106), count: 200).isEmpty)
        // Non-wear from block 5: the first 5 blocks (set up, put aside) become non-wear too.
        #expect(r3(Array(5..<10), count: 200) == [0, 1, 2, 3, 4])
    }

    @Test("a chunk's last epoch holds half the attitude of GGIR's look-back (10 min at 100 Hz), as g.applymetrics fills it")
    func chunkTails() {
        #expect(GGIRPart2.tailLookbackEpochs(sampleRateHz: 100) == 120)
        #expect(GGIRPart2.tailLookbackEpochs(sampleRateHz: 50) == 60)
        #expect(GGIRPart2.tailLookbackEpochs(sampleRateHz: 30) == 36)
        #expect(GGIRPart2.tailLookbackEpochs(sampleRateHz: 10) == 20)
        #expect(GGIRPart2.tailLookbackEpochs(sampleRateHz: 25) == 24)   // every 2nd value: 1,500 of them at 12.5 Hz
        #expect(GGIRPart2.chunkTails(first: 0, alignedUTC: 0, firstDataUTC: 0, dataEpochs: 3 * 17_280, chunkSeconds: 36 * 3600)
                == [144 * 180 - 1, 288 * 180 - 1])
        // 2 days at 0°, but 40° for the 10 min before the first 4-h chunk's end.
        let n = 2 * 17_280, end = 4 * 720
        let angle = (0..<n).map { $0 >= end - 120 && $0 < end ? Float(40) : 0 }
        let e = WearableEpochs(startUTC: 0, enmo: .init(repeating: 0, count: n), angleZ: angle, mad: .init(repeating: 0, count: n),
                               sampleCounts: .init(repeating: 500, count: n), nonWear: .init(repeating: false, count: n),
                               ggirNonWearScore: .init(repeating: 0, count: n))
        let part2 = GGIRPart2(e, chunkSeconds: 4 * 3600, sampleRateHz: 100)!
        #expect(part2.angleZ[end - 1] == 40 && part2.angleZ[end - 2] == 40)   // the look-back lands in the 40° stretch too
        let shifted = (0..<n).map { $0 >= end - 60 && $0 < end ? Float(40) : 0 }
        var f = e
        f.angleZ = shifted
        let g = GGIRPart2(f, chunkSeconds: 4 * 3600, sampleRateHz: 100)!
        #expect(g.angleZ[end - 1] == 20 && g.angleZ[end - 2] == 40)   // half the epoch at the 0° of 10 min before
        #expect(GGIRPart2(f)!.angleZ[end - 1] == 40)   // without the chunk layout: as the stream gave it
    }

    @Test("the recording stitched from stored nights keeps GGIR's scores over gaps, as the read gave them")
    func stitchedScores() {
        func piece(from: Int64, _ n: Int, gapAt gap: Range<Int>) -> WearableEpochs {
            WearableEpochs(startUTC: from, enmo: .init(repeating: 0, count: n), angleZ: .init(repeating: 1, count: n),
                           mad: .init(repeating: 0, count: n), sampleCounts: (0..<n).map { gap.contains($0) ? 0 : 500 },
                           nonWear: .init(repeating: false, count: n), ggirNonWearScore: .init(repeating: 2, count: n))
        }
        // Two overlapping pieces; the first block of the second starts in a gap.
        let whole = WearableEpochs.stitched([piece(from: 0, 720, gapAt: 0..<0), piece(from: 1800, 720, gapAt: 0..<30)])!
        #expect(whole.count == 1080 && whole.ggirNonWearScore!.allSatisfy { $0 == 2 })
        #expect(whole.sampleCounts[360] == 500)   // the first piece's data where the second has a gap
    }

    @Test("g.impute: an invalid epoch takes the mean of its 5-s slot over the other days where it is valid")
    func imputation() {
        let perDay = 17_280
        let n = 3 * perDay
        var score = [UInt8](repeating: 0, count: n)
        // Day 2's block at 03:00 is non-wear (score 3), and so is the block before and after: a run of 3.
        let block = perDay + 12 * Self.perBlock
        for i in (block - Self.perBlock)..<(block + 2 * Self.perBlock) { score[i] = 3 }
        let angle = (0..<n).map { Float($0 / perDay) * 10 + 1 }   // day 1: 1°, day 2: 11°, day 3: 21°
        let e = WearableEpochs(startUTC: 0, enmo: .init(repeating: 0, count: n), angleZ: angle, mad: .init(repeating: 0, count: n),
                               sampleCounts: .init(repeating: 500, count: n), nonWear: .init(repeating: false, count: n),
                               ggirNonWearScore: score)
        let part2 = GGIRPart2(e)!
        #expect(part2.judged == 0..<n)
        #expect(part2.invalid[block] && !part2.invalid[block - 2 * Self.perBlock])
        #expect(part2.angleZ[block] == 11)   // (1 + 21) / 2
        #expect(part2.angleZ[0] == 1 && part2.angleZ[2 * perDay] == 21)
    }
}
