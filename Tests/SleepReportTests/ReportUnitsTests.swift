import Foundation
import Testing
import SleepCore
import SleepReport

/// Issue 14 item 8: charts and pages give movement in mg; every number has its unit.
@Suite("Units on charts and pages")
struct ReportUnitsTests {
    @Test("the night chart plots mean acceleration in mg, and its axis says so")
    func chartInMilliG() {
        let a = ReportTests.analysis()
        let chart = MovementChart.night(a, timeline: .fixed(7200), title: "Night of 2024-06-14 · \(MovementUnits.meanAccelerationLabel) per 10m interval")
        #expect(chart.yAxisLabel == "mean acceleration (mg)")
        #expect(chart.title.contains(chart.yAxisLabel))
        for (point, iv) in zip(chart.series[0].points, a.intervals) {
            let expected = iv.movement.movementPerMinute.map { $0 / 60 * 1000 }
            #expect(point.value == expected)
        }
        // Interval 0: 0.1 g·s/min ... as mg.
        #expect(abs(chart.series[0].points[0].value! - a.intervals[0].movement.movementPerMinute! / 60 * 1000) < 1e-9)
    }

    @Test("the night page: the interval table in mg, the wake threshold with its unit, no g·s/min left")
    func pageUnits() {
        let a = ReportTests.analysis()
        let input = NightReportInput(nightID: "n", date: CivilDate(year: 2024, month: 6, day: 14), timeline: .fixed(7200), timeZoneName: "Europe/Berlin",
                                     recordingPath: "r.csv", recordingFormat: .samples(.rawCSV), dataFacts: [], warnings: [], preBedSurvey: [],
                                     postBedSurvey: [], analysis: a, sourceResolutionSeconds: 1)
        let html = HTMLPages.nightPage(input, chartFile: "movement.png")
        #expect(html.contains("<th>Mean acceleration (mg)</th>"))
        #expect(html.contains("<th>Movement sum (g·s)</th>"))
        #expect(!html.contains("g·s/min"))
        // 0.1 g·s/min = 1.67 mg (the first interval: movement sum 1.0 g·s over 600 s).
        #expect(html.contains("<td class=\"num\">1.000</td><td class=\"num\">1.67</td>"))
        #expect(html.contains("<td>Wake threshold used</td><td>0.3000 g·s (Oakley-weighted movement of a 60-s epoch)</td>"))
    }
}
