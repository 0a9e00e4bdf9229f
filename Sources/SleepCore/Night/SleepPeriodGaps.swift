/// Where a gap that touches the sleep period lies (``SleepPeriodGaps``).
public enum SleepPeriodGapPlace: String, Sendable, Hashable, Codable {
    /// The gap starts before sleep onset: it ends at onset, just before it, or runs across it.
    case atOnset = "onset"
    /// The gap lies inside the sleep period.
    case inside = "inside"
    /// The gap ends after wake time: it starts at wake time, just after it, or runs across it.
    case atWake = "wake"
}

/// Gaps in a night's scored data that touch its sleep period, and the caution they call for.
///
/// Why: an actigraph, a phone or an epoch file can only score the time it has data for. Time
/// without data, or with data the method took as not worn, is neither sleep nor wake, so TST and
/// WASO leave it out (``NightSummaryMetrics/noDataInSleepPeriodMinutes``,
/// ``NightSummaryMetrics/notWornInSleepPeriodMinutes``). Worse, sleep onset and wake time are found
/// on the scored epochs only: a wake time found just before a gap is the last *scored* sleep, and
/// the person may have slept on into the gap (an onset just after a gap may have come earlier). So
/// a night whose sleep period touches a long gap has a TST that is a lower bound and an onset or
/// wake time that may be wrong by up to the gap's length. The rules of sleep scoring assume the
/// record is continuous: the SBSM's guide to actigraphy asks that off-wrist time and lost data be
/// identified before the rest interval is scored (Ancoli-Israel et al. 2015, *Behav Sleep Med* 13:S4–S38),
/// and GGIR flags nights by their invalid time for the same reason (its `fraction_night_invalid`).
/// The night stays `scored`: the numbers are what the data show, and the note says how far to trust them.
///
/// Definitions:
/// - A **gap** is a maximal span of time, from the first scored epoch's start to the last one's end,
///   covered by no epoch with a sleep or wake state (no data, too little data to score, or not worn),
///   longer than ``minimumGapSeconds``.
/// - A gap **touches** the sleep period `[onset, wake)` when it overlaps `(onset − r, wake + r)`:
///   it lies inside the period, or less than r separates it from onset or wake time, where r is
///   ``adjacentSeconds`` (10 min) or the method's resolution if that is longer (a phone's 15-min
///   intervals). Why 10 min: the rules that end a sleep period need a stretch of wake that long
///   before they call the person up (Tudor-Locke et al. 2014: 10 consecutive minutes awake, as
///   ActiLife applies it; Actiware's 10-min sleep-end section; the persistent-sleep run of
///   `persistentSleepMinutes`, 10 by default), so a few scored minutes between the wake time and a
///   gap cannot show that the person did not sleep on into the gap, and likewise before onset.
public enum SleepPeriodGaps {
    /// Gaps up to this long (10 min) are left alone: one or two minutes of lost data are common
    /// (a radio drop, a device's first unscored minutes) and cannot hide much sleep.
    public static let minimumGapSeconds: Int64 = 600
    /// How close to onset or wake time a gap must come to touch the period (less than this apart).
    public static let adjacentSeconds = 600

    /// A span `[startUTC, endUTC)` without scored data.
    public struct Gap: Sendable, Equatable {
        public var startUTC: Int64
        public var endUTC: Int64
        public var seconds: Int64 { endUTC - startUTC }
        public init(startUTC: Int64, endUTC: Int64) { self.startUTC = startUTC; self.endUTC = endUTC }
    }

    /// Every span without a scored epoch, from the first epoch's start to the last one's end, of
    /// any length (a missing epoch of the grid is a gap as much as an epoch without a state).
    public static func gaps(_ epochs: [ScoredEpoch], epochSeconds: Int) -> [Gap] {
        guard let first = epochs.first, let last = epochs.last else { return [] }
        let E = Int64(epochSeconds)
        var result: [Gap] = []
        var coveredUntil = first.startUTC
        for e in epochs where e.state != nil {
            if e.startUTC > coveredUntil { result.append(Gap(startUTC: coveredUntil, endUTC: e.startUTC)) }
            coveredUntil = max(coveredUntil, e.startUTC + E)
        }
        let end = last.startUTC + E
        if end > coveredUntil { result.append(Gap(startUTC: coveredUntil, endUTC: end)) }
        return result
    }

    /// The gaps longer than ``minimumGapSeconds`` that touch `[onsetUTC, wakeUTC)` (see the type's
    /// definitions) for a method of resolution `resolutionSeconds`.
    public static func touching(_ gaps: [Gap], onsetUTC: Int64, wakeUTC: Int64, resolutionSeconds: Int) -> [Gap] {
        let r = Int64(max(adjacentSeconds, resolutionSeconds))
        return gaps.filter { $0.seconds > minimumGapSeconds && $0.endUTC > onsetUTC - r && $0.startUTC < wakeUTC + r }
    }

    /// Where `gap` lies against `[onsetUTC, wakeUTC)`.
    public static func place(_ gap: Gap, onsetUTC: Int64, wakeUTC: Int64) -> SleepPeriodGapPlace {
        if gap.startUTC < onsetUTC { return .atOnset }
        if gap.endUTC > wakeUTC { return .atWake }
        return .inside
    }

    /// The caution for a scored night whose sleep period a gap touches; nil otherwise.
    public static func note(for a: NightAnalysis) -> NightNote? {
        guard a.status == .scored, let m = a.metrics, let onset = m.sleepOnsetUTC, let wake = m.wakeTimeUTC else { return nil }
        let r = max(a.scoredEpochSeconds, m.resolutionSeconds)
        let near = touching(gaps(a.epochs, epochSeconds: a.scoredEpochSeconds), onsetUTC: onset, wakeUTC: wake, resolutionSeconds: r)
        guard let longest = near.max(by: { $0.seconds < $1.seconds }) else { return nil }
        return .gapInSleepPeriod(longestGapSeconds: Int(longest.seconds), place: place(longest, onsetUTC: onset, wakeUTC: wake),
                                 gaps: near.count)
    }

    /// `a` with its gap caution (at the end of its notes, replacing one it had): the one place every
    /// method's night gets it.
    public static func cautioned(_ a: NightAnalysis) -> NightAnalysis {
        var result = a
        result.notes.removeAll { if case .gapInSleepPeriod = $0 { return true } else { return false } }
        if let note = note(for: a) { result.notes.append(note) }
        return result
    }
}

extension NightAnalysisMethod {
    /// The method's analysis with what every method's night gets on top: the caution for a gap
    /// touching the sleep period (``SleepPeriodGaps``) and its day's periods and minutes
    /// (``NightAnalysis/withDay(_:)``). The pipeline derives nights through this.
    public func analyzeNight(_ night: NightData, parameters: AnalysisParameters) -> NightAnalysis {
        SleepPeriodGaps.cautioned(analyze(night, parameters: parameters)).withDay(night)
    }
}

/// Stable codes for a night in the nights export's `flags` column (semicolon-separated, in this
/// order): facts a script filters nights by, each read from the night's typed notes. A code is
/// never renamed or reused; new codes are added at the end.
public enum NightFlag: String, Sendable, CaseIterable {
    /// A gap of more than 10 min touches the sleep period: TST is a lower bound (``SleepPeriodGaps``).
    case gapInSleepPeriod = "gap-in-sleep-period"
    /// The wrist methods' day-sleeper rule moved the night's window to 18:00 to 18:00 (GGIR's `daysleeper`).
    case daySleeper = "day-sleeper"
    /// The night's one window begins with sleep under way at noon, which began the day before: its
    /// minutes may be counted in the night before too (`--method ggir`, which keeps GGIR's one
    /// window a night; the default method gives each sleep to the day of its onset).
    case sleepUnderWayAtDayStart = "sleep-under-way-at-day-start"
    /// A phone night with neither a diary nor a main rest period: the whole file is time in bed.
    case wholeFileAsTimeInBed = "whole-file-as-time-in-bed"
    /// A sleep diary row set time in bed.
    case timeInBedFromDiary = "time-in-bed-from-diary"
    /// An all-day phone log narrowed to its main rest period.
    case mainRestPeriod = "main-rest-period"
    /// The local clock changed in the night (daylight saving; `--method ggir`).
    case clockChange = "clock-change"
    /// Another recording of the same participant has a scored night whose sleep period overlaps
    /// this one's: the same sleep measured twice, counted twice by the participant's means
    /// (``SleepPeriodOverlap``). Known only across recordings, so it is not read from the notes.
    case overlapsOtherRecording = "overlaps-other-recording"

    /// The flags `notes` carry, in declaration order; given the recording's kind, also the flags
    /// that follow from it, and ``overlapsOtherRecording`` where `overlapsOtherRecording` says so.
    public static func flags(_ notes: [NightNote], kind: RecordingKind? = nil, overlapsOtherRecording: Bool = false) -> [NightFlag] {
        allCases.filter { flag in
            switch flag {
            case .overlapsOtherRecording: return overlapsOtherRecording
            case .wholeFileAsTimeInBed:
                return kind == .phoneInBed && !notes.contains { Self.timeInBedFromDiary.isCarried(by: $0) || Self.mainRestPeriod.isCarried(by: $0) }
            default: return notes.contains { flag.isCarried(by: $0) }
            }
        }
    }

    /// The export's `flags` cell: the codes joined by ";", empty for none.
    public static func column(_ notes: [NightNote], kind: RecordingKind? = nil, overlapsOtherRecording: Bool = false) -> String {
        flags(notes, kind: kind, overlapsOtherRecording: overlapsOtherRecording).map(\.rawValue).joined(separator: ";")
    }

    func isCarried(by note: NightNote) -> Bool {
        switch (self, note) {
        case (.gapInSleepPeriod, .gapInSleepPeriod), (.daySleeper, .daySleeper), (.daySleeper, .ggirDaySleeper),
             (.sleepUnderWayAtDayStart, .ggirSleepUnderWayAtDayStart), (.timeInBedFromDiary, .timeInBedFromDiary),
             (.mainRestPeriod, .mainRestPeriod), (.clockChange, .ggirClockChange): return true
        default: return false
        }
    }
}
