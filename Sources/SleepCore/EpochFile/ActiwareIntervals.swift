/// Actiware's sleep interval inside a rest interval, and the statistics Actiware reports for it.
///
/// **Source.** Philips Respironics (Mini Mitter) *Actiware User Manual*, "Analysis Inputs" and
/// appendix B "Statistic Definitions": with the sleep interval detection algorithm "by minutes
/// scored as immobile", after the start of each rest interval the sleep interval starts at the
/// first epoch of the first section of consecutive epochs *sleep onset setting* minutes long
/// (default 10) with all but one epoch scored as immobile; before the end of each rest interval
/// it ends at the last epoch of the last such section *sleep end setting* minutes long. Sleep
/// time, wake time and wake bouts count the epochs scored sleep / wake between the interval's
/// start and end time; efficiency is sleep time / (rest interval duration − invalid time).
///
/// **Pinned down on Actiware 5 exports** (`ActiwareIntervalTests`):
/// - *Immobile*: fewer than 4 counts per minute (counts × 60 / epoch length < 4). The French
///   60-s export states its mobility per epoch (`Mobilité`): counts 0–3 are immobile, 5 and more
///   mobile, in all 11,555 epochs; at 30 s (English export) counts 0 are immobile and 2 and more
///   mobile. The manual gives no number; this is the one threshold both files agree with.
/// - *End time*: Actiware reports the start of the last section's last epoch as the interval's
///   end time, and the interval's epochs are [start, end): the last epoch of the section is
///   outside (its status column says REST, not REST-S). Duration = end − start.
/// - Every SLEEP interval of the English export (7) is reproduced to the epoch with its duration,
///   sleep time, wake time and efficiency to the hundredth; every SOMMEIL interval of the French
///   export (6) to the epoch.
/// - An epoch without a count is not immobile (it can be the one tolerated mobile epoch).
public enum ActiwareIntervals {
    /// Fewer counts per minute than this is immobile.
    public static let immobileBelowCountsPerMinute = 4.0

    /// Whether each epoch is mobile (nil: no count).
    public static func mobile(counts: [Double], epochSeconds: Int) -> [Bool?] {
        let perMinute = 60 / Double(epochSeconds)
        return counts.map { $0.isNaN ? nil : $0 * perMinute >= immobileBelowCountsPerMinute }
    }

    /// The sleep interval's epochs [start, end) inside `rest` (epoch indices), or nil when no
    /// section of the required length lies in it.
    public static func sleepInterval(mobile: [Bool?], rest: Range<Int>, epochSeconds: Int,
                                     settings: ActiwareSettings = ActiwareSettings()) -> Range<Int>? {
        let onsetN = max(1, settings.sleepOnsetMinutes * 60 / epochSeconds)
        let endN = max(1, settings.sleepEndMinutes * 60 / epochSeconds)
        func quiet(_ from: Int, _ n: Int) -> Bool {
            var notImmobile = 0
            for k in from..<(from + n) where mobile[k] != false {
                notImmobile += 1
                if notImmobile > 1 { return false }
            }
            return true
        }
        let lower = max(0, rest.lowerBound), upper = min(mobile.count, rest.upperBound)
        guard upper - lower >= max(onsetN, endN) else { return nil }
        guard let start = (lower...(upper - onsetN)).first(where: { quiet($0, onsetN) }) else { return nil }
        // The last section [e − n, e) ending inside rest; its last epoch (e − 1) is the reported end.
        guard let sectionEnd = stride(from: upper, through: lower + endN, by: -1).first(where: { quiet($0 - endN, endN) }) else { return nil }
        let end = sectionEnd - 1
        return end > start ? start..<end : nil
    }

    /// Actiware's statistics of a sleep interval `sleep` inside `rest`.
    public static func statistics(states: [SleepWake?], mobile: [Bool?], rest: Range<Int>, sleep: Range<Int>,
                                  epochSeconds: Int) -> ActiwareIntervalStatistics {
        let m = Double(epochSeconds) / 60
        var sleepN = 0, wakeN = 0, invalid = 0, bouts = 0, immobile = 0, mobileN = 0
        var previousWake = false
        for i in sleep {
            switch states[i] {
            case .sleep?: sleepN += 1; previousWake = false
            case .wake?: wakeN += 1; if !previousWake { bouts += 1 }; previousWake = true
            case nil: invalid += 1; previousWake = false
            }
            switch mobile[i] { case true?: mobileN += 1; case false?: immobile += 1; case nil: break }
        }
        let restInvalid = rest.filter { states[$0] == nil }.count
        let restMinutes = Double(rest.count) * m
        let usable = restMinutes - Double(restInvalid) * m
        return ActiwareIntervalStatistics(
            durationMinutes: Double(sleep.count) * m, sleepMinutes: Double(sleepN) * m, wakeMinutes: Double(wakeN) * m,
            invalidMinutes: Double(invalid) * m,
            efficiencyPercent: usable > 0 ? 100 * Double(sleepN) * m / usable : nil,
            wakeBouts: bouts, immobileMinutes: Double(immobile) * m, mobileMinutes: Double(mobileN) * m,
            latencyMinutes: Double(sleep.lowerBound - rest.lowerBound) * m,
            snoozeMinutes: Double(rest.upperBound - sleep.upperBound) * m)
    }
}

/// The export's "Analysis Inputs" that decide the sleep interval (Actiware's defaults otherwise).
public struct ActiwareSettings: Sendable, Equatable, Codable {
    /// "Sleep Onset Setting" (immobile minutes; 10).
    public var sleepOnsetMinutes: Int
    /// "Sleep End Setting" (immobile minutes; 10).
    public var sleepEndMinutes: Int
    /// "Wake Threshold Value" (counts; medium 40).
    public var wakeThreshold: Double
    /// The "Sleep Interval Detection Algorithm" as the file words it; nil when it states none.
    public var detectionAlgorithm: String?

    public init(sleepOnsetMinutes: Int = 10, sleepEndMinutes: Int = 10, wakeThreshold: Double = 40, detectionAlgorithm: String? = nil) {
        self.sleepOnsetMinutes = sleepOnsetMinutes; self.sleepEndMinutes = sleepEndMinutes
        self.wakeThreshold = wakeThreshold; self.detectionAlgorithm = detectionAlgorithm
    }

    /// Whether the file states the other detection algorithm ("by epochs scored as sleep"),
    /// which sleepsta does not reproduce: the words for "immobile" in Actiware's languages.
    public var statesImmobileMinutes: Bool {
        guard let text = detectionAlgorithm?.lowercased() else { return true }
        return ["immobil", "onbeweeg", "unbeweg", "immobi"].contains { text.contains($0) }
    }
}

/// Statistics of one sleep interval, Actiware's definitions (minutes, percent).
public struct ActiwareIntervalStatistics: Sendable, Equatable, Codable {
    public var durationMinutes: Double
    public var sleepMinutes: Double
    public var wakeMinutes: Double
    /// Epochs without a sleep/wake score (Actiware's "Invalid SW").
    public var invalidMinutes: Double
    /// Sleep time / (rest interval duration − invalid time in it).
    public var efficiencyPercent: Double?
    /// Runs of wake epochs inside the interval.
    public var wakeBouts: Int?
    public var immobileMinutes: Double?
    public var mobileMinutes: Double?
    /// Rest start to sleep start.
    public var latencyMinutes: Double?
    /// Sleep end to rest end (Actiware's "Snooze Time").
    public var snoozeMinutes: Double?

    public init(durationMinutes: Double, sleepMinutes: Double, wakeMinutes: Double, invalidMinutes: Double = 0,
                efficiencyPercent: Double? = nil, wakeBouts: Int? = nil, immobileMinutes: Double? = nil,
                mobileMinutes: Double? = nil, latencyMinutes: Double? = nil, snoozeMinutes: Double? = nil) {
        self.durationMinutes = durationMinutes; self.sleepMinutes = sleepMinutes; self.wakeMinutes = wakeMinutes
        self.invalidMinutes = invalidMinutes; self.efficiencyPercent = efficiencyPercent; self.wakeBouts = wakeBouts
        self.immobileMinutes = immobileMinutes; self.mobileMinutes = mobileMinutes
        self.latencyMinutes = latencyMinutes; self.snoozeMinutes = snoozeMinutes
    }
}

/// An interval the export's statistics section lists (REST or SLEEP), on the epoch grid.
public struct ActiwareStatedInterval: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case rest, sleep }
    public var kind: Kind
    /// Actiware's interval number.
    public var number: Int
    public var startUTC: Int64
    /// Actiware's end time (exclusive).
    public var endUTC: Int64
    /// The statistics the row gives (sleep and wake time, efficiency … where the export has the columns); nil where it gives none.
    public var statistics: ActiwareIntervalStatistics?
    /// Spreadsheet line of the row, for the page.
    public var line: Int

    public init(kind: Kind, number: Int, startUTC: Int64, endUTC: Int64, statistics: ActiwareIntervalStatistics?, line: Int) {
        self.kind = kind; self.number = number; self.startUTC = startUTC; self.endUTC = endUTC
        self.statistics = statistics; self.line = line
    }
}

/// What an Actiware export states beyond its epochs: the analysis inputs and its own intervals.
public struct ActiwareFileAnalysis: Sendable, Equatable, Codable {
    public var settings: ActiwareSettings
    public var intervals: [ActiwareStatedInterval]
    public init(settings: ActiwareSettings, intervals: [ActiwareStatedInterval]) {
        self.settings = settings; self.intervals = intervals
    }

    /// The intervals that overlap [from, to).
    public func overlapping(from: Int64, to: Int64) -> ActiwareFileAnalysis {
        ActiwareFileAnalysis(settings: settings, intervals: intervals.filter { $0.endUTC > from && $0.startUTC < to })
    }
}

/// One night's Actiware interval: ours, and the file's own where it lists one, side by side.
public struct ActiwareNightComparison: Sendable, Equatable, Codable {
    public var settings: ActiwareSettings
    public var restStartUTC: Int64
    public var restEndUTC: Int64
    public var sleepStartUTC: Int64
    public var sleepEndUTC: Int64
    public var ours: ActiwareIntervalStatistics
    /// The file's SLEEP interval that overlaps ours most, if the export lists one.
    public var stated: ActiwareStatedInterval?
    /// The file's REST interval it lies in.
    public var statedRest: ActiwareStatedInterval?
}
