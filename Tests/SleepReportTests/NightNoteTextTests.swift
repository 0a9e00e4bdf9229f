import Testing
import SleepCore
import SleepReport

/// Each night note in words: the sentences the night methods stored before notes were typed,
/// character for character, so pages read the same whether a night was derived before or after.
@Suite("Night notes in words")
struct NightNoteTextTests {
    static let day = CivilDate(year: 2024, month: 10, day: 27)

    static let table: [(NightNote, String)] = [
        (.intervalGridOffSource(intervalSeconds: 900, sourceSeconds: 600),
         "15m intervals cannot follow the source's own 10m totals (15m is neither a multiple nor a divisor of 10m): intervals lie on the local clock and some of them mix two source totals"),
        (.intervalGridOffSource(intervalSeconds: 600, sourceSeconds: 90),
         "10m intervals cannot follow the source's own 90s totals (10m is neither a multiple nor a divisor of 90s): intervals lie on the local clock and some of them mix two source totals"),
        (.timeInBedFromDiary(source: "diary.csv row 2"), "time in bed from diary.csv row 2"),
        (.mainRestPeriod(coveredSeconds: 72_000, restSeconds: 30_600),
         "the data covers 20 h of this night's 24 h: time in bed is the main rest period found in the movement (8.5 h)"),
        (.wearableNoEpochs, "the wearable method needs raw acceleration with gravity (angle-z, ENMO); this recording has no 5-s epochs of it"),
        (.notWornAllData(dataSeconds: 86_400), "not worn: all 24 h of data in this night are non-wear (still for an hour or more)"),
        (.notWornAllData(dataSeconds: 2700), "not worn: all 45 min of data in this night are non-wear (still for an hour or more)"),
        (.tooFewValidHours(validHours: 10.25, nightSeconds: 90_000, requiredHours: 16),
         "10.3 h of valid (worn) data in this night's 25 h; GGIR's includenightcrit needs 16 h"),
        (.noRestBlock, "HDCZA found no rest block longer than 30 minutes in the valid data"),
        (.noCountsForAlgorithm(.coleKripke),
         "--sleep-algorithm cole-kripke scores ActiGraph counts, computed from the raw samples, and this recording has none: they need a sample rate of 30–100 Hz in steps of 10 (ActiLife's paths to 30 Hz; the rate is among the recording's facts)"),
        (.noBoutInWindow, "no sustained inactivity bout (van Hees 2015) inside the HDCZA window"),
        (.onlyCarriedSleep, "no sleep of this day's own: its only rest was sleep under way at the day's start (noon), which began the day before and is counted there"),
        (.daySleeper, "day sleeper: the HDCZA window ended between 11:00 and 12:00, so it was searched again from 18:00 to 18:00 (GGIR's rule)"),
        (.ggirNoEpochs, "the GGIR parity method needs raw acceleration with gravity (angle-z, ENMO); this recording has no 5-s epochs of it"),
        (.ggirNoWholeRecording, "the GGIR parity method reads the whole recording and its format, which were not supplied with this night"),
        (.ggirNoNonWearScores,
         "GGIR's 2023 non-wear scores are not stored for this night (stored by an older sleepsta): a run with --method ggir reads the file again"),
        (.ggirNothingAnalysed,
         "GGIR analyses no part of this recording: it needs at least an hour of data from the first whole quarter hour of the clock"),
        (.ggirNoNight,
         "GGIR has no night here: its night windows lie around a midnight in its data (which start at the first whole quarter hour and end with the last 15-min block it processed)"),
        (.ggirNoWindow,
         "HDCZA found no sleep period window (every epoch of the night invalid, or no rest block longer than 30 minutes); GGIR writes no night"),
        (.ggirNoBouts, "no sustained inactivity bout in the night's valid epochs; GGIR writes no row for this night"),
        (.ggirNoBoutInWindow(fractionInvalid: 0.041666666666666664),
         "GGIR drops this night (cleaningcode 5): no sustained inactivity bout overlaps the HDCZA window; invalid fraction 0.042"),
        (.ggirTooMuchInvalid(fractionInvalid: 0.5, onsetLocalSecond: 19_900 * 86_400 + 23 * 3600 + 15 * 60 + 5,
                             wakeLocalSecond: 19_901 * 86_400 + 7 * 3600 + 120, totalSleepMinutes: 401.25),
         "GGIR drops this night from its cleaned summary (cleaningcode 2): invalid fraction 0.500 > 8/24 (includenightcrit 16 h); GGIR's numbers: onset 23:15:05, wake 07:02:00, TST 401.3 min"),
        (.ggirSleepUnderWayAtDayStart, "GGIR's window begins with sleep under way at the day's start (noon): that sleep began the day before, so its minutes may be counted in the night before too (GGIR has one window a night; the default method gives each sleep to the day of its onset)"),
        (.ggirDaySleeper, "day sleeper: the HDCZA window ended in its last hour, so it was searched again from 18:00 to 18:00 (GGIR's rule)"),
        (.ggirClockChange(back: true, day: day, shiftAfterSeconds: 3600),
         "the clocks went back an hour on 2024-10-27; GGIR reads this device's clock, which kept the time it was set to, as wall-clock time: it inserts an hour of still filler there, and its times from then on are 1 h later than real time"),
        (.ggirClockChange(back: false, day: CivilDate(year: 2024, month: 3, day: 31), shiftAfterSeconds: 0),
         "the clocks went forward an hour on 2024-03-31; GGIR reads this device's clock, which kept the time it was set to, as wall-clock time: it drops an hour of data there, and its times from then on are real time again"),
        (.ggirClockChange(back: false, day: day, shiftAfterSeconds: -3600),
         "the clocks went forward an hour on 2024-10-27; GGIR reads this device's clock, which kept the time it was set to, as wall-clock time: it drops an hour of data there, and its times from then on are 1 h earlier than real time"),
        (.ggirOwnClock, "these are GGIR's numbers on GGIR's clock (the chart's angle-z line is on real time)"),
        (.epochFileNoEpochs, "the epoch-file method needs the file's epochs; this night has none stored"),
        (.noSuchColumn(column: "enmo", available: ["activity", "light"]), "the file has no column 'enmo' (it has activity, light)"),
        (.noActivityColumn(available: ["light", "off_wrist"]), "no activity column to score: the file has light, off_wrist"),
        (.notWornZeroCounts(offSeconds: 18_000, runHours: 2, wornSeconds: 1800),
         "not worn: 5 h of zero counts in runs of 2 h or more (the device off the wrist); 30 min of worn data remain"),
        (.tooLittleData(column: "activity", seconds: 7200, requiredSeconds: 10_800), "2 h of activity data in this night; at least 3 h are needed"),
        (.epochsNotSummable(epochSeconds: 45), "45-s epochs cannot be summed to the scorer's 60-s epochs"),
        (.dayFragment(dataSeconds: 10_800, nightCoreSeconds: 0),
         "a fragment of a day, not a night: 3 h of data, none of it in 00:00–06:00 (at least 1 h is needed without a diary or a rest interval of the file)"),
        (.dayFragment(dataSeconds: 19_800, nightCoreSeconds: 1800),
         "a fragment of a day, not a night: 5.5 h of data, 30 min of it in 00:00–06:00 (at least 1 h is needed without a diary or a rest interval of the file)"),
        (.noTimeInBed(guider: "the file's rest interval (REST)"), "no time in bed: the file's rest interval (REST)"),
        (.noRestPeriod, "no rest period found in the night's activity"),
        (.noActiwareSleepOnset(sectionMinutes: 10),
         "no 10-min section with all but one epoch immobile inside time in bed (the Actiware 5 manual's sleep onset rule)"),
        (.noMinuteAsleep, "no minute scored asleep inside time in bed"),
        (.noPersistentSleep(minutes: 15), "no run of 15 minutes of sleep inside time in bed"),
        (.legacyText("time in bed from diary.csv row 2; as an older sleepsta stored it"), "time in bed from diary.csv row 2; as an older sleepsta stored it"),
        (.notANightInBed(endSecondsAfterMidnight: 6480, earliestEndSecondsAfterMidnight: 14_400),
         "not a night in bed: the recording has no rest markers and ends at 01:48, before 04:00; a recording of the time in bed ends when its wearer gets up in the morning"),
        (.notWornThroughNight(offSeconds: 72_840, wornCoreSeconds: 0),
         "not worn through the night: 20.2 h not worn, none of 00:00–06:00 worn, and no rest interval of the file in it: a day the device was off, not a night without sleep"),
        (.unrecognised(code: "a-newer-note"), "a-newer-note"),
        (.gapInSleepPeriod(longestGapSeconds: 4560, place: .atWake, gaps: 1),
         "caution: a gap of 76 min without scored data (no data or not worn) at wake time: the true wake time may lie in the gap, so TST is a lower bound"),
        (.gapInSleepPeriod(longestGapSeconds: 900, place: .atOnset, gaps: 2),
         "caution: a gap of 15 min without scored data (no data or not worn) at sleep onset: the true onset may lie in the gap, so TST is a lower bound (1 more gap of over 10 min touches the sleep period)"),
        (.gapInSleepPeriod(longestGapSeconds: 1800, place: .inside, gaps: 3),
         "caution: a gap of 30 min without scored data (no data or not worn) inside the sleep period: any sleep in it is not counted, so TST is a lower bound (2 more gaps of over 10 min touch the sleep period)"),
        (.diaryPhoneOffBed(seconds: 3570),
         "the diary's nonwear rows take 60 min of time in bed as no data (the phone off the mattress: what it recorded then is not the sleeper's movement)"),
        (.ggirDiaryNonwearNotApplied(seconds: 2700),
         "the diary's nonwear rows (45 min of this night's window) are not applied: GGIR's part 4 does not read self-reported non-wear (its part 5 only lists it), so the GGIR parity method leaves them out as GGIR does; the default wrist method applies them"),
    ]

    @Test("each note reads as the sentence its method stored")
    func sentences() {
        for (note, expected) in Self.table {
            #expect(NightNoteText.sentence(note) == expected, "\(note.code)")
        }
        let every = Set(Self.table.map(\.0.code))
        #expect(every.count == 43, "a row for every case: \(every.count)")
    }

    @Test("a night's notes join in order with \"; \"; no notes, no reason")
    func joined() {
        #expect(NightNoteText.text([]) == nil)
        #expect(NightNoteText.text([.timeInBedFromDiary(source: "d.csv row 3"), .intervalGridOffSource(intervalSeconds: 900, sourceSeconds: 600)])
                == "time in bed from d.csv row 3; 15m intervals cannot follow the source's own 10m totals (15m is neither a multiple nor a divisor of 10m): intervals lie on the local clock and some of them mix two source totals")
        #expect(NightNoteText.text([.ggirDaySleeper, .ggirOwnClock])
                == "day sleeper: the HDCZA window ended in its last hour, so it was searched again from 18:00 to 18:00 (GGIR's rule); these are GGIR's numbers on GGIR's clock (the chart's angle-z line is on real time)")
    }
}
