import Foundation

/// Prints one line per reference comparison so that `make test` shows matched / total (the same
/// format as the other test targets).
enum ReferenceReport {
    static func record(_ name: String, matched: Int, total: Int, note: String = "") {
        let pct = total == 0 ? 100.0 : 100.0 * Double(matched) / Double(total)
        print("REFERENCE \(name): \(matched)/\(total) matched (\(String(format: "%.2f", pct)) %)" + (note.isEmpty ? "" : " — \(note)"))
    }
}

/// Files committed next to these tests, and the repository root.
enum TestFiles {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let repository = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ relativePath: String) throws -> Data {
        try Data(contentsOf: testsDirectory.appendingPathComponent("Fixtures/" + relativePath))
    }
}

/// RFC 4180 parsing for checking exports (quoted fields with commas, doubled quotes and newlines).
enum RFC4180 {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars = chars.dropFirst() } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field); field = ""
            } else if c == "\n" {
                row.append(field); rows.append(row); row = []; field = ""
            } else {
                field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
