import Foundation
import Testing
import SleepCore

/// A sleep diary's `nonwear` row: its span is not worn, whatever the data say, on the wrist and
/// in epoch files, and it is no sleep period.
@Suite("Sleep diary: nonwear rows are not worn")
struct DiaryNotWornTests {
    typealias Day = DaySleepPeriodsTests
    static func at(_ minute: Int) -> Int64 { Day.at(minute) }
    static let offRow = DiaryPeriodGuide(kind: .nonwear, startUTC: at(300), endUTC: at(360), source: "the sleep diary (diary.csv row 4)")

    @Test("wrist: the row's hour (worn and moving in the data) is not worn in the day's minutes and the night's valid hours, and makes no period")
    func wrist() throws {
        let main = DiaryPeriodsTests.guide(640, 835, row: 2)
        let plain = DiaryPeriodsTests.wristDay(seed: 1, guides: DiaryGuides(main: main))
        let a = DiaryPeriodsTests.wristDay(seed: 1, guides: DiaryGuides(main: main, others: [Self.offRow]))
        #expect(a.status == .scored, "\(a.notes)")
        let day = try #require(a.day), before = try #require(plain.day)
        #expect(!before.classes[300..<360].contains { $0.isNotWorn }, "worn in the data")
        #expect(day.classes[300..<360].allSatisfy { $0.isNotWorn }, "\(day.classes[300..<360])")
        #expect(day.classes[299] == before.classes[299] && day.classes[360] == before.classes[360])
        let w = try #require(a.wearable), w0 = try #require(plain.wearable)
        #expect(w.diaryNotWornSpansUTC == [[Self.at(300), Self.at(360)]])
        #expect(abs(w0.validHours - w.validHours - 1) < 0.01, "\(w0.validHours) → \(w.validHours)")
        #expect(a.periods?.map(\.kind) == plain.periods?.map(\.kind), "a nonwear row is no sleep period")
    }

    @Test("epoch file: the row's epochs are not worn (missing for the scorer) and its minutes not worn in the day")
    func epochFile() throws {
        var night = DiaryPeriodsTests.actigraphDay(sleeps: [(660, 480)])
        night.guide = DiaryPeriodsTests.guide(650, 1150, row: 2)
        night.diaryPeriods = [Self.offRow]
        let a = EpochFileNightMethod().analyzeNight(night, parameters: DiaryPeriodsTests.diaryParameters)
        #expect(a.status == .scored, "\(a.notes)")
        #expect(a.epochFile?.nonWearMinutes == 60, "\(String(describing: a.epochFile?.nonWearMinutes))")
        let day = try #require(a.day)
        #expect(day.classes[300..<360].allSatisfy { $0 == .notWornNoMovement } && day.classes[299] == .awake, "\(day.classes[295..<365])")
        #expect(a.periods?.map(\.kind) == [.main])
    }
}
