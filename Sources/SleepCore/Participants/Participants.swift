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
    public init(id: String, group: String, path: String) { self.id = id; self.group = group; self.path = path }
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

    /// The participant of the recording stored under `path` (relative to `--data`).
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
