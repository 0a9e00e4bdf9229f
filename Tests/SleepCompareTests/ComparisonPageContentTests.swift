import Foundation
import Testing
import SleepCore
import SleepPipeline
import SleepStore
import SleepReport

/// Issue 14 item 7: the comparison page shows its Bland–Altman plots, onset and wake as clock
/// times, and a caution when there are too few nights for limits of agreement or ICC.
@Suite("Comparison page content", .serialized)
struct ComparisonPageContentTests {
    @Test("two nights: caution shown, every Bland–Altman plot inline, onset and wake means as clock times")
    func fewNights() throws {
        let w = CompareWorkspace()
        w.writeNights(seeds: [51, 52])
        try w.run()
        try w.compare()
        let page = try String(contentsOfFile: w.reports + "/compare-10m-15m/index.html", encoding: .utf8)
        #expect(page.contains("Only 2 nights: with fewer than 10"))
        let inline = page.components(separatedBy: "<figure><a href=\"bland-altman-15m-vs-10m-").count - 1
        #expect(inline == ComparedMetric.allCases.count, "\(inline) inline plots")
        // The onset row: its unit says clock time, its means are HH:MM.
        let onsetRow = try #require(page.components(separatedBy: "\n").first { $0.contains("(sleep_onset_min)</td>") })
        #expect(onsetRow.contains(#"<td data-label="Unit">clock time; differences in min</td>"#))
        #expect(onsetRow.range(of: #"<td class="num" data-label="Mean 10m">\d\d:\d\d</td><td class="num" data-label="Mean 15m">\d\d:\d\d</td>"#, options: .regularExpression) != nil, "\(onsetRow)")
    }
}

@Suite("Comparison overlay chart")
struct ComparisonOverlayChartTests {
    @Test("the overlay chart carries each length's sleep/wake strip, from its intervals' states")
    func strips() throws {
        let w = CompareWorkspace()
        w.writeNights(seeds: [51])
        try w.run()
        try w.compare()
        let db = try SleepDatabase(path: w.db)
        let night = try #require(try db.nightCatalog().first)
        var tenth = AnalysisParameters(); tenth.interval = .tenMinutes
        var fifteenth = AnalysisParameters(); fifteenth.interval = .fifteenMinutes
        let a10 = try #require(try db.analysis(nightID: night.nightID, parametersKey: tenth.key))
        let a15 = try #require(try db.analysis(nightID: night.nightID, parametersKey: fifteenth.key))
        let comparison = IntervalLengthComparison.compute(lengths: [.tenMinutes, .fifteenMinutes],
                                                          nights: [.init(nightID: night.nightID, windowStartUTC: night.window.startUTC, analyses: [a10, a15])])
        let chart = ComparisonPages.movementChart(comparison, index: 0, info: .init(date: night.date, timeline: night.timeline, recordingPath: "r"))
        #expect(chart.seriesSleepWake.count == 2)
        #expect(chart.seriesSleepWake[0].count == a10.intervals.filter { $0.state != nil }.count)
        #expect(chart.seriesSleepWake[1].allSatisfy { $0.end - $0.start == 900 })
        #expect(chart.seriesSleepWake[0].contains { $0.state == .wake } && chart.seriesSleepWake[0].contains { $0.state == .sleep })
        try Data(ChartRenderer().png(chart)).write(to: URL(fileURLWithPath: NSTemporaryDirectory() + "sleepsta-compare-strips.png"))
    }
}
