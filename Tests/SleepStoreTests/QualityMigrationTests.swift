import Foundation
import GRDB
import Testing
import SleepCore
import SleepStore

/// Migration v9: the quality facts leave `recordings.quality_json` for the typed columns of
/// `recording_quality`, and every reader of the store gets them back as one ``QualitySummary``.
@Suite("Migration v9: quality facts in typed columns")
struct QualityMigrationTests {
    let path = NSTemporaryDirectory() + "sleepsta-v9-\(UUID().uuidString).sqlite"

    /// A wearable's summary with every kind of fact: counts, rates, optional device facts, the
    /// calibration's three-axis offset and scale, texts.
    static var wearable: QualitySummary {
        var q = QualitySummary()
        q.sampleCount = 60_480_000; q.effectiveSampleRateHz = 100.00001; q.coveredSeconds = 604_800; q.spanSeconds = 604_800
        q.gapCount = 2; q.gapTotalSeconds = 7300; q.longestGapSeconds = 7200; q.duplicateTimestamps = 3
        q.nominalSampleRateHz = 100; q.sampleRateDriftPercent = -0.0125; q.hourlyRateMinHz = 99.5; q.hourlyRateMaxHz = 100.25
        q.deviceRangeG = 8; q.clippedSamples = 15; q.idleSleepSecondsFilled = 30; q.skippedBlocks = 1
        q.stillPeriods = 4; q.stillSeconds = 20_000; q.longestStillSeconds = 9000
        q.calibration = "applied (20110 still 10-s windows over 168 h; GGIR: recalibration done)"
        q.calibrationErrorBeforeMilliG = 23.456789; q.calibrationErrorAfterMilliG = 0.123
        q.calibrationOffsetG = [0.03, -0.02, 0.05]; q.calibrationScale = [1.02, 0.98, 1.01]
        q.activityCounts = "computed as ActiLife does"; q.wearableEpochs = 120_960; q.nonWearSeconds = 3600; q.nonWearPeriods = 1
        return q
    }

    func recording(_ hash: String, path: String, quality: QualitySummary) -> StoredRecording {
        StoredRecording(path: path, contentHash: hash, format: .samples(.axivityCWA), sizeBytes: 10, sampleCount: 3, effectiveSampleRateHz: 1,
                        firstUTC: 0, endUTC: 3, timeZone: "Europe/Berlin", timeZoneSource: .option, units: "g", gravity: .included,
                        quality: quality, warnings: [])
    }

    @Test("a summary stored and read back is the same, every fact typed")
    func roundTrip() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let db = try SleepDatabase(path: path)
        try db.replaceRecording(recording("blake3:aa", path: "w.cwa", quality: Self.wearable), runID: nil) { _ in }
        try db.replaceRecording(recording("blake3:bb", path: "p.csv", quality: QualitySummary()), runID: nil) { _ in }
        #expect(try db.recording(contentHash: "blake3:aa")?.recording.quality == Self.wearable)
        #expect(try db.recording(contentHash: "blake3:aa")?.activityCountsAttempted == true)
        #expect(try db.recording(contentHash: "blake3:bb")?.recording.quality == QualitySummary())
        #expect(try db.recording(contentHash: "blake3:bb")?.activityCountsAttempted == false)
        let row = try #require(try db.query("SELECT calibration_offset_g_y, clipped_samples, nominal_sample_rate_hz FROM recording_quality WHERE clipped_samples IS NOT NULL").first)
        #expect(row["calibration_offset_g_y"] == "-0.02" && row["clipped_samples"] == "15" && row["nominal_sample_rate_hz"] == "100.0")
        // Gone with its recording.
        try db.replaceRecording(recording("blake3:cc", path: "w.cwa", quality: QualitySummary()), runID: nil) { _ in }
        #expect(try db.query("SELECT COUNT(*) AS n FROM recording_quality")[0]["n"] == "2")
    }

    @Test("an older database's JSON facts move to the typed columns, facts it lacks are not measured, the JSON column is gone")
    func migratesStoredJSON() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        // What sleepsta stored before migration v9: the summary as JSON text in `recordings`.
        try SleepDatabase.createSchema(path: path, upTo: "v8-content-hash-blake3")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(Self.wearable), as: UTF8.self)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for (id, hash, quality) in [(1, "blake3:aa", json), (2, "sha256:bb", #"{"sampleCount":5,"effectiveSampleRateHz":1,"coveredSeconds":5,"spanSeconds":5,"gapCount":0,"gapTotalSeconds":0,"longestGapSeconds":0,"duplicateTimestamps":0}"#)] {
                try db.execute(sql: """
                    INSERT INTO recordings (id, path, content_hash, format, size_bytes, sample_count, effective_rate_hz, first_utc, end_utc,
                        time_zone, time_zone_source, units, gravity, quality_json, warnings_json, kind, kind_reason)
                    VALUES (?, ?, ?, 'axivity-cwa', 10, 3, 1, 0, 3, NULL, 'data', 'g', 'included', ?, '[]', 'wearable-24h', '')
                    """, arguments: [id, "r\(id).cwa", hash, quality])
            }
        }
        try queue.close()
        let db = try SleepDatabase(path: path)
        #expect(try db.recording(contentHash: "blake3:aa")?.recording.quality == Self.wearable)
        var old = QualitySummary()
        old.sampleCount = 5; old.effectiveSampleRateHz = 1; old.coveredSeconds = 5; old.spanSeconds = 5
        #expect(try db.recording(contentHash: "sha256:bb")?.recording.quality == old)
        #expect(try db.recording(contentHash: "sha256:bb")?.activityCountsAttempted == false)
        #expect(try db.query("SELECT name FROM pragma_table_info('recordings') WHERE name = 'quality_json'").isEmpty)
    }
}
