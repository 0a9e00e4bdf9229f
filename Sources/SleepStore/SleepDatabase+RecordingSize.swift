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

    /// The kind (``RecordingKind`` raw value) of the recording with this content, if stored.
    public func recordingKind(contentSHA256 sha: String) throws -> String? {
        try pool.read { db in
            try String.fetchOne(db, sql: "SELECT kind FROM recordings WHERE content_sha256 = ?", arguments: [sha])
        }
    }

    /// The zone (nil: UTC offsets only) and its source of the recording with this content, if stored.
    public func recordingTimeZone(contentSHA256 sha: String) throws -> (zone: String?, source: String)? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT time_zone, time_zone_source FROM recordings WHERE content_sha256 = ?",
                             arguments: [sha]).map { (zone: $0["time_zone"], source: $0["time_zone_source"]) }
        }
    }
}
