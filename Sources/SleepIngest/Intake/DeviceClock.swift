import SleepCore

/// How a reader turns the times a file writes into UTC, and which time zone the nights use.
///
/// Wearables (ActiGraph, Axivity, GENEActiv) write their own clock, set to local time when the
/// device was configured; that clock runs on without DST jumps. So one offset, taken at the first
/// sample, converts the whole recording: `utc = local − offset`. The offset comes from `--tz`
/// (the zone's offset at the first sample), else from the file (ActiGraph's `TimeZone`, GENEActiv's
/// `Time Zone`), else 0 with the recording marked `assumed-utc` and a warning.
struct DeviceClock {
    let timeline: UTCOffsetTimeline
    let zoneName: String?
    let source: TimeZoneSource
    let warnings: [String]
    private let zoneTimeline: UTCOffsetTimeline?
    private let statedOffset: Int32?

    init(path: String, options: IngestOptions, statedOffsetSeconds: Int32?, statedZoneName: String? = nil) throws(IngestError) {
        statedOffset = statedOffsetSeconds
        if let id = options.timeZoneIdentifier {
            guard let tl = ZoneTimeline.timeline(identifier: id) else {
                throw IngestError(file: path, message: "unknown time zone '\(id)': expected an IANA name such as Europe/Berlin")
            }
            timeline = tl; zoneTimeline = tl; zoneName = id; source = .option; warnings = []
        } else if let name = statedZoneName, let tl = ZoneTimeline.timeline(identifier: name) {
            timeline = tl; zoneTimeline = tl; zoneName = name; source = .data; warnings = []
        } else if let o = statedOffsetSeconds {
            timeline = .fixed(o); zoneTimeline = nil; zoneName = nil; source = .data; warnings = []
        } else {
            timeline = .utc; zoneTimeline = nil; zoneName = nil; source = .assumedUTC
            warnings = ["the file states no time zone and no --tz was given: the device clock is taken as UTC"]
        }
    }

    /// The offset (seconds east of UTC) of the device clock, fixed at the recording's first local second.
    func offset(atFirstLocalSecond local: Int64) -> Int64 {
        if let zoneTimeline { return local - zoneTimeline.utcSecond(atLocal: local) }
        return Int64(statedOffset ?? 0)
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
