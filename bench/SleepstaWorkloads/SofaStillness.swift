import Foundation

/// How an awake forearm rests: on a sofa through a film, reading, scrolling a phone.
///
/// The physics: awake, the forearm is held by muscle tone and posture is kept actively, so it is
/// never quite at rest. Every 1–3 minutes comes a small adjustment (a hand to the face, the remote,
/// a drink, a page turned): a change of attitude of a few degrees (3–15°) with a short, low burst
/// of acceleration (0.02–0.1 g for 1–3 s). Between adjustments the held forearm trembles and
/// drifts by fractions of a degree to a couple of degrees on a scale of seconds (postural sway,
/// breathing carried by the trunk, the tone of muscles that hold it), and the fingers and hand make
/// tiny movements (scrolling, scratching) of about 0.01–0.04 g. Asleep, muscle tone falls: the
/// forearm lies where it was put, at one angle for many minutes, until the next posture change
/// moves it by tens of degrees (``SleepMotion``). Angle-based rest detection (van Hees 2015: no
/// change of the z-angle over 5° within 5 min) rests on that difference, and so does any method
/// that must not find a sleep on a sofa.
///
/// Every number is a parameter so a test can make the sofa stiller (rarer adjustments, less
/// tremor) and see where a method's line lies; the defaults are the realistic ones above.
public struct SofaStillness: Sendable, Equatable {
    /// The mean time between adjustments; the intervals are drawn uniformly from 0.5–1.5 times it.
    public var meanAdjustmentSeconds: Double
    /// The change of the forearm's attitude at an adjustment.
    public var adjustmentDegrees: ClosedRange<Double>
    /// The peak acceleration of an adjustment's burst (1–3 s).
    public var adjustmentBurstG: ClosedRange<Double>
    /// The standard deviation of the tremor's tilt on each of two axes across gravity.
    public var tremorDegrees: Double
    /// The tremor's time scale (the correlation time of its tilt).
    public var tremorSeconds: Double
    /// Small hand and finger movements (0.01–0.04 g, 1–2 s) per minute between adjustments.
    public var fidgetsPerMinute: Double

    public init(meanAdjustmentSeconds: Double = 120, adjustmentDegrees: ClosedRange<Double> = 3...15,
                adjustmentBurstG: ClosedRange<Double> = 0.02...0.1, tremorDegrees: Double = 0.8, tremorSeconds: Double = 3,
                fidgetsPerMinute: Double = 4) {
        self.meanAdjustmentSeconds = meanAdjustmentSeconds; self.adjustmentDegrees = adjustmentDegrees
        self.adjustmentBurstG = adjustmentBurstG; self.tremorDegrees = tremorDegrees; self.tremorSeconds = tremorSeconds
        self.fidgetsPerMinute = fidgetsPerMinute
    }

    /// The realistic sofa (the defaults).
    public static let realistic = SofaStillness()

    /// A sofa close to a sleeper's stillness: an adjustment every `meanAdjustmentSeconds`, a tenth
    /// of the tremor, no fidgets.
    public static func stiller(meanAdjustmentSeconds: Double) -> SofaStillness {
        SofaStillness(meanAdjustmentSeconds: meanAdjustmentSeconds, tremorDegrees: 0.08, fidgetsPerMinute: 0)
    }
}

/// A burst of movement on the wrist: a sinusoid on all three axes for a few seconds.
struct ShiftBurst {
    var amplitudeG = 0.0
    var frequencyHz = 1.0
    var remaining = 0
    var phase = 0.0
    /// Seconds since the burst began (the sinusoid runs on across seconds).
    var elapsed = 0

    init() {}
    init(amplitudeG: Double, seconds: Int, rng: inout SplitMix64) {
        self.amplitudeG = amplitudeG; remaining = seconds
        frequencyHz = 1 + 2 * rng.unit(); phase = rng.unit() * 2 * .pi
    }
}

/// The state of a forearm on the sofa: its resting attitude, the time to the next adjustment, the
/// tremor's two tilts.
struct SofaMotion {
    let model: SofaStillness
    var secondsToAdjustment: Double
    var tilt = (0.0, 0.0)

    init(model: SofaStillness, rng: inout SplitMix64) {
        self.model = model
        secondsToAdjustment = Self.interval(model, &rng)
    }

    static func interval(_ m: SofaStillness, _ rng: inout SplitMix64) -> Double {
        m.meanAdjustmentSeconds * (0.5 + rng.unit())
    }

    /// One second on the sofa at resting attitude `rest`: the new resting attitude, the attitude
    /// the wrist shows (rest with the tremor), and a burst when one starts (`idle`: none running).
    mutating func second(rest: (Double, Double, Double), idle: Bool, rng: inout SplitMix64)
        -> (rest: (Double, Double, Double), shown: (Double, Double, Double), burst: ShiftBurst?) {
        // The tremor: an Ornstein–Uhlenbeck tilt per axis with standard deviation tremorDegrees.
        let a = exp(-1 / max(model.tremorSeconds, 0.1)), sd = model.tremorDegrees * .pi / 180
        let kick = sd * (1 - a * a).squareRoot()
        tilt = (a * tilt.0 + kick * rng.gaussian(), a * tilt.1 + kick * rng.gaussian())
        var rest = rest
        var burst: ShiftBurst? = nil
        secondsToAdjustment -= 1
        if secondsToAdjustment <= 0 {
            secondsToAdjustment = Self.interval(model, &rng)
            let d = model.adjustmentDegrees
            rest = SleepMotion.rotated(rest, degrees: d.lowerBound + (d.upperBound - d.lowerBound) * rng.unit(), rng: &rng)
            let g = model.adjustmentBurstG
            burst = ShiftBurst(amplitudeG: g.lowerBound + (g.upperBound - g.lowerBound) * rng.unit(), seconds: 1 + Int(rng.unit() * 3), rng: &rng)
        } else if idle && rng.unit() < model.fidgetsPerMinute / 60 {
            burst = ShiftBurst(amplitudeG: 0.01 + 0.03 * rng.unit(), seconds: 1 + Int(rng.unit() * 2), rng: &rng)
        }
        return (rest, Self.tilted(rest, by: tilt), burst)
    }

    /// `g` tilted by two small angles (radians) about two axes across it.
    static func tilted(_ g: (Double, Double, Double), by t: (Double, Double)) -> (Double, Double, Double) {
        let axis: (Double, Double, Double) = abs(g.2) < 0.9 ? (0, 0, 1) : (1, 0, 0)
        let d = axis.0 * g.0 + axis.1 * g.1 + axis.2 * g.2
        var u = (axis.0 - d * g.0, axis.1 - d * g.1, axis.2 - d * g.2)
        let n = (u.0 * u.0 + u.1 * u.1 + u.2 * u.2).squareRoot()
        u = (u.0 / n, u.1 / n, u.2 / n)
        let v = (g.1 * u.2 - g.2 * u.1, g.2 * u.0 - g.0 * u.2, g.0 * u.1 - g.1 * u.0)
        let p = tan(t.0), q = tan(t.1)
        let r = (g.0 + p * u.0 + q * v.0, g.1 + p * u.1 + q * v.1, g.2 + p * u.2 + q * v.2)
        let m = (r.0 * r.0 + r.1 * r.1 + r.2 * r.2).squareRoot()
        return (r.0 / m, r.1 / m, r.2 / m)
    }
}
