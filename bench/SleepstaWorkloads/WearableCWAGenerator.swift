#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SleepCore

/// Writes the benchmark's binary wearable file: the same signal as ``WearableCSVGenerator`` (same
/// seed, same days, 100 Hz, g with gravity) as an Axivity AX3 `.cwa` in the packed 10-bit format
/// (120 samples per 512-byte block, ±8 g, 1/256 g units), the layout of OpenMovement's `cwa.h`
/// that `AxivityCWAReader` reads and the test fixtures (`make_raw_fixtures.py`) follow. Times are
/// the device's local clock (UTC + the script's offset), as a device set to Berlin summer time
/// records them: read it with `--tz Europe/Berlin`.
///
/// Any ``WearableSampleSource`` can be written (a shift worker's week, ``ShiftWorkerWeek``), at
/// 100, 50 or 25 Hz: AX3 rates (3200 / 2^n Hz) whose samples fall on whole hundredths of a second,
/// so each block's time, given at a sample on a whole or quarter second, stays exact.
public struct WearableCWAGenerator: Sendable {
    var signal: any WearableSampleSource
    public init(signal: some WearableSampleSource) { self.signal = signal }
    static let samplesPerBlock = 120
    static let unitsPerG = 256.0
    /// Bits 6–7 range (01 = ±8 g), low nibble rate (3200 / 2^(15 − 10) = 100 Hz; 9: 50 Hz, 8: 25 Hz).
    static func rateCode(hz: Int) -> UInt8 { hz == 50 ? 0x49 : hz == 25 ? 0x48 : 0x4A }
    static let session: UInt32 = 20240614
    static let deviceID: UInt16 = 4242

    /// Writes the file; returns the number of samples.
    @discardableResult
    public func write(to path: String) throws -> Int {
        let rateHz = signal.rateHz
        precondition([100, 50, 25].contains(rateHz), "the .cwa rate codes written are for 100, 50 and 25 Hz")
        guard let out = fopen(path, "wb") else { throw BenchError.io("cannot create \(path)") }
        defer { fclose(out) }
        let startLocal = signal.startEpochSecond + signal.scriptOffsetSeconds
        var header = Self.header(startLocal: startLocal, days: signal.days, rateHz: rateHz)
        guard fwrite(&header, 1, header.count, out) == header.count else { throw BenchError.io("write failed on \(path)") }

        var block = [UInt8](repeating: 0, count: 512)
        var inBlock = 0
        var sequence: UInt32 = 0
        var samples = 0
        var anchor: (index: Int, second: Int64, hundredths: Int)? = nil
        let offset = signal.scriptOffsetSeconds, temperature = signal.temperature
        var celsiusAtAnchor = 0.0
        try signal.forEachSample { second, k, x, y, z, celsius in
            block.putLittleEndian(Self.packed10(x, y, z), at: 30 + 4 * inBlock)
            // The block's time is given for one of its samples (timestampOffset): the first on a
            // quarter second, whose fraction the format's 15 bits hold exactly, so that readers
            // interpolating between blocks put every sample in its own second.
            let hundredths = k * (100 / rateHz)
            if anchor == nil && hundredths % 25 == 0 { anchor = (inBlock, second, hundredths); celsiusAtAnchor = celsius }
            inBlock += 1
            samples += 1
            if inBlock == Self.samplesPerBlock, let a = anchor {
                Self.finishBlock(&block, sequence: sequence, anchorIndex: a.index,
                                 localSecond: a.second + offset, hundredths: a.hundredths, rateHz: rateHz,
                                 temperature: temperature ? Self.temperatureCode(celsiusAtAnchor) : 700)
                guard fwrite(block, 1, 512, out) == 512 else { throw BenchError.io("write failed on \(path) (disk full?)") }
                sequence += 1
                inBlock = 0
                anchor = nil
            }
        }
        return samples - inBlock   // a trailing partial block is not written
    }

    /// eezzzzzz zzzzyyyy yyyyyyxx xxxxxxxx: the smallest exponent at which all three axes fit 10 bits.
    static func packed10(_ x: Double, _ y: Double, _ z: Double) -> UInt32 {
        func units(_ v: Double) -> Int { Int(max(-32768, min(32767, (v * unitsPerG).rounded()))) }
        let qx = units(x), qy = units(y), qz = units(z)
        // The exponent is a constant, not a variable the nested functions capture: a captured
        // `var` is checked for exclusive access at run time on every call, which made this
        // function the generator's slowest step.
        func fits(_ q: Int, _ e: Int) -> Bool { (-512...511).contains(q >> e) }
        let e = (0..<3).first { fits(qx, $0) && fits(qy, $0) && fits(qz, $0) } ?? 3
        func field(_ q: Int) -> UInt32 { UInt32(max(-512, min(511, q >> e)) & 0x3FF) }
        return UInt32(e) << 30 | field(qz) << 20 | field(qy) << 10 | field(qx)
    }

    /// The AX3's 10-bit temperature reading: °C = code · 75 / 256 − 50 (an MCP9700 sensor on the
    /// 3 V ADC, as GGIRread's readAxivity converts it).
    static func temperatureCode(_ celsius: Double) -> UInt16 {
        UInt16(max(0, min(1023, ((celsius + 50) * 256 / 75).rounded())))
    }

    static func finishBlock(_ b: inout [UInt8], sequence: UInt32, anchorIndex: Int, localSecond: Int64, hundredths: Int,
                            rateHz: Int = 100, temperature: UInt16) {
        func put16(_ at: Int, _ v: UInt16) { b.putLittleEndian(v, at: at) }
        func put32(_ at: Int, _ v: UInt32) { b.putLittleEndian(v, at: at) }
        precondition(hundredths % 25 == 0)
        let frac16 = UInt16(hundredths * 65536 / 100)   // 0, 16384, 32768 or 49152: exact
        // cwa.h's backwards-compatible shift: the offset is stored less the fraction × rate.
        let shim = (Int(frac16) * rateHz) >> 16
        b[0] = UInt8(ascii: "A"); b[1] = UInt8(ascii: "X")
        put16(2, 508)
        put16(4, 0x8000 | (frac16 >> 1))            // deviceFractional: top bit says "fraction present"
        put32(6, session)
        put32(10, sequence)
        put32(14, packedTime(localSecond))
        put16(18, 300)                              // light (and unit shift 0 in bits 13–15)
        put16(20, temperature)                      // temperature (700 when the signal has none: the bench's files)
        b[22] = 0                                   // events
        b[23] = 150                                 // battery
        b[24] = rateCode(hz: rateHz)
        b[25] = 0x30                                // 3 axes, packed 10-bit
        put16(26, UInt16(bitPattern: Int16(anchorIndex - shim)))          // timestampOffset: the sample the time belongs to
        put16(28, UInt16(samplesPerBlock))
        var sum: UInt16 = 0
        for i in stride(from: 0, to: 510, by: 2) { sum &+= UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
        put16(510, 0 &- sum)                        // the 256 words sum to zero
    }

    static func header(startLocal: Int64, days: Double, rateHz: Int = 100) -> [UInt8] {
        var b = [UInt8](repeating: 0xFF, count: 1024)
        func put16(_ at: Int, _ v: UInt16) { b.putLittleEndian(v, at: at) }
        func put32(_ at: Int, _ v: UInt32) { b.putLittleEndian(v, at: at) }
        b[0] = UInt8(ascii: "M"); b[1] = UInt8(ascii: "D")
        put16(2, 1020)
        b[4] = 0x17                                 // hardware type: AX3
        put16(5, deviceID)
        put32(7, session)
        put16(11, 0xFFFF)
        put32(13, packedTime(startLocal))
        put32(17, packedTime(startLocal + Int64(days * 86_400)))
        put32(21, 0)
        b[25] = 0; b[26] = 0
        b[35] = 0                                   // accelerometer only
        b[36] = rateCode(hz: rateHz)
        put32(37, packedTime(startLocal - 3600))    // last change
        b[41] = 45                                  // firmware
        put16(42, 0xFFFF)                           // time zone: not set
        let meta = Array("_sc=bench&_p=left%20wrist&_n=sleepsta-bench".utf8)
        for i in 64..<512 { b[i] = i - 64 < meta.count ? meta[i - 64] : UInt8(ascii: " ") }
        return b
    }

    /// cwa.h's packed time YYYYYYMM MMDDDDDh hhhhmmmm mmssssss (year − 2000), on the local clock.
    static func packedTime(_ localSecond: Int64) -> UInt32 {
        let (days, rem) = (localSecond.quotientAndRemainder(dividingBy: 86_400))
        let date = CivilDate(daysSinceEpoch: days), seconds = Int(rem)
        return UInt32(date.year - 2000) << 26 | UInt32(date.month) << 22 | UInt32(date.day) << 17 | UInt32(seconds / 3600) << 12
            | UInt32(seconds % 3600 / 60) << 6 | UInt32(seconds % 60)
    }
}

extension Array where Element == UInt8 {
    /// Writes `value` little-endian at `offset` (the byte order of every .cwa field).
    mutating func putLittleEndian<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        for k in 0..<(T.bitWidth / 8) { self[offset + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
    }
}
