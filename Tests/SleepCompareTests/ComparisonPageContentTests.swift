import Foundation
import Testing
@testable import SleepCore
@testable import SleepPipeline
@testable import SleepStore

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
        #expect(onsetRow.contains("<td>clock time; differences in min</td>"))
        #expect(onsetRow.range(of: #"<td class="num">\d\d:\d\d</td><td class="num">\d\d:\d\d</td>"#, options: .regularExpression) != nil, "\(onsetRow)")
    }
}
