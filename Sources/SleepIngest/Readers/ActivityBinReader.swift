import Foundation
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
///
/// The rate is the only clock of these samples, so it is checked against the file's own times: a
/// rate these devices do not record at is refused; samples ÷ rate must end at `Last Sample Time`
/// (within ``endTolerance(spanSeconds:)``) and not after `Download Date`, else the file is refused
/// (the times of every sample would be wrong); ending far from `Stop Date` gives a warning with the
/// numbers (a late download, or a flat battery, can explain it).
enum ActivityBinReader {
    /// LSB per g of these devices (±6 g in 12 bits), the description's fixed scale.
    static let scaleLSBPerG = 341.0
    /// The rates GT3X+ and ActiSleep+ record at (NHANES-GT3X-File-Format, info.txt.md).
    static let deviceRatesHz = [30, 40, 50, 60, 70, 80, 90, 100]

    /// How far samples ÷ rate may end from a stated time: 10 s, or 0.1 % of the span (a crystal
    /// drifts by 0.005 %; the nearest other rate, 90 against 100 Hz, differs by 10 %).
    static func endTolerance(spanSeconds: Double) -> Double { max(10, abs(spanSeconds) / 1000) }

    static func read<Sink: SampleSink>(path: String, archive: ZipArchive, entry: ZipArchive.Entry, info: GT3XReader.Info,
                                       options: IngestOptions, samples: inout Sink) throws(IngestError) -> Recording {
        guard let start = info.statedStartSecond else {
            throw IngestError(file: path, path: "info.txt", message: "no valid 'Start Date' in info.txt (found '\(info.values["Start Date"] ?? "")'): the older .gt3x format (activity.bin) has no time stamps of its own; expected .NET ticks")
        }
        guard deviceRatesHz.contains(info.sampleRateHz) else {
            throw IngestError(file: path, path: "info.txt", message: "'Sample Rate: \(info.sampleRateHz)' is not a rate the devices that wrote activity.bin record at (\(deviceRatesHz.map(String.init).joined(separator: ", ")) Hz): the samples' times would all be wrong")
        }
        // Checked before any sample is read: a rate that lies would otherwise stretch the samples over weeks.
        let spanWarning = try Self.checkSpan(samples: Self.sampleCount(bytes: entry.uncompressedSize), start: start, info: info, path: path)
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
        var warnings = (zone.warning.map { [$0] } ?? []) + intake.warnings(quality) + (spanWarning.map { [$0] } ?? [])
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

    /// Samples in `bytes` of activity.bin: two in 9 bytes, one more in 5 to 8 left over.
    static func sampleCount(bytes: Int) -> Int { bytes / 9 * 2 + (bytes % 9 >= 5 ? 1 : 0) }

    /// Samples ÷ rate against the times info.txt states (see the type's comment): throws where
    /// they cannot both be true, returns a warning where they disagree with `Stop Date` only.
    static func checkSpan(samples: Int, start: Int64, info: GT3XReader.Info, path: String) throws(IngestError) -> String? {
        let rate = info.sampleRateHz
        let seconds = Double(samples) / Double(rate)
        func duration(_ s: Double) -> String { s < 5400 ? String(format: "%.1f s", s) : String(format: "%.2f h", s / 3600) }
        func fitting(_ span: Int64) -> String {
            span > 0 ? String(format: "%.2f Hz", Double(samples) / Double(span)) : "no rate"
        }
        let read = "activity.bin holds \(samples) samples: at the stated Sample Rate of \(rate) Hz they span \(duration(seconds))"
        if let last = info.lastSampleSecond, last > start {
            let span = Double(last - start)
            if abs(seconds - span) > endTolerance(spanSeconds: span) {
                throw IngestError(file: path, path: "info.txt", message: "\(read), but info.txt's Last Sample Time is \(duration(span)) after its Start Date (the samples fit \(fitting(last - start))): the stated rate or the file is wrong, so no sample's time can be trusted")
            }
        }
        if let download = info.downloadSecond, download > start {
            let span = Double(download - start)
            if seconds > span + endTolerance(spanSeconds: span) {
                throw IngestError(file: path, path: "info.txt", message: "\(read), but info.txt's Download Date is \(duration(span)) after its Start Date: a device samples nothing after it is downloaded (at most \(fitting(download - start)) fits), so the stated rate or the file is wrong")
            }
        }
        guard info.lastSampleSecond == nil, let stop = info.stopSecond, stop > start else { return nil }
        let span = Double(stop - start)
        guard abs(seconds - span) > endTolerance(spanSeconds: span) else { return nil }
        let side = seconds > span ? "past" : "before"
        return "\(read), ending \(duration(abs(seconds - span))) \(side) info.txt's Stop Date (\(duration(span)) after its Start Date; the samples would fit \(fitting(stop - start))): "
            + (seconds > span ? "the device was downloaded late, or the stated rate is wrong" : "the device stopped early (a flat battery?), or the stated rate is wrong")
    }
}
