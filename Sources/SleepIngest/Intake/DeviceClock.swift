import SleepCore

/// How a reader turns the times a file writes into UTC, and which time zone the nights use.
///
/// Wearables (ActiGraph, Axivity, GENEActiv) write their own clock, set to local time when the
/// device was configured; that clock runs on without DST jumps. So one offset, taken at the first
/// sample, converts the whole recording: `utc = local − offset`. The offset comes from the file
/// (ActiGraph's `TimeZone`, GENEActiv's `Time Zone`) where it states one: a zone the file states
/// wins over `--tz` (``ZoneChoice``). Else from `--tz` (the zone's offset at the first sample),
/// else 0 with the recording marked `assumed-utc` and a warning.
struct DeviceClock {
    private let path: String
    private let option: String?
    private let optionTimeline: UTCOffsetTimeline?
    private let statedOffset: Int32?

    /// - Parameter statedAt: where the file states its offset (a header line, an `info.txt` key), for the error.
    init(path: String, options: IngestOptions, statedOffsetSeconds: Int32?, statedAt: (line: Int?, field: String?) = (nil, nil)) throws(IngestError) {
        // UTC offsets run from −12:00 to +14:00; a header beyond ±14:00 is damaged, and taking it
        // would shift every time by days and print offsets no parser accepts.
        if let o = statedOffsetSeconds, o.magnitude > 14 * 3600 {   // magnitude: abs(Int32.min) traps
            throw IngestError(file: path, line: statedAt.line, path: statedAt.field,
                              message: "the file states the UTC offset \(UTCOffsetTimeline.formatOffset(o)): beyond ±14:00, a damaged time-zone header")
        }
        self.path = path
        option = options.timeZoneIdentifier
        statedOffset = statedOffsetSeconds
        if let id = options.timeZoneIdentifier {
            guard let tl = ZoneTimeline.timeline(identifier: id) else {
                throw IngestError(file: path, message: "unknown time zone '\(id)': expected an IANA name such as Europe/Berlin")
            }
            optionTimeline = tl
        } else {
            optionTimeline = nil
        }
    }

    /// The offset (seconds east of UTC) of the device clock, fixed at the recording's first local second.
    func offset(atFirstLocalSecond local: Int64) -> Int64 {
        if let statedOffset { return Int64(statedOffset) }
        if let optionTimeline { return local - optionTimeline.utcSecond(atLocal: local) }
        return 0
    }

    /// The zone of the nights, once the samples are read (`series` gives the span where `--tz`
    /// is compared with what the file states).
    func zone(for series: SecondSeries) throws(IngestError) -> ZoneChoice {
        try ZoneChoice(path: path, option: option, stated: statedOffset.map(UTCOffsetTimeline.fixed),
                       span: series.dataSpan.map { ($0.first, $0.end - 1) },
                       noneWarning: "the file states no time zone and no --tz was given: the device clock is taken as UTC")
    }
}

extension IngestError {
    static func rejection(_ message: String, path: String, line: Int?, byteOffset: Int?) -> IngestError {
        IngestError(file: path, line: line, byteOffset: line == nil ? byteOffset : nil, message: message)
    }

    static func message<S>(for r: SampleIntake<S>.Rejection) -> String {
        switch r {
        case .backwards(let s):
            return "time goes backwards (\(String(format1: -s)) s): timestamps must not decrease by more than \(Int(SampleIntake<S>.backwardToleranceSeconds)) s"
        case .implausibleTime(let t):
            return "time \(t) s since 1970 is not plausible (before 1970 or after the year 5000): a damaged timestamp or the wrong unit"
        case .spanTooLong(let days):
            return "timestamp is \(days) days after the first sample; a recording may span at most \(SecondAccumulator.maximumSpanSeconds / 86_400) days (corrupt timestamp?)"
        }
    }
}
