/// GGIR's view of a device clock across a change of the clocks, for the parity method
/// (``GGIRNightMethod``): where GGIR's rows lie in time when the device's clock kept the offset it
/// had at the start (as devices do) and GGIR reads its times as wall-clock times.
///
/// **Source.** GGIR 3.3-6 with GGIRread 1.0.9 on an Axivity `.cwa` (`readAxivity`'s
/// `timestampDecoder` parses each device minute with `as.POSIXct(…, tz = configtz)`;
/// `g.getmeta` then times its rows by their count, start + 5 s × (row − 1)). R reads an
/// ambiguous wall time (the repeated hour in autumn) with the offset of the minute before, and a
/// wall time that does not exist (the skipped hour in spring) with the later offset. So, with
/// `o0` the offset at the first sample and a change at UTC `T` from `o1` to `o2`:
/// - GGIR's time jumps when the device reads `T + o1` (autumn 03:00, spring 02:00 on the start's
///   clock), at true UTC `c = T + o1 − o0`; before it GGIR's time is true time + (o0 − o1), after
///   it true time + (o0 − o2).
/// - A jump forward (autumn): `readAxivity` fills the hour with the last sample scaled to 1 g,
///   a still stretch at one attitude (ENMO 0) that GGIR's non-wear rule sees like any other data.
/// - A jump back (spring): GGIR keeps the hour read first and drops the hour after `c`.
/// - Its read chunks stay at the same true instants (they count file blocks), so the chunk holding
///   the change is an hour longer or shorter on GGIR's timeline.
/// Established by reading those functions and by comparing GGIR's `metashort` epoch by epoch with
/// sleepsta's on the spring and autumn files of `make validate-ggir` (docs/methods.md, "GGIR parity").
///
/// **Deviation.** GGIR's seam falls at the start of the last 1.2-s block before `c`, so its two
/// seam epochs mix the two sides; here the seam is at `c`, on the 5-s grid. The filler's attitude
/// is the angle of the last epoch before `c` rather than of its last sample (about 0.3° apart at rest).
public struct GGIRClockView: Sendable, Equatable {
    /// One jump of GGIR's time: from true UTC `atUTC` on, GGIR's time is true time + `shiftAfter`
    /// (seconds); before it, + `shiftBefore`.
    public struct Seam: Sendable, Equatable {
        public var atUTC: Int64
        public var shiftBefore: Int64
        public var shiftAfter: Int64
        /// Positive: an hour of filler (autumn); negative: an hour dropped (spring).
        public var jump: Int64 { shiftAfter - shiftBefore }

        package init(atUTC: Int64, shiftBefore: Int64, shiftAfter: Int64) {
            self.atUTC = atUTC; self.shiftBefore = shiftBefore; self.shiftAfter = shiftAfter
        }
    }

    /// Where one of GGIR's 5-s rows comes from.
    public enum Source: Sendable, Equatable {
        /// The recording's epoch at this index.
        case epoch(Int)
        /// The filler of the seam at this index (``seams``).
        case filler(Int)
    }

    public let seams: [Seam]
    /// The recording's first epoch (GGIR's rows start there too: its time is true time up to the first seam).
    public let startUTC: Int64
    /// The recording's epochs.
    public let trueCount: Int

    /// nil when GGIR's time is real time over the whole recording (no change of the clocks between
    /// its first and last sample), and where this view is not GGIR's: a recording whose first sample
    /// falls inside autumn's repeated hour (GGIR's reading then depends on how R resolves that first
    /// minute), or a change off the 5-s grid (an offset change of seconds).
    /// - Parameters:
    ///   - startUTC, count: the 5-s epochs to map (the recording's, or the recording stitched from its
    ///     nights, which runs from the first night's noon: the rows before the data are real time).
    ///   - dataStartUTC, dataEndUTC: the first and last sample's epochs (the device's clock was set
    ///     at the first); the whole span of the epochs when nil.
    ///   - timeline: the recording's zone.
    public init?(timeline: UTCOffsetTimeline, startUTC: Int64, count: Int, dataStartUTC: Int64? = nil, dataEndUTC: Int64? = nil) {
        let E = Int64(WearableEpochs.epochSeconds)
        let first = dataStartUTC ?? startUTC, end = dataEndUTC ?? (startUTC + Int64(count) * E)
        let o0 = Int64(timeline.offset(atUTC: first))
        var seams: [Seam] = []
        for t in timeline.transitions {
            let o1 = Int64(timeline.offset(atUTC: t.utcSecond - 1)), o2 = Int64(t.offsetSeconds)
            guard o1 != o2 else { continue }
            let c = t.utcSecond + o1 - o0
            guard c > first && c < end else { continue }
            guard c % E == 0 else { return nil }
            seams.append(Seam(atUTC: c, shiftBefore: o0 - o1, shiftAfter: o0 - o2))
        }
        guard !seams.isEmpty, seams[0].shiftBefore == 0 else { return nil }
        self.seams = seams
        self.startUTC = startUTC
        self.trueCount = count
    }

    /// GGIR's time of the true instant `t` (for a dropped instant, where its data would have gone).
    public func ggirUTC(_ t: Int64) -> Int64 {
        var shift: Int64 = 0
        for s in seams where t >= s.atUTC { shift = s.shiftAfter }
        return t + shift
    }

    /// GGIR's row of the recording's epoch `i`; nil for an epoch GGIR drops (the hour after a spring seam).
    public func row(ofEpoch i: Int) -> Int? {
        let E = Int64(WearableEpochs.epochSeconds)
        let t = startUTC + Int64(i) * E
        for s in seams where s.jump < 0 && t >= s.atUTC && t < s.atUTC - s.jump { return nil }
        return Int((ggirUTC(t) - startUTC) / E)
    }

    /// Where each of GGIR's rows comes from, in order.
    public var sources: [Source] {
        let E = Int64(WearableEpochs.epochSeconds)
        var rows: [Source] = []
        rows.reserveCapacity(trueCount + 2 * 720)
        var i = 0
        for (k, s) in seams.enumerated() {
            let seamEpoch = Int((s.atUTC - startUTC) / E)
            while i < seamEpoch { rows.append(.epoch(i)); i += 1 }
            if s.jump > 0 {
                for _ in 0..<Int(s.jump / E) { rows.append(.filler(k)) }
            } else {
                i += Int(-s.jump / E)
            }
        }
        while i < trueCount { rows.append(.epoch(i)); i += 1 }
        return rows
    }

    /// The last epoch before a seam: the filler holds its attitude.
    func heldEpoch(_ seam: Int) -> Int { Int((seams[seam].atUTC - startUTC) / Int64(WearableEpochs.epochSeconds)) - 1 }

    /// The axis statistics of GGIR's rows: the recording's epochs in GGIR's order, the filler one
    /// still vector of 1 g in the direction of the held epoch's mean (what `readAxivity` repeats).
    public func statistics(_ s: EpochAxisStatistics) -> EpochAxisStatistics {
        var out = EpochAxisStatistics(startUTC: s.startUTC)
        for source in sources {
            switch source {
            case .epoch(let i) where i < s.count:
                out.append(count: Int(s.counts[i]), mean: (s.mean[0][i], s.mean[1][i], s.mean[2][i]),
                           m2: (s.m2[0][i], s.m2[1][i], s.m2[2][i]),
                           minimum: (s.minimum[0][i], s.minimum[1][i], s.minimum[2][i]),
                           maximum: (s.maximum[0][i], s.maximum[1][i], s.maximum[2][i]))
            case .epoch:
                let empty = (Double.nan, Double.nan, Double.nan)
                out.append(count: 0, mean: empty, m2: empty, minimum: empty, maximum: empty)
            case .filler(let k):
                let h = min(heldEpoch(k), s.count - 1)
                var u = (s.mean[0][h], s.mean[1][h], s.mean[2][h])
                let norm = (u.0 * u.0 + u.1 * u.1 + u.2 * u.2).squareRoot()
                // readAxivity: the last sample scaled to 1 g when it is within 0.2 g of it, else (0, 0, 1).
                u = norm > 0.8 && norm < 1.2 ? (u.0 / norm, u.1 / norm, u.2 / norm) : (0, 0, 1)
                out.append(count: Int(s.counts[h]), mean: u, m2: (0, 0, 0), minimum: u, maximum: u)
            }
        }
        return out
    }

    /// The recording's epochs as GGIR's rows. Filler rows hold the held epoch's angle-z (what GGIR's
    /// angle of the repeated sample comes to at rest) and its sample count, ENMO and MAD 0, and
    /// GGIR's non-wear score 3: the window from the filler's first block lies wholly inside an hour
    /// of one repeated sample, still on every axis, and marks all four of its blocks, whatever the
    /// data around (``statistics(_:)`` gives ingest the same rows). The scores of the other rows are
    /// the recording's, which ingest computes on GGIR's rows already
    /// (``GGIRNonWear2023/scores(_:chunkSeconds:clock:)``).
    public func epochs(_ e: WearableEpochs) -> WearableEpochs {
        let rows = sources
        func pick<T>(_ values: [T], filler: (Int) -> T) -> [T] {
            rows.map { source in
                switch source {
                case .epoch(let i): return values[i]
                case .filler(let k): return filler(k)
                }
            }
        }
        return WearableEpochs(
            startUTC: e.startUTC,
            enmo: pick(e.enmo) { _ in 0 }, angleZ: pick(e.angleZ) { e.angleZ[heldEpoch($0)] }, mad: pick(e.mad) { _ in 0 },
            sampleCounts: pick(e.sampleCounts) { e.sampleCounts[heldEpoch($0)] }, nonWear: pick(e.nonWear) { _ in false },
            counts: nil, ggirNonWearScore: e.ggirNonWearScore.map { s in pick(s) { _ in 3 } },
            temperature: e.temperature.map { t in pick(t) { _ in .nan } })
    }

    /// Per epoch of the recording, the score of its row in GGIR's view (`rowScores`, one per row of
    /// ``sources``); ``GGIRNonWear2023/notJudged`` for an epoch GGIR drops.
    public func epochScores(_ rowScores: [UInt8]) -> [UInt8] {
        (0..<trueCount).map { i in row(ofEpoch: i).flatMap { $0 < rowScores.count ? rowScores[$0] : nil } ?? GGIRNonWear2023.notJudged }
    }
}
