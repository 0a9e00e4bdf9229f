// Stages 2–6 of the ActiGraph count algorithm (Neishabouri et al. 2022; agcounts 0.2.6
// `_resample` rounding, `_bpf_filter`, `_trim_data`, `_resample_10hz`, `_sum_counts`).

extension ActiGraphCounts {
    /// Stage 2: round each 30 Hz sample to 0.001 g, ties to even (numpy `np.round(x, 3)`,
    /// which is `rint(x·1000)/1000`).
    public static func roundToMilliG(_ samples: [Double]) -> [Double] {
        samples.map(roundedToMilliG)
    }

    @inline(__always)
    static func roundedToMilliG(_ value: Double) -> Double {
        roundedToEven(value * 1000) / 1000
    }

    /// `rint` without a libm call (x86-64 baseline has no SSE4.1 `roundsd`): adding and
    /// subtracting 2⁵² leaves the nearest integer, ties to even, for |v| < 2⁵²; larger values
    /// are integers already.
    @inline(__always)
    static func roundedToEven(_ value: Double) -> Double {
        let magnitude = value.magnitude
        guard magnitude < 0x1p52 else { return value }
        return Double(signOf: value, magnitudeOf: (magnitude + 0x1p52) - 0x1p52)
    }

    /// Stage 3: ActiLife's band-pass IIR on the rounded 30 Hz signal, in count units.
    ///
    /// Transposed direct form II (scipy `lfilter`), started in the steady state for a constant
    /// input equal to the first sample, output multiplied by ``countsPerFilterUnit``.
    public static func bandPass(_ samples30Hz: [Double]) -> [Double] {
        var filter = BandPassFilter()
        return samples30Hz.map { countsPerFilterUnit * filter.step(Lanes(repeating: $0))[0] }
    }

    /// Stage 4: threshold the band-passed signal (values 0…128).
    public static func trim(_ bandPassed: [Double], trimming: Trimming = .normal) -> [Int] {
        bandPassed.map { trimmed($0, trimming) }
    }

    /// Stage 5: "10 Hz" values, ⌊(t₀ + t₁ + t₂)/3⌋ over consecutive triples; a trailing
    /// incomplete triple is dropped.
    public static func downsampleTo10Hz(_ trimmed: [Int]) -> [Int] {
        stride(from: 0, to: trimmed.count - 2, by: 3).map { (trimmed[$0] + trimmed[$0 + 1] + trimmed[$0 + 2]) / 3 }
    }

    /// Stage 6: counts per epoch, the sum of 10·`epochSeconds` consecutive 10 Hz values; a
    /// trailing incomplete epoch is dropped.
    public static func sumEpochs(_ tenHz: [Int], epochSeconds: Int) -> [Int] {
        let block = 10 * epochSeconds
        guard block > 0 else { return [] }
        return stride(from: 0, to: tenHz.count - block + 1, by: block).map { tenHz[$0..<($0 + block)].reduce(0, +) }
    }

    /// Gain from filter units to counts, ((3/4096)/(2.6/256))·237.5 ≈ 17.127404, evaluated in
    /// agcounts' order. (ActiGraph firmware uses 17.128125, per the agcounts source.)
    public static let countsPerFilterUnit = ((3.0 / 4096.0) / (2.6 / 256.0)) * 237.5

    /// Numerator of ActiLife's band-pass (agcounts `INPUT_COEFFICIENTS`; the ninth, zero, tap omitted).
    public static let bandPassNumerator: [Double] = [
        BandPassFilter.b0, BandPassFilter.b1, BandPassFilter.b2, BandPassFilter.b3,
        BandPassFilter.b4, BandPassFilter.b5, BandPassFilter.b6, BandPassFilter.b7,
    ]

    /// Denominator of ActiLife's band-pass (agcounts `OUTPUT_COEFFICIENTS`, a₀ = 1; ninth, zero, tap omitted).
    public static let bandPassDenominator: [Double] = [
        1, BandPassFilter.a1, BandPassFilter.a2, BandPassFilter.a3,
        BandPassFilter.a4, BandPassFilter.a5, BandPassFilter.a6, BandPassFilter.a7,
    ]

    /// ⌊|v|⌋ after thresholding; between the thresholds |v| is positive, so truncation is floor.
    /// The lower tests are written `!(m >= t)` so that a NaN (only reachable through the public
    /// stage functions) gives 0 instead of trapping in `Int(_:)`.
    @inline(__always)
    static func trimmed(_ value: Double, _ trimming: Trimming) -> Int {
        let magnitude = value.magnitude
        switch trimming {
        case .normal:
            if !(magnitude >= 4) { return 0 }
            if magnitude > 128 { return 128 }
            return Int(magnitude)
        case .lowFrequencyExtension:
            if magnitude > 128 { return 128 }
            if !(magnitude >= 1) { return 0 }
            if magnitude < 4 { return Int(magnitude) - 1 }
            return Int(magnitude)
        }
    }

    /// The band-pass as scipy `lfilter` evaluates it (transposed direct form II, 7 states that
    /// matter), with each state update written in scipy's order: z[k] = (z[k+1] + x·b[k+1]) − y·a[k+1].
    /// One filter per lane (x, y, z axes).
    struct BandPassFilter {
        var z0 = Lanes(), z1 = Lanes(), z2 = Lanes(), z3 = Lanes(), z4 = Lanes(), z5 = Lanes(), z6 = Lanes()
        var started = false

        // Literals (not reads of the public arrays) so the hot loop needs no lazy-global checks.
        static let b0 = -0.009341062898525, b1 = -0.025470289659360, b2 = -0.004235264826105
        static let b3 = 0.044152415456420, b4 = 0.036493718347760, b5 = -0.011893961934740
        static let b6 = -0.022917390623150, b7 = -0.006788163862310
        static let a1 = -3.63367395910957, a2 = 5.03689812757486, a3 = -3.09612247819666
        static let a4 = 0.50620507633883, a5 = 0.32421701566682, a6 = -0.15685485875559
        static let a7 = 0.01949130205890

        /// Steady-state states for a unit constant input: with Y = Σb/Σa (the DC gain),
        /// z[k] = Σ_{j>k} (b[j] − Y·a[j]). This is the exact solution of the system scipy's
        /// `lfilter_zi` solves numerically (LAPACK), and it is the state the filter converges
        /// to when "charged" with a constant as ActiLife's reference loop does (1080 samples):
        /// max difference to that charged state 2e-14, to scipy's solve 4e-13 (filter units).
        static let unitSteadyState: [Double] = {
            let b = bandPassNumerator, a = bandPassDenominator
            let dcGain = b.reduce(0, +) / a.reduce(0, +)
            var states = [Double](repeating: 0, count: 7)
            var tail = 0.0
            for k in stride(from: 6, through: 0, by: -1) {
                tail += b[k + 1] - dcGain * a[k + 1]
                states[k] = tail
            }
            return states
        }()

        @inline(__always)
        mutating func step(_ x: Lanes) -> Lanes {
            if !started {
                let s = Self.unitSteadyState
                z0 = s[0] * x; z1 = s[1] * x; z2 = s[2] * x; z3 = s[3] * x
                z4 = s[4] * x; z5 = s[5] * x; z6 = s[6] * x
                started = true
            }
            let y = z0 + Self.b0 * x
            z0 = z1 + x * Self.b1 - y * Self.a1
            z1 = z2 + x * Self.b2 - y * Self.a2
            z2 = z3 + x * Self.b3 - y * Self.a3
            z3 = z4 + x * Self.b4 - y * Self.a4
            z4 = z5 + x * Self.b5 - y * Self.a5
            z5 = z6 + x * Self.b6 - y * Self.a6
            z6 = x * Self.b7 - y * Self.a7
            return y
        }
    }

    /// Stages 2–5 fused, a 30 Hz sample at a time (one axis per lane): round, band-pass, trim, and
    /// every third sample the "10 Hz" value ⌊(t₀ + t₁ + t₂)/3⌋ per axis. Shared by the batch
    /// ``EpochAccumulator`` and the streamed ``ActiGraphCountStream``.
    struct TenHzReducer {
        let trimming: Trimming
        var filter = BandPassFilter()
        var tripleX = 0, tripleY = 0, tripleZ = 0
        var tripleFill = 0

        init(trimming: Trimming) { self.trimming = trimming }

        /// The 10 Hz values (x, y, z) when `sample` completes a triple, else nil.
        @inline(__always)
        mutating func step(_ sample: Lanes) -> (x: Int, y: Int, z: Int)? {
            let rounded = Lanes(ActiGraphCounts.roundedToMilliG(sample[0]), ActiGraphCounts.roundedToMilliG(sample[1]),
                                ActiGraphCounts.roundedToMilliG(sample[2]), 0)
            let filtered = ActiGraphCounts.countsPerFilterUnit * filter.step(rounded)
            tripleX &+= ActiGraphCounts.trimmed(filtered[0], trimming)
            tripleY &+= ActiGraphCounts.trimmed(filtered[1], trimming)
            tripleZ &+= ActiGraphCounts.trimmed(filtered[2], trimming)
            tripleFill += 1
            guard tripleFill == 3 else { return nil }
            defer { tripleX = 0; tripleY = 0; tripleZ = 0; tripleFill = 0 }
            return (tripleX / 3, tripleY / 3, tripleZ / 3)
        }
    }

    /// Stages 2–6 fused: consumes 30 Hz samples (one axis per lane) in chunks and accumulates
    /// epoch counts.
    struct EpochAccumulator {
        let tenHzPerEpoch: Int
        var reducer: TenHzReducer
        var epochX = 0, epochY = 0, epochZ = 0
        var epochFill = 0
        var epochsX: [Int] = [], epochsY: [Int] = [], epochsZ: [Int] = []

        init(epochSeconds: Int, trimming: Trimming, expectedSamples30Hz: Int) {
            reducer = TenHzReducer(trimming: trimming)
            tenHzPerEpoch = 10 * epochSeconds
            let epochs = expectedSamples30Hz / 3 / tenHzPerEpoch
            epochsX.reserveCapacity(epochs)
            epochsY.reserveCapacity(epochs)
            epochsZ.reserveCapacity(epochs)
        }

        mutating func consume(_ samples: UnsafeBufferPointer<Lanes>) {
            // Locals for the loop (the struct's fields would be written back every sample).
            var reducer = self.reducer
            var epochX = self.epochX, epochY = self.epochY, epochZ = self.epochZ
            var epochFill = self.epochFill
            let tenHzPerEpoch = self.tenHzPerEpoch
            for sample in samples {
                guard let v = reducer.step(sample) else { continue }
                epochX &+= v.x
                epochY &+= v.y
                epochZ &+= v.z
                epochFill += 1
                if epochFill == tenHzPerEpoch {
                    epochsX.append(epochX)
                    epochsY.append(epochY)
                    epochsZ.append(epochZ)
                    epochX = 0; epochY = 0; epochZ = 0
                    epochFill = 0
                }
            }
            self.reducer = reducer
            self.epochX = epochX; self.epochY = epochY; self.epochZ = epochZ
            self.epochFill = epochFill
        }
    }
}
