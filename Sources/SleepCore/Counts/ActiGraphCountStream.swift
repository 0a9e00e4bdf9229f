/// ActiGraph counts (``ActiGraphCounts``: Neishabouri et al. 2022, agcounts 0.2.6) computed on a
/// stream of timestamped samples, a sample at a time, and summed per 5-s epoch of the UTC grid
/// (the wearable milestone's epochs, ``WearableEpochs``). Memory grows with the number of epochs
/// only, so a 7-day 100 Hz recording never has its samples in memory.
///
/// The 10 Hz count values are the same as the batch ``ActiGraphCounts/counts(x:y:z:sampleRateHz:epochSeconds:trimming:)``
/// computes on the same samples (same resampler, band-pass, trimming and triples, started at the
/// first sample); only the grouping differs: each 10 Hz value goes to the 5-s epoch of the sample
/// that completed it, instead of to consecutive blocks counted from the first sample. For a
/// continuous stream whose first sample starts a minute, the sums of 12 epochs are exactly the
/// batch 60-s counts (a test checks it). Gaps are not filled: the filters run on, as they would
/// over the concatenated samples agcounts is given.
///
/// Rates: the rational paths (30–100 Hz in steps of 10), as ActiLife takes them. The 32–256 Hz
/// "pow2" path needs a 255-tap look-ahead and is not streamed; such rates throw.
public struct ActiGraphCountStream: Sendable {
    public static let epochSeconds = 5
    typealias Lanes = ActiGraphCounts.Lanes

    public let sampleRateHz: Int
    public let trimming: ActiGraphCounts.Trimming
    private var resampler: ActiGraphCounts.RationalResampler
    private var reducer: ActiGraphCounts.TenHzReducer
    /// The 5-s epoch (UTC seconds / 5) of element 0 of the sums; nil before the first 10 Hz value.
    private var firstEpoch: Int64? = nil
    private var x: [Int32] = [], y: [Int32] = [], z: [Int32] = []

    /// - Throws: ``ActiGraphCountsError/unsupportedSampleRate(_:)`` for a rate without a streamed path.
    public init(sampleRateHz: Int, trimming: ActiGraphCounts.Trimming = .normal) throws(ActiGraphCountsError) {
        guard case .rational(let up, let down) = try ActiGraphCounts.ResamplingPath(sampleRateHz: sampleRateHz) else {
            throw .unsupportedSampleRate(sampleRateHz)
        }
        self.sampleRateHz = sampleRateHz
        self.trimming = trimming
        reducer = ActiGraphCounts.TenHzReducer(trimming: trimming)
        resampler = ActiGraphCounts.RationalResampler(upsampleFactor: up, downsampleFactor: down)
    }

    /// Rates this stream takes.
    public static let streamedSampleRatesHz = [30, 40, 50, 60, 70, 80, 90, 100]

    /// One sample: UTC seconds and acceleration in g (as read, uncalibrated, as ActiLife counts it).
    @inline(__always)
    public mutating func add(timestamp t: Double, x ax: Double, y ay: Double, z az: Double) {
        guard let s = resampler.step(Lanes(ax, ay, az, 0)), let v = reducer.step(s) else { return }
        let epoch = LocalClock.floorDiv(Int64(t.rounded(.down)), Int64(Self.epochSeconds))
        if firstEpoch == nil { firstEpoch = epoch }
        let index = Int(epoch - firstEpoch!)
        if index >= x.count {
            let grow = index + 1 - x.count
            x.append(contentsOf: repeatElement(0, count: grow))
            y.append(contentsOf: repeatElement(0, count: grow))
            z.append(contentsOf: repeatElement(0, count: grow))
        }
        if index >= 0 {
            x[index] &+= Int32(v.x); y[index] &+= Int32(v.y); z[index] &+= Int32(v.z)
        }
    }

    /// Counts per 5-s epoch for the `count` epochs from `startUTC` (a multiple of 5): epochs the
    /// stream did not reach are 0.
    public func counts(startUTC: Int64, count: Int) -> WearableEpochs.Counts {
        var result = WearableEpochs.Counts(x: .init(repeating: 0, count: count), y: .init(repeating: 0, count: count),
                                           z: .init(repeating: 0, count: count))
        guard let first = firstEpoch, count > 0 else { return result }
        let offset = Int(first - LocalClock.floorDiv(startUTC, Int64(Self.epochSeconds)))   // our element 0 in the result
        let from = max(0, offset), to = min(count, offset + x.count)
        guard to > from else { return result }
        result.x.replaceSubrange(from..<to, with: x[(from - offset)..<(to - offset)])
        result.y.replaceSubrange(from..<to, with: y[(from - offset)..<(to - offset)])
        result.z.replaceSubrange(from..<to, with: z[(from - offset)..<(to - offset)])
        return result
    }
}
