/// The wearable milestone: one row per 5-s epoch (GGIR's `ws3`) of ENMO, angle-z and MAD, the
/// non-wear flag and the samples behind each epoch. Stored per night like the per-second base
/// series, so that changing the interval, a threshold or the sleep algorithm re-derives every night
/// from the database without reading the raw file again (GGIR keeps its part-1 milestone for this).
///
/// Epoch `i` covers UTC seconds `[startUTC + 5·i, startUTC + 5·(i+1))`; `startUTC` is a multiple of
/// 5, so epochs are also local-clock boundaries. Epochs without samples have `sampleCounts == 0`
/// and NaN metrics: gaps stay visible and are never sleep.
public struct WearableEpochs: Sendable, Equatable {
    public static let epochSeconds = 5

    public var startUTC: Int64
    /// ENMO in g (van Hees 2013; ``RawMetrics``).
    public var enmo: [Float]
    /// angle-z in degrees (van Hees 2015; ``RawMetrics``).
    public var angleZ: [Float]
    /// MAD in g (Vähä-Ypyä 2015; ``RawMetrics``).
    public var mad: [Float]
    /// Samples in the epoch (saturates at `UInt16.max`).
    public var sampleCounts: [UInt16]
    /// `true` where the device was not worn (``EpochStillnessNonWear``): a flag, nothing is deleted.
    public var nonWear: [Bool]
    /// ActiGraph counts per epoch (``ActiGraphCountStream``, ActiLife's algorithm on the samples as
    /// read), computed when a counts-based sleep algorithm asks for them; nil otherwise.
    public var counts: Counts?
    /// GGIR 3's non-wear score per epoch (still axes of its 15-min block under the `"2023"` rule,
    /// ``GGIRNonWear2023``; ``GGIRNonWear2023/notJudged`` where GGIR has no data): what the GGIR
    /// parity method needs. nil in nights stored before it was computed.
    public var ggirNonWearScore: [UInt8]?
    /// The device's temperature (°C) per epoch, NaN where no reading fell; nil for formats without
    /// a temperature channel (and nights stored before it was read). ``StillWearCheck`` uses it.
    public var temperature: [Float]?

    /// ActiGraph counts of the device axes per 5-s epoch. ActiLife's axis 1 is the device's y.
    public struct Counts: Sendable, Equatable {
        public var x: [Int32], y: [Int32], z: [Int32]
        public init(x: [Int32], y: [Int32], z: [Int32]) {
            precondition(x.count == y.count && y.count == z.count, "count axes must have equal lengths")
            self.x = x; self.y = y; self.z = z
        }
        public var count: Int { x.count }
        /// ActiLife's axis 1 (the device's y axis), the axis Cole–Kripke and Sadeh were fitted on.
        public var axis1: [Int32] { y }
    }

    public init(startUTC: Int64, enmo: [Float], angleZ: [Float], mad: [Float], sampleCounts: [UInt16], nonWear: [Bool],
                counts: Counts? = nil, ggirNonWearScore: [UInt8]? = nil, temperature: [Float]? = nil) {
        precondition(enmo.count == angleZ.count && enmo.count == mad.count && enmo.count == sampleCounts.count
                     && enmo.count == nonWear.count && (counts?.count ?? enmo.count) == enmo.count
                     && (ggirNonWearScore?.count ?? enmo.count) == enmo.count && (temperature?.count ?? enmo.count) == enmo.count,
                     "per-epoch arrays must have equal lengths")
        self.startUTC = startUTC; self.enmo = enmo; self.angleZ = angleZ; self.mad = mad
        self.sampleCounts = sampleCounts; self.nonWear = nonWear; self.counts = counts
        self.ggirNonWearScore = ggirNonWearScore
        self.temperature = temperature
    }

    public static func empty(startUTC: Int64) -> WearableEpochs {
        WearableEpochs(startUTC: startUTC, enmo: [], angleZ: [], mad: [], sampleCounts: [], nonWear: [])
    }

    public var count: Int { enmo.count }
    public var endUTC: Int64 { startUTC + Int64(count * Self.epochSeconds) }
    public func epochStartUTC(_ i: Int) -> Int64 { startUTC + Int64(i * Self.epochSeconds) }
    public func hasData(_ i: Int) -> Bool { sampleCounts[i] > 0 }
    /// The first to the last epoch with samples; nil without any.
    public var dataEpochs: ClosedRange<Int>? {
        guard let first = sampleCounts.firstIndex(where: { $0 > 0 }), let last = sampleCounts.lastIndex(where: { $0 > 0 }) else { return nil }
        return first...last
    }
    /// Worn and with data: the epochs an estimate may use.
    public func isValid(_ i: Int) -> Bool { sampleCounts[i] > 0 && !nonWear[i] }

    /// The epochs `[from, to)` (UTC seconds, rounded down to the 5-s grid) as a new series;
    /// epochs outside the recording are gaps.
    public func slice(from: Int64, to: Int64) -> WearableEpochs {
        let e = Int64(Self.epochSeconds)
        let lo = LocalClock.floorDiv(from, e) * e
        let n = to > lo ? Int((to - lo + e - 1) / e) : 0
        var result = WearableEpochs(startUTC: lo, enmo: .init(repeating: .nan, count: n), angleZ: .init(repeating: .nan, count: n),
                                    mad: .init(repeating: .nan, count: n), sampleCounts: .init(repeating: 0, count: n),
                                    nonWear: .init(repeating: false, count: n),
                                    counts: counts.map { _ in Counts(x: .init(repeating: 0, count: n), y: .init(repeating: 0, count: n),
                                                                     z: .init(repeating: 0, count: n)) },
                                    ggirNonWearScore: ggirNonWearScore.map { _ in .init(repeating: GGIRNonWear2023.notJudged, count: n) },
                                    temperature: temperature.map { _ in .init(repeating: .nan, count: n) })
        guard n > 0, count > 0 else { return result }
        let offset = Int((lo - startUTC) / e)   // may be negative
        let dstFrom = max(0, -offset), dstTo = min(n, count - offset)
        guard dstTo > dstFrom else { return result }
        let src = (dstFrom + offset)..<(dstTo + offset)
        result.enmo.replaceSubrange(dstFrom..<dstTo, with: enmo[src])
        result.angleZ.replaceSubrange(dstFrom..<dstTo, with: angleZ[src])
        result.mad.replaceSubrange(dstFrom..<dstTo, with: mad[src])
        result.sampleCounts.replaceSubrange(dstFrom..<dstTo, with: sampleCounts[src])
        result.nonWear.replaceSubrange(dstFrom..<dstTo, with: nonWear[src])
        if let c = counts {
            result.counts!.x.replaceSubrange(dstFrom..<dstTo, with: c.x[src])
            result.counts!.y.replaceSubrange(dstFrom..<dstTo, with: c.y[src])
            result.counts!.z.replaceSubrange(dstFrom..<dstTo, with: c.z[src])
        }
        if let g = ggirNonWearScore { result.ggirNonWearScore!.replaceSubrange(dstFrom..<dstTo, with: g[src]) }
        if let c = temperature { result.temperature!.replaceSubrange(dstFrom..<dstTo, with: c[src]) }
        return result
    }

    /// One series from overlapping pieces of the same recording (the stored nights, each its window
    /// and the 6 h after it): the span of all, each epoch from the pieces that hold it. nil without pieces.
    public static func stitched(_ pieces: [WearableEpochs]) -> WearableEpochs? {
        let nonEmpty = pieces.filter { $0.count > 0 }
        guard let from = nonEmpty.map(\.startUTC).min(), let to = nonEmpty.map(\.endUTC).max() else { return nil }
        var whole = WearableEpochs.empty(startUTC: from)
        whole.counts = nil
        let withScores = nonEmpty.allSatisfy { $0.ggirNonWearScore != nil }
        if withScores { whole.ggirNonWearScore = [] }
        let withTemperature = nonEmpty.contains { $0.temperature != nil }
        if withTemperature { whole.temperature = [] }
        whole = whole.slice(from: from, to: to)
        for piece in nonEmpty {
            let offset = Int((piece.startUTC - from) / Int64(epochSeconds))
            for i in 0..<piece.count {
                let k = offset + i
                // GGIR's score covers whole 15-min blocks, gaps in them included.
                if withScores && piece.ggirNonWearScore![i] != GGIRNonWear2023.notJudged { whole.ggirNonWearScore![k] = piece.ggirNonWearScore![i] }
                guard piece.sampleCounts[i] > 0 else { continue }
                whole.enmo[k] = piece.enmo[i]; whole.angleZ[k] = piece.angleZ[i]; whole.mad[k] = piece.mad[i]
                whole.sampleCounts[k] = piece.sampleCounts[i]; whole.nonWear[k] = piece.nonWear[i]
                if let t = piece.temperature, t[i].isFinite { whole.temperature![k] = t[i] }
            }
        }
        return whole
    }

    /// Seconds with data and worn, and seconds with data but not worn.
    public var wornSeconds: Int { (0..<count).reduce(0) { $0 + (isValid($1) ? Self.epochSeconds : 0) } }
    public var nonWearSeconds: Int { (0..<count).reduce(0) { $0 + (hasData($1) && nonWear[$1] ? Self.epochSeconds : 0) } }
}
