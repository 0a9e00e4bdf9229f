import SleepCore

/// Reads ActiGraph `.gt3x` files (GT3X+ and ActiSleep+ with firmware ≥ 3, wGT3X+, wGT3X-BT,
/// GT9X Link), after ActiGraph's published format (github.com/actigraph/GT3X-File-Format):
///
/// * a zip archive with `info.txt` (`Key: Value` lines: `Sample Rate`, `Acceleration Scale`,
///   `TimeZone`, `Serial Number` …) and `log.bin`;
/// * `log.bin` is a sequence of records: separator `1E`, type, a 4-byte little-endian timestamp
///   (seconds on the **device's local clock**), a 2-byte payload size, the payload, and a checksum
///   (one's complement of the XOR of header and payload); zero bytes between records are skipped;
/// * `ACTIVITY` (0x00): one second of samples as 12-bit two's-complement values in Y, X, Z order,
///   bit-packed big-endian; `ACTIVITY3` (0x1B) the same in X, Y, Z order; `ACTIVITY2` (0x1A):
///   little-endian Int16 X, Y, Z. A 1-byte activity payload marks a USB connection and is skipped.
///   Values divided by the acceleration scale are g (341 LSB/g for NEO/CLE serials, 256 for
///   MOS and TAS, or `ACCEL_SCALE` of the `PARAMETERS` record, or `Acceleration Scale` in info.txt);
///   they are not rounded (ActiLife's CSV export rounds to 3 decimals).
/// * Idle-sleep mode: an `EVENT` record (0x03) with payload `08` when the device stops sampling
///   because it lies still, `09` when it resumes. The seconds in between are filled with the last
///   sample at the device's rate, as ActiLife and ActiGraph's `pygt3x` do, and counted in the QC —
///   between two real activity records, and after the last one, when the device was idle at the
///   end, up to the log's last record (of any type, as pygt3x fills it); never outside the span
///   `info.txt` states (`Start Date` to `Last Sample Time`, without which nothing is filled and a
///   warning says so), so the file's own content bounds the work: events alone invent no nights.
/// * The older format of GT3X+ / ActiSleep+ with firmware ≤ 2.5 (`activity.bin`): ``ActivityBinReader``.
///
/// The file is read as a stream (log.bin inflated chunk by chunk); each sample goes straight to the
/// per-second accumulator and the optional ``SampleSink``.
public struct GT3XReader: RawSampleReader {
    public static let format = RecordingFormat.actiGraphGT3X
    public init() {}

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        // An `.agdc` (ActiLife's calibration file) is a zip with log.bin too, but not a recording.
        fileName.lowercased().hasSuffix(".gt3x") || (!fileName.lowercased().hasSuffix(".agdc") && ZipArchive.isZip(head: head) && head.count > 30
            && String(decoding: head[30..<min(head.count, 60)], as: UTF8.self).hasPrefix("log.bin"))
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> Recording {
        var discard = DiscardingSampleSink()
        return try read(path: path, options: options, samples: &discard)
    }

    public func read<Sink: SampleSink>(path: String, options: IngestOptions, samples: inout Sink) throws(IngestError) -> Recording {
        let archive = try ZipArchive(path: path)
        try Self.requireOneOfEachEntry(archive, path: path)
        guard let infoEntry = archive.entry(named: "info.txt") else {
            throw IngestError(file: path, byteOffset: archive.directoryOffset, message: "no info.txt in the archive: expected an ActiGraph .gt3x (zip with info.txt and log.bin)")
        }
        let info = try Info(bytes: try archive.open(infoEntry).readAll(limit: 1 << 20, path: path), path: path)
        guard let logEntry = archive.entry(named: "log.bin") else {
            // The older format of GT3X+ and ActiSleep+ with firmware ≤ 2.5 (NHANES): activity.bin.
            if let activity = archive.entry(named: "activity.bin") {
                return try ActivityBinReader.read(path: path, archive: archive, entry: activity, info: info, options: options, samples: &samples)
            }
            throw IngestError(file: path, byteOffset: archive.directoryOffset,
                              message: "no log.bin (or activity.bin) in the archive: expected an ActiGraph .gt3x (zip with info.txt and log.bin)")
        }
        if let calibration = archive.entry(named: "calibration.json") {
            let text = String(decoding: try archive.open(calibration).readAll(limit: 1 << 20, path: path), as: UTF8.self)
            if text.replacingOccurrences(of: " ", with: "").contains("\"isCalibrated\":false") {
                throw IngestError(file: path, path: "calibration.json", message: "samples are stored uncalibrated (CentrePoint calibration method): not supported; expected a .gt3x with calibrated samples")
            }
        }
        let log = try archive.open(logEntry)
        var parser = LogParser(path: path, info: info, clock: try DeviceClock(path: path, options: options, statedOffsetSeconds: info.timeZoneOffsetSeconds,
                                                                    statedAt: (nil, "info.txt TimeZone")),
                               intake: SampleIntake(sink: samples, deviceRangeG: info.rangeG))
        defer { samples = parser.intake.sink }
        try parser.parse(ChunkedBytes(log))
        return try parser.finish(compression: log.compression)
    }

    /// The entries the reader takes content from.
    static let readEntries = ["info.txt", "log.bin", "activity.bin", "calibration.json"]

    /// Every entry the reader reads must be there once: of two entries of one name, which one the
    /// device wrote cannot be told, and `log.bin` (firmware ≥ 3) beside `activity.bin` (≤ 2.5) are
    /// two recordings in one file; none of them is taken.
    static func requireOneOfEachEntry(_ archive: ZipArchive, path: String) throws(IngestError) {
        try archive.requireAtMostOne(of: readEntries, kind: ".gt3x")
        if archive.entry(named: "log.bin") != nil && archive.entry(named: "activity.bin") != nil {
            throw IngestError(file: path, byteOffset: archive.directoryOffset,
                              message: "the archive holds both log.bin (the format of firmware ≥ 3) and activity.bin (firmware ≤ 2.5): expected one of them; which one holds the recording cannot be told")
        }
    }

    /// The facts of `info.txt`.
    package struct Info {
        var values: [String: String] = [:]
        var sampleRateHz: Int
        var scaleLSBPerG: Double?
        var timeZoneOffsetSeconds: Int32?
        var rangeG: Double?
        /// The recording's span on the device clock (local seconds since 1970), from `Start Date`
        /// and `Last Sample Time` (or `Stop Date`) in .NET ticks; nil where not stated.
        var statedStartSecond: Int64?
        var statedEndSecond: Int64?
        /// `Last Sample Time`, `Stop Date` and `Download Date` on the device clock, each nil where
        /// not stated (a `Stop Date` of 0 means none was set: the device recorded until downloaded).
        var lastSampleSecond: Int64?
        var stopSecond: Int64?
        var downloadSecond: Int64?
        var serial: String { values["Serial Number"] ?? "" }

        /// The `Key: Value` lines of an ActiGraph `info.txt` (also the one of an `.agdc`).
        static func keyValues(_ bytes: [UInt8]) -> [String: String] {
            var values: [String: String] = [:]
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            for line in String(decoding: bytes[start...], as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
                guard let colon = line.firstIndex(of: ":") else { continue }
                values[line[..<colon].trimmingCharacters()] = line[line.index(after: colon)...].trimmingCharacters()
            }
            return values
        }

        package init(bytes: [UInt8], path: String) throws(IngestError) {
            values = Self.keyValues(bytes)
            sampleRateHz = try Self.sampleRate(values["Sample Rate"], path: path)
            scaleLSBPerG = values["Acceleration Scale"].flatMap { Double($0.replacingOccurrences(of: ",", with: ".")) }.flatMap { $0 > 0 ? $0 : nil }
            if let tz = values["TimeZone"] { timeZoneOffsetSeconds = Self.offset(tz) }
            statedStartSecond = Self.localSecond(ticks: values["Start Date"])
            lastSampleSecond = Self.localSecond(ticks: values["Last Sample Time"])
            stopSecond = Self.localSecond(ticks: values["Stop Date"])
            downloadSecond = Self.localSecond(ticks: values["Download Date"])
            statedEndSecond = lastSampleSecond ?? stopSecond
            if let maxText = values["Acceleration Max"], let m = Double(maxText.replacingOccurrences(of: ",", with: ".")), m > 0 { rangeG = m }
            if rangeG == nil {
                // ActiGraph's documented ranges: ±6 g at 341 LSB/g (NEO, CLE), ±8 g at 256 LSB/g (MOS, TAS).
                let s = serial.uppercased()
                if s.hasPrefix("NEO") || s.hasPrefix("CLE") || s.hasPrefix("MRA") { rangeG = 6 }
                else if s.hasPrefix("MOS") || s.hasPrefix("TAS") { rangeG = 8 }
            }
        }

        /// `Sample Rate`: a whole number of Hz. The devices sample at whole rates (30 to 100 Hz, more
        /// on the Link), and every sample's time is its index ÷ the rate: a fractional rate such as
        /// 29.97 cut to 29 would run the clock 3.3 % slow, so it is refused rather than truncated.
        static func sampleRate(_ text: String?, path: String) throws(IngestError) -> Int {
            let found = text ?? ""
            let rate: Int?
            if let whole = Int(found) { rate = whole }
            else if let value = Double(found.replacingOccurrences(of: ",", with: ".")), value.isFinite, abs(value) < 1e9 {
                guard let whole = Int(exactly: value) else {
                    throw IngestError(file: path, path: "info.txt", message: "'Sample Rate: \(found)' is not a whole number of Hz: the samples' times are their index ÷ the rate, so a fractional rate is not cut to a whole one; expected a rate such as 30 or 100")
                }
                rate = whole
            } else { rate = nil }
            guard let rate, rate > 0, rate <= 10_000 else {
                throw IngestError(file: path, path: "info.txt", message: "no valid 'Sample Rate' in info.txt (found '\(found)'); expected a rate in Hz such as 30 or 100")
            }
            return rate
        }

        /// .NET ticks (100 ns since 0001-01-01, on the device clock) → seconds since 1970 on that
        /// clock; nil for a missing, zero or implausible value.
        static func localSecond(ticks text: String?) -> Int64? {
            guard let text, let ticks = Int64(text), ticks > 0 else { return nil }
            let second = ticks / 10_000_000 - 62_135_596_800
            return second > 0 && second < 253_402_300_800 ? second : nil
        }

        /// `-05:00:00` or `02:00:00` → seconds east of UTC.
        static func offset(_ text: String) -> Int32? {
            var t = Substring(text)
            var sign: Int32 = 1
            if t.first == "-" { sign = -1; t = t.dropFirst() } else if t.first == "+" { t = t.dropFirst() }
            let parts = t.split(separator: ":").map { Int($0.prefix(9)) }
            guard parts.count >= 2, parts.allSatisfy({ $0 != nil }) else { return nil }
            let seconds = parts[0]! * 3600 + parts[1]! * 60 + (parts.count > 2 ? parts[2]! : 0)
            // Clamped, not trapped: an absurd offset is refused with its value by DeviceClock.
            return Int32(clamping: Int(sign) * seconds)
        }

        /// Scale for samples when no PARAMETERS record states one: ActiGraph's per-serial defaults.
        var defaultScale: Double {
            if let scaleLSBPerG { return scaleLSBPerG }
            let s = serial.uppercased()
            return (s.hasPrefix("MOS") || s.hasPrefix("TAS")) ? 256 : 341
        }

        var device: String {
            var d = "ActiGraph"
            if let t = values["Device Type"], !t.isEmpty { d += " \(t)" }
            if !serial.isEmpty { d += " \(serial)" }
            if let f = values["Firmware"], !f.isEmpty { d += ", firmware \(f)" }
            return d
        }
    }

    /// Walks the log records and feeds the samples to the intake.
    struct LogParser<Sink: SampleSink> {
        let path: String
        let info: Info
        let clock: DeviceClock
        var intake: SampleIntake<Sink>
        var scale: Double
        var offset: Int64? = nil            // device clock offset, fixed at the first sample
        var lastSampleSecond: Int64? = nil  // local second of the last activity record
        var last: (Double, Double, Double)? = nil
        var idleSince: Int64? = nil         // local second of the idle-sleep start event
        var idleResumed: Int64? = nil       // local second of the resume event, until samples follow
        var lastRecordSecond: Int64 = 0
        var lastRecordOffset = 0            // its byte offset in log.bin (for errors of the final fill)
        var idleSecondsFilled = 0
        /// Idle-sleep seconds left unfilled because info.txt states no span to fill within.
        var idleSecondsUnfilled = 0
        var badChecksums = 0
        var skippedZeroBytes = 0
        var activityRecords = 0
        /// Set when log.bin ends inside a record after samples were read: the warning saying what was dropped.
        var cutShort: String? = nil

        init(path: String, info: Info, clock: DeviceClock, intake: SampleIntake<Sink>) {
            self.path = path; self.info = info; self.clock = clock; self.intake = intake
            scale = info.defaultScale
        }

        mutating func parse(_ bytes: ChunkedBytes) throws(IngestError) {
            while true {
                guard let header = try bytes.peek(8) else {
                    if bytes.available == 0 { return }
                    // A few trailing zero bytes are padding; anything else is a cut record.
                    if let rest = try bytes.peek(bytes.available), (0..<bytes.available).allSatisfy({ rest[$0] == 0 }) { return }
                    if activityRecords > 0 {
                        cutShort = "log.bin ends inside a record header at byte \(bytes.offset + bytes.available) of the log: its \(bytes.available) bytes were dropped; the records before it are read"
                        return
                    }
                    throw IngestError(file: path, byteOffset: bytes.offset, path: "log.bin", message: "log ends inside a record header: truncated")
                }
                if header[0] == 0 { skippedZeroBytes += 1; bytes.advance(1); continue }
                guard header[0] == 0x1E else {
                    throw IngestError(file: path, byteOffset: bytes.offset, path: "log.bin", message: "expected a record separator 0x1E, found 0x\(String(header[0], radix: 16)) (damaged log)")
                }
                let type = header[1]
                let second = Int64(UInt32(header[2]) | UInt32(header[3]) << 8 | UInt32(header[4]) << 16 | UInt32(header[5]) << 24)
                let size = Int(UInt16(header[6]) | UInt16(header[7]) << 8)
                guard let record = try bytes.peek(9 + size) else {
                    // A log cut short: the complete records before the cut one are the recording;
                    // nothing of the cut record is used.
                    if activityRecords > 0 {
                        let kind = [0x00, 0x1A, 0x1B].contains(type) ? "an activity record (up to 1 s of samples)" : "a record of type 0x\(String(type, radix: 16))"
                        cutShort = "log.bin ends inside \(kind) at byte \(bytes.offset + bytes.available) of the log (\(bytes.available) of its \(9 + size) bytes): it was dropped; the records before it are read"
                        return
                    }
                    throw IngestError(file: path, byteOffset: bytes.offset, path: "log.bin", message: "record of type 0x\(String(type, radix: 16)) needs \(size) payload bytes but the log ends: truncated")
                }
                var sum: UInt8 = 0
                for k in 0..<(8 + size) { sum ^= record[k] }
                let payload = record + 8
                if ~sum != record[8 + size] {
                    // A damaged record: its samples cannot be trusted; skip it and count it.
                    badChecksums += 1
                    bytes.advance(9 + size)
                    continue
                }
                let recordOffset = bytes.offset
                bytes.advance(9 + size)
                lastRecordSecond = second; lastRecordOffset = recordOffset
                switch type {
                case 0x00, 0x1A, 0x1B:
                    guard size > 1 else { continue }  // USB connection marker
                    try activity(type: type, second: second, payload: payload, size: size, at: recordOffset)
                case 0x03:
                    if size == 1 && payload[0] == 0x08 { idleSince = second }
                    else if size == 1 && payload[0] == 0x09 {
                        // Filled when the next activity record shows the device really sampled again.
                        if idleSince != nil { idleResumed = second }
                        idleSince = nil
                    }
                case 0x15:
                    parameters(payload: payload, size: size)
                default:
                    continue
                }
            }
        }

        mutating func activity(type: UInt8, second: Int64, payload: UnsafeMutablePointer<UInt8>, size: Int, at recordOffset: Int) throws(IngestError) {
            activityRecords += 1
            if let resumed = idleResumed { try fillIdle(until: min(resumed, second), at: recordOffset) }
            idleResumed = nil
            idleSince = nil  // samples again: a missed "resume" event must not fill later gaps
            if offset == nil { offset = clock.offset(atFirstLocalSecond: second) }
            let base = Double(second - offset!)
            let step = 1.0 / Double(info.sampleRateHz)
            let inverse = 1.0 / scale
            var i = 0
            @inline(__always) func emit(_ x: Int16, _ y: Int16, _ z: Int16) throws(IngestError) {
                let gx = Double(x) * inverse, gy = Double(y) * inverse, gz = Double(z) * inverse
                do { try intake.add(timestamp: base + Double(i) * step, x: gx, y: gy, z: gz) }
                catch { throw IngestError(file: path, byteOffset: recordOffset, path: "log.bin", message: IngestError.message(for: error)) }
                last = (gx, gy, gz)
                i += 1
            }
            // One record is one second: more samples than the rate would run into the next record's second.
            let samples = type == 0x1A ? size / 6 : size * 8 / 36
            if samples > info.sampleRateHz {
                throw IngestError(file: path, byteOffset: recordOffset, path: "log.bin",
                                  message: "an activity record (one second) holds \(samples) samples, but info.txt's Sample Rate is \(info.sampleRateHz) Hz: the stated rate is wrong or the record is damaged; expected at most \(info.sampleRateHz) samples a record")
            }
            if type == 0x1A {
                let n = size / 6
                for k in 0..<n {
                    let p = payload + 6 * k
                    try emit(Int16(bitPattern: UInt16(p[0]) | UInt16(p[1]) << 8),
                             Int16(bitPattern: UInt16(p[2]) | UInt16(p[3]) << 8),
                             Int16(bitPattern: UInt16(p[4]) | UInt16(p[5]) << 8))
                }
            } else {
                // 36 bits per sample, 12 bits per axis, most significant nibble first.
                let n = size * 8 / 36
                var bit = 0
                @inline(__always) func twelve() -> Int16 {
                    let byte = bit >> 3
                    let v: UInt16 = bit & 7 == 0
                        ? UInt16(payload[byte]) << 4 | UInt16(payload[byte + 1]) >> 4
                        : UInt16(payload[byte] & 0x0F) << 8 | UInt16(payload[byte + 1])
                    bit += 12
                    return Int16(bitPattern: v & 0x800 != 0 ? v | 0xF000 : v)
                }
                for _ in 0..<n {
                    let a = twelve(), b = twelve(), c = twelve()
                    if type == 0x00 { try emit(b, a, c) } else { try emit(a, b, c) }  // ACTIVITY is Y, X, Z
                }
            }
            lastSampleSecond = second
        }

        /// Repeats the last sample at the device rate over the seconds the device slept, from the
        /// last real sample to `endSecond` (a real record's), within the span info.txt states.
        mutating func fillIdle(until requestedEnd: Int64, at recordOffset: Int) throws(IngestError) {
            guard let lastSecond = lastSampleSecond, let v = last, let offset, requestedEnd > lastSecond + 1 else { return }
            guard let statedEnd = info.statedEndSecond else {
                idleSecondsUnfilled += Int(requestedEnd - lastSecond - 1)   // no span of its own to fill within
                return
            }
            let endSecond = min(requestedEnd, statedEnd + 1)
            guard endSecond > lastSecond + 1 else { return }
            if let start = info.statedStartSecond, lastSecond < start { return }   // samples before the stated start
            do { try intake.addRepeated(x: v.0, y: v.1, z: v.2, seconds: (lastSecond + 1 - offset)..<(endSecond - offset), rateHz: info.sampleRateHz) }
            catch { throw IngestError(file: path, byteOffset: recordOffset, path: "log.bin", message: "idle-sleep fill: " + IngestError.message(for: error)) }
            idleSecondsFilled += Int(endSecond - lastSecond - 1)
            lastSampleSecond = endSecond - 1
        }

        /// `PARAMETERS`: 8-byte key/value pairs; ACCEL_SCALE is address space 0, identifier 55,
        /// a float in ActiGraph's 24-bit-fraction / 8-bit-exponent encoding.
        mutating func parameters(payload: UnsafeMutablePointer<UInt8>, size: Int) {
            var k = 0
            while k + 8 <= size {
                let space = UInt16(payload[k]) | UInt16(payload[k + 1]) << 8
                let id = UInt16(payload[k + 2]) | UInt16(payload[k + 3]) << 8
                let value = UInt32(payload[k + 4]) | UInt32(payload[k + 5]) << 8 | UInt32(payload[k + 6]) << 16 | UInt32(payload[k + 7]) << 24
                if space == 0 && id == 55, let s = Self.decodeFloat(value), s > 0, s.isFinite { scale = s }
                k += 8
            }
        }

        /// ActiGraph's float: two's-complement 24-bit fraction (value × 2^23), signed 8-bit exponent.
        static func decodeFloat(_ value: UInt32) -> Double? {
            if value == 0x007F_FFFF || value == 0x0080_0000 { return nil }
            let exponent = Int(Int8(bitPattern: UInt8(value >> 24)))
            var fraction = Int32(bitPattern: value & 0x00FF_FFFF)
            if fraction & 0x0080_0000 != 0 { fraction |= Int32(bitPattern: 0xFF00_0000) }
            return Double(fraction) / 8_388_608.0 * pow(2.0, Double(exponent))
        }

        mutating func finish(compression: String?) throws(IngestError) -> Recording {
            // An idle period still open at the end (the device lay still until it was stopped) is
            // filled up to the log's last record (battery and status records go on while the
            // device sleeps), within the span info.txt states, as pygt3x fills it: a 5-min 30-Hz
            // file with idle sleep on gets its 9,000 samples, as the same file with it off.
            if idleSince != nil || idleResumed != nil {
                // Still idle (entered again after a resume with no sample between): to the last
                // record; resumed without samples: to the resume.
                try fillIdle(until: idleSince != nil ? lastRecordSecond : min(idleResumed!, lastRecordSecond), at: lastRecordOffset)
            }
            guard intake.accumulator.sampleCount > 0 else {
                throw IngestError(file: path, path: "log.bin", message: activityRecords == 0
                    ? "no activity records in log.bin: expected raw samples (ACTIVITY, ACTIVITY2 or ACTIVITY3 records)"
                    : "activity records hold no samples")
            }
            var (series, quality) = intake.finish(nominalSampleRateHz: Double(info.sampleRateHz), deviceRangeG: info.rangeG)
            quality.idleSleepSecondsFilled = idleSecondsFilled
            quality.skippedBlocks = badChecksums
            let zone = try clock.zone(for: series)
            var warnings = (zone.warning.map { [$0] } ?? []) + intake.warnings(quality)
            if idleSecondsFilled > 0 { warnings.append("\(idleSecondsFilled) s of idle-sleep mode filled with the last sample (as ActiLife does)") }
            if idleSecondsUnfilled > 0 {
                warnings.append("\(idleSecondsUnfilled) s of idle-sleep mode not filled: info.txt states no 'Last Sample Time' or 'Stop Date' to bound the fill, so they stay gaps")
            }
            if badChecksums > 0 { warnings.append("\(badChecksums) log records with a bad checksum were skipped") }
            if let cutShort { warnings.append(cutShort) }
            if intake.gravity != .included {
                warnings.append("mean |a| is \(String(format1: intake.meanNorm)) g, not about 1 g: check the acceleration scale (\(scale) LSB/g)")
            }
            return GT3XReader.recording(series, quality: quality, zone: zone, warnings: warnings, device: info.device, compression: compression)
        }
    }

    /// A `.gt3x` recording of either format: one segment of samples in g with gravity, on the
    /// device clock `zone` resolved.
    static func recording(_ series: SecondSeries, quality: QualitySummary, zone: ZoneChoice, warnings: [String],
                          device: String, compression: String?) -> Recording {
        var recording = Recording(format: format, segments: [RecordingSegment(series: series)], timeline: zone.timeline,
                                  timeZoneName: zone.name, timeZoneSource: zone.source, units: "g",
                                  gravity: .included, quality: quality, warnings: warnings)
        recording.device = device
        recording.compression = compression
        return recording
    }
}

extension Substring {
    func trimmingCharacters() -> String {
        var s = self
        while let f = s.first, f == " " || f == "\t" || f == "\r" || f == "\u{FEFF}" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
