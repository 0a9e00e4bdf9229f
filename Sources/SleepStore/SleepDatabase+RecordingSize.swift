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
    public func recording(contentSHA256 sha: String) throws -> (recording: StoredRecording, activityCountsAttempted: Bool)? {
        try pool.read { db in
            try Row.fetchOne(db, sql: """
                SELECT *, json_extract(quality_json, '$.activityCounts') IS NOT NULL AS counts_attempted
                FROM recordings WHERE content_sha256 = ?
                """, arguments: [sha]).map { (Self.storedRecording($0), $0["counts_attempted"]) }
        }
    }
}
