import Testing
import SleepCore

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

    /// Europe/Berlin in 2024: CET (+1 h), CEST from 03-31 01:00Z, CET again from 10-27 01:00Z.
    static let berlin = UTCOffsetTimeline(initialOffsetSeconds: 3600, transitions: [
        .init(utcSecond: 1_711_846_800, offsetSeconds: 7200), .init(utcSecond: 1_729_990_800, offsetSeconds: 3600),
    ])

    @Test("GGIR's view of a device clock in autumn: real time up to the change, an hour of filler, then every epoch an hour late")
    func autumnClockView() throws {
        let change: Int64 = 1_729_990_800   // 2024-10-27 01:00Z: the device, on CEST, reads 03:00
        let start = change - 2 * 3600, n = 4 * 720
        let clock = try #require(GGIRClockView(timeline: Self.berlin, startUTC: start, count: n))
        #expect(clock.seams == [.init(atUTC: change, shiftBefore: 0, shiftAfter: 3600)])
        #expect(clock.ggirUTC(change - 5) == change - 5 && clock.ggirUTC(change) == change + 3600)
        let rows = clock.sources
        #expect(rows.count == n + 720)
        #expect(rows[1439] == .epoch(1439) && rows[1440] == .filler(0) && rows[2159] == .filler(0) && rows[2160] == .epoch(1440))
        #expect(clock.row(ofEpoch: 1440) == 2160)
        // The filler: the held epoch's attitude, ENMO 0, non-wear score 3; the epochs after keep their own values.
        let e = WearableEpochs(startUTC: start, enmo: .init(repeating: 0.01, count: n), angleZ: (0..<n).map { Float($0) },
                               mad: .init(repeating: 0, count: n), sampleCounts: .init(repeating: 500, count: n),
                               nonWear: .init(repeating: false, count: n), ggirNonWearScore: .init(repeating: 0, count: n))
        let g = clock.epochs(e)
        #expect(g.count == n + 720 && g.angleZ[1440] == 1439 && g.enmo[1440] == 0 && g.ggirNonWearScore![1440] == 3)
        #expect(g.angleZ[2160] == 1440 && g.enmo[2160] == 0.01 && g.ggirNonWearScore![2160] == 0)
        // The 2023 rule on GGIR's rows: the half hour still before the change is followed by the
        // still filler on GGIR's rows, so its windows are still; in real time the hour after it moves.
        var stats = Self.statistics(blocks: 16, still: [6, 7])
        stats.startUTC = start
        let view = try #require(GGIRClockView(timeline: Self.berlin, startUTC: start, count: stats.count))
        let scores = GGIRNonWear2023.scores(stats, chunkSeconds: nil, clock: view)
        #expect(Self.blockScores(scores) == [0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(Self.blockScores(GGIRNonWear2023.scores(stats, chunkSeconds: nil)).allSatisfy { $0 == 0 })
        // The filler's own blocks (rows 8–11) score 3 on GGIR's rows whatever the data around.
        let rowScores = Self.blockScores(GGIRNonWear2023.scores(view.statistics(Self.statistics(blocks: 16, still: [])), chunkSeconds: nil, chunkClock: view))
        #expect(rowScores.count == 20 && rowScores[8...11].allSatisfy { $0 == 3 } && rowScores[0..<8].allSatisfy { $0 == 0 }
                && rowScores[12...].allSatisfy { $0 == 0 })
    }

    @Test("GGIR's view follows the device's data, not the epochs around it: a recording stitched from its nights (padded with gaps) maps as the read did")
    func clockViewOfPaddedRecording() throws {
        let change: Int64 = 1_711_846_800
        // Data from 2 h after the spring change: GGIR reads it in real time.
        let dataStart = change + 7200, n = 2 * 720
        #expect(GGIRClockView(timeline: Self.berlin, startUTC: dataStart, count: n) == nil)
        // The same data inside epochs padded from 10 h before the change (a night's noon): still real time.
        let padded = change - 36_000
        #expect(GGIRClockView(timeline: Self.berlin, startUTC: padded, count: n + 9360,
                              dataStartUTC: dataStart, dataEndUTC: dataStart + Int64(n) * 5) == nil)
        // Data over the change, padded on both sides: the same seam as without the padding.
        let over = try #require(GGIRClockView(timeline: Self.berlin, startUTC: change - 7200, count: 2 * n))
        let overPadded = try #require(GGIRClockView(timeline: Self.berlin, startUTC: padded, count: 20_000,
                                                    dataStartUTC: change - 7200, dataEndUTC: change - 7200 + Int64(2 * n) * 5))
        #expect(over.seams == overPadded.seams)
    }

    @Test("GGIR's view of a device clock in spring: the hour after the change is dropped, every later epoch an hour early")
    func springClockView() throws {
        let change: Int64 = 1_711_846_800   // 2024-03-31 01:00Z: the device, on CET, reads 02:00
        let start = change - 2 * 3600, n = 4 * 720
        let clock = try #require(GGIRClockView(timeline: Self.berlin, startUTC: start, count: n))
        #expect(clock.seams == [.init(atUTC: change, shiftBefore: 0, shiftAfter: -3600)])
        let rows = clock.sources
        #expect(rows.count == n - 720 && rows[1439] == .epoch(1439) && rows[1440] == .epoch(2160))
        #expect(clock.row(ofEpoch: 1440) == nil && clock.row(ofEpoch: 2159) == nil && clock.row(ofEpoch: 2160) == 1440)
        #expect(clock.epochScores([UInt8](repeating: 1, count: rows.count))[1500] == GGIRNonWear2023.notJudged)
        // A recording without a change, or one on a clock without changes, is GGIR's as it is.
        #expect(GGIRClockView(timeline: Self.berlin, startUTC: change + 3600, count: n) == nil)
        #expect(GGIRClockView(timeline: .fixed(3600), startUTC: start, count: n) == nil)
    }

    @Test("g.part4's durations: clock-hour differences with its correction on a night with a change of the clocks")
    func part4Durations() {
        let noon: Int64 = 1_711_796_400   // 2024-03-30 12:00 CET (11:00Z)
        let w = NightWindow(date: CivilDate(year: 2024, month: 3, day: 30), startUTC: noon, endUTC: noon + 23 * 3600)
        // A night without a bout over 02:00–03:00 on the clock: the clock difference, an hour more than elapsed.
        let onset = noon + 11 * 3600, wake = noon + 17 * 3600   // 23:00 CET, 06:00 CEST (elapsed 6 h, clock 7 h)
        let plain = GGIRNightMethod.part4Durations(onsetUTC: onset, wakeUTC: wake, bouts: [(onset, onset + 3600), (wake - 3600, wake)],
                                                   night: w, timeline: Self.berlin)
        #expect(plain.spt == 420 && plain.tst == 120)
        // A bout over 02:00–03:00 on the clock: GGIR takes the hour off both.
        let over = GGIRNightMethod.part4Durations(onsetUTC: onset, wakeUTC: wake, bouts: [(onset, wake)], night: w, timeline: Self.berlin)
        #expect(over.spt == 360 && over.tst == 360)
    }

    @Test("g.part4 in autumn: an hour more of SPT over the repeated hour, and correctSptEdgingInDoubleHour's hours for onset or wake inside it")
    func part4DurationsAutumn() {
        let noon: Int64 = 1_729_936_800   // 2024-10-26 12:00 CEST (10:00Z); the clocks go back at 10-27 01:00Z
        let w = NightWindow(date: CivilDate(year: 2024, month: 10, day: 26), startUTC: noon, endUTC: noon + 25 * 3600)
        func spt(_ onset: Int64, _ wake: Int64) -> Double {
            GGIRNightMethod.part4Durations(onsetUTC: onset, wakeUTC: wake, bouts: [(onset, wake)], night: w, timeline: Self.berlin).spt
        }
        // 23:00 CEST to 06:00 CET: 7 h on the clock, 8 h elapsed; GGIR adds the hour.
        #expect(spt(noon + 11 * 3600, noon + 19 * 3600) == 480)
        // Onset at the first 02:00 (CEST), wake 06:00 CET: GGIR adds an hour twice (5 h elapsed, 6 h given).
        #expect(spt(noon + 14 * 3600, noon + 19 * 3600) == 360)
        // Wake inside the repeated hour (02:30 CET): an hour more for the edging.
        #expect(spt(noon + 11 * 3600, noon + 15 * 3600 + 1800) == 270)
        // TST is not corrected in autumn.
        #expect(GGIRNightMethod.part4Durations(onsetUTC: noon + 11 * 3600, wakeUTC: noon + 19 * 3600, bouts: [(noon + 11 * 3600, noon + 19 * 3600)],
                                               night: w, timeline: Self.berlin).tst == 420)
    }

    @Test("is_this_a_dst_night: the changed hour is the zone's (02:00 in Berlin, 01:00 in London), none on other nights")
    func clockChangeNights() {
        let london = UTCOffsetTimeline(initialOffsetSeconds: 0, transitions: [
            .init(utcSecond: 1_711_846_800, offsetSeconds: 3600), .init(utcSecond: 1_729_990_800, offsetSeconds: 0),
        ])
        func night(_ y: Int, _ m: Int, _ d: Int, _ t: UTCOffsetTimeline) -> NightWindow {
            let noonLocal = CivilDate(year: y, month: m, day: d).daysSinceEpoch * 86_400 + 12 * 3600
            return NightWindow(date: CivilDate(year: y, month: m, day: d), startUTC: t.utcSecond(atLocal: noonLocal),
                               endUTC: t.utcSecond(atLocal: noonLocal + 86_400))
        }
        #expect(GGIRNightMethod.clockChangeNight(night(2024, 3, 30, Self.berlin), timeline: Self.berlin)! == (true, 2))
        #expect(GGIRNightMethod.clockChangeNight(night(2024, 10, 26, Self.berlin), timeline: Self.berlin)! == (false, 2))
        #expect(GGIRNightMethod.clockChangeNight(night(2024, 3, 30, london), timeline: london)! == (true, 1))
        #expect(GGIRNightMethod.clockChangeNight(night(2024, 10, 26, london), timeline: london)! == (false, 1))
        #expect(GGIRNightMethod.clockChangeNight(night(2024, 6, 14, Self.berlin), timeline: Self.berlin) == nil)
    }
}
