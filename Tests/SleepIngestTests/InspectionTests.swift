import Foundation
import Testing
@testable import SleepCore
@testable import SleepIngest

@Suite("sleepsta inspect")
struct InspectionTests {
    @Test("inspect reports format, device, rate, span, zone, units and QC of a device file")
    func deviceFile() throws {
        let i = try RecordingInspector.inspect(path: Fixture.path("spec_activity12.gt3x"), options: IngestOptions())
        #expect(i.format == "actigraph-gt3x" && i.content == "raw-samples")
        #expect(i.device == "ActiGraph GT3XPlus NEO1F99999999, firmware 3.2.1")
        #expect(i.resolution == "30 Hz" && i.valueCount == 7200)
        #expect(i.firstLocal == "2024-06-14T22:50:00+02:00" && i.endLocal == "2024-06-14T22:54:00+02:00")
        #expect(i.timeZone == "UTC+02:00" && i.timeZoneSource == "data")
        #expect(i.units == "g" && i.gravity == "included")
        let text = RecordingInspector.text(i)
        for expected in ["format", "device", "time span", "time zone", "QC: sample rate", "QC: clipped samples", "QC: idle sleep filled"] {
            #expect(text.contains(expected), "\(expected) missing in\n\(text)")
        }
        #expect(text.contains("15 of 7200"))          // clipped
        #expect(text.contains("idle sleep filled") && text.contains("30 s"))
        let decoded = try JSONDecoder().decode(RecordingInspection.self, from: Data(RecordingInspector.json(i).utf8))
        #expect(decoded == i)
    }

    @Test("inspect describes interval-total formats without a sample rate")
    func appExport() throws {
        let i = try RecordingInspector.inspect(path: Fixture.path("spec_sleep-export.csv"), options: IngestOptions())
        #expect(i.content == "interval-totals" && i.resolution == "300-s totals")
        #expect(i.quality.contains { $0.label == "events" && $0.value.contains("DEEP_START ×1") })
        #expect(!i.quality.contains { $0.label == "sample rate" })
    }

    /// Every file of the seven ../shared/external folders is inspected. Raw-sample files must read;
    /// the rest must read with an epoch reader or fail with an error naming the file (reference
    /// tables that are not recordings, or formats whose reader is missing).
    @Test("inspect runs over every file of ../shared/external",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func externalFolders() throws {
        let root = try #require(ExternalData.root)
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).filter {
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path, isDirectory: &directory) && directory.boolValue
        }.sorted()
        #expect(folders.count == 7)
        var read = 0, total = 0
        for folder in folders {
            let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            var files: [String] = []
            while let item = walker?.nextObject() as? String {
                var directory: ObjCBool = false
                let full = root.appendingPathComponent(folder).appendingPathComponent(item).path
                if FileManager.default.fileExists(atPath: full, isDirectory: &directory), !directory.boolValue { files.append(item) }
            }
            for file in files.sorted() {
                let path = root.appendingPathComponent(folder).appendingPathComponent(file).path
                total += 1
                do {
                    let i = try RecordingInspector.inspect(path: path, options: IngestOptions())
                    read += 1
                    print("INSPECT \(folder)/\(file): \(i.format), \(i.resolution), \(i.valueCount) values, \(i.firstLocal ?? "-") to \(i.endLocal ?? "-")")
                } catch {
                    #expect(error.file == path, "\(error)")
                    #expect(!error.message.isEmpty)
                    print("INSPECT \(folder)/\(file): FAILED \(error.message)")
                }
            }
        }
        ReferenceReport.record("sleepsta inspect over ../shared/external (files read)", matched: read, total: total,
                               note: "the others are listed as INSPECT … FAILED")
        // The raw-sample files of the external data must read.
        for raw in ["agcounts_link_100hz/example.gt3x", "agcounts_link_100hz/example_raw_100hz_pygt3x.csv"] {
            #expect(throws: Never.self) { _ = try RecordingInspector.inspect(path: root.appendingPathComponent(raw).path, options: IngestOptions()) }
        }
    }
}
