import CGD
import SleepCore

/// The colours of a day's sleep periods and minute classes, shared by the night chart, the
/// overview and the participant's day timeline, so that a nap is the same green everywhere.
extension ChartRenderer {
    /// Each period kind's colour (Okabe–Ito where it can be): the main sleep the overview's dark
    /// blue, a secondary sleep ochre, a nap bluish green. None is a phase's or the sleep/wake strip's.
    package static let kindColours: [SleepPeriodKind: (Int32, Int32, Int32)] = [
        .main: (0, 90, 160), .secondary: (190, 140, 0), .nap: (0, 158, 115),
    ]
    /// The pale shade of a period other than the main one in the night chart's plot (the main one
    /// keeps the light blue sleep-period shade): light enough for the movement line to read on it,
    /// apart from the grey of no data and the pink of not worn.
    package static let kindShades: [SleepPeriodKind: (Int32, Int32, Int32)] = [
        .main: (232, 242, 252), .secondary: (250, 240, 190), .nap: (208, 240, 226),
    ]
    /// Each minute class's colour on the day timeline: sleep by its kind, not worn in three reds
    /// (darker the surer the device was off), awake a pale cream and no data grey.
    package static func classColour(_ c: DayMinuteClass) -> (Int32, Int32, Int32) {
        switch c {
        case .noData: return (205, 205, 205)
        case .awake: return (246, 238, 214)
        case .notWornTemperature: return (244, 180, 180)
        case .notWornStill: return (228, 130, 130)
        case .notWornNoMovement: return (190, 70, 70)
        case .sleepMain: return kindColours[.main]!
        case .sleepSecondary: return kindColours[.secondary]!
        case .nap: return kindColours[.nap]!
        case .carriedSleep: return (120, 160, 200)
        }
    }
}

extension MovementChart {
    /// One sleep period of the night's day as the chart marks it: a bracket in its kind's colour
    /// above the plot from onset to wake, labelled "nap 14:02–14:58", and (other than the main
    /// period, which keeps the sleep-period shade) a pale band of its kind's shade in the plot.
    public struct PeriodMark: Sendable {
        public var kind: SleepPeriodKind
        /// UTC seconds (the night chart's x values), onset to wake.
        public var start: Int64
        public var end: Int64
        /// Kind and clock times ("nap 14:02–14:58"; "(diary)" when a diary gave its time in bed).
        public var label: String
        public init(kind: SleepPeriodKind, start: Int64, end: Int64, label: String) {
            self.kind = kind; self.start = start; self.end = end; self.label = label
        }

        /// The marks of an analysis's periods, in its order (main first); none where the method
        /// gave no periods, so that such a chart is drawn as it was before periods existed.
        static func marks(_ periods: [SleepPeriod]?, _ tl: UTCOffsetTimeline) -> [PeriodMark] {
            (periods ?? []).filter { $0.wakeTimeUTC > $0.sleepOnsetUTC }.map { p in
                PeriodMark(kind: p.kind, start: p.sleepOnsetUTC, end: p.wakeTimeUTC,
                           label: "\(p.kind.rawValue) \(NumberText.clock(p.sleepOnsetUTC, tl))–\(NumberText.clock(p.wakeTimeUTC, tl))"
                               + (p.source == .diary ? " (diary)" : ""))
            }
        }
    }

    /// The runs of carried sleep in a day's minutes, as UTC spans; none without minute classes.
    static func carriedRuns(_ day: DayMinutes?) -> [(start: Int64, end: Int64)] {
        guard let day else { return [] }
        var runs: [(start: Int64, end: Int64)] = []
        for (m, c) in day.classes.enumerated() where c == .carriedSleep {
            let t = day.startUTC + Int64(m) * 60
            if let last = runs.last, last.end == t { runs[runs.count - 1].end = t + 60 } else { runs.append((t, t + 60)) }
        }
        return runs
    }

    /// The span the chart's x axis must cover beyond its data: the periods, and with them the main
    /// sleep period and time in bed, which may run past the window's end (a day sleep from 08:30
    /// to 15:30 ends after the noon that closes the night). Nil without periods: the axis then
    /// spans the data alone, as it always did.
    package var periodSpan: (start: Int64, end: Int64)? {
        guard let first = periods.first else { return nil }
        var lo = first.start, hi = first.end
        for p in periods { lo = min(lo, p.start); hi = max(hi, p.end) }
        if let sp = sleepPeriod { lo = min(lo, sp.start); hi = max(hi, sp.end) }
        if let bed = inBed { lo = min(lo, bed.start); hi = max(hi, bed.end) }
        return (lo, hi)
    }
}

extension ChartRenderer.NightLayers {
    /// The pale band of each period other than the main one, drawn with the main sleep-period
    /// shade (before the no-data and not-worn bands, which cover it: those minutes are not sleep).
    func drawPeriodBands() {
        for p in chart.periods where p.kind != .main {
            let a = px(max(p.start, t0)), b = px(min(p.end, t1))
            guard b > a, let shade = ChartRenderer.kindShades[p.kind] else { continue }
            FastGD.fill(im, a, top, b, top + plotH, colour(shade))
        }
    }

    /// Each period's bracket above the plot (above the time-in-bed bracket and the sleep/wake
    /// strip), in its kind's colour, with its label; a label that would run past the plot's right
    /// edge ends at it instead, so a late nap stays readable.
    func drawPeriodMarks() {
        guard !chart.periods.isEmpty || !chart.carried.isEmpty else { return }
        let above: Int32 = (chart.inBed != nil ? 10 : 0) + (chart.sleepWake.isEmpty ? 0 : 12)
        let y = top - (above + 8) * s
        gdImageSetThickness(im, 2 * s)
        for p in chart.periods {
            let a = px(max(p.start, t0)), b = px(min(p.end, t1))
            guard b > a, let c = ChartRenderer.kindColours[p.kind] else { continue }
            gdImageLine(im, a, y, b, y, colour(c))
            gdImageLine(im, a, y, a, y + 4 * s, colour(c)); gdImageLine(im, b, y, b, y + 4 * s, colour(c))
            let width = renderer.textWidth(p.label, size: 8.5 * Double(s))
            let x = min(a, left + plotW - width)
            text(p.label, x: x, y: y - 3 * s, size: 8.5, colour: colour(c))
        }
        // Sleep of the day before running on past noon: bracketed in its own colour, never a period of this day.
        let carriedColour = colour(ChartRenderer.classColour(.carriedSleep))
        for run in chart.carried {
            let a = px(max(run.start, t0)), b = px(min(run.end, t1))
            guard b > a else { continue }
            gdImageLine(im, a, y, b, y, carriedColour)
            gdImageLine(im, a, y, a, y + 4 * s, carriedColour); gdImageLine(im, b, y, b, y + 4 * s, carriedColour)
            text("carried from the day before", x: a, y: y - 3 * s, size: 8.5, colour: carriedColour)
        }
        gdImageSetThickness(im, 1 * s)
    }
}

extension HTMLPages {
    /// What tells a sleep outside the main period from lying awake and still, for the methods
    /// that find such sleeps on the wrist's angle (the wearable method): the page says it beside
    /// the periods' table, since a nap on the chart invites the question.
    static let periodEvidence = "A sleep outside the main period needs sustained inactivity (no change of wrist angle above 5° for 5 min, van Hees 2015) for most of its length and the low change of angle of the rest window (HDCZA, van Hees 2018); awake and still (reading, a film, a desk) keeps moving the wrist by a few degrees every minute or two, so it is not sleep. A nap held at one angle with no turn is told from a device put down only by the skin temperature, where the device records it; without it, such a nap is counted as not worn."
    /// What the GGIR-parity method's page says of the day's other sleeps: it finds none.
    static let ggirOneWindow = "GGIR finds one sleep period window a night (its HASPT.R: it \u{201C}cannot handle multiple sleep periods\u{201D}), and --method ggir keeps it: naps and the other half of a split night are not looked for. The default method (--method sleepsta) finds every sleep of the day."
    /// Where an epoch file's other periods come from.
    static let epochFilePeriods = "An epoch file's periods are the rest intervals it marks (Actiware's REST intervals), ActiLife's Tudor-Locke periods for ActiGraph counts, and the sleep diary's rows; scored sleep outside them is not made a period, since counts carry no posture to tell a nap from a still spell awake."

    /// The night page's table of the day's sleep periods (main first, as the analysis lists
    /// them): empty where the analysis has none, and the page then shows no table.
    static func dayPeriodRows(_ a: NightAnalysis, _ tl: UTCOffsetTimeline) -> [[String: String]] {
        (a.periods ?? []).map { p in
            [
                "kind": p.kind.rawValue, "source": p.source.rawValue,
                "inBed": "\(NumberText.clock(p.inBedStartUTC, tl))–\(NumberText.clock(p.inBedEndUTC, tl))",
                "onset": NumberText.clock(p.sleepOnsetUTC, tl), "wake": NumberText.clock(p.wakeTimeUTC, tl),
                "spt": NumberText.minutes(p.sleepPeriodMinutes), "tst": NumberText.minutes(p.totalSleepTimeMinutes),
                "waso": NumberText.minutes(p.wasoMinutes), "awakenings": String(p.awakenings),
                "se": NumberText.fixed(p.sleepEfficiencyPercent, 1) + " %",
            ]
        }
    }

    /// The sentence beside the periods' table: how the method finds a day's other sleeps, or
    /// that it does not look for them.
    static func periodNote(_ a: NightAnalysis) -> String? {
        switch a.kind {
        case .wearable24h: return a.parameters.nightMethod == .ggir ? ggirOneWindow : periodEvidence
        case .epochFile: return epochFilePeriods
        default: return nil
        }
    }

    /// The night page's context for the day's periods: the rows, whether to show them, and the
    /// evidence sentence where the method is the wearable one (its sleeps are judged on the angle).
    static func dayPeriodsContext(_ a: NightAnalysis, _ tl: UTCOffsetTimeline) -> [String: Any] {
        let rows = dayPeriodRows(a, tl)
        return [
            "dayPeriods": rows, "hasDayPeriods": !rows.isEmpty,
            "periodEvidence": [periodNote(a)].compactMap { $0 },
            "periodCount": Plural.count(rows.count, "sleep period"),
        ]
    }
}
