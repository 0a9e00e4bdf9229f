import Foundation
import SleepCore

/// A study file (`sleepsta.toml`): a study's protocol as a methods section cites it — data folder,
/// time zone, participants table, diary, night method, interval, files to ignore. `run` and
/// `nightly` read it from the data folder's root or from `--study FILE`; an option given on the
/// command line overrides its key (and the run says so).
///
/// Every key is the name of a `run` option without its dashes (`tz`, `interval`,
/// `wake-threshold`; `wake_threshold` is the same key), plus `title` and `ignore`. Paths are
/// relative to the study file's folder. An unknown key is refused with its line, so a typo never
/// silently leaves a default in force.
///
/// The file is TOML (toml.io, v1.0), read by ``StudyTOML``: the subset a protocol needs.
public struct StudyFile: Sendable, Equatable {
    /// A key's value as the file gives it.
    public enum Value: Sendable, Equatable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case strings([String])
    }

    /// What a key holds and what it means (the help and the manual list these).
    public struct Key: Sendable {
        public enum Kind: Sendable { case text, path, number, globs }
        public var name: String
        public var kind: Kind
        public var meaning: String
    }

    /// The keys a study file may hold, in the order the protocol file writes them.
    public static let keys: [Key] = [
        Key(name: "title", kind: .text, meaning: "the study's name, for the protocol file"),
        Key(name: "data", kind: .path, meaning: "folder of recordings (--data)"),
        Key(name: "db", kind: .path, meaning: "SQLite database (--db)"),
        Key(name: "reports", kind: .path, meaning: "reports folder (--reports)"),
        Key(name: "tz", kind: .text, meaning: "time zone of recordings that state none (--tz)"),
        Key(name: "interval", kind: .text, meaning: "interval length (--interval)"),
        Key(name: "metric", kind: .text, meaning: "phone movement formula (--metric)"),
        Key(name: "wake-threshold", kind: .number, meaning: "phone wake threshold factor (--wake-threshold)"),
        Key(name: "kind", kind: .text, meaning: "recording kind (--kind)"),
        Key(name: "sleep-algorithm", kind: .text, meaning: "sleep/wake scorer (--sleep-algorithm)"),
        Key(name: "method", kind: .text, meaning: "wrist night method (--method)"),
        Key(name: "units", kind: .text, meaning: "acceleration unit of raw CSVs (--units)"),
        Key(name: "diary", kind: .path, meaning: "sleep diary CSV (--diary)"),
        Key(name: "participants", kind: .path, meaning: "participants rule or table (--participants)"),
        Key(name: "min-valid-nights", kind: .number, meaning: "inclusion: fewest valid nights of a participant in Table 1 (--min-valid-nights)"),
        Key(name: "min-wear-hours", kind: .number, meaning: "inclusion: fewest hours worn of a valid night (--min-wear-hours)"),
        Key(name: "ignore", kind: .globs, meaning: "files under the data folder that are not recordings (--ignore)"),
    ]

    /// What a run records of the study file it read.
    public struct Stamp: Codable, Sendable, Equatable {
        public var path: String
        public var sha256: String
        public init(path: String, sha256: String) { self.path = path; self.sha256 = sha256 }
    }

    public var stamp: Stamp { Stamp(path: path, sha256: digest) }

    /// The file as given.
    public var path: String
    /// SHA-256 of the file's bytes: which version of the protocol a run used.
    public var digest: String
    /// The values by key (``Key/name``), paths resolved against the file's folder.
    public var values: [String: Value]
    /// The line each key was given on, for messages.
    public var lines: [String: Int]

    /// The longest study file read (a protocol is a page, not a data file).
    public static let maximumBytes = 256 * 1024

    /// The file's name at a data folder's root.
    public static let fileName = "sleepsta.toml"

    public static func read(path: String) throws(IngestError) -> StudyFile {
        try InputPreflight.check(path: path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw IngestError(file: path, message: "cannot read the study file")
        }
        guard data.count <= maximumBytes else {
            throw IngestError(file: path, message: "\(data.count) bytes: a study file is at most \(maximumBytes) bytes (is this the right file?)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw IngestError(file: path, message: "not UTF-8 text: a study file is TOML, which is UTF-8")
        }
        let entries = try StudyTOML.parse(text, path: path)
        var study = StudyFile(path: path, digest: SHA256Digest.hex(Array(data)), values: [:], lines: [:])
        let folder = (path as NSString).deletingLastPathComponent
        for entry in entries {
            let name = entry.key.replacingOccurrences(of: "_", with: "-")
            guard let key = keys.first(where: { $0.name == name }) else {
                throw IngestError(file: path, line: entry.line, message: "unknown key '\(entry.key)'\(suggestion(for: name)); a study file holds "
                                  + keys.map(\.name).joined(separator: ", "))
            }
            guard study.values[name] == nil else {
                throw IngestError(file: path, line: entry.line, message: "'\(name)' is given twice (first on line \(study.lines[name] ?? 0))")
            }
            study.values[name] = try checked(entry, key: key, folder: folder, path: path)
            study.lines[name] = entry.line
        }
        return study
    }

    /// The text of a key (a path resolved), nil when the file does not give it.
    public func text(_ key: String) -> String? {
        if case .string(let s)? = values[key] { return s }
        return nil
    }

    /// `where` for a message: the file and the key's line.
    public func place(_ key: String) -> String {
        "\(path) line \(lines[key] ?? 0) (\(key))"
    }

    private static func checked(_ entry: StudyTOML.Entry, key: Key, folder: String, path: String) throws(IngestError) -> Value {
        func refuse(_ expected: String) -> IngestError {
            IngestError(file: path, line: entry.line, message: "'\(key.name)' must be \(expected) (\(key.meaning))")
        }
        switch (key.kind, entry.value) {
        case (.text, .string(let s)):
            guard !s.isEmpty else { throw refuse("a non-empty string") }
            return .string(s)
        case (.path, .string(let s)):
            guard !s.isEmpty else { throw refuse("a non-empty path") }
            // A participants rule (file, folder, folder:N) is not a path.
            if key.name == "participants", s == "file" || s == "folder" || s.hasPrefix("folder:") { return .string(s) }
            return .string(s.hasPrefix("/") || folder.isEmpty ? s : folder + "/" + s)
        case (.number, .number(let n)):
            return .number(n)
        case (.globs, .strings(let g)):
            guard !g.contains(where: \.isEmpty) else { throw refuse("a list of non-empty glob patterns") }
            return .strings(g)
        case (.globs, .string(let s)) where !s.isEmpty:
            return .strings([s])
        case (.text, _): throw refuse("a string in quotes")
        case (.path, _): throw refuse("a path in quotes")
        case (.number, _): throw refuse("a number")
        case (.globs, _): throw refuse("a list of glob patterns in quotes, e.g. [\"*.pdf\", \"old/*\"]")
        }
    }

    /// " (did you mean 'tz'?)" for a key one or two edits from a known one.
    static func suggestion(for name: String) -> String {
        let near = keys.map { ($0.name, ZoneName.editDistance(Array(name), Array($0.name), bound: 2)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }
        return near.map { " (did you mean '\($0.0)'?)" } ?? ""
    }
}
