import Foundation
import Logging
import SleepCore
import SleepReport
import SleepStore

extension Pipeline {
    /// The run's report step: every night's page, or (`nightly`) only those the run changed,
    /// unless something since the last run that wrote pages asks for all (``ReportScope``).
    func renderReports(db: SleepDatabase, run: RunRecord, previous: RunRecord?, affected: Set<String>, summary: inout RunSummary) throws {
        let c = configuration
        var only: Set<String>? = nil
        if c.reportScope == .affected {
            switch ReportScope.extent(previousRun: previous, toolVersion: c.toolVersion, parametersJSON: run.parametersJSON) {
            case .affected:
                only = affected
            case .all(let reason):
                summary.renderedAllBecause = reason
                logger.notice("rendering every night's report: \(reason)")
            case .kinds(let kinds):
                summary.renderedKindsBecauseAnalysisChanged = kinds
                let nights = try db.nightCatalog(unreadable: { _ in }).filter { kinds.contains($0.kind) }.map(\.nightID)
                only = affected.union(nights)
                if !kinds.isEmpty { logger.notice("rendering the \(Self.kindList(kinds)) nights' reports: their analysis changed") }
            }
        }
        var reporter = ReportBuilder(db: db, reportsDirectory: c.reportsDirectory, parameters: c.parameters)
        reporter.failures = summary.failures.map { ($0.path, PrintableText.escaped($0.error)) }
        reporter.participants = c.participants; reporter.inclusion = c.inclusion
        reporter.workers = .workQueue
        let observer = progress   // the builder reports one step at a time, from its workers
        let rendered = try writingReports {
            try reporter.render(only: only) { done, total, nightID in
                observer?.update(PipelineProgress(stage: .reports, done: done, total: total, nights: done, item: nightID))
            }
        }
        summary.reportsWritten = rendered.written
        summary.unreadableRows += rendered.skipped
        for s in rendered.skipped { logger.error("\(s)") }
        summary.reportsUnchanged = rendered.unchanged
        summary.nightsReported = rendered.nightsRendered
        summary.nightsInStore = rendered.nights
    }

    /// `phone-in-bed and wearable-24h`, in the kinds' order.
    static func kindList(_ kinds: Set<RecordingKind>) -> String {
        RecordingKind.allCases.filter(kinds.contains).map(\.rawValue).joined(separator: " and ")
    }
}

extension PageWorkers {
    /// The night pages on every core, on the batch's one work queue.
    static let workQueue = PageWorkers { count, body in _ = WorkQueue.results(count) { body($0) } }
}
