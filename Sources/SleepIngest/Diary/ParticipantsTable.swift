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
                    problems.append("\(here): path '\(r.path)' is already participant '\(first.id)''s (row \(first.row.map(String.init) ?? "?")); this row's id '\(r.id)' is ignored for it (expected one id per path)")
                }
            } else {
                byPath[r.path] = r
            }
            if let first = byID[r.id] {
                if first.group != r.group {
                    problems.append("\(here): id '\(r.id)' is in group '\(r.group)' here but in group '\(first.group)' in row \(first.row.map(String.init) ?? "?"); the two are kept apart as two participants (expected one group per id)")
                }
            } else {
                byID[r.id] = r
            }
        }
        return problems
    }

    /// Every mistake of the table against the recordings, one line each, in row order and then
    /// recording order: ``contradictions(_:path:)``, rows whose path names no recording (a typo in
    /// a path; `present` are the files of the data folder, stored or failed), and stored
    /// `recordings` that no row names (each is a participant of its own, which a table seldom means).
    public static func problems(_ rows: [ParticipantTableRow], path: String, recordings: [String], present: [String] = []) -> [String] {
        var problems = contradictions(rows, path: path)
        // What a row's path may be for a file to be its: the whole path, the file name, a folder holding it.
        func keys(_ file: String) -> [String] {
            let parts = file.split(separator: "/").map(String.init)
            return [file] + parts.suffix(1) + (1..<max(1, parts.count)).map { parts.prefix($0).joined(separator: "/") }
        }
        let all = Array(Set(recordings + present)).sorted()
        let known = Set(all.flatMap(keys))
        let names = rows.map(\.path)
        for r in rows where !known.contains(r.path) {
            let nearest = Self.nearest(r.path, among: all)
            problems.append("\(path) row \(r.row.map(String.init) ?? "?"): path '\(r.path)' matches no recording under --data "
                            + "(expected a recording's path relative to --data, a folder holding recordings, or a file name"
                            + (nearest.map { "; the nearest is '\($0)'" } ?? "") + ")")
        }
        let named = Set(names)
        for file in recordings.sorted() where !keys(file).contains(where: named.contains) {
            problems.append("\(path): recording '\(file)' is in no row, so it is a participant of its own named by its path (expected a row id,group,\(file))")
        }
        return problems
    }

    /// The recording path (or file name) closest to `text` by edit distance, when it is close
    /// (at most a third of its length off): the path meant by a typo. Nil for a large data folder,
    /// where comparing with every path would cost more than the hint is worth.
    static func nearest(_ text: String, among paths: [String]) -> String? {
        guard paths.count <= 20_000, text.count <= 256 else { return nil }
        let target = Array(text.unicodeScalars)
        var best: (String, Int)? = nil
        for p in paths {
            for candidate in Set([p, String(p.split(separator: "/").last ?? "")]) where abs(candidate.unicodeScalars.count - target.count) <= target.count / 3 {
                let d = editDistance(target, Array(candidate.unicodeScalars))
                if d <= max(1, target.count / 3), d < (best?.1 ?? .max) { best = (candidate, d) }
            }
        }
        return best?.0
    }

    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count), current = previous
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
