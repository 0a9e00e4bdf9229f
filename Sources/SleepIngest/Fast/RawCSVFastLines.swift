#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives the samples ``RawCSVFastLines`` parses, in file order.
protocol ParsedSampleConsumer {
    mutating func consume(timestamp: Double, x: Double, y: Double, z: Double)
}

/// The data rows of a `timestamp,x,y,z` CSV, parsed over a byte range with the same values, bit for
/// bit, as ``RawCSVReader``'s line parser, but about twice as fast on the common shape of a row.
///
/// Two paths per row:
/// - **strict**: `-?digits[.digits],` three times and `-?digits[.digits]\n`, at most 18 digits per
///   number. That covers what loggers write. The mantissa and the power of ten are those of
///   ``FastNumber`` (leading zeros cannot push a number out of its fast path here, since at most 18
///   digits are taken), and the value is the same single correctly rounded IEEE operation,
///   `mantissa / 10^k`, so the bits are identical.
/// - **general**: anything else (CR, spaces, quotes, `+`, exponents, long digit runs, a blank line):
///   the row is split and trimmed the way ``RawCSVReader`` does it and each field goes through
///   ``FastNumber`` itself.
///
/// Whatever ``RawCSVReader`` would refuse (wrong field count, a bad or non-finite number, an
/// implausible acceleration) stops the parse with ``Outcome/needsSerialReader``: the caller then
/// runs the serial reader, which reports the exact file and line. The fast path never phrases errors.
enum RawCSVFastLines {
    enum Outcome: Equatable {
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
    static func parse<Consumer: ParsedSampleConsumer>(
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
        while i < end {
            lines &+= 1
            if i < strictEnd {
                // Strict path: the four numbers, each ended by its separator.
                var k = i
                let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                let rawT: Double?
                if cacheValid && word == cachedWord {
                    rawT = strictDigits(p, from: i &+ 8, mantissa: cachedValue, digits: 8, &k, UInt8(ascii: ","), pow10)
                } else {
                    var m: UInt64 = 0
                    var j = 0
                    while j < 8, case let d = p[i &+ j] &- 48, d < 10 { m = m &* 10 &+ UInt64(d); j &+= 1 }
                    if j == 8 { cachedWord = word; cachedValue = m; cacheValid = true }
                    rawT = strictNumber(p, &k, UInt8(ascii: ","), pow10)
                }
                guard let rawT,
                      let x = strictNumber(p, &k, UInt8(ascii: ","), pow10),
                      let y = strictNumber(p, &k, UInt8(ascii: ","), pow10),
                      let z = strictNumber(p, &k, UInt8(ascii: "\n"), pow10)
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

    /// One number of the strict shape followed by `terminator`; advances `k` past the terminator.
    ///
    /// A plain digit loop: on rows of one shape its branches are predicted, so the core runs ahead
    /// across fields and rows. (An eight-digits-at-a-time SWAR conversion measured about 35 %
    /// slower here: every field's length then becomes a data dependency of the next load.) The
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
    static func general<Consumer: ParsedSampleConsumer>(
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
