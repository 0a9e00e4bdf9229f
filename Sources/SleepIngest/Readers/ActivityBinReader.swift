import SleepCore

/// Reads the older `.gt3x` format that GT3X+ (serial `NEO…`) and ActiSleep+ (`MRA…`) devices with
/// firmware 2.5.0 or earlier wrote, the files of NHANES 2011–2014 and of cohorts recorded on early
/// firmware, after ActiGraph's published description (github.com/actigraph/NHANES-GT3X-File-Format:
/// README.md, fileformats/activity.bin.md, info.txt.md):
///
/// * a zip with `info.txt` (`Sample Rate` in Hz, `Start Date` in .NET ticks on the device clock,
///   `TimeZone`) and `activity.bin`; `lux.bin` and the other entries are not needed;
/// * `activity.bin` holds every sample from the start, without time stamps: sample k is at
///   `Start Date` + k / rate. Each sample is 36 bits, three 12-bit two's-complement values in
///   **Y, X, Z** order, most significant nibble first (two samples fill 9 bytes; an odd last
///   sample leaves its final nibble unused);
/// * values divided by 341 and **rounded to three decimals** are g, as the description prescribes
///   and ActiLife and pygt3x read them (so their exports and ours agree to the digit).
///
/// The samples run past `Stop Date` when the device was downloaded late; all of them are read, as
/// ActiLife and pygt3x read them.
enum ActivityBinReader {
    /// LSB per g of these devices (±6 g in 12 bits), the description's fixed scale.
    static let scaleLSBPerG = 341.0

    static func read<Sink: SampleSink>(path: String, archive: ZipArchive, entry: ZipArchive.Entry, info: GT3XReader.Info,
                                       options: IngestOptions, samples: inout Sink) throws(IngestError) -> Recording {
        guard let start = info.statedStartSecond else {
            throw IngestError(file: path, path: "info.txt", message: "no valid 'Start Date' in info.txt (found '\(info.values["Start Date"] ?? "")'): the older .gt3x format (activity.bin) has no time stamps of its own; expected .NET ticks")
        }
        let clock = try DeviceClock(path: path, options: options, statedOffsetSeconds: info.timeZoneOffsetSeconds, statedAt: (nil, "info.txt TimeZone"))
        var intake = SampleIntake(sink: samples, deviceRangeG: info.rangeG ?? 6)
        defer { samples = intake.sink }
        let stream = try archive.open(entry)
        let bytes = ChunkedBytes(stream)
        let base = Double(start - clock.offset(atFirstLocalSecond: start))
        let step = 1.0 / Double(info.sampleRateHz)
        var k = 0
        // Hand-written: a week at 100 Hz is 60 million samples; they are decoded in place from the
        // inflated buffer, two at a time, with no allocation per sample.
        @inline(__always) func g(_ v: UInt16) -> Double {
            let signed = Int16(bitPattern: v & 0x800 != 0 ? v | 0xF000 : v)
            return (Double(signed) / scaleLSBPerG * 1000).rounded() / 1000
        }
        @inline(__always) func emit(_ y: UInt16, _ x: UInt16, _ z: UInt16, at byte: Int) throws(IngestError) {
            do { try intake.add(timestamp: base + Double(k) * step, x: g(x), y: g(y), z: g(z)) }
            catch { throw IngestError(file: path, byteOffset: byte, path: "activity.bin", message: IngestError.message(for: error)) }
            k += 1
        }
        while let p = try bytes.peek(9) {
            let at = bytes.offset
            try emit(UInt16(p[0]) << 4 | UInt16(p[1]) >> 4, UInt16(p[1] & 0x0F) << 8 | UInt16(p[2]), UInt16(p[3]) << 4 | UInt16(p[4]) >> 4, at: at)
            try emit(UInt16(p[4] & 0x0F) << 8 | UInt16(p[5]), UInt16(p[6]) << 4 | UInt16(p[7]) >> 4, UInt16(p[7] & 0x0F) << 8 | UInt16(p[8]), at: at + 4)
            bytes.advance(9)
        }
        // 5 to 8 bytes left: one more sample (its last nibble unused); fewer hold none.
        if bytes.available >= 5, let p = try bytes.peek(5) {
            try emit(UInt16(p[0]) << 4 | UInt16(p[1]) >> 4, UInt16(p[1] & 0x0F) << 8 | UInt16(p[2]), UInt16(p[3]) << 4 | UInt16(p[4]) >> 4, at: bytes.offset)
        }
        guard intake.accumulator.sampleCount > 0 else {
            throw IngestError(file: path, path: "activity.bin", message: "activity.bin holds no sample (\(bytes.offset + bytes.available) bytes; a sample takes 36 bits)")
        }
        let (series, quality) = intake.finish(nominalSampleRateHz: Double(info.sampleRateHz), deviceRangeG: info.rangeG ?? 6)
        let zone = try clock.zone(for: series)
        var warnings = (zone.warning.map { [$0] } ?? []) + intake.warnings(quality)
        let serial = info.serial.uppercased()
        if !serial.isEmpty && !serial.hasPrefix("NEO") && !serial.hasPrefix("MRA") {
            warnings.append("serial \(info.serial) is not a GT3X+ (NEO) or ActiSleep+ (MRA), the devices that wrote activity.bin: read as one all the same")
        }
        if intake.gravity != .included {
            warnings.append("mean |a| is \(String(format1: intake.meanNorm)) g, not about 1 g: check that this is an ActiGraph activity.bin (341 LSB/g)")
        }
        return GT3XReader.recording(series, quality: quality, zone: zone, warnings: warnings,
                                    device: info.device + " (activity.bin, the format of firmware ≤ 2.5)", compression: stream.compression)
    }
}
