import Foundation
import Testing
import SleepCore

/// Reads a file from Fixtures/actigraph-counts (committed next to this test file).
private enum CountsFixture {
    static func text(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/actigraph-counts/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Data rows (header dropped) as numbers.
    static func table(_ text: String) -> [[Double]] {
        TestCSV.rows(text).dropFirst().map { $0.map { Double($0)! } }
    }

    /// One float per line, no header (ActiGraph's filter-stage vectors).
    static func column(_ text: String) -> [Double] {
        text.split(whereSeparator: \.isNewline).map { Double($0)! }
    }

    /// The 100 Hz ActiGraph Link example as three axes in g.
    static func link100Hz() throws -> (x: [Double], y: [Double], z: [Double])? {
        guard let text = try ExternalData.text("agcounts_link_100hz/example_raw_100hz_pygt3x.csv") else { return nil }
        let rows = TestCSV.rows(text).dropFirst()
        return (rows.map { Double($0[1])! }, rows.map { Double($0[2])! }, rows.map { Double($0[3])! })
    }

    /// The integer-valued synthetic signal of make_fixtures.py (`synthetic`), bit for bit.
    static func synthetic(rateHz: Int, seconds: Int = 60) -> [[Double]] {
        let n = rateHz * seconds
        let periods = [rateHz, rateHz / 2, 2 * rateHz]
        return (0..<3).map { axis in
            var state = axis + 1
            return (0..<n).map { i in
                state = (1103515245 * state + 12345) & 0x7FFF_FFFF
                let noise = (state >> 16) % 65 - 32
                let second = i / rateHz
                let amplitude = [(second * 7 + 3) % 10, (second * 3 + 1) % 10, second % 10][axis]
                let t = (2 * i * 1024 / periods[axis]) % 2048
                let triangle = abs(t - 1024) - 512
                let gravity = axis == 2 ? 1024 : 0
                return Double(triangle * amplitude + noise + gravity) / 1024.0
            }
        }
    }
}

/// Compares two series within `tolerance`; returns (within, total, max |difference|).
private func compareSeries(_ ours: [Double], _ reference: [Double], tolerance: Double) -> (matched: Int, total: Int, maxDifference: Double) {
    let total = max(ours.count, reference.count)
    var matched = 0
    var maxDifference = 0.0
    for i in 0..<min(ours.count, reference.count) {
        let difference = abs(ours[i] - reference[i])
        maxDifference = max(maxDifference, difference)
        if difference <= tolerance { matched += 1 }
    }
    return (matched, total, maxDifference)
}

@Suite("ActiGraph counts (Neishabouri 2022 / ActiLife / agcounts)")
struct ActiGraphCountsTests {
    // MARK: External references

    @Test("ActiLife 5-s counts from 100 Hz ActiGraph Link raw data",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func actiLifeLink100Hz() throws {
        let raw = try #require(try CountsFixture.link100Hz())
        let reference = try #require(try ExternalData.text("agcounts_link_100hz/example5sec_actilife_counts.csv"))
        let rows = TestCSV.rows(reference)
        let header = rows[0]
        let column = { (name: String) in header.firstIndex(of: name)! }
        let expected = rows.dropFirst().map { row in
            (axis1: Int(row[column("axis1")])!, axis2: Int(row[column("axis2")])!, axis3: Int(row[column("axis3")])!)
        }

        let epochs = try ActiGraphCounts.counts(x: raw.x, y: raw.y, z: raw.z, sampleRateHz: 100, epochSeconds: 5)
        #expect(epochs.count == expected.count)
        var matched = 0
        for (i, row) in expected.enumerated() where i < epochs.count {
            matched += (epochs.axis1[i] == row.axis1 ? 1 : 0) + (epochs.axis2[i] == row.axis2 ? 1 : 0)
                + (epochs.axis3[i] == row.axis3 ? 1 : 0)
        }
        ReferenceReport.record("ActiLife 6.13.4 5-s counts, ActiGraph Link 100 Hz (axis1..3)",
                               matched: matched, total: 3 * expected.count)
        #expect(matched == 3 * expected.count)
        // The vector magnitude column is √(a1²+a2²+a3²) rounded to 2 decimals.
        let magnitudes = rows.dropFirst().map { Double($0[column("vector_magnitude")])! }
        for (ours, theirs) in zip(epochs.vectorMagnitude, magnitudes) {
            #expect(abs(ours - theirs) <= 0.005 + 1e-9)
        }
    }

    @Test("pow2 resampling stages match ActiGraph's filter-stage vectors (32 Hz)",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func powerOfTwoStageVectors() throws {
        func vector(_ name: String) throws -> [Double] {
            CountsFixture.column(try #require(try ExternalData.text("actigraph_agcounts_filter_vectors/\(name)")))
        }
        let input = try vector("32Hz_input.csv")
        let stuffedReference = try vector("upsample256.csv")
        let lowPassReference = try vector("upsample256Lpf.csv")
        let tasoReference = try vector("taso256HzLpf.csv")
        let outputReference = try vector("30Hz_output.csv")

        // Each stage is fed the reference output of the previous one, then the whole chain.
        // End to end, agcounts' interpolation t·d + (s[k] − d·(k+1)) cancels terms of size
        // t ≈ 8.5·j, so ≈1e-16 upstream differences (BLAS summation order) grow to ≈1e-13:
        // agcounts 0.2.6 itself is 2.27e-13 from this file, as are we.
        let stages: [(String, [Double], [Double], Double)] = [
            ("zero-stuff to 256 Hz (upsample256)", try ActiGraphCounts.zeroStuffTo256Hz(input, sampleRateHz: 32), stuffedReference, 0),
            ("256 Hz up-sampling LPF (upsample256Lpf)", try ActiGraphCounts.upsampleTo256Hz(input, sampleRateHz: 32), lowPassReference, 1e-13),
            ("TASO 256 Hz LPF (taso256HzLpf)", ActiGraphCounts.tasoLowPass256Hz(lowPassReference), tasoReference, 1e-13),
            ("interpolation to 30 Hz (30Hz_output)", ActiGraphCounts.interpolate256HzTo30Hz(tasoReference), outputReference, 1e-13),
            ("32 Hz -> 30 Hz end to end (30Hz_output)", try ActiGraphCounts.resampleTo30Hz(input, sampleRateHz: 32), outputReference, 1e-12),
        ]
        for (name, ours, reference, tolerance) in stages {
            let result = compareSeries(ours, reference, tolerance: tolerance)
            ReferenceReport.record("agcounts filter vectors: \(name)", matched: result.matched, total: result.total,
                                   note: "max |diff| \(result.maxDifference), tolerance \(tolerance)")
            #expect(ours.count == reference.count, "\(name)")
            #expect(result.matched == result.total, "\(name): max |diff| \(result.maxDifference)")
        }
    }

    // MARK: Peer fixtures (agcounts 0.2.6, made by Fixtures/actigraph-counts/make_fixtures.py)

    @Test("100 Hz intermediate stages match agcounts 0.2.6",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func link100HzStagesMatchAgcounts() throws {
        let raw = try #require(try CountsFixture.link100Hz())
        let stages = CountsFixture.table(try CountsFixture.text("agcounts_100hz_stages.csv"))
        let tenHzReference = CountsFixture.table(try CountsFixture.text("agcounts_100hz_10hz.csv"))
        var resampledMatched = 0, resampledTotal = 0, bandPassMatched = 0, bandPassTotal = 0
        var tenHzMatched = 0, tenHzTotal = 0
        var maxBandPassDifference = 0.0
        for (axis, samples) in [raw.x, raw.y, raw.z].enumerated() {
            let resampled = ActiGraphCounts.roundToMilliG(try ActiGraphCounts.resampleTo30Hz(samples, sampleRateHz: 100))
            let bandPassed = ActiGraphCounts.bandPass(resampled)
            let tenHz = ActiGraphCounts.downsampleTo10Hz(ActiGraphCounts.trim(bandPassed))
            #expect(resampled.count == 5400)
            for (i, row) in stages.enumerated() {
                resampledTotal += 1
                if resampled[i] == row[axis] { resampledMatched += 1 }
                let difference = abs(bandPassed[i] - row[3 + axis])
                maxBandPassDifference = max(maxBandPassDifference, difference)
                bandPassTotal += 1
                if difference <= 1e-9 { bandPassMatched += 1 }
            }
            #expect(tenHz.count == tenHzReference.count)
            for (i, row) in tenHzReference.enumerated() where i < tenHz.count {
                tenHzTotal += 1
                if tenHz[i] == Int(row[axis]) { tenHzMatched += 1 }
            }
        }
        ReferenceReport.record("agcounts 0.2.6 100 Hz -> 30 Hz rounded (first 30 s, exact)", matched: resampledMatched, total: resampledTotal)
        ReferenceReport.record("agcounts 0.2.6 100 Hz band-pass (first 30 s, |diff| <= 1e-9)", matched: bandPassMatched, total: bandPassTotal,
                               note: "max |diff| \(maxBandPassDifference)")
        ReferenceReport.record("agcounts 0.2.6 100 Hz 10-Hz values (exact)", matched: tenHzMatched, total: tenHzTotal)
        #expect(resampledMatched == resampledTotal)
        #expect(bandPassMatched == bandPassTotal)
        #expect(tenHzMatched == tenHzTotal)
    }

    @Test("LFE 5-s counts from 100 Hz match agcounts' reference loop",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func link100HzLowFrequencyExtension() throws {
        let raw = try #require(try CountsFixture.link100Hz())
        let expected = CountsFixture.table(try CountsFixture.text("agcounts_100hz_lfe_5s.csv"))
        let epochs = try ActiGraphCounts.counts(x: raw.x, y: raw.y, z: raw.z, sampleRateHz: 100, epochSeconds: 5,
                                                trimming: .lowFrequencyExtension)
        let normal = try ActiGraphCounts.counts(x: raw.x, y: raw.y, z: raw.z, sampleRateHz: 100, epochSeconds: 5)
        #expect(epochs.count == expected.count)
        var matched = 0
        for (i, row) in expected.enumerated() where i < epochs.count {
            matched += (epochs.x[i] == Int(row[0]) ? 1 : 0) + (epochs.y[i] == Int(row[1]) ? 1 : 0)
                + (epochs.z[i] == Int(row[2]) ? 1 : 0)
        }
        ReferenceReport.record("agcounts 0.2.6 _extract_slow LFE 5-s counts, Link 100 Hz", matched: matched, total: 3 * expected.count)
        #expect(matched == 3 * expected.count)
        #expect(epochs != normal)
    }

    @Test("Synthetic signal at every supported rate matches agcounts 0.2.6 1-s counts")
    func syntheticAllRatesMatchAgcounts() throws {
        let rows = CountsFixture.table(try CountsFixture.text("agcounts_synthetic_counts.csv"))
        var matched = 0, total = 0
        for rate in ActiGraphCounts.supportedSampleRatesHz {
            let expected = rows.filter { Int($0[0]) == rate }
            let signal = CountsFixture.synthetic(rateHz: rate)
            let epochs = try ActiGraphCounts.counts(x: signal[0], y: signal[1], z: signal[2], sampleRateHz: rate, epochSeconds: 1)
            #expect(epochs.count == expected.count, "rate \(rate)")
            var rateMatched = 0
            for (i, row) in expected.enumerated() where i < epochs.count {
                rateMatched += (epochs.x[i] == Int(row[2]) ? 1 : 0) + (epochs.y[i] == Int(row[3]) ? 1 : 0)
                    + (epochs.z[i] == Int(row[4]) ? 1 : 0)
            }
            #expect(rateMatched == 3 * expected.count, "rate \(rate)")
            matched += rateMatched
            total += 3 * expected.count
        }
        ReferenceReport.record("agcounts 0.2.6 1-s counts, synthetic signal at 12 sample rates", matched: matched, total: total)
        #expect(total == 12 * 60 * 3)
    }

    // MARK: Internal consistency and properties

    @Test("Fused streaming pipeline equals the composition of the public stages",
          arguments: [30, 50, 60, 100, 32, 128, 256])
    func fusedEqualsStages(rate: Int) throws {
        let signal = CountsFixture.synthetic(rateHz: rate, seconds: 140)  // 4200 samples at 30 Hz: > one 4096-sample chunk
        for trimming in ActiGraphCounts.Trimming.allCases {
            for samples in signal {
                let staged = ActiGraphCounts.sumEpochs(
                    ActiGraphCounts.downsampleTo10Hz(ActiGraphCounts.trim(ActiGraphCounts.bandPass(
                        ActiGraphCounts.roundToMilliG(try ActiGraphCounts.resampleTo30Hz(samples, sampleRateHz: rate))),
                        trimming: trimming)),
                    epochSeconds: 7)
                let fused = try ActiGraphCounts.counts(axis: samples, sampleRateHz: rate, epochSeconds: 7, trimming: trimming)
                #expect(fused == staged)
                #expect(fused.count == 140 / 7)
            }
        }
    }

    @Test("pow2 streaming resampler equals its stage functions bit for bit", arguments: [32, 64, 128, 256])
    func powerOfTwoStagesCompose(rate: Int) throws {
        let samples = CountsFixture.synthetic(rateHz: rate, seconds: 20)[0]
        let composed = ActiGraphCounts.interpolate256HzTo30Hz(
            ActiGraphCounts.tasoLowPass256Hz(try ActiGraphCounts.upsampleTo256Hz(samples, sampleRateHz: rate)))
        let streamed = try ActiGraphCounts.resampleTo30Hz(samples, sampleRateHz: rate)
        #expect(streamed == composed)
        #expect(streamed.count == 600)
        #expect(streamed.last == 0)  // agcounts leaves the final interpolated sample at zero
    }

    @Test("All-zero input gives zero counts at every rate")
    func zeroInputGivesZeroCounts() throws {
        for rate in ActiGraphCounts.supportedSampleRatesHz {
            let zeros = [Double](repeating: 0, count: rate * 30)
            let epochs = try ActiGraphCounts.counts(x: zeros, y: zeros, z: zeros, sampleRateHz: rate, epochSeconds: 5)
            #expect(epochs.count == 6)
            #expect(epochs.x.allSatisfy { $0 == 0 } && epochs.y.allSatisfy { $0 == 0 } && epochs.z.allSatisfy { $0 == 0 })
        }
    }

    // With LFE (threshold 1) the pow2 rates do count a little at the edges: agcounts' "same"
    // convolution zero-pads, so the 30 Hz signal ripples by up to 0.1 g in the first and last
    // second (and its last sample is 0). Normal trimming (threshold 4) hides that.
    @Test("A constant gravity offset gives zero counts (the band-pass removes DC)")
    func gravityGivesZeroCounts() throws {
        for rate in ActiGraphCounts.supportedSampleRatesHz {
            let n = rate * 60
            let epochs = try ActiGraphCounts.counts(
                x: [Double](repeating: 0.3, count: n), y: [Double](repeating: -1, count: n),
                z: [Double](repeating: 1, count: n), sampleRateHz: rate, epochSeconds: 10)
            #expect(epochs.count == 6)
            #expect((epochs.x + epochs.y + epochs.z).allSatisfy { $0 == 0 }, "rate \(rate)")
        }
    }

    @Test("A 1 Hz sine: below the dead band no counts, above it counts grow with amplitude")
    func sineCountsScaleWithAmplitude() throws {
        // Band-pass gain at 1 Hz ≈ 57 counts per g, so the threshold of 4 is ≈ 0.07 g.
        func counts(amplitude: Double) throws -> Int {
            let samples = (0..<(30 * 60)).map { 1 + amplitude * sin(2 * Double.pi * Double($0) / 30) }
            let epochs = try ActiGraphCounts.counts(axis: samples, sampleRateHz: 30, epochSeconds: 60)
            #expect(epochs.count == 1)
            return epochs[0]
        }
        let tiny = try counts(amplitude: 0.05), small = try counts(amplitude: 0.1), large = try counts(amplitude: 0.5)
        #expect(tiny == 0)
        #expect(small > 0)
        #expect(large > 5 * small)
        #expect(large <= 30 * 600)  // peaks ≈ 28.5 counts per 30 Hz sample: nothing clipped at 128
    }

    @Test("LFE trimming never counts less than Normal")
    func lowFrequencyExtensionCountsAtLeastNormal() throws {
        let signal = CountsFixture.synthetic(rateHz: 30, seconds: 60)[1]
        let normal = try ActiGraphCounts.counts(axis: signal, sampleRateHz: 30, epochSeconds: 1)
        let extended = try ActiGraphCounts.counts(axis: signal, sampleRateHz: 30, epochSeconds: 1, trimming: .lowFrequencyExtension)
        #expect(zip(normal, extended).allSatisfy { $0 <= $1 })
        #expect(ActiGraphCounts.trim([0.5, 1.5, 3.99, 4, 4.7, -130, 128.5], trimming: .normal) == [0, 0, 0, 4, 4, 128, 128])
        #expect(ActiGraphCounts.trim([0.5, 1.5, 3.99, 4, 4.7, -130, 128.5], trimming: .lowFrequencyExtension) == [0, 0, 2, 4, 4, 128, 128])
        #expect(ActiGraphCounts.trim([.nan, .infinity], trimming: .normal) == [0, 128])
        #expect(ActiGraphCounts.trim([.nan, .infinity], trimming: .lowFrequencyExtension) == [0, 128])
    }

    @Test("Rounding to 0.001 g is ties-to-even on x·1000, like numpy")
    func roundingMatchesNumpy() {
        #expect(ActiGraphCounts.roundToMilliG([0.0005, 0.0015, -0.0025, 0.0078125, 1.2344999]) == [0, 0.002, -0.002, 0.008, 1.234])
    }

    @Test("Output lengths: partial 10-Hz triples and partial epochs are dropped")
    func lengths() throws {
        #expect(try ActiGraphCounts.resampleTo30Hz([Double](repeating: 0, count: 101), sampleRateHz: 100).count == 31)
        #expect(try ActiGraphCounts.resampleTo30Hz([Double](repeating: 0, count: 101), sampleRateHz: 90).count == 34)
        #expect(try ActiGraphCounts.resampleTo30Hz([Double](repeating: 0, count: 64), sampleRateHz: 64).count == 30)
        #expect(ActiGraphCounts.downsampleTo10Hz([4, 5, 6, 7, 8]) == [5])
        #expect(ActiGraphCounts.sumEpochs(Array(repeating: 2, count: 25), epochSeconds: 1) == [20, 20])
        #expect(try ActiGraphCounts.counts(axis: [Double](repeating: 0, count: 299), sampleRateHz: 30, epochSeconds: 10).isEmpty)
        #expect(try ActiGraphCounts.counts(axis: [], sampleRateHz: 100, epochSeconds: 1).isEmpty)
    }

    @Test("Axis naming follows ActiLife: axis1 = Y, axis2 = X, axis3 = Z")
    func axisNaming() {
        let epochs = ActiGraphCountEpochs(epochSeconds: 60, x: [3], y: [4], z: [12])
        #expect(epochs.axis1 == [4] && epochs.axis2 == [3] && epochs.axis3 == [12])
        #expect(epochs.vectorMagnitude == [13])
    }

    @Test("Invalid input is rejected with a specific error")
    func errors() {
        #expect(throws: ActiGraphCountsError.unsupportedSampleRate(25)) {
            try ActiGraphCounts.counts(axis: [0], sampleRateHz: 25, epochSeconds: 1)
        }
        #expect(throws: ActiGraphCountsError.unsupportedSampleRate(100)) {
            try ActiGraphCounts.zeroStuffTo256Hz([0], sampleRateHz: 100)
        }
        #expect(throws: ActiGraphCountsError.invalidEpochLength(seconds: 0)) {
            try ActiGraphCounts.counts(axis: [0], sampleRateHz: 30, epochSeconds: 0)
        }
        #expect(throws: ActiGraphCountsError.axisLengthMismatch(x: 1, y: 2, z: 1)) {
            try ActiGraphCounts.counts(x: [0], y: [0, 0], z: [0], sampleRateHz: 30, epochSeconds: 1)
        }
        #expect(throws: ActiGraphCountsError.nonFiniteSample(index: 2)) {
            try ActiGraphCounts.counts(axis: [0, 0, .nan, 0], sampleRateHz: 30, epochSeconds: 1)
        }
    }
}
