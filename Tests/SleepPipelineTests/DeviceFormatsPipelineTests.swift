import Foundation
import Logging
import Testing
@testable import SleepCore
@testable import SleepPipeline
@testable import SleepStore

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
        FileManager.default.createFile(atPath: w.data + "/" + name, contents: data)
    }

    @Test(".gt3x, .cwa.gz and GENEActiv .bin are ingested with their QC; a .cwa cut before its first complete block is refused whole")
    func deviceFiles() throws {
        let w = Workspace()
        try copy("spec_activity12.gt3x", to: "gt3x-night.gt3x", in: w)
        try copy("spec_ax3_packed.cwa.gz", to: "wrist.cwa.gz", in: w)
        try copy("spec_geneactiv.bin", to: "genea.bin", in: w)
        // Cut inside its first data block: nothing complete to salvage (a file cut later is read up
        // to its last complete block, see PeerTestFileTests), so it is refused whole.
        try copy("spec_ax3_packed.cwa", to: "cut.cwa", in: w, keep: 1024 + 100)
        let s = try w.run(tz: nil)
        #expect(s.filesSeen == 4)
        #expect(s.filesIngested == 3)
        #expect(s.failures.count == 1 && s.failures[0].error.contains("cut.cwa@") && s.failures[0].error.contains("truncated"), "\(s.failures)")
        let db = try SleepDatabase(path: w.db)
        let recordings = try db.query("SELECT path, format, quality_json FROM recordings ORDER BY path")
        #expect(recordings.map { $0["path"]! } == ["genea.bin", "gt3x-night.gt3x", "wrist.cwa.gz"])
        #expect(recordings.map { $0["format"]! } == ["geneactiv-bin", "actigraph-gt3x", "axivity-cwa"])
        let gt3xQuality = try #require(recordings[1]["quality_json"])
        #expect(gt3xQuality.contains("\"clippedSamples\":15") && gt3xQuality.contains("\"idleSleepSecondsFilled\":30"))
        // The night page shows the device facts.
        let night = try #require(try db.nightIDs().first { $0.hasPrefix("gt3x-night") })
        let page = try String(contentsOfFile: w.reports + "/\(night)/index.html", encoding: .utf8)
        #expect(page.contains("Clipped samples") && page.contains("Idle sleep filled") && page.contains("Sample rate (recording)"))
    }
}
