import Foundation
import SleepIngest
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
            let hasher = SHA256Digest()
            for row in rows { hasher.update(row); hasher.update([10]) }
            lines.append("\(table) \(rows.count) \(hasher.hexDigest())")
        }
        let total = content.values.map(\.count).reduce(0, +)
        lines.append("all \(total) \(SHA256Digest.hex(Array(lines.joined(separator: "\n").utf8)))")
        return lines
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
