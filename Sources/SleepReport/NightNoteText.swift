import SleepCore

/// A night's notes (``NightNote``) in words: the one place their sentences live, so that a change
/// of wording changes the pages, not the stored analyses. The numbers are formatted as the night
/// methods formatted them when they stored sentences, so a page reads the same either way.
public enum NightNoteText {
    /// The notes in order, one clause each, joined by "; "; nil without notes.
    public static func text(_ notes: [NightNote]) -> String? {
        notes.isEmpty ? nil : notes.map(sentence).joined(separator: "; ")
    }

    /// One note as a clause of the night page's "Reason:" (no capital, no full stop).
    public static func sentence(_ note: NightNote) -> String {
        switch note {
        case let .intervalGridOffSource(intervalSeconds, sourceSeconds):
            let length = interval(intervalSeconds), source = interval(sourceSeconds)
            return "\(length) intervals cannot follow the source's own \(source) totals (\(length) is neither a multiple nor a divisor of \(source)): intervals lie on the local clock and some of them mix two source totals"
        case let .timeInBedFromDiary(source): return "time in bed from \(source)"
        case let .mainRestPeriod(covered, rest):
            return "the data covers \(hours(seconds: covered)) of this night's 24 h: time in bed is the main rest period found in the movement (\(hours(seconds: rest)))"
        case let .diaryPhoneOffBed(seconds):
            return "the diary's nonwear rows take \(minutes(seconds)) of time in bed as no data (the phone off the mattress: what it recorded then is not the sleeper's movement)"
        case let .ggirDiaryNonwearNotApplied(seconds):
            return "the diary's nonwear rows (\(minutes(seconds)) of this night's window) are not applied: GGIR's part 4 does not read self-reported non-wear (its part 5 only lists it), so the GGIR parity method leaves them out as GGIR does; the default wrist method applies them"
        case let .notWornAllData(data): return "not worn: all \(hours(seconds: data)) of data in this night are non-wear (still for an hour or more)"
        case let .tooFewValidHours(valid, night, required):
            return "\(hours(valid)) of valid (worn) data in this night's \(hours(Double(night) / 3600)); GGIR's includenightcrit needs \(hours(required))"
        case let .noCountsForAlgorithm(choice):
            return "--sleep-algorithm \(choice.rawValue) scores ActiGraph counts, computed from the raw samples, and this recording has none: they need a sample rate of 30–100 Hz in steps of 10 (ActiLife's paths to 30 Hz; the rate is among the recording's facts)"
        case let .ggirNoBoutInWindow(fraction):
            return "GGIR drops this night (cleaningcode 5): no sustained inactivity bout overlaps the HDCZA window; invalid fraction \(fixed(fraction, 3))"
        case let .ggirTooMuchInvalid(fraction, onset, wake, tst):
            return "GGIR drops this night from its cleaned summary (cleaningcode 2): invalid fraction \(fixed(fraction, 3)) > 8/24 (includenightcrit 16 h); GGIR's numbers: onset \(LocalClock.hhmmss(localSecond: onset)), wake \(LocalClock.hhmmss(localSecond: wake)), TST \(fixed(tst, 1)) min"
        case let .ggirClockChange(back, day, shiftAfter):
            let after = shiftAfter == 0 ? "real time again"
                : "\(hours(Double(shiftAfter.magnitude) / 3600)) \(shiftAfter > 0 ? "later" : "earlier") than real time"
            return (back
                ? "the clocks went back an hour on \(day); GGIR reads this device's clock, which kept the time it was set to, as wall-clock time: it inserts an hour of still filler there"
                : "the clocks went forward an hour on \(day); GGIR reads this device's clock, which kept the time it was set to, as wall-clock time: it drops an hour of data there")
                + ", and its times from then on are \(after)"
        case let .noSuchColumn(column, available): return "the file has no column '\(column)' (it has \(available.joined(separator: ", ")))"
        case let .noActivityColumn(available): return "no activity column to score: the file has \(available.joined(separator: ", "))"
        case let .notWornZeroCounts(off, runHours, worn):
            return "not worn: \(hours(seconds: off)) of zero counts in runs of \(runHours) h or more (the device off the wrist); \(hours(seconds: worn)) of worn data remain"
        case let .tooLittleData(column, seconds, required):
            return "\(hours(seconds: seconds)) of \(column) data in this night; at least \(hours(seconds: required)) are needed"
        case let .epochsNotSummable(seconds): return "\(seconds)-s epochs cannot be summed to the scorer's 60-s epochs"
        case let .dayFragment(data, core):
            return "a fragment of a day, not a night: \(hours(seconds: data)) of data, "
                + (core == 0 ? "none" : hours(seconds: core)) + " of it in 00:00–06:00 (at least 1 h is needed without a diary or a rest interval of the file)"
        case let .noTimeInBed(guider): return "no time in bed: \(guider)"
        case let .noActiwareSleepOnset(minutes):
            return "no \(minutes)-min section with all but one epoch immobile inside time in bed (the Actiware 5 manual's sleep onset rule)"
        case let .noPersistentSleep(minutes): return "no run of \(minutes) minutes of sleep inside time in bed"
        case let .legacyText(text): return text
        case let .unrecognised(code): return code
        case .wearableNoEpochs: return "the wearable method needs raw acceleration with gravity (angle-z, ENMO); this recording has no 5-s epochs of it"
        case .noRestBlock: return "HDCZA found no rest block longer than 30 minutes in the valid data"
        case .noBoutInWindow: return "no sustained inactivity bout (van Hees 2015) inside the HDCZA window"
        case .onlyCarriedSleep: return onlyCarriedSleepText
        case .ggirSleepUnderWayAtDayStart: return ggirSleepUnderWayText
        case .daySleeper: return "day sleeper: the HDCZA window ended between 11:00 and 12:00, so it was searched again from 18:00 to 18:00 (GGIR's rule)"
        case .ggirNoEpochs: return "the GGIR parity method needs raw acceleration with gravity (angle-z, ENMO); this recording has no 5-s epochs of it"
        case .ggirNoWholeRecording: return "the GGIR parity method reads the whole recording and its format, which were not supplied with this night"
        case .ggirNoNonWearScores:
            return "GGIR's 2023 non-wear scores are not stored for this night (stored by an older sleepsta): a run with --method ggir reads the file again"
        case .ggirNothingAnalysed:
            return "GGIR analyses no part of this recording: it needs at least an hour of data from the first whole quarter hour of the clock"
        case .ggirNoNight:
            return "GGIR has no night here: its night windows lie around a midnight in its data (which start at the first whole quarter hour and end with the last 15-min block it processed)"
        case .ggirNoWindow:
            return "HDCZA found no sleep period window (every epoch of the night invalid, or no rest block longer than 30 minutes); GGIR writes no night"
        case .ggirNoBouts: return "no sustained inactivity bout in the night's valid epochs; GGIR writes no row for this night"
        case .ggirDaySleeper: return "day sleeper: the HDCZA window ended in its last hour, so it was searched again from 18:00 to 18:00 (GGIR's rule)"
        case .ggirOwnClock: return "these are GGIR's numbers on GGIR's clock (the chart's angle-z line is on real time)"
        case .epochFileNoEpochs: return "the epoch-file method needs the file's epochs; this night has none stored"
        case .noRestPeriod: return "no rest period found in the night's activity"
        case .noMinuteAsleep: return "no minute scored asleep inside time in bed"
        case let .gapInSleepPeriod(longest, place, gaps): return gapCaution(longestSeconds: longest, place: place, gaps: gaps)
        case let .notANightInBed(end, earliest):
            return "not a night in bed: the recording has no rest markers and ends at \(LocalClock.hhmm(localSecond: Int64(end))), "
                + "before \(LocalClock.hhmm(localSecond: Int64(earliest))); a recording of the time in bed ends when its wearer gets up in the morning"
        case let .notWornThroughNight(off, core):
            return "not worn through the night: \(hours(seconds: off)) not worn, "
                + (core == 0 ? "none" : hours(seconds: core)) + " of 00:00–06:00 worn, and no rest interval of the file in it: a day the device was off, not a night without sleep"
        }
    }

    /// The gap caution (``SleepPeriodGaps``): the longest gap in whole minutes, where it lies,
    /// what that means for the numbers, and how many more gaps touch the period.
    static func gapCaution(longestSeconds: Int, place: SleepPeriodGapPlace, gaps: Int) -> String {
        let gap = "a gap of \(longestSeconds / 60) min without scored data (no data or not worn)"
        let clause: String = switch place {
        case .atOnset: "\(gap) at sleep onset: the true onset may lie in the gap"
        case .inside: "\(gap) inside the sleep period: any sleep in it is not counted"
        case .atWake: "\(gap) at wake time: the true wake time may lie in the gap"
        }
        let more = gaps > 2 ? " (\(gaps - 1) more gaps of over 10 min touch the sleep period)"
            : gaps == 2 ? " (1 more gap of over 10 min touches the sleep period)" : ""
        return "caution: \(clause), so TST is a lower bound\(more)"
    }

    /// An interval length as the interval options write it (`10m`, `90s`).
    static let onlyCarriedSleepText = "no sleep of this day's own: its only rest was sleep under way at the day's start (noon), which began the day before and is counted there"
    static let ggirSleepUnderWayText = "GGIR's window begins with sleep under way at the day's start (noon): that sleep began the day before, so its minutes may be counted in the night before too (GGIR has one window a night; the default method gives each sleep to the day of its onset)"

    static func interval(_ seconds: Int) -> String { IntervalLength(seconds: seconds)?.description ?? "\(seconds) s" }

    static func hours(seconds: Int) -> String { LocalClock.hoursText(seconds: seconds) }

    /// Whole minutes, rounded (`35 min`).
    static func minutes(_ seconds: Int) -> String { "\((seconds + 30) / 60) min" }

    /// Hours to the nearest second, then as ``LocalClock/hoursText(seconds:)`` words them.
    static func hours(_ h: Double) -> String {
        // A note's numbers are read back from the store: one beyond an Int is not worded as hours.
        guard h.isFinite, h.magnitude <= 1e9, let seconds = Int(exactly: (h * 3600).rounded()) else { return "\(h) h" }
        return LocalClock.hoursText(seconds: seconds)
    }

    /// `value` with `places` decimals, rounded half away from zero on the scaled value (GGIR
    /// parity's notes always read so; ``NumberText`` rounds after scaling back, which can differ).
    static func fixed(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        guard value.isFinite, abs(value) * scale < 1e15 else { return "\(value)" }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale), fraction = String(scaled % Int(scale))
        return (value < 0 && scaled > 0 ? "-" : "") + "\(whole)" + (places > 0 ? "." + String(repeating: "0", count: places - fraction.count) + fraction : "")
    }
}
