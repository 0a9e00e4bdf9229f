import Foundation
import SleepCore

/// Turns an IANA time zone into a ``UTCOffsetTimeline`` with its DST transitions (1970–2100).
public enum ZoneTimeline {
    public static func timeline(identifier: String) -> UTCOffsetTimeline? {
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
}
