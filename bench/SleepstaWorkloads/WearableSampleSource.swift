import CZlib
import Foundation

/// A wrist signal sample by sample, as the file writers take it: the benchmark's day/night script
/// (``WearableCSVGenerator``) and a shift worker's week (``ShiftWorkerWeek``) are written by the
/// same CSV and `.cwa` code, so a reader sees the same layouts from both.
public protocol WearableSampleSource: Sendable {
    /// Samples per second.
    var rateHz: Int { get }
    /// The first sample's UTC second.
    var startEpochSecond: Int64 { get }
    /// The device clock's offset from UTC (a device keeps the offset it was set to): the local times
    /// of the temperature CSV and of the `.cwa`.
    var scriptOffsetSeconds: Int64 { get }
    /// The recording's length.
    var days: Double { get }
    /// Whether the files carry the temperature channel.
    var temperature: Bool { get }
    /// The signal in time order: UTC second, sample index within it (0 ..< rateHz), acceleration in
    /// g with gravity, the device's temperature (°C) of that second.
    func forEachSample(_ body: (_ second: Int64, _ k: Int, _ x: Double, _ y: Double, _ z: Double,
                                _ celsius: Double) throws -> Void) rethrows
}

extension WearableCSVGenerator: WearableSampleSource {}

/// The raw CSV of a ``WearableSampleSource`` (the layout ``WearableCSVGenerator`` documents).
enum WearableCSVWriter {
    /// Writes the CSV to `path` and, when `gzipPath` is given, the same bytes gzip-compressed
    /// (level 1) to it. Returns the number of rows.
    static func write<S: WearableSampleSource>(_ signal: S, to path: String, gzipPath: String?) throws -> Int {
        guard let out = fopen(path, "wb") else { throw BenchError.io("cannot create \(path)") }
        defer { fclose(out) }
        var gz: gzFile? = nil
        if let gzipPath {
            gz = gzopen(gzipPath, "wb1")
            guard gz != nil else { throw BenchError.io("cannot create \(gzipPath)") }
        }
        defer { if let gz { gzclose(gz) } }
        let capacity = 1 << 22
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + 256)
        defer { buffer.deallocate() }
        var used = 0
        func flush() throws {
            guard used > 0 else { return }
            let written = fwrite(buffer, 1, used, out)
            if written != used { throw BenchError.io("write failed on \(path) (disk full?)") }
            if let gz {
                let n = gzwrite(gz, buffer, UInt32(used))
                if n != Int32(used) { throw BenchError.io("gzip write failed on \(gzipPath ?? "")") }
            }
            used = 0
        }
        let temperature = signal.temperature, rateHz = signal.rateHz, offset = signal.scriptOffsetSeconds
        for byte in Array((temperature ? "time,x,y,z,temperature\n" : "timestamp,x,y,z\n").utf8) { buffer[used] = byte; used += 1 }

        var rows = 0
        var stamp: (second: Int64, text: [UInt8]) = (.min, [])
        try signal.forEachSample { second, k, x, y, z, celsius in
            if temperature {
                // A device export's layout (GGIR's raw CSV, AX6 and GENEActiv exports): the local
                // time to the millisecond, x, y, z in g, the temperature in °C.
                if stamp.second != second { stamp = (second, WearableCSVGenerator.localTime(second + offset)) }
                for byte in stamp.text { buffer[used] = byte; used += 1 }
                let ms = k * 1000 / rateHz
                buffer[used] = UInt8(ascii: "."); buffer[used + 1] = UInt8(48 + ms / 100)
                buffer[used + 2] = UInt8(48 + ms / 10 % 10); buffer[used + 3] = UInt8(48 + ms % 10); used += 4
                buffer[used] = UInt8(ascii: ","); used = WearableCSVGenerator.writeFixed4(buffer, used + 1, x)
                buffer[used] = UInt8(ascii: ","); used = WearableCSVGenerator.writeFixed4(buffer, used + 1, y)
                buffer[used] = UInt8(ascii: ","); used = WearableCSVGenerator.writeFixed4(buffer, used + 1, z)
                buffer[used] = UInt8(ascii: ","); used = WearableCSVGenerator.writeFixed2(buffer, used + 1, celsius)
                buffer[used] = UInt8(ascii: "\n"); used += 1
            } else {
                used += WearableCSVGenerator.writeRow(into: buffer, at: used, second: second, hundredths: k * (100 / rateHz), x: x, y: y, z: z)
            }
            rows += 1
            if used >= capacity { try flush() }
        }
        try flush()
        return rows
    }
}
