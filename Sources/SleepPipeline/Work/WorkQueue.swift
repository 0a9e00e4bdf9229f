#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The one way the batch runs independent items (files, nights) in parallel: items are claimed in
/// order by a few worker threads and their results handed back in item order, so that whatever the
/// caller does with them afterwards is what a serial loop would have done.
///
/// Workers are plain threads, not Dispatch's pool: a file's worker waits for its turn at the store
/// (``IngestTurnstile``) while the speculative read it started is queued on the pool, and a pool
/// thread held by the waiter could starve that read. The 8 MiB stack matches the main thread's
/// (a reader's parse state lives on it).
enum WorkQueue {
    static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// `body(k)` for every k in `0..<count` on up to `threads` threads; each item's result, in item order.
    static func results<T>(_ count: Int, threads: Int = cores, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        let slots = Slots<T>(count: count)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(threads, count)) {
            group.enter()
            let thread = Thread {
                while let k = slots.claim() { slots.store(body(k), at: k) }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        return slots.values()
    }

    /// Like ``results(_:threads:_:)`` for throwing work: every item runs, and the error of the first
    /// failing item *in item order* is rethrown, as a serial loop would have thrown it (the items
    /// after it are independent; their results are dropped).
    static func map<T>(_ count: Int, threads: Int = cores, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
        try results(count, threads: threads) { k in Result { try body(k) } }.map { try $0.get() }
    }

    /// Item indices to claim and result slots to fill, behind one lock.
    private final class Slots<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var slots: [T?]

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func claim() -> Int? {
            lock.lock(); defer { lock.unlock() }
            guard next < slots.count else { return nil }
            next += 1
            return next - 1
        }

        func store(_ value: T, at index: Int) {
            lock.lock(); defer { lock.unlock() }
            slots[index] = value
        }

        func values() -> [T] { lock.lock(); defer { lock.unlock() }; return slots.map { $0! } }
    }
}

/// A run's progress shared by the workers: each change is made and reported one at a time
/// (a terminal bar is not thread-safe).
final class SharedProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var state: PipelineProgress
    private let report: ((PipelineProgress) -> Void)?

    init(_ state: PipelineProgress, report: ((PipelineProgress) -> Void)?) { self.state = state; self.report = report }

    func update(_ change: (inout PipelineProgress) -> Void) {
        lock.lock(); defer { lock.unlock() }
        change(&state)
        report?(state)
    }
}

/// Carries a value that is safe to share (a GRDB pool, the pipeline's immutable configuration)
/// into the worker threads.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
