/// GGIR's part 2 for the parity method (``GGIRNightMethod``): which 15-min blocks are invalid
/// (`g.weardec`) and the imputation of invalid 5-s epochs from the other days (`g.impute`), on the
/// whole recording, as GGIR 3.3-6 does with its defaults.
///
/// **Source.** GGIR 3.3-6 `g.weardec.R` (non-wear runs and the wear gaps between them, edge
/// correction, three passes) and `g.impute.R` (the invalid mask `r5`; imputation by the mean of the
/// same 5-s slot over the other 24-h blocks counted from the recording's start). See
/// docs/methods.md, "GGIR parity".
public struct GGIRPart2: Sendable {
    /// The epochs GGIR has (its `metashort`): from the aligned start to the last judged block, as
    /// indices into the recording's epochs.
    public let judged: Range<Int>
    /// Invalid per epoch of the recording (GGIR's `r5long`); true outside ``judged`` too.
    public let invalid: [Bool]
    /// angle-z per epoch with invalid epochs imputed (GGIR's `IMP$metashort$anglez`); NaN outside ``judged``.
    public let angleZ: [Double]

    /// - Parameters:
    ///   - e: the whole recording with ``WearableEpochs/ggirNonWearScore``.
    ///   - chunkSeconds: GGIR's read chunk for the format (``GGIRNonWear2023/chunkSeconds(format:)``);
    ///     nil: the chunk ends' angle-z is left as the stream gave it.
    ///   - sampleRateHz: the device's rate, which sets how far back GGIR looks at a chunk's end.
    ///   - clock: GGIR's view of a device clock across a change of the clocks, when `e` is GGIR's
    ///     rows (``GGIRClockView/epochs(_:)``): its read chunks end an hour later or earlier there.
    public init?(_ e: WearableEpochs, chunkSeconds: Int? = nil, sampleRateHz: Double? = nil, clock: GGIRClockView? = nil) {
        guard let score = e.ggirNonWearScore,
              let first = score.firstIndex(where: { $0 != GGIRNonWear2023.notJudged }) else { return nil }
        let last = score.lastIndex(where: { $0 != GGIRNonWear2023.notJudged })!
        let perBlock = GGIRNonWear2023.blockSeconds / WearableEpochs.epochSeconds
        let blocks = (last + 1 - first) / perBlock
        judged = first..<(first + blocks * perBlock)
        let r1 = (0..<blocks).map { score[first + $0 * perBlock] >= 2 }
        let r3 = Self.wearGapsAndEdges(r1)
        var invalid = [Bool](repeating: true, count: e.count)
        for b in 0..<blocks where !(r1[b] || r3[b]) {
            for i in (first + b * perBlock)..<(first + (b + 1) * perBlock) where e.hasData(i) { invalid[i] = false }
        }
        self.invalid = invalid
        // g.impute: the mean of the same 5-s slot over every 24-h block (from the start) where it
        // is valid; 0 where no block is; no imputation for 24 h or less.
        let perDay = 86_400 / WearableEpochs.epochSeconds
        // GGIR keeps its metrics to 4 decimals (g.getmeta, and again after g.impute); a 5° step in
        // an imputed, averaged angle can hang on the last of them.
        func fourDecimals(_ v: Double) -> Double { (v * 10_000).rounded(.toNearestOrEven) / 10_000 }
        var angle = [Double](repeating: .nan, count: e.count)
        for i in judged { angle[i] = Double(e.angleZ[i]) }
        if let chunkSeconds, let rate = sampleRateHz, let data = e.dataEpochs {
            for i in Self.chunkTails(first: first, alignedUTC: e.epochStartUTC(first), firstDataUTC: e.epochStartUTC(data.lowerBound),
                                     dataEpochs: data.upperBound + 1 - first, chunkSeconds: chunkSeconds, clock: clock)
                where judged.contains(i) {
                // The epoch in which the look-back lands: it starts that long before the chunk's end.
                let back = i + 1 - Self.tailLookbackEpochs(sampleRateHz: rate)
                if back >= 0 && e.hasData(back) { angle[i] = (angle[i] + Double(e.angleZ[back])) / 2 }
            }
        }
        for i in judged { angle[i] = fourDecimals(angle[i]) }
        if judged.count > perDay {
            var sum = [Double](repeating: 0, count: perDay), n = [Int](repeating: 0, count: perDay)
            for i in judged where !invalid[i] { sum[(i - first) % perDay] += angle[i]; n[(i - first) % perDay] += 1 }
            for i in judged where invalid[i] {
                let slot = (i - first) % perDay
                angle[i] = n[slot] > 0 ? fourDecimals(sum[slot] / Double(n[slot])) : 0
            }
        }
        angleZ = angle
    }

    /// The last epoch of each of GGIR's read chunks (indices into the recording's epochs), where
    /// GGIR's angle-z differs from the stream's: `g.applymetrics` takes each chunk's rolling median
    /// of the axes on its own, fills the last half window (2.5 s) with zeros and replaces them by
    /// the first median of the chunk's last `max(60 × rate, 1000)` values (of every ⌊rate / 10⌋-th
    /// sample): for a 100-Hz recording, the median of 10 min before the chunk's end. Half
    /// the epoch then holds that earlier attitude, and a posture change of GGIR's own can appear
    /// there. (The head of the next chunk takes its first median, a change too small to matter.)
    package static func chunkTails(first: Int, alignedUTC: Int64, firstDataUTC: Int64, dataEpochs: Int, chunkSeconds: Int,
                           clock: GGIRClockView? = nil) -> [Int] {
        let perBlock = GGIRNonWear2023.blockSeconds / WearableEpochs.epochSeconds
        return GGIRNonWear2023.chunkEnds(firstUTC: firstDataUTC, alignedUTC: alignedUTC, totalBlocks: dataEpochs / perBlock,
                                         chunkSeconds: chunkSeconds, clock: clock).map { first + $0 * perBlock - 1 }
    }

    /// How many epochs before a chunk's end GGIR takes the attitude it fills the end with.
    package static func tailLookbackEpochs(sampleRateHz rate: Double) -> Int {
        // The medians are of every ⌊rate / 10⌋-th value; the look-back counts those values.
        let step = max((rate / 10).rounded(.down), 1)
        let values = max(rate * 60, 1000)
        return Int((values / (rate / step) / Double(WearableEpochs.epochSeconds)).rounded())
    }

    /// `g.weardec`'s `r3`: wear gaps between non-wear runs that become non-wear, and the edge
    /// correction, given `r1` (non-wear score ≥ 2) per block. Transcribed on GGIR's 1-based,
    /// zero-padded vectors.
    package static func wearGapsAndEdges(_ r1: [Bool]) -> [Bool] {
        let count = r1.count
        let perHour = 3600 / GGIRNonWear2023.blockSeconds
        // s[k] for R index k (1...count+2); s[0] unused.
        func padded(_ v: [Bool]) -> [Int] { [0, 0] + v.map { $0 ? 1 : 0 } + [0] }
        func pass(_ s1: [Int], _ s3In: [Int], edges: Bool) -> [Int] {
            var s3 = s3In
            let n = s1.count - 1   // R length
            var ch1: [Int] = [], ch2: [Int] = []
            for k in 1..<n {
                if s1[k + 1] - s1[k] == 1 { ch1.append(k + 1) }
                if s1[k + 1] - s1[k] == -1 { ch2.append(k + 1) }
            }
            if ch1.count > 1 {
                for w in 0..<(ch1.count - 1) {
                    let wear = Double(abs(ch1[w + 1] - ch2[w])), after = Double(abs(ch2[w + 1] - ch1[w + 1]))
                    let before = Double(abs(ch2[w] - ch1[w]))
                    func fill() { for k in ch2[w]...(ch1[w + 1] - 1) { s3[k] = 1 } }
                    if wear < Double(6 * perHour) && wear / (after + before) < 0.3 { fill() }
                    if wear < Double(3 * perHour) && wear / (after + before) < 0.8 { fill() }
                    if ch1[w] > count - 24 * perHour && wear < Double(3 * perHour) && before > Double(perHour) { fill() }
                }
            }
            if edges, let firstStart = ch1.first, let lastEnd = ch2.last {
                if firstStart < 3 * perHour && firstStart > 1 { for k in 1...(firstStart - 1) { s3[k] = 1 } }
                if lastEnd > n - 3 * perHour && lastEnd != n { for k in lastEnd...n { s3[k] = 1 } }
            }
            return s3
        }
        var r3 = pass(padded(r1), padded([Bool](repeating: false, count: count)), edges: true)
        for _ in 0..<2 {
            let inner = (0..<count).map { r1[$0] || r3[$0 + 2] != 0 }
            let s3 = padded((0..<count).map { r3[$0 + 2] != 0 })
            // GGIR passes its global edge correction on in the later passes too.
            r3 = pass(padded(inner), s3, edges: true)
        }
        return (0..<count).map { r3[$0 + 2] != 0 }
    }
}
