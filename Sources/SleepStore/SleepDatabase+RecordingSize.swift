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
}
