/// The per-sample movement formulas of the Sleepsta phone app.
///
/// The app read CoreMotion's `userAcceleration` (gravity removed, in g) once a second and added
/// "the average of the three axes" to an accumulator per interval. Its code was
/// `abs(x) + abs(y) + abs(z) / 3`, which by operator precedence divides only z by 3.
/// sleepsta computes what the app meant, and keeps what it did under a name of its own so that
/// numbers recorded by the app can be reproduced.
public enum MovementMetric: String, Sendable, CaseIterable, Codable {
    /// (|x| + |y| + |z|) / 3, in g: the app's intent. sleepsta's default.
    case meanAbsoluteAxis = "mean-abs-axis"
    /// |x| + |y| + z/3 with |z|: the app's code as written (`abs(x) + abs(y) + abs(z) / 3`), in g.
    case legacyApp = "legacy-app"

    @inlinable
    public func value(x: Double, y: Double, z: Double) -> Double {
        switch self {
        case .meanAbsoluteAxis: return (abs(x) + abs(y) + abs(z)) / 3
        case .legacyApp: return abs(x) + abs(y) + abs(z) / 3
        }
    }

    public var summary: String {
        switch self {
        case .meanAbsoluteAxis: return "(|x|+|y|+|z|)/3 per sample, mean per second, in g"
        case .legacyApp: return "|x|+|y|+|z|/3 per sample (the original app's code), mean per second, in g"
        }
    }
}
