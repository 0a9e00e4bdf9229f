#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files under a data folder that are not recordings and must not be read as such: the study
/// file's `ignore` globs and `--ignore`, plus the files a study names that may sit among the
/// recordings (the study file itself, its diary and participants table).
///
/// The globs follow `.gitignore`'s two cases, which researchers know from version control: a
/// pattern without `/` matches a file or folder name at any depth (`*.pdf`, `backup`); one with
/// `/` matches the path from the data folder (`old/*`, `S01/raw.csv`), `*` not crossing a `/`
/// (POSIX `fnmatch` with `FNM_PATHNAME`). A matching folder is skipped whole.
public struct IgnorePatterns: Sendable, Equatable {
    public var globs: [String]
    /// Exact relative paths.
    public var paths: Set<String>

    public init(globs: [String] = [], paths: Set<String> = []) {
        self.globs = globs.map { g in
            var g = g
            while g.hasPrefix("./") { g.removeFirst(2) }
            while g.hasPrefix("/") { g.removeFirst() }
            while g.hasSuffix("/") && g.count > 1 { g.removeLast() }
            return g
        }
        self.paths = paths
    }

    public var isEmpty: Bool { globs.isEmpty && paths.isEmpty }

    /// Whether `relativePath` (whose last component is `name`) is ignored.
    public func matches(_ relativePath: String, name: String) -> Bool {
        if paths.contains(relativePath) { return true }
        for g in globs {
            let subject = g.contains("/") ? relativePath : name
            if fnmatch(g, subject, FNM_PATHNAME) == 0 { return true }
        }
        return false
    }

    /// The path of `file` relative to `folder`, when it lies inside it (both as given, made absolute
    /// against the working directory): how a study's own files are recognised in its data folder.
    public static func relativePath(of file: String, inside folder: String) -> String? {
        func absolute(_ p: String) -> [Substring] {
            var base = ""
            if !p.hasPrefix("/"), let cwd = getcwd(nil, 0) {   // allocated by getcwd, of any length
                base = String(cString: cwd)
                free(cwd)
            }
            var parts: [Substring] = []
            for part in (base + "/" + p).split(separator: "/") {
                if part == "." { continue }
                if part == ".." { _ = parts.popLast() } else { parts.append(part) }
            }
            return parts
        }
        let f = absolute(file), d = absolute(folder)
        guard f.count > d.count, Array(f.prefix(d.count)) == d else { return nil }
        return f.dropFirst(d.count).joined(separator: "/")
    }
}
