#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decimal number parsing straight from bytes.
///
/// Hand-written because it runs for every field of multi-gigabyte CSV files: `strtod` is about 6x
/// slower and `String`-based parsing 50x (see TOOLCHAIN.md). The result is correctly rounded: a
/// mantissa below 2^53 scaled by an exact power of ten up to 10^22 is one IEEE operation (the
/// classic Clinger fast path); anything else falls back to `strtod`.
package enum FastNumber {
    @usableFromInline
    static let powersOfTen: [Double] = (0...22).map { i in
        var v = 1.0; for _ in 0..<i { v *= 10 }; return v
    }

    package enum Result: Equatable {
        case number(Double)
        case notFinite      // nan / inf spelled out
        case invalid
    }

    /// Parses `[start, end)` of `p` as a decimal number (optional sign, digits, fraction, exponent).
    @inline(__always)
    package static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Result {
        var i = start
        guard i < end else { return .invalid }
        var negative = false
        if p[i] == UInt8(ascii: "-") { negative = true; i += 1 } else if p[i] == UInt8(ascii: "+") { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var sawDigit = false
        while i < end, case let d = p[i] &- 48, d < 10 {
            sawDigit = true
            if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(d); if mantissa != 0 { digits += 1 } }
            else { exponent += 1 }
            i += 1
        }
        if i < end && p[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, case let d = p[i] &- 48, d < 10 {
                sawDigit = true
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(d); exponent -= 1; if mantissa != 0 { digits += 1 } }
                i += 1
            }
        }
        guard sawDigit else { return spelledOut(p, start, end) }
        if i < end && (p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E")) {
            i += 1
            var expNegative = false
            if i < end && (p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+")) { expNegative = p[i] == UInt8(ascii: "-"); i += 1 }
            var e = 0
            var sawExp = false
            while i < end, case let d = p[i] &- 48, d < 10 { sawExp = true; if e < 10_000 { e = e * 10 + Int(d) }; i += 1 }
            guard sawExp else { return .invalid }
            exponent += expNegative ? -e : e
        }
        guard i == end else { return .invalid }
        if digits < 19 && mantissa < (1 << 53) && exponent >= -22 && exponent <= 22 {
            var v = Double(mantissa)
            v = exponent < 0 ? v / powersOfTen[-exponent] : v * powersOfTen[exponent]
            return .number(negative ? -v : v)
        }
        return slowPath(p, start, end)
    }

    private static func spelledOut(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Result {
        var s = ""
        for k in start..<min(end, start + 12) { s.append(Character(Unicode.Scalar(p[k] | 0x20))) }
        let t = s.trimmingPrefix(while: { $0 == "-" || $0 == "+" })
        return ["nan", "inf", "infinity"].contains(String(t)) ? .notFinite : .invalid
    }

    private static func slowPath(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Result {
        var buffer = [CChar](repeating: 0, count: end - start + 1)
        for k in start..<end { buffer[k - start] = CChar(bitPattern: p[k]) }
        var endPtr: UnsafeMutablePointer<CChar>? = nil
        let v = buffer.withUnsafeMutableBufferPointer { b -> Double in
            let r = strtod(b.baseAddress!, &endPtr)
            return endPtr == b.baseAddress! + (end - start) ? r : .nan
        }
        if v.isNaN { return .invalid }
        return v.isFinite ? .number(v) : .notFinite
    }
}

extension StringProtocol {
    func trimmingPrefix(while predicate: (Character) -> Bool) -> SubSequence {
        var s = self[...]
        while let f = s.first, predicate(f) { s = s.dropFirst() }
        return s
    }
}
