import Foundation
import Testing
import SleepCore
import SleepReport

/// No control or bidirectional character from input reaches a page raw (``PageLibrary``).
@Suite("Pages print input printably")
struct PrintablePageTests {
    /// A right-to-left override (`gnp.csv` would show as `vsc.png`), an isolate, a bell and a NUL.
    static let hostile = "\u{202E}gnp.csv \u{2066}x\u{2069} \u{7}\u{0}"

    /// The scalars of `html` that ``PrintableText`` escapes, but for line breaks and tabs.
    static func raw(_ html: String) -> [String] {
        html.unicodeScalars.filter { $0 != "\n" && $0 != "\t" && PrintableText.firstControl(in: String($0)) != nil }
            .map { String($0.value, radix: 16) }
    }

    @Test("survey answers and questions, a file's comment among the night's facts and a warning quoting a serial are escaped on the night page")
    func nightPage() {
        let input = NightReportInput(
            nightID: "n", date: CivilDate(year: 2024, month: 6, day: 14), timeline: .fixed(7200), timeZoneName: "Europe/Berlin",
            recordingPath: "a.csv", recordingFormat: .samples(.rawCSV), dataFacts: [("Comment", Self.hostile)],
            warnings: ["serial NEO\u{202E}1 is not a GT3X+"], preBedSurvey: [("mood", Self.hostile)],
            postBedSurvey: [(Self.hostile, "4")], analysis: ReportTests.analysis(), sourceResolutionSeconds: 1)
        let html = HTMLPages.nightPage(input, chartFile: "movement.png")
        #expect(Self.raw(html).isEmpty, "\(Self.raw(html))")
        #expect(html.contains("\\u{202E}gnp.csv") && html.contains("serial NEO\\u{202E}1") && html.contains("\\0"))
    }

    @Test("the recording page's warnings, facts (the device's serial) and reason are escaped too")
    func recordingPage() {
        let input = RecordingReportInput(path: "r.gt3x", format: "actigraph-gt3x", kind: "wearable-24h", kindReason: Self.hostile, timeZone: "UTC",
                                         facts: [("Device", "ActiGraph GT3XPlus NEO\u{202E}1")], warnings: [Self.hostile],
                                         rhythm: nil, averages: NightMetricAverages.compute([]), nights: [], actogramFile: nil)
        let html = HTMLPages.recordingPage(input)
        #expect(Self.raw(html).isEmpty, "\(Self.raw(html))")
        #expect(html.contains("NEO\\u{202E}1"))
    }

    @Test("every string of a context, however deep, is made printable; line breaks and tabs stay, flags and numbers are kept")
    func contextWalk() throws {
        let context: [String: Any] = ["a": "x\u{202E}", "rows": [["b": "\u{1B}[2J", "n": 3]], "flag": true, "list": ["line\nbreak\t"]]
        let walked = try #require(PageLibrary.printable(context) as? [String: Any])
        #expect(walked["a"] as? String == "x\\u{202E}")
        #expect((walked["rows"] as? [Any])?.first.flatMap { ($0 as? [String: Any])?["b"] as? String } == "\\u{1B}[2J")
        #expect((walked["rows"] as? [Any])?.first.flatMap { ($0 as? [String: Any])?["n"] as? Int } == 3)
        #expect(walked["flag"] as? Bool == true)
        #expect((walked["list"] as? [Any])?.first as? String == "line\nbreak\t")
    }
}
