/// One participant's nights at a glance, as GGIR's part-4 person summary reports them: per night
/// metric the mean and SD over the scored nights (`_mn`, `_sd`) and the means over weekday and
/// weekend nights (`_wd`, `_we`; ``NightMetricAverages`` defines a weekend night), sleep onset and
/// wake time as clock hours, and the rest-activity rhythm of the participant's recordings.
///
/// Sleep onset and wake time are hours after 00:00 of the night's date on the recording's local
/// clock, GGIR's convention (`sleeponset` 23.5 = 23:30, 31.25 = 07:15 the next morning), so that
/// a night's times average without wrapping at midnight.
public struct ParticipantSummary: Sendable, Equatable {
    /// One statistic over the participant's scored nights.
    public struct Statistic: Sendable, Equatable {
        /// Export name (`total_sleep_time_min`, `sleep_onset_hours` …).
        public var name: String
        public var label: String
        public var unit: String
        /// Mean and sample SD over all scored nights (SD nil for fewer than two).
        public var mean: Double?
        public var sd: Double?
        /// Means over weekday and weekend nights (nil where there is none).
        public var weekday: Double?
        public var weekend: Double?
        public var n: Int
    }

    public var participant: Participant
    /// The recording paths that are the participant's.
    public var recordings: [String]
    /// Nights stored (any status) and nights scored.
    public var nights: Int
    public var nightsScored: Int
    /// Stored nights with too little data for an analysis (`insufficient-data`: too few hours, not
    /// worn, or a fragment of a day); the index counts the others.
    public var nightsInsufficient: Int = 0
    public var statistics: [Statistic]
    /// Means over the participant's recordings with a computed rhythm (nil for none).
    public var interdailyStability: Double?
    public var intradailyVariability: Double?
    public var sleepRegularityIndex: Double?

    /// A scored night's inputs.
    public struct Night: Sendable {
        public var date: CivilDate
        public var metrics: NightSummaryMetrics
        public var timeline: UTCOffsetTimeline
        public init(date: CivilDate, metrics: NightSummaryMetrics, timeline: UTCOffsetTimeline) {
            self.date = date; self.metrics = metrics; self.timeline = timeline
        }
    }

    /// Hours after 00:00 of `date` on the local clock of `utc`.
    public static func clockHours(_ utc: Int64, date: CivilDate, timeline: UTCOffsetTimeline) -> Double {
        Double(timeline.localSecond(atUTC: utc) - date.daysSinceEpoch * 86_400) / 3600
    }

    /// The statistics of `scored` (scored nights only) for a participant with `nights` stored nights.
    public static func compute(participant: Participant, recordings: [String], nights: Int, insufficient: Int = 0, scored: [Night],
                               rhythms: [(interdailyStability: Double?, intradailyVariability: Double?, sleepRegularityIndex: Double?)]) -> ParticipantSummary {
        let averages = NightMetricAverages.compute(scored.map { ($0.date, $0.metrics) })
        var statistics: [Statistic] = NightMetricAverages.metrics.map { m in
            func row(_ scope: NightMetricAverages.Scope) -> NightMetricAverages.Row? { averages.rows.first { $0.metric == m.name && $0.scope == scope } }
            let all = row(.all)
            return Statistic(name: m.name, label: m.label, unit: m.unit, mean: all?.mean, sd: all?.sd,
                             weekday: row(.weekday)?.mean, weekend: row(.weekend)?.mean, n: all?.n ?? 0)
        }
        func clock(_ name: String, _ label: String, _ time: (NightSummaryMetrics) -> Int64?) -> Statistic {
            let values = scored.compactMap { n in time(n.metrics).map { (n.date, clockHours($0, date: n.date, timeline: n.timeline)) } }
            let all = NightMetricAverages.summary(values, scope: .all)
            return Statistic(name: name, label: label, unit: "h after 00:00 of the night's date", mean: all.mean, sd: all.sd,
                             weekday: NightMetricAverages.summary(values, scope: .weekday).mean,
                             weekend: NightMetricAverages.summary(values, scope: .weekend).mean, n: all.n)
        }
        statistics.append(clock("sleep_onset_hours", "Sleep onset", \.sleepOnsetUTC))
        statistics.append(clock("wake_time_hours", "Wake time", \.wakeTimeUTC))
        func rhythmMean(_ f: ((interdailyStability: Double?, intradailyVariability: Double?, sleepRegularityIndex: Double?)) -> Double?) -> Double? {
            let v = rhythms.compactMap(f).filter(\.isFinite)
            return v.isEmpty ? nil : v.reduce(0, +) / Double(v.count)
        }
        return ParticipantSummary(participant: participant, recordings: recordings, nights: nights, nightsScored: scored.count,
                                  nightsInsufficient: insufficient, statistics: statistics, interdailyStability: rhythmMean(\.interdailyStability),
                                  intradailyVariability: rhythmMean(\.intradailyVariability),
                                  sleepRegularityIndex: rhythmMean(\.sleepRegularityIndex))
    }

    public func statistic(_ name: String) -> Statistic? { statistics.first { $0.name == name } }

    /// `HH:MM` of clock hours after 00:00 (31.25 → `07:15`).
    public static func clockText(_ hours: Double?) -> String {
        guard let hours, hours.isFinite else { return "–" }
        let minutes = Int((hours * 60).rounded())
        let m = ((minutes % 1440) + 1440) % 1440
        func p(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(p(m / 60)):\(p(m % 60))"
    }
}
