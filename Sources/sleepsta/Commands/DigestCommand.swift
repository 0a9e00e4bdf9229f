import ArgumentParser
import Foundation
import SleepPipeline

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
