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
    /// - Parameter unreadable: receives each recording whose rows break the store's rules (naming
    ///   the recording and the table), which is left out; without it such a row is an error.
    public func recordingsWithRhythm(paths: Set<String>? = nil, unreadable: ((String) -> Void)? = nil) throws -> [RecordingWithRhythm] {
        try pool.read { try Self.recordingsWithRhythm($0, paths: paths, unreadable: unreadable) }
    }

    static func recordingsWithRhythm(_ db: Database, paths: Set<String>?, unreadable: ((String) -> Void)? = nil) throws -> [RecordingWithRhythm] {
        // Quality, warnings and rhythm come with the recordings: one query per kind of row, not one per recording.
        let request = RecordingRow.withDetails().including(optional: RecordingRow.rhythm).order(Column("path"))
        var rows: [Row] = []
        if let paths {
            // Chunks of bound parameters, well below SQLite's limit on variables per statement.
            let sorted = paths.sorted()
            for start in stride(from: 0, to: sorted.count, by: 500) {
                rows += try Row.fetchAll(db, request.filter(sorted[start..<min(start + 500, sorted.count)].contains(Column("path"))))
            }
        } else {
            rows = try Row.fetchAll(db, request)
        }
        let columns = try RecordingColumns(db)
        return try rows.compactMap { row in
            do {
                let details = try checkedRecording(row, columns: columns)
                // A recording without a rhythm row has an all-NULL scope (the LEFT JOIN's).
                let h = row.scopes["rhythm"].flatMap { $0.containsNonNullValue ? $0 : nil }
                return RecordingWithRhythm(recording: details.stored, rhythm: try h.flatMap(Self.rhythm),
                                           l5Start: h?["l5_start"], m10Start: h?["m10_start"])
            } catch let e as StoredRowError {
                guard let unreadable else { throw e }
                unreadable(e.message)
                return nil
            }
        }
    }

    /// A `recording_rhythm` row as a ``RecordingRhythm`` (nil for a status this version does not know).
    static func rhythm(_ h: Row) throws -> RecordingRhythm? {
        guard let status = (h["status"] as String?).flatMap(RecordingRhythm.Status.init(rawValue:)) else { return nil }
        var metrics: RestActivityMetrics? = nil
        if status == .computed {
            metrics = RestActivityMetrics(interdailyStability: h["interdaily_stability"], intradailyVariability: h["intradaily_variability"],
                                          l5: h["l5"], l5StartSecondsSinceMidnight: RecordingRhythm.seconds(clockText: h["l5_start"]),
                                          m10: h["m10"], m10StartSecondsSinceMidnight: RecordingRhythm.seconds(clockText: h["m10_start"]),
                                          relativeAmplitude: h["relative_amplitude"], options: .init())
        }
        var rhythm = RecordingRhythm(source: h["source"], status: status, statusReason: h["status_reason"], days: h["days"],
                                     metrics: metrics, sleepRegularityIndex: h["sleep_regularity_index"], startUTC: h["start_utc"],
                                     epochSeconds: h["epoch_seconds"], activity: BlobCodec.floats(h["activity_f32le"]),
                                     sleep: (h["sleep_u8"] as Data?).map(BlobCodec.labels), utcOffsetSeconds: 0)
        rhythm.nonWear = (h["nonwear_u8"] as Data?).map { $0.map { $0 != 0 } }
        return rhythm
    }
}

extension SleepDatabase {
    /// IS, IV and SRI of every recording whose rhythm was computed, by path, without the activity
    /// series (the index's participant table needs the numbers only).
    /// - Parameter unreadable: receives each rhythm row that breaks the store's rules, which is left
    ///   out; without it such a row is an error.
    public func rhythmNumbers(unreadable: ((String) -> Void)? = nil)
        throws -> [String: (interdailyStability: Double?, intradailyVariability: Double?, sleepRegularityIndex: Double?)] {
        try pool.read { try Self.rhythmNumbers($0, unreadable: unreadable) }
    }

    static func rhythmNumbers(_ db: Database, unreadable: ((String) -> Void)? = nil)
        throws -> [String: (interdailyStability: Double?, intradailyVariability: Double?, sleepRegularityIndex: Double?)] {
        var out: [String: (interdailyStability: Double?, intradailyVariability: Double?, sleepRegularityIndex: Double?)] = [:]
        let columns = try StoredColumns(["recordings", "recording_rhythm"], db: db)
        for row in try Row.fetchAll(db, sql: """
            SELECT r.path, h.interdaily_stability, h.intradaily_variability, h.sleep_regularity_index
            FROM recordings r JOIN recording_rhythm h ON h.recording_id = r.id WHERE h.status = ?
            """, arguments: [RecordingRhythm.Status.computed.rawValue]) {
            do { try checked(row, columns: columns, table: "recording_rhythm", naming: recordingName(row)) } catch let e as StoredRowError {
                guard let unreadable else { throw e }
                unreadable(e.message)
                continue
            }
            out[row["path"]] = (row["interdaily_stability"], row["intradaily_variability"], row["sleep_regularity_index"])
        }
        return out
    }
}
