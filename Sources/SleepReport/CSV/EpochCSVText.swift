import SleepCore

/// Text of the epoch commands' CSV output: times on the recording's local clock, numbers without
/// spurious decimals.
public enum EpochCSVText {
    /// ISO 8601 local time of a UTC instant, with the offset when the recording's offset is known
    /// (`2012-06-27T23:54:00+02:00`), without it otherwise (`2012-06-27T23:54:00`). A sub-second
    /// start (epochs computed from raw samples that begin mid-second) gets milliseconds.
    public static func time(utcSecond: Int64, fraction: Double = 0, recording: EpochRecording) -> String {
        let offset = recording.timeline.offset(atUTC: utcSecond)
        var text = LocalClock.isoLocal(localSecond: utcSecond + Int64(offset))
        if fraction > 0 {
            let ms = Int((fraction * 1000).rounded())
            text += "." + String(String(1000 + min(ms, 999)).dropFirst())
        }
        if recording.hasKnownOffset { text += UTCOffsetTimeline.formatOffset(offset) }
        return text
    }

    /// A value as written in the input: whole numbers without a decimal point, others in Swift's
    /// shortest round-trip form; missing as an empty field.
    public static func number(_ v: Double?) -> String {
        guard let v, v.isFinite else { return "" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }

    /// Fixed decimals, as ActiLife prints its sleep statistics (halves away from zero).
    public static func fixed(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return "" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        // Beyond 10^15 the fixed-point arithmetic below would leave Int64: printed as C prints it.
        guard abs(v) * scale < 1e15 else { return String(format: "%.\(decimals)f", v) }
        let rounded = (v * scale).rounded(.toNearestOrAwayFromZero) / scale
        if decimals == 0 { return String(Int64(rounded)) }
        let negative = rounded < 0
        let units = Int64((abs(rounded) * scale).rounded())
        let whole = units / Int64(scale), part = units % Int64(scale)
        var partText = String(part)
        while partText.count < decimals { partText = "0" + partText }
        return (negative && units != 0 ? "-" : "") + "\(whole).\(partText)"
    }

    public static func line(_ fields: [String]) -> String { CSVFormat.line(fields) }
}
