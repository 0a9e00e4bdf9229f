import ArgumentParser
import Foundation
import Logging
import SleepCore
import SleepPipeline
import SleepStore

/// What `run` and `nightly` do once their options are parsed: set up logging (and the progress
/// bar on a terminal), run the pipeline, print the summary, and exit with the documented code.
enum PipelineInvocation {
    /// Runs a step before the pipeline (reading the remembered parameters); its failure is an
    /// environment error (exit 2), said on stderr as the pipeline's own are.
    static func environment<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch {
            FileHandle.standardError.write(Data(ExitStatus.errorLine(error).utf8))
            throw ExitCode(ExitStatus.environment)
        }
    }

    static func execute(_ prepared: StudyRun, quietUnlessTerminal: Bool) throws {
        let configuration = prepared.configuration, options = prepared.options
        let onTerminal = isatty(STDERR_FILENO) == 1
        let bar = onTerminal ? TerminalProgressBar() : nil
        let level = options.logLevel(quietByDefault: quietUnlessTerminal && !onTerminal)
        LoggingSystem.bootstrap { label in ProgressAwareLogHandler(label: label, level: level, bar: bar) }
        let logger = Logger(label: "sleepsta")
        BusyWait.setNoticeSink { line in logger.warning("\(line)") }
        let summary: RunSummary
        do {
            summary = try Pipeline(configuration: configuration, logger: logger, progress: bar).run()
        } catch let error as PipelineError {
            FileHandle.standardError.write(Data(ExitStatus.errorLine(error).utf8))
            throw ExitCode(error.exitCode)
        } catch {
            FileHandle.standardError.write(Data(ExitStatus.errorLine(error).utf8))
            throw ExitCode(ExitStatus.environment)
        }
        // The protocol is written once the run has stored its nights (a failed write is a warning).
        let protocolProblem = ProtocolFile.write(prepared.protocolText, reports: configuration.reportsDirectory)
        print((prepared.notes.map(PrintableText.escaped) + [RunSummaryText.render(summary, configuration: configuration)]
               + (protocolProblem.map { [$0] } ?? [])).joined(separator: "\n"))
        if summary.exitCode != ExitStatus.success { throw ExitCode(summary.exitCode) }
    }
}
