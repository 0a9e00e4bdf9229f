#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SleepCore

/// One parsed sample, as the parser threads hand it to the accumulator (32 bytes, written and read
/// once, sequentially).
package struct ParsedSample {
    var timestamp: Double
    var x: Double
    var y: Double
    var z: Double
}

/// What the accumulator needs of one parsed chunk: the whole seconds its parser thread summed,
/// and the samples of its first and last second (the two that may continue into the chunks
/// beside it), which go one by one.
///
/// Only those samples are kept: the samples in between are summed and overwritten, so a block
/// touches a few kilobytes instead of 32 bytes for every sample of the chunk (about 1.9 GB of
/// memory writes for the 7-day benchmark file). When the whole seconds cannot be used (the chunk
/// is out of time order, the gravity check still needs samples, the sink wants every sample),
/// the accumulator parses the chunk again, straight into the intake.
final class SampleBlock {
    private(set) var base: UnsafeMutablePointer<ParsedSample>
    private(set) var capacity: Int
    /// Samples stored: the first second's, then the last second's.
    var count = 0
    /// Most samples stored at once since the block was made (what it really occupies).
    private(set) var highWater = 0
    /// The chunk's byte range in the file (for parsing it again).
    var range: Range<Int> = 0..<0
    /// The chunk's seconds in order, each summed completely within this chunk; the first may have
    /// begun in the chunk before and the last one still open (it is not in the list). Empty when
    /// the chunk is not in time order (then it is parsed again, sample by sample into the intake).
    var seconds: [SecondAggregate] = []
    /// Samples `0 ..< firstSecondEnd` belong to the chunk's first second; `lastSecondStart ..< count`
    /// to its last (open) second.
    var firstSecondEnd = 0
    var lastSecondStart = 0
    /// The calibration features of the samples of `seconds[1...]` (the ones summed whole), when
    /// the sink wants them (``SampleSink/wantsChunkFeatures``).
    var features: AutoCalibration.FeatureCollector.Chunk? = nil

    init(capacity: Int) {
        // AggregatingBlockWriter reads the samples as four Doubles each (calibration features).
        precondition(MemoryLayout<ParsedSample>.stride == 32 && MemoryLayout<ParsedSample>.offset(of: \.z) == 24)
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

    func noteStored(_ n: Int) { count = n; highWater = max(highWater, n) }

    /// The seconds array, emptied, for the block's next chunk: its storage (about 1.4 MB for a
    /// 4 MiB chunk) is reused instead of allocated on a parser thread and freed on the
    /// accumulating one for every chunk. (Peak memory did not change with it; what grew with the
    /// file's length was mapped pages, see ``MappedFile/releasePages(from:upTo:)``.)
    /// The features chunk, emptied, for the block's next chunk (its head buffer kept), as
    /// ``takeSeconds()`` does for the seconds.
    func takeFeatures() -> AutoCalibration.FeatureCollector.Chunk {
        var f = features ?? AutoCalibration.FeatureCollector.Chunk()
        features = nil
        f.reset()
        return f
    }

    func takeSeconds() -> [SecondAggregate] {
        var s = seconds
        seconds = []
        s.removeAll(keepingCapacity: true)
        return s
    }

    deinit { base.deallocate() }
}

/// Sums parsed samples per second (the work ``SampleIntake`` would otherwise do one sample at a
/// time on the accumulating thread), with the same operations in the same order, so the sums have
/// the same bits, and keeps the samples of the first second and of the current one in a
/// ``SampleBlock`` (capacity reserved by ``SampleBlock/prepare(forBytes:)``). A chunk out of time
/// order (or with an implausible time) stops being summed; the accumulator parses it again.
struct AggregatingBlockWriter: ParsedSampleConsumer {
    let base: UnsafeMutablePointer<ParsedSample>
    /// Samples stored: `0 ..< firstSecondEnd` the first second, `currentStart ..< count` the current one.
    var count = 0
    var seconds: [SecondAggregate] = []
    var ordered = true
    var firstSecondEnd = -1
    var currentStart = 0
    /// Calibration features of the samples of every closed second after the first (those the
    /// accumulator takes whole), when the sink wants them; nil otherwise.
    var features: AutoCalibration.FeatureCollector.Chunk?
    /// The second being summed; `count` 0 before the first sample.
    private var current = SecondAggregate(
        complete: .init(second: .min, movementSum: 0, legacySum: 0, count: 0, duplicates: 0, lastTimestampBits: 0),
        stats: SecondStats(), lastTimestamp: 0)

    /// `reusing`: an emptied array whose storage is kept from the block's previous chunk.
    init(base: UnsafeMutablePointer<ParsedSample>, reusing seconds: [SecondAggregate], expectedSeconds: Int,
         features: AutoCalibration.FeatureCollector.Chunk? = nil) {
        self.base = base
        self.seconds = seconds
        self.seconds.reserveCapacity(expectedSeconds)
        self.features = features
    }

    @inline(__always)
    mutating func consume(timestamp t: Double, x: Double, y: Double, z: Double) {
        guard ordered else { return }
        guard current.complete.count == 0 || t >= current.lastTimestamp, t >= 0,
              t < SampleIntake<DiscardingSampleSink>.latestPlausibleSecond else { ordered = false; return }
        let second = SecondAccumulator.second(of: t)
        let bits = t.bitPattern
        if second != current.complete.second {
            if current.complete.count > 0 {
                seconds.append(current)
                // The first second's samples stay; each later second overwrites the one before,
                // once its features (if wanted) have its samples, in order.
                if firstSecondEnd < 0 {
                    firstSecondEnd = count
                } else if features != nil {
                    // ParsedSample is four Doubles (timestamp, x, y, z) in that order.
                    UnsafeRawPointer(base + currentStart).withMemoryRebound(to: Double.self, capacity: 4 * (count - currentStart)) {
                        features!.add(interleaved: $0, count: count - currentStart)
                    }
                }
                count = firstSecondEnd
            }
            current.complete = .init(second: second, movementSum: 0, legacySum: 0, count: 0, duplicates: 0, lastTimestampBits: 0)
            current.stats = SecondStats()
            currentStart = count
        } else if bits == current.complete.lastTimestampBits {
            current.complete.duplicates &+= 1
        }
        let c = SecondAccumulator.contribution(x: x, y: y, z: z)
        current.complete.movementSum += c.movement
        current.complete.legacySum += c.legacy
        current.complete.count &+= 1
        current.complete.lastTimestampBits = bits
        current.stats.add(x: x, y: y, z: z)
        current.lastTimestamp = t
        (base + count).initialize(to: ParsedSample(timestamp: t, x: x, y: y, z: z))
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
final class ParallelParseSchedule<Sink: SampleSink>: @unchecked Sendable {
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
    /// Most bytes reserved for parsed samples at once (block capacity, used or not).
    private(set) var peakReservedBytes = 0
    /// Seconds the parser threads summed whole (appended without going through their samples).
    private(set) var secondsSummedWhileParsing = 0
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
                let stored = allBlocks.reduce(0) { $0 + $1.highWater }
                peakBlockBytes = max(peakBlockBytes, stored * MemoryLayout<ParsedSample>.stride)
                peakReservedBytes = max(peakReservedBytes, allBlocks.reduce(0) { $0 + $1.capacity } * MemoryLayout<ParsedSample>.stride)
                pthread_cond_broadcast(condition)
                continue
            }
            pthread_cond_wait(condition, mutex)
        }
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    private func parse(_ index: Int, into block: SampleBlock) -> Bool {
        guard let range = file.chunkRange(index, count: chunkCount, dataStart: head.dataStart, dataEnd: head.dataEnd, chunkBytes: chunkBytes) else { return false }
        block.prepare(forBytes: range.count)
        file.prefetch(range)
        var writer = AggregatingBlockWriter(base: block.base, reusing: block.takeSeconds(), expectedSeconds: range.count / 512 + 4,
                                            features: Sink.wantsChunkFeatures ? block.takeFeatures() : nil)
        let outcome = RawCSVFastLines.parse(file.bytes, from: range.lowerBound, to: range.upperBound,
                                            secondsPerUnit: head.secondsPerUnit, into: &writer)
        block.noteStored(writer.count)
        block.range = range
        block.seconds = writer.seconds
        block.features = writer.features
        if writer.ordered {
            block.firstSecondEnd = writer.firstSecondEnd < 0 ? writer.count : writer.firstSecondEnd
            block.lastSecondStart = writer.currentStart
        } else {
            block.seconds.removeAll(keepingCapacity: true)
        }
        file.release(range)
        return outcome != .needsSerialReader
    }

    /// Pages before this offset are released (touched only by the accumulating thread).
    private var releasedUpTo = 0

    private func accumulate(_ block: SampleBlock) -> Bool {
        let ok = Self.accumulate(block, file: file, head: head, into: &consumer, counting: &secondsSummedWhileParsing)
        file.releasePages(from: releasedUpTo, upTo: block.range.upperBound)
        releasedUpTo = block.range.upperBound
        return ok
    }

    /// The whole block through one `inout` access: touching the class's `consumer` per sample
    /// cost a dynamic exclusivity check each time.
    private static func accumulate(_ block: SampleBlock, file: MappedFile, head: RawCSVHead,
                                   into consumer: inout IntakeConsumer<Sink>, counting whole: inout Int) -> Bool {
        let p = block.base
        func oneByOne(_ range: Range<Int>) {
            for i in range {
                let s = p[i]
                consumer.consume(timestamp: s.timestamp, x: s.x, y: s.y, z: s.z)
            }
        }
        // Whole seconds the parser thread summed go in as such, once the gravity check has its
        // 1000 samples and when this chunk continues the file in time order; the first second (it
        // may continue the chunk before) and the open last one go sample by sample, so that sums
        // across chunk boundaries run in file order too.
        if block.seconds.count >= 2, consumer.normCount >= 1000, consumer.intake.takesWholeSeconds,
           block.count > 0, p[0].timestamp >= consumer.intake.latestTimestamp {
            oneByOne(0..<block.firstSecondEnd)
            for k in 1..<block.seconds.count where !consumer.failed {
                do { try consumer.intake.appendSecond(block.seconds[k]); whole += 1 } catch { consumer.failed = true }
            }
            // What the sink wants of those seconds' samples, in their place in the order.
            if Sink.wantsChunkFeatures, !consumer.failed, let features = block.features { consumer.intake.sink.absorb(features) }
            if !consumer.failed { oneByOne(block.lastSecondStart..<block.count) }
        } else {
            // Every sample in order, as the one-thread path does: parse the chunk again.
            file.prefetch(block.range)
            let outcome = RawCSVFastLines.parse(file.bytes, from: block.range.lowerBound, to: block.range.upperBound,
                                                secondsPerUnit: head.secondsPerUnit, into: &consumer)
            file.release(block.range)
            if outcome == .needsSerialReader { consumer.failed = true }
        }
        return !consumer.failed
    }
}
