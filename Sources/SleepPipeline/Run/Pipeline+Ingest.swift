import Foundation
import Logging
import SleepCore
import SleepIngest
import SleepStore

/// Ingest: every file of the scan on every core (``ingestFiles(_:db:runID:progress:threads:)``),
/// each all or nothing, counted in path order as a serial loop would.
extension Pipeline {
    /// Ingests the scan's files into the summary; returns the nights whose pages must be rendered.
    func ingestAll(_ scan: DataFolderScan, db: SleepDatabase, runID: Int64?, summary: inout RunSummary) throws -> Set<String> {
        let c = configuration
        var affected = Set<String>()
        // A failed file is reported once: in the summary on stdout (and `run_failures`). The log
        // repeats it only at debug level (--verbose), so cron's `2>&1` mail does not hold it twice.
        for problem in scan.problems {
            summary.filesSeen += 1
            logger.debug("\(problem.message)")
            summary.failures.append((problem.relativePath, problem.message))
        }
        let state = PipelineProgress(stage: .files, done: 0, total: scan.files.count, bytesTotal: scan.totalBytes)
        // Files on every core, each touching the store in its turn in path order (FileWork.swift).
        let outcomes = ingestFiles(scan.files, db: SleepDatabaseHandle(db), runID: runID, progress: state,
                                   threads: c.ingestThreads ?? WorkQueue.cores)
        for (file, outcome) in zip(scan.files, outcomes) {
            if case .failure(let e as IngestError) = outcome.result, let side = e.notRecording {   // a table beside the recordings
                summary.notRecordings.append((file.relativePath, side.kind.label)); continue
            }
            summary.filesSeen += 1
            let path = (c.dataDirectory as NSString).appendingPathComponent(file.relativePath)
            do {
                affected.formUnion(Self.count(try outcome.result.get(), file: file.relativePath, into: &summary))
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
        }
        return affected
    }

    /// One file's outcome in the summary; returns the nights whose pages it changed.
    static func count(_ outcome: IngestOutcome, file: String, into summary: inout RunSummary) -> [String] {
        switch outcome {
        case .unchanged:
            summary.filesUnchanged += 1
        case .twin(let original):
            summary.filesUnchanged += 1
            summary.twins.append((file, original))
        case .unchangedByStat:
            summary.filesUnchanged += 1
            summary.filesUnchangedByStat += 1
        case .moved(let nightIDs):
            summary.filesUnchanged += 1
            return nightIDs   // their pages name the recording's path
        case .ingested(let nightIDs, let kind, let warnings):
            summary.filesIngested += 1
            if !nightIDs.isEmpty { summary.kindsAnalysed.insert(kind) }
            summary.nightsStored += nightIDs.count
            summary.nightsAnalysed += nightIDs.count
            summary.warnings += warnings.map { "\(file): \($0)" }
            return nightIDs
        }
        return []
    }

    /// One file, all or nothing: read it whole (streaming, ``RecordingRead``), split into nights,
    /// analyse, and store the recording with every night in one transaction (``store(_:path:relativePath:contentHash:before:db:runID:clockUnchanged:warnings:)``).
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
        let options = try readOptions(relativePath: relativePath, db: db)
        // A new file, or one whose size changed, is read anyway: read it while hashing (SpeculativeRead).
        let storedSize = try storing { try db.storedSizeBytes(ofRecordingAt: relativePath) }
        let early = SpeculativeRead.worthIt(sizeBytes: before.sizeBytes, storedSizeBytes: storedSize)
            ? SpeculativeRead { () throws(IngestError) in try RecordingRead.read(detected, path: path, options: options) } : nil
        defer { early?.wait() }
        // SHA-256 as well only if a recording of this size still has its identity from before
        // BLAKE3 (FileHashing.swift).
        let legacy = try storing { try db.holdsLegacyContentHash(sizeBytes: before.sizeBytes) }
        let hashes = try FileHashing.contentHash(path: path, legacySHA256: legacy)
        try turn?.wait()   // from here on the store as earlier files left it (Work/FileWork.swift)
        let identity = hashes.blake3
        let known = try storingRow { try identify(hashes, relativePath: relativePath, db: db) }
        let again = try known.flatMap { try readAgain($0, contentHash: identity, relativePath: relativePath, isSamples: detected.isSamples, db: db) }
        let decision = FileIdentity.decide(storedPath: known?.recording.path, again: again, relativePath: relativePath) { stored in
            FileManager.default.fileExists(atPath: (configuration.dataDirectory as NSString).appendingPathComponent(stored))
        }
        guard case .read = decision else {
            return try keep(decision, contentHash: identity, storedSize: known?.recording.sizeBytes, before: before, hashBegan: hashBegan,
                            path: path, relativePath: relativePath, db: db)
        }
        var zoneChanged = false
        if case .zone? = again { zoneChanged = true }
        let oldNightIDs = zoneChanged ? try storing { try db.nightIDs(contentHash: identity) } : []
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

    /// This run's read options, with ActiGraph counts where analyses stored for the file need them.
    func readOptions(relativePath: String, db: SleepDatabase) throws -> RecordingRead.Options {
        var options = configuration.readOptions
        // Analyses stored for this file under a counts-based sleep algorithm are derived again with
        // the new read: its milestone must carry the counts too.
        if !options.sumsActivityCounts, options.wearableMilestone,
           try storing({ try db.storedAnalysisParameters(recordingPath: relativePath, contentHash: "") })
               .contains(where: { $0.sleepAlgorithm?.needsCounts ?? false }) {
            options.activityCounts = true
        }
        return options
    }

    /// Why the stored recording `k` must be read again although its bytes are unchanged (``ReadAgain``), said in the log.
    func readAgain(_ k: (recording: StoredRecording, activityCountsAttempted: Bool), contentHash: String, relativePath: String,
                   isSamples: Bool, db: SleepDatabase) throws -> ReadAgain? {
        var facts = StoredReadFacts(kind: k.recording.kind, activityCountsAttempted: k.activityCountsAttempted,
                                    timeZone: k.recording.timeZone, timeZoneSource: k.recording.timeZoneSource)
        if ReadAgain.methodNeedsGGIRScores(kind: k.recording.kind, configuration: configuration) {
            facts.milestoneOutdated = try storing { try db.milestoneOutdated(contentHash: contentHash) }
        }
        let again = ReadAgain.reason(facts, configuration: configuration, isSamples: isSamples)
        switch again {
        case .counts?:
            logger.notice("\(relativePath): read again for ActiGraph counts (--sleep-algorithm \(configuration.parameters.sleepAlgorithm?.rawValue ?? ""))")
        case .zone(let was)?:
            logger.notice("\(relativePath): time zone \(was) → \(configuration.timeZoneIdentifier ?? "") (--tz): nights split again")
        case .ggirScores?:
            logger.notice("\(relativePath): read again for GGIR's 2023 non-wear scores (--method ggir), which nights stored by an older sleepsta lack")
        case .kind?, nil: break
        }
        return again
    }

    /// A file whose content is stored and need not be read: unchanged, moved (its nights follow
    /// it) or a copy of a recording stored under another path (stored once).
    func keep(_ decision: FileIdentity, contentHash identity: String, storedSize: Int64?, before: FileStability, hashBegan: Int64,
              path: String, relativePath: String, db: SleepDatabase) throws -> IngestOutcome {
        // Same content has the same size: a stored size that differs is a link's own size from
        // an older store, which kept the stat fast path from ever matching.
        if storedSize != before.sizeBytes {
            try storing { try db.correctSizeBytes(contentHash: identity, to: before.sizeBytes) }
        }
        switch decision {
        case .moved(let storedPath):
            try storing { try db.moveRecording(contentHash: identity, to: relativePath) }
            try rememberStat(before, hashBegan: hashBegan, path: path, relativePath: relativePath, contentHash: identity, db: db)
            logger.notice("\(relativePath): moved from \(storedPath) (same content, nights kept)")
            return .moved(nightIDs: try storing { try db.nightIDs(contentHash: identity) })
        case .twin(let storedPath):
            logger.notice("\(relativePath): same content as \(storedPath), stored once (under \(storedPath))")
            return .twin(of: storedPath)
        case .unchanged, .read:
            logger.debug("\(relativePath): unchanged (\(identity.prefix(19)))")
            try rememberStat(before, hashBegan: hashBegan, path: path, relativePath: relativePath, contentHash: identity, db: db)
            return .unchanged
        }
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
}
