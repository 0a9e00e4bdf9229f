import CGD
import Foundation
import Testing
import SleepCore
import SleepReport

/// Issue 14 item 3: charts of DST nights run on elapsed time, labelled with the local clock.
@Suite("DST nights: elapsed-time charts and UTC offsets")
struct DSTChartTests {
    /// Europe/Berlin around the spring (2024-03-31) and autumn (2024-10-27) changes, both at 01:00 UTC.
    static let spring = UTCOffsetTimeline(initialOffsetSeconds: 3600, transitions: [.init(utcSecond: 1_711_846_800, offsetSeconds: 7200)])
    static let autumn = UTCOffsetTimeline(initialOffsetSeconds: 7200, transitions: [.init(utcSecond: 1_729_990_800, offsetSeconds: 3600)])

    /// A scored night of 10-min intervals over the whole night window, local noon to local noon.
    static func night(date: CivilDate, timeline: UTCOffsetTimeline) -> (NightWindow, NightAnalysis) {
        let window = NightSplitter.window(for: date, timeline: timeline)
        var intervals: [AnalyzedInterval] = []
        var start = window.startUTC
        var k = 0
        while start < window.endUTC {
            let value = k % 9 == 4 ? 0.8 : 0.1 + Double(k % 4) * 0.03
            intervals.append(AnalyzedInterval(
                movement: IntervalMovement(startUTC: start, endUTC: start + 600, movementSum: value * 10, legacyMovementSum: value * 10,
                                           coverageSeconds: 600),
                state: value > 0.5 ? .wake : .sleep, phase: value > 0.5 ? .awake : (k % 2 == 0 ? .deep : .light)))
            start += 600; k += 1
        }
        let on = window.startUTC + 10 * 3600, off = window.endUTC - 4 * 3600
        let m = NightSummaryMetrics(resolutionSeconds: 600, inBedStartUTC: on - 1800, inBedEndUTC: off + 600,
                                    sleepOnsetUTC: on, wakeTimeUTC: off, timeInBedMinutes: Double(off - on) / 60 + 40,
                                    sleepPeriodMinutes: Double(off - on) / 60, totalSleepTimeMinutes: Double(off - on) / 60 - 40,
                                    sleepOnsetLatencyMinutes: 30, wakeAfterSleepOnsetMinutes: 40, sleepEfficiencyPercent: 85,
                                    awakenings: 4, lightMinutes: 200, deepMinutes: 200, awakeMinutes: 40)
        return (window, NightAnalysis(status: .scored, parameters: AnalysisParameters(), intervals: intervals, epochs: [],
                                      wakeThreshold: 0.3, metrics: m))
    }

    static func axis(_ chart: MovementChart) -> (start: Int64, end: Int64, ticks: [(x: Int64, label: String)]) {
        let points = chart.series.flatMap(\.points)
        return MovementChart.axis(xStart: points.map(\.startLocal).min()!, xEnd: points.map(\.endLocal).max()!, clock: chart.clock)
    }

    @Test("spring night: 23 h of elapsed time, every interval equally wide, no 02:00 on the axis")
    func springNight() throws {
        let (window, analysis) = Self.night(date: CivilDate(year: 2024, month: 3, day: 30), timeline: Self.spring)
        #expect(window.durationSeconds == 23 * 3600)
        let chart = MovementChart.night(analysis, timeline: Self.spring, title: "Night of 2024-03-30")
        let points = chart.series[0].points
        // Elapsed time: no interval bridges the skipped hour (on a local-clock axis one was 70 min wide).
        #expect(points.allSatisfy { $0.endLocal - $0.startLocal == 600 })
        #expect(zip(points, points.dropFirst()).allSatisfy { $0.endLocal == $1.startLocal })
        let axis = Self.axis(chart)
        #expect(axis.end - axis.start == 23 * 3600)
        let labels = axis.ticks.map(\.label)
        #expect(!labels.contains("02:00"), "\(labels)")
        #expect(labels == ["12:00", "14:00", "16:00", "18:00", "20:00", "22:00", "00:00", "04:00", "06:00", "08:00", "10:00", "12:00"])
        // 00:00 CET and 04:00 CEST are three hours of clock but two of elapsed time apart.
        let midnight = try #require(axis.ticks.first { $0.label == "00:00" }), four = try #require(axis.ticks.first { $0.label == "04:00" })
        #expect(four.x - midnight.x == 3 * 3600)
        #expect(zip(axis.ticks, axis.ticks.dropFirst()).allSatisfy { $0.x < $1.x })
        #expect(MovementChart.clockChanges(start: axis.start, end: axis.end, clock: chart.clock).map(\.label) == ["clocks forward 1 h at 02:00"])
        try Self.writePNG(chart, "spring")
    }

    @Test("autumn night: 25 h of elapsed time, 02:00 twice in order, the line never runs backwards")
    func autumnNight() throws {
        let (window, analysis) = Self.night(date: CivilDate(year: 2024, month: 10, day: 26), timeline: Self.autumn)
        #expect(window.durationSeconds == 25 * 3600)
        let chart = MovementChart.night(analysis, timeline: Self.autumn, title: "Night of 2024-10-26")
        let mids = chart.series[0].points.map { ($0.startLocal + $0.endLocal) / 2 }
        #expect(zip(mids, mids.dropFirst()).allSatisfy { $0 < $1 })
        let axis = Self.axis(chart)
        #expect(axis.end - axis.start == 25 * 3600)
        let labels = axis.ticks.map(\.label)
        #expect(labels == ["12:00", "14:00", "16:00", "18:00", "20:00", "22:00", "00:00", "02:00", "02:00", "04:00", "06:00", "08:00", "10:00", "12:00"])
        let twos = axis.ticks.filter { $0.label == "02:00" }
        #expect(twos.count == 2 && twos[1].x - twos[0].x == 3600)
        #expect(MovementChart.clockChanges(start: axis.start, end: axis.end, clock: chart.clock).map(\.label) == ["clocks back 1 h at 03:00"])
        try Self.writePNG(chart, "autumn")
    }

    @Test("a short night (hourly ticks) keeps 01:00 and 03:00 but no 02:00 in spring")
    func hourlyTicks() {
        // 23:00 CET to 05:00 CEST: five hours of elapsed time.
        let axis = MovementChart.axis(xStart: 1_711_836_000, xEnd: 1_711_854_000, clock: Self.spring)
        #expect(axis.ticks.map(\.label) == ["23:00", "00:00", "01:00", "03:00", "04:00", "05:00"])
        // Without a clock the x values are the local clock itself (charts built by hand keep working).
        let plain = MovementChart.axis(xStart: 3600 * 23, xEnd: 3600 * 26, clock: nil)
        #expect(plain.ticks.map(\.label) == ["23:00", "00:00", "01:00", "02:00"])
    }

    @Test("the interval table states each interval's UTC offset; the autumn 02:00 rows differ by it")
    func intervalTableOffsets() {
        let (window, analysis) = Self.night(date: CivilDate(year: 2024, month: 10, day: 26), timeline: Self.autumn)
        let input = NightReportInput(nightID: "n", date: window.date, timeline: Self.autumn, timeZoneName: "Europe/Berlin",
                                     recordingPath: "r.csv", recordingFormat: .samples(.rawCSV), dataFacts: [], warnings: [],
                                     preBedSurvey: [], postBedSurvey: [], analysis: analysis, sourceResolutionSeconds: 1)
        let html = HTMLPages.nightPage(input, chartFile: "movement.png")
        #expect(html.contains("<th>UTC offset</th>"))
        #expect(html.contains("<tr><td>02:00</td><td>+02:00</td>"))
        #expect(html.contains("<tr><td>02:00</td><td>+01:00</td>"))
    }

    /// Renders the chart (a valid PNG of the default size) and keeps it in the temporary folder to look at.
    static func writePNG(_ chart: MovementChart, _ name: String) throws {
        let png = ChartRenderer().png(chart)
        let im = try #require(png.withUnsafeBytes { gdImageCreateFromPngPtr(Int32($0.count), UnsafeMutableRawPointer(mutating: $0.baseAddress)) })
        gdImageDestroy(im)
        try Data(png).write(to: URL(fileURLWithPath: NSTemporaryDirectory() + "sleepsta-dst-\(name).png"))
    }
}
