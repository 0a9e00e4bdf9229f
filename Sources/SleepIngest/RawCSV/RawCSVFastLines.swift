#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives the samples ``RawCSVFastLines`` parses, in file order.
package protocol ParsedSampleConsumer {
    mutating func consume(timestamp: Double, x: Double, y: Double, z: Double)
}

/// A consumer that can refuse to go on (checked after each chunk by
/// ``ParallelRawCSVReader/fusedSerial(_:head:chunkCount:chunkBytes:consumer:)``).
protocol StoppingSampleConsumer: ParsedSampleConsumer {
    var stopped: Bool { get }
}

/// The data rows of a `timestamp,x,y,z` CSV, parsed over a byte range with the same values, bit for
/// bit, as ``RawCSVReader``'s line parser, but about twice as fast on the common shape of a row.
///
/// Two paths per row:
/// - **strict**: `-?digits[.digits],` three times and `-?digits[.digits]\n`, at most 18 digits per
///   number. That covers what loggers write. The mantissa and the power of ten are those of
///   ``FastNumber`` (leading zeros cannot push a number out of its fast path here, since at most 18
///   digits are taken), and the value is the same single correctly rounded IEEE operation,
///   `mantissa / 10^k`, so the bits are identical. Each field is first tried against its
///   ``FieldShape`` (the layout the previous rows used: one 8-byte load, checked and converted
///   with a few integer operations); when the layout changes, a character loop reads the field
///   and learns the new shape.
/// - **general**: anything else (CR, spaces, quotes, `+`, exponents, long digit runs, a blank line):
///   the row is split and trimmed the way ``RawCSVReader`` does it and each field goes through
///   ``FastNumber`` itself.
///
/// Whatever ``RawCSVReader`` would refuse (wrong field count, a bad or non-finite number, an
/// implausible acceleration) stops the parse with ``Outcome/needsSerialReader``: the caller then
/// runs the serial reader, which reports the exact file and line. The fast path never phrases errors.
package enum RawCSVFastLines {
    package enum Outcome: Equatable {
        case finished(lines: Int)
        case needsSerialReader
    }

    /// Longest stretch the strict path can read from a row's start (4 fields of sign, 19 digits,
    /// point and terminator, with room to spare): rows closer than this to `end` take the general
    /// path, which never reads past `end`.
    static let strictReach = 4 * 24

    /// Parses the complete rows in `[start, end)` (the last one may lack its newline only when `end`
    /// is the end of the file). `secondsPerUnit` turns the timestamp into seconds, as fixed by the
    /// file's first data row.
    @inline(__always)
    package static func parse<Consumer: ParsedSampleConsumer>(
        _ p: UnsafePointer<UInt8>, from start: Int, to end: Int, secondsPerUnit factor: Double, into consumer: inout Consumer
    ) -> Outcome {
        let limit = RawCSVReader.implausibleG
        var i = start
        var lines = 0
        let strictEnd = end - strictReach
        let pow10 = FastNumber.powersOfTenPointer
        // Consecutive timestamps share their leading digits ("17183232" for 100 s of epoch
        // seconds): when a row's first 8 bytes equal the last 8 leading digits converted, their
        // value is reused. Same digits, same mantissa, same result; about a fifth less work.
        var cachedWord: UInt64 = 0
        var cachedValue: UInt64 = 0
        var cacheValid = false
        // Each field's shape as the last rows wrote it (``FieldShape``): the timestamp's characters
        // after its 8 cached leading digits, then x, y and z.
        var tail = FieldShape(), sx = FieldShape(), sy = FieldShape(), sz = FieldShape()
        while i < end {
            lines &+= 1
            if i < strictEnd {
                // Strict path: the four numbers, each ended by its separator.
                var k = i
                let word = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
                var rawT: Double?
                if cacheValid && word == cachedWord {
                    let rest = UInt64(littleEndian: UnsafeRawPointer(p + (i &+ 8)).loadUnaligned(as: UInt64.self))
                    if let m = tail.mantissa(rest) {
                        // At most 8 + 7 digits: below 2^53, as strictDigits requires.
                        rawT = Double(Int64(bitPattern: cachedValue &* tail.scale &+ m)) / tail.divisor
                        k = i &+ 8 &+ tail.length &+ 1
                    } else {
                        rawT = learnTail(p, from: i, cached: cachedValue, &k, &tail, pow10)
                    }
                } else {
                    var m: UInt64 = 0
                    var j = 0
                    while j < 8, case let d = p[i &+ j] &- 48, d < 10 { m = m &* 10 &+ UInt64(d); j &+= 1 }
                    if j == 8 { cachedWord = word; cachedValue = m; cacheValid = true }
                    rawT = strictNumber(p, &k, UInt8(ascii: ","), pow10)
                }
                guard let rawT,
                      let x = shapedNumber(p, &k, &sx, UInt8(ascii: ","), pow10),
                      let y = shapedNumber(p, &k, &sy, UInt8(ascii: ","), pow10),
                      let z = shapedNumber(p, &k, &sz, UInt8(ascii: "\n"), pow10)
                else {
                    guard let next = general(p, from: i, to: end, factor: factor, into: &consumer) else { return .needsSerialReader }
                    i = next
                    continue
                }
                guard abs(x) <= limit, abs(y) <= limit, abs(z) <= limit else { return .needsSerialReader }
                consumer.consume(timestamp: rawT * factor, x: x, y: y, z: z)
                i = k
            } else {
                guard let next = general(p, from: i, to: end, factor: factor, into: &consumer) else { return .needsSerialReader }
                i = next
            }
        }
        return .finished(lines: lines)
    }

    /// One number of the strict shape followed by `terminator`, read through the field's
    /// ``FieldShape`` when it still fits (the common case) and by ``strictNumber`` otherwise, which
    /// then teaches the shape for the next rows. Same value either way.
    @inline(__always)
    static func shapedNumber(_ p: UnsafePointer<UInt8>, _ k: inout Int, _ shape: inout FieldShape, _ terminator: UInt8,
                             _ pow10: UnsafePointer<Double>) -> Double? {
        let negative = p[k] == UInt8(ascii: "-")
        let s = k &+ (negative ? 1 : 0)
        let word = UInt64(littleEndian: UnsafeRawPointer(p + s).loadUnaligned(as: UInt64.self))
        if let m = shape.mantissa(word) {
            k = s &+ shape.length &+ 1
            // At most 7 digits: the same single IEEE operation as strictDigits.
            let v = Double(Int64(bitPattern: m)) / shape.divisor
            return Double(bitPattern: v.bitPattern | (negative ? 1 << 63 : 0))
        }
        return learnShape(p, &k, &shape, terminator, pow10)
    }

    /// The timestamp's characters after its 8 cached leading digits, by the character loop, and
    /// their shape for the next rows.
    @inline(never)
    static func learnTail(_ p: UnsafePointer<UInt8>, from i: Int, cached: UInt64, _ k: inout Int, _ tail: inout FieldShape,
                          _ pow10: UnsafePointer<Double>) -> Double? {
        guard let v = strictDigits(p, from: i &+ 8, mantissa: cached, digits: 8, &k, UInt8(ascii: ","), pow10) else { return nil }
        tail = FieldShape(p, from: i &+ 8, length: k &- 9 &- i, terminator: UInt8(ascii: ","))
        return v
    }

    /// The character loop for a field that left its shape (or has none yet), and the field's
    /// shape for the next rows. Out of line, so that the row loop stays small.
    @inline(never)
    static func learnShape(_ p: UnsafePointer<UInt8>, _ k: inout Int, _ shape: inout FieldShape, _ terminator: UInt8,
                           _ pow10: UnsafePointer<Double>) -> Double? {
        let s = k &+ (p[k] == UInt8(ascii: "-") ? 1 : 0)
        guard let v = strictNumber(p, &k, terminator, pow10) else { return nil }
        shape = FieldShape(p, from: s, length: k &- 1 &- s, terminator: terminator)
        return v
    }

    /// One number of the strict shape followed by `terminator`; advances `k` past the terminator.
    ///
    /// A plain digit loop: on rows of one shape its branches are predicted, so the core runs ahead
    /// across fields and rows. (A SWAR conversion that finds each field's length in its bytes
    /// measured about 35 % slower here: every field's length then becomes a data dependency of the
    /// next load. ``FieldShape`` avoids that by taking the length from the rows before.) The
    /// sign is branch-free (it is random in acceleration data, so a branch would be mispredicted
    /// half the time), and the arithmetic wraps (`&+`): the counts are bounded by the loop caps, so
    /// the overflow checks Swift would add could never fire.
    @inline(__always)
    static func strictNumber(_ p: UnsafePointer<UInt8>, _ k: inout Int, _ terminator: UInt8,
                             _ pow10: UnsafePointer<Double>) -> Double? {
        let negative = p[k] == UInt8(ascii: "-")
        guard let v = strictDigits(p, from: k &+ (negative ? 1 : 0), mantissa: 0, digits: 0, &k, terminator, pow10) else { return nil }
        let signBit: UInt64 = negative ? 1 << 63 : 0
        return Double(bitPattern: v.bitPattern | signBit)
    }

    /// The digits from `start` on, continuing a mantissa that already holds `digits0` digits.
    @inline(__always)
    static func strictDigits(_ p: UnsafePointer<UInt8>, from start: Int, mantissa m0: UInt64, digits digits0: Int,
                             _ k: inout Int, _ terminator: UInt8, _ pow10: UnsafePointer<Double>) -> Double? {
        var i = start
        var mantissa = m0
        var digits = digits0
        // At most 19 digits are read (which also bounds how far a run of digits is followed).
        while digits < 19, case let d = p[i] &- 48, d < 10 { mantissa = mantissa &* 10 &+ UInt64(d); digits &+= 1; i &+= 1 }
        var fractionDigits = 0
        if p[i] == UInt8(ascii: ".") {
            i &+= 1
            while digits < 19, case let d = p[i] &- 48, d < 10 {
                mantissa = mantissa &* 10 &+ UInt64(d); digits &+= 1; fractionDigits &+= 1; i &+= 1
            }
        }
        // At most 18 digits (fewer than FastNumber's 19 significant ones, so leading zeros cannot
        // matter) and below 2^53: FastNumber's fast path, the same single IEEE operation.
        guard digits > 0, digits <= 18, mantissa < (1 << 53), p[i] == terminator else { return nil }
        k = i &+ 1
        // Below 2^53, so the signed conversion (one instruction) gives the same value.
        let v = Double(Int64(bitPattern: mantissa))
        return fractionDigits > 0 ? v / pow10[fractionDigits] : v
    }

    /// One row by ``RawCSVReader``'s own rules (CR stripped, blank rows skipped, fields trimmed of
    /// spaces and tabs and of one pair of quotes, ``FastNumber`` per field). Returns the offset of
    /// the next row, or nil where the serial reader would stop with an error.
    package static func general<Consumer: ParsedSampleConsumer>(
        _ p: UnsafePointer<UInt8>, from start: Int, to limitEnd: Int, factor: Double, into consumer: inout Consumer
    ) -> Int? {
        let lineEnd: Int
        let next: Int
        if let nl = memchr(p + start, Int32(UInt8(ascii: "\n")), limitEnd - start) {
            lineEnd = p.distance(to: nl.assumingMemoryBound(to: UInt8.self))
            next = lineEnd + 1
        } else {
            lineEnd = limitEnd
            next = limitEnd
        }
        var end = lineEnd
        if end > start && p[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        if end == start { return next }   // blank row: skipped, as the serial reader does
        var values: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var fieldStart = start
        var fieldIndex = 0
        var i = start
        while i <= end {
            if i == end || p[i] == UInt8(ascii: ",") {
                var a = fieldStart, b = i
                while a < b && (p[a] == 32 || p[a] == 9) { a += 1 }
                while b > a && (p[b - 1] == 32 || p[b - 1] == 9) { b -= 1 }
                if b - a >= 2 && p[a] == 34 && p[b - 1] == 34 { a += 1; b -= 1 }
                guard fieldIndex < 4, case .number(let v) = FastNumber.parse(p, a, b) else { return nil }
                switch fieldIndex {
                case 0: values.0 = v
                case 1: values.1 = v
                case 2: values.2 = v
                default: values.3 = v
                }
                fieldIndex += 1
                fieldStart = i + 1
            }
            i += 1
        }
        let limit = RawCSVReader.implausibleG
        guard fieldIndex == 4, abs(values.1) <= limit, abs(values.2) <= limit, abs(values.3) <= limit else { return nil }
        consumer.consume(timestamp: values.0 * factor, x: values.1, y: values.2, z: values.3)
        return next
    }
}

extension FastNumber {
    /// ``FastNumber/powersOfTen`` as a pointer that lives as long as the process, so hot loops
    /// index it without the array's lazy-initialisation check and bounds checks.
    nonisolated(unsafe) static let powersOfTenPointer: UnsafePointer<Double> = {
        let p = UnsafeMutablePointer<Double>.allocate(capacity: powersOfTen.count)
        p.initialize(from: powersOfTen, count: powersOfTen.count)
        return UnsafePointer(p)
    }()
}

/// The shape of one field as the last rows wrote it: sign aside, how many characters of digits and
/// where the decimal point is, and the terminator after them. Loggers write fixed decimals, so a
/// field keeps its shape from row to row and can be read in one 8-byte load instead of a loop over
/// its characters:
/// - **check**: the 8 bytes at the field (after an optional '-') are XORed with the expected
///   pattern ('0' at digit bytes, '.' at the point, the terminator after the last character); the
///   result must be 0 at the point and the terminator and 0–9 at the digit bytes (high nibble 0,
///   and adding 6 does not carry into it); bytes past the terminator are not looked at.
/// - **convert**: the digit bytes, with the point's byte squeezed out, are moved to the top of the
///   word and turned into one integer with three multiplications (the eight-digit SWAR conversion
///   of fast_float / simdjson, Lemire 2021, "Number parsing at a gigabyte per second").
/// The value is then what ``RawCSVFastLines/strictNumber`` gives: the same mantissa (at most 7
/// digits here) divided by the same power of ten, one correctly rounded IEEE operation.
///
/// Why: the character loop costs 10–12 instructions a character (load, subtract, compare,
/// branch, the multiply-add, the index and its cap); this costs about 40 a field, and the only
/// chain from one field to the next is the sign byte. Counted with callgrind on the benchmark's
/// rows (`1718323200.00,0.0477,-0.9763,0.1792`): 441 instructions a row before, 226 with shapes;
/// one core parses about 30 % more bytes a second. (A division-free quotient, multiplying by the
/// reciprocal and correcting with an exact integer residual, was tried and was slower: the
/// division is one instruction, and the correction's 20 cycles of latency stalled the row loop.)
package struct FieldShape {
    /// Characters of digits and point (without sign and terminator).
    package var length = 0
    var expected: UInt64 = 0
    /// 0xFF at the point and the terminator, 0xF0 at digit bytes, 0 past the terminator.
    /// Without a shape (the initial value), byte 0 must both equal 0 and differ from it, so that
    /// no word fits and the character loop reads the field.
    var exact: UInt64 = 0xFF
    /// 0x06 and 0xF0 at digit bytes (the "at most 9" test).
    var six: UInt64 = 0x10
    var high: UInt64 = 0xF0
    /// 0x0F at digit bytes before the point (all digits when there is none), and after it.
    var integerDigits: UInt64 = 0
    var fractionDigits: UInt64 = 0
    /// Left shift that puts the last digit into the top byte once the point is squeezed out.
    var shift: UInt64 = 0
    /// 10^(fraction digits), exact; 1 without a point (dividing by 1 changes nothing).
    package var divisor = 1.0
    /// 10^(digits in the field), to append them to the timestamp's cached leading digits.
    var scale: UInt64 = 1

    package init() {}

    /// The shape of the field `[start, start + length)` ended by `terminator`, or the empty shape
    /// when it cannot be one (longer than 7 characters, no digit, anything but digits and one point).
    package init(_ p: UnsafePointer<UInt8>, from start: Int, length: Int, terminator: UInt8) {
        guard length >= 1, length <= 7 else { return }
        var point = -1
        var digits = 0
        for j in 0..<length {
            let c = p[start &+ j]
            if c == UInt8(ascii: ".") && point < 0 { point = j }
            else if c &- 48 < 10 { digits += 1 }
            else { return }
        }
        guard digits > 0 else { return }
        var expected: UInt64 = 0, exact: UInt64 = 0, six: UInt64 = 0, high: UInt64 = 0
        var integerDigits: UInt64 = 0, fractionDigits: UInt64 = 0
        for j in 0..<length {
            let b = UInt64(8 * j)
            if j == point {
                expected |= UInt64(UInt8(ascii: ".")) << b; exact |= 0xFF << b
            } else {
                expected |= 0x30 << b; exact |= 0xF0 << b; six |= 0x06 << b; high |= 0xF0 << b
                if point < 0 || j < point { integerDigits |= 0x0F << b } else { fractionDigits |= 0x0F << b }
            }
        }
        expected |= UInt64(terminator) << UInt64(8 * length); exact |= 0xFF << UInt64(8 * length)
        self.length = length
        self.expected = expected; self.exact = exact; self.six = six; self.high = high
        self.integerDigits = integerDigits; self.fractionDigits = fractionDigits
        // Squeezing moves the integer digits up one byte, so the digits end at byte `length - 1`
        // with a point and at byte `length` without (the shift of the integer digits applies either way).
        let lastByte = point < 0 ? length : length - 1
        shift = UInt64(8 * (7 - lastByte))
        let fraction = point < 0 ? 0 : length - 1 - point
        divisor = FastNumber.powersOfTen[fraction]
        var s: UInt64 = 1
        for _ in 0..<digits { s *= 10 }
        scale = s
    }

    /// The field's digits as an integer when `word` (the 8 bytes at the field, after its sign) has
    /// this shape; nil otherwise.
    @inline(__always)
    package func mantissa(_ word: UInt64) -> UInt64? {
        let t = word ^ expected
        guard (t & exact) | ((t &+ six) & high) == 0 else { return nil }
        var v = (((t & integerDigits) &<< 8) | (t & fractionDigits)) &<< shift
        // Eight digit bytes (first digit lowest) to their value.
        v = ((v & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
        v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        return ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
    }
}
