import CGD
import Foundation
import Testing
import SleepCore
import SleepIngest
import SleepReport

/// Fixed synthetic nights, one for each kind of night chart and each layer the renderers draw
/// (bands, strips, brackets, a second axis, a clock change, a comparison's legend), and the
/// pages built from them.
enum GoldenFixtures {
    /// 2024-06-14 18:00 UTC (20:00 at +02:00): a 16-hour night window.
    static let start: Int64 = 1_718_388_000
    static let timeline = UTCOffsetTimeline.fixed(7200)
    static let date = CivilDate(year: 2024, month: 6, day: 14)

    /// 10-min intervals of the window: a wake interval every seventh, one interval without data.
    static func intervals(count: Int = 96, from first: Int64 = start) -> [AnalyzedInterval] {
        (0..<count).map { k in
            let from = first + Int64(k) * 600
            let value: Double = k % 7 == 3 ? 0.9 : 0.1 + Double(k % 5) * 0.02
            return AnalyzedInterval(
                movement: IntervalMovement(startUTC: from, endUTC: from + 600, movementSum: value * 10, legacyMovementSum: value * 12,
                                           coverageSeconds: k == 40 ? 0 : 600),
                state: value > 0.5 ? .wake : .sleep, phase: value > 0.5 ? .awake : (k % 3 == 0 ? .deep : .light))
        }
    }

    /// In bed 22:00–06:00 local, asleep 22:40–05:40.
    static let metrics = NightSummaryMetrics(
        resolutionSeconds: 600, inBedStartUTC: start + 2 * 3600, inBedEndUTC: start + 10 * 3600,
        sleepOnsetUTC: start + 2 * 3600 + 2400, wakeTimeUTC: start + 9 * 3600 + 2400, timeInBedMinutes: 480,
        sleepPeriodMinutes: 420, totalSleepTimeMinutes: 380, sleepOnsetLatencyMinutes: 40,
        wakeAfterSleepOnsetMinutes: 40, sleepEfficiencyPercent: 79.2, awakenings: 6,
        lightMinutes: 260, deepMinutes: 120, awakeMinutes: 40)

    static func phone() -> NightAnalysis {
        NightAnalysis(status: .scored, parameters: AnalysisParameters(), intervals: intervals(), epochs: [],
                      wakeThreshold: 0.3, metrics: metrics)
    }

    /// 5-s epochs of the window: angle-z swinging slowly, not worn 20:30–22:00 local, no data
    /// 03:00–03:20 local.
    static let wearableEpochs: WearableEpochs = {
        let n = 16 * 720
        let nonWear = (0..<n).map { $0 >= 360 && $0 < 1440 }
        let counts = (0..<n).map { i -> UInt16 in i >= 5040 && i < 5280 ? 0 : 500 }
        let angle = (0..<n).map { (i: Int) -> Float in Float(sin(Double(i) / 300) * 60) }
        let enmo = (0..<n).map { (i: Int) -> Float in Float(0.01 + Double(i % 17) * 0.001) }
        return WearableEpochs(startUTC: start, enmo: enmo, angleZ: angle, mad: enmo, sampleCounts: counts, nonWear: nonWear)
    }()

    static func wearable(method: NightMethodChoice = .sleepsta) -> NightAnalysis {
        let onset = metrics.sleepOnsetUTC!, wake = metrics.wakeTimeUTC!
        let epochs = stride(from: onset, to: wake, by: 5).enumerated().map { (k: Int, t: Int64) -> ScoredEpoch in
            let state: SleepWake? = k % 400 < 30 ? .wake : (k % 997 == 5 ? nil : .sleep)
            return ScoredEpoch(startUTC: t, activity: 0, state: state)
        }
        var parameters = AnalysisParameters()
        parameters.nightMethod = method
        var w = WearableNightSummary(epochs: wearableEpochs)
        w.guiderOnsetUTC = onset - 600
        w.guiderWakeupUTC = wake + 600
        w.nonWearNearWindowMinutes = 30
        w.hdczaThresholdDegrees = 0.25
        w.stillWornSpansUTC = [[start + 7200, start + 9000]]
        w.laidDownSpansUTC = [[start + 1800, start + 2400]]
        if method == .ggir { w.invalidSpansUTC = [[start + 1800, start + 5400]] }
        return NightAnalysis(status: .scored, parameters: parameters, intervals: intervals(), epochs: epochs, wakeThreshold: nil,
                             metrics: metrics, kind: .wearable24h, wearable: w)
    }

    static func epochFile() -> NightAnalysis {
        var e = EpochFileNightSummary(column: "Activity", columnTitle: "Activity (counts)", unit: "counts", family: .actiGraphCounts,
                                      fileEpochSeconds: 60)
        e.scorer = "Cole–Kripke"; e.guider = "Tudor-Locke"; e.nonWearMinutes = 75
        e.fileLabelsName = "Sleep or Awake?"; e.agreementEpochs = 480; e.agreementAccuracy = 0.91; e.agreementKappa = 0.62
        e.fileTotalSleepMinutes = 372; e.periodRule = "ActiLife's"
        let epochs = stride(from: start, to: start + 16 * 3600, by: 60).enumerated().map { (k: Int, t: Int64) -> ScoredEpoch in
            let state: SleepWake = k % 11 == 0 ? .wake : .sleep
            return ScoredEpoch(startUTC: t, activity: Double(k % 13) * 7, state: state)
        }
        return NightAnalysis(status: .scored, parameters: AnalysisParameters(), intervals: intervals(), epochs: epochs,
                             wakeThreshold: 40, metrics: metrics, kind: .epochFile, epochFile: e)
    }

    /// Two interval lengths compared: two lines, a legend and a sleep/wake strip each, no phases.
    static func comparisonChart() -> MovementChart {
        let tens = intervals(), twenties = intervals(count: 48).enumerated().map { k, iv -> AnalyzedInterval in
            var iv = iv
            iv.movement = IntervalMovement(startUTC: start + Int64(k) * 1200, endUTC: start + Int64(k + 1) * 1200,
                                           movementSum: iv.movement.movementSum * 2, legacyMovementSum: 0, coverageSeconds: 1200)
            return iv
        }
        let series = [("10m", tens), ("20m", twenties)].map { label, ivs in
            MovementChart.Series(label: "\(label) intervals", points: ivs.map {
                MovementChart.Point(startLocal: $0.movement.startUTC, endLocal: $0.movement.endUTC,
                                    value: MovementUnits.milliG(perMinute: $0.movement.movementPerMinute), phase: nil)
            })
        }
        var chart = MovementChart(title: "Night of 2024-06-14 · compared", yAxisLabel: MovementUnits.meanAccelerationLabel,
                                  series: series, sleepPeriod: nil, showPhases: false)
        chart.clock = timeline
        chart.seriesSleepWake = [tens, twenties].map { ivs in
            ivs.compactMap { iv in iv.state.map { (start: iv.movement.startUTC, end: iv.movement.endUTC, state: $0) } }
        }
        return chart
    }

    /// Every night chart the report draws, by name.
    static func charts() -> [(String, MovementChart)] {
        let interval = AnalysisParameters().interval
        let spring = DSTChartTests.night(date: CivilDate(year: 2024, month: 3, day: 30), timeline: DSTChartTests.spring).1
        let autumn = DSTChartTests.night(date: CivilDate(year: 2024, month: 10, day: 26), timeline: DSTChartTests.autumn).1
        return [
            ("phone", NightPageText.chart(phone(), epochs: nil, timeline: timeline, date: date, interval: interval)),
            ("wearable", NightPageText.chart(wearable(), epochs: wearableEpochs, timeline: timeline, date: date, interval: interval)),
            ("wearable-ggir", NightPageText.chart(wearable(method: .ggir), epochs: wearableEpochs, timeline: timeline, date: date, interval: interval)),
            ("epoch-file", NightPageText.chart(epochFile(), epochs: nil, timeline: timeline, date: date, interval: interval)),
            ("dst-spring", NightPageText.chart(spring, epochs: nil, timeline: DSTChartTests.spring, date: CivilDate(year: 2024, month: 3, day: 30), interval: interval)),
            ("dst-autumn", NightPageText.chart(autumn, epochs: nil, timeline: DSTChartTests.autumn, date: CivilDate(year: 2024, month: 10, day: 26), interval: interval)),
            ("comparison", comparisonChart()),
            ("no-data", MovementChart(title: "Night without data", yAxisLabel: "mg", series: [], sleepPeriod: nil)),
        ]
    }

    static func blandAltmanCharts() -> [(String, BlandAltmanChart)] {
        let points = (0..<14).map { (k: Int) -> BlandAltmanChart.Point in
            let mean: Double = 380 + Double((k * 37) % 90)
            let difference: Double = Double((k * 53) % 41) - 18
            return BlandAltmanChart.Point(mean: mean, difference: difference)
        }
        return [
            ("bland-altman", BlandAltmanChart(title: "TST: 20m − 10m, 14 nights", xAxisLabel: "mean of 10m and 20m (min)",
                                              yAxisLabel: "difference 20m − 10m (min)", points: points, bias: 1.6,
                                              lowerLimit: -22.4, upperLimit: 25.6)),
            ("bland-altman-empty", BlandAltmanChart(title: "SOL: 20m − 10m, 0 nights", xAxisLabel: "mean (min)", yAxisLabel: "difference (min)",
                                                    points: [], bias: nil, lowerLimit: nil, upperLimit: nil)),
        ]
    }
}

/// SHA-256 (FIPS 180-4) of a byte string, in hex: names a rendering by its content
/// (`SHA256Digest`, the digest `sleepsta digest` uses).
enum SHA256Hex {
    static func hex(_ message: [UInt8]) -> String { SHA256Digest.hex(message) }

    /// The hash of a PNG's pixels (ARGB, row by row), not of its bytes: the same drawing encodes
    /// to other bytes under another zlib.
    static func pixels(_ png: [UInt8]) -> String? {
        guard let im = png.withUnsafeBytes({ gdImageCreateFromPngPtr(Int32($0.count), UnsafeMutableRawPointer(mutating: $0.baseAddress)) })
        else { return nil }
        defer { gdImageDestroy(im) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4 * Int(sleepsta_gd_width(im)) * Int(sleepsta_gd_height(im)))
        for y in 0..<sleepsta_gd_height(im) {
            for x in 0..<sleepsta_gd_width(im) {
                let c = UInt32(bitPattern: sleepsta_gd_truecolor_pixel(im, x, y))
                bytes.append(UInt8(truncatingIfNeeded: c >> 24))
                bytes.append(UInt8(truncatingIfNeeded: c >> 16))
                bytes.append(UInt8(truncatingIfNeeded: c >> 8))
                bytes.append(UInt8(truncatingIfNeeded: c))
            }
        }
        return hex(bytes)
    }
}

/// The drawing of each chart, pinned by the hash of its pixels. Drawn with the built-in bitmap
/// font (no font file), so that the hashes do not depend on FreeType's version or the fonts a
/// machine has. A changed hash means the charts look different: update it only for a change of
/// the drawing made on purpose, after looking at the new chart.
@Suite("Charts: the drawing pinned")
struct ChartGoldenTests {
    static let nightCharts: [String: String] = [
        "phone": "a908a721bad12d2350247f1f56f3d89141356b408a46755abf1de46b891bb927",
        "wearable": "353feb05f24ab18683108016e3266b43dff9507daac31ab6c673b1ca1265ad3a",
        "wearable-ggir": "88c20ccf90a03499bd176957aaec051bb5a2fd5b7de8b806a3368133e8b19f32",
        "epoch-file": "fe8e021b77603704e06df840144c4a5f0d6654f400c7d25da68c1cc71e7350ee",
        "dst-spring": "5d93368fdbe145195d73a89a52fef4b1bb811be5b3f2502ed124d76d72b02869",
        "dst-autumn": "ae8940eface96a54ca403690dc8ee63b491b9e152d2717fc2b6ad560797081d6",
        "comparison": "3d6cf53b36a080dcbca9cce445fde33e582dc1330ede1d023a44026493ea869e",
        "no-data": "4f5dc555f0a7f93205a1da1c5ab171e4a1420506d34b39e83556f79268791ca6",
    ]
    static let blandAltman: [String: String] = [
        "bland-altman": "4e12a238c10a32f06af8394faaa5a4cbc8a51488d4427d1870bb39b520bd7080",
        "bland-altman-empty": "e276fc845e23be33b84b7461b133474239b19abb8cbc1603112bbe32b692f412",
    ]

    @Test("SHA-256 of the standard test vectors")
    func sha256() {
        #expect(SHA256Hex.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Hex.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Hex.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("night charts: phone, wearable (sleepsta and GGIR), epoch file, DST spring and autumn, comparison, no data")
    func nightCharts() throws {
        let renderer = ChartRenderer(fontPath: nil)
        for (name, chart) in GoldenFixtures.charts() {
            let hash = try #require(SHA256Hex.pixels(renderer.png(chart)))
            #expect(hash == Self.nightCharts[name], "\(name): \(hash)")
        }
    }

    @Test("Bland–Altman plots, with nights and without")
    func blandAltmanCharts() throws {
        let renderer = BlandAltmanChartRenderer(fontPath: nil)
        for (name, chart) in GoldenFixtures.blandAltmanCharts() {
            let hash = try #require(SHA256Hex.pixels(renderer.png(chart)))
            #expect(hash == Self.blandAltman[name], "\(name): \(hash)")
        }
    }
}
