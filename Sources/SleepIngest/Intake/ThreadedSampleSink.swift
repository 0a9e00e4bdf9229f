import Dispatch
import Foundation
import SleepCore

/// Runs a costly ``SampleSink`` (the wearable milestone's metrics: rolling medians, ENMO, angle-z;
/// ``SplitWearableSink``) on a thread of its own, so that it overlaps the reader's decoding and per-second accumulation on
/// the other core instead of following them.
///
/// The reader's side only copies each sample into a batch (four stores); full batches of
/// ``batchSamples`` go through a bounded queue (``batches`` in flight at most: about 8 MB), and
/// the worker feeds them to the inner sink in order. The inner sink therefore sees exactly the
/// samples, in exactly the order, that it would see called directly: the result is the same, bit
/// for bit (tested).
public struct ThreadedSampleSink<Inner: SampleSink & Sendable>: SampleSink {
    public static var batchSamples: Int { 1 << 16 }
    static var batches: Int { 4 }

    final class Batch: @unchecked Sendable {
        let t = UnsafeMutablePointer<Double>.allocate(capacity: ThreadedSampleSink.batchSamples)
        let x = UnsafeMutablePointer<Double>.allocate(capacity: ThreadedSampleSink.batchSamples)
        let y = UnsafeMutablePointer<Double>.allocate(capacity: ThreadedSampleSink.batchSamples)
        let z = UnsafeMutablePointer<Double>.allocate(capacity: ThreadedSampleSink.batchSamples)
        var count = 0
        deinit { t.deallocate(); x.deallocate(); y.deallocate(); z.deallocate() }
    }

    /// What producer and worker share: the inner sink (the worker's alone until it has finished),
    /// the free batches and the filled ones, each list behind its semaphore.
    final class Shared: @unchecked Sendable {
        var inner: Inner
        private var free: [Batch]
        private var filled: [Batch?] = []
        private let lock = DispatchSemaphore(value: 1)
        private let freeCount: DispatchSemaphore
        private let filledCount = DispatchSemaphore(value: 0)
        private let done = DispatchSemaphore(value: 0)

        init(inner: Inner) {
            self.inner = inner
            free = (0..<ThreadedSampleSink.batches).map { _ in Batch() }
            freeCount = DispatchSemaphore(value: ThreadedSampleSink.batches)
            let worker = Thread { [unowned self] in self.work() }
            worker.stackSize = 1 << 20
            worker.start()
        }

        func takeFree() -> Batch {
            freeCount.wait()
            lock.wait(); let b = free.removeLast(); lock.signal()
            b.count = 0
            return b
        }

        /// Hands a batch (or nil: the end) to the worker.
        func submit(_ b: Batch?) {
            lock.wait(); filled.append(b); lock.signal()
            filledCount.signal()
        }

        private func work() {
            while true {
                filledCount.wait()
                lock.wait(); let next = filled.removeFirst(); lock.signal()
                guard let b = next else { done.signal(); return }
                // One access to `inner` per batch (a class's stored property: a dynamic
                // exclusivity check on every access), then plain calls per sample.
                withUnsafeMutablePointer(to: &inner) { sink in
                    sink.pointee.add(timestamps: b.t, x: b.x, y: b.y, z: b.z, count: b.count)
                }
                lock.wait(); free.append(b); lock.signal()
                freeCount.signal()
            }
        }

        func waitUntilDone() { done.wait() }
    }

    let shared: Shared
    /// The inner sink as given to ``init(_:)``, for ``rewind(to:)``.
    private let initial: Inner
    private var batch: Batch
    /// Samples in `batch`, kept here and written to the batch when it is handed on: a class's
    /// stored property costs a dynamic exclusivity check (`swift_beginAccess`) per read and per
    /// write, about 5 % of the reader's core on a 7-day `.cwa` when the count lived there.
    private var count = 0
    private var finished = false

    public init(_ inner: Inner) {
        initial = inner
        shared = Shared(inner: inner)
        batch = shared.takeFree()
    }

    /// A copy shares the worker, its batches and the inner sink they went to: restoring one after
    /// a reader gave up partway would hand the next reader a batch the worker may hold and an
    /// inner sink that already has samples. So this ends the worker (its result is dropped) and
    /// starts a fresh one on `original`'s inner sink as it was given to ``init(_:)``: `original`
    /// must be a copy taken before any sample was added (as the readers take it).
    public mutating func rewind(to original: Self) {
        if !finished { _ = finish() }
        self = ThreadedSampleSink(original.initial)
    }

    @inline(__always)
    public mutating func add(timestamp: Double, x: Double, y: Double, z: Double) {
        store(timestamp: timestamp, x: x, y: y, z: z)
        if isFull { submit() }
    }

    /// Copies the sample into the open batch, without handing a full batch on (``submit()``).
    @inline(__always)
    mutating func store(timestamp: Double, x: Double, y: Double, z: Double) {
        let i = count
        batch.t[i] = timestamp; batch.x[i] = x; batch.y[i] = y; batch.z[i] = z
        count = i + 1
    }

    /// Whether the open batch is full (hand it on with ``submit()`` before the next ``store``).
    var isFull: Bool { count == Self.batchSamples }

    /// The open batch's samples (structure of arrays), to be read before ``submit()`` hands them on.
    var openBatch: (t: UnsafePointer<Double>, x: UnsafePointer<Double>, y: UnsafePointer<Double>, z: UnsafePointer<Double>, count: Int) {
        (UnsafePointer(batch.t), UnsafePointer(batch.x), UnsafePointer(batch.y), UnsafePointer(batch.z), count)
    }

    /// Hands the open batch to the worker and opens the next.
    mutating func submit() {
        batch.count = count
        shared.submit(batch)
        batch = shared.takeFree()
        count = 0
    }

    /// Hands on the last samples, waits for the worker and returns the inner sink. Call once, after
    /// the reader has returned; the worker thread ends here.
    public mutating func finish() -> Inner {
        precondition(!finished, "finish() once")
        finished = true
        batch.count = count
        shared.submit(batch)
        shared.submit(nil)
        shared.waitUntilDone()
        return shared.inner
    }
}
