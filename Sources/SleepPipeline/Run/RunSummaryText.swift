import Foundation
import SleepCore
import SleepStore

/// The one-screen summary `run` and `nightly` print on stdout: what was seen, stored, analysed
/// and rendered, where the outputs are, and every failed file with its error (the first
/// ``maximumListedFailures``; all of them are in the `run_failures` table).
public enum RunSummaryText {
    public static let maximumListedFailures = 20

    public static func render(_ s: RunSummary, configuration c: PipelineConfiguration) -> String {
        var reportLine = "reports: \(c.reportsDirectory)/index.html (\(s.reportsWritten) file(s) written, \(s.reportsUnchanged) unchanged)"
        if c.reportScope == .affected {
            reportLine += "; \(s.nightsReported) of \(s.nightsInStore) night(s) rendered"
            if let reason = s.renderedAllBecause { reportLine += " (all: \(reason))" }
            if let kinds = s.renderedKindsBecauseAnalysisChanged, !kinds.isEmpty {
                reportLine += " (the \(Pipeline.kindList(kinds)) nights: their analysis changed)"
            }
        }
        var lines = [
            "sleepsta \(SleepstaVersion.current) \(c.command): \(s.filesSeen) file(s) in \(c.dataDirectory): \(s.filesIngested) ingested, \(s.filesUnchanged) unchanged, \(s.filesFailed) failed"
                + (s.notRecordings.isEmpty ? "" : "; \(s.notRecordings.count) skipped as not recordings")
                + (s.filesIgnored == 0 ? "" : "; \(s.filesIgnored) ignored (" + (c.ignored.globs + (c.ignored.paths.isEmpty ? [] : ["the study's own files"])).joined(separator: ", ") + ")"),
            "nights: \(s.nightsStored) new, \(s.nightsAnalysed) analysed" + methodsText(s.kindsAnalysed, c),
            "database: \(c.databasePath)",
            reportLine,
        ]
        if !s.parameterChanges.isEmpty {
            lines.append("parameters changed since the last run: " + s.parameterChanges.joined(separator: "; "))
        }
        if !s.startedUTC.isEmpty {
            lines.append("run \(s.runID.map(String.init) ?? "?"): \(s.startedUTC) to \(s.finishedUTC) (\(String(format: "%.1f", s.durationSeconds)) s)")
        }
        if !s.goneRecordings.isEmpty {
            let names = s.goneRecordings.prefix(5).joined(separator: ", ") + (s.goneRecordings.count > 5 ? ", …" : "")
            lines.append(c.prune && s.prunedRecordings > 0
                ? "pruned: \(s.prunedRecordings) recording(s) whose file is gone, with their nights and pages (\(names))"
                : "gone: \(s.goneRecordings.count) stored recording(s) whose file is no longer in \(c.dataDirectory) keep their nights and pages (\(names)); run with --prune to remove them")
        }
        if !s.twins.isEmpty {
            lines.append("same content, stored once: " + s.twins.prefix(5).map { "\(PrintableText.escaped($0.path)) = \(PrintableText.escaped($0.storedAs))" }.joined(separator: ", ")
                         + (s.twins.count > 5 ? ", … (\(s.twins.count) in all)" : ""))
        }
        lines += s.notRecordings.prefix(maximumListedFailures).map { "not a recording: \(PrintableText.escaped($0.path)) (\($0.kind))" }
            + (s.notRecordings.count > maximumListedFailures ? ["… and \(s.notRecordings.count - maximumListedFailures) more not recordings"] : [])
        if let d = s.diary {
            lines.append("diary: \(d.applied) of \(d.rows) row(s) applied (\(d.path)): \(d.byKindText)" + (d.applied == 0 ? "; none, so the run exits 1" : ""))
            lines += listed(d.problems.map(PrintableText.escaped), more: " (stored in run_failures)")
        }
        if !s.participantProblems.isEmpty {
            lines.append("participants: \(Plural.count(s.participantProblems.count, "mistake")) in the table, each below; the other rows apply (\(c.participantsOption ?? "--participants"))")
            lines += listed(s.participantProblems.map(PrintableText.escaped), more: " (stored in run_failures)")
        }
        if !s.failures.isEmpty {
            lines.append("failed:")
            lines += listed(s.failures.map { PrintableText.escaped($0.error) }, more: ": " + SleepDatabase.failuresCommand(databasePath: c.databasePath, runID: s.runID))
        }
        if !s.unreadableRows.isEmpty {
            lines.append("skipped, stored rows that cannot be read:")
            lines += listed(s.unreadableRows, more: "")
        }
        // Folder and database names come from the command line and may hold control characters too.
        return lines.map(PrintableText.escaped).joined(separator: "\n")
    }

    /// `items` indented, at most ``maximumListedFailures`` of them, then how many more and `more`
    /// (where the rest are).
    static func listed(_ items: [String], more: String) -> [String] {
        items.prefix(maximumListedFailures).map { "  \($0)" }
            + (items.count > maximumListedFailures ? ["  … and \(items.count - maximumListedFailures) more\(more)"] : [])
    }

    /// Each analysed kind's method with its analysis key: `: phone-in-bed scored per 10m intervals
    /// (interval=600s;…); wearable-24h scored per 5-s epochs (method=wearable-24h;…)`.
    static func methodsText(_ kinds: Set<RecordingKind>, _ c: PipelineConfiguration) -> String {
        guard !kinds.isEmpty else { return "" }
        let keys = c.analysisKeys
        return ": " + RecordingKind.allCases.filter(kinds.contains).map { kind in
            "\(kind.rawValue) scored per \(MethodLabels.of(kind: kind, parameters: c.parameters).scoredPer) (\(keys[kind] ?? ""))"
        }.joined(separator: "; ")
    }
}
