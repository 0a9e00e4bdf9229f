import Crypto
import Foundation
import SleepStore

/// `sleepsta digest`: one line per merged table, `table rows sha256`, of the database's canonical
/// content (``SleepDatabase/canonicalContent()``), then `all <rows> <sha256 of the lines above>`.
public enum ContentDigest {
    public static func lines(databasePath: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw PipelineError.environment("digest: database \(databasePath) does not exist")
        }
        let content: [String: [String]]
        do { content = try SleepDatabase(path: databasePath).canonicalContent() } catch {
            throw PipelineError.environment("digest: \(error)")
        }
        var lines: [String] = []
        for (table, rows) in content.sorted(by: { $0.key < $1.key }) {
            var hasher = SHA256()
            for row in rows { hasher.update(data: Data(row.utf8)); hasher.update(data: Data([10])) }
            lines.append("\(table) \(rows.count) \(hex(hasher.finalize()))")
        }
        let total = content.values.map(\.count).reduce(0, +)
        lines.append("all \(total) \(hex(SHA256.hash(data: Data(lines.joined(separator: "\n").utf8))))")
        return lines
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
