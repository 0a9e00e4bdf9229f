import SleepCore

/// Number formatting shared by pages (fixed decimals, no locale: reports are reproducible).
public enum NumberText {
    public static func minutes(_ v: Double?) -> String {
        // A value beyond an Int (1e300 minutes from a file) is not shown as a number.
        guard let v, v.isFinite, let total = Int(exactly: v.rounded()) else { return "–" }
        return total >= 60 ? "\(total / 60) h \(total % 60) min" : "\(total) min"
    }
    static func fixed(_ v: Double?, _ decimals: Int) -> String {
        guard let v, v.isFinite else { return "–" }
        var p = 1.0
        for _ in 0..<decimals { p *= 10 }
        let r = (v * p).rounded() / p
        var s = String(r)
        if decimals == 0 { return Int(exactly: r).map { String($0) } ?? String(format: "%.0f", r) }
        if let dot = s.firstIndex(of: ".") {
            let have = s.distance(from: dot, to: s.endIndex) - 1
            if have < decimals { s += String(repeating: "0", count: decimals - have) }
        }
        return s
    }
    /// Minutes to a tenth (`531.5 min`): epochs of 30 s and 15 s are not whole minutes.
    static func tenthsOfMinutes(_ v: Double?) -> String {
        guard let v, v.isFinite else { return "–" }
        return fixed(v, 1) + " min"
    }
    /// A signed difference (`+0.0`, `−12.5`).
    static func signedFixed(_ v: Double, _ decimals: Int) -> String {
        let t = fixed(abs(v), decimals)
        return (v < 0 && t.contains(where: { $0 != "0" && $0 != "." }) ? "−" : "+") + t
    }
    /// A signed difference in minutes to a tenth (`+0.0 min`).
    static func signedMinutes(_ v: Double) -> String { signedFixed(v, 1) + " min" }
    static func clock(_ utc: Int64?, _ timeline: UTCOffsetTimeline) -> String {
        guard let utc else { return "–" }
        return LocalClock.hhmm(localSecond: timeline.localSecond(atUTC: utc))
    }
}
