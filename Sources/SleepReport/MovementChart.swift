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

    /// A shaded stretch of the night: the device not worn, or no data.
    public struct Band: Sendable {
        public enum Kind: Sendable { case nonWear, noData }
        public var startLocal: Int64
        public var endLocal: Int64
        public var kind: Kind
        public init(startLocal: Int64, endLocal: Int64, kind: Kind) { self.startLocal = startLocal; self.endLocal = endLocal; self.kind = kind }
    }
    /// A second line on its own axis at the right (angle-z in degrees for wearables).
    public struct SecondaryLine: Sendable {
        public var label: String
        public var range: ClosedRange<Double>
        /// (local second, value); nil breaks the line.
        public var points: [(local: Int64, value: Double?)]
        public init(label: String, range: ClosedRange<Double>, points: [(local: Int64, value: Double?)]) {
            self.label = label; self.range = range; self.points = points
        }
    }
    public var bands: [Band] = []
    public var secondary: SecondaryLine? = nil
    /// Sleep/wake per stretch of local time, drawn as a strip along the top of the plot.
    public var sleepWake: [(start: Int64, end: Int64, state: SleepWake)] = []

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

extension MovementChart {
    /// The chart of a wearable night: ENMO in mg per interval (the line), angle-z in degrees per
    /// minute (the second axis), the sleep period, non-wear and no-data bands, and the sleep/wake
    /// strip inside the sleep period.
    public static func wearableNight(_ analysis: NightAnalysis, epochs: WearableEpochs?, timeline: UTCOffsetTimeline,
                                     title: String) -> MovementChart {
        let points = analysis.intervals.map { iv in
            Point(startLocal: timeline.localSecond(atUTC: iv.movement.startUTC), endLocal: timeline.localSecond(atUTC: iv.movement.endUTC),
                  value: iv.movement.movementPerMinute.map { $0 / 60 * 1000 }, phase: iv.phase)
        }
        let period = analysis.metrics.flatMap { m -> (Int64, Int64)? in
            guard let on = m.sleepOnsetUTC, let off = m.wakeTimeUTC else { return nil }
            return (timeline.localSecond(atUTC: on), timeline.localSecond(atUTC: off))
        }
        var chart = MovementChart(title: title, yAxisLabel: "ENMO (mg)",
                                  series: [Series(label: "ENMO per \(analysis.parameters.interval)", points: points)], sleepPeriod: period)
        guard let first = analysis.intervals.first, let last = analysis.intervals.last, let e = epochs else { return chart }
        let shown = e.slice(from: first.movement.startUTC, to: last.movement.endUTC)
        // Bands: runs of non-wear or no-data epochs.
        var k = 0
        while k < shown.count {
            let kind: Band.Kind? = !shown.hasData(k) ? .noData : (shown.nonWear[k] ? .nonWear : nil)
            var j = k + 1
            while j < shown.count && (!shown.hasData(j) ? Band.Kind.noData : (shown.nonWear[j] ? .nonWear : nil)) == kind { j += 1 }
            if let kind {
                chart.bands.append(Band(startLocal: timeline.localSecond(atUTC: shown.epochStartUTC(k)),
                                        endLocal: timeline.localSecond(atUTC: shown.epochStartUTC(j)), kind: kind))
            }
            k = j
        }
        // angle-z: mean per minute of the epochs with data.
        let perMinute = 60 / WearableEpochs.epochSeconds
        var angle: [(local: Int64, value: Double?)] = []
        var m = 0
        while m < shown.count {
            var sum = 0.0, n = 0
            for i in m..<min(shown.count, m + perMinute) where shown.hasData(i) && shown.angleZ[i].isFinite { sum += Double(shown.angleZ[i]); n += 1 }
            angle.append((timeline.localSecond(atUTC: shown.epochStartUTC(m) + 30), n > 0 ? sum / Double(n) : nil))
            m += perMinute
        }
        chart.secondary = SecondaryLine(label: "angle-z (°)", range: -90...90, points: angle)
        // Sleep/wake inside the sleep period, from the scored 5-s epochs.
        if let p = analysis.metrics, let on = p.sleepOnsetUTC, let off = p.wakeTimeUTC {
            var run: (start: Int64, end: Int64, state: SleepWake)? = nil
            for epoch in analysis.epochs where epoch.startUTC >= on && epoch.startUTC < off {
                guard let s = epoch.state else { if let r = run { chart.sleepWake.append(r) }; run = nil; continue }
                let start = timeline.localSecond(atUTC: epoch.startUTC), end = start + Int64(WearableEpochs.epochSeconds)
                if let r = run, r.state == s, r.end == start { run = (r.start, end, s) }
                else { if let r = run { chart.sleepWake.append(r) }; run = (start, end, s) }
            }
            if let r = run { chart.sleepWake.append(r) }
        }
        return chart
    }
}
