/// The class of one minute of a day: every minute of a day's window (local noon to noon, 1,440
/// minutes; 1,380 or 1,500 on a day with a change of the clocks) has exactly one.
///
/// Raw values are stored (one byte a minute) and never reused for another meaning.
public enum DayMinuteClass: UInt8, Sendable, Codable, CaseIterable {
    /// No samples (before or after the recording, a gap).
    case noData = 0
    /// Worn, with data, in no sleep period.
    case awake = 1
    /// Not worn: a live temperature channel read below skin temperature while the device lay still.
    case notWornTemperature = 2
    /// Not worn: the device lay still at one attitude (laid down; ``StillWearCheck``).
    case notWornStill = 3
    /// Not worn: no movement for so long (GGIR's 2013 non-wear rule, van Hees 2013), or the file's
    /// own off-wrist mark.
    case notWornNoMovement = 4
    /// In the day's main sleep period (onset to wake).
    case sleepMain = 5
    /// In a secondary sleep period.
    case sleepSecondary = 6
    /// In a nap.
    case nap = 7
    /// In a sleep period of an earlier day that runs on past this day's start (it belongs to the
    /// day of its onset; ``DayAccount`` names its kind from that day's periods).
    case carriedSleep = 8

    /// The stable name used in exports and on pages.
    public var code: String {
        switch self {
        case .noData: return "no-data"
        case .awake: return "awake"
        case .notWornTemperature: return "not-worn-temperature"
        case .notWornStill: return "not-worn-still"
        case .notWornNoMovement: return "not-worn-no-movement"
        case .sleepMain: return "sleep-main"
        case .sleepSecondary: return "sleep-secondary"
        case .nap: return "nap"
        case .carriedSleep: return "sleep-carried"
        }
    }

    public var isNotWorn: Bool { self == .notWornTemperature || self == .notWornStill || self == .notWornNoMovement }

    /// The class of a minute in a period of `kind`.
    public init(_ kind: SleepPeriodKind) {
        switch kind {
        case .main: self = .sleepMain
        case .secondary: self = .sleepSecondary
        case .nap: self = .nap
        }
    }
}

/// One class per minute of a day's window, `startUTC` being the window's start (local noon).
public struct DayMinutes: Sendable, Equatable, Codable {
    public var startUTC: Int64
    public var classes: [DayMinuteClass]

    public init(startUTC: Int64, classes: [DayMinuteClass]) { self.startUTC = startUTC; self.classes = classes }

    /// Every minute of `window` as `fill`.
    public init(window: NightWindow, fill: DayMinuteClass = .noData) {
        startUTC = window.startUTC
        classes = .init(repeating: fill, count: Int(max(0, window.durationSeconds) / 60))
    }

    public var endUTC: Int64 { startUTC + Int64(classes.count) * 60 }

    /// Sets the minutes whose start lies in `[fromUTC, toUTC)` to `c`.
    public mutating func mark(fromUTC: Int64, toUTC: Int64, as c: DayMinuteClass) {
        let from = max(0, Int(LocalClock.floorDiv(fromUTC - startUTC + 59, 60)))
        let to = min(classes.count, Int(LocalClock.floorDiv(toUTC - startUTC + 59, 60)))
        guard from < to else { return }
        for m in from..<to { classes[m] = c }
    }

    /// Minutes of each class.
    public func minutes(_ c: DayMinuteClass) -> Int { classes.reduce(0) { $0 + ($1 == c ? 1 : 0) } }

    /// The stored form: one byte a minute (``DayMinuteClass`` raw values).
    public var bytes: [UInt8] { classes.map(\.rawValue) }
    /// From the stored form; nil when a byte is not a class this version knows.
    public init?(startUTC: Int64, bytes: [UInt8]) {
        var c: [DayMinuteClass] = []
        c.reserveCapacity(bytes.count)
        for b in bytes { guard let v = DayMinuteClass(rawValue: b) else { return nil }; c.append(v) }
        self.init(startUTC: startUTC, classes: c)
    }
}

/// One day of a recording as the days export and the participant page show it: its minutes by
/// class, with sleep carried from an earlier day named by that period's kind, and whether the
/// day's night is in the summaries.
public struct DayAccount: Sendable, Equatable {
    public var minutes: DayMinutes
    /// The day's own periods (onset in the day), in time order.
    public var periods: [SleepPeriod]
    public var included: Bool
    /// Why the day's night is left out of the summaries: a stable code (a night note's code or
    /// the status), nil when included.
    public var excludedReason: String?

    /// Minutes with data, worn.
    public var validWearMinutes: Int { minutes.classes.reduce(0) { $0 + ($1 != .noData && !$1.isNotWorn ? 1 : 0) } }
    public var notWornMinutes: Int { minutes.classes.reduce(0) { $0 + ($1.isNotWorn ? 1 : 0) } }
    public var napCount: Int { periods.filter { $0.kind == .nap }.count }

    /// Builds a day with carried sleep resolved: each ``DayMinuteClass/carriedSleep`` minute takes
    /// the kind of the earlier day's period that covers it (`earlier`: the periods of the days
    /// before, any order); a carried minute no earlier period covers (its onset lay before the
    /// recording) counts as main sleep, the kind a sleep running past noon nearly always is.
    public init(minutes m: DayMinutes, periods: [SleepPeriod], earlier: [SleepPeriod], included: Bool, excludedReason: String?) {
        var resolved = m
        for (i, c) in m.classes.enumerated() where c == .carriedSleep {
            let t = m.startUTC + Int64(i) * 60
            let kind = earlier.first { $0.sleepOnsetUTC <= t && t < $0.wakeTimeUTC }?.kind ?? .main
            resolved.classes[i] = DayMinuteClass(kind)
        }
        minutes = resolved
        self.periods = periods.sorted { $0.sleepOnsetUTC < $1.sleepOnsetUTC }
        self.included = included
        self.excludedReason = included ? nil : excludedReason
    }

    /// The day of a night's analysis: in the summaries when the night is scored, else left out
    /// for the code of its first note, or its status (`status`: ``NightStatus`` raw value).
    public init(minutes m: DayMinutes, periods: [SleepPeriod], earlier: [SleepPeriod], status: String, notes: [NightNote]) {
        let included = status == NightStatus.scored.rawValue
        self.init(minutes: m, periods: periods, earlier: earlier, included: included, excludedReason: notes.first?.code ?? status)
    }
}
