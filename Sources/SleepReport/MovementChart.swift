import SleepCore

/// What the night chart shows, in local clock seconds (the chart knows no time zones).
public struct MovementChart: Sendable {
    public struct Point: Sendable {
        public var startLocal: Int64
        public var endLocal: Int64
        /// Movement per minute, nil for an interval without data (the line breaks there).
        public var value: Double?
        public var phase: MovementPhase?
        public init(startLocal: Int64, endLocal: Int64, value: Double?, phase: MovementPhase?) {
            self.startLocal = startLocal; self.endLocal = endLocal; self.value = value; self.phase = phase
        }
    }

    /// One line of the chart (several for comparisons of interval lengths).
    public struct Series: Sendable {
        public var label: String
        public var points: [Point]
        public init(label: String, points: [Point]) { self.label = label; self.points = points }
    }

    public var title: String
    public var yAxisLabel: String
    public var series: [Series]
    /// Local seconds of the sleep period, shaded.
    public var sleepPeriod: (start: Int64, end: Int64)?
    /// Phase strip from the first series' points.
    public var showPhases: Bool

    public init(title: String, yAxisLabel: String, series: [Series], sleepPeriod: (start: Int64, end: Int64)?, showPhases: Bool = true) {
        self.title = title; self.yAxisLabel = yAxisLabel; self.series = series; self.sleepPeriod = sleepPeriod; self.showPhases = showPhases
    }

    /// Builds the chart of one analysed night.
    public static func night(_ analysis: NightAnalysis, timeline: UTCOffsetTimeline, title: String) -> MovementChart {
        let points = analysis.intervals.map { iv in
            Point(startLocal: timeline.localSecond(atUTC: iv.movement.startUTC), endLocal: timeline.localSecond(atUTC: iv.movement.endUTC),
                  value: iv.movement.movementPerMinute, phase: iv.phase)
        }
        let period = analysis.metrics.flatMap { m -> (Int64, Int64)? in
            guard let on = m.sleepOnsetUTC, let off = m.wakeTimeUTC else { return nil }
            return (timeline.localSecond(atUTC: on), timeline.localSecond(atUTC: off))
        }
        return MovementChart(title: title, yAxisLabel: "movement per minute (g·s/min)",
                             series: [Series(label: "\(analysis.parameters.interval) intervals", points: points)], sleepPeriod: period)
    }
}
