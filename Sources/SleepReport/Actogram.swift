import CGD
import SleepCore

/// A double-plotted actogram of one recording: one row per local calendar day, each row 48 hours
/// (the day and the next, so a night is never cut at midnight), activity as bars, sleep periods
/// shaded, bins without data and bins taken as not worn marked.
///
/// Time is the recording's local clock: each epoch is placed at its local time, so on a spring DST
/// day the skipped hour stays empty and in autumn the repeated hour's two epochs share their
/// place (the bar shows the larger).
public struct Actogram: Sendable {
    public struct Period: Sendable, Equatable {
        public var startLocal: Int64
        public var endLocal: Int64
        public init(startLocal: Int64, endLocal: Int64) { self.startLocal = startLocal; self.endLocal = endLocal }
    }

    public var title: String
    /// Activity unit for the legend (`counts per epoch`, `mg` …).
    public var unit: String
    /// Bin length of the bars (seconds, divides a day).
    public var binSeconds: Int
    /// Local second of bin 0's start (a local midnight), and one value per bin (nil = no data).
    public var firstLocalMidnight: Int64
    public var activity: [Double?]
    /// Bins taken as not worn.
    public var nonWear: [Bool]
    public var sleepPeriods: [Period]

    public var dayCount: Int { max(1, (activity.count * binSeconds + 86_399) / 86_400) }

    /// Bins of `binSeconds` on the local clock from per-epoch activity in UTC.
    /// - Parameters:
    ///   - activity: one value per epoch from `startUTC` (NaN = no data).
    ///   - nonWear: per epoch, the epochs taken as not worn (or nil).
    public static func make(title: String, unit: String, activity: [Float], startUTC: Int64, epochSeconds: Int,
                            timeline: UTCOffsetTimeline, nonWear: [Bool]?, sleepPeriodsUTC: [(Int64, Int64)],
                            binSeconds: Int = 600) -> Actogram {
        let n = activity.count
        let firstLocal = n > 0 ? timeline.localSecond(atUTC: startUTC) : 0
        let lastLocal = n > 0 ? timeline.localSecond(atUTC: startUTC + Int64(n - 1) * Int64(epochSeconds)) : 0
        let midnight = LocalClock.floorDiv(firstLocal, 86_400) * 86_400
        let days = Int(LocalClock.floorDiv(lastLocal, 86_400) * 86_400 - midnight) / 86_400 + 1
        let bins = days * 86_400 / binSeconds
        var sums = [Double](repeating: 0, count: bins), counts = [Int](repeating: 0, count: bins)
        var off = [Int](repeating: 0, count: bins), seen = [Int](repeating: 0, count: bins)
        for i in 0..<n {
            let local = timeline.localSecond(atUTC: startUTC + Int64(i) * Int64(epochSeconds))
            let b = Int((local - midnight) / Int64(binSeconds))
            guard b >= 0 && b < bins else { continue }
            seen[b] += 1
            if nonWear?[i] == true { off[b] += 1; continue }
            let v = activity[i]
            if !v.isNaN { sums[b] += Double(v); counts[b] += 1 }
        }
        let values: [Double?] = (0..<bins).map { counts[$0] > 0 ? sums[$0] / Double(counts[$0]) : nil }
        let nonWearBins = (0..<bins).map { seen[$0] > 0 && off[$0] * 2 >= seen[$0] }
        let periods = sleepPeriodsUTC.map { Period(startLocal: timeline.localSecond(atUTC: $0.0), endLocal: timeline.localSecond(atUTC: $0.1)) }
        return Actogram(title: title, unit: unit, binSeconds: binSeconds, firstLocalMidnight: midnight, activity: values,
                        nonWear: nonWearBins, sleepPeriods: periods)
    }
}

extension ChartRenderer {
    /// The actogram as PNG: `width` wide, 26 px per day.
    public func png(_ a: Actogram) -> [UInt8] {
        let s: Int32 = 2
        let rowH: Int32 = 26 * s, top: Int32 = 64 * s, left: Int32 = 92 * s, right: Int32 = 16 * s, bottom: Int32 = 46 * s
        let W = Int32(width) * s
        let days = Int32(a.dayCount)
        let H = top + rowH * days + bottom
        return supersampled(width: W, height: H) { im in
            let colour = Self.rgb
            let ink = colour(40, 40, 40), grid = colour(215, 215, 215)
            let bar = colour(0, 114, 178), sleepShade = colour(222, 236, 250), noData = colour(236, 236, 236), offWrist = colour(250, 215, 215)
            let plotW = W - left - right
            let rowSeconds: Int64 = 2 * 86_400
            func px(_ secondsIntoRow: Int64) -> Int32 { left + FastGD.pixel(Double(secondsIntoRow) / Double(rowSeconds) * Double(plotW)) }
            text(im, a.title, x: left, y: 24 * s, size: 13 * Double(s), colour: ink)
            text(im, "Double-plotted: each row is a day and the next (48 h, local clock). Bars: mean \(a.unit) per \(a.binSeconds / 60) min; blue band: sleep period; grey: no data; red: not worn.",
                 x: left, y: 44 * s, size: 8.5 * Double(s), colour: ink)

            // Robust bar scale: the 99th percentile of the bins with data.
            let present = a.activity.compactMap { $0 }.sorted()
            let scale = present.isEmpty ? 1 : max(present[min(present.count - 1, Int(Double(present.count - 1) * 0.99))], 1e-9)
            let perDay = 86_400 / a.binSeconds
            for d in 0..<Int(days) {
                let y0 = top + Int32(d) * rowH, y1 = y0 + rowH - 2 * s
                let rowStart = a.firstLocalMidnight + Int64(d) * 86_400
                // Shades: sleep periods, then no data / not worn, per bin.
                for p in a.sleepPeriods {
                    let from = max(p.startLocal, rowStart), to = min(p.endLocal, rowStart + rowSeconds)
                    if to > from { FastGD.fill(im, px(from - rowStart), y0, px(to - rowStart), y1, sleepShade) }
                }
                for k in 0..<(2 * perDay) {
                    let b = d * perDay + k
                    let x0 = px(Int64(k * a.binSeconds)), x1 = px(Int64((k + 1) * a.binSeconds))
                    guard b < a.activity.count else { FastGD.fill(im, x0, y0, x1, y1, noData); continue }
                    if a.nonWear[b] { FastGD.fill(im, x0, y0, x1, y1, offWrist); continue }
                    guard let v = a.activity[b] else { FastGD.fill(im, x0, y0, x1, y1, noData); continue }
                    let h = FastGD.pixel(min(1, v / scale) * Double(y1 - y0))
                    if h > 0 { FastGD.fill(im, x0, y1 - h, max(x0, x1 - 1), y1, bar) }
                }
                gdImageSetThickness(im, 1 * s)
                gdImageLine(im, left, y1, W - right, y1, grid)
                let date = CivilDate(daysSinceEpoch: LocalClock.floorDiv(rowStart, 86_400))
                text(im, date.description, x: 8 * s, y: y0 + rowH / 2 + 4 * s, size: 9 * Double(s), colour: ink)
            }
            // Hour grid every 3 h, with clock labels; a heavier line at each midnight.
            for h in stride(from: 0, through: 48, by: 3) {
                let x = px(Int64(h) * 3600)
                gdImageSetThickness(im, (h % 24 == 0 ? 2 : 1) * s)
                gdImageLine(im, x, top, x, top + rowH * days, h % 24 == 0 ? colour(150, 150, 150) : grid)
                let label = (h % 24 < 10 ? "0" : "") + "\(h % 24):00"
                text(im, label, x: x - 16 * s, y: top + rowH * days + 18 * s, size: 8.5 * Double(s), colour: ink)
            }
        }
    }
}

/// The index's overview of many nights at a glance: one row per night, its sleep period as a bar
/// on a clock axis from 18:00 to 14:00 (local), time in bed as a lighter bar behind it, the day's
/// other sleeps (naps, a secondary sleep) in their kinds' colours, and TST written at the right.
/// A sleep before 18:00 or after 14:00 (a day sleeper's, a nap) widens the axis
/// (``NightsOverview/span``), so it is never cut.
public struct NightsOverview: Sendable {
    public struct Row: Sendable {
        /// Shortened in the middle ("…") where it would run into the bars.
        public var label: String
        /// Seconds after the night's 12:00 (local): in bed, sleep onset, wake, out of bed.
        public var inBed: (Int, Int)?
        public var sleep: (Int, Int)?
        public var totalSleepMinutes: Double?
        /// The day's sleep periods other than the main one: kind, onset and wake in seconds after noon.
        public var others: [(kind: SleepPeriodKind, start: Int, end: Int)] = []
        public init(label: String, inBed: (Int, Int)?, sleep: (Int, Int)?, totalSleepMinutes: Double?,
                    others: [(kind: SleepPeriodKind, start: Int, end: Int)] = []) {
            self.label = label; self.inBed = inBed; self.sleep = sleep; self.totalSleepMinutes = totalSleepMinutes
            self.others = others
        }
    }
    public var title: String
    public var rows: [Row]
    public init(title: String, rows: [Row]) { self.title = title; self.rows = rows }

    /// The axis's span in seconds after noon: 18:00 to 14:00, widened in whole two hours to take
    /// in every bar (a day sleep to 15:30 ends the axis at 16:00, a nap at 13:00 starts it at noon),
    /// within noon the day before to noon the day after.
    public var span: (from: Int, to: Int) {
        var lo = 6 * 3600, hi = 26 * 3600
        for r in rows {
            for bar in [r.inBed, r.sleep].compactMap({ $0 }) + r.others.map({ ($0.start, $0.end) }) {
                lo = min(lo, bar.0); hi = max(hi, bar.1)
            }
        }
        let step = 7200
        lo = max(-12 * 3600, Int(LocalClock.floorDiv(Int64(lo), Int64(step))) * step)
        hi = min(48 * 3600, -Int(LocalClock.floorDiv(Int64(-hi), Int64(step))) * step)
        return (lo, hi)
    }
}

extension ChartRenderer {
    public func png(_ o: NightsOverview) -> [UInt8] {
        let s: Int32 = 2
        let rowH: Int32 = 18 * s, top: Int32 = 48 * s, left: Int32 = 260 * s, right: Int32 = 110 * s, bottom: Int32 = 34 * s
        let W = Int32(width) * s, H = top + rowH * Int32(max(1, o.rows.count)) + bottom
        return supersampled(width: W, height: H) { im in
            let colour = Self.rgb
            let ink = colour(40, 40, 40), grid = colour(220, 220, 220)
            let bed = colour(200, 222, 242), sleep = colour(0, 90, 160)
            let (from, to) = o.span   // 18:00 to 14:00 the next day, as seconds after noon, or wider
            let plotW = W - left - right
            func px(_ t: Int) -> Int32 { left + FastGD.pixel(Double(min(max(t, from), to) - from) / Double(to - from) * Double(plotW)) }
            text(im, o.title, x: left, y: 22 * s, size: 12 * Double(s), colour: ink)
            let others = o.rows.contains { !$0.others.isEmpty } ? "; green: nap; ochre: secondary sleep" : ""
            text(im, "Light bar: time in bed; dark bar: sleep period (onset to wake)\(others); right: total sleep time.", x: left, y: 38 * s, size: 8.5 * Double(s), colour: ink)
            for h in stride(from: 12 + from / 3600, through: 12 + to / 3600, by: 2) {
                let x = px((h - 12) * 3600)
                gdImageSetThickness(im, 1 * s)
                gdImageLine(im, x, top, x, top + rowH * Int32(o.rows.count), grid)
                let c = ((h % 24) + 24) % 24
                text(im, (c < 10 ? "0" : "") + "\(c):00", x: x - 15 * s, y: top + rowH * Int32(o.rows.count) + 18 * s, size: 8.5 * Double(s), colour: ink)
            }
            for (k, r) in o.rows.enumerated() {
                let y0 = top + Int32(k) * rowH + 3 * s, y1 = y0 + rowH - 6 * s
                text(im, fitted(r.label, size: 8.5 * Double(s), width: left - 20 * s), x: 8 * s, y: y1, size: 8.5 * Double(s), colour: ink)
                if let b = r.inBed { FastGD.fill(im, px(b.0), y0, px(b.1), y1, bed) }
                if let sl = r.sleep { FastGD.fill(im, px(sl.0), y0 + 3 * s, px(sl.1), y1 - 3 * s, sleep) }
                for p in r.others {
                    let rgb = Self.kindColours[p.kind] ?? (0, 90, 160)
                    FastGD.fill(im, px(p.start), y0 + 3 * s, px(p.end), y1 - 3 * s, colour(rgb.0, rgb.1, rgb.2))
                }
                if let t = r.totalSleepMinutes {
                    let total = Int(exactly: t.rounded()) ?? 0, h = total / 60, m = total % 60
                    text(im, "TST \(h) h \(m < 10 ? "0" : "")\(m)", x: W - right + 10 * s, y: y1, size: 8.5 * Double(s), colour: ink)
                }
            }
        }
    }
}
