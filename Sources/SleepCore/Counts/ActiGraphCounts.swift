/// ActiGraph activity counts computed from raw acceleration, reproducing ActiLife.
///
/// Source: Neishabouri A, Nguyen J, Samuelsson J, et al. "Quantification of acceleration as
/// activity counts in ActiGraph wearable." *Scientific Reports* 12:11958 (2022),
/// doi:10.1038/s41598-022-16003-x, and the behaviour of ActiGraph's open-source reference
/// implementation `agcounts` (PyPI 0.2.6, github.com/actigraph/agcounts), which the authors
/// state reproduces ActiLife. The R port `bhelsel/agcounts` (0.7.0) implements the same
/// stages for 30–100 Hz.
///
/// Pipeline, per axis (each stage is available on its own for testing):
/// 1. ``resampleTo30Hz(_:sampleRateHz:)``: 30, 60, 90 Hz are decimated; 40, 50, 70, 80, 100 Hz
///    are zero-stuffed ×3, smoothed by ActiLife's first-order IIR and decimated; 32, 64, 128,
///    256 Hz go through the "pow2" path (zero-stuff to 256 Hz, 255-tap low-pass, ActiGraph's
///    single-pole "TASO" low-pass, linear interpolation to 30 Hz).
/// 2. ``roundToMilliG(_:)``: round to 0.001 g (ties to even, as numpy).
/// 3. ``bandPass(_:)``: ActiLife's 7th-order IIR band-pass, started in steady state for the
///    first sample, scaled to count units (× 17.127404…).
/// 4. ``trim(_:trimming:)``: |v| below 4 → 0 (1 with LFE), above 128 → 128, floor.
/// 5. ``downsampleTo10Hz(_:)``: floor of the mean of each 3 samples.
/// 6. ``sumEpochs(_:epochSeconds:)``: sums of 10 × `epochSeconds` values; a trailing partial
///    epoch is dropped.
///
/// ``counts(x:y:z:sampleRateHz:epochSeconds:trimming:)`` runs all stages fused and streaming
/// (no intermediate arrays), with results identical to composing the stages.
///
/// Axis naming: ActiLife's **axis1 is the device Y axis**, axis2 is X and axis3 is Z. The
/// result type ``ActiGraphCountEpochs`` exposes both namings.
public enum ActiGraphCounts {
    /// How the band-passed signal is thresholded ("trimmed") before accumulation.
    public enum Trimming: String, Sendable, CaseIterable {
        /// ActiLife "Normal" filter: |v| < 4 → 0, |v| > 128 → 128, else ⌊|v|⌋.
        case normal
        /// ActiLife "Low Frequency Extension" (LFE): |v| < 1 → 0, 1 ≤ |v| < 4 → ⌊|v|⌋ − 1,
        /// |v| > 128 → 128, else ⌊|v|⌋ (agcounts' reference loop `_extract_slow`, `lfe_select=True`).
        case lowFrequencyExtension
    }

    /// Raw sample rates with an ActiLife-compatible path to 30 Hz.
    public static let supportedSampleRatesHz: [Int] = [30, 40, 50, 60, 70, 80, 90, 100, 32, 64, 128, 256]

    /// Counts per epoch for the three axes.
    ///
    /// - Parameters:
    ///   - x: device X acceleration in g (ActiLife axis2).
    ///   - y: device Y acceleration in g (ActiLife axis1).
    ///   - z: device Z acceleration in g (ActiLife axis3).
    ///   - sampleRateHz: one of ``supportedSampleRatesHz``.
    ///   - epochSeconds: epoch length, ≥ 1 s. Epochs start at the first sample; a trailing
    ///     partial epoch is dropped (as ActiLife/agcounts do).
    ///   - trimming: ``Trimming/normal`` (ActiLife default) or LFE.
    /// - Throws: ``ActiGraphCountsError`` for an unsupported rate, a bad epoch length,
    ///   axes of different lengths or a non-finite sample.
    public static func counts(
        x: [Double], y: [Double], z: [Double],
        sampleRateHz: Int, epochSeconds: Int, trimming: Trimming = .normal
    ) throws(ActiGraphCountsError) -> ActiGraphCountEpochs {
        guard x.count == y.count, y.count == z.count else {
            throw .axisLengthMismatch(x: x.count, y: y.count, z: z.count)
        }
        let path = try ResamplingPath(sampleRateHz: sampleRateHz)
        guard epochSeconds >= 1 else { throw .invalidEpochLength(seconds: epochSeconds) }
        try requireFinite(x)
        try requireFinite(y)
        try requireFinite(z)
        let accumulator = x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                z.withUnsafeBufferPointer { z in
                    run(AxisBuffers(x: x, y: y, z: z), path: path, epochSeconds: epochSeconds, trimming: trimming)
                }
            }
        }
        return ActiGraphCountEpochs(
            epochSeconds: epochSeconds, x: accumulator.epochsX, y: accumulator.epochsY, z: accumulator.epochsZ)
    }

    /// Counts per epoch for one axis (acceleration in g).
    ///
    /// Costs as much as three axes (the pipeline always runs three lanes); prefer
    /// ``counts(x:y:z:sampleRateHz:epochSeconds:trimming:)`` for tri-axial data.
    public static func counts(
        axis samples: [Double], sampleRateHz: Int, epochSeconds: Int, trimming: Trimming = .normal
    ) throws(ActiGraphCountsError) -> [Int] {
        let path = try ResamplingPath(sampleRateHz: sampleRateHz)
        guard epochSeconds >= 1 else { throw .invalidEpochLength(seconds: epochSeconds) }
        try requireFinite(samples)
        return samples.withUnsafeBufferPointer { raw in
            run(AxisBuffers(x: raw, y: raw, z: raw), path: path, epochSeconds: epochSeconds, trimming: trimming)
        }.epochsX
    }

    /// All stages, streaming through a fixed scratch buffer: the resampled signal never exists
    /// as a whole.
    static func run(_ axes: AxisBuffers, path: ResamplingPath, epochSeconds: Int, trimming: Trimming) -> EpochAccumulator {
        let outputCount = path.outputCount(inputCount: axes.count)
        var accumulator = EpochAccumulator(
            epochSeconds: epochSeconds, trimming: trimming, expectedSamples30Hz: outputCount)
        guard outputCount > 0 else { return accumulator }
        let chunkCount = 4096
        var scratch = [Lanes](repeating: Lanes(), count: chunkCount)
        scratch.withUnsafeMutableBufferPointer { chunk in
            let chunkBase = chunk.baseAddress!
            switch path {
            case .rational(let upsample, let downsample):
                var resampler = RationalResampler(upsampleFactor: upsample, downsampleFactor: downsample)
                // Each raw sample yields at most one 30 Hz sample (L ≤ M), so raw blocks of
                // chunkCount samples always fit the scratch buffer.
                var start = 0
                while start < axes.count {
                    let end = min(start + chunkCount, axes.count)
                    let produced = resampler.process(axes, range: start..<end, into: chunkBase)
                    accumulator.consume(UnsafeBufferPointer(start: chunkBase, count: produced))
                    start = end
                }
            case .powerOfTwo(let zeroStuffFactor):
                var resampler = PowerOfTwoResampler(axes: axes, zeroStuffFactor: zeroStuffFactor)
                var start = 0
                while start < outputCount {
                    let end = min(start + chunkCount, outputCount)
                    resampler.produce(start..<end, into: chunkBase)
                    accumulator.consume(UnsafeBufferPointer(start: chunkBase, count: end - start))
                    start = end
                }
            }
        }
        return accumulator
    }

    static func requireFinite(_ samples: [Double]) throws(ActiGraphCountsError) {
        if let index = samples.firstIndex(where: { !$0.isFinite }) {
            throw .nonFiniteSample(index: index)
        }
    }
}

/// Why ``ActiGraphCounts`` could not compute counts.
public enum ActiGraphCountsError: Error, Equatable, Sendable {
    /// The rate has no ActiLife resampling path (see ``ActiGraphCounts/supportedSampleRatesHz``).
    case unsupportedSampleRate(Int)
    /// Epochs must be at least one second long.
    case invalidEpochLength(seconds: Int)
    /// The three axes must have the same number of samples.
    case axisLengthMismatch(x: Int, y: Int, z: Int)
    /// NaN or infinity in the input (index of the first one); gaps must be filled first.
    case nonFiniteSample(index: Int)
}
