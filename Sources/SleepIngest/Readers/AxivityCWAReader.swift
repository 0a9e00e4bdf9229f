import SleepCore

/// Reads Axivity AX3/AX6 `.cwa` files (the UK Biobank accelerometer format), after Open Movement's
/// `cwa.h` (openmovementproject/openmovement, Docs/ax3/cwa.h):
///
/// * a header block (`MD`, 1024 bytes): device id, session id, the sampling-rate code
///   (rate = 3200 / 2^(15 − code & 15) Hz, range = ±16 >> (code >> 6) g);
/// * 512-byte data blocks (`AX`): session and sequence id, a packed RTC timestamp (device local
///   clock), `timestampOffset` (the sample index at which that timestamp holds), `deviceFractional`
///   (top bit set: a 15-bit fraction of a second, with the backwards-compatible shift of
///   `timestampOffset` that readers undo), the accelerometer scale (1/2^(8+n) g in the top bits of
///   the light field), and the samples: 3×16-bit (AX6, 6 or 9 channels with gyro/magnetometer
///   first… accelerometer from channel 3) or one 32-bit word per sample with three 10-bit values and
///   a 2-bit exponent (AX3 packed mode); a 16-bit word sum of zero is the checksum.
///
/// Block timestamps: the packed RTC second plus the 15-bit fraction (`deviceFractional`, top bit
/// set) hold at sample `timestampOffset` of the block, once the firmware's backwards-compatible
/// shift of that offset is undone (offset + ⌊fraction × rate⌋; cwa.h, Open Movement's `omdata.c`
/// `OmDataTimestampForSector`). Sample times are interpolated linearly between consecutive block
/// timestamps, as Open Movement's readers do. Samples before the first timestamp of a run are
/// placed at the configured rate back from it: the block's "estimated first sample time"
/// (timestamp − timestampOffset / rate) of Open Movement's `cwa_load.py`, the block start of
/// GGIRread's `readAxivity` and actfast, so the first sample of GGIRread's `ax3_testfile.cwa` is
/// at 10:55:06.000 as those readers and GGIR's CSV export put it. (Extrapolating with the rate
/// of the first block pair instead, as `cwa_load.py`'s interpolation does, places it 14 ms
/// earlier.) After the last timestamp of a run, samples follow the last pair's rate. A run ends where the session or sequence
/// breaks, a block is damaged, or the timestamps jump (a stop and restart); damaged blocks are
/// skipped and counted. Streams block by block (gzip too: `.cwa.gz`); pending samples never exceed
/// two blocks.
public struct AxivityCWAReader: RawSampleReader {
    public static let format = RecordingFormat.axivityCWA
    public init() {}

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        fileName.lowercased().hasSuffix(".cwa") || (head.count >= 4 && head[0] == 0x4D && head[1] == 0x44 && head[2] == 0xFC && head[3] == 0x03)
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> Recording {
        var discard = DiscardingSampleSink()
        return try read(path: path, options: options, samples: &discard)
    }

    public func read<Sink: SampleSink>(path: String, options: IngestOptions, samples: inout Sink) throws(IngestError) -> Recording {
        let stream = try ByteStreams.open(path: path)
        let bytes = ChunkedBytes(stream)
        let header = try Header(bytes: bytes, path: path)
        var decoder = BlockDecoder(path: path, header: header, clock: try DeviceClock(path: path, options: options, statedOffsetSeconds: nil),
                                   intake: SampleIntake(sink: samples, deviceRangeG: Double(header.rangeG)))
        defer { samples = decoder.intake.sink }
        while true {
            guard let block = try bytes.peek(512) else {
                if bytes.available == 0 { break }
                // A recording cut short: the blocks before the partial one are the recording,
                // nothing of the partial block is used.
                guard decoder.validBlocks > 0 else {
                    throw IngestError(file: path, byteOffset: bytes.offset,
                                      message: "file ends inside a data block (\(bytes.available) of 512 bytes at offset \(bytes.offset)): truncated")
                }
                decoder.cutShort = "file ends inside data block \((bytes.offset - header.size) / 512) at byte \(bytes.offset + bytes.available): its \(bytes.available) of 512 bytes were dropped (up to \(header.maxSamplesPerBlock) samples, \(String(format: "%.2f", Double(header.maxSamplesPerBlock) / header.rateHz)) s); the blocks before it are read"
                break
            }
            try decoder.block(block, offset: bytes.offset)
            bytes.advance(512)
        }
        var recording = try decoder.finish()
        recording.compression = stream.compression
        return recording
    }

    struct Header {
        var hardwareType: UInt8
        var deviceID: UInt32
        var sessionID: UInt32
        var rateCode: UInt8
        /// Bytes of the header block(s) before the first data block.
        var size = 1024
        var rateHz: Double { Self.rate(code: rateCode) }
        /// Samples a full data block holds (AX3 packed: 120; AX6 16-bit with gyroscope: 40), for warnings.
        var maxSamplesPerBlock: Int { hardwareType == 0x64 ? 40 : 120 }
        var rangeG: Int { 16 >> Int(rateCode >> 6) }
        var device: String {
            let model = (hardwareType == 0x00 || hardwareType == 0xFF || hardwareType == 0x17) ? "AX3" : hardwareType == 0x64 ? "AX6" : "hardware 0x\(String(hardwareType, radix: 16))"
            return "Axivity \(model) #\(deviceID), session \(sessionID)"
        }

        static func rate(code: UInt8) -> Double { 3200.0 / Double(1 << (15 - Int(code & 0x0F))) }

        init(bytes: ChunkedBytes, path: String) throws(IngestError) {
            guard let p = try bytes.peek(4) else {
                throw IngestError(file: path, byteOffset: 0, message: bytes.available == 0 ? "empty file: expected an Axivity .cwa (header block 'MD')" : "file is \(bytes.available) bytes: too short for an Axivity .cwa header")
            }
            guard p[0] == 0x4D && p[1] == 0x44 else {
                throw IngestError(file: path, byteOffset: 0, message: "expected the .cwa header block 'MD' at offset 0, found 0x\(String(p[0], radix: 16)) 0x\(String(p[1], radix: 16)): not an Axivity .cwa")
            }
            let length = Int(UInt16(p[2]) | UInt16(p[3]) << 8)
            guard length >= 508 else {
                throw IngestError(file: path, byteOffset: 2, message: "header packet length \(length): expected 1020 (a 1024-byte header block)")
            }
            let size = (length + 511) / 512 * 512
            guard let h = try bytes.peek(size) else {
                throw IngestError(file: path, byteOffset: bytes.available, message: "file ends inside the \(size)-byte header block: truncated")
            }
            hardwareType = h[4]
            let upper = UInt16(h[11]) | UInt16(h[12]) << 8
            deviceID = UInt32(UInt16(h[5]) | UInt16(h[6]) << 8) | (upper == 0xFFFF ? 0 : UInt32(upper) << 16)
            sessionID = UInt32(h[7]) | UInt32(h[8]) << 8 | UInt32(h[9]) << 16 | UInt32(h[10]) << 24
            rateCode = h[36]
            self.size = size
            bytes.advance(size)
        }
    }

    /// Decodes data blocks and times their samples.
    struct BlockDecoder<Sink: SampleSink> {
        let path: String
        let header: Header
        let clock: DeviceClock
        var intake: SampleIntake<Sink>
        var offset: Int64? = nil
        // The current run of consecutive blocks.
        var runSession: UInt32? = nil
        var runSequence: UInt32 = 0
        var runRate = 0.0
        var nextIndex = 0                            // run-relative index of the next sample
        var previousAnchor: (index: Double, time: Double)? = nil
        var slope: Double? = nil                     // seconds per sample from the last anchor pair
        var pending: [PendingSample] = []
        var validBlocks = 0
        var skippedBlocks = 0
        var breakNext = false
        /// Set when the file ends inside a data block: the warning saying what was dropped.
        var cutShort: String? = nil

        struct PendingSample { var index: Int; var x: Double; var y: Double; var z: Double; var fileOffset: Int }

        init(path: String, header: Header, clock: DeviceClock, intake: SampleIntake<Sink>) {
            self.path = path; self.header = header; self.clock = clock; self.intake = intake
            pending.reserveCapacity(512)
        }

        mutating func block(_ b: UnsafeMutablePointer<UInt8>, offset fileOffset: Int) throws(IngestError) {
            @inline(__always) func u16(_ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
            @inline(__always) func u32(_ i: Int) -> UInt32 { UInt32(u16(i)) | UInt32(u16(i + 2)) << 16 }
            guard b[0] == 0x41 && b[1] == 0x58 && u16(2) == 508 else { skip(); return }
            var sum: UInt16 = 0
            for k in 0..<256 { sum &+= u16(2 * k) }
            guard sum == 0 else { skip(); return }
            let rateCode = b[24]
            let axesBPS = b[25]
            let channels = Int(axesBPS >> 4)
            let bytesPerAxis = Int(axesBPS & 0x0F)
            let packed = bytesPerAxis == 0 && channels == 3
            guard packed || (bytesPerAxis == 2 && channels >= 3) else { skip(); return }
            let bytesPerSample = packed ? 4 : 2 * channels
            let count = Int(u16(28))
            guard count <= 480 / bytesPerSample else { skip(); return }
            var timestampOffset = Int(Int16(bitPattern: u16(26)))
            let rate = rateCode != 0 ? Header.rate(code: rateCode) : Double(timestampOffset)
            guard rate > 0 else { skip(); return }
            guard let whole = Self.localSeconds(packed: u32(14)) else { skip(); return }
            var time = Double(whole)
            let fractional = u16(4)
            if fractional & 0x8000 != 0 {
                // Undo the backwards-compatible shift of timestampOffset (Open Movement's readers do the same).
                let frac16 = Int(fractional & 0x7FFF) << 1
                timestampOffset += (frac16 * Int(rate)) >> 16
                time += Double(frac16) / 65536
            }
            let session = u32(6), sequence = u32(10)
            let continues = !breakNext && runSession == session && sequence == runSequence &+ 1 && rate == runRate
            breakNext = false
            if !continues { try endRun(); runSession = session; runRate = rate; nextIndex = 0 }
            runSequence = sequence
            validBlocks += 1

            let unit = 1.0 / Double(1 << (8 + Int((u16(18) >> 13) & 0x07)))
            let accelFirst = channels >= 6 ? 3 : 0
            let blockStart = nextIndex
            for k in 0..<count {
                let x: Double, y: Double, z: Double
                if packed {
                    let w = u32(30 + 4 * k)
                    let e = Int(w >> 30)
                    @inline(__always) func axis(_ shift: UInt32) -> Double {
                        let v = Int32(bitPattern: ((w >> shift) & 0x3FF) << 22) >> 22   // sign-extend 10 bits
                        return Double(v << e) * unit
                    }
                    x = axis(0); y = axis(10); z = axis(20)
                } else {
                    let o = 30 + bytesPerSample * k + 2 * accelFirst
                    x = Double(Int16(bitPattern: u16(o))) * unit
                    y = Double(Int16(bitPattern: u16(o + 2))) * unit
                    z = Double(Int16(bitPattern: u16(o + 4))) * unit
                }
                pending.append(PendingSample(index: nextIndex, x: x, y: y, z: z, fileOffset: fileOffset))
                nextIndex += 1
            }
            try anchor(index: Double(blockStart + timestampOffset), time: time, rate: rate, blockStart: blockStart)
            // The block's temperature (AX3/AX6: 10 bits, °C = value × 75 / 256 − 50, Open Movement's
            // cwa format), at the block's time.
            let off = offset ?? clock.offset(atFirstLocalSecond: Int64(time.rounded(.down)))
            intake.sink.addTemperature(timestamp: time - Double(off), celsius: Double(u16(20) & 0x3FF) * 75 / 256 - 50)
        }

        mutating func skip() {
            skippedBlocks += 1
            breakNext = true
        }

        /// A block timestamp: times every pending sample up to it by interpolation from the previous one.
        mutating func anchor(index: Double, time: Double, rate: Double, blockStart: Int) throws(IngestError) {
            guard let previous = previousAnchor else { previousAnchor = (index, time); return }
            let perSample = (time - previous.time) / (index - previous.index)
            guard index > previous.index, perSample > 0.5 / rate, perSample < 2 / rate else {
                // The clock jumped (a stop and restart inside one session): the samples before this
                // block keep the old timing, this block starts a new one.
                try flush(before: blockStart)
                previousAnchor = (index, time); slope = nil
                return
            }
            slope = perSample
            var emitted = 0
            while emitted < pending.count && Double(pending[emitted].index) <= index {
                let p = pending[emitted]
                let i = Double(p.index)
                // Before the run's first timestamp: the configured rate (see the type's comment).
                let step = i < previous.index ? 1 / rate : perSample
                try emit(x: p.x, y: p.y, z: p.z, fileOffset: p.fileOffset, time: previous.time + (i - previous.index) * step)
                emitted += 1
            }
            pending.removeFirst(emitted)
            previousAnchor = (index, time)
        }

        /// Times pending samples with index below `limit` (all when nil) from the last anchor at the last known rate.
        mutating func flush(before limit: Int?) throws(IngestError) {
            guard let previous = previousAnchor else { return }
            let perSample = slope ?? 1 / runRate
            var emitted = 0
            while emitted < pending.count && (limit == nil || pending[emitted].index < limit!) {
                let p = pending[emitted]
                try emit(x: p.x, y: p.y, z: p.z, fileOffset: p.fileOffset, time: previous.time + (Double(p.index) - previous.index) * perSample)
                emitted += 1
            }
            pending.removeFirst(emitted)
        }

        /// The end of a run of consecutive blocks.
        mutating func endRun() throws(IngestError) {
            try flush(before: nil)
            previousAnchor = nil
            slope = nil
        }

        /// One timed sample into the intake. Scalars, not the `PendingSample`: passed as a struct it
        /// went through a stack copy whose 8-byte stores the 16-byte load of y and z could not be
        /// forwarded from, the largest stall of the whole reader (`perf annotate`).
        @inline(__always)
        mutating func emit(x: Double, y: Double, z: Double, fileOffset: Int, time local: Double) throws(IngestError) {
            if offset == nil { offset = clock.offset(atFirstLocalSecond: Int64(local.rounded(.down))) }
            do { try intake.add(timestamp: local - Double(offset!), x: x, y: y, z: z) }
            catch { throw IngestError(file: path, byteOffset: fileOffset, message: "data block at offset \(fileOffset): " + IngestError.message(for: error)) }
        }

        /// The packed RTC value `YYYYYYMM MMDDDDDh hhhhmmmm mmssssss` as seconds since 1970 on the device clock.
        static func localSeconds(packed v: UInt32) -> Int64? {
            let year = Int(v >> 26) + 2000, month = Int((v >> 22) & 0x0F), day = Int((v >> 17) & 0x1F)
            let hour = Int((v >> 12) & 0x1F), minute = Int((v >> 6) & 0x3F), second = Int(v & 0x3F)
            guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
            return CivilDate(year: year, month: month, day: day).daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        }

        mutating func finish() throws(IngestError) -> Recording {
            try endRun()
            guard intake.accumulator.sampleCount > 0 else {
                throw IngestError(file: path, byteOffset: header.rateCode == 0 ? 0 : 1024, message: validBlocks == 0
                    ? "no valid data blocks ('AX' with a zero checksum)\(skippedBlocks > 0 ? ": \(skippedBlocks) damaged blocks" : ""): expected Axivity .cwa data"
                    : "data blocks hold no samples")
            }
            var (series, quality) = intake.finish(nominalSampleRateHz: header.rateHz, deviceRangeG: Double(header.rangeG))
            quality.skippedBlocks = skippedBlocks
            let zone = try clock.zone(for: series)
            var warnings = (zone.warning.map { [$0] } ?? []) + intake.warnings(quality)
            if skippedBlocks > 0 { warnings.append("\(skippedBlocks) damaged or non-data blocks were skipped") }
            if let cutShort { warnings.append(cutShort) }
            var recording = Recording(format: AxivityCWAReader.format, segments: [RecordingSegment(series: series)], timeline: zone.timeline,
                                      timeZoneName: zone.name, timeZoneSource: zone.source, units: "g",
                                      gravity: intake.gravity == .removed ? .removed : .included, quality: quality, warnings: warnings)
            recording.device = header.device
            return recording
        }
    }
}
