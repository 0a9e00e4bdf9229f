#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import SleepCore

/// Entry points to the raw-sample CSV paths one by one, for the benchmark (`sleepsta-bench`) and
/// the equivalence tests. The batch itself just calls ``RawCSVReader``, which takes the parallel
/// path when it can.
package enum RawCSVIngest {
    /// What a read did, besides its recording.
    package struct Run: Sendable {
        package var recording: Recording
        /// False when the file was left to the serial reader (gzip, ISO timestamps, an error to report).
        package var usedParallelPath: Bool
        package var chunks: Int
        package var threads: Int
        /// Most bytes of parsed samples held between the parser threads and the accumulator.
        package var peakBlockBytes: Int
        /// Seconds the parser threads summed whole while parsing (2 or more threads).
        package var secondsSummedWhileParsing = 0
    }

    /// Reads with the parallel path on `threads` threads (1 = fused serial loop), falling back to
    /// the serial reader exactly as ``RawCSVReader`` does.
    package static func read(path: String, options: IngestOptions = IngestOptions(), threads: Int,
                            chunkBytes: Int = 4 << 20) throws(IngestError) -> Run {
        let reader = ParallelRawCSVReader(chunkBytes: chunkBytes, threads: threads)
        var discard = DiscardingSampleSink()
        var stats = ParallelRawCSVReader.Statistics()
        if let recording = try reader.read(path: path, options: options, samples: &discard, statistics: &stats) {
            return Run(recording: recording, usedParallelPath: true, chunks: stats.chunks, threads: stats.threadsUsed,
                       peakBlockBytes: stats.peakBlockBytes, secondsSummedWhileParsing: stats.secondsSummedWhileParsing)
        }
        return Run(recording: try readSerially(path: path, options: options), usedParallelPath: false,
                   chunks: 0, threads: 1, peakBlockBytes: 0)
    }

    /// The serial reader alone (1 MiB chunks through `read(2)`, one row at a time): the reference
    /// the parallel path must equal.
    package static func readSerially(path: String, options: IngestOptions = IngestOptions()) throws(IngestError) -> Recording {
        try RawCSVReader(parallel: false).read(path: path, options: options)
    }

    /// Parse stage alone: every data row parsed to four numbers and folded into a checksum, no
    /// accumulation. Returns the rows and the sum of all values (so the work cannot be optimised away);
    /// nil when the file is not one the parallel path takes.
    package static func parseOnly(path: String, threads: Int, chunkBytes: Int = 4 << 20) -> (rows: Int, checksum: Double)? {
        guard let file = MappedFile(path: path) else { return nil }
        defer { file.close() }
        guard let head = RawCSVHead.locate(file.bytes, size: file.size) else { return nil }
        let count = file.chunkCount(dataStart: head.dataStart, dataEnd: head.dataEnd, chunkBytes: chunkBytes)
        let results = ResultSlots(count: count)
        let next = ChunkCounter()
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, count))) { _ in
            while let index = next.take(below: count) {
                guard let range = file.chunkRange(index, count: count, dataStart: head.dataStart, dataEnd: head.dataEnd, chunkBytes: chunkBytes) else {
                    results.set(index, nil); continue
                }
                file.prefetch(range)
                var sum = ChecksumConsumer()
                let outcome = RawCSVFastLines.parse(file.bytes, from: range.lowerBound, to: range.upperBound,
                                                    secondsPerUnit: head.secondsPerUnit, into: &sum)
                file.release(range)
                results.set(index, outcome == .needsSerialReader ? nil : (sum.rows, sum.sum))
            }
        }
        return file.changedWhileRead ? nil : results.total()
    }

    /// Accumulate stage alone: samples already in memory (structure of arrays) through the same
    /// intake the readers use (per-second accumulator and quality checks).
    package static func accumulate(timestamps: [Double], x: [Double], y: [Double], z: [Double]) -> (SecondSeries, QualitySummary)? {
        var consumer = IntakeConsumer(intake: SampleIntake(sink: DiscardingSampleSink()))
        timestamps.withUnsafeBufferPointer { t in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    z.withUnsafeBufferPointer { z in
                        for i in 0..<t.count { consumer.consume(timestamp: t[i], x: x[i], y: y[i], z: z[i]) }
                    }
                }
            }
        }
        guard !consumer.failed else { return nil }
        return consumer.intake.finish()
    }
}

private struct ChecksumConsumer: ParsedSampleConsumer {
    var rows = 0
    var sum = 0.0
    @inline(__always)
    mutating func consume(timestamp: Double, x: Double, y: Double, z: Double) {
        rows += 1
        sum += timestamp + x + y + z
    }
}

/// Hands out chunk indices to threads.
private final class ChunkCounter: @unchecked Sendable {
    private var next = 0
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(lock, nil) }
    deinit { pthread_mutex_destroy(lock); lock.deallocate() }
    func take(below count: Int) -> Int? {
        pthread_mutex_lock(lock); defer { pthread_mutex_unlock(lock) }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }
}

/// Per-chunk results written by the threads, read after they finish.
private final class ResultSlots: @unchecked Sendable {
    private var slots: [(Int, Double)?]
    private var failed = false
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init(count: Int) { slots = Array(repeating: nil, count: count); pthread_mutex_init(lock, nil) }
    deinit { pthread_mutex_destroy(lock); lock.deallocate() }
    func set(_ index: Int, _ value: (Int, Double)?) {
        pthread_mutex_lock(lock); defer { pthread_mutex_unlock(lock) }
        if let value { slots[index] = value } else { failed = true }
    }
    func total() -> (rows: Int, checksum: Double)? {
        guard !failed else { return nil }
        return slots.reduce((0, 0.0)) { ($0.0 + ($1?.0 ?? 0), $0.1 + ($1?.1 ?? 0)) }
    }
}
