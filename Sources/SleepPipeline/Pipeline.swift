import Foundation
import Logging
import SleepCore
import SleepIngest
import SleepReport
import SleepStore

/// The batch: Ingest → Core → Store → Report over a data folder. Incremental and idempotent:
/// files are known by content hash, analyses by their parameters, report files are rewritten
/// only when their bytes change.
public struct Pipeline {
    public var configuration: PipelineConfiguration
    public var logger: Logger

    public init(configuration: PipelineConfiguration, logger: Logger) {
        self.configuration = configuration; self.logger = logger
    }

    public func run() throws -> RunSummary {
        let c = configuration
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: c.dataDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PipelineError.environment("data folder \(c.dataDirectory) does not exist or is not a folder")
        }
        if let tz = c.timeZoneIdentifier, ZoneTimeline.timeline(identifier: tz) == nil {
            throw PipelineError.environment("unknown time zone '\(tz)': expected an IANA name such as Europe/Berlin")
        }
        let dbDirectory = (c.databasePath as NSString).deletingLastPathComponent
        if !dbDirectory.isEmpty { try? FileManager.default.createDirectory(atPath: dbDirectory, withIntermediateDirectories: true) }
        let lock = try RunLock(databasePath: c.databasePath)
        defer { withExtendedLifetime(lock) {} }
        let db: SleepDatabase
        do { db = try SleepDatabase(path: c.databasePath) } catch { throw PipelineError.environment("\(error)") }

        var summary = RunSummary()
        var run = RunRecord(startedUTC: Self.timestamp(), toolVersion: c.toolVersion, command: c.command,
                            parametersJSON: Self.parametersJSON(c))
        run.id = try db.beginRun(run)

        for relative in try Self.candidateFiles(in: c.dataDirectory, excluding: c.databasePath) {
            summary.filesSeen += 1
            let path = (c.dataDirectory as NSString).appendingPathComponent(relative)
            do {
                let outcome = try ingest(path: path, relativePath: relative, db: db, runID: run.id)
                switch outcome {
                case .unchanged: summary.filesUnchanged += 1
                case .ingested(let nights, let warnings):
                    summary.filesIngested += 1
                    summary.nightsStored += nights
                    summary.nightsAnalysed += nights
                    summary.warnings += warnings.map { "\(relative): \($0)" }
                }
            } catch let error as IngestError {
                logger.error("\(error.description)")
                summary.failures.append((relative, error.description))
            } catch {
                logger.error("\(relative): \(error)")
                summary.failures.append((relative, "\(relative): \(error)"))
            }
        }

        // Nights stored earlier but not yet analysed with these parameters: re-derive from the
        // stored base series, without reading raw files again.
        for nightID in try db.nightIDsMissingAnalysis(parametersKey: c.parameters.key) {
            guard let night = try db.night(id: nightID) else { continue }
            let analysis = NightAnalyzer.analyze(series: night.series, window: night.window, parameters: c.parameters)
            try db.saveAnalysis(analysis, nightID: nightID, runID: run.id)
            summary.nightsAnalysed += 1
            logger.debug("analysed \(nightID) with \(c.parameters.key)")
        }

        let reporter = ReportBuilder(db: db, reportsDirectory: c.reportsDirectory, parameters: c.parameters)
        let (written, unchanged) = try reporter.renderAll()
        summary.reportsWritten = written
        summary.reportsUnchanged = unchanged

        run.finishedUTC = Self.timestamp()
        run.filesSeen = summary.filesSeen
        run.filesIngested = summary.filesIngested
        run.filesUnchanged = summary.filesUnchanged
        run.filesFailed = summary.filesFailed
        run.status = summary.failures.isEmpty ? "ok" : "some-files-failed"
        try db.finishRun(run, failures: summary.failures)
        return summary
    }

    enum IngestOutcome { case unchanged, ingested(nights: Int, warnings: [String]) }

    /// One file, all or nothing: read it whole (streaming), split into nights, analyse, and store
    /// the recording with every night in one transaction.
    func ingest(path: String, relativePath: String, db: SleepDatabase, runID: Int64?) throws -> IngestOutcome {
        let sha = try FileHashing.sha256(path: path)
        if let storedPath = try db.recordingPath(contentSHA256: sha) {
            // Same content: unchanged, or moved (its old path is gone), or a copy (both exist).
            let oldFile = (configuration.dataDirectory as NSString).appendingPathComponent(storedPath)
            if storedPath != relativePath && !FileManager.default.fileExists(atPath: oldFile) {
                try db.moveRecording(contentSHA256: sha, to: relativePath)
                logger.notice("\(relativePath): moved from \(storedPath) (same content, nights kept)")
            } else {
                logger.debug("\(relativePath): unchanged (sha256 \(sha.prefix(12)))")
            }
            return .unchanged
        }
        let reader = try FormatDetector.reader(forPath: path)
        let recording = try reader.read(path: path, options: IngestOptions(timeZoneIdentifier: configuration.timeZoneIdentifier))
        let stem = NightNaming.recordingStem(relativePath)
        let taken = try db.nightIDs(excludingPath: relativePath)
        var nights: [StoredNight] = []
        var analyses: [String: NightAnalysis] = [:]
        var perDate: [CivilDate: Int] = [:]
        for segment in recording.segments {
            for window in NightSplitter.nights(in: segment.series, timeline: recording.timeline) {
                let ordinal = perDate[window.date, default: 0]
                perDate[window.date] = ordinal + 1
                var id = NightNaming.nightID(stem: stem, date: window.date, ordinal: ordinal)
                var bump = ordinal
                while taken.contains(id) { bump += 1; id = NightNaming.nightID(stem: stem, date: window.date, ordinal: bump) }
                let slice = segment.series.slice(from: window.startUTC, to: window.endUTC).trimmedToData()
                let night = StoredNight(id: id, window: window, timeline: recording.timeline, timeZone: recording.timeZoneName,
                                        label: segment.label,
                                        preBedSurvey: segment.preBedSurvey.map { SurveyItem(question: $0.question, answer: $0.answer) },
                                        postBedSurvey: segment.postBedSurvey.map { SurveyItem(question: $0.question, answer: $0.answer) },
                                        series: slice)
                nights.append(night)
                analyses[id] = NightAnalyzer.analyze(series: slice, window: window, parameters: configuration.parameters)
            }
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let span = recording.segments.compactMap(\.series.dataSpan)
        let stored = StoredRecording(
            path: relativePath, contentSHA256: sha, format: recording.format.rawValue,
            sizeBytes: (attributes?[.size] as? NSNumber)?.int64Value ?? 0, sampleCount: Int64(recording.quality.sampleCount),
            effectiveSampleRateHz: recording.quality.effectiveSampleRateHz, firstUTC: span.map(\.first).min(),
            endUTC: span.map(\.end).max(), timeZone: recording.timeZoneName, timeZoneSource: recording.timeZoneSource.rawValue,
            units: recording.units, gravity: recording.gravity.rawValue, qualityJSON: try Self.json(recording.quality),
            warningsJSON: try Self.json(recording.warnings))
        try db.replaceRecording(stored, nights: nights, analyses: analyses, runID: runID)
        logger.info("\(relativePath): \(recording.format.rawValue), \(recording.quality.sampleCount) samples, \(nights.count) night(s)")
        for w in recording.warnings { logger.notice("\(relativePath): \(w)") }
        return .ingested(nights: nights.count, warnings: recording.warnings)
    }

    /// Files under `directory` (recursively, sorted, relative paths) that a reader may take.
    static func candidateFiles(in directory: String, excluding databasePath: String) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else {
            throw PipelineError.environment("cannot list \(directory)")
        }
        let dbName = (databasePath as NSString).lastPathComponent
        var result: [String] = []
        while let item = walker.nextObject() as? String {
            let name = (item as NSString).lastPathComponent
            if name.hasPrefix(".") { walker.skipDescendants(); continue }
            guard FormatDetector.isCandidate(fileName: name), !name.hasPrefix(dbName) else { continue }
            result.append(item)
        }
        return result.sorted()
    }

    static func timestamp() -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date())
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try e.encode(value), as: UTF8.self)
    }

    static func parametersJSON(_ c: PipelineConfiguration) -> String {
        struct P: Encodable { var analysis: AnalysisParameters; var key: String; var timeZone: String? }
        return (try? json(P(analysis: c.parameters, key: c.parameters.key, timeZone: c.timeZoneIdentifier))) ?? "{}"
    }
}

extension SecondSeries {
    /// The series cut to its first and last covered seconds.
    func trimmedToData() -> SecondSeries {
        guard let span = dataSpan else { return self }
        return slice(from: span.first, to: span.end)
    }
}
