/// The unit charts and pages give movement in: the mean acceleration of the seconds with data,
/// in milli-g, which researchers read directly (the per-minute movement in g·s/min ÷ 60 × 1000).
/// The database and the exports keep g·s (`movement_sum`) and g·s/min (`movement_per_minute`).
public enum MovementUnits {
    /// Chart axes, chart titles and table headers say the same.
    public static let meanAccelerationLabel = "mean acceleration (mg)"

    /// g·s/min → mg (nil stays nil: an interval without data).
    public static func milliG(perMinute gsPerMinute: Double?) -> Double? {
        gsPerMinute.map { $0 / 60 * 1000 }
    }
}
