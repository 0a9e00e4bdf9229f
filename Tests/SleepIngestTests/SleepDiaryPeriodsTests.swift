import Foundation
import Testing
import SleepCore
import SleepIngest

/// A diary that names several sleep periods of a night: the longest `sleep` row is the night's time
/// in bed, the other `sleep` rows and the `nap` rows are periods beside it; rows that overlap an
/// earlier one of the same night are refused by row.
@Suite("Sleep diary: several periods a night")
struct SleepDiaryPeriodsTests {
    /// The night of 2024-06-12 at UTC+2: its window starts at 12:00 local.
    static let window = NightWindow(date: CivilDate(year: 2024, month: 6, day: 12), startUTC: 1_718_186_400, endUTC: 1_718_272_800)
    static func utc(_ hoursAfterNoon: Double) -> Int64 { window.startUTC + Int64(hoursAfterNoon * 3600) }

    @Test("a split night's two sleep rows and a nap row: the longest sleep row guides the night, the others are periods in time order")
    func splitNightAndNap() throws {
        let diary = try SleepDiary.parse("""
            id,night,in_bed,out_of_bed,type
            S02,2024-06-12,03:45,06:55,sleep
            S02,2024-06-12,22:40,01:55,sleep
            S02,2024-06-12,14:00,14:50,nap
            S02,2024-06-13,22:30,06:30,sleep
            """, path: "diary.csv")
        #expect(diary.problems.isEmpty, "\(diary.problems)")
        let g = diary.guides(recordingPath: "S02/wrist.cwa", night: Self.window, timeline: .fixed(7200))
        let main = try #require(g.main)
        #expect(main.startUTC == Self.utc(10 + 40.0 / 60) && main.endUTC == Self.utc(13 + 55.0 / 60), "22:40–01:55 (195 min) is longer than 03:45–06:55 (190 min)")
        #expect(main.source == "the sleep diary (diary.csv row 3)")
        #expect(g.others.map(\.kind) == [.nap, .sleep])
        #expect(g.others[0].startUTC == Self.utc(2) && g.others[0].endUTC == Self.utc(2 + 50.0 / 60) && g.others[0].source.contains("row 4"))
        #expect(g.others[1].startUTC == Self.utc(15 + 45.0 / 60) && g.others[1].source.contains("row 2"))
        #expect(diary.guide(recordingPath: "S02/wrist.cwa", night: Self.window, timeline: .fixed(7200)) == main)
        // The diary's use counts the nap row as applied, as the sleep rows.
        let use = diary.use(nightDates: ["S02/wrist.cwa": ["2024-06-12", "2024-06-13"]])
        #expect(use.rows == 4 && use.applied == 4 && use.problems.isEmpty, "\(use)")
    }

    @Test("a day with only a nap row has no main time in bed and one nap")
    func napOnly() throws {
        let diary = try SleepDiary.parse("id,night,in_bed,out_of_bed,type\nS03,2024-06-12,15:10,15:55,nap\n", path: "diary.csv")
        let g = diary.guides(recordingPath: "S03.csv", night: Self.window, timeline: .fixed(7200))
        #expect(g.main == nil && g.others.count == 1 && g.others[0].kind == .nap)
    }

    @Test("a sleep or nap row that overlaps an earlier one of the same night is refused by row, naming the row it overlaps")
    func overlapsRefused() throws {
        let diary = try SleepDiary.parse("""
            id,night,in_bed,out_of_bed,type
            S02,2024-06-12,22:40,06:55,sleep
            S02,2024-06-12,23:30,07:00,sleep
            S02,2024-06-12,05:00,05:40,nap
            S02,2024-06-12,14:00,14:30,nap
            S02,2024-06-12,14:20,14:40,nonwear
            """, path: "diary.csv")
        #expect(diary.problems.count == 2, "\(diary.problems)")
        #expect(diary.problems.contains { $0.contains("row 3") && $0.contains("second sleep row") && $0.contains("overlaps row 2") })
        #expect(diary.problems.contains { $0.contains("row 4") && $0.contains("a nap row") && $0.contains("overlaps row 2") })
        #expect(diary.entries.map(\.row) == [2, 5, 6], "non-wear rows are not sleep periods and may overlap one")
    }
}
