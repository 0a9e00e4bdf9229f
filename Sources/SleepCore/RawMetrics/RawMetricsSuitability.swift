extension RawMetrics {
    /// Whether the acceleration contains gravity (one type with the readers' and the store's).
    public typealias Gravity = GravityContent

    /// How much a metric means for a kind of input.
    public enum Suitability: Sendable, Equatable {
        /// Computed as published; comparable with GGIR output and published cut-points.
        case meaningful
        /// Computable and consistent within a recording, but not on the published scale.
        case notComparable(reason: String)
        /// The number would not measure what the metric's name says.
        case meaningless(reason: String)

        public var isMeaningful: Bool { self == .meaningful }
    }

    /// Which metrics mean something for input with `gravity`.
    ///
    /// * Gravity included: all three.
    /// * Gravity removed: **ENMO meaningless** — it is defined as the part of ‖a‖ above the 1 g of
    ///   gravity; with gravity subtracted ‖a‖ − 1 g is negative except in hard impacts, so ENMO is 0
    ///   almost everywhere. **angle-z meaningless** — it is the tilt of the device's z axis estimated
    ///   from the gravity vector; user acceleration has none, and its direction is that of random
    ///   movement. **MAD not comparable** — it is computable (deviation of ‖a‖ from its epoch mean),
    ///   but with gravity ‖g + u‖ ≈ 1 g + u∥ follows the *signed* component of the movement along
    ///   gravity, while ‖u‖ is a rectified magnitude: for the same sinusoidal movement of amplitude A
    ///   along gravity MAD is 2A/π ≈ 0.64·A with gravity and ≈ 0.27·A without. Vähä-Ypyä et al.'s
    ///   cut-points and GGIR MAD values therefore do not apply; it can serve as a relative
    ///   within-recording movement measure only.
    /// * Gravity unknown: all three not comparable — they assume calibrated acceleration in g with
    ///   gravity, which the data did not show.
    public static func suitability(of metric: Metric, gravity: Gravity) -> Suitability {
        switch (gravity, metric) {
        case (.included, _):
            return .meaningful
        case (.removed, .enmo):
            return .meaningless(reason: "ENMO is the part of |a| above the 1 g of gravity; with gravity removed |a| - 1 g is negative except during hard impacts, so ENMO would be 0 almost everywhere and measures nothing. Use a gravity-free movement metric (e.g. mean-abs-axis) instead")
        case (.removed, .angleZ):
            return .meaningless(reason: "angle-z is the tilt of the device's z axis estimated from the gravity vector; acceleration with gravity removed has no gravity vector, so no posture can be derived")
        case (.removed, .mad):
            return .notComparable(reason: "MAD of acceleration with gravity removed is the deviation of a rectified magnitude, not of the signed movement along gravity that MAD of raw acceleration follows (about 0.27 A instead of 0.64 A for the same sinusoidal movement of amplitude A); published MAD cut-points and GGIR values do not apply, it is only a relative measure within one recording")
        case (.unknown, _):
            return .notComparable(reason: "it could not be established whether the acceleration contains gravity (the mean |a| was neither about 1 g nor about 0); \(metric.rawValue) assumes calibrated acceleration in g with gravity included")
        }
    }

    /// The metrics that may be computed for `gravity`: the meaningful ones, plus the not comparable
    /// ones when `allowingNotComparable` (e.g. a CLI option the user set knowingly).
    public static func availableMetrics(gravity: Gravity, allowingNotComparable: Bool = false) -> [Metric] {
        Metric.allCases.filter { metric in
            switch suitability(of: metric, gravity: gravity) {
            case .meaningful: return true
            case .notComparable: return allowingNotComparable
            case .meaningless: return false
            }
        }
    }

    /// Refuses the first requested metric that is meaningless for `gravity` (or not comparable,
    /// unless `allowingNotComparable`), with an error whose `description` says why.
    public static func requireAvailable(_ metrics: [Metric], gravity: Gravity,
                                        allowingNotComparable: Bool = false) throws(RawMetricsError) {
        for metric in metrics {
            switch suitability(of: metric, gravity: gravity) {
            case .meaningful:
                continue
            case .notComparable(let reason):
                if allowingNotComparable { continue }
                throw .metricUnavailable(metric: metric, gravity: gravity, reason: reason)
            case .meaningless(let reason):
                throw .metricUnavailable(metric: metric, gravity: gravity, reason: reason)
            }
        }
    }
}
