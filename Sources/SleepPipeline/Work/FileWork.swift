import Foundation
import SleepIngest
import SleepStore

/// The files of a run on every core, with the result of one after the other.
///
/// Each file's work has two parts. Before its turn: the cheap checks, the content hash and the
/// speculative read (parsing), which depend on the file alone and are most of the time. In its
/// turn (``IngestTurnstile``): everything that reads or writes what earlier files stored (is this
/// content known, is it a copy, which night ids are taken) and the one transaction that stores it.
/// Turns are taken in the scan's path order, so the store sees exactly the serial sequence of
/// decisions and writes, and the results are handed back in that order.
///
/// The workers are ``WorkQueue``'s.
extension Pipeline {
    struct FileOutcome {
        var result: Result<IngestOutcome, any Error>
        /// The file's size and times before it was read (explains errors of a file that changed).
        var seen: FileStability?
    }

    func ingestFiles(_ files: [DataFolderScan.File], db: SleepDatabaseHandle, runID: Int64?, progress state: PipelineProgress,
                     threads: Int = WorkQueue.cores) -> [FileOutcome] {
        let turnstile = IngestTurnstile()
        let shared = SharedProgress(state, report: progress.map { o in { o.update($0) } })
        let pipeline = UncheckedBox(self)
        return WorkQueue.results(files.count, threads: threads) { k in
            let file = files[k]
            shared.update { $0.item = file.relativePath }
            let path = (pipeline.value.configuration.dataDirectory as NSString).appendingPathComponent(file.relativePath)
            let seen = try? FileStability.snapshot(path: path)   // a reader's error may come from a file changing
            let result = Result<IngestOutcome, any Error> {
                try pipeline.value.ingest(path: path, relativePath: file.relativePath, db: db.value, runID: runID,
                                          turn: IngestTurn(turnstile: turnstile, index: k))
            }
            var stops = false
            if case .failure(let error) = result, error is PipelineError { stops = true }
            turnstile.finish(k, stopsRun: stops)
            shared.update { state in
                state.done += 1
                state.bytesDone += file.sizeBytes
                if case .success(.ingested(let nightIDs, _, _)) = result { state.nights += nightIDs.count }
            }
            return FileOutcome(result: result, seen: seen)
        }
    }
}

/// `SleepDatabase` is thread-safe (a GRDB pool); the box only carries it into the worker threads.
typealias SleepDatabaseHandle = UncheckedBox<SleepDatabase>

/// One file's place in the order of turns.
struct IngestTurn {
    let turnstile: IngestTurnstile
    let index: Int
    /// Waits until every earlier file has finished; throws when one of them stopped the run.
    func wait() throws { try turnstile.wait(for: index) }
}

/// The order in which files may touch the store: file k's turn comes when files 0…k-1 have all
/// finished (successfully or not), whatever order they finished in.
final class IngestTurnstile: @unchecked Sendable {
    private let condition = NSCondition()
    private var finished = Set<Int>()
    /// Every file before `next` has finished.
    private var next = 0
    /// The first file whose store error stopped the run: files after it do not touch the store.
    private var stoppedAt = Int.max

    struct RunStopped: Error, CustomStringConvertible {
        var description: String { "not ingested: an earlier file's store error stopped the run" }
    }

    func wait(for index: Int) throws {
        condition.lock(); defer { condition.unlock() }
        while next < index { condition.wait() }
        if stoppedAt < index { throw RunStopped() }
    }

    func finish(_ index: Int, stopsRun: Bool) {
        condition.lock(); defer { condition.unlock() }
        finished.insert(index)
        if stopsRun { stoppedAt = min(stoppedAt, index) }
        while finished.remove(next) != nil { next += 1 }
        condition.broadcast()
    }
}
