import ArgumentParser
import Foundation
import SleepIngest
import SleepPipeline
import SleepStore

struct Digest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a SHA-256 of each table's content, independent of row ids and runs.",
        discussion: """
        Two databases with the same lines hold the same recordings, nights, series, analyses, intervals and
        metrics: a merged cohort and a single run over the same files, for instance. The run log is left out.
        """)

    @Option(name: .long, help: ArgumentHelp("The database.", valueName: "file"))
    var db: String

    func run() throws {
        do {
            for line in try ContentDigest.lines(databasePath: db) { print(line) }
        } catch let error as PipelineError {
            FileHandle.standardError.write(Data(ExitStatus.errorLine(error).utf8))
            throw ExitCode(error.exitCode)
        }
    }
}

/// `sleepsta digest`: one line per merged table, `table rows sha256`, of the database's canonical
/// content (``SleepDatabase/canonicalContent()``), then `all <rows> <sha256 of the lines above>`.
enum ContentDigest {
    static func lines(databasePath: String) throws -> [String] {
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
}
