#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SleepCore

/// Reads `timestamp,x,y,z` raw-sample CSV (acceleration in g) as a stream.
///
/// - Header: optional. A first line whose first field is not a timestamp is a header and must
///   name four columns, the last three being x, y, z (`x`, `x_g`, `accel_x`, ... are accepted).
/// - Timestamp: epoch seconds, milliseconds, microseconds or nanoseconds (told apart by magnitude,
///   fractions allowed), or ISO 8601 with or without an offset (`2024-03-30T23:10:00.250+01:00`).
/// - Rows must not go back in time; rows with the same timestamp are kept and counted.
/// - Fields are separated by commas, or by `;` or tabs with `,` as the decimal mark (``RawCSVDialect``).
///
/// Hand-written byte-level parsing (not a CSV library) because this is the hot path for
/// multi-gigabyte logs: chunks of 1 MiB, `memchr` for line ends, ``FastNumber`` for fields, and
/// the per-second accumulator fed directly, so memory is constant in the file's length.
public struct RawCSVReader: RecordingReader {
    public static let format = RecordingFormat.rawCSV
    public init() {}
    /// `parallel: false` keeps to the serial path (the reference ``ParallelRawCSVReader`` is tested against).
    public init(parallel: Bool) { self.parallel = parallel }
    /// Plain files with epoch timestamps go through ``ParallelRawCSVReader`` (same result, bit for
    /// bit, on every core); it hands anything else, errors included, back to the serial path below.
    public var parallel = true
    /// The gzip inflater (tests and the benchmark compare ISA-L with zlib, the reference).
    package var inflater = GzipInflater.isal

    /// Magnitudes above this are not acceleration in g from any phone or wearable.
    static let implausibleG = 50.0

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        let n = fileName.lowercased()
        guard n.hasSuffix(".csv") else { return false }
        return RawCSVDialect.fourColumns(head)   // this reader takes exactly four columns
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> Recording {
        var discard = DiscardingSampleSink()
        return try read(path: path, options: options, samples: &discard)
    }

    /// Reads the file and also hands every raw sample to `samples` (e.g. a ``RawSampleBuffer``
    /// for ActiGraph counts). The per-second base series is built either way.
    public func read<Sink: SampleSink>(path: String, options: IngestOptions, samples: inout Sink) throws(IngestError) -> Recording {
        let dialect = try RawCSVDialect.of(path: path)
        guard dialect == .comma else {
            // The fast paths parse commas only; these files take the serial path, lines rewritten.
            do throws(IngestError) { return try readSerially(path: path, options: options, samples: &samples, dialect: dialect) }
            catch { throw dialect.explaining(error) }
        }
        if parallel, let recording = try ParallelRawCSVReader().read(path: path, options: options, samples: &samples) { return recording }
        if parallel && inflater == .isal, let recording = GzipRawCSVReader().read(path: path, options: options, samples: &samples) { return recording }
        return try readSerially(path: path, options: options, samples: &samples, dialect: .comma)
    }

    /// The serial reader, the reference of the fast paths, for every dialect.
    func readSerially<Sink: SampleSink>(path: String, options: IngestOptions, samples: inout Sink,
                                        dialect: RawCSVDialect) throws(IngestError) -> Recording {
        let stream = try ByteStreams.open(path: path, inflater: inflater)
        stream.salvageCutShort()
        var state = try ParseState(path: path, options: options, sink: samples)
        var cutShort: String? = nil
        defer { samples = state.intake.sink }
        let capacity = LineScanner.maximumLineBytes
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + 1)
        defer { buffer.deallocate() }
        var carried = 0          // bytes of an incomplete line kept at the buffer's start
        var fileOffset = 0       // file offset of buffer[0]
        while true {
            if carried == capacity {
                throw IngestError(file: path, line: state.lineNumber + 1, message: "line longer than \(capacity) bytes: not a raw-sample CSV")
            }
            let n = try stream.read(into: buffer + carried, count: capacity - carried)
            let filled = carried + n
            if n == 0 {
                // A last row without its line end is complete (some writers leave it off) or cut
                // short; cut for certain when the gzip stream ended early. A cut row is dropped
                // with a warning (LineScanner's rule for the other text readers), never half read.
                if carried > 0 {
                    let streamCut = stream.cutShort
                    let (count, offset) = (carried, fileOffset)
                    if dialect != .comma { dialect.normalise(buffer, 0, count) }
                    let taken = try LineScanner.takeLastLine(&state, isFirstLine: state.lineNumber == 0, streamCut: streamCut) {
                        (s: inout ParseState<Sink>) throws(IngestError) in try s.line(buffer, 0, count, fileOffset: offset)
                    }
                    if !taken {
                        cutShort = LineScanner.cutShortWarning(rowStart: fileOffset, end: fileOffset + carried, line: nil, streamCut: streamCut)
                    }
                } else if let streamCut = stream.cutShort {
                    cutShort = LineScanner.cutShortWarning(rowStart: nil, end: fileOffset, line: nil, streamCut: streamCut)
                }
                break
            }
            var start = 0
            while start < filled, let nl = memchr(buffer + start, Int32(UInt8(ascii: "\n")), filled - start) {
                let end = buffer.distance(to: nl.assumingMemoryBound(to: UInt8.self))
                if dialect != .comma { dialect.normalise(buffer, start, end) }
                try state.line(buffer, start, end, fileOffset: fileOffset)
                start = end + 1
            }
            carried = filled - start
            if carried > 0 && start > 0 { memmove(buffer, buffer + start, carried) }
            fileOffset += start
        }
        var recording = try state.finish()
        recording.compression = stream.compression
        if let cutShort { recording.warnings.append(cutShort) }
        return recording
    }
}

extension RawCSVReader: RawSampleReader {}

extension RawCSVReader {
    /// Whether a first read that gave `recording` handed every parsed sample to its sink, in file
    /// order: a plain file whose intake kept no sample out of order and dropped none. Only then
    /// may ``replaySamples(path:samples:)`` stand in for a second full read.
    public static func passedEverySample(_ recording: Recording) -> Bool {
        recording.format == .rawCSV && recording.compression == nil
            && recording.quality.backwardTimestampsKept == 0 && recording.quality.backwardSamplesDropped == 0
    }

    /// Whether the file is one the mapped parallel path reads (plain, epoch timestamps), whose
    /// samples ``replaySamples(path:samples:)`` can hand on again: the pipeline then makes its
    /// first pass a lean one (the recording and the calibration features) and computes the
    /// wearable milestone in the second.
    public func takesLeanFirstPass(path: String) -> Bool {
        parallel && (try? RawCSVDialect.of(path: path)) == .comma && ParallelRawCSVReader.takes(path: path)
    }

    /// The file's samples again, straight to `samples` (no recording): see
    /// ``ParallelRawCSVReader/replay(path:samples:)``, including when it returns false. Call it only
    /// when ``passedEverySample(_:)`` held for the first read.
    public func replaySamples<Sink: SampleSink>(path: String, options: IngestOptions = IngestOptions(), samples: inout Sink) throws(IngestError) -> Bool {
        guard parallel, try RawCSVDialect.of(path: path) == .comma else { return false }
        return try ParallelRawCSVReader().replay(path: path, axisScale: options.rawCSVAxisScale, samples: &samples)
    }
}


/// The reader's per-file state, separate so that `line` can be a tight mutating method.
/// Generic over the sink so the per-sample call is static, not through an existential.
private struct ParseState<Sink: SampleSink> {
    let path: String
    var intake: SampleIntake<Sink>
    let zoneTimeline: UTCOffsetTimeline?
    let zoneName: String?
    var lineNumber = 0
    var sawHeaderOrData = false
    var kind: TimestampKind? = nil
    // Offsets stated by ISO timestamps, as transitions of a timeline.
    var statedOffset: Int32? = nil
    var offsetTransitions: [UTCOffsetTimeline.Transition] = []
    var initialStatedOffset: Int32? = nil
    var sawTimestampWithoutOffset = false
    // Gravity check on the first samples.
    var normSum = 0.0
    var normCount = 0
    /// ``IngestOptions/rawCSVAxisScale``.
    let scale: Double
    var level = AccelerationLevelWatch()
    /// The line at which ``level`` saw the unit change.
    var levelChangeLine: Int? = nil

    init(path: String, options: IngestOptions, sink: Sink) throws(IngestError) {
        self.path = path
        scale = options.rawCSVAxisScale
        // No device range: a phone log states none, so clipping is not assessed.
        self.intake = SampleIntake(sink: sink)
        if let id = options.timeZoneIdentifier {
            guard let tl = ZoneTimeline.timeline(identifier: id) else {
                throw IngestError(file: path, message: "unknown time zone '\(id)': expected an IANA name such as Europe/Berlin")
            }
            zoneTimeline = tl; zoneName = id
        } else { zoneTimeline = nil; zoneName = nil }
    }

    @inline(__always)
    mutating func line(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ endIn: Int, fileOffset: Int) throws(IngestError) {
        lineNumber += 1
        var end = endIn
        if end > start && p[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        if end == start { return }   // blank line
        // Split into exactly four fields.
        var bounds: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
        var fieldStart = start
        var fieldIndex = 0
        var i = start
        while i <= end {
            if i == end || p[i] == UInt8(ascii: ",") {
                var a = fieldStart, b = i
                while a < b && (p[a] == 32 || p[a] == 9) { a += 1 }
                while b > a && (p[b - 1] == 32 || p[b - 1] == 9) { b -= 1 }
                // A quoted field is accepted as long as it holds no comma.
                if b - a >= 2 && p[a] == 34 && p[b - 1] == 34 { a += 1; b -= 1 }
                switch fieldIndex {
                case 0: bounds.0 = a; bounds.1 = b
                case 1: bounds.2 = a; bounds.3 = b
                case 2: bounds.4 = a; bounds.5 = b
                case 3: bounds.6 = a; bounds.7 = b
                default: break
                }
                fieldIndex += 1
                fieldStart = i + 1
            }
            i += 1
        }
        if !sawHeaderOrData {
            sawHeaderOrData = true
            if p[start] == 0xEF && end - start >= 3 && p[start + 1] == 0xBB && p[start + 2] == 0xBF {
                // UTF-8 byte-order mark: skip it for the first field.
                if bounds.0 == start { bounds.0 += 3 }
            }
            if !looksLikeTimestamp(p, bounds.0, bounds.1) {
                try checkHeader(p, start, end, fieldCount: fieldIndex)
                return
            }
        }
        guard fieldIndex == 4 else {
            throw IngestError(file: path, line: lineNumber, message: "expected 4 comma-separated fields (timestamp,x,y,z), found \(fieldIndex)")
        }
        let t = try timestamp(p, bounds.0, bounds.1)
        let x = try value(p, bounds.2, bounds.3, axis: "x") * scale
        let y = try value(p, bounds.4, bounds.5, axis: "y") * scale
        let z = try value(p, bounds.6, bounds.7, axis: "z") * scale
        if normCount < 1000 { normSum += (x * x + y * y + z * z).squareRoot(); normCount += 1 }
        level.observe(x: x, y: y, z: z)
        if levelChangeLine == nil && level.change != nil { levelChangeLine = lineNumber }
        do {
            try intake.add(timestamp: t, x: x, y: y, z: z)
        } catch {
            var refused = IngestError(file: path, line: lineNumber, message: IngestError.message(for: error))
            refused.sampleRefused = true
            throw refused
        }
    }

    func looksLikeTimestamp(_ p: UnsafeMutablePointer<UInt8>, _ a: Int, _ b: Int) -> Bool {
        if case .number = FastNumber.parse(p, a, b) { return true }
        return ISOTimestamp.parse(p, a, b) != nil
    }

    func checkHeader(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int, fieldCount: Int) throws(IngestError) {
        let text = String(decoding: UnsafeBufferPointer(start: p + start, count: end - start), as: UTF8.self)
        let names = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimming(charactersIn: " \t\"").lowercased() }
        guard fieldCount == 4, names.count == 4 else {
            throw IngestError(file: path, line: lineNumber, message: "header has \(names.count) columns; expected 4: timestamp,x,y,z")
        }
        for (axis, name) in zip(["x", "y", "z"], names[1...]) {
            let ok = name == axis || name.hasPrefix(axis + "_") || name.hasPrefix(axis + " ") || name.hasPrefix(axis + "(")
                || name.hasSuffix("_" + axis) || name.hasSuffix(" " + axis) || name.hasSuffix("." + axis) || name.hasSuffix("acc" + axis)
            guard ok else {
                throw IngestError(file: path, line: lineNumber, message: "header column '\(name)' should name the \(axis) axis; expected timestamp,x,y,z")
            }
        }
    }

    @inline(__always)
    mutating func timestamp(_ p: UnsafeMutablePointer<UInt8>, _ a: Int, _ b: Int) throws(IngestError) -> Double {
        if kind == nil {
            if case .number(let v) = FastNumber.parse(p, a, b) { kind = TimestampKind.epochKind(forMagnitude: v) }
            else if ISOTimestamp.parse(p, a, b) != nil { kind = .iso8601 }
            else { throw badTimestamp(p, a, b) }
        }
        switch kind! {
        case .epoch(let factor, _):
            guard case .number(let v) = FastNumber.parse(p, a, b) else { throw badTimestamp(p, a, b) }
            return v * factor
        case .iso8601:
            guard let ts = ISOTimestamp.parse(p, a, b) else { throw badTimestamp(p, a, b) }
            if let o = ts.offsetSeconds {
                let utc = ts.localSeconds - Int64(o)
                if initialStatedOffset == nil { initialStatedOffset = o }
                else if statedOffset != o { offsetTransitions.append(.init(utcSecond: utc, offsetSeconds: o)) }
                statedOffset = o
                return Double(utc) + ts.fraction
            }
            sawTimestampWithoutOffset = true
            guard initialStatedOffset == nil else {
                throw IngestError(file: path, line: lineNumber, message: "timestamp has no UTC offset but earlier rows had one")
            }
            let utc = (zoneTimeline ?? .utc).utcSecond(atLocal: ts.localSeconds)
            return Double(utc) + ts.fraction
        }
    }

    func badTimestamp(_ p: UnsafeMutablePointer<UInt8>, _ a: Int, _ b: Int) -> IngestError {
        let shown = String(decoding: UnsafeBufferPointer(start: p + a, count: min(b - a, 40)), as: UTF8.self)
        let expected = kind.map { "a timestamp like the first row's (\($0))" } ?? "epoch seconds/milliseconds or ISO 8601"
        return IngestError(file: path, line: lineNumber, message: "timestamp '\(shown)' is not valid; expected \(expected)")
    }

    /// `mutating` only so that the call does not copy `self` (its intake and sink, over 2 KB) for
    /// every field, as a non-mutating call from ``line(_:_:_:fileOffset:)`` did (see
    /// ``ColumnSampleCSV/value(_:_:_:line:)``).
    @inline(__always)
    mutating func value(_ p: UnsafeMutablePointer<UInt8>, _ a: Int, _ b: Int, axis: String) throws(IngestError) -> Double {
        switch FastNumber.parse(p, a, b) {
        case .number(let v):
            if abs(v) > RawCSVReader.implausibleG {
                throw IngestError(file: path, line: lineNumber, message: "\(axis) = \(v) is not a plausible acceleration in g (limit ±\(Int(RawCSVReader.implausibleG)) g); expected g, not m/s² or raw ADC units")
            }
            return v
        case .notFinite:
            throw IngestError(file: path, line: lineNumber, message: "\(axis) is NaN or infinite; expected a finite number in g")
        case .invalid:
            let shown = String(decoding: UnsafeBufferPointer(start: p + a, count: min(b - a, 40)), as: UTF8.self)
            throw IngestError(file: path, line: lineNumber, message: "\(axis) = '\(shown)' is not a number; expected acceleration in g")
        }
    }

    mutating func finish() throws(IngestError) -> Recording {
        guard intake.accumulator.sampleCount > 0 else {
            throw IngestError(file: path, line: max(lineNumber, 1), message: lineNumber == 0 ? "empty file: expected timestamp,x,y,z rows" : "no sample rows: expected timestamp,x,y,z rows after the header")
        }
        if let problem = level.problem { throw IngestError(file: path, line: levelChangeLine ?? lineNumber, message: problem) }
        let (series, quality) = intake.finish()
        let meanNorm = normSum / Double(max(normCount, 1))
        if meanNorm > 6 && meanNorm < 14 {
            throw IngestError(file: path, line: 1, message: "mean |a| of the first samples is \(String(format1: meanNorm)), which is gravity in m/s²; expected acceleration in g: run with --units m/s2 (the file is then divided by 9.80665 as it is read)")
        }
        let gravity = intake.refinedGravity((meanNorm > 0.7 && meanNorm < 1.3) ? .included : (meanNorm < 0.3 ? .removed : .unknown),
                                            meanNorm: meanNorm)
        var warnings: [String] = []
        let zone = try ZoneChoice(path: path, option: zoneName,
                                  stated: initialStatedOffset.map { UTCOffsetTimeline(initialOffsetSeconds: $0, transitions: offsetTransitions) },
                                  span: series.dataSpan.map { ($0.first, $0.end - 1) },
                                  noneWarning: "no time zone in the data and no --tz: nights are assigned on the UTC clock")
        if let w = zone.warning { warnings.append(w) }
        warnings += intake.warnings(quality)
        return Recording(format: .rawCSV, segments: [RecordingSegment(series: series)], timeline: zone.timeline,
                         timeZoneName: zone.name, timeZoneSource: zone.source, gravity: gravity, quality: quality, warnings: warnings)
    }
}

extension String {
    init(format1 v: Double) {
        let r = (v * 10).rounded() / 10
        self = String(r)
    }
    func trimming(charactersIn set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
