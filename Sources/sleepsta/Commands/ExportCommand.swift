import ArgumentParser
import Foundation
import SleepCore
import SleepPipeline

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write stored intervals, nights or epochs as tidy CSV (for pandas, R, spreadsheets).",
        discussion: """
        One row per observation; times ISO 8601 with the night's UTC offset; missing values empty; standard output unless --output. Movement is exported as stored: movement_sum in g·s, movement_per_minute in g·s/min (the pages show mean acceleration in mg = movement_per_minute ÷ 60 × 1000). --interval of a length never analysed fails (exit 2) and says how to derive it.
          intervals  one row per interval: movement, coverage, state, phase
          nights     one row per night and parameter set: metrics, parameters
          epochs     one row per scored epoch
          runs       one row per run
          recordings one row per recording: format, kind, quality, rhythm
        Column lists: docs/exports.md.
        """)

    @Option(name: .long, help: ArgumentHelp("Output format (only csv).", valueName: "format"))
    var format: CSVFormatOption = .csv

    @Option(name: .long, help: ArgumentHelp("What to export: \(ExportTable.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "table"))
    var what: ExportTable

    @Option(name: .long, help: ArgumentHelp("Only analyses with this interval length, e.g. 15m. Default: all stored lengths.", valueName: "length"))
    var interval: IntervalLength?

    @Option(name: .long, help: ArgumentHelp("SQLite database written by `sleepsta run`.", valueName: "file"))
    var db: String = "Data/sleepsta.sqlite"

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (whole or not at all) instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let configuration = ExportConfiguration(databasePath: db, table: what, interval: interval, outputPath: output)
        do {
            try Exporter(configuration: configuration).run()
        } catch {
            FileHandle.standardError.write(Data("sleepsta: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
