import SleepCore

/// Reads a participants table for `--participants FILE`: a CSV with the header `id,path` or
/// `id,group,path` (`file` or `folder` may stand for `path`), one row per file or folder that is
/// the participant's, relative to `--data` (a bare file name also matches). Fields follow RFC 4180.
///
/// The table is read whole within ``ReadWholeBudget`` (its lines and fields at most 12 bytes per
/// byte of the file, plus 16 MiB), each row at most ``maximumLineBytes`` long, as a diary's.
public enum ParticipantsTable {
    /// At most this many rows (a cohort, not a data file).
    public static let maximumRows = 100_000
    /// Longest row: an id, a group and a path (the sleep diary's limit).
    public static let maximumLineBytes = SleepDiary.maximumLineBytes

    public static func read(path: String) throws(IngestError) -> [ParticipantTableRow] {
        let text = try DelimitedText(path: path, rowLimit: .init(bytes: maximumLineBytes, row: "a participants row (id,group,path)"))
        let lines = text.lines.filter { !$0.isBlank }
        guard let header = lines.first else {
            throw IngestError(file: path, line: 1, message: "empty participants table: expected the header id,group,path")
        }
        let names = header.fields.map { EpochColumnNaming.canonical($0) }
        guard let id = names.firstIndex(of: "id"),
              let where_ = names.firstIndex(where: { ["path", "file", "folder"].contains($0) }) else {
            throw IngestError(file: path, line: header.number, message: "header '\(header.fields.joined(separator: ",").prefix(80))': expected the columns id and path (and optionally group)")
        }
        let group = names.firstIndex(of: "group")
        guard lines.count - 1 <= maximumRows else {
            throw IngestError(file: path, line: lines[maximumRows].number, message: "more than \(maximumRows) rows: not a participants table")
        }
        var rows: [ParticipantTableRow] = []
        rows.reserveCapacity(lines.count - 1)
        for line in lines.dropFirst() {
            let participant = line[id].trimmingSpaces, file = line[where_].trimmingSpaces
            guard !participant.isEmpty, !file.isEmpty else {
                throw IngestError(file: path, line: line.number, message: "a row needs an id and a path (a file or folder under --data)")
            }
            var relative = file
            while relative.hasPrefix("./") { relative.removeFirst(2) }
            while relative.hasSuffix("/") && relative.count > 1 { relative.removeLast() }
            rows.append(ParticipantTableRow(id: participant, group: group.map { line[$0].trimmingSpaces } ?? "", path: relative, row: line.number))
        }
        return rows
    }

    /// Rows that contradict an earlier row, one line each naming both rows: a path given to two
    /// ids (the first row's id is the one used, ``ParticipantMatcher``), and an id given two
    /// groups (each group's participant is a participant of its own, with a page of its own).
    /// `path` is the table's, for the messages.
    public static func contradictions(_ rows: [ParticipantTableRow], path: String) -> [String] {
        var problems: [String] = []
        var byPath: [String: ParticipantTableRow] = [:]
        var byID: [String: ParticipantTableRow] = [:]
        for r in rows {
            let here = "\(path) row \(r.row.map(String.init) ?? "?")"
            if let first = byPath[r.path] {
                if first.id != r.id {
                    problems.append("\(here): path '\(r.path)' is already participant '\(first.id)''s (row \(first.row.map(String.init) ?? "?")); this row's id '\(r.id)' is ignored for it")
                }
            } else {
                byPath[r.path] = r
            }
            if let first = byID[r.id] {
                if first.group != r.group {
                    problems.append("\(here): id '\(r.id)' is in group '\(r.group)' here but in group '\(first.group)' in row \(first.row.map(String.init) ?? "?"); the two are kept apart as two participants")
                }
            } else {
                byID[r.id] = r
            }
        }
        return problems
    }
}
