import SleepCore

/// Reads GENEActiv `.bin` files, after GENEActiv's "Decoding .bin files" (GENEActiv instructions;
/// the layout GGIRread's `GENEActivReader.cpp` and actfast parse):
///
/// * a text header of `Key:Value` lines in sections (`Device Identity`, `Configuration Info` with
///   `Measurement Frequency` and `Time Zone: GMT +01:00`, `Calibration Data` with `x gain`,
///   `x offset` … `Volts`, `Lux`, `Memory Status` with `Number of Pages`);
/// * then pages: `Recorded Data`, eight `Key:Value` lines (`Sequence Number`, `Page Time:
///   2024-01-11 15:35:31:000` on the device's local clock, `Temperature`, `Measurement Frequency`
///   …) and one line of hexadecimal digits, 12 per sample (300 samples a page): x, y, z as 12-bit
///   two's-complement values, then 10 bits of light, the button bit and a reserved bit.
/// * Calibration: g = (raw × 100 − offset) / gain per axis, from the header.
///
/// Sample i of a page is at the page time + i / the page's measurement frequency. Streams line by
/// line (gzip too).
///
/// A recording cut short (a copy interrupted, a download stopped: the file ends inside a page) is
/// read up to its last complete page, as GGIRread and actfast read it; the page the file ends in is
/// dropped whole and a warning on the recording says where the file ends and what was dropped. A
/// damaged page anywhere before the end still refuses the file.
public struct GENEActivBinReader: RawSampleReader {
    public static let format = RecordingFormat.geneActivBin
    public init() {}

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        var start = 0
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        return head.count >= start + 15 && String(decoding: head[start..<(start + 15)], as: UTF8.self) == "Device Identity"
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> Recording {
        var discard = DiscardingSampleSink()
        return try read(path: path, options: options, samples: &discard)
    }

    public func read<Sink: SampleSink>(path: String, options: IngestOptions, samples: inout Sink) throws(IngestError) -> Recording {
        let stream = try ByteStreams.open(path: path)
        var parser = Parser<Sink>(path: path, options: options, sink: samples)
        defer { samples = parser.intake?.sink ?? parser.initialSink }
        let lines = try LineScanner.scan(stream, path: path, formatName: "a GENEActiv .bin file", into: &parser)
        var recording = try parser.finish(lines: lines, endByte: stream.position)
        recording.compression = stream.compression
        return recording
    }

    struct Calibration {
        var gain = [Double](repeating: 0, count: 3)
        var offset = [Double](repeating: 0, count: 3)
    }

    struct Parser<Sink: SampleSink>: LineConsumer {
        let path: String
        let options: IngestOptions
        let initialSink: Sink
        var header: [String: String] = [:]
        var inHeader = true
        var intake: SampleIntake<Sink>? = nil
        var clock: DeviceClock? = nil
        var calibration = Calibration()
        var headerRateHz: Double? = nil
        var rangeG: Double? = nil
        var offset: Int64? = nil
        // The page being read.
        var pageLine = 0             // line of its "Recorded Data"
        var pageFields: [String: String] = [:]
        var pages = 0
        var sawFirstLine = false
        /// Hexadecimal digits of a complete page's sample line (the first page's).
        var fullPageDigits: Int? = nil
        /// A page line that cannot be read (a sample line too short for a page, a page header line
        /// cut in two): harmless if it is the file's last line (the file was cut inside that page),
        /// the file's error if another line follows. `samples` and `pageLocal` when known.
        var cutPage: (line: Int, error: IngestError, samples: Int?, rateHz: Double?, pageLocal: Double?)? = nil
        /// Whether the current page's samples are being handed to the intake (past every check).
        var addingSamples = false

        init(path: String, options: IngestOptions, sink: Sink) {
            self.path = path; self.options = options; self.initialSink = sink
        }

        mutating func line(_ p: UnsafeMutablePointer<UInt8>, _ startIn: Int, _ end: Int, number: Int) throws(IngestError) {
            if let cutPage { throw cutPage.error }
            var start = startIn
            if !sawFirstLine {
                sawFirstLine = true
                if end - start >= 3 && p[start] == 0xEF && p[start + 1] == 0xBB && p[start + 2] == 0xBF { start += 3 }
                guard text(p, start, end) == "Device Identity" else {
                    throw IngestError(file: path, line: number, message: "expected 'Device Identity' on the first line of a GENEActiv .bin file")
                }
                return
            }
            if inHeader {
                let t = text(p, start, end)
                if t == "Recorded Data" { try startData(line: number); pageLine = number; return }
                if let colon = t.firstIndex(of: ":") {
                    header[String(t[..<colon]).trimmedASCII()] = String(t[t.index(after: colon)...]).trimmedASCII()
                }
                return
            }
            if pageLine == 0 {
                // Between pages: the next one must begin.
                if start == end { return }
                guard text(p, start, end) == "Recorded Data" else {
                    throw IngestError(file: path, line: number, message: "expected 'Recorded Data' (the start of a page), found '\(text(p, start, min(end, start + 40)))'")
                }
                pageLine = number
                pageFields.removeAll(keepingCapacity: true)
                return
            }
            // Inside a page: Key:Value lines, then the hexadecimal samples.
            var colon = start
            while colon < end && p[colon] != 58 { colon += 1 }
            if colon < end && number - pageLine <= 9 && !isHex(p, start, end) {
                pageFields[text(p, start, colon).trimmedASCII()] = text(p, colon + 1, end).trimmedASCII()
                return
            }
            do { try samples(p, start, end, line: number) }
            catch {
                // Samples of the page already reached the intake: the error stands (nothing partial is kept).
                if addingSamples { throw error }
                cutPage = (number, error, nil, nil, nil)
            }
            if cutPage != nil { return }   // kept open: the file must end here
            pageLine = 0
            pages += 1
        }

        func text(_ p: UnsafeMutablePointer<UInt8>, _ a: Int, _ b: Int) -> String {
            String(decoding: UnsafeBufferPointer(start: p + a, count: max(0, b - a)), as: UTF8.self)
        }

        func isHex(_ p: UnsafeMutablePointer<UInt8>, _ a: Int, _ b: Int) -> Bool {
            guard b - a >= 12 else { return false }
            for k in a..<min(b, a + 12) where Self.hexValue(p[k]) == nil { return false }
            return true
        }

        @inline(__always) static func hexValue(_ c: UInt8) -> UInt64? {
            switch c {
            case 48...57: return UInt64(c - 48)
            case 65...70: return UInt64(c - 55)
            case 97...102: return UInt64(c - 87)
            default: return nil
            }
        }

        /// The header is complete: calibration, rate, range and clock.
        mutating func startData(line: Int) throws(IngestError) {
            inHeader = false
            for (k, axis) in ["x", "y", "z"].enumerated() {
                // A gain near 0 (1e-310) or beyond any device's would make every sample infinite.
                guard let g = header["\(axis) gain"].flatMap(Double.init), g.isFinite, abs(g) >= 1, abs(g) <= 1e7,
                      let o = header["\(axis) offset"].flatMap(Double.init), o.isFinite, abs(o) <= 1e7 else {
                    throw IngestError(file: path, line: line, message: "header has no usable '\(axis) gain' / '\(axis) offset' in 'Calibration Data' (found '\(header["\(axis) gain"] ?? "")' / '\(header["\(axis) offset"] ?? "")')")
                }
                calibration.gain[k] = g; calibration.offset[k] = o
            }
            if let f = header["Measurement Frequency"] { headerRateHz = Double(f.split(separator: " ").first ?? "") }
            if let r = header["Accelerometer Range"] {
                // "-8 to 8"
                rangeG = r.split(separator: " ").compactMap { Double($0) }.map(abs).max()
            }
            var stated: Int32? = nil
            if let tz = header["Time Zone"] {
                // "GMT +01:00" / "GMT -05:00"
                let t = tz.replacingOccurrences(of: "GMT", with: "").trimmedASCII()
                var sign: Int32 = 1
                var rest = Substring(t)
                if rest.first == "-" { sign = -1; rest = rest.dropFirst() } else if rest.first == "+" { rest = rest.dropFirst() }
                let parts = rest.split(separator: ":").compactMap { Int($0.prefix(9)) }
                // Clamped, not trapped: an absurd offset is refused with its line by DeviceClock.
                if parts.count == 2 { stated = Int32(clamping: Int(sign) * (parts[0] * 3600 + parts[1] * 60)) }
            }
            clock = try DeviceClock(path: path, options: options, statedOffsetSeconds: stated, statedAt: (line, "Time Zone"))
            intake = SampleIntake(sink: initialSink, deviceRangeG: rangeG)
        }

        mutating func samples(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ endIn: Int, line: Int) throws(IngestError) {
            var end = endIn
            while end > start && (p[end - 1] == 32 || p[end - 1] == 9) { end -= 1 }
            guard let timeText = pageFields["Page Time"], let pageLocal = Self.pageTime(timeText) else {
                throw IngestError(file: path, line: line, message: "page starting on line \(pageLine) has no valid 'Page Time' (found '\(pageFields["Page Time"] ?? "")'); expected YYYY-MM-DD HH:MM:SS:mmm")
            }
            let rate = pageFields["Measurement Frequency"].flatMap { Double($0.split(separator: " ").first ?? "") } ?? headerRateHz ?? 0
            guard rate > 0, rate <= 10_000 else {
                throw IngestError(file: path, line: line, message: "page starting on line \(pageLine) has no valid 'Measurement Frequency' (found '\(pageFields["Measurement Frequency"] ?? "")')")
            }
            let digits = end - start
            if digits % 12 != 0 || digits == 0 || (fullPageDigits.map { digits < $0 } ?? false) {
                // Refused unless it turns out to be the last line of the file (see `finish`).
                let expected = fullPageDigits.map { "\($0) (\($0 / 12) samples, as the first page)" } ?? "a multiple of 12 (3 × 12-bit axes + light + button per sample)"
                cutPage = (line, IngestError(file: path, line: line, message: "sample line has \(digits) hexadecimal digits; expected \(expected)"),
                           digits / 12, rate, pageLocal)
                return
            }
            if fullPageDigits == nil { fullPageDigits = digits }
            // Every digit is checked before any sample of the page is used.
            for k in start..<end where Self.hexValue(p[k]) == nil {
                throw IngestError(file: path, line: line, message: "character \(k - start + 1) of the sample line is '\(Character(Unicode.Scalar(p[k])))': expected a hexadecimal digit")
            }
            addingSamples = true   // reset when the whole page is in; a throw leaves it set for `line`
            if offset == nil { offset = clock!.offset(atFirstLocalSecond: Int64(pageLocal.rounded(.down))) }
            let base = pageLocal - Double(offset!)
            let step = 1 / rate
            var k = start
            var i = 0
            while k < end {
                var word: UInt64 = 0
                for c in 0..<12 { word = word << 4 | Self.hexValue(p[k + c])! }   // checked above
                @inline(__always) func axis(_ shift: UInt64, _ a: Int) -> Double {
                    let raw = Int64(bitPattern: ((word >> shift) & 0xFFF) << 52) >> 52   // sign-extend 12 bits
                    return (Double(raw) * 100 - calibration.offset[a]) / calibration.gain[a]
                }
                do { try intake!.add(timestamp: base + Double(i) * step, x: axis(36, 0), y: axis(24, 1), z: axis(12, 2)) }
                catch { throw IngestError(file: path, line: line, message: "sample \(i + 1) of the page: " + IngestError.message(for: error)) }
                k += 12
                i += 1
            }
            addingSamples = false
            // The page's temperature (°C), read where the page starts: the wrist or the room.
            if let t = pageFields["Temperature"].flatMap({ Double($0.split(separator: " ").first ?? "") }) {
                intake!.sink.addTemperature(timestamp: base, celsius: t)
            }
        }

        /// Local seconds as `2013-05-30 10:13:50.4` (device clock), for warnings.
        static func localText(_ local: Double) -> String {
            let whole = Int64(local.rounded(.down))
            let tenths = Int(((local - Double(whole)) * 10).rounded(.down))
            return LocalClock.isoLocal(localSecond: whole).replacingOccurrences(of: "T", with: " ") + ".\(tenths)"
        }

        /// `2024-01-11 15:35:31:000` → local seconds since 1970 (milliseconds after the last colon).
        static func pageTime(_ t: String) -> Double? {
            let bytes = Array(t.utf8)
            guard bytes.count >= 19 else { return nil }
            var iso = Array(bytes[0..<19])
            var fraction = 0.0
            if bytes.count > 20 && (bytes[19] == 58 || bytes[19] == 46) {
                guard let ms = Double(String(decoding: bytes[20...], as: UTF8.self)) else { return nil }
                fraction = ms / pow(10, Double(bytes.count - 20))
            } else if bytes.count != 19 { return nil }
            return iso.withUnsafeMutableBufferPointer { b -> Double? in
                guard let ts = ISOTimestamp.parse(b.baseAddress!, 0, 19), ts.offsetSeconds == nil else { return nil }
                return Double(ts.localSeconds) + fraction
            }
        }

        /// `endByte`: the length of the (decompressed) file, for the warning on a file cut short.
        mutating func finish(lines: Int, endByte: Int) throws(IngestError) -> Recording {
            guard sawFirstLine else { throw IngestError(file: path, line: 1, message: "empty file: expected a GENEActiv .bin file") }
            if inHeader { throw IngestError(file: path, line: lines, message: "the header never ends: no 'Recorded Data' page") }
            // The file ends inside a page (its sample line cut, or missing): the page is dropped
            // whole, the complete pages before it are the recording.
            var cutWarning: String? = nil
            if let cutPage {
                guard pages > 0 else { throw cutPage.error }
                if let samples = cutPage.samples, let rate = cutPage.rateHz {
                    var dropped = "its \(samples) complete sample\(samples == 1 ? "" : "s") (\(String(format: "%.1f", Double(samples) / rate)) s"
                    if let t = cutPage.pageLocal { dropped += " from \(Self.localText(t))" }
                    cutWarning = "file ends inside page \(pages + 1) (sample line \(cutPage.line)) at byte \(endByte): \(dropped)) were dropped; the \(pages) complete pages before it are read"
                } else {
                    cutWarning = "file ends inside page \(pages + 1) (line \(cutPage.line): \(cutPage.error.message)) at byte \(endByte): nothing of that page was read; the \(pages) complete pages before it are read"
                }
            } else if pageLine != 0 {
                guard pages > 0 else {
                    throw IngestError(file: path, line: lines, message: "file ends inside the page that starts on line \(pageLine): truncated (no sample line)")
                }
                cutWarning = "file ends inside page \(pages + 1) (starting on line \(pageLine)) at byte \(endByte), before its sample line: nothing of that page was read; the \(pages) complete pages before it are read"
            }
            guard let intake, intake.accumulator.sampleCount > 0, let clock else {
                throw IngestError(file: path, line: lines, message: "no samples: expected pages of hexadecimal samples")
            }
            let (series, quality) = intake.finish(nominalSampleRateHz: headerRateHz, deviceRangeG: rangeG)
            let zone = try clock.zone(for: series)
            var warnings = (zone.warning.map { [$0] } ?? []) + intake.warnings(quality)
            if let cutWarning { warnings.append(cutWarning) }
            if let stated = header["Number of Pages"].flatMap(Int.init), stated != pages {
                warnings.append("the header says \(stated) pages; the file holds \(pages) complete")
            }
            var recording = Recording(format: GENEActivBinReader.format, segments: [RecordingSegment(series: series)], timeline: zone.timeline,
                                      timeZoneName: zone.name, timeZoneSource: zone.source, units: "g",
                                      gravity: intake.gravity == .removed ? .removed : .included, quality: quality, warnings: warnings)
            var device = header["Device Type"] ?? "GENEActiv"
            if let m = header["Device Model"], !m.isEmpty { device += " \(m)" }
            if let s = header["Device Unique Serial Code"], !s.isEmpty { device += " #\(s)" }
            if let f = header["Device Firmware Version"], !f.isEmpty { device += ", firmware \(f)" }
            recording.device = device
            return recording
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and carriage returns.
    func trimmedASCII() -> String { String(trimmingASCIIWhitespaceSubstring()) }
    func trimmingASCIIWhitespaceSubstring() -> SubSequence {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return s
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
