/// What a sleep period is within its day (``SleepPeriod``).
///
/// - `main`: the day's longest sleep period: the period the night's row, page and metrics report.
/// - `secondary`: another sleep period of at least ``SleepPeriod/secondaryMinimumMinutes`` (the
///   other half of a split night, a night worker's second sleep).
/// - `nap`: a shorter sleep period with at least ``SleepPeriod/napMinimumSleepMinutes`` of sleep.
public enum SleepPeriodKind: String, Sendable, Codable, CaseIterable {
    case main, secondary, nap
}

/// Where a period's time in bed came from.
public enum SleepPeriodSource: String, Sendable, Codable, CaseIterable {
    /// Found in the recording's own data (a method's rest window or the file's rest interval).
    case data
    /// A sleep diary row gave its time in bed.
    case diary
}

/// One sleep period of a day (the same noon-to-noon day, on the local clock, that a night uses):
/// its time in bed, sleep onset and wake, and its metrics in the nights export's names.
///
/// A period belongs to the day its sleep onset falls in, and to that day only: a night worker's
/// sleep from 08:30 to 15:30 is the day's that holds 08:30, and the next day, which holds its
/// 12:00–15:30 part, counts those minutes as sleep carried from the day before
/// (``DayMinuteClass/carriedSleep``), never as a period of its own.
///
/// Definitions, as for a night: SPT = wake − onset; TST = minutes asleep in `[onset, wake)`; WASO =
/// minutes awake in it; awakenings = wake bouts inside it that sleep follows; efficiency = TST /
/// time in bed × 100. Minutes without data or not worn inside the period are neither sleep nor wake.
public struct SleepPeriod: Sendable, Equatable, Codable {
    /// A sleep other than the main one is `secondary` from this many minutes of sleep period (SPT)
    /// on, a `nap` below it.
    public static let secondaryMinimumMinutes = 120.0
    /// A nap needs at least this many minutes of sleep.
    public static let napMinimumSleepMinutes = 15.0

    public var kind: SleepPeriodKind
    public var source: SleepPeriodSource
    public var inBedStartUTC: Int64
    public var inBedEndUTC: Int64
    public var sleepOnsetUTC: Int64
    public var wakeTimeUTC: Int64
    public var sleepPeriodMinutes: Double
    public var totalSleepTimeMinutes: Double
    public var wasoMinutes: Double
    public var awakenings: Int
    public var sleepEfficiencyPercent: Double

    public init(kind: SleepPeriodKind, source: SleepPeriodSource, inBedStartUTC: Int64, inBedEndUTC: Int64,
                sleepOnsetUTC: Int64, wakeTimeUTC: Int64, sleepPeriodMinutes: Double, totalSleepTimeMinutes: Double,
                wasoMinutes: Double, awakenings: Int, sleepEfficiencyPercent: Double) {
        self.kind = kind; self.source = source; self.inBedStartUTC = inBedStartUTC; self.inBedEndUTC = inBedEndUTC
        self.sleepOnsetUTC = sleepOnsetUTC; self.wakeTimeUTC = wakeTimeUTC; self.sleepPeriodMinutes = sleepPeriodMinutes
        self.totalSleepTimeMinutes = totalSleepTimeMinutes; self.wasoMinutes = wasoMinutes; self.awakenings = awakenings
        self.sleepEfficiencyPercent = sleepEfficiencyPercent
    }

    /// The night's main period from its metrics (a method that finds one period a day).
    public init?(main m: NightSummaryMetrics, source: SleepPeriodSource) {
        guard let on = m.sleepOnsetUTC, let wk = m.wakeTimeUTC else { return nil }
        self.init(kind: .main, source: source, inBedStartUTC: m.inBedStartUTC, inBedEndUTC: m.inBedEndUTC,
                  sleepOnsetUTC: on, wakeTimeUTC: wk, sleepPeriodMinutes: m.sleepPeriodMinutes,
                  totalSleepTimeMinutes: m.totalSleepTimeMinutes, wasoMinutes: m.wakeAfterSleepOnsetMinutes,
                  awakenings: m.awakenings, sleepEfficiencyPercent: m.sleepEfficiencyPercent)
    }

    /// Whether this period's time in bed overlaps `other`'s.
    public func inBedOverlaps(_ other: SleepPeriod) -> Bool {
        inBedStartUTC < other.inBedEndUTC && other.inBedStartUTC < inBedEndUTC
    }

    /// A day's periods besides `main` from candidates in order of precedence: each candidate whose
    /// time in bed overlaps neither the main period's nor an earlier candidate's taken, the rest
    /// dropped; the taken in time order.
    public static func others(_ candidates: [SleepPeriod], besides main: SleepPeriod?) -> [SleepPeriod] {
        var taken = main.map { [$0] } ?? []
        for p in candidates where !taken.contains(where: p.inBedOverlaps) { taken.append(p) }
        return taken.dropFirst(main == nil ? 0 : 1).sorted { $0.sleepOnsetUTC < $1.sleepOnsetUTC }
    }

    /// The kind of a sleep that is not the day's longest.
    public static func otherKind(sleepPeriodMinutes: Double) -> SleepPeriodKind {
        sleepPeriodMinutes >= secondaryMinimumMinutes ? .secondary : .nap
    }
}
