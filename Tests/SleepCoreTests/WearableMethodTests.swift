import Foundation
import Testing
import SleepCore
import SleepstaWorkloads

/// A wrist signal for unit tests: 10 Hz, gravity included; worn stretches move and turn, a table
/// stretch is flat and still but for 3 mg of noise.
struct TestWrist {
    var rng = SplitMix64(seed: 7)
    var timestamps: [Double] = [], x: [Double] = [], y: [Double] = [], z: [Double] = []

    mutating func worn(seconds: Int, from t0: Double, turnEverySeconds: Double = 30) {
        var g = (0.1, -0.9, 0.4)
        for s in 0..<seconds {
            if rng.unit() < 1 / turnEverySeconds { g = rng.direction() }
            for k in 0..<10 {
                let t = t0 + Double(s) + Double(k) / 10
                let w = 0.2 * sin(Double(s * 10 + k) * 0.7)
                timestamps.append(t); x.append(g.0 + w + 0.01 * rng.noise()); y.append(g.1 + 0.01 * rng.noise()); z.append(g.2 - 0.5 * w)
            }
        }
    }
    mutating func table(seconds: Int, from t0: Double) {
        for s in 0..<seconds {
            for k in 0..<10 {
                timestamps.append(t0 + Double(s) + Double(k) / 10)
                x.append(0.02 + 0.003 * rng.noise()); y.append(-0.03 + 0.003 * rng.noise()); z.append(0.999 + 0.003 * rng.noise())
            }
        }
    }
}

extension SplitMix64 {
    mutating func noise() -> Double { gaussian() }
    /// A uniformly random direction (unit vector).
    mutating func direction() -> (Double, Double, Double) {
        let a = gaussian(), b = gaussian(), c = gaussian()
        let n = max((a * a + b * b + c * c).squareRoot(), 1e-9)
        return (a / n, b / n, c / n)
    }
}

@Suite("Wearable method (GGIR chain on 5-s epochs)")
struct WearableMethodTests {
    /// 2 h worn, 3 h on a table, 2 h worn, starting on the 5-s grid.
    static func signal() -> TestWrist {
        var w = TestWrist()
        let t0 = 1_718_380_800.0   // 2024-06-14 16:00 UTC
        w.worn(seconds: 7200, from: t0)
        w.table(seconds: 10_800, from: t0 + 7200)
        w.worn(seconds: 7200, from: t0 + 18_000)
        return w
    }

    @Test("the streaming sink's ENMO and angle-z equal the array implementation of the same definitions, bit for bit")
    func sinkEqualsBatch() throws {
        let w = Self.signal()
        var sink = WearableEpochSink()
        for i in w.timestamps.indices { sink.add(timestamp: w.timestamps[i], x: w.x[i], y: w.y[i], z: w.z[i]) }
        let (epochs, _) = try sink.finish()
        let batch = try RawMetrics.epochs(timestamps: w.timestamps, x: w.x, y: w.y, z: w.z,
                                          configuration: try RawMetrics.Configuration(sampleRateHz: 10, epochSeconds: 5))
        #expect(sink.sampleRateHz == 10)
        #expect(epochs.startUTC == batch.startUTC && epochs.count == batch.enmo.count)
        #expect(epochs.enmo == batch.enmo.map(Float.init))
        #expect(epochs.angleZ == batch.angleZDegrees.map(Float.init))
        #expect(epochs.sampleCounts.allSatisfy { $0 == 50 })
    }

    @Test("non-wear from per-epoch statistics equals GGIR's rule on the samples (StillnessNonWear), block for block")
    func nonWearEqualsSampleLevel() throws {
        let w = Self.signal()
        var sink = WearableEpochSink()
        for i in w.timestamps.indices { sink.add(timestamp: w.timestamps[i], x: w.x[i], y: w.y[i], z: w.z[i]) }
        let (epochs, stats) = try sink.finish()
        let fromEpochs = EpochStillnessNonWear.nonWear(stats).blocks
        let fromSamples = StillnessNonWear.detect(x: w.x, y: w.y, z: w.z, sampleRateHz: 10).isNonWearBlock
        #expect(fromEpochs == fromSamples)
        // The table (blocks 8–19, 02:00–05:00 after the start) is non-wear but for the edge blocks
        // whose centred hour still reaches worn data.
        let flagged = fromEpochs.indices.filter { fromEpochs[$0] }
        #expect(flagged.first == 10 && flagged.last == 17, "\(flagged)")
        #expect(epochs.nonWearSeconds == 8 * 900)
        #expect(!fromEpochs[0..<8].contains(true) && !fromEpochs[20...].contains(true))
    }

    @Test("pooled range and SD equal the two-pass values on the samples")
    func pooledStatistics() {
        var stats = EpochAxisStatistics(startUTC: 0)
        let values = (0..<1000).map { sin(Double($0) * 0.37) * 0.02 + 1 }
        for chunk in stride(from: 0, to: 1000, by: 50) {
            let part = Array(values[chunk..<chunk + 50])
            let mean = part.reduce(0, +) / 50
            let m2 = part.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            stats.append(count: 50, mean: (mean, mean, mean), m2: (m2, m2, m2), minimum: (part.min()!, 0, 0), maximum: (part.max()!, 0, 0))
        }
        let pooled = stats.pooled(axis: 0, 0..<20)!
        let mean = values.reduce(0, +) / 1000
        let sd = (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 999).squareRoot()
        #expect(abs(pooled.sd - sd) < 1e-15)
        #expect(pooled.range == values.max()! - values.min()!)
    }

    @Test("recording kinds: device formats and 24-h gravity are wearables; user acceleration and one gravity night are phones; --kind wins")
    func kinds() {
        func kind(_ g: GravityContent, _ device: Bool, hours: Int, _ o: RecordingKind? = nil) -> RecordingKind {
            RecordingKindClassifier.decide(gravity: g, isWearableDeviceFormat: device, format: .samples(.rawCSV), spanSeconds: hours * 3600, override: o).kind
        }
        #expect(kind(.included, true, hours: 1) == .wearable24h)
        #expect(kind(.included, false, hours: 72) == .wearable24h)
        #expect(kind(.included, false, hours: 8) == .phoneInBed)
        #expect(kind(.removed, false, hours: 72) == .phoneInBed)
        #expect(kind(.unknown, false, hours: 30) == .phoneInBed)
        #expect(kind(.removed, false, hours: 8, .wearable24h) == .wearable24h)
        let d = RecordingKindClassifier.decide(gravity: .included, isWearableDeviceFormat: false, format: .samples(.rawCSV), spanSeconds: 72 * 3600)
        #expect(d.reason == "acceleration with gravity over 72 h: a device worn day and night")
    }

    /// GGIR's `test_HASPT.R` night (see ``SPTWindowTests``) as a wearable milestone: angle-z per
    /// 5-s epoch, the invalid epochs flagged non-wear.
    static func ggirNight() -> (NightData, SPTWindowTests.GGIRNight) {
        let g = SPTWindowTests.GGIRNight()
        let start: Int64 = 1_718_366_400   // 2024-06-14 12:00 UTC, on the grid
        let epochs = WearableEpochs(startUTC: start, enmo: .init(repeating: 0.01, count: g.angle.count), angleZ: g.angle.map(Float.init),
                                    mad: .init(repeating: 0.01, count: g.angle.count), sampleCounts: .init(repeating: 500, count: g.angle.count),
                                    nonWear: g.invalid)
        let window = NightWindow(date: CivilDate(year: 2024, month: 6, day: 14), startUTC: start, endUTC: start + 86_400)
        let series = SecondSeries.empty(startSecond: start)
        return (NightData(window: window, timeline: UTCOffsetTimeline(initialOffsetSeconds: 0), series: series, epochs: epochs), g)
    }

    @Test("GGIR's test_HASPT vectors through the method's stage: guider = GGIR's HASPT.ignore.invalid=TRUE window")
    func ggirVectorsThroughTheMethod() throws {
        let (night, _) = Self.ggirNight()
        let a = WearableNightMethod().analyze(night, parameters: AnalysisParameters())
        let w = try #require(a.wearable)
        let start = night.window.startUTC
        // GGIR's expectation with invalid epochs ignored: SPTE_start 5000, SPTE_end 5400 (1-based
        // epochs, GGIR's `startEpoch + 1`), i.e. epochs 4999 ..< 5399 here.
        let onsetEpoch = Int((try #require(w.guiderOnsetUTC) - start) / 5) + 1
        let endEpoch = Int((try #require(w.guiderWakeupUTC) - start) / 5) + 1
        ReferenceReport.record("GGIR test_HASPT HDCZA ignore.invalid=TRUE through WearableNightMethod", matched: (onsetEpoch == 5000 ? 1 : 0) + (endEpoch == 5400 ? 1 : 0),
                               total: 2, note: "ours \(onsetEpoch)/\(endEpoch), GGIR 5000/5400")
        #expect(onsetEpoch == 5000 && endEpoch == 5400)
        #expect(w.hdczaThresholdDegrees == 0.13)
        // GGIR's vectors are invalid from epoch 5399, where the window ends: the half hour after
        // it (360 epochs) is non-wear beside the window.
        #expect(w.nonWearNearWindowMinutes == 30)
        // van Hees 2015 on the same angles: the still block 4999…5999 is one bout from the last
        // posture change (|Δ angle-z| > 5°) before it; invalid epochs (from 5399) are neither sleep
        // nor wake, so the bout that overlaps the guider ends at 5399.
        let angle = night.epochs!.angleZ
        let lastChange = try #require((0..<4999).last { abs(angle[$0 + 1] - angle[$0]) > 5 })
        #expect(lastChange >= 4990)
        #expect(a.status == .scored)
        #expect(w.sleepOnsetUTC == start + Int64(lastChange) * 5 && w.wakeupUTC == start + 5399 * 5)
        #expect(a.metrics?.totalSleepTimeMinutes == Double(5399 - lastChange) * 5 / 60)
        #expect(a.metrics?.wakeAfterSleepOnsetMinutes == 0 && a.metrics?.awakenings == 0)
        // The still block's last 200 epochs (7800–7999) outlast the invalid flags at one angle with a
        // MAD of 10 mg, outside the window: a device laid down (StillWearCheck), not valid data. The
        // next epoch's random angle happens to lie within half a degree of it too.
        #expect(abs((night.epochs!.angleZ[8000] - night.epochs!.angleZ[7999])) <= 0.5)
        #expect(w.laidDownSpansUTC == [[start + 7800 * 5, start + 8001 * 5]], "\(w.laidDownSpansUTC ?? [])")
        #expect(abs(w.validHours - Double(17280 - 2401 - 201) * 5 / 3600) < 1e-9)
        let states = a.epochs.map(\.state)
        #expect(states[5399...7799].allSatisfy { $0 == nil })
    }

    @Test("statuses: a night on the table is not worn, a short night is insufficient, no milestone is unsuitable; never sleep")
    func statuses() throws {
        var (night, _) = Self.ggirNight()
        var e = night.epochs!
        e.nonWear = .init(repeating: true, count: e.count)
        night.epochs = e
        let table = WearableNightMethod().analyze(night, parameters: AnalysisParameters())
        #expect(table.status == .insufficientData && table.metrics == nil)
        guard case .notWornAllData(let dataSeconds)? = table.notes.first, table.notes.count == 1 else {
            Issue.record("not a not-worn note: \(table.notes)"); return
        }
        #expect(LocalClock.hoursText(seconds: dataSeconds) == "24 h")
        #expect(!table.epochs.contains { $0.state == .sleep })

        var short = Self.ggirNight().0
        short.epochs = short.epochs!.slice(from: short.window.startUTC, to: short.window.startUTC + 10 * 3600)
        let s = WearableNightMethod().analyze(short, parameters: AnalysisParameters())
        #expect(s.status == .insufficientData)
        guard case .tooFewValidHours(let valid, let nightSeconds, let required)? = s.notes.first, s.notes.count == 1 else {
            Issue.record("not a too-few-valid-hours note: \(s.notes)"); return
        }
        #expect(valid < 16 && nightSeconds == 86_400 && required == 16)

        var none = Self.ggirNight().0
        none.epochs = nil
        let u = WearableNightMethod().analyze(none, parameters: AnalysisParameters())
        #expect(u.status == .unsuitable && u.notes == [.wearableNoEpochs])
    }

    @Test("a night's analysis key names the method; the phone key is today's")
    func keys() {
        let p = AnalysisParameters()
        #expect(PhoneInBedMethod().parametersKey(p) == p.key)
        #expect(WearableNightMethod().parametersKey(p).hasPrefix("method=wearable-24h;interval=600s;"))
        #expect(NightAnalysisMethods.method(for: .wearable24h, parameters: p).kind == .wearable24h)
        var ggir = p
        ggir.nightMethod = .ggir
        #expect(NightAnalysisMethods.method(for: .wearable24h, parameters: ggir) is GGIRNightMethod, "--method ggir picks GGIR parity")
        #expect(NightAnalysisMethods.method(for: .phoneInBed, parameters: ggir) is PhoneInBedMethod, "a phone keeps its method")
    }
}
