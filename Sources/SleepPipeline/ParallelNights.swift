#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Runs independent work items (nights, files) on every core and returns their results in item
/// order, so that whatever the caller does with them afterwards is the same as after a serial loop.
///
/// Errors: every item runs; the error of the first failing item *in item order* is rethrown, as a
/// serial loop would have thrown it (the serial loop would have stopped there; items after it are
/// independent and their results are simply dropped).
enum ParallelNights {
    static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    static func map<T>(_ count: Int, threads: Int = ParallelNights.cores, _ body: @Sendable (Int) throws -> T) throws -> [T] {
        let slots = Slots<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, count))) { _ in
            while let index = slots.claim() {
                let result: Result<T, any Error>
                do { result = .success(try body(index)) } catch { result = .failure(error) }
                slots.store(result, at: index)
            }
        }
        return try slots.results()
    }

    /// Item indices to claim and result slots to fill, behind one lock.
    private final class Slots<T>: @unchecked Sendable {
        private var next = 0
        private var values: [Result<T, any Error>?]
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

        init(count: Int) {
            values = Array(repeating: nil, count: count)
            pthread_mutex_init(lock, nil)
        }
        deinit { pthread_mutex_destroy(lock); lock.deallocate() }

        func claim() -> Int? {
            pthread_mutex_lock(lock); defer { pthread_mutex_unlock(lock) }
            guard next < values.count else { return nil }
            next += 1
            return next - 1
        }

        func store(_ result: Result<T, any Error>, at index: Int) {
            pthread_mutex_lock(lock); defer { pthread_mutex_unlock(lock) }
            values[index] = result
        }

        func results() throws -> [T] {
            try values.map { try $0!.get() }
        }
    }
}

/// Calls a callback from several threads one at a time (progress bars are not thread-safe), with
/// a count of the calls so far.
final class SerializedProgress: @unchecked Sendable {
    private let callback: ((Int, Int, String) -> Void)?
    private let total: Int
    private var done = 0
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(total: Int, _ callback: ((Int, Int, String) -> Void)?) {
        self.total = total; self.callback = callback
        pthread_mutex_init(lock, nil)
    }
    deinit { pthread_mutex_destroy(lock); lock.deallocate() }

    func step(_ item: String) {
        pthread_mutex_lock(lock); defer { pthread_mutex_unlock(lock) }
        done += 1
        callback?(done, total, item)
    }
}
