#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GRDB
import Testing
import SleepIngest
import SleepPipeline
import SleepStore

/// Issue 18, item 1: a nightly run takes an untouched file for unchanged from its stat, without
/// hashing it, and never takes a changed file for unchanged (``FileStatFastPath``).
@Suite("Hash fast path: size, times and inode instead of re-hashing", .serialized)
struct FileStatFastPathTests {
    static let evening: Int64 = 1_718_398_800   // 2024-06-14T23:00:00+02:00

    /// A run with the racily-clean margin set to `margin` (0: a file written a moment ago may take the fast path).
    func run(_ w: Workspace, margin: Int64 = 0, configure: (inout PipelineConfiguration) -> Void = { _ in }) throws -> RunSummary {
        try w.run { c in c.statRacyMarginNanoseconds = margin; configure(&c) }
    }

    func sha(_ w: Workspace, _ path: String) throws -> String? {
        try SleepDatabase(path: w.db).query("SELECT content_hash FROM recordings WHERE path = ?", [path]).first?["content_hash"]
    }

    @Test("an untouched file is taken for unchanged without hashing; the first run stores its stat")
    func untouchedFileSkipsTheHash() throws {
        let w = Workspace()
        w.write("night.csv", Workspace.phoneNight(startUTC: Self.evening, hours: 2))
        let first = try run(w)
        #expect(first.filesIngested == 1 && first.filesUnchangedByStat == 0)
        let stat = try SleepDatabase(path: w.db).storedFileStat(ofRecordingAt: "night.csv")?.stat
        #expect(stat != nil)
        let second = try run(w)
        #expect(second.filesUnchanged == 1 && second.filesUnchangedByStat == 1 && second.filesIngested == 0)
        #expect(second.failures.isEmpty)
    }

    @Test("a recording reached through a symbolic link stores its file's size (not the link's) and takes the fast path; an older store's link size is put right")
    func symbolicLink() throws {
        let w = Workspace()
        let target = w.root + "/elsewhere.csv"
        let text = Workspace.phoneNight(startUTC: Self.evening, hours: 2)
        _ = FileManager.default.createFile(atPath: target, contents: Data(text.utf8))
        try FileManager.default.createSymbolicLink(atPath: w.data + "/linked.csv", withDestinationPath: target)
        let first = try run(w)
        #expect(first.filesIngested == 1 && first.failures.isEmpty, "\(first.failures)")
        let size = try SleepDatabase(path: w.db).query("SELECT size_bytes FROM recordings WHERE path = 'linked.csv'").first?["size_bytes"]
        #expect(size == String(text.utf8.count))
        let second = try run(w)
        #expect(second.filesUnchanged == 1 && second.filesUnchangedByStat == 1 && second.filesIngested == 0)

        // A store from before the fix: the link's own size on the recording, no stat row. The next
        // run hashes the file, finds it unchanged and puts the file's size back; the run after
        // that takes the fast path again.
        let linkSize = try FileManager.default.attributesOfItem(atPath: w.data + "/linked.csv")[.size] as? Int
        #expect(linkSize != nil && linkSize != text.utf8.count)
        try DatabaseQueue(path: w.db).write { db in
            try db.execute(sql: "UPDATE recordings SET size_bytes = ? WHERE path = 'linked.csv'", arguments: [linkSize ?? 29])
            try db.execute(sql: "DELETE FROM file_stats WHERE path = 'linked.csv'")
        }
        let store = try SleepDatabase(path: w.db)
        let third = try run(w)
        #expect(third.filesUnchanged == 1 && third.filesUnchangedByStat == 0 && third.filesIngested == 0)
        let repaired = try store.query("SELECT size_bytes FROM recordings WHERE path = 'linked.csv'").first?["size_bytes"]
        #expect(repaired == String(text.utf8.count))
        let fourth = try run(w)
        #expect(fourth.filesUnchanged == 1 && fourth.filesUnchangedByStat == 1 && fourth.filesIngested == 0)
    }

    @Test("a file rewritten with the same size and its modification time put back is hashed and re-ingested")
    func sameSizeRewriteIsSeen() throws {
        let w = Workspace()
        let old = Workspace.phoneNight(startUTC: Self.evening, hours: 2)
        let new = old.replacingOccurrences(of: "0.0", with: "0.1")
        #expect(old.utf8.count == new.utf8.count && old != new)
        w.write("night.csv", old)
        let path = w.data + "/night.csv"
        #expect(try run(w).filesIngested == 1)
        let oldSHA = try sha(w, "night.csv")
        var st = stat()
        #expect(stat(path, &st) == 0)
        let mtime = st.st_mtim
        // Rewrite in place (same inode, same size) and set the modification time back, as a sync tool may.
        let fd = open(path, O_WRONLY)
        #expect(fd >= 0)
        _ = new.utf8CString.withUnsafeBufferPointer { pwrite(fd, $0.baseAddress, new.utf8.count, 0) }
        close(fd)
        var times = [mtime, mtime]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(after.st_size == st.st_size && after.st_ino == st.st_ino && after.st_mtim.tv_nsec == mtime.tv_nsec)

        let second = try run(w)
        #expect(second.filesIngested == 1 && second.filesUnchangedByStat == 0)
        #expect(try sha(w, "night.csv") != oldSHA)
        // Under the default 2-s margin the file, changed a moment ago, is hashed again (and found unchanged).
        let next = try run(w, margin: FileStatFastPath.racyMarginNanoseconds)
        #expect(next.filesUnchanged == 1 && next.filesUnchangedByStat == 0)
    }

    @Test("a file replaced by another one (write elsewhere, rename over) is hashed")
    func replacedFileIsHashed() throws {
        let w = Workspace()
        let content = Workspace.phoneNight(startUTC: Self.evening, hours: 2)
        w.write("night.csv", content)
        #expect(try run(w).filesIngested == 1)
        w.write("tmp.part", content)
        #expect(rename(w.data + "/tmp.part", w.data + "/night.csv") == 0)
        let second = try run(w)
        #expect(second.filesUnchanged == 1 && second.filesUnchangedByStat == 0)   // same bytes: hashed, found unchanged
        #expect(try run(w).filesUnchangedByStat == 1)                              // its new stat was stored
    }

    @Test("the full hash still runs: --rehash, another --kind, a file changed within the margin, recordings without a stored stat")
    func fullHashStillRuns() throws {
        let w = Workspace()
        w.write("night.csv", Workspace.phoneNight(startUTC: Self.evening, hours: 2))
        #expect(try run(w).filesIngested == 1)
        let rehashed = try run(w) { $0.rehash = true }
        #expect(rehashed.filesUnchanged == 1 && rehashed.filesUnchangedByStat == 0)
        // Changed less than the margin before its last hash began (an hour here): racily clean, hashed.
        let racy = try run(w, margin: 3_600_000_000_000)
        #expect(racy.filesUnchanged == 1 && racy.filesUnchangedByStat == 0)
        // As stored by an older version: hashed once, then the stat is there.
        try SleepDatabase(path: w.db).forgetFileStat(ofRecordingAt: "night.csv")
        #expect(try run(w).filesUnchangedByStat == 0)
        #expect(try run(w).filesUnchangedByStat == 1)
        // Another kind asked for: read again, as before.
        let other = try run(w) { $0.kindOverride = .wearable24h }
        #expect(other.filesIngested == 1 && other.filesUnchangedByStat == 0)
    }

    @Test("the rule itself: every stat field and the racy margin")
    func rule() {
        let verified: Int64 = 1_700_000_010_000_000_000
        let stored = StoredFileStat(device: 1, inode: 2, sizeBytes: 3, modifiedNanoseconds: 1_700_000_000_000_000_000,
                                    statusChangedNanoseconds: 1_700_000_000_000_000_001, verifiedNanoseconds: verified)
        let same = FileStability(device: 1, inode: 2, sizeBytes: 3, modifiedNanoseconds: stored.modifiedNanoseconds,
                                 statusChangedNanoseconds: stored.statusChangedNanoseconds)
        let rule = FileStatFastPath()
        #expect(rule.isUnchanged(same, stored: stored))
        var c = same; c.device = 9; #expect(!rule.isUnchanged(c, stored: stored))
        c = same; c.inode = 9; #expect(!rule.isUnchanged(c, stored: stored))
        c = same; c.sizeBytes = 9; #expect(!rule.isUnchanged(c, stored: stored))
        c = same; c.modifiedNanoseconds += 1; #expect(!rule.isUnchanged(c, stored: stored))
        c = same; c.statusChangedNanoseconds += 1; #expect(!rule.isUnchanged(c, stored: stored))
        // ctime 1 s before the hash began: within the 2-s margin, not trusted.
        var racy = stored; racy.statusChangedNanoseconds = verified - 1_000_000_000
        c = same; c.statusChangedNanoseconds = racy.statusChangedNanoseconds
        #expect(!rule.isUnchanged(c, stored: racy))
        var future = stored; future.modifiedNanoseconds = verified + 1   // mtime in the future (clock skew): hashed
        c = same; c.modifiedNanoseconds = future.modifiedNanoseconds
        #expect(!rule.isUnchanged(c, stored: future))
    }
}
