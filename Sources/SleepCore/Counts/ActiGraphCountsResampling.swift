// Stage 1 of the ActiGraph count algorithm: bring any supported raw rate to 30 Hz.
//
// Two paths, both reproducing agcounts 0.2.6 operation by operation (same formulas, same
// evaluation order) so that the 30 Hz signal, which is rounded to 0.001 g next, is the same:
//
// * 30·k Hz ("rational", agcounts `extract._resample`, Neishabouri et al. 2022 Fig. 2):
//   upsample by L (zero stuffing), for rates that are not a multiple of 30 smooth with the
//   first-order IIR  y[i] = a·L·(u[i] + u[i−1]) − b·y[i−1],  a = π/(π+2L), b = (π−2L)/(π+2L),
//   started from y[−1] = 0, then keep every M-th sample starting with the first.
//   (L, M) = 30:(1,1) 40:(3,4) 50:(3,5) 60:(1,2) 70:(3,7) 80:(3,8) 90:(1,3) 100:(3,10).
//   Output length ⌈n·L/M⌉.
// * 32/64/128/256 Hz ("pow2", agcounts `pow2.resample_to_30hz`): zero-stuff to 256 Hz with
//   gain 256/rate, 255-tap FIR low-pass ("same" convolution, zero padding); ActiGraph's
//   single-pole "TASO" low-pass y[n] = a·y[n−1] + b·x[n] with b = 0.307990357416655,
//   a = 1 − b, started in steady state for the first sample; linear interpolation at
//   t_j = j·256/30 (j = 1, 2, …) to ⌊m·30/256⌋ samples, the last of which agcounts leaves at 0.
//
// The three axes travel together in the lanes of a SIMD4<Double> (lane 3 unused): lane-wise
// IEEE arithmetic gives exactly the scalar results, and the three independent recursions
// overlap in the CPU instead of running one after another.

extension ActiGraphCounts {
    /// Resamples one axis to 30 Hz as ActiLife does (before the 0.001 g rounding).
    ///
    /// 30 Hz input is returned unchanged. Output length: ⌈n·L/M⌉ for the 30·k Hz rates,
    /// ⌊n·(256/rate)·30/256⌋ for 32/64/128/256 Hz (whose last sample is 0, as in agcounts).
    public static func resampleTo30Hz(_ samples: [Double], sampleRateHz: Int) throws(ActiGraphCountsError) -> [Double] {
        let path = try ResamplingPath(sampleRateHz: sampleRateHz)
        let outputCount = path.outputCount(inputCount: samples.count)
        var output = [Lanes](repeating: Lanes(), count: outputCount)
        guard outputCount > 0 else { return [] }
        samples.withUnsafeBufferPointer { raw in
            output.withUnsafeMutableBufferPointer { out in
                let axes = AxisBuffers(x: raw, y: raw, z: raw)
                switch path {
                case .rational(let upsample, let downsample):
                    var resampler = RationalResampler(upsampleFactor: upsample, downsampleFactor: downsample)
                    _ = resampler.process(axes, range: 0..<raw.count, into: out.baseAddress!)
                case .powerOfTwo(let factor):
                    var resampler = PowerOfTwoResampler(axes: axes, zeroStuffFactor: factor)
                    resampler.produce(0..<outputCount, into: out.baseAddress!)
                }
            }
        }
        return output.map { $0[0] }
    }

    /// pow2 stage a: zero-stuffing to 256 Hz with gain 256/rate (agcounts' `upsample256.csv`).
    /// 256 Hz input is returned unchanged.
    public static func zeroStuffTo256Hz(_ samples: [Double], sampleRateHz: Int) throws(ActiGraphCountsError) -> [Double] {
        let factor = try powerOfTwoFactor(sampleRateHz)
        guard factor > 1 else { return samples }
        var out = [Double](repeating: 0, count: samples.count * factor)
        for (r, value) in samples.enumerated() { out[r * factor] = value * Double(factor) }
        return out
    }

    /// pow2 stage b: zero-stuffing plus the 255-tap up-sampling low-pass, i.e. agcounts
    /// `upsample_to_256hz` (`upsample256Lpf.csv`). 256 Hz input is returned unchanged.
    ///
    /// The convolution skips the stuffed zeros (polyphase) and sums in four interleaved partial
    /// sums; numpy sums with BLAS `ddot` in its own order, so results agree to rounding
    /// (≈1e-16), not bit for bit.
    public static func upsampleTo256Hz(_ samples: [Double], sampleRateHz: Int) throws(ActiGraphCountsError) -> [Double] {
        let factor = try powerOfTwoFactor(sampleRateHz)
        guard factor > 1 else { return samples }
        let lowPass = UpsamplingLowPass(zeroStuffFactor: factor)
        return samples.withUnsafeBufferPointer { raw in
            lowPass.taps.withUnsafeBufferPointer { taps in
                let axes = AxisBuffers(x: raw, y: raw, z: raw)
                return (0..<(raw.count * factor)).map { lowPass.output(axes, at: $0, allTaps: taps.baseAddress!)[0] }
            }
        }
    }

    /// pow2 stage c: ActiGraph's single-pole "TASO" low-pass at 256 Hz (`taso256HzLpf.csv`).
    public static func tasoLowPass256Hz(_ samples: [Double]) -> [Double] {
        var filter = TasoLowPass()
        return samples.map { filter.step(Lanes(repeating: $0))[0] }
    }

    /// pow2 stage d: linear interpolation from 256 Hz to 30 Hz (`30Hz_output.csv`); the last
    /// output sample stays 0 exactly as in agcounts `interpolated_resample`.
    public static func interpolate256HzTo30Hz(_ samples: [Double]) -> [Double] {
        let outputCount = samples.count * 30 / 256
        var out = [Double](repeating: 0, count: outputCount)
        for j in 0..<max(0, outputCount - 1) {
            let upper = PowerOfTwoResampler.upperIndex(forOutput: j)
            out[j] = PowerOfTwoResampler.interpolate(
                output: j, lower: Lanes(repeating: samples[upper - 1]), upper: Lanes(repeating: samples[upper]),
                upperIndex: upper)[0]
        }
        return out
    }

    static func powerOfTwoFactor(_ sampleRateHz: Int) throws(ActiGraphCountsError) -> Int {
        guard case .powerOfTwo(let factor) = try ResamplingPath(sampleRateHz: sampleRateHz) else {
            throw .unsupportedSampleRate(sampleRateHz)
        }
        return factor
    }

    /// x, y, z in lanes 0, 1, 2.
    typealias Lanes = SIMD4<Double>

    /// The three raw axes (the same buffer three times when only one axis is wanted).
    struct AxisBuffers {
        let x: UnsafeBufferPointer<Double>
        let y: UnsafeBufferPointer<Double>
        let z: UnsafeBufferPointer<Double>

        var count: Int { x.count }

        @inline(__always)
        subscript(r: Int) -> Lanes { Lanes(x[r], y[r], z[r], 0) }
    }

    /// Which resampling path a raw rate takes, with its factors.
    enum ResamplingPath: Equatable {
        case rational(upsample: Int, downsample: Int)
        case powerOfTwo(zeroStuffFactor: Int)

        init(sampleRateHz: Int) throws(ActiGraphCountsError) {
            switch sampleRateHz {
            case 30: self = .rational(upsample: 1, downsample: 1)
            case 40: self = .rational(upsample: 3, downsample: 4)
            case 50: self = .rational(upsample: 3, downsample: 5)
            case 60: self = .rational(upsample: 1, downsample: 2)
            case 70: self = .rational(upsample: 3, downsample: 7)
            case 80: self = .rational(upsample: 3, downsample: 8)
            case 90: self = .rational(upsample: 1, downsample: 3)
            case 100: self = .rational(upsample: 3, downsample: 10)
            case 32, 64, 128, 256: self = .powerOfTwo(zeroStuffFactor: 256 / sampleRateHz)
            default: throw .unsupportedSampleRate(sampleRateHz)
            }
        }

        func outputCount(inputCount n: Int) -> Int {
            switch self {
            case .rational(let up, let down): return (n * up + down - 1) / down
            case .powerOfTwo(let factor): return n * factor * 30 / 256
            }
        }
    }

    /// Streaming 30·k Hz → 30 Hz resampler (state carries across calls).
    struct RationalResampler {
        let upsampleFactor: Int
        let downsampleFactor: Int
        /// a·L with a = π/(π+2L), formed as agcounts does (`a_fp * up_factor_fp`).
        let gain: Double
        /// −b with b = (π−2L)/(π+2L).
        let feedback: Double
        /// y[i−1] of the smoothing IIR; agcounts starts it at 0.
        var previous = Lanes()
        /// Position of the next upsampled sample within the decimation period.
        var phase = 0

        init(upsampleFactor: Int, downsampleFactor: Int) {
            self.upsampleFactor = upsampleFactor
            self.downsampleFactor = downsampleFactor
            let twoL = Double(2 * upsampleFactor)
            gain = (Double.pi / (Double.pi + twoL)) * Double(upsampleFactor)
            feedback = -((Double.pi - twoL) / (Double.pi + twoL))
        }

        /// One raw sample in, at most one 30 Hz sample out (L ≤ M on every rational path): the
        /// same arithmetic as ``process(_:range:into:)``, for streams that arrive a sample at a time
        /// (``ActiGraphCountStream``).
        @inline(__always)
        mutating func step(_ sample: Lanes) -> Lanes? {
            var result: Lanes? = nil
            if upsampleFactor == 1 {
                if phase == 0 { result = sample }
                phase += 1
                if phase == downsampleFactor { phase = 0 }
                return result
            }
            var y = previous
            let driven = gain * sample
            for position in 0..<upsampleFactor {
                y = position < 2 ? driven + feedback * y : feedback * y
                if phase == 0 { result = y }
                phase += 1
                if phase == downsampleFactor { phase = 0 }
            }
            previous = y
            return result
        }

        /// Resamples raw samples `range`, writing at most ⌈count·L/M⌉ samples to `out`;
        /// returns how many.
        mutating func process(_ raw: AxisBuffers, range: Range<Int>, into out: UnsafeMutablePointer<Lanes>) -> Int {
            var produced = 0
            var phase = self.phase
            let period = downsampleFactor
            if upsampleFactor == 1 {
                // 30, 60, 90 Hz: no smoothing, plain decimation.
                for r in range {
                    if phase == 0 { out[produced] = raw[r]; produced += 1 }
                    phase += 1
                    if phase == period { phase = 0 }
                }
            } else {
                var y = previous
                let gain = self.gain, feedback = self.feedback, upsampleFactor = self.upsampleFactor
                for r in range {
                    // The zero-stuffed stream is raw, 0, 0, …; u[i] + u[i−1] is the raw value
                    // for the first two positions of each group and 0 for the rest.
                    let driven = gain * raw[r]
                    for position in 0..<upsampleFactor {
                        y = position < 2 ? driven + feedback * y : feedback * y
                        if phase == 0 { out[produced] = y; produced += 1 }
                        phase += 1
                        if phase == period { phase = 0 }
                    }
                }
                previous = y
            }
            self.phase = phase
            return produced
        }
    }

    /// ActiGraph's single-pole low-pass as agcounts runs it: input pre-scaled by b/a and
    /// filtered with scipy `lfilter([a], [1, −a])` from the steady state of the first sample.
    struct TasoLowPass {
        static let b = 0.307990357416655
        static let a = 1 - b
        /// scipy `lfilter_zi([a], [1, −a])` = a²/(1 − a).
        static let steadyState = (a * a) / (1 - a)
        var state = Lanes()
        var started = false

        @inline(__always)
        mutating func step(_ value: Lanes) -> Lanes {
            let a = Self.a
            let x = (Self.b * value) / a
            if !started { state = Self.steadyState * x; started = true }
            let y = state + a * x
            state = a * y
            return y
        }
    }

    /// The 255-tap up-sampling FIR of agcounts `upsample_to_256hz`, applied to the zero-stuffed
    /// signal without materialising it: output i only meets raw samples r with 256-Hz index
    /// F·r inside the window, so each phase i mod F has its own short, contiguous tap list
    /// (gain F folded in, an exact power-of-two scaling).
    struct UpsamplingLowPass {
        let factor: Int
        /// log₂ of `factor` (a power of two), so the hot loop shifts instead of dividing.
        let factorShift: Int
        /// All phases' taps for consecutive raw samples, each phase zero-padded to
        /// `paddedTapCount` (a multiple of 4).
        let taps: [Double]
        let paddedTapCount: Int
        /// Per phase: index of the first raw sample relative to ⌊i / F⌋.
        let firstOffset: [Int]
        /// Per phase: number of real taps (before padding).
        let tapCount: [Int]

        init(zeroStuffFactor: Int) {
            factor = zeroStuffFactor
            factorShift = zeroStuffFactor.trailingZeroBitCount
            let kernel = UpsamplingLowPass.kernel
            let half = kernel.count / 2
            var lists: [[Double]] = [], offsets: [Int] = []
            for p in 0..<zeroStuffFactor {
                // Raw r contributes to i = F·q + p when |F·r − i| ≤ half.
                let low = Self.ceilDivide(p - half, zeroStuffFactor)
                let high = Self.floorDivide(p + half, zeroStuffFactor)
                lists.append((low...high).map { d in kernel[p + half - zeroStuffFactor * d] * Double(zeroStuffFactor) })
                offsets.append(low)
            }
            let longest = lists.map(\.count).max()!
            let padded = (longest + 3) / 4 * 4
            paddedTapCount = padded
            taps = lists.flatMap { $0 + [Double](repeating: 0, count: padded - $0.count) }
            firstOffset = offsets
            tapCount = lists.map(\.count)
        }

        static func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
        static func ceilDivide(_ a: Int, _ b: Int) -> Int { -floorDivide(-a, b) }

        /// Output i (all three lanes) of the "same"-mode convolution with zero padding;
        /// `allTaps` is ``taps``.
        @inline(__always)
        func output(_ raw: AxisBuffers, at i: Int, allTaps: UnsafePointer<Double>) -> Lanes {
            let phase = i & (factor - 1)
            let first = (i >> factorShift) + firstOffset[phase]
            let taps = allTaps + phase * paddedTapCount
            if first >= 0 && first + paddedTapCount <= raw.count {
                return Self.interiorDot(raw, first: first, taps: taps, count: paddedTapCount)
            }
            // Near the ends part of the window falls outside the signal (zero padding).
            var sum = Lanes()
            for m in 0..<tapCount[phase] where first + m >= 0 && first + m < raw.count {
                sum += taps[m] * raw[first + m]
            }
            return sum
        }

        /// Dot products of the taps with three contiguous raw windows, four partial sums each.
        @inline(__always)
        static func interiorDot(_ raw: AxisBuffers, first: Int, taps: UnsafePointer<Double>, count: Int) -> Lanes {
            var sumX = SIMD4<Double>(), sumY = SIMD4<Double>(), sumZ = SIMD4<Double>()
            let tapBase = UnsafeRawPointer(taps)
            let xBase = UnsafeRawPointer(raw.x.baseAddress! + first)
            let yBase = UnsafeRawPointer(raw.y.baseAddress! + first)
            let zBase = UnsafeRawPointer(raw.z.baseAddress! + first)
            let stride = MemoryLayout<SIMD4<Double>>.size
            for block in 0..<(count / 4) {
                let offset = block * stride
                let t = tapBase.loadUnaligned(fromByteOffset: offset, as: SIMD4<Double>.self)
                sumX += t * xBase.loadUnaligned(fromByteOffset: offset, as: SIMD4<Double>.self)
                sumY += t * yBase.loadUnaligned(fromByteOffset: offset, as: SIMD4<Double>.self)
                sumZ += t * zBase.loadUnaligned(fromByteOffset: offset, as: SIMD4<Double>.self)
            }
            return Lanes((sumX[0] + sumX[1]) + (sumX[2] + sumX[3]),
                         (sumY[0] + sumY[1]) + (sumY[2] + sumY[3]),
                         (sumZ[0] + sumZ[1]) + (sumZ[2] + sumZ[3]), 0)
        }

        /// agcounts' 255-tap kernel (gain 1/8 at the centre, zeros every 8 taps), stored as its
        /// first 128 taps; the rest mirror them.
        static let kernel: [Double] = {
            let firstHalf: [Double] = [
                -0.000001, -0.000002, -0.000004, -0.000005, -0.000006, -0.000006, -0.000004, 0.000000,
                0.000005, 0.000011, 0.000017, 0.000022, 0.000023, 0.000020, 0.000013, -0.000000,
                -0.000016, -0.000033, -0.000049, -0.000059, -0.000061, -0.000052, -0.000031, -0.000000,
                0.000038, 0.000077, 0.000111, 0.000132, 0.000133, 0.000112, 0.000066, -0.000000,
                -0.000078, -0.000156, -0.000222, -0.000260, -0.000259, -0.000214, -0.000125, 0.000000,
                0.000145, 0.000288, 0.000404, 0.000469, 0.000464, 0.000380, 0.000220, -0.000000,
                -0.000250, -0.000493, -0.000687, -0.000791, -0.000777, -0.000632, -0.000363, 0.000000,
                0.000409, 0.000801, 0.001108, 0.001269, 0.001240, 0.001003, 0.000574, -0.000000,
                -0.000639, -0.001246, -0.001715, -0.001956, -0.001903, -0.001534, -0.000873, 0.000000,
                0.000966, 0.001875, 0.002574, 0.002926, 0.002839, 0.002280, 0.001295, -0.000000,
                -0.001425, -0.002762, -0.003783, -0.004293, -0.004158, -0.003335, -0.001892, 0.000000,
                0.002078, 0.004025, 0.005513, 0.006257, 0.006061, 0.004866, 0.002763, -0.000000,
                -0.003045, -0.005909, -0.008115, -0.009237, -0.008981, -0.007240, -0.004131, 0.000000,
                0.004606, 0.009005, 0.012468, 0.014325, 0.014075, 0.011483, 0.006641, -0.000000,
                -0.007655, -0.015271, -0.021640, -0.025543, -0.025900, -0.021926, -0.013250, 0.000000,
                0.017180, 0.037161, 0.058432, 0.079245, 0.097796, 0.112422, 0.121780, 0.125000,
            ]
            return firstHalf + firstHalf.dropLast().reversed()
        }()
    }

    /// Streaming 32/64/128/256 Hz → 30 Hz resampler over whole raw buffers: the FIR reads raw
    /// samples directly (no 256 Hz array); the TASO filter runs just far enough ahead.
    struct PowerOfTwoResampler {
        let raw: AxisBuffers
        let lowPass: UpsamplingLowPass?
        let outputCount: Int
        var taso = TasoLowPass()
        /// TASO outputs at indices `nextIndex − 2` and `nextIndex − 1`.
        var olderValue = Lanes()
        var newerValue = Lanes()
        var nextIndex = 0

        init(axes: AxisBuffers, zeroStuffFactor: Int) {
            raw = axes
            lowPass = zeroStuffFactor > 1 ? UpsamplingLowPass(zeroStuffFactor: zeroStuffFactor) : nil
            outputCount = axes.count * zeroStuffFactor * 30 / 256
        }

        /// Writes 30 Hz samples `range` (consecutive calls must continue where the last ended).
        mutating func produce(_ range: Range<Int>, into out: UnsafeMutablePointer<Lanes>) {
            // Work on local copies so the state stays in registers in the loop.
            var taso = self.taso, olderValue = self.olderValue, newerValue = self.newerValue
            var nextIndex = self.nextIndex
            let raw = self.raw, lowPass = self.lowPass, outputCount = self.outputCount
            let noTaps = [0.0]
            (lowPass?.taps ?? noTaps).withUnsafeBufferPointer { taps in
                for j in range {
                    if j == outputCount - 1 { out[j - range.lowerBound] = Lanes(); continue }
                    let upper = Self.upperIndex(forOutput: j)
                    while nextIndex <= upper {
                        let lowPassed = lowPass?.output(raw, at: nextIndex, allTaps: taps.baseAddress!) ?? raw[nextIndex]
                        olderValue = newerValue
                        newerValue = taso.step(lowPassed)
                        nextIndex += 1
                    }
                    out[j - range.lowerBound] = Self.interpolate(
                        output: j, lower: olderValue, upper: newerValue, upperIndex: upper)
                }
            }
            self.taso = taso; self.olderValue = olderValue; self.newerValue = newerValue
            self.nextIndex = nextIndex
        }

        /// 256/30 as agcounts writes it (`256 / 30`).
        static let step256HzPer30Hz = 256.0 / 30.0

        /// ⌊t_j⌋ for output j, with t_j = (256/30)·(j+1): the later of the two 256 Hz samples used.
        @inline(__always)
        static func upperIndex(forOutput j: Int) -> Int {
            Int((step256HzPer30Hz * Double(j + 1)).rounded(.down))
        }

        /// agcounts' formula: out = t·d + (s[k] − d·(k+1)), with k = ⌊t⌋ − 1 and d = s[k+1] − s[k].
        @inline(__always)
        static func interpolate(output j: Int, lower: Lanes, upper: Lanes, upperIndex: Int) -> Lanes {
            let t = step256HzPer30Hz * Double(j + 1)
            let difference = upper - lower
            let intercept = lower - difference * Double(upperIndex)
            return t * difference + intercept
        }
    }
}
