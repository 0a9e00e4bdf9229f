import GRDB

/// A file's identity and times as `stat(2)` gave them when its content hash was verified, stored
/// on its recording so that a nightly run can tell an untouched file without reading it.
public struct StoredFileStat: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64
    public var sizeBytes: Int64
    public var modifiedNanoseconds: Int64
    public var statusChangedNanoseconds: Int64
    /// Wall-clock time (ns since 1970) taken before the hash that matched these values was begun.
    public var verifiedNanoseconds: Int64

    public init(device: UInt64, inode: UInt64, sizeBytes: Int64, modifiedNanoseconds: Int64,
                statusChangedNanoseconds: Int64, verifiedNanoseconds: Int64) {
        self.device = device; self.inode = inode; self.sizeBytes = sizeBytes
        self.modifiedNanoseconds = modifiedNanoseconds; self.statusChangedNanoseconds = statusChangedNanoseconds
        self.verifiedNanoseconds = verifiedNanoseconds
    }
}

extension SleepDatabase {
    /// The stat stored with the recording at `path` and the recording's kind; the stat is nil when
    /// none was stored (recordings from before migration v5-file-stat, until their next hash).
    public func storedFileStat(ofRecordingAt path: String) throws -> (stat: StoredFileStat?, kind: String)? {
        try pool.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT size_bytes, kind, stat_device, stat_inode, stat_mtime_ns, stat_ctime_ns, stat_verified_ns
                FROM recordings WHERE path = ?
                """, arguments: [path]) else { return nil }
            let kind: String = row["kind"]
            guard let device: Int64 = row["stat_device"], let inode: Int64 = row["stat_inode"],
                  let mtime: Int64 = row["stat_mtime_ns"], let ctime: Int64 = row["stat_ctime_ns"],
                  let verified: Int64 = row["stat_verified_ns"] else { return (nil, kind) }
            return (StoredFileStat(device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), sizeBytes: row["size_bytes"],
                                   modifiedNanoseconds: mtime, statusChangedNanoseconds: ctime, verifiedNanoseconds: verified), kind)
        }
    }

    /// Stores `stat` on the recording at `path` whose content hash is `sha` (both must match, so a
    /// stat is never attached to other content than the one hashed). The size is not written: it is
    /// the recording's `size_bytes`, and a stat of another size is not stored.
    public func recordFileStat(_ stat: StoredFileStat, ofRecordingAt path: String, contentSHA256 sha: String) throws {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE recordings SET stat_device = ?, stat_inode = ?, stat_mtime_ns = ?, stat_ctime_ns = ?, stat_verified_ns = ?
                WHERE path = ? AND content_sha256 = ? AND size_bytes = ?
                """, arguments: [Int64(bitPattern: stat.device), Int64(bitPattern: stat.inode), stat.modifiedNanoseconds,
                                 stat.statusChangedNanoseconds, stat.verifiedNanoseconds, path, sha, stat.sizeBytes])
        }
    }

    /// Forgets the stored stat of the recording at `path` (the next run hashes it).
    public func forgetFileStat(ofRecordingAt path: String) throws {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE recordings SET stat_device = NULL, stat_inode = NULL, stat_mtime_ns = NULL, stat_ctime_ns = NULL,
                    stat_verified_ns = NULL WHERE path = ?
                """, arguments: [path])
        }
    }
}
