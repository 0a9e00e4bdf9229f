/// The UTC offsets in force over a recording, as a step function of UTC time.
///
/// Timestamps are UTC everywhere in sleepsta; this timeline is how local clock time (night
/// assignment, clock-aligned intervals, chart axes) is derived, including across DST changes.
/// Built by Ingest from the data's own offsets or from an IANA zone (`--tz`).
public struct UTCOffsetTimeline: Sendable, Hashable, Codable {
    public struct Transition: Sendable, Hashable, Codable {
        /// First UTC second at which `offsetSeconds` applies.
        public var utcSecond: Int64
        /// Local time minus UTC, in seconds (e.g. +3600 for CET).
        public var offsetSeconds: Int32
        public init(utcSecond: Int64, offsetSeconds: Int32) {
            self.utcSecond = utcSecond; self.offsetSeconds = offsetSeconds
        }
    }

    /// Offset before the first transition.
    public var initialOffsetSeconds: Int32
    /// Transitions in increasing UTC order.
    public var transitions: [Transition]

    public init(initialOffsetSeconds: Int32, transitions: [Transition] = []) {
        self.initialOffsetSeconds = initialOffsetSeconds
        self.transitions = transitions.sorted { $0.utcSecond < $1.utcSecond }
    }

    public static let utc = UTCOffsetTimeline(initialOffsetSeconds: 0)

    public static func fixed(_ offsetSeconds: Int32) -> UTCOffsetTimeline {
        UTCOffsetTimeline(initialOffsetSeconds: offsetSeconds)
    }

    public func offset(atUTC second: Int64) -> Int32 {
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitions[mid].utcSecond <= second { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? initialOffsetSeconds : transitions[lo - 1].offsetSeconds
    }

    /// Local wall-clock seconds since 1970-01-01T00:00 local.
    public func localSecond(atUTC second: Int64) -> Int64 { second + Int64(offset(atUTC: second)) }

    /// The UTC second at which the local clock reads `localSecond`. In a DST gap (a local time that
    /// never occurs) the transition instant that skipped it is returned; in an overlap, the first occurrence.
    public func utcSecond(atLocal localSecond: Int64) -> Int64 {
        var best: Int64? = nil
        var previous = initialOffsetSeconds
        for offset in [initialOffsetSeconds] + transitions.map(\.offsetSeconds) {
            let u = localSecond - Int64(offset)
            if self.offset(atUTC: u) == offset { best = min(best ?? u, u) }
        }
        if let best { return best }
        for t in transitions {
            if localSecond - Int64(t.offsetSeconds) < t.utcSecond && localSecond - Int64(previous) >= t.utcSecond {
                return t.utcSecond
            }
            previous = t.offsetSeconds
        }
        return localSecond - Int64(initialOffsetSeconds)
    }

    /// The timeline named by its offsets: `UTC+01:00` for one, `UTC+01:00/+02:00` for the offsets
    /// `span` (first and last UTC second; nil: the whole timeline) crosses. The name of a zone
    /// known only by the offsets a file states.
    public func offsetsName(over span: (first: Int64, last: Int64)? = nil) -> String {
        var offsets = [initialOffsetSeconds] + transitions.map(\.offsetSeconds)
        if let span {
            offsets = [offset(atUTC: span.first)]
                + transitions.filter { $0.utcSecond > span.first && $0.utcSecond <= span.last }.map(\.offsetSeconds)
        }
        var distinct: [Int32] = []
        for o in offsets where !distinct.contains(o) { distinct.append(o) }
        return "UTC" + distinct.map(Self.formatOffset).joined(separator: "/")
    }

    /// `+HH:MM` / `-HH:MM` for an offset.
    public static func formatOffset(_ offsetSeconds: Int32) -> String {
        let sign = offsetSeconds < 0 ? "-" : "+"
        let a = abs(Int(offsetSeconds))
        let h = a / 3600, m = (a % 3600) / 60
        return sign + (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
    }
}

/// Local clock arithmetic shared by night splitting, reports and exports.
public enum LocalClock {
    /// ISO 8601 with offset, e.g. `2024-03-30T23:10:00+01:00`.
    public static func iso8601(utcSecond: Int64, timeline: UTCOffsetTimeline) -> String {
        let offset = timeline.offset(atUTC: utcSecond)
        let local = utcSecond + Int64(offset)
        return isoLocal(localSecond: local) + UTCOffsetTimeline.formatOffset(offset)
    }

    /// `YYYY-MM-DDTHH:MM:SS` for a local wall-clock second.
    public static func isoLocal(localSecond local: Int64) -> String {
        let days = floorDiv(local, 86_400)
        let sod = Int(local - days * 86_400)
        return CivilDate(daysSinceEpoch: days).description + "T" + hhmmss(secondOfDay: sod)
    }

    /// `HH:MM` of a local wall-clock second.
    public static func hhmm(localSecond local: Int64) -> String {
        let sod = Int(local - floorDiv(local, 86_400) * 86_400)
        return String(hhmmss(secondOfDay: sod).prefix(5))
    }

    /// `HH:MM:SS` of a local wall-clock second.
    public static func hhmmss(localSecond local: Int64) -> String {
        hhmmss(secondOfDay: Int(local - floorDiv(local, 86_400) * 86_400))
    }

    static func hhmmss(secondOfDay sod: Int) -> String {
        let h = sod / 3600, m = (sod % 3600) / 60, s = sod % 60
        func p(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(p(h)):\(p(m)):\(p(s))"
    }

    @inlinable
    public static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
