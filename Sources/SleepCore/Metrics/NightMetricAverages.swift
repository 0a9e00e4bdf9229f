/// Mean and SD of each night metric over a recording's scored nights, over all nights and over
/// weekday and weekend nights, as GGIR's part-4 person summary reports them (`_AD`, `_WD`, `_WE`).
///
/// A weekend night is the night that starts on a Friday or Saturday evening (GGIR: the night after
/// a weekend day's evening is followed by a free day); the others are weekday nights. SD is the
/// sample SD (n − 1), nil for fewer than two nights.
public struct NightMetricAverages: Sendable, Equatable {
    public enum Scope: String, Sendable, CaseIterable {
        case all = "AD", weekday = "WD", weekend = "WE"
    }

    public struct Row: Sendable, Equatable {
        /// Column name in exports (`total_sleep_time_min` …).
        public var metric: String
        public var label: String
        public var unit: String
        public var scope: Scope
        public var n: Int
        public var mean: Double?
        public var sd: Double?
    }

    public var rows: [Row]

    /// The metrics averaged, with their export names.
    public static let metrics: [(name: String, label: String, unit: String, value: @Sendable (NightSummaryMetrics) -> Double?)] = [
        ("total_sleep_time_min", "Total sleep time", "min", { $0.totalSleepTimeMinutes }),
        ("time_in_bed_min", "Time in bed", "min", { $0.timeInBedMinutes }),
        ("sleep_period_min", "Sleep period", "min", { $0.sleepPeriodMinutes }),
        ("sleep_efficiency_pct", "Sleep efficiency", "%", { $0.sleepEfficiencyPercent }),
        ("sleep_onset_latency_min", "Sleep onset latency", "min", { $0.sleepOnsetLatencyMinutes }),
        ("waso_min", "Wake after sleep onset", "min", { $0.wakeAfterSleepOnsetMinutes }),
        ("awakenings", "Awakenings", "", { Double($0.awakenings) }),
    ]

    /// Day of the week of a date, 0 = Sunday … 6 = Saturday.
    public static func weekday(_ date: CivilDate) -> Int {
        Int(((date.daysSinceEpoch + 4) % 7 + 7) % 7)   // 1970-01-01 was a Thursday
    }

    public static func isWeekendNight(_ date: CivilDate) -> Bool {
        let d = weekday(date)
        return d == 5 || d == 6
    }

    public static func compute(_ nights: [(date: CivilDate, metrics: NightSummaryMetrics)]) -> NightMetricAverages {
        var rows: [Row] = []
        for m in metrics {
            let values = nights.compactMap { night in m.value(night.metrics).map { (night.date, $0) } }
            for scope in Scope.allCases {
                let s = summary(values, scope: scope)
                rows.append(Row(metric: m.name, label: m.label, unit: m.unit, scope: scope, n: s.n, mean: s.mean, sd: s.sd))
            }
        }
        return NightMetricAverages(rows: rows)
    }

    /// Count, mean and sample SD (n − 1; nil for fewer than two) of the finite `values` of the
    /// nights in `scope`.
    public static func summary(_ values: [(date: CivilDate, value: Double)], scope: Scope) -> (n: Int, mean: Double?, sd: Double?) {
        let v = values.filter { night in
            switch scope {
            case .all: return true
            case .weekday: return !isWeekendNight(night.date)
            case .weekend: return isWeekendNight(night.date)
            }
        }.map(\.value).filter(\.isFinite)
        let n = v.count
        let mean = n > 0 ? v.reduce(0, +) / Double(n) : nil
        var sd: Double? = nil
        if let mean, n > 1 { sd = (v.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)).squareRoot() }
        return (n, mean, sd)
    }
}
