import Foundation
import SleepCore
import SleepReport
import SleepStore

/// `sleepsta render --db ALL --reports DIR`: every night's page and chart and the index, from the
/// database alone (no data folder), with the analysis parameters of the database's last finished
/// `run`, `nightly` or `merge`. Report files hold nothing that depends on row ids, insertion order
/// or run times (nights are listed by date and id), so a merged cohort renders byte for byte what
/// a single run over the same files renders.
public struct ReportRender {
    public var databasePath: String
    public var reportsDirectory: String
    /// nil: the parameters of the database's last finished run or merge.
    public var parameters: AnalysisParameters?
    /// Which participants and nights the index's Table 1 counts.
    public var inclusion: InclusionRule = .none

    public init(databasePath: String, reportsDirectory: String, parameters: AnalysisParameters? = nil) {
        self.databasePath = databasePath; self.reportsDirectory = reportsDirectory; self.parameters = parameters
    }

    public struct Summary: Sendable {
        public var parameters: AnalysisParameters
        public var nights = 0
        public var written = 0
        public var unchanged = 0
        /// Nights not rendered, each with why (an id sleepsta does not make, a row it cannot read).
        public var skipped: [String] = []
    }

    public func run() throws -> Summary {
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw PipelineError.environment("render: database \(databasePath) does not exist")
        }
        let lock = try RunLock.forRun(databasePath: databasePath)
        defer { withExtendedLifetime(lock) {} }
        let db: SleepDatabase
        do { db = try SleepDatabase(path: databasePath) } catch { throw PipelineError.environment("render: \(error)") }
        guard let chosen = try parameters ?? Self.storedParameters(db) else {
            throw PipelineError.environment("render: \(databasePath) holds no finished run or merge to take the analysis parameters from")
        }
        do { try FileManager.default.createDirectory(atPath: reportsDirectory, withIntermediateDirectories: true) } catch {
            throw PipelineError.environment("render: cannot create reports folder \(reportsDirectory): \(error.localizedDescription)")
        }
        _ = ReportWriter.removeStaleTemporaryFiles(in: reportsDirectory)   // left by a killed render
        var builder = ReportBuilder(db: db, reportsDirectory: reportsDirectory, parameters: chosen)
        builder.workers = .workQueue; builder.inclusion = inclusion
        builder.participants = ParticipantOption.remembered(runs: try db.allRuns())
        let result: (written: Int, unchanged: Int, nightsRendered: Int, nights: Int, skipped: [String])
        do { result = try builder.render(only: nil) } catch {
            throw PipelineError.environment("render: reports \(reportsDirectory): \(SleepDatabase.shortDescription(error))")
        }
        return Summary(parameters: chosen, nights: result.nights, written: result.written, unchanged: result.unchanged,
                       skipped: result.skipped)
    }

    /// The analysis parameters of the last finished `run`, `nightly` or `merge`.
    static func storedParameters(_ db: SleepDatabase) throws -> AnalysisParameters? {
        try db.allRuns().last { ["run", "nightly", "merge"].contains($0.command) && $0.finishedUTC != nil }
            .flatMap { ShardMergeRun.parameters($0)?.analysis }
    }
}
