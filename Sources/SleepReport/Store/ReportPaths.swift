import Foundation

/// Every path in the reports folder that is written or removed, checked first. A name from the
/// store (a night id, a recording's folder) becomes a path only when it is a run of plain folder
/// names of the kind the naming code makes (ASCII letters, digits, `-`, `_`, `.`; not starting
/// with a dot), and the path, with symbolic links resolved, lies inside the resolved reports
/// folder. So a merged shard or a damaged store can never make `render` write, or `--prune`
/// delete, anywhere else; a reports folder that is itself a symbolic link still works.
public enum ReportPaths {
    public struct Outside: Error, CustomStringConvertible {
        var name: String
        var reason: String
        public var description: String { "'\(name)' \(reason): nothing is written or removed there" }
    }

    /// A folder name the naming code could have made: `[A-Za-z0-9._-]`, 1–200 bytes, not `.`-led.
    public static func isFolderName<S: StringProtocol>(_ name: S) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 200, name.first != "." else { return false }
        return name.unicodeScalars.allSatisfy { s in
            s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "-" || s == "_" || s == ".")
        }
    }

    /// `<reports>/<relative>` after checking every component of `relative` and that the path,
    /// links resolved, stays inside the reports folder.
    public static func path(_ relative: String, in reportsDirectory: String) throws(Outside) -> String {
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty, components.allSatisfy(isFolderName) else {
            throw Outside(name: relative, reason: "is not a folder name sleepsta makes (letters, digits, - _ .; no leading dot, no ..)")
        }
        let full = (reportsDirectory as NSString).appendingPathComponent(relative)
        let root = resolved(reportsDirectory)
        // The deepest part that exists decides where the path lands (a link anywhere in it counts).
        var probe = full
        while !FileManager.default.fileExists(atPath: probe) && probe.count > reportsDirectory.count {
            probe = (probe as NSString).deletingLastPathComponent
        }
        let landed = resolved(probe)
        guard landed == root || landed.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw Outside(name: relative, reason: "leads outside the reports folder (through a symbolic link to \(landed))")
        }
        return full
    }

    /// The folders of the reports folder that hold many pages (`participants/`, `recordings/`).
    public static let pageFolders = ["participants", "recordings"]

    /// A page folder that is not a real folder: a symbolic link (its pages would be refused, or
    /// land wherever it points, and the index would link to nothing) or a file.
    public struct PageFolderProblem: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String {
            "\(path) \(reason): the \((path as NSString).lastPathComponent) pages are written into a real folder there and linked from the index; "
                + "nothing was rendered (remove or rename it, then render again)"
        }
    }

    /// Each of ``pageFolders`` in `reportsDirectory` is absent (created when a page is written) or a
    /// real folder, not a symbolic link (`lstat`: the link itself, wherever it points) or a file.
    public static func checkPageFolders(in reportsDirectory: String) throws(PageFolderProblem) {
        for name in pageFolders {
            let path = (reportsDirectory as NSString).appendingPathComponent(name)
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFDIR: continue
            case S_IFLNK:
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                throw PageFolderProblem(path: path, reason: "is a symbolic link (to \(target)), not a folder")
            default:
                throw PageFolderProblem(path: path, reason: "is not a folder")
            }
        }
    }

    static func resolved(_ path: String) -> String {
        guard let r = realpath(path, nil) else { return (path as NSString).standardizingPath }
        defer { free(r) }
        return String(cString: r)
    }
}
