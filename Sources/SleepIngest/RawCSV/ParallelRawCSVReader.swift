#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import SleepCore

/// The fast path of ``RawCSVReader`` for plain (uncompressed) files with numeric epoch timestamps:
/// the file is memory-mapped, split into chunks at line boundaries, parsed on every core, and the
/// parsed samples are handed **in file order** to the same ``SampleIntake`` the serial reader uses.
///
/// Why this shape: parsing text is about 80 % of the work and is independent per line, so it runs
/// in parallel; the per-second accumulator and the quality checks sum floating-point values in
/// order (and drop or refuse samples that step back in time), so they stay serial, fed with the
/// same values in the same order. The result is therefore identical to the serial reader's, bit
/// for bit — per-second series, quality facts and warnings — by construction rather than by
/// tolerance; `ParallelRawCSVReaderTests` checks it on generated files.
///
/// Memory stays constant in the file's length: at most ``window`` parsed chunks wait for the
/// accumulator, and mapped pages are released (`MADV_DONTNEED`) once their chunk is parsed, so the
/// mapping never makes the whole file resident.
///
/// It does not phrase errors: anything the serial reader would refuse or treat specially (ISO
/// timestamps, a byte-order mark on a data row, gzip, a bad row anywhere) makes ``read(path:options:samples:)``
/// return nil, and the caller runs the serial reader, which reports the exact file and line.
package struct ParallelRawCSVReader {
    /// Bytes of text per chunk. 4 MiB: large enough that scheduling costs nothing, small enough that
    /// a chunk's parsed samples (≈ 32 bytes per row) stay in the second-level cache of the core
    /// that accumulates them.
    var chunkBytes = 4 << 20
    /// Threads that parse (the accumulator runs on whichever of them is free). 1 = the fused serial
    /// loop: parse a row, accumulate it, no hand-off.
    var threads = ParallelRawCSVReader.availableCores
    /// Parsed chunks allowed to wait for the accumulator.
    var window = 4

    static var availableCores: Int {
        let n = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        return max(1, Int(n))
    }

    package init(chunkBytes: Int = 4 << 20, threads: Int = ParallelRawCSVReader.availableCores, window: Int = 4) {
        self.chunkBytes = max(4096, chunkBytes); self.threads = max(1, threads); self.window = max(2, window)
    }

    /// Statistics of the last read, for the benchmark and the constant-memory test.
    package struct Statistics: Sendable, Equatable {
        var chunks: Int
        package var threadsUsed: Int
        /// Most parsed-sample bytes held at once (block capacity in use), a bound on the reader's own memory.
        var peakBlockBytes: Int
        /// Most bytes reserved for parsed samples at once (bounded by the chunk and line limits).
        package var peakReservedBytes: Int
        /// Seconds summed whole by the parser threads (the rest went sample by sample, in order).
        package var secondsSummedWhileParsing: Int

        package init(chunks: Int = 0, threadsUsed: Int = 0, peakBlockBytes: Int = 0, peakReservedBytes: Int = 0,
                     secondsSummedWhileParsing: Int = 0) {
            self.chunks = chunks; self.threadsUsed = threadsUsed; self.peakBlockBytes = peakBlockBytes
            self.peakReservedBytes = peakReservedBytes; self.secondsSummedWhileParsing = secondsSummedWhileParsing
        }
    }

    /// The recording, or nil when the file is not one this path takes (then use the serial reader,
    /// which also reports any error). `samples` is left as it was when nil is returned (rewound, see
    /// ``SampleSink/rewind(to:)``, if it was fed partway). Throws only
    /// when the file shrank while it was read (see ``MappedFile/changedWhileRead``).
    package func read<Sink: SampleSink>(path: String, options: IngestOptions, samples: inout Sink,
                                statistics: UnsafeMutablePointer<Statistics>? = nil) throws(IngestError) -> Recording? {
        guard let file = MappedFile(path: path) else { return nil }
        defer { file.close() }
        let original = samples
        Self.afterMappingForTesting?(path)
        let recording = readMapped(file, options: options, samples: &samples, statistics: statistics)
        if file.changedWhileRead {
            samples.rewind(to: original)
            throw IngestError.changedWhileRead(path: path, detail: "it shrank from \(file.size) bytes")
        }
        return recording
    }

    /// A second pass over a file this path has already read in full: every row's sample straight
    /// to `samples`, with no per-second accumulator and no quality checks (the first pass made the
    /// recording; a calibrated pass only wants the samples again).
    ///
    /// The caller must know that the first pass's intake handed every parsed sample on, in file
    /// order (no timestamp stepped back: nothing kept out of order, nothing dropped). Then the
    /// sink gets here exactly what it got there, value for value: the same rows through the same
    /// parser (``RawCSVFastLines`` gives the serial reader's bits). That is about a quarter of
    /// the reading core's work in the second pass of a calibrated 7-day CSV.
    ///
    /// Returns false, having handed `samples` nothing, when the file is not one this path takes
    /// (gzip, ISO timestamps, no data row); and false, with `samples` fed partway, when a row needs
    /// the serial reader after all or a sample is one the intake would not have handed on as it is
    /// (``ForwardingConsumer``: the file changed since the first read): the caller then discards
    /// the sink and reads the file the usual way. Throws when the file shrank while it was read.
    func replay<Sink: SampleSink>(path: String, axisScale: Double = 1, samples: inout Sink) throws(IngestError) -> Bool {
        guard let file = MappedFile(path: path) else { return false }
        defer { file.close() }
        guard let head = RawCSVHead.rows(of: file) else { return false }
        var consumer = ForwardingConsumer(sink: samples, scale: axisScale)
        defer { samples = consumer.sink }
        guard Self.fusedSerial(file, head: head, chunkCount: file.chunkCount(dataStart: head.dataStart, dataEnd: head.dataEnd, chunkBytes: chunkBytes),
                               chunkBytes: chunkBytes, consumer: &consumer) else { return false }
        if file.changedWhileRead { throw IngestError.changedWhileRead(path: path, detail: "it shrank from \(file.size) bytes") }
        return true
    }

    /// Whether ``read(path:options:samples:statistics:)`` takes the file (plain, its header and first
    /// data row as this path reads them), judged from its first rows.
    static func takes(path: String) -> Bool {
        guard let file = MappedFile(path: path) else { return false }
        defer { file.close() }
        return RawCSVHead.rows(of: file) != nil
    }

    /// Test seam: runs after the file is mapped and before it is parsed (to truncate it there).
    package nonisolated(unsafe) static var afterMappingForTesting: ((String) -> Void)?

    private func readMapped<Sink: SampleSink>(_ file: MappedFile, options: IngestOptions, samples: inout Sink,
                                              statistics: UnsafeMutablePointer<Statistics>?) -> Recording? {
        guard let head = RawCSVHead.rows(of: file) else { return nil }

        let zoneTimeline: UTCOffsetTimeline?
        if let id = options.timeZoneIdentifier {
            guard let tl = ZoneTimeline.timeline(identifier: id) else { return nil }
            zoneTimeline = tl
        } else { zoneTimeline = nil }

        let original = samples
        var consumer = IntakeConsumer(intake: SampleIntake(sink: samples), scale: options.rawCSVAxisScale)
        let chunkCount = file.chunkCount(dataStart: head.dataStart, dataEnd: head.dataEnd, chunkBytes: chunkBytes)
        // A sink that keeps samples gets them from the accumulating thread in order, so parser
        // threads could only sum seconds it cannot use: parse on one core, and leave the other to
        // the sink (ThreadedSampleSink runs the wearable milestone there). A sink that takes whole
        // seconds (none, or only their calibration features: a raw CSV's lean first pass) lets
        // both cores parse.
        let threadCount = Sink.takesWholeSeconds ? min(threads, chunkCount) : 1
        var stats = Statistics(chunks: chunkCount, threadsUsed: threadCount, peakBlockBytes: 0)
        let ok: Bool
        if threadCount == 1 {
            ok = Self.fusedSerial(file, head: head, chunkCount: chunkCount, chunkBytes: chunkBytes, consumer: &consumer)
        } else {
            let board = ParallelParseSchedule(file: file, head: head, chunkCount: chunkCount, chunkBytes: chunkBytes,
                                   window: window, consumer: consumer)
            DispatchQueue.concurrentPerform(iterations: threadCount) { _ in board.work() }
            ok = !board.stopped
            stats.peakBlockBytes = board.peakBlockBytes
            stats.peakReservedBytes = board.peakReservedBytes
            stats.secondsSummedWhileParsing = board.secondsSummedWhileParsing
            consumer = board.consumer
            board.release()
        }
        statistics?.pointee = stats
        guard ok, !consumer.failed,
              var recording = Self.finish(consumer, zoneName: options.timeZoneIdentifier, zoneTimeline: zoneTimeline)
        else {
            samples = consumer.intake.sink
            samples.rewind(to: original)
            return nil
        }
        samples = consumer.intake.sink
        if let cutShort = head.cutShort { recording.warnings.append(cutShort) }
        return recording
    }

    /// One thread: parse and consume row by row, chunk by chunk (so mapped pages are released as
    /// it goes); false where a row needs the serial reader or the consumer stopped.
    static func fusedSerial<Consumer: StoppingSampleConsumer>(_ file: MappedFile, head: RawCSVHead, chunkCount: Int, chunkBytes: Int,
                                                              consumer: inout Consumer) -> Bool {
        for index in 0..<chunkCount {
            guard let range = file.chunkRange(index, count: chunkCount, dataStart: head.dataStart, dataEnd: head.dataEnd, chunkBytes: chunkBytes) else { return false }
            file.prefetch(range)
            guard case .finished = RawCSVFastLines.parse(file.bytes, from: range.lowerBound, to: range.upperBound,
                                                         secondsPerUnit: head.secondsPerUnit, into: &consumer),
                  !consumer.stopped else { return false }
            file.release(range)
        }
        return true
    }

    /// The recording as ``RawCSVReader`` finishes it for a file with epoch timestamps (no stated
    /// offsets); nil where it would refuse the file (no samples, m/s² instead of g).
    static func finish<Sink: SampleSink>(_ consumer: IntakeConsumer<Sink>, zoneName: String?,
                                         zoneTimeline: UTCOffsetTimeline?) -> Recording? {
        // No samples, or a unit that changes on the way: the serial reader names the line.
        guard consumer.intake.accumulator.sampleCount > 0, consumer.level.change == nil else { return nil }
        let (series, quality) = consumer.intake.finish()
        let meanNorm = consumer.normSum / Double(max(consumer.normCount, 1))
        if meanNorm > 6 && meanNorm < 14 { return nil }
        let gravity = consumer.intake.refinedGravity((meanNorm > 0.7 && meanNorm < 1.3) ? .included : (meanNorm < 0.3 ? .removed : .unknown),
                                                     meanNorm: meanNorm)
        var warnings: [String] = []
        let timeline = zoneTimeline ?? .utc
        let source: TimeZoneSource = zoneTimeline == nil ? .assumedUTC : .option
        if zoneTimeline == nil { warnings.append("no time zone in the data and no --tz: nights are assigned on the UTC clock") }
        warnings += consumer.intake.warnings(quality)
        return Recording(format: .rawCSV, segments: [RecordingSegment(series: series)], timeline: timeline,
                         timeZoneName: zoneName ?? "UTC", timeZoneSource: source, gravity: gravity, quality: quality, warnings: warnings)
    }
}

/// Feeds parsed samples to ``SampleIntake`` exactly as ``RawCSVReader`` does (including its gravity
/// check over the first 1000 samples).
struct IntakeConsumer<Sink: SampleSink>: StoppingSampleConsumer {
    var intake: SampleIntake<Sink>
    var normSum = 0.0
    var normCount = 0
    /// The intake refused a sample (time went back too far, span too long): the serial reader must report it.
    var failed = false
    /// ``IngestOptions/rawCSVAxisScale``.
    let scale: Double
    var level = AccelerationLevelWatch()

    init(intake: SampleIntake<Sink>, scale: Double = 1) { self.intake = intake; self.scale = scale }
    var stopped: Bool { failed }

    @inline(__always)
    mutating func consume(timestamp: Double, x xIn: Double, y yIn: Double, z zIn: Double) {
        let x = xIn * scale, y = yIn * scale, z = zIn * scale
        if normCount < 1000 { normSum += (x * x + y * y + z * z).squareRoot(); normCount += 1 }
        level.observe(x: x, y: y, z: z)
        do { try intake.add(timestamp: timestamp, x: x, y: y, z: z) } catch { failed = true }
    }
}

/// Hands parsed samples straight to a sink (``ParallelRawCSVReader/replay(path:samples:)``), and
/// stops at the first sample ``SampleIntake`` would not have handed on as it is: one earlier than
/// the sample before, before 1970 or after ``SampleIntake/latestPlausibleSecond``, or stretching the
/// recording past ``SecondAccumulator/maximumSpanSeconds``. On the unchanged file of a first read
/// that handed every sample on, none is; on a file rewritten between the passes, the replay stops
/// there (``refused``) and the caller reads the file in full, through the intake's checks.
struct ForwardingConsumer<Sink: SampleSink>: StoppingSampleConsumer {
    var sink: Sink
    private(set) var refused = false
    private var last = 0.0
    /// Below this: plausible, and within the span from the first sample's second (an integer
    /// bound, so `t < upper` is exactly the intake's `floor(t) − first second < span`).
    private var upper = -Double.infinity
    /// ``IngestOptions/rawCSVAxisScale``, as the first read applied it.
    let scale: Double
    init(sink: Sink, scale: Double = 1) { self.sink = sink; self.scale = scale }
    var stopped: Bool { refused }

    @inline(__always)
    mutating func consume(timestamp t: Double, x xIn: Double, y yIn: Double, z zIn: Double) {
        let x = xIn * scale, y = yIn * scale, z = zIn * scale
        if t >= last && t < upper {
            last = t
            sink.add(timestamp: t, x: x, y: y, z: z)
        } else {
            first(timestamp: t, x: x, y: y, z: z)
        }
    }

    /// The first sample (which fixes the bounds), or one that leaves them.
    @inline(never)
    private mutating func first(timestamp t: Double, x: Double, y: Double, z: Double) {
        guard !refused, upper == -.infinity, t >= 0, t < SampleIntake<DiscardingSampleSink>.latestPlausibleSecond else {
            refused = true
            upper = -.infinity; last = .infinity   // nothing more is handed on
            return
        }
        upper = Swift.min(SampleIntake<DiscardingSampleSink>.latestPlausibleSecond,
                          t.rounded(.down) + Double(SecondAccumulator.maximumSpanSeconds))
        last = t
        sink.add(timestamp: t, x: x, y: y, z: z)
    }
}

/// Where the data rows start and what the timestamps count, from the file's first rows.
struct RawCSVHead {
    var dataStart: Int
    var secondsPerUnit: Double
    /// Where the rows end: the end of the bytes given to ``locate(_:size:)``, or the start of a last
    /// row cut short (``dropRowCutShort(_:size:)``).
    var dataEnd: Int
    /// The warning for a last row cut short and dropped, as ``RawCSVReader`` words it.
    var cutShort: String? = nil

    /// Where the rows of a mapped file are, for the paths that read it mapped (read, replay):
    /// nil for a gzip file (the serial stream inflates it) and for what ``locate(_:size:)`` leaves
    /// to the serial reader; the last row dropped if it was cut short (``dropRowCutShort(_:size:)``).
    static func rows(of file: MappedFile) -> RawCSVHead? {
        let p = file.bytes
        if file.size >= 2 && p[0] == 0x1F && p[1] == 0x8B { return nil }
        guard var head = locate(p, size: file.size) else { return nil }
        head.dropRowCutShort(p, size: file.size)
        return head
    }

    /// A plain file whose last row has no line end and does not parse as a row (a copy or
    /// download interrupted, a logger still writing) ends before that row: the serial reader
    /// drops it with the same warning (``LineScanner/cutShortWarning(rowStart:end:line:streamCut:)``).
    /// A last row that parses is kept, as there. A row read whole whose sample the intake refuses
    /// (a time far back) is left in: the fast path then gives the file to the serial reader,
    /// which refuses it as damage (``IngestError/sampleRefused``).
    mutating func dropRowCutShort(_ p: UnsafePointer<UInt8>, size: Int) {
        guard size > dataStart, p[size - 1] != UInt8(ascii: "\n") else { return }
        var rowStart = size
        while rowStart > dataStart && p[rowStart - 1] != UInt8(ascii: "\n") {
            rowStart -= 1
            if size - rowStart >= LineScanner.maximumLineBytes { return }   // the serial reader refuses a line this long
        }
        var probe = FirstTimestamp()
        guard RawCSVFastLines.general(p, from: rowStart, to: size, factor: secondsPerUnit, into: &probe) == nil else { return }
        dataEnd = rowStart
        cutShort = LineScanner.cutShortWarning(rowStart: rowStart, end: size, line: nil, streamCut: nil)
    }

    /// Reads the header (if any) and the first data row the way ``RawCSVReader`` does; nil for what
    /// the fast path leaves to the serial reader (ISO timestamps, a bad header, a byte-order mark
    /// before data, no data row).
    static func locate(_ p: UnsafePointer<UInt8>, size: Int) -> RawCSVHead? {
        var lineStart = 0
        var sawFirst = false
        while lineStart < size {
            let limit = LineScanner.maximumLineBytes
            guard let lineEnd = memchr(p + lineStart, Int32(UInt8(ascii: "\n")), min(size - lineStart, limit))
                .map({ p.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }) ?? (size - lineStart < limit ? size : nil)
            else { return nil }   // a line too long: the serial reader refuses it with its number
            var end = lineEnd
            if end > lineStart && p[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            if end == lineStart { lineStart = lineEnd + 1; continue }   // blank
            if !sawFirst {
                sawFirst = true
                var a = lineStart
                let bom = end - lineStart >= 3 && p[a] == 0xEF && p[a + 1] == 0xBB && p[a + 2] == 0xBF
                if bom { a += 3 }
                var b = a
                while b < end && p[b] != UInt8(ascii: ",") { b += 1 }
                var fa = a, fb = b
                while fa < fb && (p[fa] == 32 || p[fa] == 9) { fa += 1 }
                while fb > fa && (p[fb - 1] == 32 || p[fb - 1] == 9) { fb -= 1 }
                if fb - fa >= 2 && p[fa] == 34 && p[fb - 1] == 34 { fa += 1; fb -= 1 }
                if case .number = FastNumber.parse(p, fa, fb) {
                    if bom { return nil }
                } else {
                    if ISOTimestamp.parse(p, fa, fb) != nil { return nil }
                    guard isValidHeader(p, lineStart, end) else { return nil }
                    lineStart = lineEnd + 1
                    continue
                }
            }
            // The first data row fixes the timestamp unit; the row itself is parsed again with the rest.
            var probe = FirstTimestamp()
            guard RawCSVFastLines.general(p, from: lineStart, to: size, factor: 1, into: &probe) != nil,
                  let v = probe.value, case .epoch(let factor, _) = TimestampKind.epochKind(forMagnitude: v) else { return nil }
            return RawCSVHead(dataStart: lineStart, secondsPerUnit: factor, dataEnd: size)
        }
        return nil
    }

    /// ``RawCSVReader``'s header rule: four columns, the last three naming x, y and z.
    static func isValidHeader(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        let text = String(decoding: UnsafeBufferPointer(start: p + start, count: end - start), as: UTF8.self)
        let names = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimming(charactersIn: " \t\"").lowercased() }
        guard names.count == 4 else { return false }
        for (axis, name) in zip(["x", "y", "z"], names[1...]) {
            let ok = name == axis || name.hasPrefix(axis + "_") || name.hasPrefix(axis + " ") || name.hasPrefix(axis + "(")
                || name.hasSuffix("_" + axis) || name.hasSuffix(" " + axis) || name.hasSuffix("." + axis) || name.hasSuffix("acc" + axis)
            guard ok else { return false }
        }
        return true
    }

    private struct FirstTimestamp: ParsedSampleConsumer {
        var value: Double?
        mutating func consume(timestamp: Double, x: Double, y: Double, z: Double) { if value == nil { value = timestamp } }
    }
}

/// A read-only memory map of a whole file. Pages are released after use so that resident memory
/// stays at a few chunks whatever the file's length.
///
/// The mapping is registered with ``MappedReadGuard``: if the file shrinks while it is read, the
/// pages past its new end read as zeros instead of killing the process with SIGBUS, and
/// ``changedWhileRead`` says so (whatever was parsed must then be thrown away).
final class MappedFile: @unchecked Sendable {
    let bytes: UnsafePointer<UInt8>
    let size: Int
    private let fd: Int32
    private let guardSlot: Int?
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    init?(path: String) {
        guard let fd = try? FileBytes.open(path: path) else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 else { Glibc.close(fd); return nil }
        let size = Int(st.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { Glibc.close(fd); return nil }
        _ = madvise(base, size, MADV_SEQUENTIAL)
        self.fd = fd
        self.size = size
        self.bytes = UnsafePointer(base.assumingMemoryBound(to: UInt8.self))
        self.guardSlot = MappedReadGuard.register(start: base, length: size)
    }

    /// The file shrank while it was mapped: a read past its new end found zeros, not the file.
    var changedWhileRead: Bool {
        if let guardSlot, MappedReadGuard.hasFaulted(guardSlot) { return true }
        var st = stat()
        return fstat(fd, &st) != 0 || Int(st.st_size) < size
    }

    func close() {
        if let guardSlot { MappedReadGuard.unregister(guardSlot) }
        munmap(UnsafeMutableRawPointer(mutating: bytes), size)
        Glibc.close(fd)
    }

    /// How many chunks of about `chunkBytes` cover `[dataStart, dataEnd)` (at least one).
    func chunkCount(dataStart: Int, dataEnd: Int, chunkBytes: Int) -> Int {
        max(1, (dataEnd - dataStart + chunkBytes - 1) / chunkBytes)
    }

    /// Chunk `index` of `count` over `[dataStart, size)`: nominal boundaries every `chunkBytes`, each
    /// moved forward to the next line start, so neighbouring chunks meet exactly. Nil when a line
    /// crossing a boundary is ``LineScanner/maximumLineBytes`` or longer: the serial reader then
    /// refuses it with its line number, as it does in a gzip file (a chunk once reserved room for
    /// 4 bytes of parsed samples per byte of such a line: 8 GB for a 2 GiB line).
    func chunkRange(_ index: Int, count: Int, dataStart: Int, dataEnd size: Int, chunkBytes: Int) -> Range<Int>? {
        let limit = LineScanner.maximumLineBytes
        func boundary(_ k: Int) -> Int? {
            if k == 0 { return dataStart }
            if k >= count { return size }
            let nominal = dataStart + k * chunkBytes
            if nominal >= size { return size }
            if bytes[nominal - 1] == UInt8(ascii: "\n") { return nominal }
            guard let nl = memchr(bytes + nominal, Int32(UInt8(ascii: "\n")), min(size - nominal, limit)) else {
                return size - nominal < limit ? size : nil
            }
            return bytes.distance(to: nl.assumingMemoryBound(to: UInt8.self)) + 1
        }
        guard let lo = boundary(index), let hi = boundary(index + 1) else { return nil }
        return lo..<max(lo, hi)
    }

    /// Maps the pages of `range` in one system call (instead of one page fault per 64 KiB).
    func prefetch(_ range: Range<Int>) {
        let lo = range.lowerBound / Self.pageSize * Self.pageSize
        guard range.upperBound > lo else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: bytes + lo), range.upperBound - lo, 22 /* MADV_POPULATE_READ */)
    }

    /// Drops the pages from the one holding `lower` up to (not including) the one holding `upper`:
    /// a sweep behind the in-order accumulator that also takes the pages ``release(_:)`` leaves
    /// (those shared by two chunks, and those the kernel maps around a page fault: up to 64 KiB
    /// past a chunk's end, often after the next chunk was released; without the sweep they stayed
    /// mapped to the end, about 60 MB for the 7-day benchmark file and half that for 3.5 days).
    func releasePages(from lower: Int, upTo upper: Int) {
        let lo = lower / Self.pageSize * Self.pageSize
        let hi = upper / Self.pageSize * Self.pageSize
        guard hi > lo else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: bytes + lo), hi - lo, MADV_DONTNEED)
    }

    /// Drops the whole pages inside `range` from this process's resident set (the page cache keeps them).
    func release(_ range: Range<Int>) {
        let lo = (range.lowerBound + Self.pageSize - 1) / Self.pageSize * Self.pageSize
        let hi = range.upperBound / Self.pageSize * Self.pageSize
        guard hi > lo else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: bytes + lo), hi - lo, MADV_DONTNEED)
    }
}
