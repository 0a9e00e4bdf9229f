import CGD
#if canImport(Glibc)
import Glibc
#endif

/// Draws ``BlandAltmanChart``s as PNG with libgd, in the style of ``ChartRenderer`` (drawn at 2x
/// and resampled for anti-aliasing, DejaVu Sans text, the bitmap font without it).
public struct BlandAltmanChartRenderer: Sendable {
    public var width: Int
    public var height: Int
    public var fontPath: String?

    public init(width: Int = 800, height: Int = 520, fontPath: String? = ChartRenderer.defaultFont()) {
        self.width = width; self.height = height; self.fontPath = fontPath
    }

    /// Okabe–Ito blue for the nights, vermillion for the bias, grey for the limits.
    static let pointColour: (Int32, Int32, Int32) = (0, 114, 178)
    package static let biasColour: (Int32, Int32, Int32) = (213, 94, 0)
    static let limitColour: (Int32, Int32, Int32) = (90, 90, 90)

    static func colour(_ c: (Int32, Int32, Int32), alpha: Int32 = 0) -> Int32 { sleepsta_gd_rgba(c.0, c.1, c.2, alpha) }
    static let black = colour((40, 40, 40)), grid = colour((225, 225, 225))

    /// The plot, drawn back to front: the grid, the axes with the zero line, the bias and the
    /// limits of agreement, and the nights on top (``Plot``).
    public func png(_ chart: BlandAltmanChart) -> [UInt8] {
        let s: Int32 = 2
        let W = Int32(width) * s, H = Int32(height) * s
        let im = gdImageCreateTrueColor(W, H)!
        defer { gdImageDestroy(im) }
        FastGD.fill(im, 0, 0, W - 1, H - 1, Self.colour((255, 255, 255)))
        let left: Int32 = 90 * s, right: Int32 = 150 * s, top: Int32 = 50 * s, bottom: Int32 = 62 * s
        let plotW = W - left - right, plotH = H - top - bottom
        text(im, chart.title, x: left, y: 30 * s, size: 13 * Double(s), colour: Self.black)
        guard !chart.points.isEmpty else {
            text(im, "no night with this metric at both lengths", x: left, y: top + plotH / 2, size: 11 * Double(s), colour: Self.black)
            gdImageRectangle(im, left, top, left + plotW, top + plotH, Self.black)
            return downsampled(im, W: W, H: H)
        }
        let plot = Plot(renderer: self, image: im, chart: chart, s: s, left: left, top: top, plotW: plotW, plotH: plotH)
        plot.drawGrid()
        plot.drawAxes()
        plot.drawAgreementLines()
        plot.drawNights()
        gdImageSetThickness(im, 1)
        return downsampled(im, W: W, H: H)
    }

    private func downsampled(_ im: gdImagePtr, W: Int32, H: Int32) -> [UInt8] {
        let out = gdImageCreateTrueColor(Int32(width), Int32(height))!
        defer { gdImageDestroy(out) }
        FastGD.halve(im, into: out)
        var size: Int32 = 0
        guard let ptr = gdImagePngPtr(out, &size) else { return [] }
        defer { gdFree(ptr) }
        return Array(UnsafeRawBufferPointer(start: ptr, count: Int(size)))
    }

    private func text(_ im: gdImagePtr, _ string: String, x: Int32, y: Int32, size: Double, colour: Int32, angle: Double = 0) {
        if let fontPath {
            var brect = [Int32](repeating: 0, count: 8)
            let failure = fontPath.withCString { font in
                string.withCString { s in
                    gdImageStringFT(im, &brect, colour, UnsafeMutablePointer(mutating: font), size, angle, x, y,
                                    UnsafeMutablePointer(mutating: s))
                }
            }
            if failure == nil { return }
        }
        let ascii = String(string.unicodeScalars.map { $0.isASCII ? Character($0) : "-" })
        ascii.withCString { s in
            s.withMemoryRebound(to: UInt8.self, capacity: ascii.utf8.count + 1) { u in
                if angle == 0 { gdImageString(im, gdFontGetSmall(), x, y - 12, UnsafeMutablePointer(mutating: u), colour) }
                else { gdImageStringUp(im, gdFontGetSmall(), x - 12, y, UnsafeMutablePointer(mutating: u), colour) }
            }
        }
    }

    /// A tick or line value: whole numbers from 100, one decimal from 10, two below; a true minus sign.
    static func label(_ v: Double) -> String {
        let a = abs(v)
        if a < 1e-9 { return "0" }
        let text = NumberText.fixed(a, a >= 100 ? 0 : (a >= 10 ? 1 : 2))
        return v < 0 ? "−" + text : text
    }

    /// An axis tick with the decimals its step needs, the same for every tick of the axis; a true minus sign.
    package static func tickLabel(_ v: Double, step: Double) -> String {
        let text = ChartRenderer.format(abs(v), step: step)
        return v < 0 && abs(v) > 1e-9 ? "−" + text : text
    }

    /// 4–8 round ticks covering `[min, max]` (a unit-wide range around a single value).
    package static func ticks(min lo: Double, max hi: Double) -> [Double] {
        var (lo, hi) = (lo, hi)
        if hi - lo < 1e-9 { lo -= 1; hi += 1 }
        let rough = (hi - lo) / 5
        var magnitude = 1.0
        while magnitude * 10 <= rough { magnitude *= 10 }
        while magnitude > rough { magnitude /= 10 }
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? magnitude * 10
        let first = (lo / step).rounded(.down) * step
        var ticks: [Double] = []
        var v = first
        while v < hi + step * 1e-9 { ticks.append(v); v += step }
        ticks.append(v)
        return ticks.map { ($0 / step).rounded() * step }
    }
}

extension BlandAltmanChartRenderer {
    /// A Bland–Altman plot with nights, drawn layer by layer on the supersampled canvas: round
    /// ticks around the nights and the lines, in points of the finished chart times `s`.
    package struct Plot {
        let renderer: BlandAltmanChartRenderer
        let im: gdImagePtr
        let chart: BlandAltmanChart
        let s: Int32
        let left: Int32, top: Int32, plotW: Int32, plotH: Int32
        let xTicks: [Double], yTicks: [Double]

        init(renderer: BlandAltmanChartRenderer, image: gdImagePtr, chart: BlandAltmanChart, s: Int32,
             left: Int32, top: Int32, plotW: Int32, plotH: Int32) {
            self.renderer = renderer; im = image; self.chart = chart; self.s = s
            self.left = left; self.top = top; self.plotW = plotW; self.plotH = plotH
            let lines = [chart.bias, chart.lowerLimit, chart.upperLimit].compactMap { $0 }.filter(\.isFinite)
            let xs = chart.points.map(\.mean), ys = chart.points.map(\.difference) + lines + [0]
            let (xLo, xHi) = Self.padded(xs), (yLo, yHi) = Self.padded(ys)
            xTicks = BlandAltmanChartRenderer.ticks(min: xLo, max: xHi)
            yTicks = BlandAltmanChartRenderer.ticks(min: yLo, max: yHi)
        }

        /// A margin of 4 % of the range on each side, so that no point sits on the frame. Values
        /// all (nearly) equal, e.g. differences that are zero by design, get a fixed span of
        /// ±1 unit or ±5 % of the value, whichever is wider, so that ticks stay round numbers
        /// instead of steps of a millionth.
        package static func padded(_ v: [Double]) -> (Double, Double) {
            let lo = v.min()!, hi = v.max()!
            if hi - lo < 1e-3 * Swift.max(1, abs(hi)) {
                let centre = (lo + hi) / 2, half = Swift.max(1, abs(centre) * 0.05)
                return (centre - half, centre + half)
            }
            let m = (hi - lo) * 0.04
            return (lo - m, hi + m)
        }

        /// Label baselines for lines at `ys` (pixels, any order), moved apart so that consecutive
        /// labels are at least `gap` apart (coinciding lines, e.g. limits equal to the bias, get
        /// stacked labels instead of overprinted ones); same order as `ys`.
        package static func labelBaselines(_ ys: [Int32], gap: Int32) -> [Int32] {
            let order = ys.indices.sorted { ys[$0] < ys[$1] }
            var out = ys
            var previous: Int32? = nil
            for i in order {
                if let p = previous, out[i] < p + gap { out[i] = p + gap }
                previous = out[i]
            }
            return out
        }

        func px(_ v: Double) -> Int32 {
            let (x0, x1) = (xTicks.first!, xTicks.last!)
            return left + FastGD.pixel(((v - x0) / (x1 - x0) * Double(plotW)).rounded())
        }
        func py(_ v: Double) -> Int32 {
            let (y0, y1) = (yTicks.first!, yTicks.last!)
            return top + plotH - FastGD.pixel(((v - y0) / (y1 - y0) * Double(plotH)).rounded())
        }

        /// `string` at `size` points, its baseline at `y`.
        func text(_ string: String, x: Int32, y: Int32, size: Double, colour: Int32 = BlandAltmanChartRenderer.black, angle: Double = 0) {
            renderer.text(im, string, x: x, y: y, size: size * Double(s), colour: colour, angle: angle)
        }

        /// The tick lines and their labels.
        func drawGrid() {
            gdImageSetThickness(im, 1 * s)
            for v in xTicks {
                gdImageLine(im, px(v), top, px(v), top + plotH, BlandAltmanChartRenderer.grid)
                text(BlandAltmanChartRenderer.tickLabel(v, step: xTicks[1] - xTicks[0]), x: px(v) - 14 * s, y: top + plotH + 20 * s, size: 10)
            }
            for v in yTicks {
                gdImageLine(im, left, py(v), left + plotW, py(v), BlandAltmanChartRenderer.grid)
                text(BlandAltmanChartRenderer.tickLabel(v, step: yTicks[1] - yTicks[0]), x: left - 60 * s, y: py(v) + 5 * s, size: 10)
            }
        }

        /// Zero difference (perfect agreement), the frame and the axis labels.
        func drawAxes() {
            gdImageSetThickness(im, 2 * s)
            gdImageLine(im, left, py(0), left + plotW, py(0), BlandAltmanChartRenderer.colour((170, 170, 170)))
            gdImageRectangle(im, left, top, left + plotW, top + plotH, BlandAltmanChartRenderer.black)
            text(chart.xAxisLabel, x: left + plotW / 2 - 120 * s, y: top + plotH + 44 * s, size: 10)
            text(chart.yAxisLabel, x: 22 * s, y: top + plotH - 10 * s, size: 10, angle: .pi / 2)
        }

        /// Bias (solid) and limits of agreement (dashed), labelled at the right.
        func drawAgreementLines() {
            gdImageSetThickness(im, 2 * s)
            let limit = BlandAltmanChartRenderer.colour(BlandAltmanChartRenderer.limitColour)
            let lines: [(Double, String, Int32, Bool)] = [
                (chart.upperLimit, "+1.96 SD", limit, true), (chart.bias, "bias", BlandAltmanChartRenderer.colour(BlandAltmanChartRenderer.biasColour), false),
                (chart.lowerLimit, "−1.96 SD", limit, true),
            ].compactMap { v, name, c, dashed in v.flatMap { $0.isFinite ? ($0, name, c, dashed) : nil } }
            let baselines = Self.labelBaselines(lines.map { py($0.0) + 4 * s }, gap: 13 * s)
            // Dashed limits first, the solid bias on top.
            for k in lines.indices.filter({ lines[$0].3 }) + lines.indices.filter({ !lines[$0].3 }) {
                drawLine(at: lines[k].0, lines[k].1, lines[k].2, dashed: lines[k].3, labelY: baselines[k])
            }
        }

        private func drawLine(at v: Double, _ name: String, _ c: Int32, dashed: Bool, labelY: Int32) {
            let y = py(v)
            if dashed {
                var x = left
                while x < left + plotW { gdImageLine(im, x, y, min(x + 10 * s, left + plotW), y, c); x += 18 * s }
            } else {
                gdImageLine(im, left, y, left + plotW, y, c)
            }
            text("\(name) \(BlandAltmanChartRenderer.label(v))", x: left + plotW + 8 * s, y: labelY, size: 9, colour: c)
        }

        /// Nights: translucent discs, so coinciding nights show darker.
        func drawNights() {
            let fill = BlandAltmanChartRenderer.colour(BlandAltmanChartRenderer.pointColour, alpha: 60)
            let edge = BlandAltmanChartRenderer.colour(BlandAltmanChartRenderer.pointColour)
            gdImageSetThickness(im, 1 * s)
            for p in chart.points {
                gdImageFilledEllipse(im, px(p.mean), py(p.difference), 12 * s, 12 * s, fill)
                gdImageEllipse(im, px(p.mean), py(p.difference), 12 * s, 12 * s, edge)
            }
        }
    }
}
