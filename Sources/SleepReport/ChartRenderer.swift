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

    /// The night chart's width in pixels.
    public static let defaultWidth = 1200

    public init(width: Int = ChartRenderer.defaultWidth, height: Int = 420, fontPath: String? = ChartRenderer.defaultFont()) {
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

    /// The night chart, drawn in layers from the back: the shaded bands (the day's other sleep
    /// periods among them), the grid with its clock labels, the second axis's line, the time-in-bed
    /// bracket, the brackets of the day's sleep periods, the sleep/wake strips, the phase
    /// strip with the legend, and the movement lines on top (``NightLayers``).
    public func png(_ chart: MovementChart) -> [UInt8] {
        let s: Int32 = 2 // supersampling factor
        let W = Int32(width) * s, H = Int32(height) * s
        let im = gdImageCreateTrueColor(W, H)!
        defer { gdImageDestroy(im) }
        FastGD.fill(im, 0, 0, W - 1, H - 1, Self.rgb(255, 255, 255))
        let frame = NightFrame(chart, width: W, height: H, scale: s)
        guard let night = NightLayers(renderer: self, image: im, chart: chart, frame: frame) else {
            // Not halved: a chart without data keeps the canvas's size.
            text(im, "no data", x: frame.left, y: frame.top + frame.plotH / 2, size: 12 * Double(s), colour: NightLayers.black)
            return encode(im)
        }
        night.drawBands()
        night.drawGridAndClockLabels()
        night.drawSecondaryLine()
        night.drawInBedBracket()
        night.drawPeriodMarks()
        night.drawSleepWakeStrip()
        night.drawSeriesSleepWakeStrips()
        if chart.showPhases, let first = chart.series.first {
            night.drawPhaseStrip(first)
            night.drawLegend()
        }
        night.drawSeries()
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
    package func textWidth(_ string: String, size: Double) -> Int32 {
        if let box = freeType(nil, string, x: 0, y: 0, size: size, colour: 0, angle: 0) { return box[2] - box[0] }
        return Int32(string.unicodeScalars.count * 6)
    }

    /// `string` as it fits in `width` pixels at `size`: whole when it fits, else its start and its
    /// end with "…" between (the end of a file name often tells recordings apart: a participant,
    /// a device serial); empty when not even "…" fits.
    package func fitted(_ string: String, size: Double, width: Int32) -> String {
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
    package static func niceTicks(max: Double) -> [Double] {
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
