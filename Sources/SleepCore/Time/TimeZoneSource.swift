/// Where the local time zone of a recording came from.
public enum TimeZoneSource: String, Sendable, Codable {
    /// `--tz` (an IANA zone, with its DST rules).
    case option = "option"
    /// The recording's own UTC offsets (ISO 8601 timestamps with offsets) or zone name.
    case data = "data"
    /// Nothing stated it: UTC was assumed and a warning printed.
    case assumedUTC = "assumed-utc"
}
