import ArgumentParser
import Foundation
import SleepCore
import SleepPipeline

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write stored intervals, nights, epochs, sleep periods or days as tidy CSV (for pandas, R, spreadsheets).",
        discussion: """
        One row per observation; times ISO 8601 with the night's UTC offset; missing values empty; standard output unless --output. Movement is exported as stored, in the unit of the method that ran (movement_unit, activity_unit): g·s for phones, ENMO g·s for wearables, the file's counts for epoch files; movement_per_minute is that per minute. --interval of a length never analysed fails (exit 2) and says how to derive it. A stored row that cannot be read (a damaged store, a foreign shard) is named on stderr and its analysis left out; the export then exits 1.

        By default a night appears once, with the analysis its page shows (--analysis current: the parameters of the last finished run or nightly). --analysis all lists every stored parameter set (a night once per set; analysis_id and parameters_key tell them apart); --analysis KEY one parameters_key. The export reads one consistent snapshot of the store, also while a run is writing (stderr then says so).
          intervals  one row per interval: movement, coverage, state, phase
          nights     one row per night and parameter set: metrics, parameters
          epochs     one row per scored epoch
          runs       one row per run
          recordings one row per recording and measure: rhythm, night-metric means
          participants one row per participant: mean, SD, weekday and weekend mean
                     of each night metric (_mn, _sd, _wd, _we), IS, IV, SRI
          periods    one row per sleep period (main, secondary, nap): in bed,
                     onset, wake, SPT, TST, WASO, awakenings, efficiency
          days       one row per participant day (noon to noon): minutes of
                     main and secondary sleep, naps, awake, not worn, no data;
                     included in the summaries, or why not
          groups     Table 1: per participant group and night metric, n and
                     mean ± SD over valid nights and over participants' means
          inclusion  one row per participant: valid weekday/weekend nights,
                     included by --min-valid-nights/--min-wear-hours or why not
          exclusions one row per participant or night left out, with the reason
          quality    one row per recording: wear, non-wear, gaps, calibration
        Column lists: docs/exports.md.
        """)

    @Option(name: .long, help: ArgumentHelp("Output format (only csv).", valueName: "format"))
    var format: CSVFormatOption = .csv

    @Option(name: .long, help: ArgumentHelp("What to export: \(ExportTable.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "table"))
    var what: ExportTable

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Only analyses with this interval length, e.g. 15m. Default: all stored lengths.", valueName: "length"))
    var interval: IntervalLength?

    @Option(name: .long, help: ArgumentHelp("Which stored analyses: current (what the pages show, one per night; default), all (every parameter set), or a parameters_key.", valueName: "which"))
    var analysis: String = "current"

    @Option(name: .long, help: ArgumentHelp("SQLite database written by `sleepsta run`.", valueName: "file"))
    var db: String = "Data/sleepsta.sqlite"

    @Option(name: .long, help: ArgumentHelp("For --what participants, periods, days and the study tables: file, folder, folder:N or a participants CSV (id,group,path). Default: the last run's --participants.", valueName: "rule|file"))
    var participants: String?

    @OptionGroup var inclusion: InclusionOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (whole or not at all) instead of standard output; a name ending in .gz is written gzip-compressed (pandas and R read it as it is).", valueName: "file"))
    var output: String?

    func run() throws {
        var configuration = ExportConfiguration(databasePath: db, table: what, interval: interval,
                                                analysis: AnalysisSelection(analysis), outputPath: output)
        configuration.inclusion = inclusion.rule
        let result: Exporter.Result
        do {
            if let participants { configuration.participants = try ParticipantOption.rule(participants) }
            var exporter = Exporter(configuration: configuration)
            exporter.notice = { FileHandle.standardError.write(Data("sleepsta: note: \(PrintableText.escaped($0))\n".utf8)) }
            result = try exporter.runReporting()
        } catch {
            // ``ExitStatus/errorLine(_:)`` escapes what the message quotes (a key, a path, a stored name).
            FileHandle.standardError.write(Data(ExitStatus.errorLine(error).utf8))
            throw ExitCode(2)
        }
        for why in result.unreadable { FileHandle.standardError.write(Data("sleepsta: export: skipped: \(why)\n".utf8)) }
        if !result.unreadable.isEmpty { throw ExitCode(ExitStatus.someFilesFailed) }
    }
}
