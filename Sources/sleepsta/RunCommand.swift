import ArgumentParser
import Foundation
import Logging
import SleepCore
import SleepPipeline

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ingest every recording under a folder, analyse each night, store it and render the reports.",
        discussion: """
        Files are recognised by content (SHA-256): a file already in the database is skipped, a changed
        file replaces its earlier version, and nights are re-analysed from the stored per-second series
        when the parameters change. Report files are rewritten only when their content changes.

        Formats: raw-sample CSV `timestamp,x,y,z` (g) and the Sleepsta app's JSON export (see README).
        """)

    @Option(name: .long, help: ArgumentHelp("Folder of recordings (searched recursively).", valueName: "dir"))
    var data: String = "Data"

    @Option(name: .long, help: ArgumentHelp("SQLite database to create or update.", valueName: "file"))
    var db: String = "Data/sleepsta.sqlite"

    @Option(name: .long, help: ArgumentHelp("Folder for index.html and one folder per night.", valueName: "dir"))
    var reports: String = "Reports"

    @Option(name: .long, help: ArgumentHelp("Interval length for movement totals, states and metrics: 10m, 15m, 5m, 30m, 1h, 90s.", valueName: "length"))
    var interval: String = "10m"

    @Option(name: .long, help: ArgumentHelp("IANA time zone of recordings that do not state one, e.g. Europe/Berlin. Nights run noon to noon on this clock.", valueName: "zone"))
    var tz: String?

    @Option(name: .long, help: ArgumentHelp("Per-sample movement formula: mean-abs-axis ((|x|+|y|+|z|)/3, default) or legacy-app (the original app's |x|+|y|+|z|/3).", valueName: "metric"))
    var metric: String = MovementMetric.meanAbsoluteAxis.rawValue

    @Option(name: .long, help: ArgumentHelp("Wake threshold as a multiple of the night's median epoch movement.", valueName: "factor"))
    var wakeThreshold: Double = AnalysisParameters().wakeThresholdFactor

    @Flag(name: .long, help: "Log every file and night (debug level) to stderr.")
    var verbose = false

    @Flag(name: .long, help: "Log nothing but errors (for cron).")
    var quiet = false

    func validate() throws {
        guard IntervalLength(parsing: interval) != nil else {
            throw ValidationError("--interval '\(interval)' is not a length; use a number with a unit: 10m, 15m, 900s, 1h")
        }
        guard MovementMetric(rawValue: metric) != nil else {
            throw ValidationError("--metric must be one of: \(MovementMetric.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard wakeThreshold > 0, wakeThreshold.isFinite else { throw ValidationError("--wake-threshold must be a positive number") }
    }

    func run() throws {
        let level: Logger.Level = verbose ? .debug : (quiet ? .error : .notice)
        LoggingSystem.bootstrap { label in
            var h = StreamLogHandler.standardError(label: label)
            h.logLevel = level
            return h
        }
        let logger = Logger(label: "sleepsta")
        var parameters = AnalysisParameters()
        parameters.interval = IntervalLength(parsing: interval)!
        parameters.metric = MovementMetric(rawValue: metric)!
        parameters.wakeThresholdFactor = wakeThreshold
        let configuration = PipelineConfiguration(dataDirectory: data, databasePath: db, reportsDirectory: reports,
                                                  parameters: parameters, timeZoneIdentifier: tz, command: "run")
        let summary: RunSummary
        do {
            summary = try Pipeline(configuration: configuration, logger: logger).run()
        } catch let error as PipelineError {
            FileHandle.standardError.write(Data("sleepsta: \(error)\n".utf8))
            if case .locked = error { throw ExitCode(3) }
            throw ExitCode(2)
        } catch {
            FileHandle.standardError.write(Data("sleepsta: \(error)\n".utf8))
            throw ExitCode(2)
        }
        print(SummaryText.render(summary, configuration: configuration))
        if !summary.failures.isEmpty { throw ExitCode(1) }
    }
}

enum SummaryText {
    static func render(_ s: RunSummary, configuration c: PipelineConfiguration) -> String {
        var lines = [
            "sleepsta \(SleepstaVersion.current): \(s.filesSeen) file(s) in \(c.dataDirectory): \(s.filesIngested) ingested, \(s.filesUnchanged) unchanged, \(s.filesFailed) failed",
            "nights: \(s.nightsStored) new, \(s.nightsAnalysed) analysed with \(c.parameters.interval) intervals",
            "database: \(c.databasePath)",
            "reports: \(c.reportsDirectory)/index.html (\(s.reportsWritten) file(s) written, \(s.reportsUnchanged) unchanged)",
        ]
        if !s.failures.isEmpty {
            lines.append("failed:")
            lines += s.failures.map { "  \($0.error)" }
        }
        return lines.joined(separator: "\n")
    }
}
