import Foundation
import Testing
import SleepCore
import SleepIngest

@Suite("App JSON export reader")
struct AppJSONReaderTests {
    let folder = TemporaryFolder()

    func read(_ text: String, tz: String? = nil) throws(IngestError) -> Recording {
        try AppJSONReader().read(path: folder.write("export.json", text), options: IngestOptions(timeZoneIdentifier: tz))
    }

    @Test("nights, interval totals spread over their seconds, surveys kept verbatim")
    func basic() throws {
        let r = try read("""
            {"timeZone": "Europe/Berlin", "nights": [{"id": "n1", "intervalSeconds": 600,
              "motionData": [{"motion": 60, "timestamp": 1718400600}, {"motion": 6, "timestamp": 1718401200}],
              "preBedSurvey": {"stress": 3, "note": "<b>tea</b> & honey", "napped": false},
              "postBedSurvey": [{"question": "rested", "answer": "4"}]}]}
            """)
        #expect(r.format == .appJSON)
        #expect(r.timeZoneSource == .data)
        let seg = r.segments[0]
        #expect(seg.label == "n1")
        #expect(seg.series.startSecond == 1_718_400_000)
        #expect(seg.series.count == 1200)
        #expect(seg.series.sourceResolutionSeconds == 600)
        #expect(abs(Double(seg.series.movement[0]) - 0.1) < 1e-7)
        #expect(abs(Double(seg.series.movement[700]) - 0.01) < 1e-7)
        let total = seg.series.movement.reduce(0.0) { $0 + Double($1) }
        #expect(abs(total - 66) < 1e-3)   // the app's totals are preserved
        #expect(seg.preBedSurvey.map(\.question) == ["napped", "note", "stress"])
        #expect(seg.preBedSurvey[1].answer == "<b>tea</b> & honey")
        #expect(seg.preBedSurvey[0].answer == "no")
        #expect(seg.postBedSurvey == [SurveyAnswer(question: "rested", answer: "4")])
    }

    @Test("a bare array of nights, interval inferred from the timestamps, milliseconds recognised")
    func bareArray() throws {
        let r = try read("""
            [{"motionData": [{"motion": 1, "timestamp": 1718400900000}, {"motion": 1, "timestamp": 1718401801000}, {"motion": 1, "timestamp": 1718402699000}]}]
            """)
        #expect(r.segments[0].series.sourceResolutionSeconds == 900)
        #expect(r.timeZoneSource == .assumedUTC)
    }

    @Test("bad exports name the place in the document", arguments: [
        ("", "empty file"),
        ("{\"nights\": []}", "no nights"),
        ("{\"nights\": [{\"motionData\": []}]}", "nights[0].motionData"),
        ("{\"nights\": [{\"motionData\": [{\"motion\": \"lots\", \"timestamp\": 1}]}]}", "motion"),
        ("{\"nights\": [{\"motionData\": [{\"motion\": 1}]}]}", "timestamp"),
        ("{\"nights\": [{\"motionData\": [{\"motion\": 1, \"timestamp\": 20}, {\"motion\": 1, \"timestamp\": 10}]}]}", "nights[0].motionData[1].timestamp"),
        ("{\"nights\": [{\"motionData\": [{\"motion\": -1, \"timestamp\": 20}]}]}", "nights[0].motionData[0].motion"),
        ("{\"timeZone\": \"Nowhere/City\", \"nights\": [{\"motionData\": [{\"motion\": 1, \"timestamp\": 20}]}]}", "unknown time zone"),
        ("{\"nights\": [", "not valid JSON"),
    ])
    func badInput(text: String, mention: String) {
        do {
            _ = try read(text)
            Issue.record("expected an error")
        } catch {
            #expect(error.file.hasSuffix("export.json"))
            #expect(error.description.contains(mention), "\(error.description)")
        }
    }
}

@Suite("Format detection")
struct FormatDetectionTests {
    let folder = TemporaryFolder()

    @Test("by name and first bytes")
    func detect() throws {
        #expect(try FormatDetector.reader(forPath: folder.write("a.csv", "1,2,3,4\n")) is RawCSVReader)
        #expect(try FormatDetector.reader(forPath: folder.write("a.json", " {\"nights\": []}")) is AppJSONReader)
        #expect(throws: IngestError.self) { try FormatDetector.reader(forPath: folder.write("b.csv", "a,b\n1,2\n")) }
        #expect(throws: IngestError.self) { try FormatDetector.reader(forPath: folder.write("c.json", "garbage")) }
        #expect(FormatDetector.isCandidate(fileName: "night.CSV"))
        #expect(!FormatDetector.isCandidate(fileName: ".hidden.csv"))
        #expect(!FormatDetector.isCandidate(fileName: "notes.txt"))
    }
}
