import SleepCore

/// Timestamps as raw-sample files write them.
///
/// The kind is fixed by the first data row, and every later row must use the same kind: a file
/// that switches from seconds to milliseconds halfway is corrupt, not creative.
enum TimestampKind: Equatable, CustomStringConvertible {
    /// Numeric time since 1970-01-01 UTC; the factor turns it into seconds.
    case epoch(secondsPerUnit: Double, unitName: String)
    /// `YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM]`; offsets, when present, are kept per row.
    case iso8601

    var description: String {
        switch self {
        case .epoch(_, let unit): return "epoch \(unit)"
        case .iso8601: return "ISO 8601"
        }
    }

    /// The unit of a numeric epoch timestamp from its magnitude: plausible dates since 1973 in
    /// seconds are below 1e11, in milliseconds below 1e14, microseconds below 1e17, else nanoseconds.
    static func epochKind(forMagnitude v: Double) -> TimestampKind {
        let a = abs(v)
        if a < 1e11 { return .epoch(secondsPerUnit: 1, unitName: "seconds") }
        if a < 1e14 { return .epoch(secondsPerUnit: 1e-3, unitName: "milliseconds") }
        if a < 1e17 { return .epoch(secondsPerUnit: 1e-6, unitName: "microseconds") }
        return .epoch(secondsPerUnit: 1e-9, unitName: "nanoseconds")
    }
}

/// A parsed ISO 8601 timestamp: wall-clock seconds plus the stated offset, if any.
package struct ISOTimestamp: Equatable {
    /// Seconds since 1970-01-01T00:00 on the timestamp's own clock (not yet UTC unless offset is 0).
    package var localSeconds: Int64
    package var fraction: Double
    /// Offset stated in the text (`Z` = 0), nil when absent.
    var offsetSeconds: Int32?

    /// Parses `[start, end)`. Accepts `T` or a space between date and time.
    package static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> ISOTimestamp? {
        var i = start
        @inline(__always) func digits(_ n: Int) -> Int? {
            guard i + n <= end else { return nil }
            var v = 0
            for k in 0..<n { let d = Int(p[i + k]) - 48; guard d >= 0 && d <= 9 else { return nil }; v = v * 10 + d }
            i += n
            return v
        }
        @inline(__always) func expect(_ c: UInt8) -> Bool {
            guard i < end, p[i] == c else { return false }; i += 1; return true
        }
        guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
              let day = digits(2) else { return nil }
        guard i < end, p[i] == UInt8(ascii: "T") || p[i] == UInt8(ascii: " ") else { return nil }
        i += 1
        guard let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2), expect(UInt8(ascii: ":")),
              let second = digits(2) else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59, second <= 60 else { return nil }
        var fraction = 0.0
        if i < end && (p[i] == UInt8(ascii: ".") || p[i] == UInt8(ascii: ",")) {
            i += 1
            var scale = 0.1
            var any = false
            while i < end, case let d = Int(p[i]) - 48, d >= 0 && d <= 9 { fraction += Double(d) * scale; scale /= 10; i += 1; any = true }
            guard any else { return nil }
        }
        var offset: Int32? = nil
        // SensorLog writes `2024-06-15 00:50:00.000 +0200`: one space before the offset is accepted.
        if i + 1 < end && p[i] == UInt8(ascii: " ") && (p[i + 1] == UInt8(ascii: "+") || p[i + 1] == UInt8(ascii: "-")) { i += 1 }
        if i < end {
            if p[i] == UInt8(ascii: "Z") { offset = 0; i += 1 }
            else if p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") {
                let sign: Int32 = p[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard let oh = digits(2) else { return nil }
                var om = 0
                if i < end { _ = expect(UInt8(ascii: ":")); guard let m = digits(2) else { return nil }; om = m }
                offset = sign * Int32(oh * 3600 + om * 60)
            }
        }
        guard i == end else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        let local = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return ISOTimestamp(localSeconds: local, fraction: fraction, offsetSeconds: offset)
    }
}
