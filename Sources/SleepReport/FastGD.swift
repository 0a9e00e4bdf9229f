import CGD
import CPixels

/// Two libgd operations on true-colour images written over the pixel rows directly, because
/// libgd does them one `gdImageSetPixel` call per pixel, and on the charts' doubled canvas
/// (2400 × 840) that was most of the time spent rendering reports: `perf record` of `sleepsta run`
/// on the 7-day benchmark file put about 7 % of all CPU time in `gdImageCopyResampled` and 3 % in
/// the `gdImageSetPixel` calls of `gdImageFilledRectangle`. The loops themselves are C (CPixels),
/// compiled optimised while this module is not.
package enum FastGD {
    /// A pixel coordinate from a computed position: a value that is not finite (a stored series
    /// holding NaN or infinity) is 0, and one far off the image is clamped, never an Int32 trap.
    static func pixel(_ v: Double) -> Int32 {
        guard v.isFinite else { return 0 }
        return Int32(max(-1_000_000, min(1_000_000, v)))
    }

    /// Halves a true-colour image into another (2×2 box filter): the anti-aliasing step of the
    /// charts, which are drawn at twice their size because libgd smooths only 1-pixel lines.
    /// For an exact 2:1 ratio `gdImageCopyResampled` averages the same four pixels; this rounds
    /// each channel to nearest (ties up) and averages alpha like the colours (charts are opaque).
    /// `destination` must be `source`'s size halved (rounded down).
    package static func halve(_ source: gdImagePtr, into destination: gdImagePtr) {
        let w = Int(sleepsta_gd_width(destination)), h = Int(sleepsta_gd_height(destination))
        precondition(Int(sleepsta_gd_width(source)) >= 2 * w && Int(sleepsta_gd_height(source)) >= 2 * h)
        guard let src = source.pointee.tpixels, let dst = destination.pointee.tpixels else { return }
        sleepsta_pixels_halve(src, dst, Int32(w), Int32(h))
    }

    /// `gdImageFilledRectangle` with an opaque colour (alpha 0: it replaces what is there, with or
    /// without blending): corners in any order, clipped to the image.
    package static func fill(_ im: gdImagePtr, _ x1: Int32, _ y1: Int32, _ x2: Int32, _ y2: Int32, _ colour: Int32) {
        guard (colour >> 24) & 0x7F == 0, im.pointee.trueColor != 0, let rows = im.pointee.tpixels else {
            gdImageFilledRectangle(im, x1, y1, x2, y2, colour)
            return
        }
        let w = sleepsta_gd_width(im), h = sleepsta_gd_height(im)
        let xa = max(0, min(x1, x2)), xb = min(w - 1, max(x1, x2))
        let ya = max(0, min(y1, y2)), yb = min(h - 1, max(y1, y2))
        guard xa <= xb, ya <= yb else { return }
        sleepsta_pixels_fill(rows, xa, xb, ya, yb, colour)
    }
}
