import CGD
import Foundation
import Testing
import SleepReport

@Suite("Bland–Altman chart")
struct BlandAltmanChartTests {
    @Test("the PNG has the chart's size, the nights' discs and the bias line in their colours")
    func pixels() throws {
        let points = [(400.0, -10.0), (420, 5), (380, -25), (450, 0), (410, -15)].map { BlandAltmanChart.Point(mean: $0.0, difference: $0.1) }
        let chart = BlandAltmanChart(title: "TST: 15m − 10m, 5 nights", xAxisLabel: "mean (min)", yAxisLabel: "difference (min)",
                                     points: points, bias: -9, lowerLimit: -31.2, upperLimit: 13.2)
        let renderer = BlandAltmanChartRenderer()
        var bytes = renderer.png(chart)
        #expect(renderer.png(chart) == bytes)   // deterministic
        let im = try #require(bytes.withUnsafeMutableBytes { gdImageCreateFromPngPtr(Int32($0.count), $0.baseAddress) })
        defer { gdImageDestroy(im) }
        #expect(sleepsta_gd_width(im) == 800 && sleepsta_gd_height(im) == 520)
        func count(near c: (Int32, Int32, Int32), tolerance: Int32 = 30) -> Int {
            var n = 0
            for y in 0..<sleepsta_gd_height(im) {
                for x in 0..<sleepsta_gd_width(im) {
                    let p = sleepsta_gd_truecolor_pixel(im, x, y)
                    let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                    if abs(r - c.0) <= tolerance && abs(g - c.1) <= tolerance && abs(b - c.2) <= tolerance { n += 1 }
                }
            }
            return n
        }
        #expect(count(near: BlandAltmanChartRenderer.biasColour) > 400)     // a line across the plot
        #expect(count(near: (120, 180, 220), tolerance: 40) > 100)          // translucent blue discs
        // Ticks cover the data and the limits.
        let ticks = BlandAltmanChartRenderer.ticks(min: -31.2, max: 13.2)
        #expect(ticks.first! <= -31.2 && ticks.last! >= 13.2 && ticks.count <= 9)
    }

    @Test func emptyChartSaysSo() {
        let chart = BlandAltmanChart(title: "SOL", xAxisLabel: "x", yAxisLabel: "y", points: [], bias: nil, lowerLimit: nil, upperLimit: nil)
        let bytes = BlandAltmanChartRenderer().png(chart)
        #expect(bytes.count > 1000)
    }
}

@Suite("Bland–Altman chart without variance")
struct BlandAltmanZeroVarianceTests {
    @Test("all differences 0: a ±1 axis with round ticks, and stacked line labels")
    func zeroDifferences() throws {
        let (lo, hi) = BlandAltmanChartRenderer.Plot.padded([0, 0, 0, 0])
        #expect(lo == -1 && hi == 1)
        let ticks = BlandAltmanChartRenderer.ticks(min: lo, max: hi)
        let step = ticks[1] - ticks[0]
        #expect(step >= 0.1 && ticks.count <= 9, "\(ticks)")
        let labels = ticks.map { BlandAltmanChartRenderer.tickLabel($0, step: step) }
        #expect(labels.allSatisfy { $0.count <= 4 }, "\(labels)")
        #expect(Set(labels).count == labels.count)
        // A mean shared by every night: ±5 % around it.
        let (xLo, xHi) = BlandAltmanChartRenderer.Plot.padded([420, 420])
        #expect(xLo == 399 && xHi == 441)
        // Three lines on one pixel row: labels 13 px apart, in line order.
        #expect(BlandAltmanChartRenderer.Plot.labelBaselines([300, 300, 300], gap: 13) == [300, 313, 326])
        #expect(BlandAltmanChartRenderer.Plot.labelBaselines([100, 300, 90], gap: 13) == [103, 300, 90])
        let points = (0..<5).map { BlandAltmanChart.Point(mean: 400 + Double($0) * 10, difference: 0) }
        let chart = BlandAltmanChart(title: "TIB: 15m − 10m, 5 nights", xAxisLabel: "mean (min)", yAxisLabel: "difference (min)",
                                     points: points, bias: 0, lowerLimit: 0, upperLimit: 0)
        let bytes = BlandAltmanChartRenderer().png(chart)
        #expect(bytes.count > 1000)
        try Data(bytes).write(to: URL(fileURLWithPath: NSTemporaryDirectory() + "sleepsta-bland-altman-zero.png"))
    }
}
