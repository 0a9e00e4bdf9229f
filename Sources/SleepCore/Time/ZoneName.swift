/// What `--tz` accepts besides an IANA zone name, and what it suggests for a name that is not one.
///
/// A fixed UTC offset is how Actiware and many exports state a recording's clock; it means one
/// offset for the whole recording, no DST. Its one stored spelling is ``fixedOffsetName(_:)``
/// (`UTC+01:00`, the name sleepsta already gives a file known only by its offsets), so `+0100` and
/// `UTC+1` given on two runs are the same zone and split no night again.
///
/// Pure: the list of real zone ids is the caller's (Foundation's `TimeZone.knownTimeZoneIdentifiers`).
public enum ZoneName {
    /// The largest offsets in use (UTC−12:00 … UTC+14:00).
    public static let offsetRange: ClosedRange<Int32> = -12 * 3600 ... 14 * 3600

    /// The offset (seconds east of UTC) a fixed-offset spelling names, nil for anything else (an
    /// IANA name included). Accepted: a sign and hours with optional minutes, `+01:00`, `-05:30`,
    /// `+0100`, `+01`, `+1`, optionally after `UTC` or `GMT` (any case): `UTC+1`, `GMT-3`,
    /// `UTC+05:45`. `GMT-3` is three hours behind UTC, as people write it, not the POSIX
    /// `Etc/GMT-3` (an IANA name, three hours ahead). Minutes 0–59, offsets within ``offsetRange``.
    public static func fixedOffsetSeconds(_ text: String) -> Int32? {
        var rest = Substring(text)
        let head = rest.prefix(3).uppercased()
        if head == "UTC" || head == "GMT" { rest = rest.dropFirst(3) }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        rest = rest.dropFirst()
        let digits: Substring
        if let colon = rest.firstIndex(of: ":") {
            let h = rest[..<colon], m = rest[rest.index(after: colon)...]
            guard (1...2).contains(h.count), m.count == 2 else { return nil }
            digits = (h.count == 1 ? "0" : "") + h + m
        } else {
            switch rest.count {
            case 1, 2: digits = (rest.count == 1 ? "0" : "") + rest + "00"
            case 4: digits = rest
            default: return nil
            }
        }
        guard digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let hours = Int32(digits.prefix(2)), let minutes = Int32(digits.suffix(2)), minutes < 60 else { return nil }
        let seconds = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        return offsetRange.contains(seconds) ? seconds : nil
    }

    /// The stored name of a fixed offset: `UTC+01:00`, `UTC-05:30`; `UTC` for zero.
    public static func fixedOffsetName(_ offsetSeconds: Int32) -> String {
        offsetSeconds == 0 ? "UTC" : "UTC" + UTCOffsetTimeline.formatOffset(offsetSeconds)
    }

    /// The real zone ids nearest to `text`, best first (at most `limit`), for "did you mean …?".
    /// First the ids equal to it but for case (`europe/berlin`); else the ids whose city part
    /// (after the last `/`) is it, case and spaces aside (`Berlin`, `new york`); else the ids at the
    /// smallest edit distance (insertions, deletions, substitutions and swaps of two neighbouring
    /// letters, case aside) from it or, for a name without `/`, from their city part, if that
    /// distance is small for the name's length (`Europe/Berln`, `Berlni`). Empty when none is near.
    public static func suggestions(for text: String, among known: [String], limit: Int = 3) -> [String] {
        let wanted = folded(text)
        guard !wanted.isEmpty else { return [] }
        let sameButCase = known.filter { folded($0) == wanted }
        if !sameButCase.isEmpty { return Array(sameButCase.prefix(limit)) }
        let hasArea = wanted.contains("/")
        let sameCity = hasArea ? [] : known.filter { city(folded($0)) == wanted }
        if !sameCity.isEmpty { return Array(sameCity.sorted().prefix(limit)) }
        let bound = max(1, min(3, wanted.count / 4))
        var scored: [(id: String, distance: Int)] = []
        for id in known {
            let f = folded(id)
            var d = editDistance(wanted, f, bound: bound)
            if !hasArea { d = min(d, editDistance(wanted, city(f), bound: bound)) }
            if d <= bound { scored.append((id, d)) }
        }
        return scored.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }.prefix(limit).map(\.id)
    }

    /// Lower case, spaces as underscores (`New York` is `New_York`).
    static func folded(_ text: String) -> [Character] {
        text.lowercased().map { $0 == " " ? "_" : $0 }
    }

    static func city(_ id: [Character]) -> [Character] {
        guard let slash = id.lastIndex(of: "/") else { return id }
        return Array(id[(slash + 1)...])
    }

    /// Optimal-string-alignment distance (Levenshtein with swaps of neighbours); `bound + 1` as soon
    /// as it must exceed `bound`, so a scan of some 600 zone ids stays cheap. Also what suggests a
    /// study file's key for a typo.
    public static func editDistance(_ a: [Character], _ b: [Character], bound: Int) -> Int {
        if abs(a.count - b.count) > bound { return bound + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var v = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { v = min(v, before[j - 2] + 1) }
                current[j] = v
                rowMinimum = min(rowMinimum, v)
            }
            if rowMinimum > bound { return bound + 1 }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
