import CGD
import Foundation
import Testing
import SleepCore
import SleepReport

@Suite("Charts and pages")
struct ReportTests {
    static func analysis() -> NightAnalysis {
        var intervals: [AnalyzedInterval] = []
        for k in 0..<48 {
            let start = Int64(1_718_398_800 + k * 600)
            let value = k % 7 == 3 ? 0.9 : 0.1 + Double(k % 3) * 0.02
            intervals.append(AnalyzedInterval(
                movement: IntervalMovement(startUTC: start, endUTC: start + 600, movementSum: value * 10, legacyMovementSum: value * 12,
                                           coverageSeconds: k == 20 ? 0 : 600),
                state: value > 0.5 ? .wake : .sleep, phase: value > 0.5 ? .awake : (k % 3 == 0 ? .deep : .light)))
        }
        let m = NightSummaryMetrics(resolutionSeconds: 600, inBedStartUTC: 1_718_398_800, inBedEndUTC: 1_718_427_600,
                                    sleepOnsetUTC: 1_718_400_000, wakeTimeUTC: 1_718_427_000, timeInBedMinutes: 480,
                                    sleepPeriodMinutes: 450, totalSleepTimeMinutes: 400, sleepOnsetLatencyMinutes: 20,
                                    wakeAfterSleepOnsetMinutes: 50, sleepEfficiencyPercent: 83.3, awakenings: 5,
                                    lightMinutes: 300, deepMinutes: 100, awakeMinutes: 50)
        return NightAnalysis(status: .scored, parameters: AnalysisParameters(), intervals: intervals, epochs: [],
                             wakeThreshold: 0.3, metrics: m)
    }

    @Test("the PNG is a valid image of the requested size with a visible line in the series colour")
    func pngHasLine() throws {
        let chart = MovementChart.night(Self.analysis(), timeline: .fixed(7200), title: "Night of 2024-06-14")
        let png = ChartRenderer().png(chart)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let im = try #require(png.withUnsafeBytes { gdImageCreateFromPngPtr(Int32($0.count), UnsafeMutableRawPointer(mutating: $0.baseAddress)) })
        defer { gdImageDestroy(im) }
        #expect(sleepsta_gd_width(im) == 1200 && sleepsta_gd_height(im) == 420)
        // Count pixels close to the first series colour (0, 114, 178) inside the plot area, per column.
        var linePixels = 0
        var columnsWithLine = Set<Int32>()
        for x in Int32(90)..<Int32(1170) {
            for y in Int32(50)..<Int32(330) {
                let c = sleepsta_gd_truecolor_pixel(im, x, y)
                let r = (c >> 16) & 0xFF, g = (c >> 8) & 0xFF, b = c & 0xFF
                if r < 60 && abs(g - 114) < 40 && abs(b - 178) < 40 { linePixels += 1; columnsWithLine.insert(x) }
            }
        }
        #expect(linePixels > 1500, "line pixels: \(linePixels)")
        // The line spans most of the night (it breaks only at the interval without data).
        #expect(columnsWithLine.count > 800, "columns: \(columnsWithLine.count)")
    }

    @Test("a long name in the index overview is shortened in the middle to fit its gutter; a short one is kept whole")
    func overviewLabelFits() {
        let r = ChartRenderer()
        let size = 17.0, width: Int32 = 480
        let long = "2024-06-14  participant-0042_wrist-left_axivity-ax3-serial-123456_2024-06-10.cwa"
        let shown = r.fitted(long, size: size, width: width)
        #expect(shown != long && shown.contains("…") && r.textWidth(shown, size: size) <= width)
        #expect(shown.hasPrefix("2024-06-14  partic") && shown.hasSuffix(".cwa"))
        #expect(r.textWidth(long, size: size) > width)
        let short = "2024-06-14  night.csv"
        #expect(r.fitted(short, size: size, width: width) == short)
        let overview = NightsOverview(title: "All 1 nights", rows: [.init(label: long, inBed: (36_000, 70_000), sleep: (40_000, 68_000), totalSleepMinutes: 420)])
        #expect(r.png(overview).count > 1000)
    }

    @Test("charts are deterministic: same input, same bytes")
    func deterministicPNG() {
        let chart = MovementChart.night(Self.analysis(), timeline: .fixed(7200), title: "t")
        #expect(ChartRenderer().png(chart) == ChartRenderer().png(chart))
    }

    @Test("every string from input is escaped in the night page")
    func escaping() {
        let input = NightReportInput(
            nightID: "n<1>", date: CivilDate(year: 2024, month: 6, day: 14), timeline: .fixed(7200), timeZoneName: "Europe/Berlin",
            recordingPath: "evil\"<script>alert(1)</script>.csv", recordingFormat: .samples(.rawCSV), dataFacts: [("a & b", "<i>x</i>")],
            warnings: ["<img src=x onerror=alert(1)>"], preBedSurvey: [("q<script>", "answer 'quoted' & <b>bold</b>")],
            postBedSurvey: [], analysis: Self.analysis(), sourceResolutionSeconds: 1)
        let page = HTMLPages.nightPage(input, chartFile: "movement.png")
        #expect(HTMLPages.ownScripts.allSatisfy { page.contains($0) })
        let html = HTMLPages.ownScripts.reduce(page) { $0.replacingOccurrences(of: $1, with: "") }
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("<b>bold"))
        #expect(html.contains("&lt;script&gt;"))
        #expect(html.contains("answer &#39;quoted&#39; &amp; &lt;b&gt;bold&lt;/b&gt;"))
        #expect(html.contains("Total sleep time (TST)"))
        #expect(html.contains("6 h 40 min"))
        let index = HTMLPages.indexPage([IndexRow(nightID: "n<1>", date: input.date, recordingPath: "a&b.csv", timeline: .fixed(0), analysis: nil)],
                                        parameters: AnalysisParameters())
        #expect(index.contains("n&lt;1&gt;") && index.contains("a&amp;b.csv") && !index.contains("n<1>"))
    }

    @Test("report files are written atomically and left alone when unchanged")
    func writer() throws {
        let dir = NSTemporaryDirectory() + "sleepsta-report-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/n/index.html"
        #expect(try ReportWriter.write("hello", to: path) == .written)
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.02)
        #expect(try ReportWriter.write("hello", to: path) == .unchanged)
        let after = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        #expect(before == after)
        #expect(try ReportWriter.write("changed", to: path) == .written)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/n") == ["index.html"])
    }

    @Test("axis ticks are round numbers covering the data")
    func ticks() {
        #expect(ChartRenderer.niceTicks(max: 1.32) == [0, 0.5, 1, 1.5])
        #expect(ChartRenderer.niceTicks(max: 0).count == 2)
        #expect(ChartRenderer.niceTicks(max: 73).last! >= 73)
    }
}
