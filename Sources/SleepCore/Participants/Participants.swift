/// Who a recording belongs to: the unit of the index's participant table, the participant pages
/// and `export --what participants` (GGIR's person summary is per file in the same way).
public struct Participant: Sendable, Hashable, Comparable {
    public var id: String
    /// The group a participants table gives (empty: none).
    public var group: String
    public init(id: String, group: String = "") { self.id = id; self.group = group }
    public static func < (a: Participant, b: Participant) -> Bool { (a.group, a.id) < (b.group, b.id) }
}

/// One row of a participants table: a participant, its group, and a file or folder that is theirs
/// (relative to `--data`, as recordings are stored).
public struct ParticipantTableRow: Sendable, Hashable, Codable {
    public var id: String
    public var group: String
    public var path: String
    /// The row's line in the table, for messages (nil: not read from a file).
    public var row: Int?
    public init(id: String, group: String, path: String, row: Int? = nil) { self.id = id; self.group = group; self.path = path; self.row = row }
}

/// How recordings map to participants (`--participants`).
public enum ParticipantRule: Sendable, Hashable, Codable {
    /// Each recording file is a participant (the default).
    case file
    /// The recording's folder at this depth under `--data` (1 = the first folder): `p07/night1.cwa`
    /// and `p07/night2.cwa` are participant `p07`. A file with fewer folders is its own participant.
    case folder(level: Int)
    /// A participants table (`id,group,path`); a recording no row names is its own participant.
    case table([ParticipantTableRow])

    /// `file`, `folder` (= `folder:1`) or `folder:N`; nil for anything else (a table is read from its file).
    public static func parse(_ text: String) -> ParticipantRule? {
        if text == "file" { return .file }
        if text == "folder" { return .folder(level: 1) }
        if text.hasPrefix("folder:"), let n = Int(text.dropFirst(7)), n >= 1, n <= 64 { return .folder(level: n) }
        return nil
    }

    /// The participant of the recording stored under `path` (relative to `--data`). Scans a
    /// table's rows: for many recordings, ask a ``ParticipantMatcher`` made once.
    public func participant(recordingPath path: String) -> Participant {
        switch self {
        case .file:
            return Participant(id: path)
        case .folder(let level):
            let parts = path.split(separator: "/", omittingEmptySubsequences: true)
            return parts.count > level ? Participant(id: parts[level - 1].description) : Participant(id: path)
        case .table(let rows):
            // The most specific row: the file itself, else the deepest folder that holds it.
            let match = rows.filter { row in
                path == row.path || path.hasPrefix(row.path.hasSuffix("/") ? row.path : row.path + "/")
                    || path.split(separator: "/").last.map(String.init) == row.path
            }.max { $0.path.count < $1.path.count }
            return match.map { Participant(id: $0.id, group: $0.group) } ?? Participant(id: path)
        }
    }

    /// For pages and the run summary.
    public var description: String {
        switch self {
        case .file: return "each recording file"
        case .folder(let level): return level == 1 ? "the first folder under --data" : "folder level \(level) under --data"
        case .table(let rows): return "a participants table (\(rows.count) rows)"
        }
    }
}

/// A ``ParticipantRule`` ready to match many recordings: a table's rows indexed once by path,
/// by folder and by file name, so a match costs a few dictionary look-ups (one per folder of the
/// recording's path) instead of a scan of every row. It answers exactly as
/// ``ParticipantRule/participant(recordingPath:)``: the most specific row (the longest path), the
/// first in the table among rows as specific.
public struct ParticipantMatcher: Sendable {
    public let rule: ParticipantRule
    private let rows: [ParticipantTableRow]
    /// Row indices by the row's path: the recording's whole path, or its file name, equals it.
    private let byPath: [String: [Int]]
    /// Row indices by the row's path with a trailing `/`: a folder holding the recording.
    private let byFolder: [String: [Int]]

    public init(_ rule: ParticipantRule) {
        self.rule = rule
        guard case .table(let rows) = rule else { self.rows = []; self.byPath = [:]; self.byFolder = [:]; return }
        self.rows = rows
        var byPath: [String: [Int]] = [:], byFolder: [String: [Int]] = [:]
        for (k, row) in rows.enumerated() {
            byPath[row.path, default: []].append(k)
            byFolder[row.path.hasSuffix("/") ? row.path : row.path + "/", default: []].append(k)
        }
        self.byPath = byPath; self.byFolder = byFolder
    }

    public func participant(recordingPath path: String) -> Participant {
        guard case .table = rule else { return rule.participant(recordingPath: path) }
        var best: ParticipantTableRow? = nil
        for k in candidates(recordingPath: path) where best.map({ rows[k].path.count > $0.path.count }) ?? true { best = rows[k] }
        return best.map { Participant(id: $0.id, group: $0.group) } ?? Participant(id: path)
    }

    /// The rows that may hold `path`, in row order: those whose path is the recording's whole path
    /// or its file name, and the folders on its path. The lookup reads these rows only.
    package func candidates(recordingPath path: String) -> [Int] {
        var candidates = byPath[path] ?? []
        if let name = path.split(separator: "/").last.map(String.init) { candidates += byPath[name] ?? [] }
        // Every prefix of the path that ends at a `/`: the folders that may hold it.
        var index = path.startIndex
        while index < path.endIndex {
            let next = path.index(after: index)
            if path[index].unicodeScalars.last == "/" { candidates += byFolder[String(path[..<next])] ?? [] }
            index = next
        }
        return Set(candidates).sorted()
    }
}
