import Foundation
import Testing
import SleepCore

/// Feeds samples `i = 0..<n` at `t0 + i / rate` through a fresh accumulator.
private func rawMetricsStream(_ configuration: RawMetrics.Configuration, t0: Double = 1_000, count n: Int,
                              _ sample: (Int) -> (Double, Double, Double)) throws -> RawMetricEpochs {
    var accumulator = RawMetricsAccumulator(configuration: configuration)
    for i in 0..<n {
        let (x, y, z) = sample(i)
        accumulator.add(timestamp: t0 + Double(i) / configuration.sampleRateHz, x: x, y: y, z: z)
    }
    return try accumulator.finish()
}

private func rawMetricsConfig(_ rate: Double, epoch: Int = 5, window: RawMetrics.AngleZWindow = .ggir) -> RawMetrics.Configuration {
    try! RawMetrics.Configuration(sampleRateHz: rate, epochSeconds: epoch, angleZWindow: window)
}

/// Bit patterns, so that NaN (empty epochs) compares equal to NaN.
private func rawMetricsBits(_ values: [Double]?) -> [UInt64]? { values?.map(\.bitPattern) }

/// A small deterministic generator (no Foundation randomness, same numbers on every platform).
private struct RawMetricsLCG {
    var state: UInt64
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
}

@Suite("Raw metrics: ENMO, MAD, angle-z")
struct RawMetricsTests {
    @Test("samples handed on in batches (structure of arrays) give the per-sample result bit for bit: epochs, gaps, samples entering the median, a non-finite one; the accumulator and the wearable sink in every role",
          arguments: [25.0, 100.0])
    func batchesEqualSamples(rate: Double) throws {
        var t: [Double] = [], x: [Double] = [], y: [Double] = [], z: [Double] = []
        var time = 1_718_380_800.37
        for i in 0..<Int(rate * 900) {
            if i == Int(rate * 300) { time += 7.25 }          // a gap: a new segment
            time += 1 / rate
            t.append(time)
            x.append(0.3 * sin(Double(i) * 0.01)); y.append(0.8 * cos(Double(i) * 0.002)); z.append(-0.5 + 0.1 * sin(Double(i) * 0.3))
        }
        x[1234] = .nan
        let configuration = try RawMetrics.Configuration(sampleRateHz: rate, epochSeconds: 5)
        var one = RawMetricsAccumulator(configuration: configuration)
        for i in t.indices { one.add(timestamp: t[i], x: x[i], y: y[i], z: z[i]) }
        let a = try one.finish()
        // Batches of odd sizes, cut anywhere.
        func inBatches<S: SampleSink>(_ sink: inout S) {
            var start = 0, k = 0
            let sizes = [1, 7, 333, 4096, 2, 999]
            while start < t.count {
                let n = min(sizes[k % sizes.count], t.count - start)
                t.withUnsafeBufferPointer { tp in x.withUnsafeBufferPointer { xp in y.withUnsafeBufferPointer { yp in z.withUnsafeBufferPointer { zp in
                    sink.add(timestamps: tp.baseAddress! + start, x: xp.baseAddress! + start, y: yp.baseAddress! + start, z: zp.baseAddress! + start, count: n)
                } } } }
                start += n; k += 1
            }
        }
        var batched = RawMetricsAccumulator(configuration: configuration)
        inBatches(&batched)
        let b = try batched.finish()
        func bits(_ v: [Double]?) -> [UInt64] { (v ?? []).map(\.bitPattern) }
        #expect(a.sampleCounts == b.sampleCounts && bits(a.enmo) == bits(b.enmo) && bits(a.mad) == bits(b.mad) && bits(a.angleZDegrees) == bits(b.angleZDegrees))
        #expect(one.nonFiniteSampleCount == 1 && batched.nonFiniteSampleCount == 1 && one.segmentCount == 2 && batched.segmentCount == 2)
        // The wearable sink, whole and in each share, calibrated, with features and counts where they apply.
        let calibration = LinearCalibration(offset: [0.01, -0.02, 0.005], scale: [1.01, 0.99, 1.002])
        for role in [WearableEpochSink.Role.complete, .statistics, .metrics, .features, .metricsAndStatistics] {
            for calibrated in [false, true] {
                let cal = calibrated ? calibration : nil
                var perSample = WearableEpochSink(calibration: cal, collectCalibrationFeatures: true, activityCounts: !calibrated, role: role)
                var inRuns = perSample
                for i in t.indices { perSample.add(timestamp: t[i], x: x[i], y: y[i], z: z[i]) }
                inBatches(&inRuns)
                #expect(perSample.calibrationFeatures == inRuns.calibrationFeatures && perSample.nonFiniteSamples == inRuns.nonFiniteSamples
                        && perSample.outOfOrderSamples == inRuns.outOfOrderSamples, "\(role) \(calibrated)")
                #expect(perSample.activityCounts(startUTC: 1_718_380_800, count: 100) == inRuns.activityCounts(startUTC: 1_718_380_800, count: 100), "\(role)")
                if role == .complete {
                    let p = try perSample.finish(), q = try inRuns.finish()
                    func fbits(_ v: [Float]) -> [UInt32] { v.map(\.bitPattern) }
                    #expect(p.epochs.sampleCounts == q.epochs.sampleCounts && fbits(p.epochs.enmo) == fbits(q.epochs.enmo)
                            && fbits(p.epochs.angleZ) == fbits(q.epochs.angleZ) && fbits(p.epochs.mad) == fbits(q.epochs.mad) && p.epochs.nonWear == q.epochs.nonWear)
                    #expect(p.statistics.counts == q.statistics.counts && bits(p.statistics.mean.flatMap { $0 }) == bits(q.statistics.mean.flatMap { $0 })
                            && bits(p.statistics.m2.flatMap { $0 }) == bits(q.statistics.m2.flatMap { $0 }) && bits(p.statistics.minimum.flatMap { $0 }) == bits(q.statistics.minimum.flatMap { $0 }))
                }
            }
        }
    }

    @Test("GGIR's rolling-median window at common rates")
    func windowGeometry() {
        let ggir = RawMetrics.AngleZWindow.ggir, full = RawMetrics.AngleZWindow.fullRate
        #expect(ggir.medianWindow(sampleRateHz: 100) == (10, 51))
        #expect(ggir.medianWindow(sampleRateHz: 30) == (3, 51))
        #expect(ggir.medianWindow(sampleRateHz: 25) == (2, 51))
        #expect(ggir.medianWindow(sampleRateHz: 10) == (1, 51))
        // 12.5 Hz: step 1, round(62.5) = 62 (R rounds halves to even), made odd: 63.
        #expect(ggir.medianWindow(sampleRateHz: 12.5) == (1, 63))
        #expect(ggir.medianWindow(sampleRateHz: 1) == (1, 5))
        #expect(full.medianWindow(sampleRateHz: 100) == (1, 501))
        #expect(full.medianWindow(sampleRateHz: 30) == (1, 151))
        #expect(full.medianWindow(sampleRateHz: 0.1) == (1, 1))
    }

    @Test("stationary, 1 g on z: ENMO 0, MAD 0, angle-z 90°")
    func stationaryUpright() throws {
        let r = try rawMetricsStream(rawMetricsConfig(50), count: 600) { _ in (0, 0, 1) }
        #expect(r.startUTC == 1_000 && r.epochSeconds == 5)
        #expect(r.sampleCounts == [250, 250, 100])
        #expect(r.enmo == [0, 0, 0])
        #expect(r.mad! == [0, 0, 0])
        #expect(r.angleZDegrees == [90, 90, 90])
    }

    @Test("tilted devices: angle-z = atan(z / √(x² + y²))")
    func tilted() throws {
        // (0.6, 0, 0.8): |a| is exactly 1 in binary64, so ENMO and MAD are exactly 0.
        let up = try rawMetricsStream(rawMetricsConfig(20), count: 200) { _ in (0.6, 0, 0.8) }
        #expect(up.enmo == [0, 0])
        #expect(up.mad! == [0, 0])
        // atan(4/3) = 53.130102354155978703…°
        for a in up.angleZDegrees { #expect(abs(a - 53.130102354155978) < 1e-12) }
        let down = try rawMetricsStream(rawMetricsConfig(20), count: 100) { _ in (0, -0.6, -0.8) }
        for a in down.angleZDegrees { #expect(abs(a + 53.130102354155978) < 1e-12) }
        let diagonal = try rawMetricsStream(rawMetricsConfig(20), count: 100) { _ in (0.5, 0.5, 0.5.squareRoot()) }
        for a in diagonal.angleZDegrees { #expect(abs(a - 45) < 1e-12) }
        let flat = try rawMetricsStream(rawMetricsConfig(20), count: 100) { _ in (1, 0, 0) }
        #expect(flat.angleZDegrees == [0])
    }

    @Test("sinusoid along gravity: ENMO = A·cot(π/N)/N, MAD = 2A·cot(π/N)/N")
    func sinusoid() throws {
        // z = 1 + A sin(2π k / N), one period per 1-s epoch at N = 100 Hz. Σ_k max(0, sin) = cot(π/N).
        let A = 0.5, N = 100
        let r = try rawMetricsStream(rawMetricsConfig(Double(N), epoch: 1), count: 10 * N) { i in
            (0, 0, 1 + A * sin(2 * Double.pi * Double(i % N) / Double(N)))
        }
        let cot = 1 / tan(Double.pi / Double(N))
        #expect(r.count == 10)
        for e in 0..<r.count {
            #expect(abs(r.enmo[e] - A * cot / Double(N)) < 1e-12)
            #expect(abs(r.mad![e] - 2 * A * cot / Double(N)) < 1e-12)
            #expect(r.angleZDegrees[e] == 90)
        }
        // The same movement with gravity removed: MAD ≈ 0.268·A, not 2A/π ≈ 0.637·A (see
        // RawMetrics.suitability): the number behind "not comparable".
        let removed = try rawMetricsStream(rawMetricsConfig(Double(N), epoch: 1), count: 10 * N) { i in
            (0, 0, A * sin(2 * Double.pi * Double(i % N) / Double(N)))
        }
        for m in removed.mad! { #expect(abs(m / A - 0.26803) < 1e-3) }
    }

    @Test("posture change inside an epoch: per-sample angles averaged (hand-computed)")
    func postureChange() throws {
        // Full-rate at 10 Hz (window 51): the centred median switches exactly at the change (sample 213,
        // 21.3 s), so epoch [20, 25) holds 13 samples at 90° and 37 at 0°: 23.4°.
        let full = try rawMetricsStream(rawMetricsConfig(10, window: .fullRate), t0: 0, count: 400) { i in
            i < 213 ? (0, 0, 1) : (1, 0, 0)
        }
        #expect(full.angleZDegrees[3] == 90)
        #expect(abs(full.angleZDegrees[4] - 13 * 90 / 50) < 1e-12)
        #expect(full.angleZDegrees[5] == 0)
        // GGIR at 100 Hz: every 10th sample enters, each median is held for the 10 samples from its
        // own; the change at sample 2134 first enters at sample 2140, so 140 samples of [20, 25) are 90°.
        let ggir = try rawMetricsStream(rawMetricsConfig(100), t0: 0, count: 4000) { i in
            i < 2134 ? (0, 0, 1) : (1, 0, 0)
        }
        #expect(abs(ggir.angleZDegrees[4] - 140.0 * 90 / 500) < 1e-12)
        #expect(ggir.angleZDegrees[3] == 90 && ggir.angleZDegrees[5] == 0)
        // ENMO and MAD do not see posture: the norm is 1 throughout.
        #expect(ggir.enmo.allSatisfy { $0 == 0 } && ggir.mad!.allSatisfy { $0 == 0 })
    }

    @Test("edges: first and last full-window medians fill the ends; short segments use all samples")
    func edges() throws {
        // 60 samples at 10 Hz, window 51: full windows only for samples 25...34. The first and last
        // 10 samples lie flat (0°) but every full window is mostly upright, so the filled edges are 90°.
        let r = try rawMetricsStream(rawMetricsConfig(10, epoch: 1, window: .fullRate), t0: 0, count: 60) { i in
            (i < 10 || i >= 50) ? (1, 0, 0) : (0, 0, 1)
        }
        #expect(r.angleZDegrees == [90, 90, 90, 90, 90, 90])
        // 30 samples (< window): medians of all 30 samples; 15 flat + 15 upright gives medians
        // x = z = 0.5 (mean of the two middle values), so 45° everywhere.
        let short = try rawMetricsStream(rawMetricsConfig(10, epoch: 1, window: .fullRate), t0: 0, count: 30) { i in
            i < 15 ? (1, 0, 0) : (0, 0, 1)
        }
        #expect(short.angleZDegrees.count == 3)
        for a in short.angleZDegrees { #expect(abs(a - 45) < 1e-12) }
    }

    @Test("a gap splits segments: empty epochs are NaN and the median does not reach across")
    func gapSplitsSegments() throws {
        var accumulator = RawMetricsAccumulator(configuration: rawMetricsConfig(10, epoch: 1, window: .fullRate))
        for i in 0..<100 { accumulator.add(timestamp: Double(i) / 10, x: 0, y: 0, z: 1) }          // 0–10 s upright
        for i in 0..<100 { accumulator.add(timestamp: 20 + Double(i) / 10, x: 1, y: 0, z: 0) }     // 20–30 s flat
        let r = try accumulator.finish()
        #expect(accumulator.segmentCount == 2)
        #expect(r.count == 30)
        #expect(r.angleZDegrees[9] == 90 && r.angleZDegrees[20] == 0)
        for e in 10..<20 {
            #expect(r.sampleCounts[e] == 0 && r.enmo[e].isNaN && r.mad![e].isNaN && r.angleZDegrees[e].isNaN)
        }
    }

    @Test("streaming equals the batch implementation bit for bit")
    func streamingEqualsBatch() throws {
        for (rate, window, epoch) in [(100.0, RawMetrics.AngleZWindow.ggir, 5), (100, .fullRate, 1), (30, .ggir, 1),
                                      (12.5, .ggir, 5), (25, .fullRate, 60)] {
            var rng = RawMetricsLCG(state: 42)
            var t: [Double] = [], x: [Double] = [], y: [Double] = [], z: [Double] = []
            var ax = 0.1, ay = -0.2, az = 0.97
            var time = 1_700_000_003.25
            for i in 0..<Int(rate * 400) {
                // A random walk of posture plus quantised noise, jittered timestamps, one long gap,
                // a few non-finite samples and repeated timestamps.
                ax += (rng.next() - 0.5) * 0.02; ay += (rng.next() - 0.5) * 0.02; az += (rng.next() - 0.5) * 0.02
                let q = { (v: Double) in (v * 256).rounded() / 256 }
                time += (1 / rate) * (0.8 + 0.4 * rng.next())
                if i == Int(rate * 150) { time += 7.3 }
                t.append(i % 997 == 5 ? t.last ?? time : time)
                x.append(i % 1311 == 7 ? .nan : q(ax + (rng.next() - 0.5) * 0.3))
                y.append(q(ay + (rng.next() - 0.5) * 0.3))
                z.append(q(az + (rng.next() - 0.5) * 0.3))
            }
            let config = try RawMetrics.Configuration(sampleRateHz: rate, epochSeconds: epoch, angleZWindow: window)
            var accumulator = RawMetricsAccumulator(configuration: config)
            for i in t.indices { accumulator.add(timestamp: t[i], x: x[i], y: y[i], z: z[i]) }
            let streamed = try accumulator.finish()
            let batch = try RawMetrics.epochs(timestamps: t, x: x, y: y, z: z, configuration: config)
            #expect(accumulator.segmentCount == 2)
            #expect(accumulator.nonFiniteSampleCount > 0)
            #expect(streamed.startUTC == batch.startUTC && streamed.count == batch.count)
            #expect(streamed.sampleCounts == batch.sampleCounts)
            #expect(rawMetricsBits(streamed.enmo) == rawMetricsBits(batch.enmo))
            #expect(rawMetricsBits(streamed.mad) == rawMetricsBits(batch.mad))
            #expect(rawMetricsBits(streamed.angleZDegrees) == rawMetricsBits(batch.angleZDegrees))
            #expect(streamed.angleZDegrees.contains { !$0.isNaN && abs($0) > 1 })
        }
    }

    @Test("the waiting samples' epoch runs pop in sample order, across runs and around the ring")
    func epochRunQueue() {
        var rng = RawMetricsLCG(state: 11)
        var queue = RawMetrics.EpochRunQueue(capacity: 40)
        var expected: [Int32] = []  // one entry per sample, the model
        var epoch: Int32 = 0
        for _ in 0..<5_000 {
            if rng.next() < 0.55 && expected.count < 40 {
                if rng.next() < 0.2 { epoch += 1 + Int32(rng.next() * 3) }
                queue.push(epoch)
                expected.append(epoch)
            } else if !expected.isEmpty {
                let take = 1 + Int(rng.next() * Double(expected.count))
                var popped: [Int32] = []
                queue.pop(samples: take) { e, n in popped += Array(repeating: e, count: n) }
                #expect(popped == Array(expected.prefix(take)))
                expected.removeFirst(take)
            }
            #expect(queue.sampleCount == expected.count)
        }
        queue.reset()
        #expect(queue.sampleCount == 0)
    }

    @Test("the three-axis rolling medians equal sorting each window: sorted copies and heaps, ties, zeros of both signs, resets")
    func axesMedianWindowMatchesSort() {
        var rng = RawMetricsLCG(state: 19)
        for W in [1, 2, 5, 8, 9, 51, 64, RawMetrics.AxesMedianWindow.sortedLimit, RawMetrics.AxesMedianWindow.sortedLimit + 1, 201] {
            var window = RawMetrics.AxesMedianWindow(capacity: W)
            var history: [[Double]] = [[], [], []]
            func median(_ values: ArraySlice<Double>) -> Double {
                let v = values.sorted()
                return v.count % 2 == 1 ? v[v.count / 2] : (v[v.count / 2 - 1] + v[v.count / 2]) / 2
            }
            for step in 0..<1_500 {
                if step == 700 {  // a new segment
                    window.reset()
                    history = [[], [], []]
                }
                // Many ties, and -0.0 beside 0.0.
                let v = (0..<3).map { _ in ((rng.next() * 12).rounded(.down) / 4 - 1.5) * (rng.next() < 0.5 ? 1 : -1) }
                window.push(v[0], v[1], v[2])
                for a in 0..<3 { history[a].append(v[a]) }
                let m = window.medians
                #expect(window.count == min(history[0].count, W))
                #expect(m.x == median(history[0].suffix(W)) && m.y == median(history[1].suffix(W)) && m.z == median(history[2].suffix(W)),
                        "W = \(W), step \(step)")
            }
        }
    }

    @Test("rolling median equals sorting the window, with ties and while filling")
    func rollingMedianMatchesSort() {
        var rng = RawMetricsLCG(state: 7)
        for W in [1, 2, 5, 51, 64] {
            var window = RawMetrics.MedianWindow(capacity: W)
            var history: [Double] = []
            for _ in 0..<2_000 {
                let v = (rng.next() * 12).rounded(.down) / 4 - 1  // many ties
                window.push(v)
                history.append(v)
                let last = history.suffix(W).sorted()
                let m = last.count % 2 == 1 ? last[last.count / 2] : (last[last.count / 2 - 1] + last[last.count / 2]) / 2
                #expect(window.median == m)
            }
        }
    }

    @Test("1-s epochs aggregate to 5 s like direct 5-s epochs (ENMO, angle-z); MAD cannot")
    func aggregation() throws {
        var rng = RawMetricsLCG(state: 3)
        var values: [(Double, Double, Double)] = []
        for _ in 0..<(50 * 63) { values.append((rng.next() - 0.5, rng.next() - 0.5, 1 + rng.next() - 0.5)) }
        let oneSecond = try rawMetricsStream(rawMetricsConfig(50, epoch: 1), t0: 1_002, count: values.count) { values[$0] }
        let fiveSeconds = try rawMetricsStream(rawMetricsConfig(50, epoch: 5), t0: 1_002, count: values.count) { values[$0] }
        let aggregated = try oneSecond.aggregated(toEpochSeconds: 5)
        #expect(aggregated.startUTC == 1_000 && fiveSeconds.startUTC == 1_000)
        #expect(aggregated.sampleCounts == fiveSeconds.sampleCounts)
        #expect(aggregated.sampleCounts.first == 150)
        #expect(aggregated.mad == nil)
        for e in 0..<aggregated.count {
            #expect(abs(aggregated.enmo[e] - fiveSeconds.enmo[e]) < 1e-12)
            #expect(abs(aggregated.angleZDegrees[e] - fiveSeconds.angleZDegrees[e]) < 1e-9)
        }
        #expect(throws: RawMetricsError.self) { _ = try fiveSeconds.aggregated(toEpochSeconds: 7) }
        #expect(throws: RawMetricsError.self) { _ = try fiveSeconds.aggregated(toEpochSeconds: 1) }
    }

    @Test("time going backwards is refused by both implementations")
    func timeBackwards() throws {
        let config = rawMetricsConfig(10)
        var accumulator = RawMetricsAccumulator(configuration: config)
        accumulator.add(timestamp: 10, x: 0, y: 0, z: 1)
        accumulator.add(timestamp: 9, x: 0, y: 0, z: 1)
        #expect(throws: RawMetricsError.timeWentBackwards(previousTimestamp: 10, timestamp: 9)) { try accumulator.finish() }
        #expect(throws: RawMetricsError.timeWentBackwards(previousTimestamp: 10, timestamp: 9)) {
            try RawMetrics.epochs(timestamps: [10, 9], x: [0, 0], y: [0, 0], z: [1, 1], configuration: config)
        }
        #expect(throws: RawMetricsError.self) { try RawMetrics.Configuration(sampleRateHz: 0) }
        #expect(throws: RawMetricsError.self) { try RawMetrics.Configuration(sampleRateHz: 50, epochSeconds: 0) }
    }

    @Test("gravity content decides which metrics are offered")
    func gravitySuitability() throws {
        #expect(RawMetrics.Gravity.allCases.map(\.rawValue) == ["included", "removed", "unknown"])
        for metric in RawMetrics.Metric.allCases {
            #expect(RawMetrics.suitability(of: metric, gravity: .included) == .meaningful)
            guard case .notComparable = RawMetrics.suitability(of: metric, gravity: .unknown) else {
                Issue.record("\(metric) on unknown gravity should be not comparable"); continue
            }
        }
        guard case .meaningless = RawMetrics.suitability(of: .enmo, gravity: .removed),
              case .meaningless = RawMetrics.suitability(of: .angleZ, gravity: .removed),
              case .notComparable = RawMetrics.suitability(of: .mad, gravity: .removed) else {
            Issue.record("gravity-removed suitability"); return
        }
        #expect(RawMetrics.availableMetrics(gravity: .included) == [.enmo, .mad, .angleZ])
        #expect(RawMetrics.availableMetrics(gravity: .removed) == [])
        #expect(RawMetrics.availableMetrics(gravity: .removed, allowingNotComparable: true) == [.mad])
        #expect(RawMetrics.availableMetrics(gravity: .unknown, allowingNotComparable: true) == [.enmo, .mad, .angleZ])
        try RawMetrics.requireAvailable([.enmo, .mad, .angleZ], gravity: .included)
        try RawMetrics.requireAvailable([.mad], gravity: .removed, allowingNotComparable: true)
        do {
            try RawMetrics.requireAvailable([.enmo], gravity: .removed, allowingNotComparable: true)
            Issue.record("ENMO on gravity-removed input must be refused")
        } catch {
            #expect(error.description.hasPrefix("ENMO is not available for this recording (gravity removed):"))
            #expect(error.description.contains("1 g"))
        }
        #expect(throws: RawMetricsError.self) { try RawMetrics.requireAvailable([.angleZ], gravity: .removed, allowingNotComparable: true) }
        #expect(throws: RawMetricsError.self) { try RawMetrics.requireAvailable([.mad], gravity: .removed) }
    }

    // MARK: - Reference: independent numpy reimplementation of GGIR's definitions

    /// `yyyy-mm-ddTHH:MM:SS(.fff)` read as UTC seconds (the file's local clock; only differences matter).
    private static func seconds(_ text: Substring) -> Double? {
        let parts = text.split(whereSeparator: { "-T:".contains($0) })
        guard parts.count == 6, let Y = Int(parts[0]), let M = Int(parts[1]), let D = Int(parts[2]),
              let h = Int(parts[3]), let m = Int(parts[4]) else { return nil }
        let secondParts = parts[5].split(separator: ".")
        guard let s = Int(secondParts[0]) else { return nil }
        var fraction = 0.0
        if secondParts.count == 2, let f = Int(secondParts[1]) {
            fraction = Double(f) / pow(10, Double(secondParts[1].count))
        }
        // Days from 1970-01-01 (H. Hinnant's days_from_civil).
        let y = M <= 2 ? Y - 1 : Y
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (M + (M > 2 ? -3 : 9)) + 2) / 5 + D - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days * 86_400 + h * 3_600 + m * 60 + s) + fraction
    }

    private static var fixtureURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/raw-metrics/raw_metrics_reference.csv")
    }

    @Test("ActiGraph Link 100 Hz: ENMO, MAD, angle-z vs an independent numpy reimplementation",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func referenceActiGraphLink() throws {
        guard let raw = try ExternalData.text("agcounts_link_100hz/example_raw_100hz_pygt3x.csv") else { return }
        var buffer = RawSampleBuffer(reservingCapacity: 18_000)
        for line in raw.split(whereSeparator: \.isNewline).dropFirst() {
            let f = line.split(separator: ",")
            guard f.count == 4, let t = Self.seconds(f[0]), let x = Double(f[1]), let y = Double(f[2]), let z = Double(f[3]) else {
                Issue.record("unreadable line \(line)"); return
            }
            buffer.add(timestamp: t, x: x, y: y, z: z)
        }
        #expect(buffer.count == 18_000)
        let rows = TestCSV.rows(try String(contentsOf: Self.fixtureURL, encoding: .utf8)).dropFirst()
        #expect(rows.count == 432)
        for window in RawMetrics.AngleZWindow.allCases {
            for epoch in [1, 5] {
                let config = try RawMetrics.Configuration(sampleRateHz: 100, epochSeconds: epoch, angleZWindow: window)
                var accumulator = RawMetricsAccumulator(configuration: config)
                for i in 0..<buffer.count {
                    accumulator.add(timestamp: buffer.timestamps[i], x: buffer.x[i], y: buffer.y[i], z: buffer.z[i])
                }
                let ours = try accumulator.finish()
                let expected = rows.filter { $0[0] == window.rawValue && $0[1] == String(epoch) }
                #expect(expected.count == 180 / epoch)
                var matched = 0
                var worst = (enmo: 0.0, mad: 0.0, angle: 0.0)
                for row in expected {
                    guard let start = Self.seconds(Substring(row[2])), let n = Int(row[3]),
                          let enmo = Double(row[4]), let mad = Double(row[5]), let angle = Double(row[6]) else {
                        Issue.record("bad fixture row \(row)"); continue
                    }
                    let e = Int((Int64(start) - ours.startUTC) / Int64(epoch))
                    guard e >= 0, e < ours.count else { Issue.record("epoch \(row[2]) missing"); continue }
                    let d = (abs(ours.enmo[e] - enmo), abs(ours.mad![e] - mad), abs(ours.angleZDegrees[e] - angle))
                    worst = (max(worst.enmo, d.0), max(worst.mad, d.1), max(worst.angle, d.2))
                    if ours.sampleCounts[e] == n && d.0 <= 1e-12 && d.1 <= 1e-12 && d.2 <= 1e-9 { matched += 1 }
                }
                ReferenceReport.record("raw-metrics \(window.rawValue) \(epoch)s (ENMO, MAD, anglez vs independent numpy GGIR-definition reimplementation)",
                                       matched: matched, total: expected.count,
                                       note: "max |Δ| ENMO \(worst.enmo) g, MAD \(worst.mad) g, anglez \(worst.angle)°")
                #expect(matched == expected.count)
            }
        }
    }
}
