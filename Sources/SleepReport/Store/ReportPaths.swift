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

    static func resolved(_ path: String) -> String {
        guard let r = realpath(path, nil) else { return (path as NSString).standardizingPath }
        defer { free(r) }
        return String(cString: r)
    }
}
