import Foundation
import SleepIngest
import SleepStore

/// The files of a run on every core, with the result of one after the other (issue 17, item 6).
///
/// Each file's work has two parts. Before its turn: the cheap checks, the content hash and the
/// speculative read (parsing), which depend on the file alone and are most of the time. In its
/// turn (``IngestTurnstile``): everything that reads or writes what earlier files stored (is this
/// content known, is it a copy, which night ids are taken) and the one transaction that stores it.
/// Turns are taken in the scan's path order, so the store sees exactly the serial sequence of
/// decisions and writes, and the results are handed back in that order.
///
/// Workers are plain threads, not Dispatch's pool: a worker waiting for its turn must not hold a
/// pool thread that the speculative read of the file in its turn is queued for.
extension Pipeline {
    struct FileOutcome {
        var result: Result<IngestOutcome, any Error>
        /// The file's size and times before it was read (explains errors of a file that changed).
        var seen: FileStability?
    }

    func ingestFiles(_ files: [DataFolderScan.File], db: SleepDatabaseHandle, runID: Int64?, progress state: PipelineProgress,
                     threads: Int = ParallelNights.cores) -> [FileOutcome] {
        let turnstile = IngestTurnstile()
        let shared = IngestProgress(state: state, observer: progress)
        let outcomes = OrderedSlots<FileOutcome>(count: files.count)
        let pipeline = UncheckedBox(self)
        let workers = max(1, min(threads, files.count))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread {
                while let k = outcomes.claim() {
                    let file = files[k]
                    shared.starting(file.relativePath)
                    let path = (pipeline.value.configuration.dataDirectory as NSString).appendingPathComponent(file.relativePath)
                    let seen = try? FileStability.snapshot(path: path)   // a reader's error may come from a file changing
                    let result = Result<IngestOutcome, any Error> {
                        try pipeline.value.ingest(path: path, relativePath: file.relativePath, db: db.value, runID: runID,
                                                  turn: IngestTurn(turnstile: turnstile, index: k))
                    }
                    var stops = false
                    if case .failure(let error) = result, error is PipelineError { stops = true }
                    turnstile.finish(k, stopsRun: stops)
                    outcomes.store(FileOutcome(result: result, seen: seen), at: k)
                    shared.finished(file, outcome: result)
                }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        return outcomes.values()
    }
}

/// `SleepDatabase` is thread-safe (a GRDB pool); the box only carries it into the worker threads.
typealias SleepDatabaseHandle = UncheckedBox<SleepDatabase>

final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

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

/// Results by item, filled by several threads; items are claimed in order.
final class OrderedSlots<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var nextItem = 0
    private var slots: [T?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func claim() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard nextItem < slots.count else { return nil }
        nextItem += 1
        return nextItem - 1
    }

    func store(_ value: T, at index: Int) {
        lock.lock(); defer { lock.unlock() }
        slots[index] = value
    }

    func values() -> [T] { lock.lock(); defer { lock.unlock() }; return slots.map { $0! } }
}

/// The file stage's progress, updated by the workers one at a time.
final class IngestProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var state: PipelineProgress
    private let observer: (any PipelineProgressObserver)?

    init(state: PipelineProgress, observer: (any PipelineProgressObserver)?) { self.state = state; self.observer = observer }

    func starting(_ item: String) {
        lock.lock(); defer { lock.unlock() }
        state.item = item
        observer?.update(state)
    }

    func finished(_ file: DataFolderScan.File, outcome: Result<Pipeline.IngestOutcome, any Error>) {
        lock.lock(); defer { lock.unlock() }
        state.done += 1
        state.bytesDone += file.sizeBytes
        if case .success(.ingested(let nightIDs, _)) = outcome { state.nights += nightIDs.count }
        observer?.update(state)
    }
}
