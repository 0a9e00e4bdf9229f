import Foundation
import SleepCore

/// SplitMix64: a small seeded generator, so every synthetic night is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A night whose sleep/wake truth is known minute by minute, and a per-second movement series
/// that the scorer reads back exactly: wake seconds move 8× more than sleep seconds (±20 %
/// jitter per second), sleep runs last 30–90 min, wake bouts inside the sleep period are short
/// (1–4 min, below half of a 10-minute interval), medium (6–9 min: a 10-minute interval may show
/// them, a 15-minute one may hide them) or long (16–40 min, longer than any compared interval). With Oakley's weights and a threshold of 4 × the median epoch, every
/// 60-s epoch is then scored as its truth, so the interval metrics differ from the truth only
/// by the interval resolution.
struct SyntheticNight {
    /// Berlin summer time: the local clock is UTC + 2 h.
    static let timeline = UTCOffsetTimeline.fixed(7200)
    static let sleepMovement: Float = 0.002
    static let wakeMovement: Float = 0.016

    var window: NightWindow
    var dataStartUTC: Int64
    /// One label per minute from `dataStartUTC`.
    var truth: [SleepWake]
    var series: SecondSeries

    /// - Parameter evening: days after 2024-06-01.
    init(seed: UInt64, evening: Int = 13) {
        var rng = SeededGenerator(seed: seed)
        let date = CivilDate(year: 2024, month: 6, day: 1).adding(days: evening)
        window = NightSplitter.window(for: date, timeline: Self.timeline)
        // Bed between 22:00 and 23:30 local (10 to 11.5 h after the window's noon).
        dataStartUTC = window.startUTC + 10 * 3600 + Int64(Int.random(in: 0...90, using: &rng)) * 60
        var minutes: [SleepWake] = Array(repeating: .wake, count: Int.random(in: 5...40, using: &rng))
        let target = Int.random(in: 6 * 60...8 * 60, using: &rng)
        while true {
            minutes += Array(repeating: .sleep, count: Int.random(in: 30...90, using: &rng))
            if minutes.count >= target { break }
            let bout: Int
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: bout = Int.random(in: 1...4, using: &rng)
            case 1: bout = Int.random(in: 6...9, using: &rng)
            default: bout = Int.random(in: 16...40, using: &rng)
            }
            minutes += Array(repeating: .wake, count: bout)
        }
        minutes += Array(repeating: .wake, count: Int.random(in: 3...15, using: &rng))
        truth = minutes
        var movement = [Float](repeating: 0, count: minutes.count * 60)
        for i in movement.indices {
            let base = minutes[i / 60] == .sleep ? Self.sleepMovement : Self.wakeMovement
            movement[i] = base * Float.random(in: 0.8...1.2, using: &rng)
        }
        series = SecondSeries(startSecond: dataStartUTC, movement: movement, legacyMovement: movement,
                              sampleCounts: [UInt16](repeating: 1, count: movement.count))
    }

    var dataEndUTC: Int64 { dataStartUTC + Int64(truth.count * 60) }

    /// The truth's night metrics (yasa definitions on the minute hypnogram, lights off/on = data span).
    var truthMetrics: NightMetrics { NightMetrics.compute(sleepWake: truth, epochSeconds: 60) }

    /// UTC seconds where the truth changes between sleep and wake.
    var boundariesUTC: [Int64] {
        truth.indices.dropFirst().filter { truth[$0] != truth[$0 - 1] }.map { dataStartUTC + Int64($0 * 60) }
    }

    /// The truth's awakenings (wake bouts inside the sleep period) with their length in minutes.
    var awakeningMinutes: [Int] {
        guard let first = truth.firstIndex(of: .sleep), let last = truth.lastIndex(of: .sleep) else { return [] }
        var result: [Int] = []
        var run = 0
        for m in first...last {
            if truth[m] == .wake { run += 1 } else if run > 0 { result.append(run); run = 0 }
        }
        return result
    }

    /// The recording as a 1 Hz raw CSV (`timestamp,x,y,z` with x = y = z = the movement, so
    /// (|x|+|y|+|z|)/3 gives it back).
    var csv: String {
        var lines = ["timestamp,x,y,z"]
        lines.reserveCapacity(series.count + 1)
        for i in 0..<series.count {
            let v = String(format: "%.6f", series.movement[i])
            lines.append("\(dataStartUTC + Int64(i)),\(v),\(v),\(v)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
