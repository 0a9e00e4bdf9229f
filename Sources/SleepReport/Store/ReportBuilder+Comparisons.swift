import Foundation
import SleepCore
import SleepStore

/// The index page's links to comparison reports (`compare-<lengths>/index.html` and
/// `compare-ggir-<lengths>/index.html` folders found
/// in the reports folder), and an index-only refresh for `sleepsta compare`.
extension ReportBuilder {
    /// `(href, label)` for each comparison folder with an index page, by folder name. A comparison
    /// whose nights were analysed again (a file read again, a new parameter set derived) or left
    /// the store since the `compare` run that made it is labelled stale, with the command that
    /// renews it: its numbers are those of the analyses it saw.
    static func comparisonLinks(in reportsDirectory: String, db: SleepDatabase? = nil) -> [(href: String, label: String)] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: reportsDirectory) else { return [] }
        return names.sorted().compactMap { name in
            guard let (lengths, method) = ComparisonReportLayout.parseFolderName(name),
                  fm.fileExists(atPath: (reportsDirectory as NSString).appendingPathComponent(name + "/index.html")) else { return nil }
            let tag = method.flatMap(ComparisonReportLayout.methodTag)
            let label = "Interval lengths compared: " + lengths.joined(separator: " vs ") + (method == .ggir ? " (GGIR parity, --method ggir)" : "")
            guard let db, let stale = staleness(lengths: lengths, method: method, db: db) else { return (href: name + "/index.html", label: label) }
            let renew = "sleepsta compare --intervals \(lengths.joined(separator: ","))" + (tag.map { " --method \($0)" } ?? "")
            return (href: name + "/index.html", label: label + " (stale: \(stale); renew with \(renew))")
        }
    }

    /// Why the newest comparison of `lengths` under `method` no longer matches the store, nil when it does (or
    /// when no `compare` run of those lengths is recorded: nothing to hold it against).
    static func staleness(lengths: [String], method: NightMethodChoice? = nil, db: SleepDatabase) -> String? {
        struct Made: Decodable { var intervals: [String]; var nights: [String]; var analysis: AnalysisParameters }
        guard let runs = try? db.allRuns(),
              let (run, made) = runs.reversed().lazy.compactMap({ r -> (RunRecord, Made)? in
                  guard r.command == "compare", r.status == "ok" || r.status == "some-files-failed",
                        let m = try? JSONDecoder().decode(Made.self, from: Data(r.parametersJSON.utf8)), m.intervals == lengths,
                        (m.analysis.nightMethod ?? .sleepsta) == (method ?? .sleepsta) else { return nil }
                  return (r, m)
              }).first,
              let id = run.id else { return nil }
        // The analyses the comparison used: each method's key at each compared length.
        let keys = made.intervals.compactMap(IntervalLength.init(parsing:)).flatMap { length -> [String] in
            var p = made.analysis
            p.interval = length
            return Array(NightAnalysisMethods.keys(p).values)
        }
        guard let now = try? db.latestAnalysisRun(nightIDs: made.nights, keys: keys) else { return nil }
        if now.nightsPresent < made.nights.count { return "\(made.nights.count - now.nightsPresent) of its nights are no longer stored" }
        if let latest = now.runID, latest > id { return "its nights were analysed again by run \(latest), after it was made by run \(id)" }
        return nil
    }

    /// Rewrites `index.html` only (same rows and bytes as ``renderAll()`` writes).
    public func renderIndex() throws -> ReportWriter.Outcome {
        let catalog = Dictionary(uniqueKeysWithValues: try db.nightCatalog(unreadable: { _ in }).map { ($0.nightID, $0) })
        var rows: [IndexRow] = []
        var paths: [String] = []
        for overview in try db.overviews(keys: keys) {
            guard let night = catalog[overview.nightID], let analysis = overview.analysis else { continue }
            paths.append(overview.recordingPath)
            rows.append(IndexRow(nightID: overview.nightID, date: night.window.date, recordingPath: PrintableText.escaped(overview.recordingPath),
                                 timeline: night.timeline, analysis: analysis, participant: participant(overview.recordingPath)))
        }
        let indexPath = (reportsDirectory as NSString).appendingPathComponent("index.html")
        return try ReportWriter.write(HTMLPages.indexPage(rows, parameters: parameters,
                                                          extraLinks: Self.comparisonLinks(in: reportsDirectory, db: db) + (try recordingLinks(paths)),
                                                          failures: try failures ?? db.latestRunFailures(commands: ["run", "nightly", "merge"]),
                                                          participants: try participantEntries(rows, recordingPaths: paths),
                                                          participantRule: participants.description,
                                                          studyTables: studyTables(rows, catalog: catalog)),
                                      to: indexPath)
    }
}
