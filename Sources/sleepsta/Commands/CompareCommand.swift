import ArgumentParser
import Foundation
import Logging
import SleepCore
import SleepPipeline
import SleepReport

package struct Compare: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "Compare interval lengths over the nights in the database: metrics, agreement statistics and a report.",
        discussion: """
        Every length is derived from what is stored with each night (no raw file is read again): phone nights from the per-second base series, wearables from their 5-s epochs, epoch files from the file's epochs; analyses missing from the database are derived and stored. Wearables and epoch files score sleep/wake per epoch, so their night metrics are the same at every length: the page says so per method, and their sleep/wake agreement is taken on those epochs. The shortest length is the reference. Per night: the difference of every night metric (longer − shorter). Across nights: mean difference (Bland–Altman bias), 95 % limits of agreement, ICC(2,1); epoch-level agreement on a common grid (accuracy, Cohen's kappa); the awakenings found by either length. Writes REPORTS/compare-<lengths>/ and prints the statistics as a Markdown table. Definitions: docs/comparing-intervals.md.
        """)

    @Option(name: .long, help: ArgumentHelp("Two or more interval lengths, comma-separated: 10m,15m or 5m,10m,15m,30m.", valueName: "lengths"))
    var intervals: String

    @Option(name: .long, help: ArgumentHelp("Only these nights: ids or evening dates (YYYY-MM-DD), comma-separated. Default: every night.", valueName: "nights"))
    var nights: String?

    @Option(name: .long, help: ArgumentHelp("Sleep/wake scoring: \(Compare.algorithms.joined(separator: ", ")).", valueName: "name"))
    var algorithm: String = AnalysisParameters.algorithmName

    @Option(name: .long, help: ArgumentHelp("SQLite database written by `sleepsta run`.", valueName: "file"))
    var db: String = "Data/sleepsta.sqlite"

    @Option(name: .long, help: ArgumentHelp("Reports folder; the comparison goes to REPORTS/compare-<lengths>/.", valueName: "dir"))
    var reports: String = "Reports"

    @Option(name: .long, help: ArgumentHelp("Per-sample movement formula: mean-abs-axis (default) or legacy-app.", valueName: "metric"))
    var metric: MovementMetric = .meanAbsoluteAxis

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Wake threshold as a multiple of the night's median epoch movement.", valueName: "factor"))
    var wakeThreshold: Double = AnalysisParameters().wakeThresholdFactor

    @Option(name: .long, help: ArgumentHelp("Wrist night method: sleepsta (default) or ggir (GGIR 3.3-6's defaults; see run --help).", valueName: "name"))
    var method: NightMethodChoice = .sleepsta

    @Flag(name: .shortAndLong, help: "Log every derived analysis (debug level) to stderr.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    /// The scorings an analysis can name (the store's `algorithm` column).
    static let algorithms = [AnalysisParameters.algorithmName]

    var lengths: [IntervalLength] { intervals.split(separator: ",").compactMap { IntervalLength(parsing: String($0)) } }

    package func validate() throws {
        let parts = intervals.split(separator: ",", omittingEmptySubsequences: false)
        for part in parts where IntervalLength(parsing: String(part)) == nil {
            throw ValidationError("--intervals: '\(part)' is not a length; use numbers with a unit, e.g. 10m,15m")
        }
        guard Set(lengths).count >= 2 else { throw ValidationError("--intervals needs two or more different lengths, e.g. 10m,15m") }
        guard Compare.algorithms.contains(algorithm) else {
            throw ValidationError("--algorithm must be one of: \(Compare.algorithms.joined(separator: ", "))")
        }
        try NumberOption.checkWakeThreshold(wakeThreshold)
    }

    package func run() throws {
        let level: Logger.Level = verbose ? .debug : (quiet ? .error : .notice)
        LoggingSystem.bootstrap { label in
            var h = StreamLogHandler.standardError(label: label)
            h.logLevel = level
            return h
        }
        var parameters = AnalysisParameters()
        parameters.metric = metric
        parameters.wakeThresholdFactor = wakeThreshold
        parameters.nightMethod = method == .sleepsta ? nil : method
        let selectors = (nights ?? "").split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces)) }.filter { !$0.isEmpty }
        let configuration = CompareConfiguration(databasePath: db, reportsDirectory: reports, lengths: lengths,
                                                 nightSelectors: selectors, parameters: parameters)
        let summary: CompareSummary
        do {
            summary = try IntervalComparisonRun(configuration: configuration, logger: Logger(label: "sleepsta")).run()
        } catch let error as PipelineError {
            FileHandle.standardError.write(Data("sleepsta: \(error)\n".utf8))
            if case .locked = error { throw ExitCode(3) }
            throw ExitCode(2)
        } catch {
            FileHandle.standardError.write(Data("sleepsta: \(error)\n".utf8))
            throw ExitCode(2)
        }
        // A night whose stored rows cannot be read is left out, named (exit 1), even with --quiet.
        for why in summary.skipped { FileHandle.standardError.write(Data("sleepsta: compare: skipped: \(why)\n".utf8)) }
        if !quiet { printSummary(summary) }
        if !summary.skipped.isEmpty { throw ExitCode(ExitStatus.someFilesFailed) }
    }

    func printSummary(_ summary: CompareSummary) {
        print("sleepsta \(SleepstaVersion.current): compared \(summary.comparison.lengths.map(\.description).joined(separator: ", ")) over \(summary.comparison.nights.count) night(s) in \(db)")
        print("analyses: \(summary.analysesComputed) derived from the stored nights (no raw file read), \(summary.analysesReused) reused")
        print("report: \(summary.reportFolder)/index.html (\(summary.reportsWritten) file(s) written, \(summary.reportsUnchanged) unchanged)"
              + (summary.indexLinked ? "; linked from \(reports)/index.html" : ""))
        print("")
        print(ComparisonTable.markdown(summary.comparison))
    }
}
