#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SleepCore

/// One parsed sample, as the parser threads hand it to the accumulator (32 bytes, written and read
/// once, sequentially).
struct ParsedSample {
    var timestamp: Double
    var x: Double
    var y: Double
    var z: Double
}

/// The parsed samples of one chunk.
final class SampleBlock {
    private(set) var base: UnsafeMutablePointer<ParsedSample>
    private(set) var capacity: Int
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    /// Room for the samples of `bytes` bytes of rows: a sample row is at least 8 bytes (`1,0,0,0` and
    /// its newline), the file's last row 7.
    func prepare(forBytes bytes: Int) {
        let needed = bytes / 8 + 1
        if needed > capacity {
            base.deallocate()
            capacity = needed
            base = .allocate(capacity: capacity)
        }
        count = 0
    }

    deinit { base.deallocate() }
}

/// Appends parsed samples to a ``SampleBlock`` (capacity reserved by ``SampleBlock/prepare(forBytes:)``).
struct SampleBlockWriter: ParsedSampleConsumer {
    let base: UnsafeMutablePointer<ParsedSample>
    var count = 0
    @inline(__always)
    mutating func consume(timestamp: Double, x: Double, y: Double, z: Double) {
        (base + count).initialize(to: ParsedSample(timestamp: timestamp, x: x, y: y, z: z))
        count &+= 1
    }
}

/// Work sharing between the parser threads of ``ParallelRawCSVReader``.
///
/// Every thread runs ``work()``: it claims the next chunk and parses it into a block, unless the
/// next block *in file order* is ready and nobody is accumulating, in which case it becomes the
/// accumulator for as long as blocks are ready in order. So both cores parse, and the serial
/// accumulation runs on whichever core is free, never in parallel with itself and always in order.
/// At most `window` chunks are claimed ahead of the accumulator, which bounds memory.
final class ChunkBoard<Sink: SampleSink>: @unchecked Sendable {
    private let file: MappedFile
    private let head: RawCSVHead
    private let chunkCount: Int
    private let chunkBytes: Int
    private let window: Int
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`:
    private var nextToClaim = 0
    private var nextToConsume = 0
    private var ready: [SampleBlock?]
    private var spare: [SampleBlock] = []
    private var accumulating = false
    private var allBlocks: [SampleBlock] = []
    private(set) var stopped = false
    private(set) var peakBlockBytes = 0
    /// Touched only by the thread that holds `accumulating` (hand-over through `mutex`).
    var consumer: IntakeConsumer<Sink>

    init(file: MappedFile, head: RawCSVHead, chunkCount: Int, chunkBytes: Int, window: Int, consumer: IntakeConsumer<Sink>) {
        self.file = file; self.head = head; self.chunkCount = chunkCount; self.chunkBytes = chunkBytes
        self.window = window; self.consumer = consumer
        ready = Array(repeating: nil, count: window)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    func release() {
        pthread_cond_destroy(condition); condition.deallocate()
        pthread_mutex_destroy(mutex); mutex.deallocate()
        ready = []; spare = []; allBlocks = []
    }

    func work() {
        pthread_mutex_lock(mutex)
        while true {
            if stopped || nextToConsume == chunkCount { break }
            if !accumulating, let block = ready[nextToConsume % window] {
                ready[nextToConsume % window] = nil
                accumulating = true
                pthread_mutex_unlock(mutex)
                let ok = accumulate(block)
                pthread_mutex_lock(mutex)
                accumulating = false
                spare.append(block)
                nextToConsume += 1
                if !ok { stopped = true }
                pthread_cond_broadcast(condition)
                continue
            }
            if nextToClaim < chunkCount && nextToClaim < nextToConsume + window {
                let index = nextToClaim
                nextToClaim += 1
                let block = spare.popLast() ?? { let b = SampleBlock(capacity: 0); allBlocks.append(b); return b }()
                pthread_mutex_unlock(mutex)
                let ok = parse(index, into: block)
                pthread_mutex_lock(mutex)
                if ok { ready[index % window] = block } else { stopped = true }
                let capacity = allBlocks.reduce(0) { $0 + $1.capacity }
                peakBlockBytes = max(peakBlockBytes, capacity * MemoryLayout<ParsedSample>.stride)
                pthread_cond_broadcast(condition)
                continue
            }
            pthread_cond_wait(condition, mutex)
        }
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    private func parse(_ index: Int, into block: SampleBlock) -> Bool {
        let range = file.chunkRange(index, count: chunkCount, dataStart: head.dataStart, chunkBytes: chunkBytes)
        block.prepare(forBytes: range.count)
        file.prefetch(range)
        var writer = SampleBlockWriter(base: block.base)
        let outcome = RawCSVFastLines.parse(file.bytes, from: range.lowerBound, to: range.upperBound,
                                            secondsPerUnit: head.secondsPerUnit, into: &writer)
        block.count = writer.count
        file.release(range)
        return outcome != .needsSerialReader
    }

    private func accumulate(_ block: SampleBlock) -> Bool {
        Self.accumulate(block, into: &consumer)
    }

    /// The whole block through one `inout` access: touching the class's `consumer` per sample
    /// cost a dynamic exclusivity check each time.
    private static func accumulate(_ block: SampleBlock, into consumer: inout IntakeConsumer<Sink>) -> Bool {
        let p = block.base
        for i in 0..<block.count {
            let s = p[i]
            consumer.consume(timestamp: s.timestamp, x: s.x, y: s.y, z: s.z)
        }
        return !consumer.failed
    }
}
