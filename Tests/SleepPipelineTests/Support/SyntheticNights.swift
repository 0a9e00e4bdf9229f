import Foundation

/// Phone nights generated in the test (nothing committed): CSV bytes written directly, because
/// `String(format:)` for the millions of values of a 50 Hz night would take longer than the test.
enum SyntheticNights {
    /// A night of `timestamp,x,y,z` rows at `rateHz`, timestamps in epoch milliseconds (50 Hz) or
    /// seconds (1 Hz), no time zone stated: restless for the first 20 minutes and the last 10, still
    /// in between but for a 20-minute awakening after about four hours. Values in g with 4 decimals.
    static func rawCSV(startUTC: Int64, hours: Double, rateHz: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        let samples = Int(hours * 3600) * rateHz
        var out: [UInt8] = []
        out.reserveCapacity(samples * 36 + 32)
        out += Array("timestamp,x,y,z\n".utf8)
        let totalMinutes = Int(hours * 60)
        for i in 0..<samples {
            let second = i / rateHz
            let minute = second / 60
            let awake = minute < 20 || (minute >= 250 && minute < 270) || minute >= totalMinutes - 10
            let amplitude = awake ? 1500.0 : 40.0   // in 1e-4 g
            if rateHz == 1 {
                appendInteger(startUTC + Int64(second), to: &out)
            } else {
                appendInteger(startUTC * 1000 + Int64(i) * 1000 / Int64(rateHz), to: &out)
            }
            for _ in 0..<3 {
                out.append(UInt8(ascii: ","))
                appendFixed4(Int((rng.nextUnit() - 0.5) * amplitude), to: &out)
            }
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var v = value.magnitude
        var digits: [UInt8] = []
        repeat { digits.append(UInt8(ascii: "0") + UInt8(v % 10)); v /= 10 } while v > 0
        out += digits.reversed()
    }

    /// `tenThousandths` / 10⁴ as `-0.0012`.
    static func appendFixed4(_ tenThousandths: Int, to out: inout [UInt8]) {
        if tenThousandths < 0 { out.append(UInt8(ascii: "-")) }
        let v = tenThousandths.magnitude
        appendInteger(Int64(v / 10_000), to: &out)
        out.append(UInt8(ascii: "."))
        let frac = v % 10_000
        out += [frac / 1000, frac / 100 % 10, frac / 10 % 10, frac % 10].map { UInt8(ascii: "0") + UInt8($0) }
    }
}

/// A small, fast, seeded generator (Steele, Lea & Flood 2014), so generated data and random
/// choices in tests are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
