import Foundation
import Testing
@testable import SleepCore

/// ``StillWearCheck``: a still sleeper's wrist against a device laid down, on 5-s epochs built to
/// the physics each stands for.
@Suite("Still wear: a still sleeper against a device laid down")
struct StillWearCheckTests {
    static let start: Int64 = 1_718_366_400   // 2024-06-14 12:00 UTC
    static let perMinute = 12

    /// `minutes` of epochs: moving (MAD 60 mg, angle-z jumping) except `[stillFrom, stillTo)`,
    /// where angle-z follows `angle(minute)`, MAD is sensor noise and GGIR's flag is set on
    /// `[flagFrom, flagTo)`.
    static func epochs(minutes: Int, still: Range<Int>, flagged: Range<Int>, angle: (Double) -> Double) -> WearableEpochs {
        var rng = SystemRandomNumberGenerator()
        let n = minutes * perMinute
        var e = WearableEpochs(startUTC: start, enmo: .init(repeating: 0.02, count: n), angleZ: .init(repeating: 0, count: n),
                               mad: .init(repeating: 0.06, count: n), sampleCounts: .init(repeating: 500, count: n),
                               nonWear: .init(repeating: false, count: n))
        for i in 0..<n {
            let minute = Double(i) / Double(perMinute)
            if still.contains(Int(minute)) {
                e.angleZ[i] = Float(angle(minute) + Double.random(in: -0.01...0.01, using: &rng))
                e.mad[i] = 0.003; e.enmo[i] = 0
            } else {
                e.angleZ[i] = Float(Double.random(in: -60...60, using: &rng))
            }
            e.nonWear[i] = flagged.contains(Int(minute))
        }
        return e
    }

    @Test("A forearm's ±0.3° swing (25-min period) over 3 h is worn; a table's fixed angle and a cooling device's monotone drift are not")
    func wander() throws {
        let sleeper = Self.epochs(minutes: 300, still: 60..<240, flagged: 75..<225) { -30 + 0.3 * sin(2 * .pi * $0 / 25) }
        let s = try #require(StillWearCheck.stretches(sleeper).first)
        #expect(s.startEpoch == 75 * Self.perMinute && s.endEpoch == 225 * Self.perMinute)
        #expect(s.worn && s.wanderDegrees! > 5, "\(s)")
        let applied = StillWearCheck.applied(sleeper)
        #expect(applied.epochs.nonWear.allSatisfy { !$0 } && applied.added.isEmpty)

        let table = Self.epochs(minutes: 300, still: 60..<240, flagged: 75..<225) { _ in 88.6 }
        let t = try #require(StillWearCheck.stretches(table).first)
        #expect(!t.worn && t.wanderDegrees! < 0.05, "\(t)")

        // Cooling from skin to room temperature moves the offset, and so the angle, one way only.
        let cooling = Self.epochs(minutes: 300, still: 60..<240, flagged: 75..<225) { 88.0 + 0.6 * (1 - exp(-($0 - 60) / 10)) }
        let c = try #require(StillWearCheck.stretches(cooling).first)
        #expect(!c.worn && c.wanderDegrees! < 0.05, "\(c)")

        // A flagged stretch that moves (a step above 5°) was not flagged by stillness: left as it is.
        let moving = Self.epochs(minutes: 300, still: 0..<0, flagged: 75..<225) { _ in 0 }
        let m = try #require(StillWearCheck.stretches(moving).first)
        #expect(!m.still && m.wanderDegrees == nil && !m.worn && !m.laidDown)
        let kept = StillWearCheck.applied(moving)
        #expect(kept.epochs.nonWear == moving.nonWear && kept.added.isEmpty)
    }

    @Test("A laid-down stretch grows over the rest of its stillness at the same angle (GGIR leaves its edges worn), never over movement")
    func growth() throws {
        let table = Self.epochs(minutes: 300, still: 60..<240, flagged: 75..<225) { _ in 88.6 }
        let applied = StillWearCheck.applied(table)
        #expect(applied.added == [60 * Self.perMinute..<75 * Self.perMinute, 225 * Self.perMinute..<240 * Self.perMinute], "\(applied.added)")
        #expect((0..<table.count).filter { applied.epochs.nonWear[$0] } == Array(60 * Self.perMinute..<240 * Self.perMinute))
        // At most 45 min each side.
        let long = Self.epochs(minutes: 400, still: 30..<370, flagged: 150..<250) { _ in 88.6 }
        let grown = StillWearCheck.applied(long).added
        #expect(grown == [105 * Self.perMinute..<150 * Self.perMinute, 250 * Self.perMinute..<295 * Self.perMinute], "\(grown)")
    }

    @Test("Outside the sleep window, 10 min or more at one angle with sensor noise only is a device laid down; inside it, or shorter, it is not")
    func laidDownOutside() throws {
        let shower = Self.epochs(minutes: 300, still: 200..<220, flagged: 0..<0) { _ in 88.6 }
        let window = EpochSpan(startEpoch: 30 * Self.perMinute, endEpoch: 180 * Self.perMinute)
        #expect(StillWearCheck.laidDownOutside(shower, window: window) == [200 * Self.perMinute..<220 * Self.perMinute])
        let inside = EpochSpan(startEpoch: 150 * Self.perMinute, endEpoch: 250 * Self.perMinute)
        #expect(StillWearCheck.laidDownOutside(shower, window: inside).isEmpty)
        let brief = Self.epochs(minutes: 300, still: 200..<208, flagged: 0..<0) { _ in 88.6 }
        #expect(StillWearCheck.laidDownOutside(brief, window: window).isEmpty)
        // A still forearm awake (a 0.8° swing over 6 minutes) leaves the half-degree band.
        let reading = Self.epochs(minutes: 300, still: 200..<230, flagged: 0..<0) { 10 + 0.8 * sin(2 * .pi * $0 / 6) }
        #expect(StillWearCheck.laidDownOutside(reading, window: window).isEmpty)
    }
}

/// The temperature channel's verdict on still stretches (Zhou et al. 2015).
@Suite("StillWearCheck: the temperature decides where the recording has a live sensor")
struct StillWearTemperatureTests {
    /// 3 h of epochs, still at one angle from epoch 720 to 2880 (flagged), temperature given per epoch.
    static func epochs(temperature: (Int) -> Float) -> WearableEpochs {
        let n = 2160 + 1440
        var e = WearableEpochs(startUTC: 0, enmo: .init(repeating: 0, count: n),
                               angleZ: (0..<n).map { $0 < 720 || $0 >= 2880 ? Float(($0 % 7) * 10) : 30 },
                               mad: .init(repeating: 0.003, count: n), sampleCounts: .init(repeating: 500, count: n),
                               nonWear: (0..<n).map { $0 >= 720 && $0 < 2880 })
        e.temperature = (0..<n).map(temperature)
        return e
    }

    @Test("still at one angle but at skin temperature: worn; the same stillness cooling to the room: not worn")
    func verdicts() {
        let skin = Self.epochs { 33.5 + Float($0 % 720) / 720 }
        let worn = StillWearCheck.stretches(skin)
        #expect(worn.count == 1 && worn[0].temperatureSaysWorn == true && worn[0].worn, "\(worn)")
        // Off the wrist at epoch 720: 33.5 °C falling to 22 °C with τ = 10 min.
        let cooling = Self.epochs { i in i < 720 ? 33.5 : 22 + 11.5 * Float(exp(-Double(i - 720) * 5 / 600)) }
        let off = StillWearCheck.stretches(cooling)
        #expect(off.count == 1 && off[0].temperatureSaysWorn == false && !off[0].worn && off[0].laidDown, "\(off)")
    }

    @Test("a sensor that reads a constant says nothing: the angle decides")
    func deadSensor() {
        let flat = Self.epochs { _ in 32 }
        let s = StillWearCheck.stretches(flat)
        #expect(s.count == 1 && s[0].temperatureSaysWorn == nil && !s[0].worn, "\(s)")
    }
}
