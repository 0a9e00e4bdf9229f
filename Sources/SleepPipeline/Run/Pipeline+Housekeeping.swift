import Foundation
import Logging
import SleepCore
import SleepReport
import SleepIngest
import SleepStore

/// The run's housekeeping around its files: recordings whose file is gone, runs a killed process
/// left `running`, the diary's rows that guide no night, and the reports folder.
extension Pipeline {
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
        // The page folders as the reports named them, before any recording is removed.
        let folders = ReportBuilder.recordingFolders(try storing { try db.recordingPaths() })
        for path in gone {
            let nights = try storing { try db.deleteRecording(path: path) }
            removeReportFolders(Set(nights).union([folders[path] ?? ReportBuilder.recordingFolder(path)]))
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
        // A night whose row cannot be read guides nothing (the report step names it).
        let catalog = try storing { try db.nightCatalog(unreadable: { _ in }) }
        let timelines = Dictionary(catalog.map { ($0.recordingPath, $0.timeline) }, uniquingKeysWith: { first, _ in first })
        let notApplied = catalog.reduce(into: [String: String]()) { result, night in
            let method = NightAnalysisMethods.method(for: night.kind, parameters: configuration.parameters)
            if let reason = method.diaryNonwearNotApplied { result[night.recordingPath] = reason }
        }
        summary.diary = diary.use(nightDates: try storing { try db.nightDatesByRecordingPath() }, timelines: timelines,
                                  nonwearNotApplied: notApplied)
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
}
