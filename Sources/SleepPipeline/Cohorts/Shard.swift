import SleepIngest
import SleepReport
import SleepIngest
import Foundation

/// One of N shards of a data folder (`--shard K/N`, 1-based): a run processes only the files
/// assigned to shard K, into its own database, so that N machines share a cohort without sharing
/// a database (SQLite is not for concurrent writers over a network file system).
///
/// The assignment is a pure function of the folder listing (relative paths and sizes), so every
/// task of an array computes the same partition without talking to the others:
/// 1. Files are grouped by recording stem (``NightNaming/recordingStem(_:)``): files that could
///    name the same night (`x.csv` and `x.csv.gz`) stay together, so night ids are assigned
///    exactly as in a single run.
/// 2. Groups are dealt largest first (bytes, then stem) to the shard with the fewest bytes so
///    far (the lowest index on a tie): the longest-processing-time rule, within 4/3 of the best
///    balance.
/// 3. Files that cannot even be listed (names that are not UTF-8) are shard 1's to report.
///
/// ``folderDigest(_:)`` (SHA-256 of the listing) is stored with each shard's run: `merge` refuses
/// shards whose tasks saw different folders, because then a file may be in two shards or none.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    public var index: Int
    public var count: Int

    /// Most shards of one cohort: far more Slurm tasks than any cohort needs, and small enough
    /// that the per-shard tables (`count` entries) never ask for much memory.
    public static let maximumCount = 10_000

    public init?(index: Int, count: Int) {
        guard count >= 1, count <= Self.maximumCount, (1...count).contains(index) else { return nil }
        self.index = index; self.count = count
    }

    /// `K/N` with 1 ≤ K ≤ N.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// The shard (1-based) of each file, in the order given. `files` are `(relativePath, sizeBytes)`.
    public static func assignment(of files: [(relativePath: String, sizeBytes: Int64)], count: Int) -> [Int] {
        var groups: [String: (bytes: Int64, members: [Int])] = [:]
        for (i, f) in files.enumerated() {
            let stem = NightNaming.recordingStem(f.relativePath)
            groups[stem, default: (0, [])].bytes += f.sizeBytes
            groups[stem, default: (0, [])].members.append(i)
        }
        let order = groups.sorted { a, b in a.value.bytes != b.value.bytes ? a.value.bytes > b.value.bytes : a.key < b.key }
        var load = [Int64](repeating: 0, count: count)
        var result = [Int](repeating: 1, count: files.count)
        for (_, group) in order {
            var target = 0
            for s in 1..<max(1, count) where load[s] < load[target] { target = s }
            load[target] += group.bytes
            for i in group.members { result[i] = target + 1 }
        }
        return result
    }

    /// SHA-256 (hex) of the sorted listing, one `path NUL size LF` per file.
    public static func folderDigest(_ files: [(relativePath: String, sizeBytes: Int64)]) -> String {
        let hasher = SHA256Digest()
        for f in files.sorted(by: { $0.relativePath < $1.relativePath }) {
            hasher.update(f.relativePath)
            hasher.update("\0\(f.sizeBytes)\n")
        }
        return hasher.hexDigest()
    }
}

/// What a sharded run records in its `runs` row (inside `parameters_json`), for `merge`.
public struct ShardStamp: Codable, Sendable, Equatable {
    public var index: Int
    public var count: Int
    /// ``Shard/folderDigest(_:)`` of the whole folder as this task listed it.
    public var folderDigest: String
    /// Files of the folder, and of this shard.
    public var folderFiles: Int
    public var shardFiles: Int
}

extension DataFolderScan {
    /// The part of the folder that `shard` processes (the whole scan when nil), and the stamp
    /// that its run records.
    func restricted(to shard: Shard?) -> (scan: DataFolderScan, stamp: ShardStamp?) {
        guard let shard else { return (self, nil) }
        let listing = files.map { (relativePath: $0.relativePath, sizeBytes: $0.sizeBytes) }
        let owners = Shard.assignment(of: listing, count: shard.count)
        var part = DataFolderScan()
        part.files = zip(files, owners).filter { $0.1 == shard.index }.map(\.0)
        part.problems = shard.index == 1 ? problems : []
        let stamp = ShardStamp(index: shard.index, count: shard.count, folderDigest: Shard.folderDigest(listing),
                               folderFiles: files.count, shardFiles: part.files.count)
        return (part, stamp)
    }
}
