import Foundation
import Testing
import SleepCore

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

    /// Epochs still at `segments` attitudes (angle-z per segment, minutes each), joined by turns of
    /// `turnEpochs` moving epochs, with moving epochs before and after; GGIR's flag on `flagged`
    /// (minutes). A twitch (one epoch of MAD 40 mg, the angle unchanged) every `twitchEvery` epochs.
    static func sleeper(segments: [(angle: Double, minutes: Int)], turnEpochs: Int = 2, flagged: Range<Int>, twitchEvery: Int = 0) -> WearableEpochs {
        var angle: [Float] = [], mad: [Float] = []
        func moving(_ n: Int) { for k in 0..<n { angle.append(Float((k % 7) * 10 - 30)); mad.append(0.06) } }
        moving(60 * perMinute)
        for (k, seg) in segments.enumerated() {
            if k > 0 { moving(turnEpochs) }
            for i in 0..<(seg.minutes * perMinute) {
                let twitch = twitchEvery > 0 && i % twitchEvery == twitchEvery / 2
                angle.append(Float(seg.angle + (i % 3 == 0 ? 0.01 : -0.01))); mad.append(twitch ? 0.04 : 0.003)
            }
        }
        moving(60 * perMinute)
        let n = angle.count
        return WearableEpochs(startUTC: start, enmo: .init(repeating: 0, count: n), angleZ: angle, mad: mad,
                              sampleCounts: .init(repeating: 500, count: n),
                              nonWear: (0..<n).map { flagged.contains($0 / perMinute) })
    }

    @Test("Still at one angle between turns into other still postures: a sleeper, worn; the same stillness without turns, or over 2 h, is laid down")
    func turns() throws {
        // 60 min moving, then 40, 75 and 35 min still at three attitudes joined by 10-s turns.
        // GGIR's flag lies inside the 75-min segment (minutes 60 + 40 + 10 … 60 + 40 + 65).
        let sleeper = Self.sleeper(segments: [(20, 40), (-35, 75), (50, 35)], flagged: 110..<165, twitchEvery: 97)
        let s = try #require(StillWearCheck.stretches(sleeper).first)
        #expect(s.still && s.turns && s.worn && s.wornByTurns, "\(s)")
        // The stillness is the whole 75-min segment, across its twitches.
        let whole = try #require(s.stillness)
        #expect(whole.count == 75 * Self.perMinute, "\(whole)")
        let applied = StillWearCheck.applied(sleeper)
        #expect(applied.epochs.nonWear.allSatisfy { !$0 } && applied.added.isEmpty)

        // One attitude for the whole stretch, moving before and after (a table): laid down, grown.
        let table = Self.sleeper(segments: [(88.6, 75)], flagged: 70..<125)
        let t = try #require(StillWearCheck.stretches(table).first)
        #expect(!t.turns && t.laidDown, "\(t)")
        // Twitches alone do not make a sleeper (a jolted bedside table).
        let jolted = Self.sleeper(segments: [(88.6, 75)], flagged: 70..<125, twitchEvery: 40)
        #expect(try #require(StillWearCheck.stretches(jolted).first).laidDown)
        // Taken off after a still segment and laid down for 3 h: a turn-like change of attitude
        // joins it to sleep, but no sleeper holds one angle to half a degree for 3 h.
        let removal = Self.sleeper(segments: [(20, 40), (88.6, 180)], flagged: 115..<270)
        let r = try #require(StillWearCheck.stretches(removal).first)
        #expect(r.turns && !r.sleeperBetweenTurns && r.laidDown, "\(r)")
        // A turn is brief: 3 min of movement between two still segments is not one.
        let up = Self.sleeper(segments: [(20, 40), (-35, 75)], turnEpochs: 36, flagged: 115..<160)
        #expect(try #require(StillWearCheck.stretches(up).first).laidDown)
    }

    @Test("Outside the sleep window, stillness that a turn joins to another still posture is not laid down: a sleeper the window missed")
    func turnsOutsideTheWindow() {
        let sleeper = Self.sleeper(segments: [(20, 25), (-35, 30), (50, 25)], flagged: 0..<0)
        let window = EpochSpan(startEpoch: 160 * Self.perMinute, endEpoch: 170 * Self.perMinute)
        #expect(StillWearCheck.laidDownOutside(sleeper, window: window).isEmpty)
        let table = Self.sleeper(segments: [(88.6, 30)], flagged: 0..<0)
        #expect(StillWearCheck.laidDownOutside(table, window: window) == [60 * Self.perMinute..<90 * Self.perMinute])
    }
}

/// The temperature channel's verdict on still stretches (Zhou et al. 2015).
@Suite("StillWearCheck: the temperature decides where the recording has a live sensor")
struct StillWearTemperatureTests {
    /// 3 h of epochs, still at one angle from epoch 720 to 2880 (flagged), temperature given per epoch.
    static func epochs(temperature: (Int) -> Float) -> WearableEpochs {
        let n = 2160 + 1440
        var e = WearableEpochs(startUTC: 0, enmo: .init(repeating: 0, count: n),
                               angleZ: (0..<n).map { (k: Int) -> Float in k < 720 || k >= 2880 ? Float((k % 7) * 10) : 30 },
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
