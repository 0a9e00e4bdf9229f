import Testing
import SleepIngest

/// The shape path of ``RawCSVFastLines`` (``FieldShape``: one 8-byte load per field) must give
/// exactly what the character loop and ``FastNumber`` give, row by row, whatever the mix of
/// shapes: fields that keep their layout, change it every row, grow past 7 characters, lose their
/// fraction or their integer part, and rows that leave the strict path altogether.
@Suite("Field shapes read what the character loop reads")
struct FieldShapeTests {
    /// Collects what a parse hands on.
    struct Collect: ParsedSampleConsumer {
        var rows: [[UInt64]] = []
        mutating func consume(timestamp: Double, x: Double, y: Double, z: Double) {
            rows.append([timestamp.bitPattern, x.bitPattern, y.bitPattern, z.bitPattern])
        }
    }

    struct Rng {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(n))
        }
    }

    /// A number written the way some logger might: sign, 0–2 integer digits, an optional point
    /// and 0–6 fraction digits; now and then a longer or odder spelling.
    static func number(_ rng: inout Rng, style: Int) -> String {
        let negative = rng.next(2) == 0
        var s = negative ? "-" : ""
        switch style {
        case 0: s += "0.\(String(format: "%04d", rng.next(10_000)))"                      // the common shape
        case 1: s += "\(rng.next(10)).\(String(format: "%04d", rng.next(10_000)))"
        case 2:
            // At most 2 integer digits, the first a zero, so that no value passes the reader's ±50 g limit.
            let intDigits = rng.next(3), fraction = rng.next(7)
            for d in 0..<intDigits { s += d == 0 && intDigits == 2 ? "0" : String(rng.next(10)) }
            if fraction > 0 || intDigits == 0 || rng.next(4) == 0 { s += "." }
            for _ in 0..<fraction { s += String(rng.next(10)) }
            if intDigits == 0 && fraction == 0 { s += "5" }
        case 3: s += "0.\(rng.next(100))"                                                  // trimmed zeros: lengths vary
        case 4: s += "0.123456789\(rng.next(10))"                                          // too long for a shape
        default: s += "\(rng.next(2))"                                                     // no point at all
        }
        return s
    }

    func check(seed: UInt64, rows: Int, odd: Bool) {
        var rng = Rng(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
        var text = ""
        var t = 1_718_323_200.0
        for i in 0..<rows {
            let style = i % 50 < 40 ? 0 : rng.next(6)
            let stampDecimals = i % 97 == 0 ? rng.next(4) : 2
            var stamp = String(format: "%.\(stampDecimals)f", t)
            if i % 131 == 0 { stamp = String(Int(t) % 10_000_000) }                      // short: no cached prefix
            t += 0.01
            var line = "\(stamp),\(Self.number(&rng, style: style)),\(Self.number(&rng, style: style)),\(Self.number(&rng, style: i % 7 == 0 ? 2 : style))"
            if odd && i % 211 == 0 { line += "\r" }                                        // general path
            if odd && i % 307 == 0 { line = "\(stamp),1e-3,+0.5,0.25" }
            text += line + "\n"
        }
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            let p = buffer.baseAddress!
            var fast = Collect()
            let outcome = RawCSVFastLines.parse(p, from: 0, to: bytes.count, secondsPerUnit: 1, into: &fast)
            // Row by row through the general path (FastNumber per field), which the strict path must equal.
            var reference = Collect()
            var i = 0
            while i < bytes.count {
                guard let next = RawCSVFastLines.general(p, from: i, to: bytes.count, factor: 1, into: &reference) else { break }
                i = next
            }
            #expect(outcome == .finished(lines: rows))
            #expect(fast.rows.count == reference.rows.count)
            var firstDifference: Int?
            for (k, (a, b)) in zip(fast.rows, reference.rows).enumerated() where a != b { firstDifference = k; break }
            #expect(firstDifference == nil, "row \(firstDifference ?? -1) differs")
        }
    }

    @Test("mixed shapes, bit for bit", arguments: [1, 2, 3, 4] as [UInt64])
    func mixed(seed: UInt64) { check(seed: seed, rows: 20_000, odd: false) }

    @Test("mixed shapes with rows for the general path in between")
    func withOddRows() { check(seed: 9, rows: 20_000, odd: true) }

    @Test("a shape is learned only from what it can read, and refuses everything else")
    func shapes() {
        func shape(_ s: String, _ terminator: UInt8 = UInt8(ascii: ",")) -> (FieldShape, UInt64) {
            var bytes = Array(s.utf8) + [terminator] + Array(repeating: UInt8(ascii: "9"), count: 8)
            let length = s.utf8.count
            let shape = bytes.withUnsafeMutableBufferPointer { FieldShape($0.baseAddress!, from: 0, length: length, terminator: terminator) }
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            return (shape, UInt64(littleEndian: word))
        }
        let (a, wa) = shape("0.0477")
        #expect(a.length == 6 && a.mantissa(wa) == 477 && a.divisor == 10_000)
        let (b, wb) = shape("1234567")
        #expect(b.length == 7 && b.mantissa(wb) == 1_234_567 && b.divisor == 1)
        let (c, wc) = shape(".5")
        #expect(c.mantissa(wc) == 5 && c.divisor == 10)
        let (d, wd) = shape("5.")
        #expect(d.mantissa(wd) == 5 && d.divisor == 1)
        #expect(shape("12345678").0.length == 0)      // 8 characters: the terminator would not fit the word
        #expect(shape("1.2.3").0.length == 0)
        #expect(shape(".").0.length == 0)
        #expect(shape("1e5").0.length == 0)
        // The same layout with another digit fits; anything else does not.
        func word(_ s: String) -> UInt64 {
            UInt64(littleEndian: (Array(s.utf8) + Array(repeating: 0, count: 8)).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
        }
        #expect(a.mantissa(word("9.9999,x")) == 99_999)
        #expect(a.mantissa(word("0.0477\n")) == nil)  // other terminator
        #expect(a.mantissa(word("0.047,")) == nil)    // shorter
        #expect(a.mantissa(word("0.04a7,")) == nil)
        #expect(a.mantissa(word("0:0477,")) == nil)
        #expect(a.mantissa(word("0.0:77,")) == nil)   // ':' is '9' + 1
        #expect(a.mantissa(word("0.0/77,")) == nil)   // '/' is '0' - 1
        // Without a shape nothing fits, not even a word of zero bytes.
        #expect(FieldShape().mantissa(0) == nil && FieldShape().mantissa(word("0.0477,")) == nil)
    }
}
