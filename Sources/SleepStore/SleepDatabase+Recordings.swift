import Foundation
import GRDB
import SleepCore

/// Recordings: stored (with their nights and analyses, in one transaction), found by content or
/// path, moved, their identity and size repaired, and removed (`prune`).
extension SleepDatabase {
    /// The id of a recording with this content hash, if stored.
    public func recordingID(contentHash hash: String) throws -> Int64? {
        try pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM recordings WHERE content_hash = ?", arguments: [hash])
        }
    }

    /// Records that a stored recording's file now lives at `newPath` (it was moved or renamed), so a
    /// later change to the file at its new path replaces the same nights.
    public func moveRecording(contentHash hash: String, to newPath: String) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE recordings SET path = ? WHERE content_hash = ?", arguments: [newPath, hash])
        }
    }

    /// Stores a recording with its nights and their analyses in one transaction, replacing any
    /// earlier recording at the same path (a changed file).
    @discardableResult
    public func replaceRecording(_ recording: StoredRecording, nights: [StoredNight], analyses: [String: NightAnalysis],
                                 runID: Int64?) throws -> Int64 {
        try replaceRecording(recording, runID: runID) { store in
            for night in nights { try store(night, analyses[night.id].map { [$0] } ?? []) }
        }
    }

    /// Inserts the recording, its quality row and its warnings' rows; returns the recording's id.
    @discardableResult
    static func insert(_ recording: StoredRecording, db: Database) throws -> Int64 {
        var row = RecordingRow(recording)
        try row.insert(db)
        let id = row.id!
        try RecordingQualityRow(recordingID: id, recording.quality).insert(db)
        for warning in RecordingWarningRow.rows(recording.warnings, recordingID: id) { try warning.insert(db) }
        return id
    }

    /// Stores a recording and the nights `produce` hands to its `store` closure, one at a time, each
    /// with its analyses, in one transaction (replacing any earlier recording at the same path or
    /// with the same content): memory holds one night, however many the recording has. A throw
    /// leaves nothing of it stored.
    @discardableResult
    public func replaceRecording(_ recording: StoredRecording, runID: Int64?, rhythm: RecordingRhythm? = nil,
                                 nights produce: (_ store: (StoredNight, [NightAnalysis]) throws -> Void) throws -> Void) throws -> Int64 {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM recordings WHERE path = ? OR content_hash = ?",
                           arguments: [recording.path, recording.contentHash])
            let recordingID = try Self.insert(recording, db: db)
            if let rhythm { try Self.insert(rhythm, recordingID: recordingID, db: db) }
            try produce { night, analyses in
                try Self.insert(night, recordingID: recordingID, db: db)
                for analysis in analyses { try Self.insert(analysis, nightID: night.id, runID: runID, db: db) }
            }
            return recordingID
        }
    }

    /// The recording a night came from; a row that breaks the store's rules is a ``StoredRowError``
    /// naming the recording and the table.
    public func recording(forNight nightID: String) throws -> StoredRecording? {
        try pool.read { db in
            try Self.checkedRecording(RecordingRow.withDetails().joining(required: RecordingRow.nights.filter(key: nightID)), db: db)?.stored
        }
    }

    /// The size in bytes of the recording stored under `path` (relative to the data folder), or nil
    /// when none is. The batch uses it to guess, before hashing, whether a file needs reading at all:
    /// a file whose size differs from the stored one has surely changed.
    public func storedSizeBytes(ofRecordingAt path: String) throws -> Int64? {
        try pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT size_bytes FROM recordings WHERE path = ?", arguments: [path])
        }
    }

    /// The recording stored with this content, if any (what the batch compares a hashed file with:
    /// its path, kind and zone), and whether ActiGraph counts were computed, or found not computable,
    /// when it was read (its quality record has `activityCounts`). A row that breaks the store's
    /// rules is a ``StoredRowError`` naming the recording and the table.
    public func recording(contentHash hash: String) throws -> (recording: StoredRecording, activityCountsAttempted: Bool)? {
        try pool.read { db in
            try Self.checkedRecording(RecordingRow.withDetails().filter(Column("content_hash") == hash), db: db)
                .map { ($0.stored, $0.quality?.activityCounts != nil) }
        }
    }

    /// Whether a recording of `sizeBytes` bytes (or of unknown size) still has the SHA-256
    /// identity stores held before migration v8-content-hash-blake3 (`content_hash` "sha256:…").
    /// Only then can a file of that size be such a recording (equal content, equal size), so only
    /// then does the batch hash it with SHA-256 as well as BLAKE3.
    public func holdsLegacyContentHash(sizeBytes: Int64) throws -> Bool {
        try pool.read { db in
            // A range on the UNIQUE index: "sha256;" is the first string after every "sha256:…".
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM recordings WHERE content_hash >= 'sha256:' AND content_hash < 'sha256;'
                                                         AND (size_bytes = ? OR size_bytes <= 0))
                """, arguments: [sizeBytes]) ?? false
        }
    }

    /// Replaces a recording's identity `old` with `new` (the same bytes under another hash: an old
    /// store's SHA-256 upgraded to BLAKE3), on the recording and on its stored file stat.
    public func replaceContentHash(_ old: String, with new: String) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE recordings SET content_hash = ? WHERE content_hash = ?", arguments: [new, old])
            try db.execute(sql: "UPDATE file_stats SET content_hash = ? WHERE content_hash = ?", arguments: [new, old])
        }
    }

    /// Sets the size of the recording with this content to `sizeBytes`, the size of a file just
    /// hashed to it (equal content, equal size). Stores written before the symbolic-link fix (commit
    /// 0c2575a) hold the link's own size for a recording reached through a link; the stat fast path
    /// joins on the size, so without this repair every nightly run hashed such a file again.
    public func correctSizeBytes(contentHash hash: String, to sizeBytes: Int64) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE recordings SET size_bytes = ? WHERE content_hash = ?", arguments: [sizeBytes, hash])
        }
    }

    /// Paths of every stored recording (relative to the data folder the batch ran over).
    public func recordingPaths() throws -> [String] {
        try pool.read { db in try String.fetchAll(db, sql: "SELECT path FROM recordings ORDER BY path") }
    }

    /// Removes the recording stored under `path` with its nights, series and analyses (one
    /// transaction); returns the ids of the nights it had, so their report folders can go too.
    @discardableResult
    public func deleteRecording(path: String) throws -> [String] {
        try pool.write { db in
            let nights = try NightRow.joining(required: NightRow.recording.filter(Column("path") == path))
                .select(Column("id"), as: String.self).order(Column("id")).fetchAll(db)
            try db.execute(sql: "DELETE FROM recordings WHERE path = ?", arguments: [path])
            return nights
        }
    }

    /// Every stored recording's path with the evening dates (`YYYY-MM-DD`) of its nights.
    public func nightDatesByRecordingPath() throws -> [String: Set<String>] {
        try pool.read { db in
            var result: [String: Set<String>] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT r.path, n.night_date FROM recordings r LEFT JOIN nights n ON n.recording_id = r.id") {
                let path: String = row["path"]
                var dates = result[path] ?? []
                if let date: String = row["night_date"] { dates.insert(date) }
                result[path] = dates
            }
            return result
        }
    }
}
