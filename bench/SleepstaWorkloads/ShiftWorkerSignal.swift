import Foundation
import SleepCore

extension ShiftWorkerWeek {
    /// The signal sample by sample (``WearableSampleSource``): the attitude of each second's end
    /// is reached by a straight path from the one before, so a posture change or the tremor does
    /// not jump at the second's edge; bursts run on across seconds.
    public func forEachSample(_ body: (_ second: Int64, _ k: Int, _ x: Double, _ y: Double, _ z: Double,
                                       _ celsius: Double) throws -> Void) rethrows {
        let states = minutes()
        var wrist = ShiftWrist(seed: seed, sofa: sofa, sleepModel: sleepModel)
        var noise = SplitMix64(seed: seed ^ 0x0015_E0F5_E500_0000)
        var skin = SkinTemperature()
        let step = 1.0 / Double(rateHz)
        var shown = wrist.gravity
        for s in 0..<(states.count * 60) {
            let second = startEpochSecond + Int64(s)
            let state = states[s / 60]
            let from = shown
            shown = wrist.second(state)
            skin.advance(worn: true, asleep: state.asleep)
            let burst = wrist.burst
            for k in 0..<rateHz {
                let f = Double(k + 1) * step
                var x = from.0 + (shown.0 - from.0) * f + 0.004 * noise.gaussian()
                var y = from.1 + (shown.1 - from.1) * f + 0.004 * noise.gaussian()
                var z = from.2 + (shown.2 - from.2) * f + 0.004 * noise.gaussian()
                if burst.remaining > 0 {
                    let w = burst.amplitudeG * sin(burst.phase + 2 * .pi * burst.frequencyHz * (Double(burst.elapsed) + Double(k) * step))
                    x += w; y += 0.6 * w; z -= 0.4 * w
                }
                try body(second, k, x, y, z, skin.celsius)
            }
            wrist.endSecond()
        }
    }

    /// The recording's 5-s epochs, as a reader of its samples would hand them over (no file
    /// between), with GGIR 3's non-wear scores as the readers store them.
    public func epochs() throws -> WearableEpochs {
        var sink = WearableEpochSink()
        var lastSecond = Int64.min
        let step = 1.0 / Double(rateHz)
        let temperature = temperature
        forEachSample { second, k, x, y, z, celsius in
            sink.add(timestamp: Double(second) + Double(k) * step, x: x, y: y, z: z)
            if temperature && second != lastSecond { sink.addTemperature(timestamp: Double(second), celsius: celsius); lastSecond = second }
        }
        let finished = try sink.finish()
        var e = finished.epochs
        let format = SourceFormat.samples(.rawCSV)
        e.ggirNonWearScore = Array(GGIRNonWear2023.scores(finished.statistics, chunkSeconds: GGIRNonWear2023.chunkSeconds(format: format),
                                                          clock: nil).prefix(e.count))
        return e
    }

    /// The raw CSV (``WearableCSVGenerator``'s layout: `timestamp,x,y,z` in UTC seconds, or with a
    /// temperature channel the device export's local time; read it with `--tz Europe/Berlin`).
    /// Returns the number of rows.
    @discardableResult
    public func writeCSV(to path: String) throws -> Int {
        try WearableCSVWriter.write(self, to: path, gzipPath: nil)
    }

    /// The same movement as an Axivity `.cwa` at `rateHz` (25, 50 or 100; 25 by default, the
    /// smallest file the format's rate codes allow). Returns the number of samples.
    @discardableResult
    public func writeCWA(to path: String, rateHz: Int = 25) throws -> Int {
        var w = self
        w.rateHz = rateHz
        return try WearableCWAGenerator(signal: w).write(to: path)
    }

    /// The truth as CSV: `day_date,kind,onset_utc_iso,wake_utc_iso,sleep_minutes`, a sleep a row.
    public func writeTruthCSV(to path: String) throws {
        let rows = truth().map { "\($0.dayDate),\($0.kind.rawValue),\(ShiftSleepTruth.iso($0.onsetUTC)),\(ShiftSleepTruth.iso($0.wakeUTC)),\($0.sleepMinutes)" }
        try (["day_date,kind,onset_utc_iso,wake_utc_iso,sleep_minutes"] + rows).joined(separator: "\n").appending("\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
    }
}

/// The wrist of a ``ShiftWorkerWeek``, second by second: its attitude, the burst running, and the
/// motion models of the sofa and of sleep, all from one random stream of movement.
struct ShiftWrist {
    var rng: SplitMix64
    /// The resting attitude (the sofa's tremor is shown on top of it, not kept).
    var gravity = (0.05, -0.98, 0.18)
    var burst = ShiftBurst()
    var sofa: SofaMotion
    var sleep: SleepMotion?
    var previous: ShiftWorkerWeek.Minute? = nil

    /// The largest drift of the forearm's attitude in one awake second (degrees; ``second(_:)``).
    static let awakeDriftDegrees = 6.0

    /// Awake at home: calmer than a working day's script (``DayNightScript/day``).
    static let home = DayNightScript.Level(burstProbability: 0.25, amplitudeG: 0.04...0.4, postureChangeProbability: 1.0 / 30)

    init(seed: UInt64, sofa model: SofaStillness, sleepModel: SleepModel) {
        rng = SplitMix64(seed: seed ^ 0x5717_F7ED_0000_0001)
        sofa = SofaMotion(model: model, rng: &rng)
        sleep = sleepModel == .script ? nil : SleepMotion(model: sleepModel, seed: seed)
    }

    /// The level of an activity that is not the sofa.
    static func level(_ m: ShiftWorkerWeek.Minute) -> DayNightScript.Level {
        switch m {
        case .work, .up: return DayNightScript.day
        case .home, .sofa: return home
        case .inBedAwake: return DayNightScript.wake
        case .light: return DayNightScript.light
        case .deep: return DayNightScript.deep
        }
    }

    /// One second in `state`: the attitude shown at its end (a new burst may start in `burst`).
    mutating func second(_ state: ShiftWorkerWeek.Minute) -> (Double, Double, Double) {
        defer { previous = state }
        let idle = burst.remaining == 0
        // Sitting down on the sofa or lying down in bed: a new attitude of the forearm.
        if state == .sofa && previous != .sofa {
            gravity = WearableCSVGenerator.randomGravity(&rng)
            sofa = SofaMotion(model: sofa.model, rng: &rng)
        }
        if state.inBed && !(previous?.inBed ?? false) { gravity = WearableCSVGenerator.randomGravity(&rng); sleep?.awake() }
        if state == .sofa {
            let next = sofa.second(rest: gravity, idle: idle, rng: &rng)
            gravity = next.rest
            if let b = next.burst { burst = b }
            return next.shown
        }
        let level = Self.level(state)
        if state.asleep, sleep != nil {
            let next = sleep!.second(gravity: gravity)
            gravity = next.gravity
            if let b = next.burst { burst = ShiftBurst(amplitudeG: b.amplitudeG, seconds: b.seconds, rng: &rng) }
        } else {
            if state == .inBedAwake { sleep?.awake() }
            if rng.unit() < level.postureChangeProbability { gravity = WearableCSVGenerator.randomGravity(&rng) }
            // Awake and about (home, work, up at night), the forearm is never held for long: it
            // reaches, gestures and swings, so its attitude drifts second by second between the
            // larger changes. This is what HDCZA's change of angle (van Hees 2018) sees by day.
            if state == .home || state == .work || state == .up {
                gravity = SleepMotion.rotated(gravity, degrees: Self.awakeDriftDegrees * rng.unit(), rng: &rng)
            }
        }
        if idle && burst.remaining == 0 && rng.unit() < level.burstProbability {
            let a = level.amplitudeG
            burst = ShiftBurst(amplitudeG: a.lowerBound + rng.unit() * (a.upperBound - a.lowerBound), seconds: 1 + Int(rng.unit() * 4), rng: &rng)
        }
        return gravity
    }

    /// The second's samples are out: the burst runs on.
    mutating func endSecond() {
        if burst.remaining > 0 { burst.remaining -= 1; burst.elapsed += 1 }
    }
}
