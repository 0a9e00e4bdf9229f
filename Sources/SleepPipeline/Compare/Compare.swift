import Foundation
import Logging
import SleepCore
import SleepReport
import SleepStore

/// `sleepsta compare`: analyses the stored nights at every requested interval length (reusing
/// stored analyses, deriving and storing missing ones from the stored series and epochs without
/// reading any raw file), compares the lengths (``IntervalLengthComparison``) and writes the
/// comparison report.
public struct IntervalComparisonRun {
    public var configuration: CompareConfiguration
    public var logger: Logger

    public init(configuration: CompareConfiguration, logger: Logger) {
        self.configuration = configuration; self.logger = logger
    }

    public func run() throws -> CompareSummary {
        let c = configuration
        let lengths = c.sortedLengths
        guard lengths.count >= 2 else {
            throw PipelineError.environment("compare needs two or more different interval lengths, e.g. --intervals 10m,15m")
        }
        guard FileManager.default.fileExists(atPath: c.databasePath) else {
            throw PipelineError.environment("database \(c.databasePath) does not exist; ingest recordings first with `sleepsta run`")
        }
        let lock = try RunLock.forRun(databasePath: c.databasePath)
        defer { withExtendedLifetime(lock) {} }
        let db: SleepDatabase
        do { db = try SleepDatabase(path: c.databasePath) } catch { throw PipelineError.environment("\(error)") }
        var skipped: [String] = []   // rows that cannot be read: each costs its night, named (exit 1)
        let nights = try Self.select(c.nightSelectors, from: try db.nightCatalog { skipped.append($0) }, databasePath: c.databasePath)

        var run = RunRecord(startedUTC: Pipeline.timestamp(), toolVersion: c.toolVersion, command: "compare",
                            parametersJSON: Self.parametersJSON(c, lengths: lengths, nights: nights))
        try db.markRunsInterrupted()   // the lock is held: no run still `running` is alive
        run.id = try db.beginRun(run)

        var computed = 0, reused = 0
        var compared: [IntervalLengthComparison.Night] = []
        var recordings = StoredRecordingContexts(db: db)
        for entry in nights {
            do {
                var stored: StoredNight? = nil
                var analyses: [NightAnalysis] = []
                for length in lengths {
                    var p = c.parameters
                    p.interval = length
                    let method = NightAnalysisMethods.method(for: entry.kind, parameters: p)
                    if let a = try db.analysis(nightID: entry.nightID, parametersKey: method.parametersKey(p)) {
                        analyses.append(a); reused += 1
                        continue
                    }
                    if stored == nil { stored = try db.night(id: entry.nightID) }
                    guard let night = stored else { throw PipelineError.environment("night \(entry.nightID) has no base series in \(c.databasePath)") }
                    // GGIR parity reads the other days of the recording (its imputation), prepared once per recording.
                    let derivation = NightDerivation(recording: recordings.context(for: night))
                    let a = try derivation.analyses(of: night.data, kind: entry.kind, sets: [.init(parameters: p, guide: nil)])[0]
                    try db.saveAnalysis(a, nightID: entry.nightID, runID: run.id)
                    analyses.append(a); computed += 1
                    logger.debug("analysed \(entry.nightID) with \(a.key)")
                }
                compared.append(.init(nightID: entry.nightID, windowStartUTC: entry.window.startUTC, analyses: analyses))
            } catch let e as StoredRowError { skipped.append(e.message) }   // it names the night and the table
        }
        let comparison = IntervalLengthComparison.compute(lengths: lengths, nights: compared)

        let report = ComparisonReportBuilder(reportsDirectory: c.reportsDirectory, parameters: c.parameters)
        let (folder, written, unchanged) = try report.write(comparison, nights: nights.filter { [ids = Set(compared.map(\.nightID))] in ids.contains($0.nightID) })
        var summary = CompareSummary(comparison: comparison, analysesComputed: computed, analysesReused: reused,
                                     reportFolder: folder, reportsWritten: written, reportsUnchanged: unchanged, skipped: skipped)
        if let outcome = try refreshIndex(db: db) {
            summary.indexLinked = true
            if case .written = outcome { summary.reportsWritten += 1 } else { summary.reportsUnchanged += 1 }
        }

        run.finishedUTC = Pipeline.timestamp()
        run.status = skipped.isEmpty ? "ok" : "some-files-failed"
        try db.finishRun(run, failures: [])
        return summary
    }

    /// Re-renders an existing `<reports>/index.html` with the parameters of the latest `run` or
    /// `nightly` (`make report` runs `nightly`), so that it links this comparison at once.
    func refreshIndex(db: SleepDatabase) throws -> ReportWriter.Outcome? {
        let indexPath = (configuration.reportsDirectory as NSString).appendingPathComponent("index.html")
        guard FileManager.default.fileExists(atPath: indexPath),
              let json = try db.latestRunParametersJSON(commands: ["run", "nightly"]) else { return nil }
        struct RecordedAnalysis: Decodable { var analysis: AnalysisParameters }
        guard let p = try? JSONDecoder().decode(RecordedAnalysis.self, from: Data(json.utf8)) else { return nil }
        var builder = ReportBuilder(db: db, reportsDirectory: configuration.reportsDirectory, parameters: p.analysis)
        builder.participants = ParticipantOption.remembered(runs: try db.allRuns())
        return try builder.renderIndex()
    }

    /// The nights named by `selectors` (ids or evening dates), in database order; all without selectors.
    static func select(_ selectors: [String], from catalog: [NightCatalogEntry], databasePath: String) throws -> [NightCatalogEntry] {
        guard !catalog.isEmpty else { throw PipelineError.environment("database \(databasePath) holds no nights; run `sleepsta run` first") }
        do { return try NightCatalogEntry.select(selectors, from: catalog, databasePath: databasePath) } catch { throw PipelineError.environment("\(error)") }
    }

    static func parametersJSON(_ c: CompareConfiguration, lengths: [IntervalLength], nights: [NightCatalogEntry]) -> String {
        struct P: Encodable { var intervals: [String]; var nights: [String]; var analysis: AnalysisParameters }
        return (try? Pipeline.json(P(intervals: lengths.map(\.description), nights: nights.map(\.nightID), analysis: c.parameters))) ?? "{}"
    }
}
