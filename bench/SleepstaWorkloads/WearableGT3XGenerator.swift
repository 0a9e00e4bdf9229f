#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib
import Foundation
import SleepCore

/// Writes the benchmark's signal (``WearableCSVGenerator``: same seed, days and script, g with
/// gravity) as an ActiGraph `.gt3x` of a wGT3X-BT (serial `MOS…`), so that the GT3X reader and
/// GGIR's (read.gt3x) are run on a file whose every sample and night is known.
///
/// The layout is ActiGraph's published format (github.com/actigraph/GT3X-File-Format: README,
/// info.txt.md, LogRecords/Activity2.md, Parameters.md, Metadata.md), as `GT3XReader` and
/// read.gt3x parse it:
///
/// * a zip archive of `log.bin` and `info.txt` (entries stored, CRC-32 from zlib);
/// * `info.txt`: `Key: Value` lines with CR LF; `Sample Rate`, `Acceleration Scale: 256.0` (±8 g),
///   `Start Date`, `Stop Date` and `Last Sample Time` in .NET ticks on the device's local clock
///   (read.gt3x sizes its sample matrix from `Last Sample Time − Start Date`), `TimeZone`;
/// * `log.bin`: records of separator 0x1E, type, 4-byte little-endian time stamp (local seconds),
///   2-byte payload size, payload, checksum (one's complement of the XOR of all bytes before it);
///   a METADATA and a PARAMETERS record at initialisation, then one ACTIVITY2 record (0x1A) per
///   second: the second's samples as little-endian Int16 x, y, z, the accelerometer's 12-bit
///   codes (−2048…2047 at 256 per g), as the wGT3X-BT and GT9X Link write them. (ACTIVITY2 is
///   not bit-packed; packed 12-bit samples are the older ACTIVITY record, which GT3X+ devices write.)
///
/// Times are the script's local clock (UTC + its offset, `TimeZone: 02:00:00` for Berlin in
/// summer), as a device initialised there records them. No idle-sleep mode: every second has its
/// record.
public struct WearableGT3XGenerator: Sendable {
    var signal: WearableCSVGenerator
    static let unitsPerG = 256.0
    static let serial = "MOS2E24061442"

    /// The signal at the device's rate (the script, seed and days are the signal's own): 30 Hz
    /// by default, ActiLife's default and the rate most sleep studies record at (the devices offer
    /// 30 to 100 Hz in steps of 10).
    public init(signal: WearableCSVGenerator, rateHz: Int = 30) {
        precondition((30...100).contains(rateHz) && rateHz % 10 == 0, "an ActiGraph rate: 30 to 100 Hz in steps of 10")
        var s = signal
        s.rateHz = rateHz
        self.signal = s
    }

    /// Writes the file; returns the number of samples.
    @discardableResult
    public func write(to path: String) throws -> Int {
        let rate = signal.rateHz
        let startLocal = signal.startEpochSecond + signal.scriptOffsetSeconds
        let seconds = Int64(signal.days * 86_400)
        let endLocal = startLocal + seconds
        let initialised = startLocal - 3600   // initialised an hour before it starts, downloaded an hour after the end
        let zip = try StoredZipWriter(path: path, dosTimeLocal: endLocal + 3600)

        try zip.beginEntry("log.bin")
        try zip.write(Self.record(type: 0x06, localSecond: initialised, payload: Array(
            #"{"MetadataType":"Bio","SubjectName":"sleepsta-bench","Race":"","Limb":"Wrist","Side":"Left","Dominance":"Non-Dominant","Parsed":false,"JSON":null}"#.utf8)))
        try zip.write(Self.record(type: 0x15, localSecond: initialised,
                                  payload: Self.parameters(rateHz: rate, startLocal: startLocal, endLocal: endLocal, initialised: initialised)))
        var payload = [UInt8](repeating: 0, count: 6 * rate)
        var samples = 0
        try signal.forEachSample { second, k, x, y, z in
            payload.putLittleEndian(Self.code(x), at: 6 * k)
            payload.putLittleEndian(Self.code(y), at: 6 * k + 2)
            payload.putLittleEndian(Self.code(z), at: 6 * k + 4)
            samples += 1
            if k == rate - 1 { try zip.write(Self.record(type: 0x1A, localSecond: second + signal.scriptOffsetSeconds, payload: payload)) }
        }
        try zip.endEntry()

        try zip.beginEntry("info.txt")
        try zip.write(Array(Self.info(rateHz: rate, startLocal: startLocal, endLocal: endLocal, offsetSeconds: signal.scriptOffsetSeconds).utf8))
        try zip.endEntry()
        try zip.finish()
        return samples
    }

    /// The accelerometer's 12-bit code of `g` at 256 per g (its ±8 g range).
    static func code(_ g: Double) -> Int16 { Int16(max(-2048, min(2047, (g * unitsPerG).rounded()))) }

    /// One log record: 1E, type, time stamp, size, payload, checksum.
    static func record(type: UInt8, localSecond: Int64, payload: [UInt8]) -> [UInt8] {
        precondition(payload.count <= Int(UInt16.max))
        var r = [UInt8](repeating: 0, count: 9 + payload.count)
        r[0] = 0x1E
        r[1] = type
        r.putLittleEndian(UInt32(truncatingIfNeeded: localSecond), at: 2)
        r.putLittleEndian(UInt16(payload.count), at: 6)
        r.replaceSubrange(8..<(8 + payload.count), with: payload)
        r[8 + payload.count] = ~r[0..<(8 + payload.count)].reduce(0, ^)
        return r
    }

    /// PARAMETERS (Parameters.md): 8-byte pairs of address space, identifier and value.
    static func parameters(rateHz: Int, startLocal: Int64, endLocal: Int64, initialised: Int64) -> [UInt8] {
        let pairs: [(UInt16, UInt16, UInt32)] = [
            (0, 6, 2),                                           // BATTERY_STATE: normal
            (0, 13, 1 << 24 | 9 << 16 | 2),                      // FIRMWARE_VERSION 1.9.2
            (0, 55, encodeFloat(unitsPerG)),                     // ACCEL_SCALE: 256 LSB/g
            (1, 2, 0),                                           // FEATURE_ENABLE: no sleep mode
            (1, 10, UInt32(rateHz)),                             // SAMPLE_RATE
            (1, 12, UInt32(truncatingIfNeeded: startLocal)),     // TARGET_START_TIME
            (1, 13, UInt32(truncatingIfNeeded: endLocal)),       // TARGET_STOP_TIME
            (1, 14, UInt32(truncatingIfNeeded: initialised)),    // TIME_OF_DAY at initialisation
        ]
        var b = [UInt8](repeating: 0, count: 8 * pairs.count)
        for (i, p) in pairs.enumerated() {
            b.putLittleEndian(p.0, at: 8 * i); b.putLittleEndian(p.1, at: 8 * i + 2); b.putLittleEndian(p.2, at: 8 * i + 4)
        }
        return b
    }

    /// Parameters.md's float: a two's-complement 24-bit fraction (2^23 × the mantissa in
    /// [0.5, 1)) and a signed 8-bit exponent; positive values only are needed here.
    static func encodeFloat(_ f: Double) -> UInt32 {
        precondition(f > 0)
        var significand = f, exponent = 0
        while significand >= 1 { significand /= 2; exponent += 1 }
        while significand < 0.5 { significand *= 2; exponent -= 1 }
        return UInt32(significand * 8_388_608) & 0x00FF_FFFF | UInt32(UInt8(bitPattern: Int8(exponent))) << 24
    }

    /// .NET ticks (100 ns since 0001-01-01) of a local second since 1970, as info.txt states times.
    static func ticks(_ localSecond: Int64) -> Int64 { (localSecond + 62_135_596_800) * 10_000_000 }

    static func info(rateHz: Int, startLocal: Int64, endLocal: Int64, offsetSeconds: Int64) -> String {
        let o = abs(offsetSeconds)
        let zone = (offsetSeconds < 0 ? "-" : "") + String(format: "%02d:%02d:%02d", o / 3600, o % 3600 / 60, o % 60)
        return [
            "Serial Number: \(serial)", "Device Type: wGT3XBT", "Firmware: 1.9.2", "Battery Voltage: 4.12",
            "Sample Rate: \(rateHz)", "Start Date: \(ticks(startLocal))", "Stop Date: \(ticks(endLocal))",
            "Last Sample Time: \(ticks(endLocal))", "TimeZone: \(zone)", "Download Date: \(ticks(endLocal + 3600))",
            "Board Revision: 4", "Unexpected Resets: 0", "Acceleration Scale: 256.0", "Acceleration Min: -8.0",
            "Acceleration Max: 8.0", "Subject Name: sleepsta-bench",
        ].joined(separator: "\r\n") + "\r\n"
    }
}

/// A zip archive (PKWARE APPNOTE 6.3) of stored entries written one after another, each streamed:
/// the local header is written first and its CRC-32 and sizes filled in when the entry ends. No
/// zip64 (entries under 4 GiB: a week at 100 Hz is a 368 MB log).
final class StoredZipWriter {
    private let path: String
    private var out: UnsafeMutablePointer<FILE>?
    private let dosTime: UInt16, dosDate: UInt16
    private var central: [UInt8] = []
    private var entries = 0
    private var current: (name: [UInt8], headerOffset: Int64, crc: UInt, size: Int64)? = nil
    private var buffer: [UInt8] = []

    init(path: String, dosTimeLocal local: Int64) throws {
        guard let f = fopen(path, "wb") else { throw BenchError.io("cannot create \(path)") }
        self.path = path
        out = f
        let (days, rem) = local.quotientAndRemainder(dividingBy: 86_400)
        let d = CivilDate(daysSinceEpoch: days), t = Int(rem)
        dosDate = UInt16((d.year - 1980) << 9 | d.month << 5 | d.day)
        dosTime = UInt16((t / 3600) << 11 | (t % 3600 / 60) << 5 | (t % 60) / 2)
        buffer.reserveCapacity(1 << 20)
    }

    /// A writer left before ``finish()`` (an error) still closes its file.
    deinit { if let out { fclose(out) } }

    private func header(signature: UInt32, crc: UInt32, size: UInt32, nameCount: Int, central offset: UInt32?) -> [UInt8] {
        var h = [UInt8](repeating: 0, count: offset == nil ? 30 : 46)
        h.putLittleEndian(signature, at: 0)
        var at = 4
        if offset != nil { h.putLittleEndian(UInt16(20), at: at); at += 2 }   // version made by: 2.0, MS-DOS
        h.putLittleEndian(UInt16(10), at: at)                                 // version needed: 1.0 (stored)
        // flags 0, method 0 (stored)
        h.putLittleEndian(dosTime, at: at + 6); h.putLittleEndian(dosDate, at: at + 8)
        h.putLittleEndian(crc, at: at + 10); h.putLittleEndian(size, at: at + 14); h.putLittleEndian(size, at: at + 18)
        h.putLittleEndian(UInt16(nameCount), at: at + 22)
        if let offset { h.putLittleEndian(offset, at: 42) }
        return h
    }

    func beginEntry(_ name: String) throws {
        precondition(current == nil)
        let n = Array(name.utf8)
        current = (n, Int64(ftello(out)), crc32(0, nil, 0), 0)
        try put(header(signature: 0x0403_4B50, crc: 0, size: 0, nameCount: n.count, central: nil) + n)
    }

    func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flushEntryData() }
    }

    private func flushEntryData() throws {
        guard !buffer.isEmpty else { return }
        let crc = current!.crc
        current!.crc = buffer.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, UInt32($0.count)) }
        current!.size += Int64(buffer.count)
        try put(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    func endEntry() throws {
        try flushEntryData()
        guard let e = current, e.size < Int64(UInt32.max), e.headerOffset < Int64(UInt32.max) else {
            throw BenchError.failed("\(path): an entry over 4 GiB needs zip64")
        }
        let crc = UInt32(truncatingIfNeeded: e.crc), size = UInt32(e.size)
        // The local header's CRC-32 and sizes, now known.
        var patch = [UInt8](repeating: 0, count: 12)
        patch.putLittleEndian(crc, at: 0); patch.putLittleEndian(size, at: 4); patch.putLittleEndian(size, at: 8)
        let end = ftello(out)
        guard fseeko(out, off_t(e.headerOffset + 14), SEEK_SET) == 0 else { throw BenchError.io("seek failed on \(path)") }
        try put(patch)
        guard fseeko(out, end, SEEK_SET) == 0 else { throw BenchError.io("seek failed on \(path)") }
        central += header(signature: 0x0201_4B50, crc: crc, size: size, nameCount: e.name.count, central: UInt32(e.headerOffset)) + e.name
        entries += 1
        current = nil
    }

    /// The central directory and its end record; closes the file.
    func finish() throws {
        precondition(current == nil)
        let directoryOffset = ftello(out)
        var end = [UInt8](repeating: 0, count: 22)
        end.putLittleEndian(UInt32(0x0605_4B50), at: 0)
        end.putLittleEndian(UInt16(entries), at: 8); end.putLittleEndian(UInt16(entries), at: 10)
        end.putLittleEndian(UInt32(central.count), at: 12); end.putLittleEndian(UInt32(directoryOffset), at: 16)
        try put(central + end)
        let closed = fclose(out)
        out = nil
        guard closed == 0 else { throw BenchError.io("close failed on \(path) (disk full?)") }
    }

    private func put(_ bytes: [UInt8]) throws {
        guard fwrite(bytes, 1, bytes.count, out) == bytes.count else { throw BenchError.io("write failed on \(path) (disk full?)") }
    }
}
