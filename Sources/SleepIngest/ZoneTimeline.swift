import Foundation
import SleepCore

/// Turns a zone name into a ``UTCOffsetTimeline``: an IANA zone with its DST transitions
/// (1970–2100), or a fixed UTC offset (``ZoneName/fixedOffsetSeconds(_:)``: `UTC+01:00`, `+0100`,
/// `GMT-3` …), which has none.
public enum ZoneTimeline {
    public static func timeline(identifier: String) -> UTCOffsetTimeline? {
        if let offset = ZoneName.fixedOffsetSeconds(identifier) { return .fixed(offset) }
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        let start = Date(timeIntervalSince1970: 0)
        let stop = Date(timeIntervalSince1970: 4_102_444_800) // 2100-01-01
        var transitions: [UTCOffsetTimeline.Transition] = []
        var cursor = start
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < stop {
            transitions.append(.init(utcSecond: Int64(next.timeIntervalSince1970.rounded()),
                                     offsetSeconds: Int32(zone.secondsFromGMT(for: next))))
            cursor = next
        }
        return UTCOffsetTimeline(initialOffsetSeconds: Int32(zone.secondsFromGMT(for: start)), transitions: transitions)
    }

    /// A `--tz` value that names no zone, with the nearest real zone ids.
    public struct UnknownZone: Error, CustomStringConvertible, Sendable {
        public var text: String
        public var suggestions: [String]
        public var description: String {
            let hint = suggestions.isEmpty ? "" : " (did you mean \(suggestions.joined(separator: " or "))?)"
            return "unknown time zone '\(PrintableText.escaped(text))'\(hint): expected an IANA name such as Europe/Berlin (with its DST rules) "
                + "or a fixed UTC offset such as +01:00, -05:30, +0100, UTC+1 or GMT-3 (no DST)"
        }
    }

    /// The zone name to store for a `--tz` value: a fixed offset's one spelling (`UTC+01:00`, `UTC`
    /// for zero), else the IANA name as given. A name that is a real zone but for case
    /// (`europe/berlin`, which a case-insensitive file system may open) is refused with the real
    /// spelling suggested, so a run's zone is spelled the same on every system.
    public static func optionZone(_ text: String) throws(UnknownZone) -> String {
        if let offset = ZoneName.fixedOffsetSeconds(text) { return ZoneName.fixedOffsetName(offset) }
        let known = TimeZone.knownTimeZoneIdentifiers
        if TimeZone(identifier: text) != nil, known.contains(text) || !known.contains(where: { $0.lowercased() == text.lowercased() }) {
            return text
        }
        throw UnknownZone(text: text, suggestions: ZoneName.suggestions(for: text, among: known))
    }
}
