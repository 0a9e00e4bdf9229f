import SleepCore

/// Reads a participants table for `--participants FILE`: a CSV with the header `id,path` or
/// `id,group,path` (`file` or `folder` may stand for `path`), one row per file or folder that is
/// the participant's, relative to `--data` (a bare file name also matches). Fields follow RFC 4180.
public enum ParticipantsTable {
    /// At most this many rows (a cohort, not a data file).
    public static let maximumRows = 100_000

    public static func read(path: String) throws(IngestError) -> [ParticipantTableRow] {
        let text = try DelimitedText(path: path)
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
        for line in lines.dropFirst() {
            let participant = line[id].trimmingSpaces, file = line[where_].trimmingSpaces
            guard !participant.isEmpty, !file.isEmpty else {
                throw IngestError(file: path, line: line.number, message: "a row needs an id and a path (a file or folder under --data)")
            }
            var relative = file
            while relative.hasPrefix("./") { relative.removeFirst(2) }
            while relative.hasSuffix("/") && relative.count > 1 { relative.removeLast() }
            rows.append(ParticipantTableRow(id: participant, group: group.map { line[$0].trimmingSpaces } ?? "", path: relative))
        }
        return rows
    }
}
