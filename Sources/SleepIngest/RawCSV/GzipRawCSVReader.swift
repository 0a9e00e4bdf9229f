#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import SleepCore

/// The fast path of ``RawCSVReader`` for gzip files (`*.csv.gz`) with numeric epoch timestamps:
/// one thread inflates with ISA-L (``IsalInflater``) into a ring of 4 MiB blocks while the calling
/// thread parses the blocks already inflated with the same row parser and in-order intake as the
/// plain path's fused serial loop (``ParallelRawCSVReader/fusedSerial``). Inflate and
/// parse-and-accumulate, of about the same speed, then overlap on the two cores instead of following
/// each other, where the serial reader inflated with zlib (half ISA-L's speed) and parsed row by row
/// (docs/ingest-performance.md).
///
/// Same text, same parser, same order, hence the same recording bit for bit as the serial reader
/// (tested against it, multi-member streams included). Anything else — a stream ISA-L refuses or
/// that ends early, ISO timestamps, a row the fast parser leaves to the serial reader, a line of
/// ``LineScanner/maximumLineBytes`` or more — returns nil, and the caller runs the serial reader,
/// which inflates through ``IsalGzipByteStream`` (zlib where ISA-L fails) and reports any error
/// with its file, line and offset as before. Memory: the ring (4 blocks of 5 MiB), whatever the
/// file's length.
package struct GzipRawCSVReader {
    var blockBytes: Int
    var blocks: Int

    /// The recording, or nil when the file is not one this path takes (then use the serial reader).
    package func read<Sink: SampleSink>(path: String, options: IngestOptions, samples: inout Sink) -> Recording? {
        guard Self.isGzip(path: path) else { return nil }
        let zoneTimeline: UTCOffsetTimeline?
        if let id = options.timeZoneIdentifier {
            guard let tl = ZoneTimeline.timeline(identifier: id) else { return nil }
            zoneTimeline = tl
        } else { zoneTimeline = nil }
        guard let inflater = IsalInflater(path: path) else { return nil }
        let ring = InflateRing(inflater: inflater, blockBytes: blockBytes, carryBytes: LineScanner.maximumLineBytes, blocks: blocks)
        defer { ring.stop() }

        let original = samples
        var consumer = IntakeConsumer(intake: SampleIntake(sink: samples), scale: options.rawCSVAxisScale)
        var head: RawCSVHead? = nil
        // The incomplete last line of the previous block, copied in front of the next one.
        let carry = UnsafeMutablePointer<UInt8>.allocate(capacity: LineScanner.maximumLineBytes)
        defer { carry.deallocate() }
        var carried = 0
        var ok = true
        loop: while true {
            guard let block = ring.next() else { ok = false; break }   // ISA-L failed: the serial reader says how
            let dataStart = block.carryBytes - carried
            if carried > 0 { (block.base + dataStart).update(from: carry, count: carried) }
            let p = UnsafePointer(block.base)
            let end = block.carryBytes + block.count
            let last = block.isLast
            // Complete lines only, unless this is the end of the stream.
            var parseEnd = end
            if !last {
                guard let nl = Self.lastNewline(p, from: dataStart, to: end) else {
                    // No line end in a whole block: a line of maximumLineBytes or more is the serial reader's to refuse.
                    carried = end - dataStart
                    if carried >= LineScanner.maximumLineBytes { ok = false; break }
                    carry.update(from: p + dataStart, count: carried)
                    ring.recycle(block)
                    continue
                }
                parseEnd = nl + 1
            }
            var from = dataStart
            if head == nil {
                // The header and the first data row, as the plain path finds them (on complete lines).
                guard let h = RawCSVHead.locate(p + dataStart, size: parseEnd - dataStart) else { ok = false; break }
                head = h
                from = dataStart + h.dataStart
            }
            guard case .finished = RawCSVFastLines.parse(p, from: from, to: parseEnd, secondsPerUnit: head!.secondsPerUnit,
                                                         into: &consumer), !consumer.failed else { ok = false; break }
            carried = end - parseEnd
            if carried >= LineScanner.maximumLineBytes { ok = false; break }
            if carried > 0 { carry.update(from: p + parseEnd, count: carried) }
            ring.recycle(block)
            if last { break loop }
        }
        guard ok, head != nil,
              var recording = ParallelRawCSVReader.finish(consumer, zoneName: options.timeZoneIdentifier, zoneTimeline: zoneTimeline)
        else {
            samples = consumer.intake.sink
            samples.rewind(to: original)
            return nil
        }
        recording.compression = "gzip"
        samples = consumer.intake.sink
        return recording
    }

    static func isGzip(path: String) -> Bool {
        guard let fd = try? FileBytes.open(path: path) else { return false }
        defer { close(fd) }
        var magic: (UInt8, UInt8) = (0, 0)
        let n = withUnsafeMutableBytes(of: &magic) { pread(fd, $0.baseAddress, 2, 0) }
        return n == 2 && magic.0 == 0x1F && magic.1 == 0x8B
    }

    /// Offset of the last `\n` in `[from, to)`.
    static func lastNewline(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        var i = to - 1
        while i >= from {
            if p[i] == UInt8(ascii: "\n") { return i }
            i -= 1
        }
        return nil
    }

    package init(blockBytes: Int = 4 << 20, blocks: Int = 4) { self.blockBytes = blockBytes; self.blocks = blocks }
}

/// The inflating thread and its ring of blocks. Each block has `carryBytes` of room in front of
/// the inflated bytes, where the consumer puts the previous block's incomplete last line.
final class InflateRing: @unchecked Sendable {
    final class Block: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
        let carryBytes: Int
        var count = 0
        var isLast = false
        init(carryBytes: Int, blockBytes: Int) {
            self.carryBytes = carryBytes
            base = .allocate(capacity: carryBytes + blockBytes)
        }
        deinit { base.deallocate() }
    }

    private let inflater: IsalInflater
    private let blockBytes: Int
    private var free: [Block]
    /// Filled blocks in order; nil = ISA-L failed.
    private var filled: [Block?] = []
    private let lock = NSLock()
    /// Created at 0 and signalled once per block: libdispatch traps when a semaphore is released
    /// with a value below the one it was created with (blocks still out when the reader stops early).
    private let freeCount = DispatchSemaphore(value: 0)
    private let filledCount = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var stopping = false
    private var stopped = false

    init(inflater: IsalInflater, blockBytes: Int, carryBytes: Int, blocks: Int) {
        self.inflater = inflater
        self.blockBytes = blockBytes
        free = (0..<max(2, blocks)).map { _ in Block(carryBytes: carryBytes, blockBytes: blockBytes) }
        for _ in free { freeCount.signal() }
        let worker = Thread { [unowned self] in self.work() }
        worker.stackSize = 1 << 20
        worker.start()
    }

    private func work() {
        defer { done.signal() }
        while true {
            freeCount.wait()
            lock.lock()
            if stopping { lock.unlock(); return }
            let b = free.removeLast()
            lock.unlock()
            var count = 0
            var failed = false
            let out = b.base + b.carryBytes
            while count < blockBytes {
                do throws(IsalInflater.Failure) {
                    let n = try inflater.read(into: out + count, count: blockBytes - count)
                    if n == 0 { break }
                    count += n
                } catch { failed = true; break }
            }
            b.count = count
            b.isLast = count < blockBytes
            lock.lock(); filled.append(failed ? nil : b); lock.unlock()
            filledCount.signal()
            if failed || b.isLast { return }
        }
    }

    /// The next filled block in order; nil when inflating failed.
    func next() -> Block? {
        filledCount.wait()
        lock.lock(); defer { lock.unlock() }
        return filled.removeFirst()
    }

    func recycle(_ b: Block) {
        b.count = 0; b.isLast = false
        lock.lock(); free.append(b); lock.unlock()
        freeCount.signal()
    }

    /// Stops the worker (if still running) and waits for it: call once, when done with the ring.
    func stop() {
        lock.lock(); stopping = true; lock.unlock()
        freeCount.signal()
        done.wait()
    }
}
