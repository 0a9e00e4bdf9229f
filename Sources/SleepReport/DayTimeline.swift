import Foundation
import CGD
import SleepCore

/// A participant's days at a glance: one row per noon-to-noon day, each minute coloured by its
/// class (``DayMinuteClass``: sleep by its period's kind, awake, not worn, no data), each period
/// labelled by kind at its onset, and the day's naps written at the right. The night chart shows
/// one day closely; this shows the week's pattern of naps and split sleep, which no single night does.
public struct DayTimeline: Sendable {
    /// A period's label in its row: its kind's colour, at its onset.
    public struct Mark: Sendable {
        public var kind: SleepPeriodKind
        /// Minutes after the row's start (local noon).
        public var minute: Int
        /// "nap 14:02".
        public var text: String
        public init(kind: SleepPeriodKind, minute: Int, text: String) { self.kind = kind; self.minute = minute; self.text = text }
    }
    public struct Row: Sendable {
        /// The day's date (its noon starts the row).
        public var label: String
        public var classes: [DayMinuteClass]
        public var marks: [Mark]
        /// At the right: "1 nap, 56 min" or why the day is left out of the summaries.
        public var note: String
        public init(label: String, classes: [DayMinuteClass], marks: [Mark], note: String) {
            self.label = label; self.classes = classes; self.marks = marks; self.note = note
        }
    }
    public var title: String
    public var rows: [Row]
    public init(title: String, rows: [Row]) { self.title = title; self.rows = rows }

    /// The minutes the axis spans: a whole day, or the longest row (a 25-hour day when the clocks
    /// go back), so no row is cut.
    public var spanMinutes: Int { max(1440, rows.map(\.classes.count).max() ?? 0) }

    /// Where things sit, in points of the finished PNG (the canvas is twice that): the tests read
    /// the colours at these places.
    package enum Layout {
        static let left: Int32 = 96, right: Int32 = 150, top: Int32 = 58, rowHeight: Int32 = 34
        /// Within a row: the labels' band above the bar, the bar, the gap below it.
        package static let labelBand: Int32 = 12, barHeight: Int32 = 16
        static let bottom: Int32 = 72
        package static func barTop(row k: Int) -> Int32 { top + Int32(k) * rowHeight + labelBand }
        /// The x of minute `m` of a timeline `width` points wide spanning `span` minutes.
        package static func x(minute m: Int, span: Int, width: Int32) -> Double {
            Double(left) + Double(m) / Double(span) * Double(width - left - right)
        }
    }
}

extension ChartRenderer {
    /// The day timeline as PNG: the grid with noon-to-noon clock labels, a bar per day, the
    /// periods' labels and the day's note, and the legend of every minute class below.
    public func png(_ t: DayTimeline) -> [UInt8] {
        let s: Int32 = 2, L = DayTimeline.Layout.self
        let n = Int32(max(1, t.rows.count)), span = t.spanMinutes
        let W = Int32(width) * s, H = (L.top + L.rowHeight * n + L.bottom) * s
        return supersampled(width: W, height: H) { im in
            let ink = Self.rgb(40, 40, 40), grid = Self.rgb(215, 215, 215)
            func px(_ m: Int) -> Int32 { FastGD.pixel((L.x(minute: m, span: span, width: Int32(width)) * Double(s)).rounded()) }
            func c(_ rgb: (Int32, Int32, Int32)) -> Int32 { Self.rgb(rgb.0, rgb.1, rgb.2) }
            text(im, t.title, x: L.left * s, y: 22 * s, size: 12 * Double(s), colour: ink)
            text(im, "One row per day, local noon to noon; each minute coloured by its class; periods labelled by kind at their onset.",
                 x: L.left * s, y: 40 * s, size: 8.5 * Double(s), colour: ink)
            let bottomY = (L.top + L.rowHeight * n) * s
            gdImageSetThickness(im, 1 * s)
            for h in stride(from: 0, through: span / 60, by: 2) {
                let x = px(h * 60)
                gdImageLine(im, x, L.top * s, x, bottomY, grid)
                let clock = (12 + h) % 24
                text(im, (clock < 10 ? "0" : "") + "\(clock):00", x: x - 15 * s, y: bottomY + 16 * s, size: 8.5 * Double(s), colour: ink)
            }
            for (k, row) in t.rows.enumerated() {
                let y0 = L.barTop(row: k) * s, y1 = y0 + L.barHeight * s
                var m = 0
                while m < row.classes.count {
                    var e = m + 1
                    while e < row.classes.count && row.classes[e] == row.classes[m] { e += 1 }
                    FastGD.fill(im, px(m), y0, px(e) - 1, y1, c(Self.classColour(row.classes[m])))
                    m = e
                }
                gdImageRectangle(im, px(0), y0, px(row.classes.count), y1, grid)
                text(im, row.label, x: 8 * s, y: y1 - 3 * s, size: 9 * Double(s), colour: ink)
                for mark in row.marks {
                    text(im, mark.text, x: px(mark.minute), y: y0 - 3 * s, size: 8 * Double(s), colour: c(Self.kindColours[mark.kind]!))
                }
                let lines = wrapped(row.note, width: (L.right - 14) * s, size: 8.5 * Double(s))
                for (i, line) in lines.enumerated() {
                    text(im, line, x: W - (L.right - 10) * s, y: y1 - 3 * s - Int32(lines.count - 1 - i) * 11 * s, size: 8.5 * Double(s), colour: ink)
                }
            }
            drawDayLegend(im, y: bottomY + 34 * s, width: W, scale: s)
        }
    }

    /// `note` in lines no wider than `width` (canvas pixels), broken after spaces, colons and
    /// hyphens, so that a day's note ("left out: too-few-valid-hours") stays inside the margin.
    func wrapped(_ note: String, width: Int32, size: Double) -> [String] {
        var words: [String] = [], word = ""
        for ch in note {
            word.append(ch)
            if ch == " " || ch == ":" || ch == "-" { words.append(word); word = "" }
        }
        if !word.isEmpty { words.append(word) }
        var lines: [String] = [], line = ""
        for w in words {
            if !line.isEmpty && textWidth((line + w).trimmingCharacters(in: .whitespaces), size: size) > width {
                lines.append(line.trimmingCharacters(in: .whitespaces)); line = ""
            }
            line += w
        }
        if !line.isEmpty { lines.append(line.trimmingCharacters(in: .whitespaces)) }
        return lines
    }

    /// The legend of the minute classes, by their codes, wrapped over as many lines as the width
    /// needs, and how carried sleep is drawn.
    private func drawDayLegend(_ im: gdImagePtr, y: Int32, width W: Int32, scale s: Int32) {
        let ink = Self.rgb(40, 40, 40), size = 8.5 * Double(s)
        var x = DayTimeline.Layout.left * s, line = y
        for cls in DayMinuteClass.allCases where cls != .carriedSleep {
            let advance = 16 * s + textWidth(cls.code, size: size) + 14 * s
            if x + advance > W - 10 * s { x = DayTimeline.Layout.left * s; line += 18 * s }
            let rgb = Self.classColour(cls)
            FastGD.fill(im, x, line - 10 * s, x + 12 * s, line + 2 * s, Self.rgb(rgb.0, rgb.1, rgb.2))
            gdImageRectangle(im, x, line - 10 * s, x + 12 * s, line + 2 * s, Self.rgb(215, 215, 215))
            text(im, cls.code, x: x + 16 * s, y: line, size: size, colour: ink)
            x += advance
        }
        text(im, "Sleep that runs on past noon from the day before (sleep-carried) is drawn in its period's kind.",
             x: DayTimeline.Layout.left * s, y: line + 22 * s, size: size, colour: ink)
    }
}

/// One day of a participant, as the participant page shows it.
public struct ParticipantDay: Sendable {
    public var date: CivilDate
    public var nightID: String
    public var timeline: UTCOffsetTimeline
    /// Carried sleep resolved from the previous day's periods.
    public var account: DayAccount
    public init(date: CivilDate, nightID: String, timeline: UTCOffsetTimeline, account: DayAccount) {
        self.date = date; self.nightID = nightID; self.timeline = timeline; self.account = account
    }
}

/// The days of a participant's nights and their naps: from each analysis's minute classes and
/// periods (``NightAnalysis/day``, ``NightAnalysis/periods``), nights without them left out.
public enum ParticipantDays {
    /// The days of `nights` in date order, each with its carried sleep named by the previous
    /// day's periods (``DayAccount``); a day is included when its night is scored.
    public static func make(_ nights: [IndexRow]) -> [ParticipantDay] {
        let sorted = nights.sorted { ($0.date, $0.nightID) < ($1.date, $1.nightID) }
        var days: [ParticipantDay] = []
        for (k, r) in sorted.enumerated() {
            guard let a = r.analysis, let minutes = a.day else { continue }
            let previous = k > 0 && sorted[k - 1].date.daysSinceEpoch == r.date.daysSinceEpoch - 1 ? sorted[k - 1].analysis?.periods : nil
            let account = DayAccount(minutes: minutes, periods: a.periods ?? [], earlier: previous ?? [], status: a.status.rawValue, notes: a.notes)
            days.append(ParticipantDay(date: r.date, nightID: r.nightID, timeline: r.timeline, account: account))
        }
        return days
    }

    /// The mean number of naps per included day; nil without one.
    public static func napsPerDay(_ days: [ParticipantDay]) -> Double? {
        let included = days.filter(\.account.included)
        guard !included.isEmpty else { return nil }
        return Double(included.reduce(0) { $0 + $1.account.napCount }) / Double(included.count)
    }

    /// The mean minutes in naps (onset to wake, on the day's clock) per included day; nil without one.
    public static func napMinutesPerDay(_ days: [ParticipantDay]) -> Double? {
        let included = days.filter(\.account.included)
        guard !included.isEmpty else { return nil }
        return Double(included.reduce(0) { $0 + $1.account.minutes.minutes(.nap) }) / Double(included.count)
    }

    /// The day timeline of `days`, titled `title`.
    public static func timeline(_ days: [ParticipantDay], title: String) -> DayTimeline {
        DayTimeline(title: title, rows: days.map { d in
            let a = d.account
            let marks = a.periods.map { p in
                DayTimeline.Mark(kind: p.kind, minute: Int(LocalClock.floorDiv(p.sleepOnsetUTC - a.minutes.startUTC, 60)),
                                 text: "\(p.kind.rawValue) \(NumberText.clock(p.sleepOnsetUTC, d.timeline))")
            }
            let note = a.included ? "\(Plural.count(a.napCount, "nap")), \(NumberText.minutes(Double(a.minutes.minutes(.nap))))"
                : "left out: \(a.excludedReason ?? "–")"
            return DayTimeline.Row(label: d.date.description, classes: a.minutes.classes, marks: marks, note: note)
        })
    }
}
