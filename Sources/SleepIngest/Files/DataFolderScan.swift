#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The recordings under a data folder: every candidate file (by name) with its size, found by
/// walking the folder with `readdir`, so names are seen as the bytes they are.
///
/// Foundation's enumerator turns a file name that is not UTF-8 into a different string (with
/// U+FFFD), which then names no file; here such a name is reported as a problem of its own, with
/// its bytes shown, and the batch goes on. Hidden entries (`.name`) are skipped, symbolic links are
/// followed, and a folder reached twice (a link loop) is walked once.
public struct DataFolderScan: Sendable {
    public struct File: Equatable, Sendable {
        /// Path relative to the data folder, `/`-separated.
        public var relativePath: String
        public var sizeBytes: Int64
        public init(relativePath: String, sizeBytes: Int64) { self.relativePath = relativePath; self.sizeBytes = sizeBytes }
    }

    /// A candidate that cannot be processed before it is even opened (its name is not UTF-8).
    public struct Problem: Equatable, Sendable {
        public var relativePath: String
        public var message: String
    }

    /// The data folder itself cannot be listed: nothing of it can be processed.
    public struct Unlistable: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public var files: [File] = []
    public var problems: [Problem] = []
    /// Candidates and folders left out by the ignore patterns (``IgnorePatterns``), relative paths.
    public var ignored: [String] = []
    public init() {}
    public var totalBytes: Int64 { files.reduce(0) { $0 + $1.sizeBytes } }

    /// Walks `directory`. `excludedName` is the database's file name: the database, its `-wal`,
    /// `-shm` and `.lock` files are never candidates even when they sit in the data folder.
    /// `ignoring`: the study file's `ignore` globs and `--ignore` (``IgnorePatterns``).
    public static func scan(_ directory: String, excludedName: String, ignoring: IgnorePatterns = IgnorePatterns()) throws(Unlistable) -> DataFolderScan {
        var result = DataFolderScan()
        var visited = Set<FolderIdentity>()
        guard let root = identity(of: directory) else {
            throw Unlistable(description: "cannot list \(directory): \(String(cString: strerror(errno)))")
        }
        visited.insert(root)
        try walk(directory, prefix: "", excludedName: excludedName, ignoring: ignoring, visited: &visited, into: &result)
        result.files.sort { $0.relativePath < $1.relativePath }
        result.problems.sort { $0.relativePath < $1.relativePath }
        return result
    }

    struct FolderIdentity: Hashable { var device: UInt64; var inode: UInt64 }

    static func identity(of path: String) -> FolderIdentity? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FolderIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    private static func walk(_ directory: String, prefix: String, excludedName: String, ignoring: IgnorePatterns,
                             visited: inout Set<FolderIdentity>, into result: inout DataFolderScan) throws(Unlistable) {
        guard let dir = opendir(directory) else {
            if prefix.isEmpty { throw Unlistable(description: "cannot list \(directory): \(String(cString: strerror(errno)))") }
            result.problems.append(Problem(relativePath: prefix, message: "\(prefix): cannot list folder: \(String(cString: strerror(errno)))"))
            return
        }
        defer { closedir(dir) }
        var entries: [[UInt8]] = []
        while let entry = readdir(dir) {
            let nameBytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix(while: { $0 != 0 }))
            }
            if nameBytes.first == UInt8(ascii: ".") { continue }   // hidden, `.` and `..`
            entries.append(nameBytes)
        }
        for nameBytes in entries {
            let lossyName = String(decoding: nameBytes, as: UTF8.self)
            guard let name = String(validating: nameBytes, as: UTF8.self) else {
                // Only names that would be recordings matter; other odd files are not ours to judge.
                if FormatDetector.isCandidate(fileName: lossyName) {
                    let shown = nameBytes.map { $0 < 0x80 && $0 >= 0x20 ? String(UnicodeScalar($0)) : "\\x" + hex($0) }.joined()
                    result.problems.append(Problem(
                        relativePath: prefix + lossyName,
                        message: "\(prefix)\(shown): the file name is not valid UTF-8; rename the file (its path must be text to be stored and reported)"))
                }
                continue
            }
            let path = directory + "/" + name
            var st = stat()
            guard stat(path, &st) == 0 else { continue }   // a dangling link
            if ignoring.matches(prefix + name, name: name) {
                if (st.st_mode & S_IFMT) == S_IFDIR || FormatDetector.isCandidate(fileName: name) { result.ignored.append(prefix + name) }
                continue
            }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                let id = FolderIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
                guard visited.insert(id).inserted else { continue }
                try walk(path, prefix: prefix + name + "/", excludedName: excludedName, ignoring: ignoring, visited: &visited, into: &result)
                continue
            }
            guard (st.st_mode & S_IFMT) == S_IFREG, FormatDetector.isCandidate(fileName: name), !name.hasPrefix(excludedName) else { continue }
            result.files.append(File(relativePath: prefix + name, sizeBytes: Int64(st.st_size)))
        }
    }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
    }
}
