import SleepCore

/// Dates and clock times as device software writes them on the local clock.
enum LocalClockText {
    /// Order of day and month in a numeric date such as `04/07/2015`.
    enum DateOrder: String, Sendable {
        /// `M/d/yyyy` (ActiLife's default culture, Actiware US English).
        case monthFirst = "M/d/yyyy"
        /// `d/M/yyyy` (Actiware UK English, French, German; QUT).
        case dayFirst = "d/M/yyyy"
        /// `yyyy-MM-dd`.
        case yearFirst = "yyyy-MM-dd"
    }

    /// The three numbers of a date written with `/`, `.` or `-` separators.
    static func dateParts(_ text: String) -> (Int, Int, Int)? {
        let parts = text.split(whereSeparator: { $0 == "/" || $0 == "." || $0 == "-" })
        guard parts.count == 3, let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2]) else { return nil }
        return (a, b, c)
    }

    /// A date in the given order; nil if it is not one. Two-digit years are 20yy.
    static func date(_ text: String, order: DateOrder) -> CivilDate? {
        guard let (a, b, c) = dateParts(text) else { return nil }
        let (y, m, d): (Int, Int, Int)
        switch order {
        case .monthFirst: (y, m, d) = (c, a, b)
        case .dayFirst: (y, m, d) = (c, b, a)
        case .yearFirst: (y, m, d) = (a, b, c)
        }
        let year = y < 100 ? 2000 + y : y
        guard (1...12).contains(m), (1...daysIn(month: m, year: year)).contains(d), year >= 1900, year < 2200 else { return nil }
        return CivilDate(year: year, month: m, day: d)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Seconds since midnight of `H:MM`, `HH:MM:SS`, `h:mm AM`, `h:mm:ss PM` (fractions of a
    /// second are not part of any epoch format and are refused).
    static func secondOfDay(_ text: String) -> Int? {
        var t = Substring(text.trimmingSpaces)
        var meridiem: Int? = nil
        let upper = t.uppercased()
        if upper.hasSuffix("AM") || upper.hasSuffix("PM") {
            meridiem = upper.hasSuffix("PM") ? 12 : 0
            t = t.dropLast(2)
            while t.last == " " || t.last == "." { t = t.dropLast() }
        }
        let parts = t.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) }),
              var h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        let s = parts.count == 3 ? Int(parts[2]) : 0
        guard let s, m <= 59, s <= 59 else { return nil }
        if let meridiem {
            guard (1...12).contains(h) else { return nil }
            h = h % 12 + meridiem
        }
        guard h <= 23 else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// Local seconds since 1970 of a date and a time of day.
    static func localSecond(_ date: CivilDate, secondOfDay: Int) -> Int64 {
        date.daysSinceEpoch * 86_400 + Int64(secondOfDay)
    }

    /// Picks the day/month order of numeric dates written by software whose culture is not
    /// stated: a first number above 12 means day first, a second above 12 month first; otherwise
    /// the order under which consecutive rows advance by whole epochs wins. `fallback` when the
    /// dates cannot tell (all days ≤ 12 and no date change).
    static func resolveOrder(dates: [String], fallback: DateOrder) -> DateOrder {
        var dayFirstPossible = true, monthFirstPossible = true
        var distinct: [String] = []
        for d in dates where distinct.last != d {
            distinct.append(d)
            guard let (a, b, _) = dateParts(d) else { continue }
            if a > 12 { monthFirstPossible = false }
            if b > 12 { dayFirstPossible = false }
        }
        if dayFirstPossible != monthFirstPossible { return dayFirstPossible ? .dayFirst : .monthFirst }
        guard dayFirstPossible, distinct.count > 1 else { return fallback }
        // Consecutive distinct dates of a continuous recording are one day apart.
        func steps(_ order: DateOrder) -> Bool {
            var previous: CivilDate? = nil
            for d in distinct {
                guard let c = date(d, order: order) else { return false }
                if let p = previous, c.daysSinceEpoch - p.daysSinceEpoch != 1 { return false }
                previous = c
            }
            return true
        }
        let day = steps(.dayFirst), month = steps(.monthFirst)
        if day != month { return day ? .dayFirst : .monthFirst }
        return fallback
    }

    /// `+HH:MM` / `-HH:MM` (also `+HHMM`, `UTC+01:00`) as seconds.
    static func offsetSeconds(_ text: String) -> Int32? {
        var t = Substring(text.trimmingSpaces)
        if t.uppercased().hasPrefix("UTC") || t.uppercased().hasPrefix("GMT") { t = t.dropFirst(3) }
        guard let sign = t.first, sign == "+" || sign == "-" else { return nil }
        let digits = t.dropFirst().filter { $0 != ":" }
        guard digits.count == 4, digits.allSatisfy(\.isASCII), let v = Int(digits) else { return nil }
        let h = v / 100, m = v % 100
        guard h <= 14, m <= 59 else { return nil }
        return Int32((sign == "-" ? -1 : 1) * (h * 3600 + m * 60))
    }
}

/// The recording's clock: an offset the file states (it wins over `--tz`, see ``ZoneChoice``),
/// else `--tz`, else the local clock taken as is (offset 0, printed `+00:00`) with a warning that says so.
enum EpochClock {
    static func resolve(path: String, options: IngestOptions, statedOffsetSeconds: Int32?,
                        localSpan: (first: Int64, last: Int64)?) throws(IngestError) -> ZoneChoice {
        let stated = statedOffsetSeconds.map(UTCOffsetTimeline.fixed)
        // The span in UTC, near enough to compare --tz with the file's offset at both ends.
        let span = localSpan.map { ($0.first - Int64(statedOffsetSeconds ?? 0), $0.last - Int64(statedOffsetSeconds ?? 0)) }
        return try ZoneChoice(path: path, option: options.timeZoneIdentifier, stated: stated, span: span,
                              noneWarning: "the file states no UTC offset and no --tz was given: the device's local clock is taken as UTC (times read +00:00); give --tz for its zone")
    }
}
