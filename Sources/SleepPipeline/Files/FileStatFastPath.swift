import SleepCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SleepIngest
import SleepStore

/// When a nightly run may take a file for unchanged without reading it: the content hash
/// (BLAKE3 over every byte) is the recording's identity, but re-hashing unchanged
/// files every night costs seconds per large file. Like git's index, the store keeps each
/// recording's `stat` from the last time its hash was verified, and the hash is skipped when the
/// file's stat still matches it — with git's "racily clean" rule on top.
///
/// The file is taken for unchanged **without hashing** only when all of these hold:
/// - a recording is stored at the same relative path, with a stat stored by this version
///   (migration v5-file-stat);
/// - device, inode, size, modification time and status-change time (`ctime`, both to the
///   nanosecond) all equal the stored ones;
/// - the stored `ctime` and `mtime` are more than ``racyMarginNanoseconds`` (2 s) older than the
///   moment the verifying hash began. A write always sets `ctime` to the current time (and `touch`
///   or `utimensat` cannot set it back), so once the stored `ctime` is safely in the past any later
///   write, truncation, rename-over or `touch -d` gives the file another `ctime` (or inode). The
///   margin covers file systems that keep times to the second or to 2 s (FAT) and a write landing
///   in the same clock tick as the hash;
/// - `--rehash` was not given, and `--kind` (if given) is the stored kind.
///
/// Otherwise the full hash runs, exactly as before: a new path, a moved or copied file, any stat
/// difference, a file changed in the 2 s before its hash began, recordings stored by older
/// versions, and every file under `--rehash`. A full hash that finds the file unchanged stores its
/// new stat (so a freshly copied file is hashed on its first two runs, then skipped).
///
/// What the rule trusts: that the kernel updates `ctime` on every change of content, which POSIX
/// requires and local Linux file systems do. For a network or FUSE file system that does not, or
/// after the system clock was set back past a file's last change, run with `--rehash`.
package struct FileStatFastPath {
    package static let racyMarginNanoseconds: Int64 = 2_000_000_000

    /// The margin in force (tests set 0 so that a file written a moment ago can take the fast path).
    var racyMarginNanoseconds: Int64 = FileStatFastPath.racyMarginNanoseconds

    /// Wall-clock time now, in ns since 1970.
    static func nowNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// What to store after a hash that began at `verifiedNanoseconds` with the file as `seen`.
    static func stored(_ seen: FileStability, verifiedNanoseconds: Int64) -> StoredFileStat {
        StoredFileStat(device: seen.device, inode: seen.inode, sizeBytes: seen.sizeBytes,
                       modifiedNanoseconds: seen.modifiedNanoseconds, statusChangedNanoseconds: seen.statusChangedNanoseconds,
                       verifiedNanoseconds: verifiedNanoseconds)
    }

    /// Whether the file, now as `current`, is the one whose hash was verified with `stored`.
    package func isUnchanged(_ current: FileStability, stored: StoredFileStat) -> Bool {
        guard current.device == stored.device, current.inode == stored.inode, current.sizeBytes == stored.sizeBytes,
              current.modifiedNanoseconds == stored.modifiedNanoseconds,
              current.statusChangedNanoseconds == stored.statusChangedNanoseconds else { return false }
        // Racily clean: changed in the margin before the hash began, a later write in the same tick
        // could have kept both times.
        let settled = stored.verifiedNanoseconds - racyMarginNanoseconds
        return stored.statusChangedNanoseconds < settled && stored.modifiedNanoseconds < settled
    }

    package init(racyMarginNanoseconds: Int64 = FileStatFastPath.racyMarginNanoseconds) {
        self.racyMarginNanoseconds = racyMarginNanoseconds
    }
}

extension Pipeline {
    /// Whether the file at `relativePath`, now as `current`, can be taken for its stored recording
    /// without hashing (``FileStatFastPath``).
    func unchangedByStat(_ current: FileStability, relativePath: String, db: SleepDatabase) throws -> Bool {
        guard !configuration.rehash,
              let stored = try storingRow({ try db.storedFileStat(ofRecordingAt: relativePath) }), let stat = stored.stat
        else { return false }
        // (Whether the file holds raw samples is not known before its head is read: assume it does.)
        if ReadAgain.reason(stored.facts, configuration: configuration, isSamples: true) != nil { return false }
        guard FileStatFastPath(racyMarginNanoseconds: configuration.statRacyMarginNanoseconds).isUnchanged(current, stored: stat)
        else { return false }
        logger.debug("\(relativePath): unchanged (size, mtime, ctime, inode as stored; not hashed)")
        return true
    }

    /// After a hash that began at `hashBegan` with the file as `before` matched the recording at
    /// `relativePath`: stores that stat for the next run's fast path, if the file is still as it was.
    func rememberStat(_ before: FileStability, hashBegan: Int64, path: String, relativePath: String, contentHash: String,
                      db: SleepDatabase) throws {
        guard (try? before.requireUnchanged(path: path)) != nil else { return }
        try storing { try db.recordFileStat(FileStatFastPath.stored(before, verifiedNanoseconds: hashBegan),
                                            ofRecordingAt: relativePath, contentHash: contentHash) }
    }
}
