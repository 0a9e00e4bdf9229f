import SleepCore

/// What the night chart shows. Its x values are local clock seconds when ``clock`` is nil; when
/// ``clock`` is set (every night chart the pipeline draws), they are UTC seconds — elapsed time, so
/// a DST night is drawn 23 h or 25 h wide without a missing or repeated hour — and the axis is
/// labelled with that timeline's local clock (the skipped spring hour absent, the repeated autumn
/// hour twice, in order).
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
    /// Time in bed (in bed to out of bed), marked by a bracket above the plot and dashed edges,
    /// so that a long sleep onset latency shows beside the shaded sleep period.
    public var inBed: (start: Int64, end: Int64)? = nil
    /// Phase strip from the first series' points.
    public var showPhases: Bool
    /// Every sleep period of the night's day, marked above the plot (``PeriodMark``); empty for
    /// an analysis without periods, whose chart is then drawn as before periods existed.
    public var periods: [PeriodMark] = []
    /// Stretches of the window in sleep carried from the day before (``DayMinuteClass/carriedSleep``:
    /// a period of an earlier day running on past noon), UTC seconds; bracketed like a period.
    public var carried: [(start: Int64, end: Int64)] = []

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
    /// One sleep/wake strip per series (a comparison of interval lengths: what is being compared),
    /// drawn in the series' colours' order below the top of the plot, labelled with the series.
    public var seriesSleepWake: [[(start: Int64, end: Int64, state: SleepWake)]] = []
    /// The local clock of an elapsed-time axis: when set, every x value above is a UTC second and
    /// the axis labels are this timeline's local clock times.
    public var clock: UTCOffsetTimeline? = nil

    public init(title: String, yAxisLabel: String, series: [Series], sleepPeriod: (start: Int64, end: Int64)?, showPhases: Bool = true) {
        self.title = title; self.yAxisLabel = yAxisLabel; self.series = series; self.sleepPeriod = sleepPeriod; self.showPhases = showPhases
    }

    /// Builds the chart of one analysed night.
    /// Builds the chart of one analysed night, on elapsed time labelled with `timeline`'s clock:
    /// each interval's movement per minute shown through `value` (by default the mean acceleration
    /// in mg, ``MovementUnits``), under `yAxisLabel`.
    public static func night(_ analysis: NightAnalysis, timeline: UTCOffsetTimeline, title: String,
                             yAxisLabel: String = MovementUnits.meanAccelerationLabel,
                             value: (Double?) -> Double? = MovementUnits.milliG(perMinute:)) -> MovementChart {
        let points = analysis.intervals.map { iv in
            Point(startLocal: iv.movement.startUTC, endLocal: iv.movement.endUTC,
                  value: value(iv.movement.movementPerMinute), phase: iv.phase)
        }
        let period = analysis.metrics.flatMap { m -> (Int64, Int64)? in
            guard let on = m.sleepOnsetUTC, let off = m.wakeTimeUTC else { return nil }
            return (on, off)
        }
        var chart = MovementChart(title: title, yAxisLabel: yAxisLabel,
                                  series: [Series(label: "\(analysis.parameters.interval) intervals", points: points)], sleepPeriod: period)
        chart.clock = timeline
        chart.inBed = analysis.metrics.map { ($0.inBedStartUTC, $0.inBedEndUTC) }
        chart.periods = PeriodMark.marks(analysis.periods, timeline)
        chart.carried = carriedRuns(analysis.day)
        return chart
    }
}

extension MovementChart {
    /// The chart of a wearable night: ENMO in mg per interval (the line), angle-z in degrees per
    /// minute (the second axis), the sleep period, non-wear and no-data bands, and the sleep/wake
    /// strip inside the sleep period.
    public static func wearableNight(_ analysis: NightAnalysis, epochs: WearableEpochs?, timeline: UTCOffsetTimeline,
                                     title: String) -> MovementChart {
        let points = analysis.intervals.map { iv in
            Point(startLocal: iv.movement.startUTC, endLocal: iv.movement.endUTC,
                  value: iv.movement.movementPerMinute.map { $0 / 60 * 1000 }, phase: iv.phase)
        }
        let period = analysis.metrics.flatMap { m -> (Int64, Int64)? in
            guard let on = m.sleepOnsetUTC, let off = m.wakeTimeUTC else { return nil }
            return (on, off)
        }
        var chart = MovementChart(title: title, yAxisLabel: "ENMO (mg)",
                                  series: [Series(label: "ENMO per \(analysis.parameters.interval)", points: points)], sleepPeriod: period)
        chart.clock = timeline
        chart.inBed = analysis.metrics.map { ($0.inBedStartUTC, $0.inBedEndUTC) }
        chart.periods = PeriodMark.marks(analysis.periods, timeline)
        chart.carried = carriedRuns(analysis.day)
        guard let first = analysis.intervals.first, let last = analysis.intervals.last, let e = epochs else { return chart }
        // Shaded "not worn" as the method judged it, not as GGIR's stored flags say.
        let sliced = e.slice(from: first.movement.startUTC, to: last.movement.endUTC)
        let shown = analysis.wearable?.judgedNonWear(sliced) ?? sliced
        // Bands: runs of non-wear or no-data epochs.
        var k = 0
        while k < shown.count {
            let kind: Band.Kind? = !shown.hasData(k) ? .noData : (shown.nonWear[k] ? .nonWear : nil)
            var j = k + 1
            while j < shown.count && (!shown.hasData(j) ? Band.Kind.noData : (shown.nonWear[j] ? .nonWear : nil)) == kind { j += 1 }
            if let kind {
                chart.bands.append(Band(startLocal: shown.epochStartUTC(k), endLocal: shown.epochStartUTC(j), kind: kind))
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
            angle.append((shown.epochStartUTC(m) + 30, n > 0 ? sum / Double(n) : nil))
            m += perMinute
        }
        chart.secondary = SecondaryLine(label: "angle-z (°)", range: -90...90, points: angle)
        // Sleep/wake inside the sleep period, from the scored 5-s epochs.
        if let p = analysis.metrics, let on = p.sleepOnsetUTC, let off = p.wakeTimeUTC {
            var run: (start: Int64, end: Int64, state: SleepWake)? = nil
            for epoch in analysis.epochs where epoch.startUTC >= on && epoch.startUTC < off {
                guard let s = epoch.state else { if let r = run { chart.sleepWake.append(r) }; run = nil; continue }
                let start = epoch.startUTC, end = start + Int64(WearableEpochs.epochSeconds)
                if let r = run, r.state == s, r.end == start { run = (r.start, end, s) }
                else { if let r = run { chart.sleepWake.append(r) }; run = (start, end, s) }
            }
            if let r = run { chart.sleepWake.append(r) }
        }
        return chart
    }
}

extension MovementChart {
    /// The x axis of a chart whose data span `xStart..<xEnd`: whole local hours around the data
    /// and a tick every hour (two hours past 14 h), labelled with the local clock. With a `clock`,
    /// x is elapsed (UTC) time: the hour a spring transition skips gets no tick, the hour an
    /// autumn transition repeats gets two, in order. Without one, x is the local clock itself.
    public static func axis(xStart: Int64, xEnd: Int64, clock: UTCOffsetTimeline?)
        -> (start: Int64, end: Int64, ticks: [(x: Int64, label: String)]) {
        let tl = clock ?? .utc
        func localMod(_ x: Int64, _ m: Int64) -> Int64 { let l = tl.localSecond(atUTC: x); return l - LocalClock.floorDiv(l, m) * m }
        let t0 = xStart - localMod(xStart, 3600)
        let t1 = (xEnd - 1) - localMod(xEnd - 1, 3600) + 3600
        let step: Int64 = (t1 - t0) > 14 * 3600 ? 7200 : 3600
        var ticks: [(x: Int64, label: String)] = []
        // Offsets are whole quarter hours, so every local whole hour falls on a quarter-hour step.
        var x = t0
        while x <= t1 {
            if localMod(x, step) == 0 { ticks.append((x, LocalClock.hhmm(localSecond: tl.localSecond(atUTC: x)))) }
            x += 900
        }
        return (t0, t1, ticks)
    }

    /// The clock changes inside `start...end` of a chart with a `clock`: where, and by how much.
    public static func clockChanges(start: Int64, end: Int64, clock: UTCOffsetTimeline?) -> [(x: Int64, label: String)] {
        guard let clock else { return [] }
        var previous = clock.initialOffsetSeconds
        var changes: [(x: Int64, label: String)] = []
        for t in clock.transitions {
            defer { previous = t.offsetSeconds }
            guard t.utcSecond > start, t.utcSecond < end, t.offsetSeconds != previous else { continue }
            let delta = Int(t.offsetSeconds - previous)
            let amount = abs(delta) % 3600 == 0 ? "\(abs(delta) / 3600) h" : "\(abs(delta) / 60) min"
            let before = LocalClock.hhmm(localSecond: t.utcSecond + Int64(previous))
            changes.append((t.utcSecond, delta > 0 ? "clocks forward \(amount) at \(before)" : "clocks back \(amount) at \(before)"))
        }
        return changes
    }
}
