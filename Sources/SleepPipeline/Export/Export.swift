import Foundation
import SleepCore
import SleepReport
import SleepStore

/// What to export from which database, to where.
public struct ExportConfiguration: Sendable {
    public var databasePath: String
    public var table: ExportTable
    /// Only analyses with this interval length; nil for all.
    public var interval: IntervalLength?
    /// nil: standard output.
    public var outputPath: String?

    public init(databasePath: String, table: ExportTable, interval: IntervalLength? = nil, outputPath: String? = nil) {
        self.databasePath = databasePath; self.table = table; self.interval = interval; self.outputPath = outputPath
    }
}

/// Writes an ``ExportTable`` as CSV, walking the store one analysis at a time. Times are ISO 8601
/// with the local UTC offset of the night (`2024-03-31T03:10:00+02:00`), so they are both the
/// local clock and an exact instant.
public struct Exporter {
    public var configuration: ExportConfiguration

    public init(configuration: ExportConfiguration) { self.configuration = configuration }

    /// - Returns: the number of data rows written.
    @discardableResult
    public func run() throws -> Int {
        let c = configuration
        guard FileManager.default.fileExists(atPath: c.databasePath) else {
            throw PipelineError.environment("database \(c.databasePath) does not exist; create it with `sleepsta run`")
        }
        let db: SleepDatabase
        do { db = try SleepDatabase(path: c.databasePath) } catch { throw PipelineError.environment("\(error)") }
        if c.table == .runs { return try Self.writeRuns(db: db, databasePath: c.databasePath, to: try CSVOutput(path: c.outputPath)) }
        if c.table == .recordings { return try Self.writeRecordings(db: db, intervalSeconds: c.interval?.seconds, to: try CSVOutput(path: c.outputPath)) }
        let analyses = try db.exportAnalyses(intervalSeconds: c.interval?.seconds)
        if let interval = c.interval, analyses.isEmpty { throw try Self.notAnalysed(interval, db: db) }
        let out = try CSVOutput(path: c.outputPath)
        do {
            var rows = 0
            try out.write(CSVFormat.line(c.table.columns))
            for a in analyses {
                switch c.table {
                case .nights:
                    try out.write(CSVFormat.line(Self.nightFields(a))); rows += 1
                case .intervals:
                    for iv in try db.intervals(analysisID: a.analysisID) {
                        try out.write(CSVFormat.line(Self.intervalFields(iv, a))); rows += 1
                    }
                case .epochs:
                    for (epoch, seconds) in try db.epochs(analysisID: a.analysisID) {
                        try out.write(CSVFormat.line(Self.epochFields(epoch, seconds: seconds, a))); rows += 1
                    }
                case .runs, .recordings:
                    break
                }
            }
            try out.finish()
            return rows
        } catch {
            out.abandon()
            throw error
        }
    }

    /// The `runs` table. A row still `running` whose run no live process holds (the run lock on
    /// the database is free) was killed: it is shown as `interrupted`, as the next run stores it.
    static func writeRuns(db: SleepDatabase, databasePath: String, to out: CSVOutput) throws -> Int {
        do {
            let runs = try db.allRuns()
            // A live run is the newest `running` row (it marked the older ones when it started).
            let newestRunning = runs.last { $0.status == "running" }?.id
            let liveID = newestRunning != nil && RunLock.isHeld(databasePath: databasePath) ? newestRunning : nil
            try out.write(CSVFormat.line(ExportTable.runs.columns))
            for r in runs {
                let status = r.status == "running" && r.id != liveID ? "interrupted" : r.status
                try out.write(CSVFormat.line([CSVFormat.number(r.id), r.startedUTC, r.finishedUTC ?? "", r.toolVersion, r.command, status,
                                              String(r.filesSeen), String(r.filesIngested), String(r.filesUnchanged),
                                              String(r.filesFailed), r.parametersJSON]))
            }
            try out.finish()
            return runs.count
        } catch {
            out.abandon()
            throw error
        }
    }

    /// `--interval` names a length no stored analysis has: a header alone would look like "no
    /// nights". Say so, name the stored lengths and how to derive the missing one (nothing is written).
    static func notAnalysed(_ interval: IntervalLength, db: SleepDatabase) throws -> PipelineError {
        let stored = try db.storedIntervalSeconds().compactMap { IntervalLength(seconds: $0)?.description }
        guard !stored.isEmpty else {
            return .environment("no analysis is stored in the database at all: run `sleepsta run --interval \(interval)` first")
        }
        return .environment("no analysis with \(interval) intervals is stored (stored: \(stored.joined(separator: ", "))); nothing was exported. "
            + "Derive it from the stored series (no raw file is read): `sleepsta run --interval \(interval)` with the same --data and --db, then export again")
    }

    static func time(_ utc: Int64?, _ a: AnalysisExportEntry) -> String {
        utc.map { LocalClock.iso8601(utcSecond: $0, timeline: a.night.timeline) } ?? ""
    }

    /// The analysis a row belongs to: `interval_seconds` (the analysis's interval length),
    /// `metric`, `algorithm`, `parameters_key`.
    static func parameterFields(_ a: AnalysisExportEntry) -> [String] {
        [String(a.parameters.interval.seconds), a.parameters.metric.rawValue, a.algorithm, a.parametersKey]
    }

    static func intervalFields(_ iv: AnalyzedInterval, _ a: AnalysisExportEntry) -> [String] {
        let m = iv.movement
        return [a.night.nightID, time(m.startUTC, a), time(m.endUTC, a), String(m.durationSeconds), CSVFormat.number(m.movementSum),
                CSVFormat.number(m.movementPerMinute), String(m.coverageSeconds), CSVFormat.number(m.legacyMovementSum),
                iv.state.map { String($0.letter) } ?? "", iv.phase?.rawValue ?? ""] + parameterFields(a).dropFirst()
    }

    static func epochFields(_ e: ScoredEpoch, seconds: Int, _ a: AnalysisExportEntry) -> [String] {
        [a.night.nightID, time(e.startUTC, a), time(e.startUTC + Int64(seconds), a), String(seconds), CSVFormat.number(e.activity),
         e.state.map { String($0.letter) } ?? ""] + parameterFields(a)
    }

    static func nightFields(_ a: AnalysisExportEntry) -> [String] {
        let m = a.metrics
        let p = a.parameters
        return [a.night.nightID, a.night.date.description, a.night.recordingPath, a.night.timeZone ?? "", a.status,
                time(m?.inBedStartUTC, a), time(m?.inBedEndUTC, a), time(m?.sleepOnsetUTC, a), time(m?.wakeTimeUTC, a),
                CSVFormat.number(m?.timeInBedMinutes), CSVFormat.number(m?.sleepPeriodMinutes), CSVFormat.number(m?.totalSleepTimeMinutes),
                CSVFormat.number(m?.sleepOnsetLatencyMinutes), CSVFormat.number(m?.wakeAfterSleepOnsetMinutes),
                CSVFormat.number(m?.sleepEfficiencyPercent), CSVFormat.number(m?.sleepMaintenanceEfficiencyPercent),
                CSVFormat.number(m?.awakenings), CSVFormat.number(m?.sleepFragmentationIndexPerHour),
                CSVFormat.number(m?.lightMinutes), CSVFormat.number(m?.deepMinutes),
                String(a.night.coverageSeconds), String(a.night.sourceResolutionSeconds)]
            + parameterFields(a)
            + [String(p.epochSeconds), CSVFormat.number(p.wakeThresholdFactor), CSVFormat.number(a.wakeThreshold),
               String(p.persistentSleepMinutes), CSVFormat.number(p.deepQuantile), String(p.minimumCoverageSeconds),
               a.night.timeZoneSource]
    }
}
