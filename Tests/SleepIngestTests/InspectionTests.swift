import Foundation
import Testing
import SleepCore
import SleepIngest

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

    @Test("inspect --json: samples and epochs as integers, the quality facts as numbers, the device from the device fields")
    func jsonNumbers() throws {
        let raw = try RecordingInspector.inspect(path: Fixture.path("spec_activity12.gt3x"), options: IngestOptions())
        let rawJSON = try #require(try JSONSerialization.jsonObject(with: Data(RecordingInspector.json(raw).utf8)) as? [String: Any])
        #expect(rawJSON["samples"] as? Int == 7200)
        #expect(rawJSON["epochs"] == nil)
        let rawNumbers = try #require(rawJSON["qualityNumbers"] as? [String: Any])
        #expect(rawNumbers["clippedSamples"] as? Double == 15)
        #expect(rawNumbers["idleSleepSecondsFilled"] as? Double == 30)
        #expect(rawNumbers["nominalSampleRateHz"] as? Double == 30)
        #expect(rawNumbers["coveredSeconds"] as? Double == Double(raw.qualityNumbers["spanSeconds"] ?? -1))

        let folder = TemporaryFolder()
        let path = folder.write("actilife.csv", bytes: EpochMutationSeeds.actiLifeCommas()[0])
        let epochs = try RecordingInspector.inspect(path: path, options: IngestOptions())
        #expect(epochs.device == "wGT3XBT #MOS0000000000")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(RecordingInspector.json(epochs).utf8)) as? [String: Any])
        #expect(json["epochs"] as? Int == 100 && json["epochSeconds"] as? Int == 5)
        #expect(json["samples"] == nil)
        #expect((json["qualityNumbers"] as? [String: Any])?["absentEpochs"] as? Double == 0)
        let decoded = try JSONDecoder().decode(RecordingInspection.self, from: Data(RecordingInspector.json(epochs).utf8))
        #expect(decoded == epochs)
    }

    @Test("inspect describes interval-total formats without a sample rate")
    func appExport() throws {
        let i = try RecordingInspector.inspect(path: Fixture.path("spec_sleep-export.csv"), options: IngestOptions())
        #expect(i.content == "interval-totals" && i.resolution == "300-s totals")
        #expect(i.quality.contains { $0.label == "events" && $0.value.contains("DEEP_START ×1") })
        #expect(!i.quality.contains { $0.label == "sample rate" })
    }

    /// The files of ../shared/external that are reference tables, not recordings (SOURCES.md):
    /// ActiGraph's filter-stage vectors (one float per line, no time), ActiLife's non-wear period
    /// lists, MMASH's sleep summary, activity log and user table, and the SRI hypnograms and
    /// published statistics. `inspect` must refuse these with an error naming the file.
    /// Recordings of the peer projects' test files in formats sleepsta does not read (yet): they
    /// must be refused with an error that names the file, like a reference table.
    static let unreadFormats: Set<String> = [
        "peer_test_files/ggirread/Actical.csv", "peer_test_files/ggirread/ax3test.wav",
        "peer_test_files/ggirread/genea_testfile.bin", "peer_test_files/ggirread/mtx_25Hz_acc_HR.BIN",
        "peer_test_files/pyactigraphy/test_sample_dqt.csv", "peer_test_files/pyactigraphy/test_sample_tal.txt",
    ]

    /// MMASH's tables beside each user's recording (`Actigraph.csv`): heart-rate beats, the sleep
    /// diary and the questionnaire, for every user the folder holds.
    static func isMMASHTable(_ name: String) -> Bool {
        let parts = name.split(separator: "/")
        return parts.count == 3 && parts[0] == "mmash" && parts[1].hasPrefix("user_")
            && ["Activity.csv", "sleep.csv", "user_info.csv"].contains(String(parts[2]))
    }

    static let referenceTables: Set<String> = [
        "actigraph_agcounts_filter_vectors/30Hz_output.csv", "actigraph_agcounts_filter_vectors/32Hz_input.csv",
        "actigraph_agcounts_filter_vectors/taso256HzLpf.csv", "actigraph_agcounts_filter_vectors/upsample256.csv",
        "actigraph_agcounts_filter_vectors/upsample256Lpf.csv",
        "actigraph_sleepr_actilife/GT3XPlus-RawData-Day01-Choi-periods.csv",
        "actigraph_sleepr_actilife/GT3XPlus-RawData-Day01-Troiano-periods.csv",
        "sri_tracker_vs_psg/evaluation_sri_full.json", "sri_tracker_vs_psg/sample_data_sri.csv",
    ]

    /// Every file of the eight ../shared/external folders is inspected: every recording (raw
    /// samples or epochs) must read, every reference table and every recording in a format not
    /// read yet (``unreadFormats``) must be refused with an error that names the file.
    @Test("inspect reads every recording of ../shared/external and refuses its reference tables by name",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func externalFolders() throws {
        let root = try #require(ExternalData.root)
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).filter {
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path, isDirectory: &directory) && directory.boolValue
        }.sorted()
        #expect(folders.count == 8)
        var recordingsRead = 0, recordings = 0, tablesRefused = 0, tables = 0, mmashTables = 0
        var foldersWithARecording = Set<String>()
        for folder in folders {
            let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            var files: [String] = []
            while let item = walker?.nextObject() as? String {
                var directory: ObjCBool = false
                let full = root.appendingPathComponent(folder).appendingPathComponent(item).path
                if FileManager.default.fileExists(atPath: full, isDirectory: &directory), !directory.boolValue { files.append(item) }
            }
            for file in files.sorted() {
                let name = "\(folder)/\(file)"
                let path = root.appendingPathComponent(name).path
                let isTable = Self.referenceTables.contains(name) || Self.isMMASHTable(name) || Self.unreadFormats.contains(name)
                if isTable { tables += 1 } else { recordings += 1 }
                if Self.isMMASHTable(name) { mmashTables += 1 }
                do {
                    let i = try RecordingInspector.inspect(path: path, options: IngestOptions())
                    #expect(!isTable, "\(name) is a reference table, yet it read as \(i.format)")
                    if !isTable { recordingsRead += 1; foldersWithARecording.insert(folder) }
                    print("INSPECT \(name): \(i.format), \(i.resolution), \(i.valueCount) values, \(i.firstLocal ?? "-") to \(i.endLocal ?? "-")")
                } catch {
                    #expect(isTable, "recording \(name) did not read: \(error)")
                    // MMASH's tables are told for what they are, not refused as unknown.
                    if Self.isMMASHTable(name) { #expect(error.notRecording != nil, "\(name): \(error)") }
                    #expect(error.file == path, "\(error)")
                    #expect(!error.message.isEmpty)
                    if isTable { tablesRefused += 1 }
                    print("INSPECT \(name): refused (\(isTable ? "reference table" : "RECORDING")): \(error.message)")
                }
            }
        }
        #expect(tables - mmashTables == Self.referenceTables.count + Self.unreadFormats.count, "a file listed here is missing from ../shared/external")
        #expect(mmashTables >= 6, "MMASH's tables of at least two users")
        ReferenceReport.record("sleepsta inspect: recordings of ../shared/external read", matched: recordingsRead, total: recordings,
                               note: "\(foldersWithARecording.count) of 8 folders hold a recording")
        ReferenceReport.record("sleepsta inspect: reference tables and unread formats of ../shared/external refused by name", matched: tablesRefused, total: tables)
    }
}
