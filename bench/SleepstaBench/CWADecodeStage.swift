#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SleepCore
import SleepIngest
import SleepstaWorkloads

/// The `.cwa` decoder on its own, for the comparison with actfast.
///
/// Timed: `AxivityCWAReader.read(path:options:)`, which decodes every block, times every sample and
/// hands it to the per-second accumulator and QC, keeping no samples (its `DiscardingSampleSink`,
/// specialised inside SleepIngest), so memory stays flat. The reader has one path, so this is more
/// work than actfast's decode into arrays, never less.
///
/// Then, untimed, the same reader once more into ``CWAChecksumSink``, whose numbers the agreement
/// check reads. That run is not the one timed: a sink from outside SleepIngest runs the reader's
/// generic `read<Sink>` unspecialised (see `WearableSampleRead`), about 4× slower here, which
/// would measure the module boundary, not the decoder. Its time is kept in the notes.
enum CWADecodeStage {
    static func run(_ o: StageOptions) throws -> StageResult {
        let reader = AxivityCWAReader()
        let options = IngestOptions(timeZoneIdentifier: o.timeZone)
        var recording: Recording? = nil
        // User and system CPU of each timed run besides the wall time: actfast's wall time is
        // mostly the kernel's (faulting in the pages of its arrays), so the table shows both.
        var user: [Double] = [], system: [Double] = []
        let times = try Stopwatch.measure(warmUp: o.warmUp, repeats: o.repeats) {
            let before = CPUTime.now()
            recording = try reader.read(path: o.file, options: options)
            let after = CPUTime.now()
            user.append(after.user - before.user); system.append(after.system - before.system)
        }
        guard let recording else { throw BenchError.failed("no recording") }
        user.removeFirst(o.warmUp); system.removeFirst(o.warmUp)
        var notes = ["time zone": o.timeZone ?? "none (device clock as UTC)",
                     "user s": String(format: "%.3f", Stopwatch.median(user)),
                     "system s": String(format: "%.3f", Stopwatch.median(system))]
        if let out = o.output {
            var sink = CWAChecksumSink()
            let start = Stopwatch.now()
            _ = try reader.read(path: o.file, options: options, samples: &sink)
            notes["checksum run s (untimed, generic sink across modules)"] = String(format: "%.3f", Stopwatch.now() - start)
            notes["checksum run samples"] = String(sink.count)
            try sink.write(to: out)
        }
        return StageResult(name: "decode-cwa",
                           label: "decode .cwa: AxivityCWAReader, every sample timed and streamed through the per-second accumulator + QC, none kept, 1 core",
                           seconds: times, bytes: IngestStages.fileSize(o.file), items: recording.quality.sampleCount,
                           peakResidentBytes: Stopwatch.peakResidentBytes(), threads: 1, notes: notes)
    }
}

/// Keeps what the agreement check with another reader needs, not the samples: the count, the
/// first and last time, exact integer checksums of every value, and every 1000th sample.
///
/// The checksums are over q = value × 2^16, an integer for every value a .cwa can hold (its unit is
/// 1/2^(8…15) g), so they are exact and do not depend on summation order: per axis Σq, Σq² and
/// Σq·w with w = (sample index mod 65521) + 1, which also catches samples out of place. All wrap
/// modulo 2^64, as numpy's int64 sums do.
struct CWAChecksumSink: SampleSink {
    static let scale = 65_536.0
    static let weightModulus: Int64 = 65_521
    static let sampleStride = 1_000

    private(set) var count = 0
    private(set) var last = Double.nan
    private var sum: (Int64, Int64, Int64) = (0, 0, 0)
    private var squares: (Int64, Int64, Int64) = (0, 0, 0)
    private var weighted: (Int64, Int64, Int64) = (0, 0, 0)
    private var weight: Int64 = 1
    private var untilPick = 0
    /// Every `sampleStride`-th sample from the first: time, x, y, z.
    private var picks: [Double] = []

    mutating func add(timestamp: Double, x: Double, y: Double, z: Double) {
        let qx = Int64(x * Self.scale), qy = Int64(y * Self.scale), qz = Int64(z * Self.scale)
        sum.0 &+= qx; sum.1 &+= qy; sum.2 &+= qz
        squares.0 &+= qx &* qx; squares.1 &+= qy &* qy; squares.2 &+= qz &* qz
        weighted.0 &+= qx &* weight; weighted.1 &+= qy &* weight; weighted.2 &+= qz &* weight
        weight = weight == Self.weightModulus ? 1 : weight + 1
        if untilPick == 0 {
            picks.append(contentsOf: [timestamp, x, y, z])
            untilPick = Self.sampleStride
        }
        untilPick -= 1
        last = timestamp
        count += 1
    }

    /// `<out>.decode.json`: the count, times and checksums; `<out>.decode-samples`: the picked
    /// samples as little-endian float64 rows (time in seconds since 1970, x, y, z in g).
    func write(to prefix: String) throws {
        struct Summary: Encodable {
            var samples: Int
            var first: Double
            var last: Double
            var scale: Double
            var weightModulus: Int64
            var sampleStride: Int
            var sum: [Int64]
            var sumOfSquares: [Int64]
            var weightedSum: [Int64]
        }
        let summary = Summary(samples: count, first: picks.first ?? .nan, last: last, scale: Self.scale,
                              weightModulus: Self.weightModulus, sampleStride: Self.sampleStride,
                              sum: [sum.0, sum.1, sum.2], sumOfSquares: [squares.0, squares.1, squares.2],
                              weightedSum: [weighted.0, weighted.1, weighted.2])
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        try e.encode(summary).write(to: URL(fileURLWithPath: prefix + ".decode.json"))
        try picks.map { $0.bitPattern.littleEndian }.withUnsafeBytes { Data($0) }
            .write(to: URL(fileURLWithPath: prefix + ".decode-samples"))
    }
}

/// This process's user and system CPU seconds so far (`getrusage`).
enum CPUTime {
    static func now() -> (user: Double, system: Double) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
        return (seconds(usage.ru_utime), seconds(usage.ru_stime))
    }
}
