import GRDB

extension SleepDatabase {
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
    /// when it was read (its quality record has `activityCounts`).
    public func recording(contentHash hash: String) throws -> (recording: StoredRecording, activityCountsAttempted: Bool)? {
        try pool.read { db in
            try Row.fetchOne(db, sql: """
                SELECT r.*, q.activity_counts IS NOT NULL AS counts_attempted
                FROM recordings r LEFT JOIN recording_quality q ON q.recording_id = r.id WHERE r.content_hash = ?
                """, arguments: [hash]).map { (try Self.storedRecording($0, db), $0["counts_attempted"]) }
        }
    }
}

extension SleepDatabase {
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
}

extension SleepDatabase {
    /// Sets the size of the recording with this content to `sizeBytes`, the size of a file just
    /// hashed to it (equal content, equal size). Stores written before the symbolic-link fix (commit
    /// 0c2575a) hold the link's own size for a recording reached through a link; the stat fast path
    /// joins on the size, so without this repair every nightly run hashed such a file again.
    public func correctSizeBytes(contentHash hash: String, to sizeBytes: Int64) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE recordings SET size_bytes = ? WHERE content_hash = ?", arguments: [sizeBytes, hash])
        }
    }
}
