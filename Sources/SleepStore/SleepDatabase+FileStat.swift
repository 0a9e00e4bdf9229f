import GRDB
import SleepCore

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

/// What a stored recording's read depended on besides its content: the options a run compares
/// to know whether the file must be read again (`--kind`, counts for a counts-based algorithm,
/// `--tz` for a file that states no zone).
public struct StoredReadFacts: Sendable, Equatable {
    public var kind: RecordingKind
    public var activityCountsAttempted: Bool
    public var timeZone: String?
    public var timeZoneSource: TimeZoneSource
    /// Whether the recording's per-epoch milestone is older than this version's
    /// (``SleepDatabase/milestoneOutdated(contentHash:)``). Which methods need the current one
    /// is the caller's question.
    public var milestoneOutdated = false
    public init(kind: RecordingKind, activityCountsAttempted: Bool, timeZone: String?, timeZoneSource: TimeZoneSource) {
        self.kind = kind; self.activityCountsAttempted = activityCountsAttempted
        self.timeZone = timeZone; self.timeZoneSource = timeZoneSource
    }
}

extension SleepDatabase {
    /// The stat stored for the recording at `path` and the recording's kind; the stat is nil when
    /// none was stored for its current content (recordings from before migration v5-file-stat, or
    /// a row left by a recording since replaced). A recording row that breaks the store's rules is
    /// a ``StoredRowError`` naming it.
    public func storedFileStat(ofRecordingAt path: String) throws -> (stat: StoredFileStat?, facts: StoredReadFacts)? {
        try pool.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT r.kind, q.activity_counts IS NOT NULL AS counts_attempted, r.time_zone, r.time_zone_source,
                    \(Self.milestoneOutdatedSQL) AS milestone_outdated,
                    f.device, f.inode, f.size_bytes, f.mtime_ns, f.ctime_ns, f.verified_ns
                FROM recordings r LEFT JOIN recording_quality q ON q.recording_id = r.id LEFT JOIN file_stats f
                    ON f.path = r.path AND f.content_hash = r.content_hash AND f.size_bytes = r.size_bytes
                WHERE r.path = ?
                """, arguments: [path]) else { return nil }
            // The recording's kind and zone as sleepsta writes them, else an error naming the row.
            try Self.checked(Self.recordingColumns(row, ["kind", "time_zone", "time_zone_source"]), columns: StoredColumns(["recordings"], db: db),
                             table: "recordings", naming: "recording '\(PrintableText.escaped(path))'")
            var facts = StoredReadFacts(kind: try row.decode(forColumn: "kind"), activityCountsAttempted: row["counts_attempted"],
                                        timeZone: row["time_zone"], timeZoneSource: try row.decode(forColumn: "time_zone_source"))
            facts.milestoneOutdated = row["milestone_outdated"]
            guard let device: Int64 = row["device"], let inode: Int64 = row["inode"], let size: Int64 = row["size_bytes"],
                  let mtime: Int64 = row["mtime_ns"], let ctime: Int64 = row["ctime_ns"],
                  let verified: Int64 = row["verified_ns"] else { return (nil, facts) }
            return (StoredFileStat(device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), sizeBytes: size,
                                   modifiedNanoseconds: mtime, statusChangedNanoseconds: ctime, verifiedNanoseconds: verified), facts)
        }
    }

    /// Stores `stat` for the file at `path` whose content hash is `hash`. It counts only while the
    /// recording at `path` has that hash and that size (see ``storedFileStat(ofRecordingAt:)``).
    public func recordFileStat(_ stat: StoredFileStat, ofRecordingAt path: String, contentHash hash: String) throws {
        try pool.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO file_stats (path, content_hash, device, inode, size_bytes, mtime_ns, ctime_ns, verified_ns)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [path, hash, Int64(bitPattern: stat.device), Int64(bitPattern: stat.inode), stat.sizeBytes,
                                 stat.modifiedNanoseconds, stat.statusChangedNanoseconds, stat.verifiedNanoseconds])
        }
    }

    /// Forgets the stored stat of the file at `path` (the next run hashes it).
    public func forgetFileStat(ofRecordingAt path: String) throws {
        try pool.write { db in try db.execute(sql: "DELETE FROM file_stats WHERE path = ?", arguments: [path]) }
    }
}
