import CGD
#if canImport(Glibc)
import Glibc
#endif
import SleepCore

/// Draws ``MovementChart``s as PNG with libgd.
///
/// libgd anti-aliases 1-pixel lines only, so the chart is drawn at 2x with thick lines and
/// halved (``FastGD``: a 2×2 average), which gives smooth 2-pixel lines. Text is TrueType (DejaVu Sans) through
/// FreeType; without the font file, libgd's built-in bitmap font is used instead.
public struct ChartRenderer: Sendable {
    public var width: Int
    public var height: Int
    public var fontPath: String?

    public static let fontCandidates = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
    ]

    public init(width: Int = 1200, height: Int = 420, fontPath: String? = ChartRenderer.defaultFont()) {
        self.width = width; self.height = height; self.fontPath = fontPath
    }

    public static func defaultFont() -> String? {
        fontCandidates.first { access($0, R_OK) == 0 }
    }

    /// Line colours for successive series (distinct for colour-blind readers: Okabe–Ito palette).
    static let seriesColours: [(Int32, Int32, Int32)] = [(0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167), (86, 180, 233)]
    static let phaseColours: [MovementPhase: (Int32, Int32, Int32)] = [.awake: (230, 159, 0), .light: (150, 200, 240), .deep: (0, 70, 140)]
    /// The sleep/wake strip's colours (Okabe–Ito bluish green and vermilion-free reddish purple):
    /// no phase, band or line uses them.
    static func sleepWakeColours(_ colour: (Int32, Int32, Int32) -> Int32) -> (sleep: Int32, wake: Int32) {
        (colour(0, 120, 90), colour(204, 121, 167))
    }
    /// The time-in-bed bracket: dark grey, apart from every fill.
    static func inBedColour(_ colour: (Int32, Int32, Int32) -> Int32) -> Int32 { colour(90, 90, 90) }

    public func png(_ chart: MovementChart) -> [UInt8] {
        let s: Int32 = 2 // supersampling factor
        let W = Int32(width) * s, H = Int32(height) * s
        let im = gdImageCreateTrueColor(W, H)!
        defer { gdImageDestroy(im) }
        func colour(_ r: Int32, _ g: Int32, _ b: Int32) -> Int32 { sleepsta_gd_rgba(r, g, b, 0) }
        let white = colour(255, 255, 255), black = colour(40, 40, 40), grid = colour(225, 225, 225)
        let gapShade = colour(240, 240, 240), sleepShade = colour(232, 242, 252)
        FastGD.fill(im, 0, 0, W - 1, H - 1, white)

        // Sleep/wake strips per series (comparisons) sit between the title and the plot.
        let stripRows = Int32(chart.seriesSleepWake.count)
        // Above the plot: the time-in-bed bracket and the sleep/wake strip, never on the frame.
        let above: Int32 = (chart.inBed != nil ? 10 : 0) + (chart.sleepWake.isEmpty ? 0 : 12)
        let left: Int32 = 90 * s, right: Int32 = (chart.secondary == nil ? 30 : 70) * s, top: Int32 = (50 + 13 * stripRows + above) * s
        let bottom: Int32 = (chart.showPhases ? 88 : 62) * s
        let plotW = W - left - right, plotH = H - top - bottom

        let allPoints = chart.series.flatMap(\.points)
        guard let xStart = allPoints.map(\.startLocal).min(), let xEnd = allPoints.map(\.endLocal).max(), xEnd > xStart else {
            text(im, "no data", x: left, y: top + plotH / 2, size: 12 * Double(s), colour: black)
            return encode(im)
        }
        // Whole local hours around the data (elapsed time when the chart has a clock).
        let axis = MovementChart.axis(xStart: xStart, xEnd: xEnd, clock: chart.clock)
        let t0 = axis.start, t1 = axis.end
        let maxValue = allPoints.compactMap(\.value).max() ?? 0
        let yTicks = Self.niceTicks(max: maxValue)
        let yMax = yTicks.last ?? 1
        func px(_ t: Int64) -> Int32 { left + Int32(Double(t - t0) / Double(t1 - t0) * Double(plotW)) }
        func py(_ v: Double) -> Int32 { top + plotH - Int32((v / yMax) * Double(plotH)) }

        // Bands: sleep period, then intervals without data.
        if let p = chart.sleepPeriod {
            FastGD.fill(im, px(max(p.start, t0)), top, px(min(p.end, t1)), top + plotH, sleepShade)
        }
        let nonWearShade = colour(250, 222, 222)
        if chart.bands.isEmpty, let first = chart.series.first {
            for pt in first.points where pt.value == nil {
                FastGD.fill(im, px(pt.startLocal), top, px(pt.endLocal), top + plotH, gapShade)
            }
        }
        for band in chart.bands {
            let a = px(max(band.startLocal, t0)), b = px(min(band.endLocal, t1))
            guard b > a else { continue }
            FastGD.fill(im, a, top, b, top + plotH, band.kind == .nonWear ? nonWearShade : gapShade)
        }
        // Grid and axes.
        gdImageSetThickness(im, 1 * s)
        for tick in axis.ticks {
            gdImageLine(im, px(tick.x), top, px(tick.x), top + plotH, grid)
            text(im, tick.label, x: px(tick.x) - 17 * s, y: top + plotH + 20 * s, size: 10 * Double(s), colour: black)
        }
        // A clock change (DST) is marked where it happened, on the elapsed-time axis.
        let changes = MovementChart.clockChanges(start: t0, end: t1, clock: chart.clock)
        for change in changes {
            let x = px(change.x)
            var y = top
            while y < top + plotH { gdImageLine(im, x, y, x, min(y + 6 * s, top + plotH), black); y += 12 * s }
            text(im, change.label, x: x + 4 * s, y: top + 24 * s, size: 9 * Double(s), colour: black)
        }
        for v in yTicks {
            gdImageLine(im, left, py(v), left + plotW, py(v), grid)
            text(im, Self.format(v, step: yTicks.count > 1 ? yTicks[1] - yTicks[0] : 1), x: left - 50 * s, y: py(v) + 5 * s, size: 10 * Double(s), colour: black)
        }
        gdImageRectangle(im, left, top, left + plotW, top + plotH, black)
        text(im, chart.title, x: left, y: 30 * s, size: 14 * Double(s), colour: black)
        text(im, chart.yAxisLabel, x: 22 * s, y: top + plotH - 10 * s, size: 10 * Double(s), colour: black, angle: .pi / 2)
        text(im, changes.isEmpty ? "local time" : "local time (elapsed-time axis: \(changes.map(\.label).joined(separator: ", ")))",
             x: left + plotW / 2 - (changes.isEmpty ? 30 : 150) * s, y: top + plotH + 42 * s, size: 10 * Double(s), colour: black)

        // The second axis (right) and its line, thin and grey-green, under the main line.
        if let line = chart.secondary, line.range.upperBound > line.range.lowerBound {
            let lo = line.range.lowerBound, hi = line.range.upperBound
            func py2(_ v: Double) -> Int32 { top + plotH - Int32((min(max(v, lo), hi) - lo) / (hi - lo) * Double(plotH)) }
            let angleColour = colour(120, 150, 120)
            for v in stride(from: lo, through: hi, by: (hi - lo) / 4) {
                text(im, (v < 0 ? "−" : "") + String(Int(abs(v).rounded())), x: left + plotW + 8 * s, y: py2(v) + 5 * s,
                     size: 9 * Double(s), colour: angleColour)
            }
            text(im, line.label, x: left + plotW + 58 * s, y: top + plotH / 2 + 40 * s, size: 10 * Double(s), colour: angleColour, angle: .pi / 2)
            gdImageSetThickness(im, 1 * s)
            var previous: (Int32, Int32)? = nil
            for pt in line.points {
                guard let v = pt.value, pt.local >= t0, pt.local <= t1 else { previous = nil; continue }
                let p = (px(pt.local), py2(v))
                if let q = previous { gdImageLine(im, q.0, q.1, p.0, p.1, angleColour) }
                previous = p
            }
        }
        // Time in bed: a bracket above the plot and dashed edges through it.
        if let bed = chart.inBed, bed.end > bed.start {
            let a = px(max(bed.start, t0)), b = px(min(bed.end, t1)), y = top - 6 * s
            if b > a {
                gdImageSetThickness(im, 2 * s)
                gdImageLine(im, a, y, b, y, Self.inBedColour(colour))
                gdImageLine(im, a, y, a, top - 1 * s, Self.inBedColour(colour)); gdImageLine(im, b, y, b, top - 1 * s, Self.inBedColour(colour))
                gdImageSetThickness(im, 1 * s)
                for x in [a, b] {
                    var yy = top
                    while yy < top + plotH { gdImageLine(im, x, yy, x, min(yy + 4 * s, top + plotH), Self.inBedColour(colour)); yy += 10 * s }
                }
            }
        }
        // Sleep/wake strip above the plot (and the bracket), in colours no other strip uses.
        if !chart.sleepWake.isEmpty {
            let (sleepColour, wakeColour) = Self.sleepWakeColours(colour)
            let y0 = top - (chart.inBed != nil ? 20 : 11) * s
            for r in chart.sleepWake {
                let a = px(max(r.start, t0)), b = px(min(r.end, t1))
                guard b > a else { continue }
                FastGD.fill(im, a, y0, b, y0 + 8 * s, r.state == .sleep ? sleepColour : wakeColour)
            }
        }

        // One sleep/wake strip per series (comparisons), stacked from the top of the plot.
        for (k, strip) in chart.seriesSleepWake.enumerated() where !strip.isEmpty {
            let sleepColour = colour(0, 70, 140), wakeColour = colour(230, 159, 0)
            let y0 = (42 + 13 * Int32(k)) * s
            for r in strip {
                let a = px(max(r.start, t0)), b = px(min(r.end, t1))
                guard b > a else { continue }
                FastGD.fill(im, a, y0, b, y0 + 9 * s, r.state == .sleep ? sleepColour : wakeColour)
            }
            let label = k < chart.series.count ? chart.series[k].label.replacingOccurrences(of: " intervals", with: "") : ""
            text(im, "S/W \(label)", x: 30 * s, y: y0 + 9 * s, size: 8 * Double(s), colour: black)
        }

        // Phase strip below the axis.
        if chart.showPhases, let first = chart.series.first {
            let y0 = top + plotH + 52 * s, y1 = y0 + 12 * s
            for pt in first.points {
                guard let phase = pt.phase, let c = Self.phaseColours[phase] else { continue }
                FastGD.fill(im, px(pt.startLocal), y0, px(pt.endLocal) - 1, y1, colour(c.0, c.1, c.2))
            }
            var lx = left + plotW - 330 * s
            for phase in MovementPhase.allCases {
                let c = Self.phaseColours[phase]!
                FastGD.fill(im, lx, y1 + 8 * s, lx + 12 * s, y1 + 20 * s, colour(c.0, c.1, c.2))
                text(im, phase.rawValue, x: lx + 16 * s, y: y1 + 19 * s, size: 9 * Double(s), colour: black)
                lx += 80 * s
            }
            FastGD.fill(im, left, y1 + 8 * s, left + 12 * s, y1 + 20 * s, sleepShade)
            gdImageRectangle(im, left, y1 + 8 * s, left + 12 * s, y1 + 20 * s, grid)
            text(im, "sleep period", x: left + 16 * s, y: y1 + 19 * s, size: 9 * Double(s), colour: black)
            FastGD.fill(im, left + 120 * s, y1 + 8 * s, left + 132 * s, y1 + 20 * s, gapShade)
            gdImageRectangle(im, left + 120 * s, y1 + 8 * s, left + 132 * s, y1 + 20 * s, grid)
            text(im, "no data", x: left + 136 * s, y: y1 + 19 * s, size: 9 * Double(s), colour: black)
            var lx2 = left + 210 * s
            if chart.bands.contains(where: { $0.kind == .nonWear }) || chart.secondary != nil {
                FastGD.fill(im, lx2, y1 + 8 * s, lx2 + 12 * s, y1 + 20 * s, nonWearShade)
                gdImageRectangle(im, lx2, y1 + 8 * s, lx2 + 12 * s, y1 + 20 * s, grid)
                text(im, "not worn", x: lx2 + 16 * s, y: y1 + 19 * s, size: 9 * Double(s), colour: black)
                lx2 += 90 * s
            }
            if chart.inBed != nil {
                gdImageSetThickness(im, 2 * s)
                gdImageLine(im, lx2, y1 + 9 * s, lx2 + 14 * s, y1 + 9 * s, Self.inBedColour(colour))
                gdImageLine(im, lx2, y1 + 9 * s, lx2, y1 + 19 * s, Self.inBedColour(colour)); gdImageLine(im, lx2 + 14 * s, y1 + 9 * s, lx2 + 14 * s, y1 + 19 * s, Self.inBedColour(colour))
                gdImageSetThickness(im, 1 * s)
                text(im, "time in bed", x: lx2 + 18 * s, y: y1 + 19 * s, size: 9 * Double(s), colour: black)
                lx2 += 100 * s
            }
            if !chart.sleepWake.isEmpty {
                let (sleepColour, wakeColour) = Self.sleepWakeColours(colour)
                text(im, "strip above:", x: lx2, y: y1 + 19 * s, size: 9 * Double(s), colour: black)
                FastGD.fill(im, lx2 + 78 * s, y1 + 8 * s, lx2 + 90 * s, y1 + 20 * s, sleepColour)
                text(im, "sleep", x: lx2 + 94 * s, y: y1 + 19 * s, size: 9 * Double(s), colour: black)
                FastGD.fill(im, lx2 + 134 * s, y1 + 8 * s, lx2 + 146 * s, y1 + 20 * s, wakeColour)
                text(im, "wake", x: lx2 + 150 * s, y: y1 + 19 * s, size: 9 * Double(s), colour: black)
            }
        }

        // The lines: a point per interval at its midpoint; gaps break the line.
        gdImageSetThickness(im, 2 * s)
        for (k, series) in chart.series.enumerated() {
            let c = Self.seriesColours[k % Self.seriesColours.count]
            let lineColour = colour(c.0, c.1, c.2)
            var previous: (Int32, Int32)? = nil
            for pt in series.points {
                guard let v = pt.value else { previous = nil; continue }
                let p = (px((pt.startLocal + pt.endLocal) / 2), py(v))
                if let q = previous { gdImageLine(im, q.0, q.1, p.0, p.1, lineColour) }
                else { gdImageFilledEllipse(im, p.0, p.1, 3 * s, 3 * s, lineColour) }
                previous = p
            }
            if chart.series.count > 1 {
                let ly = top + 14 * s + Int32(k) * 16 * s
                gdImageLine(im, left + plotW - 170 * s, ly - 4 * s, left + plotW - 140 * s, ly - 4 * s, lineColour)
                text(im, series.label, x: left + plotW - 132 * s, y: ly, size: 9 * Double(s), colour: black)
            }
        }
        gdImageSetThickness(im, 1)

        // Downsample for anti-aliasing.
        let out = gdImageCreateTrueColor(Int32(width), Int32(height))!
        defer { gdImageDestroy(out) }
        FastGD.halve(im, into: out)
        return encode(out)
    }

    /// A white canvas of `W` × `H` pixels (twice the PNG's size), drawn on by `draw`, halved for
    /// anti-aliasing and encoded as PNG: the frame of the actogram and the nights overview.
    func supersampled(width W: Int32, height H: Int32, _ draw: (gdImagePtr) -> Void) -> [UInt8] {
        let im = gdImageCreateTrueColor(W, H)!
        defer { gdImageDestroy(im) }
        FastGD.fill(im, 0, 0, W - 1, H - 1, Self.rgb(255, 255, 255))
        draw(im)
        let out = gdImageCreateTrueColor(W / 2, H / 2)!
        defer { gdImageDestroy(out) }
        FastGD.halve(im, into: out)
        return encode(out)
    }

    /// An opaque truecolour.
    static func rgb(_ r: Int32, _ g: Int32, _ b: Int32) -> Int32 { sleepsta_gd_rgba(r, g, b, 0) }

    func encode(_ im: gdImagePtr) -> [UInt8] {
        var size: Int32 = 0
        guard let ptr = gdImagePngPtr(im, &size) else { return [] }
        defer { gdFree(ptr) }
        return Array(UnsafeRawBufferPointer(start: ptr, count: Int(size)))
    }

    /// `string` through FreeType at `size` (drawn when `im` is an image, only measured when nil):
    /// its bounding box, or nil without a font or when FreeType fails.
    private func freeType(_ im: gdImagePtr?, _ string: String, x: Int32, y: Int32, size: Double, colour: Int32,
                          angle: Double) -> [Int32]? {
        guard let fontPath else { return nil }
        var brect = [Int32](repeating: 0, count: 8)
        let failure = fontPath.withCString { font in
            string.withCString { s in
                gdImageStringFT(im, &brect, colour, UnsafeMutablePointer(mutating: font), size, angle, x, y,
                                UnsafeMutablePointer(mutating: s))
            }
        }
        return failure == nil ? brect : nil
    }

    func text(_ im: gdImagePtr, _ string: String, x: Int32, y: Int32, size: Double, colour: Int32, angle: Double = 0) {
        if freeType(im, string, x: x, y: y, size: size, colour: colour, angle: angle) != nil { return }
        // Bitmap fallback (ASCII only); y is the baseline for FreeType, the top for bitmap fonts.
        let ascii = String(string.unicodeScalars.map { $0.isASCII ? Character($0) : "?" })
        ascii.withCString { s in
            s.withMemoryRebound(to: UInt8.self, capacity: ascii.utf8.count + 1) { u in
                if angle == 0 { gdImageString(im, gdFontGetSmall(), x, y - 12, UnsafeMutablePointer(mutating: u), colour) }
                else { gdImageStringUp(im, gdFontGetSmall(), x - 12, y, UnsafeMutablePointer(mutating: u), colour) }
            }
        }
    }

    /// The width in pixels of `string` drawn by ``text(_:_:x:y:size:colour:angle:)`` at `size`
    /// (FreeType's bounding box, nothing drawn; the bitmap fallback's 6 pixels a character).
    func textWidth(_ string: String, size: Double) -> Int32 {
        if let box = freeType(nil, string, x: 0, y: 0, size: size, colour: 0, angle: 0) { return box[2] - box[0] }
        return Int32(string.unicodeScalars.count * 6)
    }

    /// `string` as it fits in `width` pixels at `size`: whole when it fits, else its start and its
    /// end with "…" between (the end of a file name often tells recordings apart: a participant,
    /// a device serial); empty when not even "…" fits.
    func fitted(_ string: String, size: Double, width: Int32) -> String {
        guard textWidth(string, size: size) > width else { return string }
        let characters = Array(string)
        var lo = 0, hi = characters.count   // the most characters kept such that the elided text fits
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if textWidth(Self.elided(characters, keeping: mid), size: size) <= width { lo = mid } else { hi = mid - 1 }
        }
        let shown = Self.elided(characters, keeping: lo)
        return textWidth(shown, size: size) <= width ? shown : ""
    }

    static func elided(_ characters: [Character], keeping n: Int) -> String {
        let head = (n + 1) / 2, tail = n / 2
        return String(characters.prefix(head)) + "…" + String(characters.suffix(tail))
    }

    /// 4–6 round tick values from 0 covering `max`.
    static func niceTicks(max: Double) -> [Double] {
        guard max > 0, max.isFinite else { return [0, 1] }
        let rough = max / 4
        var magnitude = 1.0
        while magnitude * 10 <= rough { magnitude *= 10 }
        while magnitude > rough { magnitude /= 10 }
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? magnitude * 10
        var ticks: [Double] = []
        var v = 0.0
        while v < max + step * 1e-9 { ticks.append(v); v += step }
        ticks.append(v)
        return ticks
    }

    /// An axis tick with the decimals its step needs, the same for every tick of the axis
    /// (0, 10, 20 or 0.0, 2.5, 5.0; never 0 beside 10.0).
    static func format(_ v: Double, step: Double) -> String {
        var decimals = 0, scaled = abs(step)
        while decimals < 8 && abs(scaled - scaled.rounded()) > 1e-9 * max(1, scaled) { scaled *= 10; decimals += 1 }
        return NumberText.fixed(v, decimals)
    }
}
