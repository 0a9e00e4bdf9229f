import Foundation
import Testing
import SleepCore

/// The stored form of a night's notes: every case comes back as it went, under its stable code,
/// and a code this sleepsta does not know is read, not fatal.
@Suite("Night notes: stable codes and JSON that round-trips")
struct NightNoteCodingTests {
    /// One value of every case (two where a flag or a nil changes the shape).
    static let every: [NightNote] = [
        .intervalGridOffSource(intervalSeconds: 900, sourceSeconds: 600), .timeInBedFromDiary(source: "diary.csv row 2"),
        .mainRestPeriod(coveredSeconds: 72_000, restSeconds: 30_600), .wearableNoEpochs, .notWornAllData(dataSeconds: 86_400),
        .tooFewValidHours(validHours: 10.254166666666666, nightSeconds: 90_000, requiredHours: 16), .noRestBlock,
        .noCountsForAlgorithm(.coleKripke), .noCountsForAlgorithm(.sadeh), .noBoutInWindow, .daySleeper, .onlyCarriedSleep, .ggirSleepUnderWayAtDayStart,
        .ggirNoEpochs, .ggirNoWholeRecording, .ggirNoNonWearScores, .ggirNothingAnalysed, .ggirNoNight, .ggirNoWindow, .ggirNoBouts,
        .ggirNoBoutInWindow(fractionInvalid: 0.041666666666666664),
        .ggirTooMuchInvalid(fractionInvalid: 0.5, onsetLocalSecond: 1_719_789_305, wakeLocalSecond: 1_719_817_320, totalSleepMinutes: 401.25),
        .ggirDaySleeper, .ggirClockChange(back: true, day: CivilDate(year: 2024, month: 10, day: 27), shiftAfterSeconds: 3600),
        .ggirClockChange(back: false, day: CivilDate(year: 2024, month: 3, day: 31), shiftAfterSeconds: 0), .ggirOwnClock,
        .epochFileNoEpochs, .noSuchColumn(column: "enmo", available: ["activity", "light"]), .noActivityColumn(available: []),
        .notWornZeroCounts(offSeconds: 18_000, runHours: 2, wornSeconds: 1800),
        .tooLittleData(column: "activity", seconds: 7200, requiredSeconds: 10_800), .epochsNotSummable(epochSeconds: 45),
        .dayFragment(dataSeconds: 10_800, nightCoreSeconds: 0), .noTimeInBed(guider: "the file's rest interval (REST)"), .noRestPeriod,
        .noActiwareSleepOnset(sectionMinutes: 10), .noMinuteAsleep, .noPersistentSleep(minutes: 15),
        .legacyText("time in bed from diary.csv row 2; it was \"quoted\""), .unrecognised(code: "a-newer-note"),
        .gapInSleepPeriod(longestGapSeconds: 4560, place: .atWake, gaps: 1), .gapInSleepPeriod(longestGapSeconds: 900, place: .atOnset, gaps: 2),
        .gapInSleepPeriod(longestGapSeconds: 1800, place: .inside, gaps: 3),
        .notANightInBed(endSecondsAfterMidnight: 6480, earliestEndSecondsAfterMidnight: 14_400),
        .notWornThroughNight(offSeconds: 72_840, wornCoreSeconds: 1800),
        .diaryPhoneOffBed(seconds: 3600), .ggirDiaryNonwearNotApplied(seconds: 2700),
    ]

    @Test("every case round-trips through JSON, in order")
    func roundTrip() throws {
        let data = try JSONEncoder().encode(Self.every)
        #expect(try JSONDecoder().decode([NightNote].self, from: data) == Self.every)
        for note in Self.every {
            let one = try JSONEncoder().encode(note)
            #expect(try JSONDecoder().decode(NightNote.self, from: one) == note, "\(note)")
        }
    }

    @Test("every case has its own kebab-case code, and the stored object names it")
    func codes() throws {
        let codes = Self.every.map(\.code)
        #expect(Set(codes).count == 43, "one code per case: \(codes.count) notes, \(Set(codes).count) codes")
        for note in Self.every {
            #expect(note.code.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(note.code)")
            let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(note)) as? [String: Any]
            #expect(object?["code"] as? String == note.code)
        }
    }

    @Test("the stored shape is code plus named values, spelled as released")
    func shape() throws {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        func json(_ n: NightNote) throws -> String { String(decoding: try e.encode(n), as: UTF8.self) }
        #expect(try json(.notWornAllData(dataSeconds: 86_400)) == #"{"code":"not-worn-all-data","dataSeconds":86400}"#)
        #expect(try json(.tooFewValidHours(validHours: 10.5, nightSeconds: 86_400, requiredHours: 16))
                == #"{"code":"too-few-valid-hours","nightSeconds":86400,"requiredHours":16,"validHours":10.5}"#)
        #expect(try json(.daySleeper) == #"{"code":"day-sleeper"}"#)
        #expect(try json(.noCountsForAlgorithm(.coleKripke)) == #"{"algorithm":"cole-kripke","code":"no-activity-counts"}"#)
        #expect(try json(.ggirClockChange(back: true, day: CivilDate(year: 2024, month: 10, day: 27), shiftAfterSeconds: -3600))
                == #"{"back":true,"code":"ggir-clock-change","day":"2024-10-27","shiftAfterSeconds":-3600}"#)
        #expect(try json(.legacyText("as stored")) == #"{"code":"legacy-text","text":"as stored"}"#)
        #expect(try json(.gapInSleepPeriod(longestGapSeconds: 4560, place: .atWake, gaps: 1))
                == #"{"code":"gap-in-sleep-period","gaps":1,"longestGapSeconds":4560,"place":"wake"}"#)
        #expect(try json(.gapInSleepPeriod(longestGapSeconds: 900, place: .atOnset, gaps: 2))
                == #"{"code":"gap-in-sleep-period","gaps":2,"longestGapSeconds":900,"place":"onset"}"#)
    }

    @Test("an unknown code reads as unrecognised; a known code without its values or with an unknown algorithm throws")
    func unknownAndDamaged() throws {
        let unknown = #"[{"code":"a-newer-note","hours":3},{"code":"day-sleeper"}]"#
        #expect(try JSONDecoder().decode([NightNote].self, from: Data(unknown.utf8)) == [.unrecognised(code: "a-newer-note"), .daySleeper])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NightNote.self, from: Data(#"{"code":"not-worn-all-data"}"#.utf8)) }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(NightNote.self, from: Data(#"{"code":"no-activity-counts","algorithm":"none"}"#.utf8))
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NightNote.self, from: Data(#"{"text":"no code"}"#.utf8)) }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(NightNote.self, from: Data(#"{"code":"gap-in-sleep-period","longestGapSeconds":900,"place":"middle","gaps":1}"#.utf8))
        }
    }
}
