/// Why a night has its status, or how its method was adapted: one fact per note, with the numbers
/// and names it needs, and no words. SleepReport words each note (`NightNoteText`), so a change of
/// wording changes no stored analysis, and this module knows nothing of a page's sentences.
///
/// Each case has a stable ``code`` (in its doc comment) that names it in the stored JSON; the
/// coding is written by hand, `{"code": …}` plus the case's named values, so renaming a case or
/// a Swift label changes nothing stored. A code is never reused for another meaning.
public enum NightNote: Sendable, Hashable, Codable {
    // MARK: Any method on the per-second series (phone-in-bed)

    /// `interval-grid-off-source`: the interval length is neither a multiple nor a divisor of the
    /// source's own totals, so intervals stay on the local clock (``NightAnalyzer/intervalGrid(sourceResolutionSeconds:firstDataUTC:window:length:)``).
    case intervalGridOffSource(intervalSeconds: Int, sourceSeconds: Int)
    /// `time-in-bed-from-diary`: a sleep diary row (named by its source) set time in bed.
    case timeInBedFromDiary(source: String)
    /// `main-rest-period`: an all-day phone log, narrowed to its main rest period.
    case mainRestPeriod(coveredSeconds: Int, restSeconds: Int)
    /// `diary-phone-off-bed`: the diary's `nonwear` rows take `seconds` of the phone's time in bed
    /// as no data (the phone was off the mattress: what it recorded is not the sleeper's movement).
    case diaryPhoneOffBed(seconds: Int)

    // MARK: The wearable method

    /// `wearable-no-epochs`: no 5-s epochs of raw acceleration with gravity.
    case wearableNoEpochs
    /// `not-worn-all-data`: every second of data in the night is non-wear.
    case notWornAllData(dataSeconds: Int)
    /// `too-few-valid-hours`: fewer valid hours than GGIR's `includenightcrit`.
    case tooFewValidHours(validHours: Double, nightSeconds: Int, requiredHours: Double)
    /// `hdcza-no-rest-block`: HDCZA found no rest block in the valid data.
    case noRestBlock
    /// `no-activity-counts`: the chosen count scorer has no counts to score.
    case noCountsForAlgorithm(SleepAlgorithmChoice)
    /// `no-bout-in-window`: no sustained inactivity bout inside the HDCZA window.
    case noBoutInWindow
    /// `day-sleeper`: the window ended in its last hour and was searched again from 18:00.
    case daySleeper
    /// `only-carried-sleep`: the day's only rest was sleep under way at its start, which began the
    /// day before and is that day's (``WearableDayPeriods``).
    case onlyCarriedSleep

    // MARK: GGIR parity

    /// `ggir-no-epochs`: no 5-s epochs of raw acceleration with gravity.
    case ggirNoEpochs
    /// `ggir-no-whole-recording`: the night came without its whole recording and format.
    case ggirNoWholeRecording
    /// `ggir-no-nonwear-scores`: the 2023 non-wear scores were not stored (an older sleepsta).
    case ggirNoNonWearScores
    /// `ggir-nothing-analysed`: GGIR analyses no part of the recording.
    case ggirNothingAnalysed
    /// `ggir-no-night`: GGIR has no night window here.
    case ggirNoNight
    /// `ggir-no-window`: HDCZA found no sleep period window; GGIR writes no night.
    case ggirNoWindow
    /// `ggir-no-bouts`: no sustained inactivity bout in the night's valid epochs.
    case ggirNoBouts
    /// `ggir-cleaningcode-5`: no bout overlaps the HDCZA window.
    case ggirNoBoutInWindow(fractionInvalid: Double)
    /// `ggir-cleaningcode-2`: too much of the night invalid; GGIR's numbers, its clock times as
    /// local seconds.
    case ggirTooMuchInvalid(fractionInvalid: Double, onsetLocalSecond: Int64, wakeLocalSecond: Int64, totalSleepMinutes: Double)
    /// `ggir-sleep-under-way-at-day-start`: GGIR's one window a night begins with sleep under way
    /// at the day's start: that sleep began the day before, so its minutes may be counted in both
    /// nights (GGIR's limit; the default method gives each sleep to the day of its onset).
    case ggirSleepUnderWayAtDayStart
    /// `ggir-day-sleeper`: GGIR's day-sleeper rule moved the window to 18:00 to 18:00.
    case ggirDaySleeper
    /// `ggir-clock-change`: GGIR read a device clock across a change of the clocks on `day`
    /// (`back`: an hour inserted; else dropped), and was `shiftAfterSeconds` off real time after it.
    case ggirClockChange(back: Bool, day: CivilDate, shiftAfterSeconds: Int64)
    /// `ggir-own-clock`: the numbers are on GGIR's clock, the chart on real time.
    case ggirOwnClock
    /// `ggir-diary-nonwear-not-applied`: the diary's `nonwear` rows cover `seconds` of the night's
    /// window and are not applied: GGIR's part 4 does not read self-reported non-wear (its part 5
    /// only lists it, `g.sibreport`), so the parity method leaves them out as GGIR does.
    case ggirDiaryNonwearNotApplied(seconds: Int)

    // MARK: The epoch-file method

    /// `epoch-file-no-epochs`: the night has no stored epochs of the file.
    case epochFileNoEpochs
    /// `no-such-column`: the column asked for is not in the file.
    case noSuchColumn(column: String, available: [String])
    /// `no-activity-column`: no column to score.
    case noActivityColumn(available: [String])
    /// `not-worn-zero-counts`: runs of zero counts (the device off the wrist) leave too little.
    case notWornZeroCounts(offSeconds: Int, runHours: Int, wornSeconds: Int)
    /// `too-little-data`: less data in `column` than the analysis needs.
    case tooLittleData(column: String, seconds: Int, requiredSeconds: Int)
    /// `epochs-not-summable`: the file's epochs do not sum to the scorer's 60-s epochs.
    case epochsNotSummable(epochSeconds: Int)
    /// `day-fragment`: the data are a fragment of a day (too little of 00:00–06:00).
    case dayFragment(dataSeconds: Int, nightCoreSeconds: Int)
    /// `no-time-in-bed`: the guider (its summary text) found no time in bed.
    case noTimeInBed(guider: String)
    /// `no-rest-period`: no rest period in the night's activity.
    case noRestPeriod
    /// `no-actiware-sleep-onset`: no section of `sectionMinutes` that Actiware takes for onset.
    case noActiwareSleepOnset(sectionMinutes: Int)
    /// `no-minute-asleep`: no minute scored asleep in bed.
    case noMinuteAsleep
    /// `no-persistent-sleep`: no run of `minutes` of sleep in bed.
    case noPersistentSleep(minutes: Int)

    // MARK: Stored

    /// `legacy-text`: the sentence an older sleepsta stored (`analyses.status_reason`), kept as it
    /// was so that an existing store's pages read the same without deriving its nights again.
    case legacyText(String)
    /// A code this sleepsta does not know (a store written by a newer one): read, not lost, and
    /// worded as the code itself. Encoded as `{"code": code}`.
    case unrecognised(code: String)

    // MARK: Any method: cautions on a scored night

    /// `gap-in-sleep-period`: a gap of more than ``SleepPeriodGaps/minimumGapSeconds`` without
    /// scored data (no data or not worn) touches the sleep period (inside it, or less than 10 min
    /// from onset or wake time; ``SleepPeriodGaps`` defines it): the true onset or wake time may lie
    /// in the gap, so TST is a lower bound. The
    /// longest such gap's length and where it lies, and how many such gaps touch the period.
    case gapInSleepPeriod(longestGapSeconds: Int, place: SleepPeriodGapPlace, gaps: Int)

    // MARK: The epoch-file method: whether the data are a night

    /// `not-a-night-in-bed`: a short recording without rest markers that ends at
    /// `endSecondsAfterMidnight` (local, after the night's midnight), before
    /// `earliestEndSecondsAfterMidnight`: it cannot hold a night in bed up to getting up.
    case notANightInBed(endSecondsAfterMidnight: Int, earliestEndSecondsAfterMidnight: Int)
    /// `not-worn-through-night`: the not-worn rule took `offSeconds` of the night, leaving
    /// `wornCoreSeconds` of 00:00–06:00, and no rest interval of the file or diary entry places a
    /// bed period in it: a day the device was off, not a night without sleep.
    case notWornThroughNight(offSeconds: Int, wornCoreSeconds: Int)

    /// The stable names of the cases in the stored JSON, each written once here: the decoder
    /// switches over them, so a case cannot be added without its decoding.
    enum Code: String {
        case intervalGridOffSource = "interval-grid-off-source"
        case timeInBedFromDiary = "time-in-bed-from-diary"
        case mainRestPeriod = "main-rest-period"
        case wearableNoEpochs = "wearable-no-epochs"
        case notWornAllData = "not-worn-all-data"
        case tooFewValidHours = "too-few-valid-hours"
        case noRestBlock = "hdcza-no-rest-block"
        case noCountsForAlgorithm = "no-activity-counts"
        case noBoutInWindow = "no-bout-in-window"
        case daySleeper = "day-sleeper"
        case ggirNoEpochs = "ggir-no-epochs"
        case ggirNoWholeRecording = "ggir-no-whole-recording"
        case ggirNoNonWearScores = "ggir-no-nonwear-scores"
        case ggirNothingAnalysed = "ggir-nothing-analysed"
        case ggirNoNight = "ggir-no-night"
        case ggirNoWindow = "ggir-no-window"
        case ggirNoBouts = "ggir-no-bouts"
        case ggirNoBoutInWindow = "ggir-cleaningcode-5"
        case ggirTooMuchInvalid = "ggir-cleaningcode-2"
        case ggirDaySleeper = "ggir-day-sleeper"
        case ggirClockChange = "ggir-clock-change"
        case ggirOwnClock = "ggir-own-clock"
        case epochFileNoEpochs = "epoch-file-no-epochs"
        case noSuchColumn = "no-such-column"
        case noActivityColumn = "no-activity-column"
        case notWornZeroCounts = "not-worn-zero-counts"
        case tooLittleData = "too-little-data"
        case epochsNotSummable = "epochs-not-summable"
        case dayFragment = "day-fragment"
        case noTimeInBed = "no-time-in-bed"
        case noRestPeriod = "no-rest-period"
        case noActiwareSleepOnset = "no-actiware-sleep-onset"
        case noMinuteAsleep = "no-minute-asleep"
        case noPersistentSleep = "no-persistent-sleep"
        case legacyText = "legacy-text"
        case gapInSleepPeriod = "gap-in-sleep-period"
        case notANightInBed = "not-a-night-in-bed"
        case notWornThroughNight = "not-worn-through-night"
        case onlyCarriedSleep = "only-carried-sleep"
        case ggirSleepUnderWayAtDayStart = "ggir-sleep-under-way-at-day-start"
        case diaryPhoneOffBed = "diary-phone-off-bed"
        case ggirDiaryNonwearNotApplied = "ggir-diary-nonwear-not-applied"
    }

    /// The case's stored name; nil for ``unrecognised(code:)``, which keeps a name this sleepsta
    /// does not know.
    var storedCode: Code? {
        switch self {
        case .intervalGridOffSource: return .intervalGridOffSource
        case .timeInBedFromDiary: return .timeInBedFromDiary
        case .mainRestPeriod: return .mainRestPeriod
        case .wearableNoEpochs: return .wearableNoEpochs
        case .notWornAllData: return .notWornAllData
        case .tooFewValidHours: return .tooFewValidHours
        case .noRestBlock: return .noRestBlock
        case .noCountsForAlgorithm: return .noCountsForAlgorithm
        case .noBoutInWindow: return .noBoutInWindow
        case .daySleeper: return .daySleeper
        case .ggirNoEpochs: return .ggirNoEpochs
        case .ggirNoWholeRecording: return .ggirNoWholeRecording
        case .ggirNoNonWearScores: return .ggirNoNonWearScores
        case .ggirNothingAnalysed: return .ggirNothingAnalysed
        case .ggirNoNight: return .ggirNoNight
        case .ggirNoWindow: return .ggirNoWindow
        case .ggirNoBouts: return .ggirNoBouts
        case .ggirNoBoutInWindow: return .ggirNoBoutInWindow
        case .ggirTooMuchInvalid: return .ggirTooMuchInvalid
        case .ggirDaySleeper: return .ggirDaySleeper
        case .ggirClockChange: return .ggirClockChange
        case .ggirOwnClock: return .ggirOwnClock
        case .epochFileNoEpochs: return .epochFileNoEpochs
        case .noSuchColumn: return .noSuchColumn
        case .noActivityColumn: return .noActivityColumn
        case .notWornZeroCounts: return .notWornZeroCounts
        case .tooLittleData: return .tooLittleData
        case .epochsNotSummable: return .epochsNotSummable
        case .dayFragment: return .dayFragment
        case .noTimeInBed: return .noTimeInBed
        case .noRestPeriod: return .noRestPeriod
        case .noActiwareSleepOnset: return .noActiwareSleepOnset
        case .noMinuteAsleep: return .noMinuteAsleep
        case .noPersistentSleep: return .noPersistentSleep
        case .legacyText: return .legacyText
        case .unrecognised: return nil
        case .gapInSleepPeriod: return .gapInSleepPeriod
        case .notANightInBed: return .notANightInBed
        case .notWornThroughNight: return .notWornThroughNight
        case .onlyCarriedSleep: return .onlyCarriedSleep
        case .ggirSleepUnderWayAtDayStart: return .ggirSleepUnderWayAtDayStart
        case .diaryPhoneOffBed: return .diaryPhoneOffBed
        case .ggirDiaryNonwearNotApplied: return .ggirDiaryNonwearNotApplied
        }
    }

    /// The stable name of the case in the stored JSON.
    public var code: String {
        if case .unrecognised(let code) = self { return code }
        return storedCode?.rawValue ?? ""
    }
}
