import Foundation
import Logging
import Testing
import SleepCore
import SleepPipeline
import SleepStore

/// Device files through `run`: stored with their quality facts, shown on the night page; a
/// damaged device file is listed as failed and nothing of it is stored.
@Suite("Pipeline with device formats", .serialized)
struct DeviceFormatsPipelineTests {
    /// The spec-built files of SleepIngestTests (make_raw_fixtures.py).
    static let fixtures: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        url.deleteLastPathComponent()
        return url.appendingPathComponent("SleepIngestTests/Fixtures").path
    }()

    func copy(_ fixture: String, to name: String, in w: Workspace, keep: Int? = nil) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + fixture))
        if let keep { data = data.prefix(keep) }
        _ = FileManager.default.createFile(atPath: w.data + "/" + name, contents: data)
    }

    @Test(".gt3x, .cwa.gz and GENEActiv .bin are ingested with their QC; a .cwa cut short is salvaged up to its last whole block, with a warning")
    func deviceFiles() throws {
        let w = Workspace()
        try copy("spec_activity12.gt3x", to: "gt3x-night.gt3x", in: w)
        try copy("spec_ax3_packed.cwa.gz", to: "wrist.cwa.gz", in: w)
        try copy("spec_geneactiv.bin", to: "genea.bin", in: w)
        try copy("spec_ax3_packed.cwa", to: "cut.cwa", in: w, keep: 1024 + 512 * 20 + 7)
        let s = try w.run(tz: nil)
        #expect(s.filesSeen == 4)
        #expect(s.filesIngested == 4)
        #expect(s.failures.isEmpty, "\(s.failures)")
        let db = try SleepDatabase(path: w.db)
        let recordings = try db.query("""
            SELECT r.path, r.format, (SELECT group_concat(text, char(10)) FROM recording_warnings w WHERE w.recording_id = r.id) AS warnings, q.clipped_samples, q.idle_sleep_seconds_filled
            FROM recordings r JOIN recording_quality q ON q.recording_id = r.id ORDER BY r.path
            """)
        #expect(recordings.map { $0["path"]! } == ["cut.cwa", "genea.bin", "gt3x-night.gt3x", "wrist.cwa.gz"])
        #expect(recordings.map { $0["format"]! } == ["axivity-cwa", "geneactiv-bin", "actigraph-gt3x", "axivity-cwa"])
        #expect(recordings[0]["warnings"]!.contains("file ends inside data block"), "\(recordings[0]["warnings"]!)")
        #expect(recordings[2]["clipped_samples"] == "15" && recordings[2]["idle_sleep_seconds_filled"] == "30")
        // The night page shows the device facts.
        let night = try #require(try db.nightIDs().first { $0.hasPrefix("gt3x-night") })
        let page = try String(contentsOfFile: w.reports + "/\(night)/index.html", encoding: .utf8)
        #expect(page.contains("Clipped samples") && page.contains("Idle sleep filled") && page.contains("Sample rate (recording)"))
    }
}
