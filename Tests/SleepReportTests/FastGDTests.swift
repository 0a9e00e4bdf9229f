import CGD
import Testing
import SleepReport

/// ``FastGD`` stands in for two libgd calls on the charts' canvas; it must draw what they draw.
@Suite("Pixel operations written over libgd's rows")
struct FastGDTests {
    static func pixels(_ im: gdImagePtr) -> [Int32] {
        var out: [Int32] = []
        for y in 0..<sleepsta_gd_height(im) { for x in 0..<sleepsta_gd_width(im) { out.append(sleepsta_gd_truecolor_pixel(im, x, y)) } }
        return out
    }

    @Test("fill equals gdImageFilledRectangle: corners in any order, clipped, opaque over anything")
    func fill() {
        let a = gdImageCreateTrueColor(61, 37)!, b = gdImageCreateTrueColor(61, 37)!
        defer { gdImageDestroy(a); gdImageDestroy(b) }
        let rectangles: [(Int32, Int32, Int32, Int32)] = [(0, 0, 60, 36), (5, 3, 20, 30), (40, 30, 10, 2), (-10, -4, 8, 9),
                                                          (50, 20, 90, 70), (7, 7, 7, 7), (61, 0, 80, 10), (3, 40, 9, 50)]
        for (k, r) in rectangles.enumerated() {
            let colour = sleepsta_gd_rgba(Int32(k * 30 % 256), Int32(k * 70 % 256), Int32(k * 110 % 256), 0)
            gdImageFilledRectangle(a, r.0, r.1, r.2, r.3, colour)
            FastGD.fill(b, r.0, r.1, r.2, r.3, colour)
        }
        #expect(Self.pixels(a) == Self.pixels(b))
        // A translucent colour blends, which only libgd does: it is passed on.
        let translucent = sleepsta_gd_rgba(255, 0, 0, 64)
        gdImageFilledRectangle(a, 2, 2, 30, 30, translucent)
        FastGD.fill(b, 2, 2, 30, 30, translucent)
        #expect(Self.pixels(a) == Self.pixels(b))
    }

    @Test("halve averages each 2×2 block per channel, as gdImageCopyResampled does to within rounding")
    func halve() {
        let source = gdImageCreateTrueColor(80, 50)!
        defer { gdImageDestroy(source) }
        var state: UInt32 = 12345
        for y in Int32(0)..<50 {
            for x in Int32(0)..<80 {
                state = state &* 1_103_515_245 &+ 12345
                gdImageSetPixel(source, x, y, sleepsta_gd_rgba(Int32(state >> 24), Int32((state >> 16) & 0xFF), Int32((state >> 8) & 0xFF), 0))
            }
        }
        let fast = gdImageCreateTrueColor(40, 25)!, gd = gdImageCreateTrueColor(40, 25)!
        defer { gdImageDestroy(fast); gdImageDestroy(gd) }
        FastGD.halve(source, into: fast)
        gdImageCopyResampled(gd, source, 0, 0, 0, 0, 40, 25, 80, 50)
        var worst: Int32 = 0
        for y in Int32(0)..<25 {
            for x in Int32(0)..<40 {
                let f = sleepsta_gd_truecolor_pixel(fast, x, y), g = sleepsta_gd_truecolor_pixel(gd, x, y)
                for shift in [Int32(0), 8, 16] {
                    let four = [(2 * x, 2 * y), (2 * x + 1, 2 * y), (2 * x, 2 * y + 1), (2 * x + 1, 2 * y + 1)]
                        .map { (sleepsta_gd_truecolor_pixel(source, $0.0, $0.1) >> shift) & 0xFF }
                    #expect((f >> shift) & 0xFF == (four.reduce(0, +) + 2) / 4)
                    worst = max(worst, abs(((f >> shift) & 0xFF) - ((g >> shift) & 0xFF)))
                }
                #expect((f >> 24) & 0x7F == 0)
            }
        }
        #expect(worst <= 1, "largest difference to gdImageCopyResampled: \(worst)")
    }
}
