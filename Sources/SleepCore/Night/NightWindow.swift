/// One night of a recording: local noon of `date` to local noon of the next day.
///
/// Nights are assigned on the recording's local clock, so a DST night is 23 h (spring) or 25 h
/// (autumn) of UTC time; `endUTC - startUTC` says which.
public struct NightWindow: Sendable, Hashable, Codable {
    /// The evening's local date (the night of 2024-03-30 runs from its noon to 2024-03-31 noon).
    public var date: CivilDate
    public var startUTC: Int64
    public var endUTC: Int64

    public init(date: CivilDate, startUTC: Int64, endUTC: Int64) {
        self.date = date; self.startUTC = startUTC; self.endUTC = endUTC
    }

    public var durationSeconds: Int64 { endUTC - startUTC }
}

/// Splits a series into nights, noon to noon on the local clock.
public enum NightSplitter {
    public static let noonSeconds: Int64 = 12 * 3600

    /// The night (by its evening date) that contains a UTC instant.
    public static func nightDate(atUTC second: Int64, timeline: UTCOffsetTimeline) -> CivilDate {
        let local = timeline.localSecond(atUTC: second)
        return CivilDate(daysSinceEpoch: LocalClock.floorDiv(local - noonSeconds, 86_400))
    }

    /// The window of the night of `date`.
    public static func window(for date: CivilDate, timeline: UTCOffsetTimeline) -> NightWindow {
        let startLocal = date.daysSinceEpoch * 86_400 + noonSeconds
        let endLocal = startLocal + 86_400
        return NightWindow(date: date, startUTC: timeline.utcSecond(atLocal: startLocal),
                           endUTC: timeline.utcSecond(atLocal: endLocal))
    }

    /// Every night that holds at least one covered second of `series`, in order.
    public static func nights(in series: SecondSeries, timeline: UTCOffsetTimeline) -> [NightWindow] {
        guard let span = series.dataSpan else { return [] }
        var result: [NightWindow] = []
        var date = nightDate(atUTC: span.first, timeline: timeline)
        while true {
            let w = window(for: date, timeline: timeline)
            if w.startUTC >= span.end { break }
            let lo = Int(max(w.startUTC, series.startSecond) - series.startSecond)
            let hi = Int(min(w.endUTC, series.endSecond) - series.startSecond)
            if hi > lo, series.sampleCounts[lo..<hi].contains(where: { $0 > 0 }) { result.append(w) }
            date = date.adding(days: 1)
        }
        return result
    }
}
