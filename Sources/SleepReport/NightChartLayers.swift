import CGD
import SleepCore

extension ChartRenderer {
    /// Where the night chart's plot sits on the supersampled canvas. The margins leave room for
    /// the title, for the strips and the bracket above the plot (never on its frame), for the
    /// clock labels and the phase legend below, and for a second axis at the right.
    struct NightFrame {
        let s: Int32
        let left: Int32, top: Int32, plotW: Int32, plotH: Int32

        /// The plot's margins at scale 1: the y-axis labels on the left; on the right, room for
        /// a secondary axis (angle-z) when there is one.
        static let leftMargin: Int32 = 90
        static func rightMargin(secondaryAxis: Bool) -> Int32 { secondaryAxis ? 70 : 30 }

        init(_ chart: MovementChart, width W: Int32, height H: Int32, scale s: Int32) {
            // Sleep/wake strips per series (comparisons) sit between the title and the plot.
            let stripRows = Int32(chart.seriesSleepWake.count)
            // Above the plot: the time-in-bed bracket and the sleep/wake strip.
            let above: Int32 = (chart.inBed != nil ? 10 : 0) + (chart.sleepWake.isEmpty ? 0 : 12)
                + (chart.periods.isEmpty && chart.carried.isEmpty ? 0 : 16)   // the periods' brackets and labels
            let right: Int32 = Self.rightMargin(secondaryAxis: chart.secondary != nil) * s
            let bottom: Int32 = (chart.showPhases ? 88 : 62) * s
            self.s = s
            left = Self.leftMargin * s
            top = (50 + 13 * stripRows + above) * s
            plotW = W - left - right
            plotH = H - top - bottom
        }
    }

    /// A night chart with data, drawn layer by layer on the supersampled canvas. Each layer
    /// covers the ones drawn before it, so ``ChartRenderer/png(_:)`` calls them back to front.
    /// Sizes are in points of the finished chart, times `s` on the canvas.
    struct NightLayers {
        static let black = ChartRenderer.rgb(40, 40, 40), grid = ChartRenderer.rgb(225, 225, 225)
        static let gapShade = ChartRenderer.rgb(240, 240, 240), sleepShade = ChartRenderer.rgb(232, 242, 252)
        static let nonWearShade = ChartRenderer.rgb(250, 222, 222)
        static let inBed = ChartRenderer.inBedColour(ChartRenderer.rgb)

        let renderer: ChartRenderer
        let im: gdImagePtr
        let chart: MovementChart
        let s: Int32
        let left: Int32, top: Int32, plotW: Int32, plotH: Int32
        /// Whole local hours around the data (elapsed time when the chart has a clock).
        let axis: (start: Int64, end: Int64, ticks: [(x: Int64, label: String)])
        let yTicks: [Double]

        /// Nil for a chart without a stretch of data to draw.
        init?(renderer: ChartRenderer, image: gdImagePtr, chart: MovementChart, frame: NightFrame) {
            let allPoints = chart.series.flatMap(\.points)
            guard var xStart = allPoints.map(\.startLocal).min(), var xEnd = allPoints.map(\.endLocal).max(), xEnd > xStart else {
                return nil
            }
            // A day sleep runs past the window's end, where the data stop: the axis covers it.
            if let span = chart.periodSpan { xStart = min(xStart, span.start); xEnd = max(xEnd, span.end) }
            self.renderer = renderer; im = image; self.chart = chart
            s = frame.s; left = frame.left; top = frame.top; plotW = frame.plotW; plotH = frame.plotH
            axis = MovementChart.axis(xStart: xStart, xEnd: xEnd, clock: chart.clock)
            yTicks = ChartRenderer.niceTicks(max: allPoints.compactMap(\.value).max() ?? 0)
        }

        var t0: Int64 { axis.start }
        var t1: Int64 { axis.end }
        var yMax: Double { yTicks.last ?? 1 }
        func px(_ t: Int64) -> Int32 { left + FastGD.pixel(Double(t - t0) / Double(t1 - t0) * Double(plotW)) }
        func py(_ v: Double) -> Int32 { top + plotH - FastGD.pixel((v / yMax) * Double(plotH)) }
        func colour(_ c: (Int32, Int32, Int32)) -> Int32 { ChartRenderer.rgb(c.0, c.1, c.2) }

        /// `string` at `size` points, its baseline at `y`.
        func text(_ string: String, x: Int32, y: Int32, size: Double, colour: Int32 = NightLayers.black, angle: Double = 0) {
            renderer.text(im, string, x: x, y: y, size: size * Double(s), colour: colour, angle: angle)
        }

        /// The sleep period shaded, then the stretches without data (the gaps of the first line
        /// when the chart has no bands) and those not worn.
        func drawBands() {
            if let p = chart.sleepPeriod {
                FastGD.fill(im, px(max(p.start, t0)), top, px(min(p.end, t1)), top + plotH, Self.sleepShade)
            }
            drawPeriodBands()
            if chart.bands.isEmpty, let first = chart.series.first {
                for pt in first.points where pt.value == nil {
                    FastGD.fill(im, px(pt.startLocal), top, px(pt.endLocal), top + plotH, Self.gapShade)
                }
            }
            for band in chart.bands {
                let a = px(max(band.startLocal, t0)), b = px(min(band.endLocal, t1))
                guard b > a else { continue }
                FastGD.fill(im, a, top, b, top + plotH, band.kind == .nonWear ? Self.nonWearShade : Self.gapShade)
            }
        }

        /// The hour grid with its clock labels, the clock changes, the value grid, the frame, the
        /// title and the axis labels.
        func drawGridAndClockLabels() {
            gdImageSetThickness(im, 1 * s)
            for tick in axis.ticks {
                gdImageLine(im, px(tick.x), top, px(tick.x), top + plotH, Self.grid)
                text(tick.label, x: px(tick.x) - 17 * s, y: top + plotH + 20 * s, size: 10)
            }
            let changes = drawClockChanges()
            let step = yTicks.count > 1 ? yTicks[1] - yTicks[0] : 1
            for v in yTicks {
                gdImageLine(im, left, py(v), left + plotW, py(v), Self.grid)
                text(ChartRenderer.format(v, step: step), x: left - 50 * s, y: py(v) + 5 * s, size: 10)
            }
            gdImageRectangle(im, left, top, left + plotW, top + plotH, Self.black)
            text(chart.title, x: left, y: 30 * s, size: 14)
            text(chart.yAxisLabel, x: 22 * s, y: top + plotH - 10 * s, size: 10, angle: .pi / 2)
            text(changes.isEmpty ? "local time" : "local time (elapsed-time axis: \(changes.map(\.label).joined(separator: ", ")))",
                 x: left + plotW / 2 - (changes.isEmpty ? 30 : 150) * s, y: top + plotH + 42 * s, size: 10)
        }

        /// A clock change (DST) marked where it happened on the elapsed-time axis: a dashed line
        /// and what the clocks did. Returns the changes, which the axis label names.
        private func drawClockChanges() -> [(x: Int64, label: String)] {
            let changes = MovementChart.clockChanges(start: t0, end: t1, clock: chart.clock)
            for change in changes {
                let x = px(change.x)
                var y = top
                while y < top + plotH { gdImageLine(im, x, y, x, min(y + 6 * s, top + plotH), Self.black); y += 12 * s }
                text(change.label, x: x + 4 * s, y: top + 24 * s, size: 9)
            }
            return changes
        }

        /// The second axis (right) and its line, thin and grey-green, under the main line.
        func drawSecondaryLine() {
            guard let line = chart.secondary, line.range.upperBound > line.range.lowerBound else { return }
            let lo = line.range.lowerBound, hi = line.range.upperBound
            func py2(_ v: Double) -> Int32 { top + plotH - FastGD.pixel((min(max(v, lo), hi) - lo) / (hi - lo) * Double(plotH)) }
            let angleColour = ChartRenderer.rgb(120, 150, 120)
            for v in stride(from: lo, through: hi, by: (hi - lo) / 4) {
                text((v < 0 ? "−" : "") + NumberText.fixed(abs(v), 0), x: left + plotW + 8 * s, y: py2(v) + 5 * s,
                     size: 9, colour: angleColour)
            }
            text(line.label, x: left + plotW + 58 * s, y: top + plotH / 2 + 40 * s, size: 10, colour: angleColour, angle: .pi / 2)
            gdImageSetThickness(im, 1 * s)
            var previous: (Int32, Int32)? = nil
            for pt in line.points {
                guard let v = pt.value, pt.local >= t0, pt.local <= t1 else { previous = nil; continue }
                let p = (px(pt.local), py2(v))
                if let q = previous { gdImageLine(im, q.0, q.1, p.0, p.1, angleColour) }
                previous = p
            }
        }

        /// Time in bed: a bracket above the plot and dashed edges through it.
        func drawInBedBracket() {
            guard let bed = chart.inBed, bed.end > bed.start else { return }
            let a = px(max(bed.start, t0)), b = px(min(bed.end, t1)), y = top - 6 * s
            guard b > a else { return }
            gdImageSetThickness(im, 2 * s)
            gdImageLine(im, a, y, b, y, Self.inBed)
            gdImageLine(im, a, y, a, top - 1 * s, Self.inBed); gdImageLine(im, b, y, b, top - 1 * s, Self.inBed)
            gdImageSetThickness(im, 1 * s)
            for x in [a, b] {
                var yy = top
                while yy < top + plotH { gdImageLine(im, x, yy, x, min(yy + 4 * s, top + plotH), Self.inBed); yy += 10 * s }
            }
        }

        /// Runs of sleep and wake as a strip from `y0`, `height` points high, clipped to the axis.
        private func drawStrip(_ runs: [(start: Int64, end: Int64, state: SleepWake)], y0: Int32, height: Int32,
                               sleep sleepColour: Int32, wake wakeColour: Int32) {
            for r in runs {
                let a = px(max(r.start, t0)), b = px(min(r.end, t1))
                guard b > a else { continue }
                FastGD.fill(im, a, y0, b, y0 + height * s, r.state == .sleep ? sleepColour : wakeColour)
            }
        }

        /// The sleep/wake strip above the plot (and the bracket), in colours no other strip uses.
        func drawSleepWakeStrip() {
            guard !chart.sleepWake.isEmpty else { return }
            let (sleepColour, wakeColour) = ChartRenderer.sleepWakeColours(ChartRenderer.rgb)
            drawStrip(chart.sleepWake, y0: top - (chart.inBed != nil ? 20 : 11) * s, height: 8, sleep: sleepColour, wake: wakeColour)
        }

        /// One sleep/wake strip per series (comparisons), stacked from below the title, each
        /// labelled with its series.
        func drawSeriesSleepWakeStrips() {
            for (k, strip) in chart.seriesSleepWake.enumerated() where !strip.isEmpty {
                let y0 = (42 + 13 * Int32(k)) * s
                drawStrip(strip, y0: y0, height: 9, sleep: ChartRenderer.rgb(0, 70, 140), wake: ChartRenderer.rgb(230, 159, 0))
                let label = k < chart.series.count ? chart.series[k].label.replacingOccurrences(of: " intervals", with: "") : ""
                text("S/W \(label)", x: 30 * s, y: y0 + 9 * s, size: 8)
            }
        }

        /// The phase strip's top and bottom, below the clock labels.
        var phaseStrip: (top: Int32, bottom: Int32) { (top + plotH + 52 * s, top + plotH + 64 * s) }

        /// Each interval's movement phase, coloured, below the axis.
        func drawPhaseStrip(_ series: MovementChart.Series) {
            let (y0, y1) = phaseStrip
            for pt in series.points {
                guard let phase = pt.phase, let c = ChartRenderer.phaseColours[phase] else { continue }
                FastGD.fill(im, px(pt.startLocal), y0, px(pt.endLocal) - 1, y1, colour(c))
            }
        }

        /// The key below the phase strip: the phases at the right; at the left the shadings, and
        /// the bracket and the strip above the plot where the chart has them.
        func drawLegend() {
            let y1 = phaseStrip.bottom
            var lx = left + plotW - 330 * s
            for phase in MovementPhase.allCases {
                drawKey(at: lx, below: y1, fill: colour(ChartRenderer.phaseColours[phase]!), framed: false, phase.rawValue)
                lx += 80 * s
            }
            drawKey(at: left, below: y1, fill: Self.sleepShade, framed: true, "sleep period")
            drawKey(at: left + 120 * s, below: y1, fill: Self.gapShade, framed: true, "no data")
            var lx2 = left + 210 * s
            if chart.bands.contains(where: { $0.kind == .nonWear }) || chart.secondary != nil {
                drawKey(at: lx2, below: y1, fill: Self.nonWearShade, framed: true, "not worn")
                lx2 += 90 * s
            }
            if chart.inBed != nil {
                drawInBedKey(at: lx2, below: y1)
                lx2 += 100 * s
            }
            if !chart.sleepWake.isEmpty { drawSleepWakeKey(at: lx2, below: y1) }
        }

        /// A 12-point square of `fill` (framed in the grid's grey) and its label.
        private func drawKey(at x: Int32, below y1: Int32, fill: Int32, framed: Bool, _ label: String) {
            FastGD.fill(im, x, y1 + 8 * s, x + 12 * s, y1 + 20 * s, fill)
            if framed { gdImageRectangle(im, x, y1 + 8 * s, x + 12 * s, y1 + 20 * s, Self.grid) }
            text(label, x: x + 16 * s, y: y1 + 19 * s, size: 9)
        }

        /// The time-in-bed bracket in small, and its label.
        private func drawInBedKey(at x: Int32, below y1: Int32) {
            gdImageSetThickness(im, 2 * s)
            gdImageLine(im, x, y1 + 9 * s, x + 14 * s, y1 + 9 * s, Self.inBed)
            gdImageLine(im, x, y1 + 9 * s, x, y1 + 19 * s, Self.inBed); gdImageLine(im, x + 14 * s, y1 + 9 * s, x + 14 * s, y1 + 19 * s, Self.inBed)
            gdImageSetThickness(im, 1 * s)
            text("time in bed", x: x + 18 * s, y: y1 + 19 * s, size: 9)
        }

        /// The colours of the sleep/wake strip above the plot.
        private func drawSleepWakeKey(at x: Int32, below y1: Int32) {
            let (sleepColour, wakeColour) = ChartRenderer.sleepWakeColours(ChartRenderer.rgb)
            text("strip above:", x: x, y: y1 + 19 * s, size: 9)
            FastGD.fill(im, x + 78 * s, y1 + 8 * s, x + 90 * s, y1 + 20 * s, sleepColour)
            text("sleep", x: x + 94 * s, y: y1 + 19 * s, size: 9)
            FastGD.fill(im, x + 134 * s, y1 + 8 * s, x + 146 * s, y1 + 20 * s, wakeColour)
            text("wake", x: x + 150 * s, y: y1 + 19 * s, size: 9)
        }

        /// The movement lines, on top of everything; with several, each line's key at the top
        /// right, drawn right after its line (a later line passes over an earlier key).
        func drawSeries() {
            gdImageSetThickness(im, 2 * s)
            for (k, series) in chart.series.enumerated() {
                let lineColour = colour(ChartRenderer.seriesColours[k % ChartRenderer.seriesColours.count])
                drawLine(series.points, colour: lineColour)
                if chart.series.count > 1 {
                    let ly = top + 14 * s + Int32(k) * 16 * s
                    gdImageLine(im, left + plotW - 170 * s, ly - 4 * s, left + plotW - 140 * s, ly - 4 * s, lineColour)
                    text(series.label, x: left + plotW - 132 * s, y: ly, size: 9)
                }
            }
        }

        /// A point per interval at its midpoint; a gap breaks the line, and a point after a gap
        /// starts with a dot, so that a lone interval shows.
        private func drawLine(_ points: [MovementChart.Point], colour lineColour: Int32) {
            var previous: (Int32, Int32)? = nil
            for pt in points {
                guard let v = pt.value else { previous = nil; continue }
                let p = (px((pt.startLocal + pt.endLocal) / 2), py(v))
                if let q = previous { gdImageLine(im, q.0, q.1, p.0, p.1, lineColour) }
                else { gdImageFilledEllipse(im, p.0, p.1, 3 * s, 3 * s, lineColour) }
                previous = p
            }
        }
    }
}
