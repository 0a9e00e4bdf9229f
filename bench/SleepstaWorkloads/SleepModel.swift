import Foundation

/// How a sleeping wrist is still: the family of sleepers the wearable method is tested on, so that
/// no rule is tuned to one way of lying still.
///
/// Each model keeps the script's night (when the sleeper falls asleep, the brief awakenings and the
/// waking, ``DayNightScript``), so the truth is the same; only the motion of the asleep wrist differs.
/// What is known of it, and what each model takes from it:
/// - Adults change posture in bed every 15–30 min on average, and a still period between two changes
///   rarely lasts much more than an hour (De Koninck et al. 1992, "Sleep positions and position
///   shifts in five age groups", Sleep 15:143; Skarpsno et al. 2017, Nat Sci Sleep 9:267: a few
///   position shifts per hour by accelerometry). A turn is a few seconds of movement
///   and a new attitude of the forearm of tens of degrees.
/// - Between turns, small movements of the hand ("twitches") happen without a change of attitude.
/// - A forearm resting on the chest or belly moves with breathing (about 15 breaths a minute): a
///   tilt of a fraction of a degree, back and forth within seconds.
/// - Some forearms wander slowly (``StillWander``), some keep one attitude to sensor noise.
public enum SleepModel: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The benchmark's script: light sleep with small movements and rare posture changes, deep sleep nearly still.
    case script
    /// Slow angle wander (±0.3°, periods of 25 and 37 min) between turns every 60–150 min.
    case wander
    /// One attitude between turns every 20–60 min, twitches that do not change the angle, no wander.
    case turns
    /// Turns every 50–70 min with rare twitches.
    case hourlyTurns = "hourly-turns"
    /// Breathing micro-motion (0.4° tilt, 4-s period) between turns every 30–90 min.
    case breathing

    public var description: String { rawValue }

    /// The minutes between turns, the chance of a twitch per second, and the motions between them.
    var turnMinutes: ClosedRange<Double> {
        switch self {
        case .script: return 0...0
        case .wander: return 60...150
        case .turns: return 20...60
        case .hourlyTurns: return 50...70
        case .breathing: return 30...90
        }
    }
    var twitchPerSecond: Double {
        switch self {
        case .script: return 0
        case .wander: return 1.0 / 1800
        case .turns: return 1.0 / 600
        case .hourlyTurns: return 1.0 / 3600
        case .breathing: return 1.0 / 1200
        }
    }
    var wanders: Bool { self == .wander }
    var breathes: Bool { self == .breathing }
}

/// The state of an asleep wrist under a ``SleepModel``: its own random stream (the script's stays
/// as it is), the time to the next turn.
struct SleepMotion {
    let model: SleepModel
    var rng: SplitMix64
    var secondsToTurn: Double? = nil

    init(model: SleepModel, seed: UInt64) {
        self.model = model
        rng = SplitMix64(seed: seed ^ 0xA5A5_5A5A_0F0F_F0F0)
    }

    /// One more second asleep at attitude `gravity`: the attitude after it, and a burst of motion
    /// (a turn's or a twitch's) when one starts.
    mutating func second(gravity: (Double, Double, Double)) -> (gravity: (Double, Double, Double), burst: (amplitudeG: Double, seconds: Int)?) {
        if secondsToTurn == nil { secondsToTurn = nextTurn() }
        secondsToTurn! -= 1
        if secondsToTurn! <= 0 {
            secondsToTurn = nextTurn()
            let degrees = 30 + 60 * rng.unit()
            return (Self.rotated(gravity, degrees: degrees, rng: &rng), (0.1 + 0.3 * rng.unit(), 2 + Int(rng.unit() * 3)))
        }
        if rng.unit() < model.twitchPerSecond { return (gravity, (0.02 + 0.08 * rng.unit(), 1)) }
        return (gravity, nil)
    }

    /// Awake: the count to the next turn starts again when sleep comes back.
    mutating func awake() { secondsToTurn = nil }

    mutating func nextTurn() -> Double {
        let r = model.turnMinutes
        return 60 * (r.lowerBound + (r.upperBound - r.lowerBound) * rng.unit())
    }

    /// `g` turned by `degrees` about a random axis perpendicular to it.
    static func rotated(_ g: (Double, Double, Double), degrees: Double, rng: inout SplitMix64) -> (Double, Double, Double) {
        var a = (rng.gaussian(), rng.gaussian(), rng.gaussian())
        let d = a.0 * g.0 + a.1 * g.1 + a.2 * g.2
        a = (a.0 - d * g.0, a.1 - d * g.1, a.2 - d * g.2)
        let n = max((a.0 * a.0 + a.1 * a.1 + a.2 * a.2).squareRoot(), 1e-9)
        a = (a.0 / n, a.1 / n, a.2 / n)
        let c = (a.1 * g.2 - a.2 * g.1, a.2 * g.0 - a.0 * g.2, a.0 * g.1 - a.1 * g.0)   // a × g
        let t = degrees * .pi / 180
        return (g.0 * cos(t) + c.0 * sin(t), g.1 * cos(t) + c.1 * sin(t), g.2 * cos(t) + c.2 * sin(t))
    }

    /// Breathing's tilt of the attitude at time `t` (seconds): 0.4° along a direction perpendicular
    /// to gravity, with a 4-s period.
    static func breathing(_ g: (Double, Double, Double), t: Double) -> (Double, Double, Double) {
        let axis: (Double, Double, Double) = abs(g.2) < 0.9 ? (0, 0, 1) : (1, 0, 0)
        let d = axis.0 * g.0 + axis.1 * g.1 + axis.2 * g.2
        var u = (axis.0 - d * g.0, axis.1 - d * g.1, axis.2 - d * g.2)
        let n = (u.0 * u.0 + u.1 * u.1 + u.2 * u.2).squareRoot()
        u = (u.0 / n, u.1 / n, u.2 / n)
        let p = 0.007 * sin(2 * .pi * t / 4)   // tan 0.4°
        return (g.0 + p * u.0, g.1 + p * u.1, g.2 + p * u.2)
    }
}
