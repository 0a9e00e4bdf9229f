import Foundation
import GRDB
import SleepCore

/// The rest-activity rhythm of each recording (`recording_rhythm`): written with the recording, in
/// its transaction; it depends on the data only, not on the analysis parameters.
extension SleepDatabase {
    static func insert(_ r: RecordingRhythm, recordingID: Int64, db: Database) throws {
        let m = r.metrics
        try db.execute(sql: """
            INSERT OR REPLACE INTO recording_rhythm (recording_id, source, epoch_seconds, days, status, status_reason,
                interdaily_stability, intradaily_variability, relative_amplitude, l5, l5_start, m10, m10_start,
                sleep_regularity_index, activity_f32le, start_utc, sleep_u8, nonwear_u8)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [recordingID, r.source, r.epochSeconds, r.days, r.status.rawValue, r.statusReason,
                             m?.interdailyStability, m?.intradailyVariability, m?.relativeAmplitude,
                             m?.l5, RecordingRhythm.clockText(m?.l5StartSecondsSinceMidnight),
                             m?.m10, RecordingRhythm.clockText(m?.m10StartSecondsSinceMidnight),
                             r.sleepRegularityIndex, BlobCodec.data(r.activity), r.startUTC,
                             r.sleep.map { BlobCodec.labels($0) }, r.nonWear.map { Data($0.map { $0 ? 1 : 0 }) }])
    }

    /// One stored recording with its rhythm.
    public struct RecordingWithRhythm: Sendable {
        public var recording: StoredRecording
        public var rhythm: RecordingRhythm?
        /// Seconds after midnight of L5 and M10 onsets as stored (`HH:MM`).
        public var l5Start: String?
        public var m10Start: String?
    }

    /// Every recording (by path) with its rhythm, if any.
    /// - Parameter paths: only the recordings at these paths (a nightly run renders the pages of the
    ///   recordings it touched: it must not read every recording's activity series); nil for all.
    public func recordingsWithRhythm(paths: Set<String>? = nil) throws -> [RecordingWithRhythm] {
        try pool.read { try Self.recordingsWithRhythm($0, paths: paths) }
    }

    static func recordingsWithRhythm(_ db: Database, paths: Set<String>?) throws -> [RecordingWithRhythm] {
        let select = """
            SELECT r.*, h.source AS h_source, h.epoch_seconds AS h_epoch, h.days AS h_days, h.status AS h_status,
                h.status_reason AS h_reason, h.interdaily_stability, h.intradaily_variability, h.relative_amplitude,
                h.l5, h.l5_start, h.m10, h.m10_start, h.sleep_regularity_index, h.activity_f32le, h.start_utc AS h_start, h.sleep_u8, h.nonwear_u8
            FROM recordings r LEFT JOIN recording_rhythm h ON h.recording_id = r.id
            """
        do {
            // Their warnings are fetched alongside: one query per query of recordings, not one per recording.
            var rows: [Row] = []
            var warnings: [Int64: [String]] = [:]
            if let paths {
                // Chunks of bound parameters, well below SQLite's limit on variables per statement.
                let sorted = paths.sorted()
                for start in stride(from: 0, to: sorted.count, by: 500) {
                    let chunk = Array(sorted[start..<min(start + 500, sorted.count)])
                    let inChunk = "r.path IN (" + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")"
                    rows += try Row.fetchAll(db, sql: select + " WHERE \(inChunk) ORDER BY r.path", arguments: StatementArguments(chunk))
                    warnings.merge(try Self.warningsByRecording(db, where: inChunk, arguments: StatementArguments(chunk))) { a, _ in a }
                }
            } else {
                rows = try Row.fetchAll(db, sql: select + " ORDER BY r.path")
                warnings = try Self.warningsByRecording(db)
            }
            return try rows.map { row in
                let recording = try Self.storedRecording(row, db, warnings: warnings[row["id"] as Int64] ?? [])
                var rhythm: RecordingRhythm? = nil
                if let status = (row["h_status"] as String?).flatMap(RecordingRhythm.Status.init(rawValue:)) {
                    var metrics: RestActivityMetrics? = nil
                    if status == .computed {
                        metrics = RestActivityMetrics(interdailyStability: row["interdaily_stability"], intradailyVariability: row["intradaily_variability"],
                                                      l5: row["l5"], l5StartSecondsSinceMidnight: RecordingRhythm.seconds(clockText: row["l5_start"]),
                                                      m10: row["m10"], m10StartSecondsSinceMidnight: RecordingRhythm.seconds(clockText: row["m10_start"]),
                                                      relativeAmplitude: row["relative_amplitude"],
                                                      options: .init())
                    }
                    rhythm = RecordingRhythm(source: row["h_source"], status: status, statusReason: row["h_reason"], days: row["h_days"],
                                             metrics: metrics, sleepRegularityIndex: row["sleep_regularity_index"], startUTC: row["h_start"],
                                             epochSeconds: row["h_epoch"], activity: BlobCodec.floats(row["activity_f32le"]),
                                             sleep: (row["sleep_u8"] as Data?).map(BlobCodec.labels), utcOffsetSeconds: 0)
                    rhythm?.nonWear = (row["nonwear_u8"] as Data?).map { $0.map { $0 != 0 } }
                }
                return RecordingWithRhythm(recording: recording, rhythm: rhythm, l5Start: row["l5_start"], m10Start: row["m10_start"])
            }
        }
    }
}

extension SleepDatabase {
    /// IS, IV and SRI of every recording whose rhythm was computed, by path, without the activity
    /// series (the index's participant table needs the numbers only).
    public func rhythmNumbers() throws -> [String: (interdailyStability: Double?, intradailyVariability: Double?, sleepRegularityIndex: Double?)] {
        try pool.read { try Self.rhythmNumbers($0) }
    }

    static func rhythmNumbers(_ db: Database) throws -> [String: (interdailyStability: Double?, intradailyVariability: Double?, sleepRegularityIndex: Double?)] {
        var out: [String: (interdailyStability: Double?, intradailyVariability: Double?, sleepRegularityIndex: Double?)] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT r.path, h.interdaily_stability, h.intradaily_variability, h.sleep_regularity_index
            FROM recordings r JOIN recording_rhythm h ON h.recording_id = r.id WHERE h.status = ?
            """, arguments: [RecordingRhythm.Status.computed.rawValue]) {
            out[row["path"]] = (row["interdaily_stability"], row["intradaily_variability"], row["sleep_regularity_index"])
        }
        return out
    }
}
