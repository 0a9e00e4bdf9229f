import Foundation
import Logging
import SleepCore
import SleepIngest
import SleepReport
import SleepStore

/// The batch: Ingest → Core → Store → Report over a data folder. Incremental and idempotent:
/// files are known by content hash, analyses by their parameters, report files are rewritten
/// only when their bytes change.
///
/// Crash safety: each file's recording, nights and analyses are one transaction, and so is each
/// re-derived analysis, so a run killed at any point leaves whole nights or none. Report files
/// are written to a temporary file and renamed. A run that did not finish leaves its `runs` row
/// unfinished, and the next run then renders every night (see ``ReportScope``).
public struct Pipeline {
    public var configuration: PipelineConfiguration
    public var logger: Logger
    /// Receives progress (a terminal bar); nil for none.
    public var progress: (any PipelineProgressObserver)?

    public init(configuration: PipelineConfiguration, logger: Logger, progress: (any PipelineProgressObserver)? = nil) {
        self.configuration = configuration; self.logger = logger; self.progress = progress
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
        try prepareReportsDirectory()
        let dbDirectory = (c.databasePath as NSString).deletingLastPathComponent
        if !dbDirectory.isEmpty { try? FileManager.default.createDirectory(atPath: dbDirectory, withIntermediateDirectories: true) }
        if FileManager.default.fileExists(atPath: c.databasePath) && access(c.databasePath, W_OK) != 0 {
            throw PipelineError.environment("database \(c.databasePath) is read-only (\(String(cString: strerror(errno)))); nothing was changed")
        }
        let lock = try RunLock(databasePath: c.databasePath)
        defer { withExtendedLifetime(lock) {} }
        let db: SleepDatabase
        do { db = try SleepDatabase(path: c.databasePath) } catch { throw PipelineError.environment("\(error)") }
        defer { progress?.finish() }
        try storing { try markInterruptedRuns(db) }

        let started = Date()
        var run = RunRecord(startedUTC: Self.timestamp(started), toolVersion: c.toolVersion, command: c.command,
                            parametersJSON: Self.parametersJSON(c))
        // What this run changes against the parameters the store remembers (the last finished run's).
        let changes = try storing { try db.lastFinishedRun(commands: ["run", "nightly"]) }
            .flatMap(RunParameters.recorded(in:))
            .map { RunParameters(c).changes(from: $0) } ?? []
        if !changes.isEmpty { run.parametersChanged = changes.joined(separator: "; ") }
        // The last run that wrote night pages (`compare` and `export` do not).
        let previous = try storing { try db.previousRun(commands: ["run", "nightly"]) }
        run.id = try storing { try db.beginRun(run) }
        do {
            var summary = try work(db: db, run: run, previous: previous)
            summary.parameterChanges = changes
            let finished = Date()
            run.finishedUTC = Self.timestamp(finished)
            run.filesSeen = summary.filesSeen
            run.filesIngested = summary.filesIngested
            run.filesUnchanged = summary.filesUnchanged
            run.filesFailed = summary.filesFailed
            run.status = summary.failures.isEmpty ? "ok" : "some-files-failed"
            let diaryProblems = summary.diary.map { d in d.problems.map { (d.path, $0) } } ?? []
            try storing { try db.finishRun(run, failures: (summary.failures + diaryProblems).map { ($0.0, PrintableText.escaped($0.1)) }) }
            summary.runID = run.id
            summary.startedUTC = run.startedUTC
            summary.finishedUTC = run.finishedUTC ?? ""
            summary.durationSeconds = finished.timeIntervalSince(started)
            return summary
        } catch {
            // Best effort (the disk may be full): say in the runs table that this run failed, so
            // the next run knows the reports may be behind the store.
            run.finishedUTC = Self.timestamp()
            run.status = "failed"
            try? db.finishRun(run, failures: [])
            throw error
        }
    }

    /// Ingest, re-derive, render: the run between its `runs` row's start and finish.
    private func work(db: SleepDatabase, run: RunRecord, previous: RunRecord?) throws -> RunSummary {
        let c = configuration
        var summary = RunSummary()
        let swept = ReportWriter.removeStaleTemporaryFiles(in: c.reportsDirectory)
        if swept > 0 { logger.notice("removed \(Plural.count(swept, "temporary report file")) left by an interrupted run") }

        // Nights whose pages must be rendered by an `affected`-scope run.
        var affected = Set<String>()
        let folder = try DataFolderScan.scan(c.dataDirectory, excludedName: (c.databasePath as NSString).lastPathComponent)
        let (scan, shardStamp) = folder.restricted(to: c.shard)   // Shard.swift: `--shard K/N`
        if let shardStamp, let id = run.id {
            try storing { try db.updateRunParameters(id: id, json: Self.parametersJSON(c, shard: shardStamp)) }
        }
        // A failed file is reported once: in the summary on stdout (and `run_failures`). The log
        // repeats it only at debug level (--verbose), so cron's `2>&1` mail does not hold it twice.
        for problem in scan.problems {
            summary.filesSeen += 1
            logger.debug("\(problem.message)")
            summary.failures.append((problem.relativePath, problem.message))
        }
        var state = PipelineProgress(stage: .files, done: 0, total: scan.files.count, bytesTotal: scan.totalBytes)
        // Files on every core, each touching the store in its turn in path order (FileWork.swift);
        // outcomes are counted here in that order, as a serial loop would.
        let outcomes = ingestFiles(scan.files, db: SleepDatabaseHandle(db), runID: run.id, progress: state,
                                   threads: c.ingestThreads ?? WorkQueue.cores)
        for (file, outcome) in zip(scan.files, outcomes) {
            summary.filesSeen += 1
            let path = (c.dataDirectory as NSString).appendingPathComponent(file.relativePath)
            do {
                switch try outcome.result.get() {
                case .unchanged:
                    summary.filesUnchanged += 1
                case .twin(let original):
                    summary.filesUnchanged += 1
                    summary.twins.append((file.relativePath, original))
                case .unchangedByStat:
                    summary.filesUnchanged += 1
                    summary.filesUnchangedByStat += 1
                case .moved(let nightIDs):
                    summary.filesUnchanged += 1
                    affected.formUnion(nightIDs)   // their pages name the recording's path
                case .ingested(let nightIDs, let kind, let warnings):
                    summary.filesIngested += 1
                    if !nightIDs.isEmpty { summary.kindsAnalysed.insert(kind) }
                    summary.nightsStored += nightIDs.count
                    summary.nightsAnalysed += nightIDs.count
                    summary.warnings += warnings.map { "\(file.relativePath): \($0)" }
                    affected.formUnion(nightIDs)
                }
            } catch let error as PipelineError {
                throw error   // the store or the folder failed, not this file: stop the run
            } catch let ingestError as IngestError {
                let error = outcome.seen?.explaining(ingestError, path: path) ?? ingestError
                logger.debug("\(error.description)")
                summary.failures.append((file.relativePath, error.description))
            } catch {
                logger.debug("\(file.relativePath): \(error)")
                summary.failures.append((file.relativePath, "\(file.relativePath): \(error)"))
            }
            state.done += 1
            state.bytesDone += file.sizeBytes
            state.nights = summary.nightsStored
        }

        try handleGoneRecordings(scan: folder, db: db, summary: &summary)
        if let diary = c.diary { try reportDiaryProblems(diary, db: db, summary: &summary) }

        // Nights stored earlier but not yet analysed with these parameters: re-derive from the
        // stored base series, without reading raw files again.
        let missing = try storing { try db.nightIDsMissingAnalysis(keys: c.analysisKeys) }
        state = PipelineProgress(stage: .analyses, done: 0, total: missing.count, nights: summary.nightsAnalysed)
        var wholeRecordings: [Int64: (epochs: WearableEpochs?, facts: RecordingFacts?)] = [:]   // for --method ggir
        for nightID in missing {
            state.item = nightID
            progress?.update(state)
            guard var night = try storing({ try db.night(id: nightID) }) else { continue }
            if let diary = c.diary, let path = try storing({ try db.recording(forNight: nightID)?.path }) {
                night.guide = diary.guide(recordingPath: path, night: night.window, timeline: night.timeline)
            }
            if c.parameters.nightMethod?.needsRecordingEpochs == true, night.kind == .wearable24h, let id = night.recordingID {
                if wholeRecordings[id] == nil {
                    if wholeRecordings.count >= 8 { wholeRecordings.removeAll() }   // nights come by date, recordings interleaved
                    wholeRecordings[id] = (try storing { try db.recordingEpochs(recordingID: id) },
                                           try storing { try db.recording(forNight: nightID)?.facts })
                }
                night.recordingEpochs = wholeRecordings[id]?.epochs
                night.recordingFacts = wholeRecordings[id]?.facts
            }
            let analysis = Self.analysis(night.data, method: NightAnalysisMethods.method(for: night.kind), parameters: c.parameters)
            try storing { try db.saveAnalysis(analysis, nightID: nightID, runID: run.id) }
            summary.nightsAnalysed += 1
            summary.kindsAnalysed.insert(night.kind)
            affected.insert(nightID)
            logger.debug("analysed \(nightID) with \(analysis.key)")
            state.done += 1
            state.nights = summary.nightsAnalysed
        }

        var only: Set<String>? = nil
        if c.reportScope == .affected {
            summary.renderedAllBecause = ReportScope.renderAllReason(previousRun: previous, toolVersion: c.toolVersion,
                                                                     parametersJSON: run.parametersJSON)
            if let reason = summary.renderedAllBecause { logger.notice("rendering every night's report: \(reason)") }
            else { only = affected }
        }
        var reporter = ReportBuilder(db: db, reportsDirectory: c.reportsDirectory, parameters: c.parameters)
        reporter.failures = summary.failures.map { ($0.path, PrintableText.escaped($0.error)) }
        reporter.participants = c.participants
        let rendered = try writingReports {
            try reporter.render(only: only) { done, total, nightID in
                progress?.update(PipelineProgress(stage: .reports, done: done, total: total, nights: done, item: nightID))
            }
        }
        summary.reportsWritten = rendered.written
        summary.warnings += rendered.skipped
        for s in rendered.skipped { logger.error("\(s)") }
        summary.reportsUnchanged = rendered.unchanged
        summary.nightsReported = rendered.nightsRendered
        summary.nightsInStore = rendered.nights
        return summary
    }

    /// Recordings in the store whose file is no longer in the data folder (deleted, or the folder
    /// holds another data set): kept and reported, or with `--prune` removed with their nights and
    /// report folders. A file that could not be read this run is not gone.
    func handleGoneRecordings(scan: DataFolderScan, db: SleepDatabase, summary: inout RunSummary) throws {
        let present = Set(scan.files.map(\.relativePath))
        // A folder that could not be listed hides its files; they are not gone.
        let unreadable = scan.problems.map(\.relativePath)
        let gone = try storing { try db.recordingPaths() }.filter { path in
            !present.contains(path) && !unreadable.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
        guard !gone.isEmpty else { return }
        summary.goneRecordings = gone
        // An empty data folder is more likely an unmounted disk than a deleted study: never prune all.
        guard configuration.prune, !scan.files.isEmpty else {
            if configuration.prune { logger.error("--prune ignored: \(configuration.dataDirectory) holds no recording at all (an unmounted disk?); nothing was removed") }
            logger.notice("\(gone.count) stored recording(s) whose file is no longer in \(configuration.dataDirectory) keep their nights and pages; --prune removes them")
            return
        }
        for path in gone {
            let nights = try storing { try db.deleteRecording(path: path) }
            removeReportFolders(Set(nights).union([ReportBuilder.recordingFolder(path)]))
            summary.prunedRecordings += 1
            logger.notice("\(path): file gone, recording and its \(Plural.count(nights.count, "night")) removed (--prune)")
        }
    }

    /// Runs left `running` by a process that died (SIGKILL, power loss) become `interrupted`.
    /// Called with the run lock held, so none of them can still be alive.
    func markInterruptedRuns(_ db: SleepDatabase) throws {
        let ids = try db.markRunsInterrupted()
        if !ids.isEmpty {
            logger.notice("run(s) \(ids.map(String.init).joined(separator: ", ")) did not finish (killed?); marked interrupted")
        }
    }

    /// The diary's rows that guide no night, each with its row number and why: unusable rows, ids
    /// that match no recording, nights a matching recording does not have. Listed in the summary
    /// and stored with the run (`run_failures`, under the diary's path); the other rows apply. A
    /// diary none of whose rows applies makes the run exit 1.
    func reportDiaryProblems(_ diary: SleepDiary, db: SleepDatabase, summary: inout RunSummary) throws {
        let catalog = try storing { try db.nightCatalog() }
        let timelines = Dictionary(catalog.map { ($0.recordingPath, $0.timeline) }, uniquingKeysWith: { first, _ in first })
        summary.diary = diary.use(nightDates: try storing { try db.nightDatesByRecordingPath() }, timelines: timelines)
        for p in summary.diary?.problems ?? [] { logger.debug("\(p)") }
    }

    /// Removes report folders (night ids, `recordings/…`) under the reports folder; best effort:
    /// a folder that is already gone is no error. A name that is not a folder name sleepsta
    /// makes, or that leads outside the reports folder, is left alone and logged (``ReportPaths``).
    func removeReportFolders(_ folders: Set<String>) {
        for folder in folders.sorted() {
            do {
                try FileManager.default.removeItem(atPath: try ReportPaths.path(folder, in: configuration.reportsDirectory))
            } catch let outside as ReportPaths.Outside {
                logger.error("not removed: \(outside)")
            } catch {
                continue   // already gone
            }
        }
    }

    /// The reports folder must be a writable folder before anything is ingested, so that a run
    /// never stores nights it then cannot report. `run` creates it; `nightly` refuses a missing one.
    func prepareReportsDirectory() throws {
        let directory = configuration.reportsDirectory
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw PipelineError.environment("reports folder \(directory) is a file, not a folder") }
        } else if configuration.createsReportsDirectory {
            do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw PipelineError.environment("cannot create reports folder \(directory): \(error.localizedDescription)")
            }
        } else {
            throw PipelineError.environment("reports folder \(directory) does not exist; create it first (mkdir -p \(directory)). "
                + "nightly does not create it, so that an unmounted disk or a mistyped path is not taken for a first run")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw PipelineError.environment("reports folder \(directory) is not writable: \(String(cString: strerror(errno)))")
        }
    }

    /// Runs a store operation; its failure (disk full, read-only, corrupt file) stops the run as an
    /// environment error rather than being blamed on the file being ingested.
    @discardableResult
    func storing<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as PipelineError { throw error } catch {
            throw PipelineError.environment("database \(configuration.databasePath): \(Self.shortDescription(error))")
        }
    }

    func writingReports<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as PipelineError { throw error } catch {
            throw PipelineError.environment("reports \(configuration.reportsDirectory): \(Self.shortDescription(error))")
        }
    }

    /// An error's description without the SQL statement GRDB appends (`… - while executing \`INSERT …\``).
    static func shortDescription(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.components(separatedBy: " - while executing").first ?? text
    }

    enum IngestOutcome {
        case unchanged, unchangedByStat, moved(nightIDs: [String])
        case ingested(nightIDs: [String], kind: RecordingKind, warnings: [String])
        /// A copy of a recording stored under another path that still exists: stored once.
        case twin(of: String)
    }

    /// One file, all or nothing: read it whole (streaming, ``RecordingRead``), split into nights,
    /// analyse, and store the recording with every night in one transaction (``store(_:path:relativePath:contentHash:before:db:runID:)``).
    ///
    /// Order matters for huge or bogus files: the cheap checks (allocation map, format from the
    /// first 4 KiB) come before the content hash, which reads every byte.
    func ingest(path: String, relativePath: String, db: SleepDatabase, runID: Int64?, turn: IngestTurn? = nil) throws -> IngestOutcome {
        try InputPreflight.check(path: path)
        let before = try FileStability.snapshot(path: path)   // must still hold after reading
        // No hash when the stat matches (FileStatFastPath); checked again in this file's turn, when
        // earlier files of the run have touched the store (Work/FileWork.swift).
        if try unchangedByStat(before, relativePath: relativePath, db: db) {
            try turn?.wait()
            if try unchangedByStat(before, relativePath: relativePath, db: db) { return .unchangedByStat }
        }
        let hashBegan = FileStatFastPath.nowNanoseconds()
        // One look at the head tells raw samples from epoch files; both take the same road from here.
        let detected = try FormatDetector.detect(path: path)
        var options = configuration.readOptions
        // Analyses stored for this file under a counts-based sleep algorithm are derived again with
        // the new read: its milestone must carry the counts too.
        if !options.sumsActivityCounts, options.wearableMilestone,
           try storing({ try db.storedAnalysisParameters(recordingPath: relativePath, contentHash: "") })
               .contains(where: { $0.sleepAlgorithm?.needsCounts ?? false }) {
            options.activityCounts = true
        }
        // A new file, or one whose size changed, is read anyway: read it while hashing (SpeculativeRead).
        let storedSize = try storing { try db.storedSizeBytes(ofRecordingAt: relativePath) }
        let readOptions = options
        let early = SpeculativeRead.worthIt(sizeBytes: before.sizeBytes, storedSizeBytes: storedSize)
            ? SpeculativeRead { () throws(IngestError) in try RecordingRead.read(detected, path: path, options: readOptions) } : nil
        defer { early?.wait() }
        // SHA-256 as well only if a recording of this size still has its identity from before
        // BLAKE3 (FileHashing.swift).
        let legacy = try storing { try db.holdsLegacyContentHash(sizeBytes: before.sizeBytes) }
        let hashes = try FileHashing.contentHash(path: path, legacySHA256: legacy)
        try turn?.wait()   // from here on the store as earlier files left it (Work/FileWork.swift)
        let identity = hashes.blake3
        let known = try storing { try identify(hashes, relativePath: relativePath, db: db) }
        let again = try known.flatMap { k in
            var facts = StoredReadFacts(kind: k.recording.kind, activityCountsAttempted: k.activityCountsAttempted,
                                        timeZone: k.recording.timeZone, timeZoneSource: k.recording.timeZoneSource)
            if configuration.parameters.nightMethod?.needsRecordingEpochs == true {
                facts.ggirScoresMissing = try storing { try db.ggirScoresMissing(contentHash: identity) }
            }
            return ReadAgain.reason(facts, configuration: configuration, isSamples: detected.isSamples)
        }
        switch again {
        case .counts?:
            logger.notice("\(relativePath): read again for ActiGraph counts (--sleep-algorithm \(configuration.parameters.sleepAlgorithm?.rawValue ?? ""))")
        case .zone(let was)?:
            logger.notice("\(relativePath): time zone \(was) → \(configuration.timeZoneIdentifier ?? "") (--tz): nights split again")
        case .ggirScores?:
            logger.notice("\(relativePath): read again for GGIR's 2023 non-wear scores (--method ggir), which nights stored by an older sleepsta lack")
        case .kind?, nil: break
        }
        var zoneChanged = false
        if case .zone? = again { zoneChanged = true }
        let oldNightIDs = zoneChanged ? try storing { try db.nightIDs(contentHash: identity) } : []
        if again == nil, let storedPath = known?.recording.path {
            // Same content: unchanged, or moved (its old path is gone), or a copy (both exist).
            // Same content has the same size: a stored size that differs is a link's own size from
            // an older store, which kept the stat fast path from ever matching.
            if known?.recording.sizeBytes != before.sizeBytes {
                try storing { try db.correctSizeBytes(contentHash: identity, to: before.sizeBytes) }
            }
            let oldFile = (configuration.dataDirectory as NSString).appendingPathComponent(storedPath)
            if storedPath != relativePath && !FileManager.default.fileExists(atPath: oldFile) {
                try storing { try db.moveRecording(contentHash: identity, to: relativePath) }
                try rememberStat(before, hashBegan: hashBegan, path: path, relativePath: relativePath, contentHash: identity, db: db)
                logger.notice("\(relativePath): moved from \(storedPath) (same content, nights kept)")
                return .moved(nightIDs: try storing { try db.nightIDs(contentHash: identity) })
            }
            if storedPath != relativePath {
                logger.notice("\(relativePath): same content as \(storedPath), stored once (under \(storedPath))")
                return .twin(of: storedPath)
            }
            logger.debug("\(relativePath): unchanged (\(identity.prefix(19)))")
            try rememberStat(before, hashBegan: hashBegan, path: path, relativePath: relativePath, contentHash: identity, db: db)
            return .unchanged
        }
        let read = try early?.wait().get() ?? RecordingRead.read(detected, path: path, options: options)
        var warnings = read.warnings
        let nightIDs = try store(read, path: path, relativePath: relativePath, contentHash: identity, before: before, db: db, runID: runID,
                                 clockUnchanged: !zoneChanged, warnings: &warnings)
        try rememberStat(before, hashBegan: hashBegan, path: path, relativePath: relativePath, contentHash: identity, db: db)
        // Nights the new split no longer has lose their report folders (the index no longer lists them).
        removeReportFolders(Set(oldNightIDs).subtracting(nightIDs))
        logger.info("\(relativePath): \(read.logLine), \(Plural.count(nightIDs.count, "night"))")
        for w in warnings { logger.notice("\(relativePath): \(w)") }
        return .ingested(nightIDs: nightIDs, kind: read.decision.kind, warnings: warnings)
    }

    /// The night loop, the same for every kind of recording: the read recording is split into
    /// nights (noon to noon on its local clock), each night analysed by the method of the
    /// recording's kind and stored with the recording in one transaction. Nights are made,
    /// analysed and stored one at a time, so memory holds one night's series, not the whole
    /// recording's (an app export of 30 years).
    ///
    /// The analyses stored before for this recording (other interval lengths from `compare`, a
    /// diary, another sleep algorithm) are not lost when the file is read again: each of their
    /// parameter sets is derived anew for the new nights in the same transaction
    /// (``rederived(_:method:)``), one guided by another diary with the guides stored with it, as long as
    /// the recording's clock is the one those guides were placed on (`clockUnchanged`).
    func store(_ read: RecordingRead, path: String, relativePath: String, contentHash: String, before: FileStability,
               db: SleepDatabase, runID: Int64?, clockUnchanged: Bool = true, warnings: inout [String]) throws -> [String] {
        let method = NightAnalysisMethods.method(for: read.decision.kind)
        var again = rederived(try storing { try db.storedAnalysisParameters(recordingPath: relativePath, contentHash: contentHash) },
                              method: method)
        let dropped = clockUnchanged ? [] : again.filter(guidedByAnotherDiary)
        if !dropped.isEmpty {
            again.removeAll(where: guidedByAnotherDiary)
            warnings.append("\(dropped.count) stored analysis parameter set(s) guided by another sleep diary were not derived again: the recording's clock changed, so the diary's times fall elsewhere (run with that --diary to restore them)")
        }
        let guides = again.contains(where: guidedByAnotherDiary)
            ? try storing { try db.storedGuides(recordingPath: relativePath, contentHash: contentHash) } : [:]
        // GGIR parity reads the other days (its imputation): the nights get the whole recording.
        let needsRecording = ([configuration.parameters] + again).contains { $0.nightMethod?.needsRecordingEpochs == true }
        let stem = NightNaming.recordingStem(relativePath)
        let taken = try storing { try db.nightIDs(excludingPath: relativePath) }
        let stored = StoredRecording(
            path: relativePath, contentHash: contentHash, format: read.format,
            sizeBytes: before.sizeBytes, sampleCount: read.sampleCount, effectiveSampleRateHz: read.effectiveSampleRateHz,
            firstUTC: read.span?.first, endUTC: read.span?.end, timeZone: read.timeZoneName, timeZoneSource: read.timeZoneSource.rawValue,
            units: read.units, gravity: read.gravity.rawValue, quality: read.quality,
            warningsJSON: try Self.json(read.warnings), kind: read.decision.kind.rawValue, kindReason: read.decision.reason)
        try before.requireUnchanged(path: path)
        let rhythm = read.milestone.rhythm(timeline: read.timeline, parameters: configuration.parameters)
        var nightIDs: [String] = []
        try storing { try db.replaceRecording(stored, runID: runID, rhythm: rhythm) { store in
            var ids = NightIDSequence(stem: stem, taken: taken)
            for segment in read.segments {
                let series = segment.series   // computed for interval totals: once per segment
                for window in NightSplitter.nights(in: series, timeline: read.timeline) {
                    let id = ids.next(window.date)
                    let milestone = read.milestone.night(window)
                    var night = StoredNight(id: id, window: window, timeline: read.timeline, timeZone: read.timeZoneName,
                                            label: segment.label,
                                            preBedSurvey: segment.preBedSurvey.map { SurveyItem(question: $0.question, answer: $0.answer) },
                                            postBedSurvey: segment.postBedSurvey.map { SurveyItem(question: $0.question, answer: $0.answer) },
                                            series: series.slice(from: window.startUTC, to: window.endUTC).trimmedToData(),
                                            epochs: milestone.epochs, epochFile: milestone.epochFile, kind: read.decision.kind)
                    night.guide = configuration.diary?.guide(recordingPath: relativePath, night: window, timeline: read.timeline)
                    if needsRecording, case .wearable(let whole) = read.milestone { night.recordingEpochs = whole; night.recordingFacts = stored.facts }
                    var analyses = [Self.analysis(night.data, method: method, parameters: configuration.parameters)]
                    for p in again {
                        var data = night.data
                        if let digest = p.diaryDigest {
                            // This run's diary gave the night's guide already; another diary's is the stored one.
                            if guidedByAnotherDiary(p) { data.guide = guides[SleepDatabase.guideKey(nightDate: window.date.description, diaryDigest: digest)] }
                        } else {
                            data.guide = nil   // the analysis without a diary
                        }
                        analyses.append(Self.analysis(data, method: method, parameters: p))
                    }
                    try store(night, analyses)
                    nightIDs.append(id)
                }
            }
        } }
        return nightIDs
    }

    /// Of the parameter sets stored for a recording before it is read again, those to derive again
    /// beside this run's: every other key of the recording's method, once.
    func rederived(_ earlier: [AnalysisParameters], method: any NightAnalysisMethod) -> [AnalysisParameters] {
        var seen: Set<String> = [method.parametersKey(configuration.parameters)]
        return earlier.filter { seen.insert(method.parametersKey($0)).inserted }
    }

    /// Whether `p` was guided by a sleep diary other than this run's: its guides come from the
    /// store (``SleepDatabase/storedGuides(recordingPath:contentHash:)``), not from a diary.
    func guidedByAnotherDiary(_ p: AnalysisParameters) -> Bool {
        p.diaryDigest.map { $0 != configuration.diary?.digest } ?? false
    }

    /// A night analysed by `method` under `parameters`, keeping the diary guide it used (stored
    /// with it, so that it can be derived again without the diary).
    static func analysis(_ data: NightData, method: any NightAnalysisMethod, parameters: AnalysisParameters) -> NightAnalysis {
        var analysis = method.analyze(data, parameters: parameters)
        if parameters.diaryDigest != nil { analysis.guide = data.guide }
        return analysis
    }

    /// The recording stored with the content `hashes` describe, if any. One stored before the
    /// store's identities became BLAKE3 is found by its SHA-256 and gets its BLAKE3 here, so the
    /// rest of the batch (moved, copied, unchanged) knows it by BLAKE3 only (FileHashing.swift).
    func identify(_ hashes: FileHashing.ContentHashes, relativePath: String, db: SleepDatabase) throws
        -> (recording: StoredRecording, activityCountsAttempted: Bool)? {
        if let known = try db.recording(contentHash: hashes.blake3) { return known }
        guard let legacy = hashes.sha256, var found = try db.recording(contentHash: legacy) else { return nil }
        try db.replaceContentHash(legacy, with: hashes.blake3)
        logger.debug("\(relativePath): content identity \(legacy.prefix(19))… is now \(hashes.blake3.prefix(19))…")
        found.recording.contentHash = hashes.blake3
        return found
    }

    static func timestamp(_ date: Date = Date()) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try e.encode(value), as: UTF8.self)
    }

    /// The run's parameters for the `runs` table (``RunParameters``): a nightly run compares them
    /// with the previous run's to know what its reports show, and reuses them for options it is not given.
    static func parametersJSON(_ c: PipelineConfiguration, shard: ShardStamp? = nil) -> String {
        (try? json(RunParameters(c, shard: shard))) ?? "{}"
    }
}

extension SecondSeries {
    /// The series cut to its first and last covered seconds.
    func trimmedToData() -> SecondSeries {
        guard let span = dataSpan else { return self }
        return slice(from: span.first, to: span.end)
    }
}
