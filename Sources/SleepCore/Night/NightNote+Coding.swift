/// The stored form of a ``NightNote``: an object with its ``NightNote/code`` and the case's values
/// under the names below, written by hand so that it never follows a rename in Swift. A code this
/// sleepsta does not know reads as ``NightNote/unrecognised(code:)``, so a store a newer sleepsta
/// wrote still opens and its pages still show something; a known code without its values (or with
/// a value it cannot read) is a damaged store and throws.
extension NightNote {
    enum Key: String, CodingKey {
        case code = "code", text = "text", source = "source"
        case intervalSeconds = "intervalSeconds", sourceSeconds = "sourceSeconds"
        case coveredSeconds = "coveredSeconds", restSeconds = "restSeconds", dataSeconds = "dataSeconds"
        case validHours = "validHours", nightSeconds = "nightSeconds", requiredHours = "requiredHours"
        case algorithm = "algorithm", fractionInvalid = "fractionInvalid"
        case onsetLocalSecond = "onsetLocalSecond", wakeLocalSecond = "wakeLocalSecond", totalSleepMinutes = "totalSleepMinutes"
        case back = "back", day = "day", shiftAfterSeconds = "shiftAfterSeconds"
        case column = "column", available = "available", offSeconds = "offSeconds", runHours = "runHours", wornSeconds = "wornSeconds"
        case seconds = "seconds", requiredSeconds = "requiredSeconds", epochSeconds = "epochSeconds"
        case nightCoreSeconds = "nightCoreSeconds", guider = "guider", sectionMinutes = "sectionMinutes", minutes = "minutes"
        case longestGapSeconds = "longestGapSeconds", place = "place", gaps = "gaps"
        case endSecondsAfterMidnight = "endSecondsAfterMidnight", earliestEndSecondsAfterMidnight = "earliestEndSecondsAfterMidnight"
        case wornCoreSeconds = "wornCoreSeconds"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(code, forKey: .code)
        func put<T: Encodable>(_ value: T, _ key: Key) throws { try c.encode(value, forKey: key) }
        switch self {
        case let .intervalGridOffSource(interval, source): try put(interval, .intervalSeconds); try put(source, .sourceSeconds)
        case let .timeInBedFromDiary(source): try put(source, .source)
        case let .mainRestPeriod(covered, rest): try put(covered, .coveredSeconds); try put(rest, .restSeconds)
        case let .notWornAllData(data): try put(data, .dataSeconds)
        case let .tooFewValidHours(valid, night, required):
            try put(valid, .validHours); try put(night, .nightSeconds); try put(required, .requiredHours)
        case let .noCountsForAlgorithm(algorithm): try put(algorithm.rawValue, .algorithm)
        case let .ggirNoBoutInWindow(fraction): try put(fraction, .fractionInvalid)
        case let .ggirTooMuchInvalid(fraction, onset, wake, tst):
            try put(fraction, .fractionInvalid); try put(onset, .onsetLocalSecond); try put(wake, .wakeLocalSecond)
            try put(tst, .totalSleepMinutes)
        case let .ggirClockChange(back, day, shift): try put(back, .back); try put(day.description, .day); try put(shift, .shiftAfterSeconds)
        case let .noSuchColumn(column, available): try put(column, .column); try put(available, .available)
        case let .noActivityColumn(available): try put(available, .available)
        case let .notWornZeroCounts(off, runHours, worn): try put(off, .offSeconds); try put(runHours, .runHours); try put(worn, .wornSeconds)
        case let .tooLittleData(column, seconds, required):
            try put(column, .column); try put(seconds, .seconds); try put(required, .requiredSeconds)
        case let .epochsNotSummable(seconds): try put(seconds, .epochSeconds)
        case let .dayFragment(data, core): try put(data, .dataSeconds); try put(core, .nightCoreSeconds)
        case let .noTimeInBed(guider): try put(guider, .guider)
        case let .noActiwareSleepOnset(minutes): try put(minutes, .sectionMinutes)
        case let .noPersistentSleep(minutes): try put(minutes, .minutes)
        case let .legacyText(text): try put(text, .text)
        case let .gapInSleepPeriod(longest, place, gaps):
            try put(longest, .longestGapSeconds); try put(place.rawValue, .place); try put(gaps, .gaps)
        case .wearableNoEpochs, .noRestBlock, .noBoutInWindow, .daySleeper, .ggirNoEpochs, .ggirNoWholeRecording, .ggirNoNonWearScores,
             .ggirNothingAnalysed, .ggirNoNight, .ggirNoWindow, .ggirNoBouts, .ggirDaySleeper, .ggirOwnClock, .epochFileNoEpochs,
             .noRestPeriod, .noMinuteAsleep, .unrecognised, .onlyCarriedSleep, .ggirSleepUnderWayAtDayStart:
            break
        case let .notANightInBed(end, earliest): try put(end, .endSecondsAfterMidnight); try put(earliest, .earliestEndSecondsAfterMidnight)
        case let .notWornThroughNight(off, core): try put(off, .offSeconds); try put(core, .wornCoreSeconds)
        case let .diaryPhoneOffBed(seconds), let .ggirDiaryNonwearNotApplied(seconds): try put(seconds, .seconds)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let code = try c.decode(String.self, forKey: .code)
        func int(_ key: Key) throws -> Int { try c.decode(Int.self, forKey: key) }
        func int64(_ key: Key) throws -> Int64 { try c.decode(Int64.self, forKey: key) }
        func double(_ key: Key) throws -> Double { try c.decode(Double.self, forKey: key) }
        func text(_ key: Key) throws -> String { try c.decode(String.self, forKey: key) }
        guard let known = Code(rawValue: code) else { self = .unrecognised(code: code); return }
        switch known {
        case .intervalGridOffSource: self = .intervalGridOffSource(intervalSeconds: try int(.intervalSeconds), sourceSeconds: try int(.sourceSeconds))
        case .timeInBedFromDiary: self = .timeInBedFromDiary(source: try text(.source))
        case .mainRestPeriod: self = .mainRestPeriod(coveredSeconds: try int(.coveredSeconds), restSeconds: try int(.restSeconds))
        case .wearableNoEpochs: self = .wearableNoEpochs
        case .notWornAllData: self = .notWornAllData(dataSeconds: try int(.dataSeconds))
        case .tooFewValidHours:
            self = .tooFewValidHours(validHours: try double(.validHours), nightSeconds: try int(.nightSeconds), requiredHours: try double(.requiredHours))
        case .noRestBlock: self = .noRestBlock
        case .noCountsForAlgorithm:
            guard let algorithm = SleepAlgorithmChoice(rawValue: try text(.algorithm)) else {
                throw DecodingError.dataCorruptedError(forKey: .algorithm, in: c, debugDescription: "not a --sleep-algorithm this sleepsta knows")
            }
            self = .noCountsForAlgorithm(algorithm)
        case .noBoutInWindow: self = .noBoutInWindow
        case .daySleeper: self = .daySleeper
        case .onlyCarriedSleep: self = .onlyCarriedSleep
        case .ggirSleepUnderWayAtDayStart: self = .ggirSleepUnderWayAtDayStart
        case .ggirNoEpochs: self = .ggirNoEpochs
        case .ggirNoWholeRecording: self = .ggirNoWholeRecording
        case .ggirNoNonWearScores: self = .ggirNoNonWearScores
        case .ggirNothingAnalysed: self = .ggirNothingAnalysed
        case .ggirNoNight: self = .ggirNoNight
        case .ggirNoWindow: self = .ggirNoWindow
        case .ggirNoBouts: self = .ggirNoBouts
        case .ggirNoBoutInWindow: self = .ggirNoBoutInWindow(fractionInvalid: try double(.fractionInvalid))
        case .ggirTooMuchInvalid:
            self = .ggirTooMuchInvalid(fractionInvalid: try double(.fractionInvalid), onsetLocalSecond: try int64(.onsetLocalSecond),
                                       wakeLocalSecond: try int64(.wakeLocalSecond), totalSleepMinutes: try double(.totalSleepMinutes))
        case .ggirDaySleeper: self = .ggirDaySleeper
        case .ggirClockChange:
            guard let day = CivilDate(iso: try text(.day)) else {
                throw DecodingError.dataCorruptedError(forKey: .day, in: c, debugDescription: "not a YYYY-MM-DD date")
            }
            self = .ggirClockChange(back: try c.decode(Bool.self, forKey: .back), day: day, shiftAfterSeconds: try int64(.shiftAfterSeconds))
        case .ggirOwnClock: self = .ggirOwnClock
        case .epochFileNoEpochs: self = .epochFileNoEpochs
        case .noSuchColumn: self = .noSuchColumn(column: try text(.column), available: try c.decode([String].self, forKey: .available))
        case .noActivityColumn: self = .noActivityColumn(available: try c.decode([String].self, forKey: .available))
        case .notWornZeroCounts:
            self = .notWornZeroCounts(offSeconds: try int(.offSeconds), runHours: try int(.runHours), wornSeconds: try int(.wornSeconds))
        case .tooLittleData: self = .tooLittleData(column: try text(.column), seconds: try int(.seconds), requiredSeconds: try int(.requiredSeconds))
        case .epochsNotSummable: self = .epochsNotSummable(epochSeconds: try int(.epochSeconds))
        case .dayFragment: self = .dayFragment(dataSeconds: try int(.dataSeconds), nightCoreSeconds: try int(.nightCoreSeconds))
        case .noTimeInBed: self = .noTimeInBed(guider: try text(.guider))
        case .noRestPeriod: self = .noRestPeriod
        case .noActiwareSleepOnset: self = .noActiwareSleepOnset(sectionMinutes: try int(.sectionMinutes))
        case .noMinuteAsleep: self = .noMinuteAsleep
        case .noPersistentSleep: self = .noPersistentSleep(minutes: try int(.minutes))
        case .legacyText: self = .legacyText(try text(.text))
        case .gapInSleepPeriod:
            guard let place = SleepPeriodGapPlace(rawValue: try text(.place)) else {
                throw DecodingError.dataCorruptedError(forKey: .place, in: c, debugDescription: "not a place of a gap this sleepsta knows")
            }
            self = .gapInSleepPeriod(longestGapSeconds: try int(.longestGapSeconds), place: place, gaps: try int(.gaps))
        case .notANightInBed:
            self = .notANightInBed(endSecondsAfterMidnight: try int(.endSecondsAfterMidnight),
                                   earliestEndSecondsAfterMidnight: try int(.earliestEndSecondsAfterMidnight))
        case .notWornThroughNight: self = .notWornThroughNight(offSeconds: try int(.offSeconds), wornCoreSeconds: try int(.wornCoreSeconds))
        case .diaryPhoneOffBed: self = .diaryPhoneOffBed(seconds: try int(.seconds))
        case .ggirDiaryNonwearNotApplied: self = .ggirDiaryNonwearNotApplied(seconds: try int(.seconds))
        }
    }
}
