import Foundation
import GRDB
import Testing
import SleepIngest
import SleepPipeline
import SleepStore

/// Issue 18, item 1: the content identity is BLAKE3 (``FileHashing``), checked against BLAKE3's
/// published test vectors, and a store from before migration v8 (SHA-256 identities) still knows
/// its recordings: unchanged, moved or copied files are not ingested again.
@Suite("Content identity: BLAKE3, and stores from before it", .serialized)
struct ContentHashTests {
    static let evening: Int64 = 1_718_398_800   // 2024-06-14T23:00:00+02:00

    /// The first 32 bytes of the `hash` of each case in BLAKE3's `test_vectors/test_vectors.json`
    /// (BLAKE3 1.8.6; CC0 / Apache 2.0). The input of length n is bytes 0, 1, …, 250, 0, 1, …
    static let vectors: [(length: Int, hash: String)] = [
        (0, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"),
        (1, "2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213"),
        (63, "e9bc37a594daad83be9470df7f7b3798297c3d834ce80ba85d6e207627b7db7b"),
        (64, "4eed7141ea4a5cd4b788606bd23f46e212af9cacebacdc7d1f4c6dc7f2511b98"),
        (65, "de1e5fa0be70df6d2be8fffd0e99ceaa8eb6e8c93a63f2d8d1c30ecb6b263dee"),
        (1023, "10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11"),
        (1024, "42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7"),
        (1025, "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444"),
        (2048, "e776b6028c7cd22a4d0ba182a8bf62205d2ef576467e838ed6f2529b85fba24a"),
        (3073, "7124b49501012f81cc7f11ca069ec9226cecb8a2c850cfe644e327d22d3e1cd3"),
        (8193, "bab6c09cb8ce8cf459261398d2e7aef35700bf488116ceb94a36d0f5f1b7bc3b"),
        (31744, "62b6960e1a44bcc1eb1a611a8d6235b6b4b78f32e7abc4fb4c6cdcce94895c47"),
        (102400, "bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085"),
    ]

    static func pattern(_ n: Int) -> [UInt8] { (0..<n).map { UInt8($0 % 251) } }

    @Test("BLAKE3 of BLAKE3's test vectors, in memory and from a file")
    func testVectors() throws {
        let dir = NSTemporaryDirectory() + "sleepsta-b3-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for v in Self.vectors {
            let bytes = Self.pattern(v.length)
            #expect(bytes.withUnsafeBytes { FileHashing.blake3(of: $0) } == "blake3:" + v.hash, "length \(v.length)")
            let path = dir + "/v\(v.length)"
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            #expect(try FileHashing.contentHash(path: path).blake3 == "blake3:" + v.hash, "file of length \(v.length)")
        }
    }

    @Test("a file over several read buffers hashes as its bytes do, and its SHA-256 is swift-crypto's")
    func acrossBuffers() throws {
        let path = NSTemporaryDirectory() + "sleepsta-b3-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = Self.pattern(3 * FileHashing.bufferBytes + 12_345)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let hashes = try FileHashing.contentHash(path: path, legacySHA256: true)
        #expect(hashes.blake3 == bytes.withUnsafeBytes { FileHashing.blake3(of: $0) })
        #expect(hashes.sha256 == "sha256:" + SHA256Digest.hex(Array(bytes)))
        // FIPS 180-4's own examples, so the digest is SHA-256 and not merely self-consistent.
        #expect(SHA256Digest.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try FileHashing.contentHash(path: path).sha256 == nil)
    }

    /// Turns the store in `w` back into what sleepsta stored before migration v8: column
    /// `content_sha256` holding the bare SHA-256 hex of each file, and v8 not applied.
    func makeStoreOld(_ w: Workspace) throws {
        let queue = try DatabaseQueue(path: w.db)
        try queue.write { db in
            for path in try String.fetchAll(db, sql: "SELECT path FROM recordings") {
                let sha = try #require(try FileHashing.contentHash(path: w.data + "/" + path, legacySHA256: true).sha256)
                try db.execute(sql: "UPDATE recordings SET content_hash = ? WHERE path = ?", arguments: [String(sha.dropFirst(7)), path])
                try db.execute(sql: "UPDATE file_stats SET content_hash = ? WHERE path = ?", arguments: [String(sha.dropFirst(7)), path])
            }
            try db.execute(sql: """
                ALTER TABLE recordings RENAME COLUMN content_hash TO content_sha256;
                ALTER TABLE file_stats RENAME COLUMN content_hash TO content_sha256;
                DELETE FROM grdb_migrations WHERE identifier = 'v8-content-hash-blake3';
                """)
        }
        try queue.close()
    }

    func identities(_ w: Workspace) throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try SleepDatabase(path: w.db).query("SELECT path, content_hash FROM recordings") {
            result[row["path"] ?? ""] = row["content_hash"]
        }
        return result
    }

    @Test("an old store's recordings keep their nights: unchanged, moved and copied files are not ingested again, and get BLAKE3 when hashed")
    func oldStoreUpgrades() throws {
        let w = Workspace()
        w.write("a.csv", Workspace.phoneNight(startUTC: Self.evening, hours: 3))
        w.write("b.csv", Workspace.phoneNight(startUTC: Self.evening + 86_400, hours: 2))
        let first = try w.run()
        #expect(first.filesIngested == 2)
        let blake3 = try identities(w)
        #expect(blake3.values.allSatisfy { $0.hasPrefix("blake3:") && $0.count == 7 + 64 }, "\(blake3)")
        let nightsBefore = try SleepDatabase(path: w.db).nightIDs().sorted()

        try makeStoreOld(w)
        let db = try SleepDatabase(path: w.db)   // migrates to v8 again
        #expect(try identities(w).values.allSatisfy { $0.hasPrefix("sha256:") })
        #expect(try db.holdsLegacyContentHash(sizeBytes: Int64(try Data(contentsOf: URL(fileURLWithPath: w.data + "/a.csv")).count)))
        #expect(try !db.holdsLegacyContentHash(sizeBytes: 7))

        // Untouched: the stat fast path, no hash; the old identity stays. (Margin 0: the files
        // were written a moment ago, which the racily-clean rule would otherwise hash.)
        let second = try w.run { $0.statRacyMarginNanoseconds = 0 }
        #expect(second.filesIngested == 0 && second.filesUnchangedByStat == 2, "\(second.failures)")
        #expect(try identities(w).values.allSatisfy { $0.hasPrefix("sha256:") })
        // Hashed (--rehash): recognised by SHA-256, not read again, and now known by BLAKE3.
        let third = try w.run { $0.rehash = true }
        #expect(third.filesIngested == 0 && third.filesUnchanged == 2 && third.failures.isEmpty)
        #expect(try identities(w) == blake3)

        // Back to old, then move a.csv and copy b.csv: the same recordings, no duplicates.
        try makeStoreOld(w)
        try FileManager.default.moveItem(atPath: w.data + "/a.csv", toPath: w.data + "/moved-a.csv")
        try FileManager.default.copyItem(atPath: w.data + "/b.csv", toPath: w.data + "/copy-of-b.csv")
        let fourth = try w.run()
        #expect(fourth.filesIngested == 0 && fourth.failures.isEmpty, "\(fourth.failures)")
        let after = try identities(w)
        #expect(after.count == 2 && after["moved-a.csv"] == blake3["a.csv"] && after["b.csv"] != nil, "\(after)")
        #expect(try SleepDatabase(path: w.db).nightIDs().sorted() == nightsBefore)
        #expect(try SleepDatabase(path: w.db).integrityCheck() == "ok")
    }
}
