import CZlib
import Foundation
import SleepCore

/// Writes the benchmark's raw tri-axial wearable CSV: `timestamp,x,y,z`, epoch seconds with two
/// decimals at 100 Hz, acceleration in g **with gravity** (a wrist device, as ActiGraph and
/// Axivity record), deterministic for a seed.
///
/// The signal follows a daily script so that every stage downstream has real work: days
/// (07:00–23:00 local) with frequent movement bursts of 0.05–0.6 g at 1–3 Hz and a wrist that turns
/// (a new orientation every 20 s on average, as an active wrist does; angle-based methods such as
/// HDCZA and van Hees 2015 see only orientation), nights with sleep cycles (light sleep with
/// occasional small movements, deep sleep nearly still, brief awakenings), sensor noise of σ 4 mg
/// per axis, and on the second day an afternoon (14:00–17:00) with the watch lying on a table
/// (flat, still: non-wear). ``DayNightScript/truth(days:startEpochSecond:)`` gives each night's
/// scripted sleep onset, wake time and sleep minutes, against which the wearable method is tested. Numbers are written with 4 decimals, as
/// device exports do; a row is about 37 bytes, so 7 days at 100 Hz are 60.48 M rows, about 2.3 GB.
public struct WearableCSVGenerator: Sendable {
    public var days: Double = 7
    public var rateHz = 100
    /// 2024-06-14 00:00 UTC.
    public var startEpochSecond: Int64 = 1_718_323_200
    /// Local clock offset used by the day/night script (Europe/Berlin in summer).
    public var scriptOffsetSeconds: Int64 = 7200
    public var seed: UInt64 = 20240614

    public init(days: Double = 7, rateHz: Int = 100) { self.days = days; self.rateHz = rateHz }

    /// The script of every night that starts inside the recording (see ``DayNightScript/Night``).
    public func truth() -> [DayNightScript.Night] {
        var script = DayNightScript(rng: SplitMix64(seed: seed ^ 0x9E37_79B9_7F4A_7C15), offsetSeconds: scriptOffsetSeconds)
        return script.nights(from: startEpochSecond, seconds: Int(days * 86_400))
    }

    /// Writes the CSV to `path` and, when `gzipPath` is given, the same bytes gzip-compressed
    /// (level 1) to it. Returns the number of rows.
    @discardableResult
    public func write(to path: String, gzipPath: String? = nil) throws -> Int {
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
        for byte in Array("timestamp,x,y,z\n".utf8) { buffer[used] = byte; used += 1 }

        var rows = 0
        try forEachSample { second, k, x, y, z in
            used += Self.writeRow(into: buffer, at: used, second: second, hundredths: k * (100 / rateHz), x: x, y: y, z: z)
            rows += 1
            if used >= capacity { try flush() }
        }
        try flush()
        return rows
    }

    /// The signal, sample by sample in time order: UTC second, sample index within that second
    /// (0 ..< rateHz), acceleration in g. The CSV and the binary (.cwa) workloads both write it.
    public func forEachSample(_ body: (_ second: Int64, _ k: Int, _ x: Double, _ y: Double, _ z: Double) throws -> Void) rethrows {
        var rng = SplitMix64(seed: seed)
        let totalSeconds = Int(days * 86_400)
        var script = DayNightScript(rng: SplitMix64(seed: seed ^ 0x9E37_79B9_7F4A_7C15), offsetSeconds: scriptOffsetSeconds)
        var gravity = (0.05, -0.98, 0.18)
        var burst = Burst()
        let step = 1.0 / Double(rateHz)
        for s in 0..<totalSeconds {
            let second = startEpochSecond + Int64(s)
            let level = script.level(at: second)
            if level.offWrist { gravity = DayNightScript.tableGravity }
            else if rng.unit() < level.postureChangeProbability { gravity = Self.randomGravity(&rng) }
            if burst.remaining == 0 && rng.unit() < level.burstProbability {
                burst = Burst(amplitudeG: level.amplitudeG.lowerBound + rng.unit() * (level.amplitudeG.upperBound - level.amplitudeG.lowerBound),
                              frequencyHz: 1 + 2 * rng.unit(), remaining: 1 + Int(rng.unit() * 4), phase: rng.unit() * 6.283)
            }
            for k in 0..<rateHz {
                var x = gravity.0 + 0.004 * rng.gaussian()
                var y = gravity.1 + 0.004 * rng.gaussian()
                var z = gravity.2 + 0.004 * rng.gaussian()
                if burst.remaining > 0 {
                    let w = burst.amplitudeG * sin(burst.phase + 6.283185307 * burst.frequencyHz * Double(k) * step)
                    x += w; y += 0.6 * w; z -= 0.4 * w
                }
                try body(second, k, x, y, z)
            }
            if burst.remaining > 0 { burst.remaining -= 1 }
        }
    }

    static func randomGravity(_ rng: inout SplitMix64) -> (Double, Double, Double) {
        let a = rng.gaussian(), b = rng.gaussian(), c = rng.gaussian()
        let n = max((a * a + b * b + c * c).squareRoot(), 1e-9)
        return (a / n, b / n, c / n)
    }

    /// `second.hh,x,y,z\n` with 4 decimals per axis, written without `String` (60 M rows).
    @inline(__always)
    static func writeRow(into b: UnsafeMutablePointer<UInt8>, at start: Int, second: Int64, hundredths: Int,
                         x: Double, y: Double, z: Double) -> Int {
        var i = start
        i = writeInteger(b, i, Int(second))
        b[i] = UInt8(ascii: "."); i += 1
        b[i] = UInt8(48 + hundredths / 10); b[i + 1] = UInt8(48 + hundredths % 10); i += 2
        b[i] = UInt8(ascii: ","); i = writeFixed4(b, i + 1, x)
        b[i] = UInt8(ascii: ","); i = writeFixed4(b, i + 1, y)
        b[i] = UInt8(ascii: ","); i = writeFixed4(b, i + 1, z)
        b[i] = UInt8(ascii: "\n"); i += 1
        return i - start
    }

    @inline(__always)
    static func writeInteger(_ b: UnsafeMutablePointer<UInt8>, _ at: Int, _ value: Int) -> Int {
        var count = 1
        var probe = value
        while probe >= 10 { probe /= 10; count += 1 }
        var n = value
        for k in stride(from: count - 1, through: 0, by: -1) { b[at + k] = UInt8(48 + n % 10); n /= 10 }
        return at + count
    }

    /// `v` rounded to 4 decimals (half away from zero), e.g. `-0.9981`.
    @inline(__always)
    static func writeFixed4(_ b: UnsafeMutablePointer<UInt8>, _ at: Int, _ v: Double) -> Int {
        var i = at
        let scaled = Int((abs(v) * 10_000).rounded())
        if v < 0 && scaled != 0 { b[i] = UInt8(ascii: "-"); i += 1 }
        i = writeInteger(b, i, scaled / 10_000)
        b[i] = UInt8(ascii: "."); i += 1
        let f = scaled % 10_000
        b[i] = UInt8(48 + f / 1000); b[i + 1] = UInt8(48 + f / 100 % 10); b[i + 2] = UInt8(48 + f / 10 % 10); b[i + 3] = UInt8(48 + f % 10)
        return i + 4
    }

    private struct Burst {
        var amplitudeG = 0.0
        var frequencyHz = 1.0
        var remaining = 0
        var phase = 0.0
    }
}

/// Movement level by local clock time: active days, nights of sleep cycles with brief awakenings.
public struct DayNightScript: Sendable {
    struct Level {
        var burstProbability: Double
        var amplitudeG: ClosedRange<Double>
        var postureChangeProbability: Double
        var offWrist = false
    }
    /// One scripted night: local 23:00 to 07:00, asleep from `onsetUTC` to `wakeUTC` but for the
    /// brief awakenings (`sleepMinutes` excludes them).
    public struct Night: Sendable {
        public var onsetUTC: Int64
        public var wakeUTC: Int64
        public var sleepMinutes: Int
    }
    var rng: SplitMix64
    let offsetSeconds: Int64
    private var nightStage: [Int64: [UInt8]] = [:]
    private var firstLocalDay: Int64? = nil

    init(rng: SplitMix64, offsetSeconds: Int64) { self.rng = rng; self.offsetSeconds = offsetSeconds }

    static let day = Level(burstProbability: 0.35, amplitudeG: 0.05...0.6, postureChangeProbability: 1.0 / 20)
    static let wake = Level(burstProbability: 0.08, amplitudeG: 0.02...0.2, postureChangeProbability: 1.0 / 60)
    static let light = Level(burstProbability: 0.006, amplitudeG: 0.01...0.08, postureChangeProbability: 1.0 / 3600)
    static let deep = Level(burstProbability: 0.0005, amplitudeG: 0.005...0.02, postureChangeProbability: 0)
    static let table = Level(burstProbability: 0, amplitudeG: 0...0, postureChangeProbability: 0, offWrist: true)
    /// A watch lying flat on a table, slightly tilted.
    static let tableGravity = (0.02, -0.03, 0.9993)

    /// The nights whose 23:00 start lies in `[start, start + seconds)`, in order; generates them as
    /// ``level(at:)`` would (same random draws in the same order).
    mutating func nights(from start: Int64, seconds: Int) -> [Night] {
        var result: [Night] = []
        _ = level(at: start)   // as the generator's first sample does
        var s = start
        while s < start + Int64(seconds) {
            let local = s + offsetSeconds
            let secondOfDay = ((local % 86_400) + 86_400) % 86_400
            if secondOfDay == 23 * 3600 || (s == start && secondOfDay < 7 * 3600) {
                let nightStart = secondOfDay >= 23 * 3600 ? local : local - secondOfDay - 3600
                _ = level(at: s)
                let stages = nightStage[nightStart]!
                let firstSleep = stages.firstIndex { $0 != 0 }!, lastSleep = stages.lastIndex { $0 != 0 }!
                if secondOfDay == 23 * 3600 {
                    result.append(Night(onsetUTC: nightStart - offsetSeconds + Int64(firstSleep * 60),
                                        wakeUTC: nightStart - offsetSeconds + Int64((lastSleep + 1) * 60),
                                        sleepMinutes: stages.filter { $0 != 0 }.count))
                }
            }
            s += 60
        }
        return result
    }

    mutating func level(at utcSecond: Int64) -> Level {
        let local = utcSecond + offsetSeconds
        let secondOfDay = ((local % 86_400) + 86_400) % 86_400
        let localDay = (local - secondOfDay) / 86_400
        if firstLocalDay == nil { firstLocalDay = localDay }
        // The second day, 14:00–17:00: the watch lies on a table.
        if localDay == firstLocalDay! + 1 && secondOfDay >= 14 * 3600 && secondOfDay < 17 * 3600 { return Self.table }
        // The night that starts at 23:00 local of this evening (or of yesterday's, after midnight).
        let nightStart = secondOfDay >= 23 * 3600 ? local - secondOfDay + 23 * 3600
            : (secondOfDay < 7 * 3600 ? local - secondOfDay - 3600 : Int64.min)
        guard nightStart != Int64.min else { return Self.day }
        if nightStage[nightStart] == nil { nightStage[nightStart] = makeNight() }
        let minute = Int((local - nightStart) / 60)
        let stages = nightStage[nightStart]!
        switch stages[min(minute, stages.count - 1)] {
        case 0: return Self.wake
        case 1: return Self.light
        default: return Self.deep
        }
    }

    /// 480 minutes: 10–25 awake, then 90-minute cycles of light and deep sleep (deep shorter in
    /// later cycles) with an awakening of 1–4 minutes at some cycle ends, a few minutes awake at the end.
    private mutating func makeNight() -> [UInt8] {
        var stages: [UInt8] = Array(repeating: 0, count: 10 + Int(rng.unit() * 15))
        var cycle = 0
        while stages.count < 472 {
            let deepShare = max(0.1, 0.45 - 0.1 * Double(cycle))
            let deep = Int(90 * deepShare)
            stages += Array(repeating: 1, count: 90 - deep) + Array(repeating: 2, count: deep)
            if rng.unit() < 0.4 { stages += Array(repeating: 0, count: 1 + Int(rng.unit() * 4)) }
            cycle += 1
        }
        return Array(stages.prefix(472)) + Array(repeating: 0, count: 8)
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and the same sequence on every machine.
public struct SplitMix64: Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    @inline(__always)
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    @inline(__always)
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }
    /// Approximately standard normal (sum of four uniforms, scaled): enough for sensor noise, and fast.
    @inline(__always)
    public mutating func gaussian() -> Double {
        (unit() + unit() + unit() + unit() - 2) * 1.7320508075688772
    }
}

public enum BenchError: Error, CustomStringConvertible {
    case io(String)
    case failed(String)
    public var description: String {
        switch self {
        case .io(let m), .failed(let m): return m
        }
    }
}
