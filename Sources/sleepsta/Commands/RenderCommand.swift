import ArgumentParser
import Foundation
import SleepPipeline

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render every night's page and chart and the index from a database alone (a merged cohort, say).",
        discussion: """
        Uses the analysis parameters of the database's last finished run or merge. Report files depend on the
        database's content only, so a merged cohort renders byte for byte what one run over the same files does.
        Files whose bytes do not change are not rewritten.

        Exit codes: 0 rendered; 1 pages skipped because a stored row cannot be read (each named on stderr, the
        other pages written); 2 environment error; 3 another run holds the database lock.
        """)

    @Option(name: .long, help: ArgumentHelp("The database to render.", valueName: "file"))
    var db: String

    @Option(name: .long, help: ArgumentHelp("Folder for index.html and one folder per night (created when missing).", valueName: "dir"))
    var reports: String = "Reports"

    @OptionGroup var inclusion: InclusionOptions

    func run() throws {
        do {
            var render = ReportRender(databasePath: db, reportsDirectory: reports)
            render.inclusion = inclusion.rule
            let s = try render.run()
            print("render: \(s.nights) night(s) from \(db) with \(s.parameters.interval) intervals (the parameters of the last run; each method's key is in the index footer)")
            print("reports: \(reports)/index.html (\(s.written) file(s) written, \(s.unchanged) unchanged)")
            for why in s.skipped { FileHandle.standardError.write(Data("sleepsta: render: \(why)\n".utf8)) }
            if !s.skipped.isEmpty { throw ExitCode(ExitStatus.someFilesFailed) }
        } catch let error as PipelineError {
            FileHandle.standardError.write(Data(ExitStatus.errorLine(error).utf8))
            throw ExitCode(error.exitCode)
        }
    }
}
