import Foundation
import Testing
import SleepCore

/// A sleep diary that names several periods of a day (a split night's two `sleep` rows, a `nap`
/// row), and an ActiGraph day with two sleeps: each is a period of its own, with its own time in
/// bed, beside the night's main period, on the wrist and in epoch files alike.
@Suite("Every sleep of the day: the diary's periods and ActiLife's")
struct DiaryPeriodsTests {
    typealias Day = DaySleepPeriodsTests
    static func at(_ minute: Int) -> Int64 { Day.at(minute) }
    static var diaryParameters: AnalysisParameters { var p = AnalysisParameters(); p.diaryDigest = "test"; return p }

    /// The split night of 22:45–01:50 and 03:50–06:50 (up and about between) with a nap at 14:00.
    static let plan: Day.Plan = [(120, 45, .sleep), (645, 185, .sleep), (830, 120, .active), (950, 180, .sleep)]

    static func wristDay(seed: UInt64, guides: DiaryGuides) -> NightAnalysis {
        let e = Day.epochs(plan, seed: seed)
        var data = NightData(window: Day.window, timeline: Day.timeline, series: SecondSeries.empty(startSecond: Day.window.startUTC),
                             epochs: e.slice(from: Day.window.startUTC, to: Day.window.endUTC + 6 * 3600), guide: guides.main)
        data.diaryPeriods = guides.others
        return WearableNightMethod().analyzeNight(data, parameters: Self.diaryParameters)
    }

    static func guide(_ from: Int, _ to: Int, row: Int) -> TimeInBedGuide {
        TimeInBedGuide(startUTC: at(from), endUTC: at(to), source: "the sleep diary (diary.csv row \(row))")
    }

    @Test("wrist: two sleep rows and a nap row are three periods from the diary, each measured inside its own time in bed", arguments: [1, 2] as [UInt64])
    func wristDiary(seed: UInt64) throws {
        let guides = DiaryGuides(main: Self.guide(640, 835, row: 2), others: [
            DiaryPeriodGuide(kind: .nap, startUTC: Self.at(115), endUTC: Self.at(170), source: "the sleep diary (diary.csv row 4)"),
            DiaryPeriodGuide(kind: .sleep, startUTC: Self.at(945), endUTC: Self.at(1135), source: "the sleep diary (diary.csv row 3)"),
        ])
        let a = Self.wristDay(seed: seed, guides: guides)
        #expect(a.status == .scored, "\(a.notes)")
        let periods = try #require(a.periods)
        #expect(periods.map(\.kind) == [.main, .nap, .secondary], "\(periods)")
        #expect(periods.allSatisfy { $0.source == .diary })
        Day.expect(periods.first, kind: .main, from: 645, minutes: 185, "seed \(seed): main")
        Day.expect(periods.first { $0.kind == .nap }, kind: .nap, from: 120, minutes: 45, "seed \(seed): the nap row")
        Day.expect(periods.first { $0.kind == .secondary }, kind: .secondary, from: 950, minutes: 180, "seed \(seed): the second sleep row")
        let nap = try #require(periods.first { $0.kind == .nap })
        #expect(nap.inBedStartUTC == Self.at(115) && nap.inBedEndUTC >= Self.at(170), "the nap's time in bed is its row's")
        // Every minute is one class; the diary's periods are the day's sleep.
        let day = try #require(a.day)
        #expect(day.classes.count == Int(Day.window.durationSeconds / 60))
        #expect(day.classes[130] == .nap && day.classes[700] == .sleepMain && day.classes[1000] == .sleepSecondary)
    }

    @Test("wrist: a diary nap row where the wrist shows no sleep gives no period; the data's own nap is kept where no row covers it")
    func wristDiaryWithoutSleep() throws {
        let guides = DiaryGuides(main: Self.guide(640, 1135, row: 2), others: [
            DiaryPeriodGuide(kind: .nap, startUTC: Self.at(300), endUTC: Self.at(340), source: "the sleep diary (diary.csv row 3)"),
        ])
        let a = Self.wristDay(seed: 3, guides: guides)
        let periods = try #require(a.periods)
        #expect(!periods.contains { $0.source == .diary && $0.kind == .nap }, "no sleep at 17:00–17:40: \(periods)")
        #expect(periods.contains { $0.kind == .nap && $0.source == .data && abs(Day.minutes($0.sleepOnsetUTC, Self.at(120))) <= 15 },
                "the 14:00 nap found in the data: \(periods)")
    }

    /// A day of ActiGraph counts (60 s) from noon: `sleeps` as (minute from noon, minutes), still;
    /// awake otherwise.
    static func actigraphDay(sleeps: [(Int, Int)]) -> NightData {
        let t0 = Day.window.startUTC, n = Int(Day.window.durationSeconds / 60)
        var counts = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let asleep = sleeps.contains { i >= $0.0 && i < $0.0 + $0.1 }
            counts[i] = asleep ? Double([0, 0, 3, 0, 12, 0][i % 6]) : Double(300 + (i * 53) % 900)
        }
        let series = EpochNightSeries(format: "actilife-csv", startUTC: t0, epochSeconds: 60, count: n, columns: [
            .init(name: "axis1", sourceName: "Axis1", unit: "counts", values: counts),
        ])
        return NightData(window: Day.window, timeline: Day.timeline, series: .empty(startSecond: t0), epochFile: series)
    }

    @Test("ActiGraph counts: every Tudor-Locke period of the day is a period (ActiLife lists each), the longest the main one")
    func actiLifePeriods() throws {
        let a = EpochFileNightMethod().analyzeNight(Self.actigraphDay(sleeps: [(645, 185), (950, 200)]), parameters: AnalysisParameters())
        #expect(a.status == .scored, "\(a.notes)")
        let periods = try #require(a.periods)
        #expect(periods.map(\.kind) == [.main, .secondary], "\(periods)")
        #expect(abs(Day.minutes(periods[0].sleepOnsetUTC, Self.at(950))) <= 5 && abs(Day.minutes(periods[0].wakeTimeUTC, Self.at(1150))) <= 5)
        #expect(abs(Day.minutes(periods[1].sleepOnsetUTC, Self.at(645))) <= 5 && abs(Day.minutes(periods[1].wakeTimeUTC, Self.at(830))) <= 5)
        // The main period is the night's, as before: its metrics are the night's.
        #expect(periods[0].totalSleepTimeMinutes == a.metrics?.totalSleepTimeMinutes)
        #expect(periods[1].totalSleepTimeMinutes > 150 && periods[1].totalSleepTimeMinutes <= 185)
        #expect(periods.allSatisfy { $0.source == .data })
    }

    @Test("epoch file with a diary: the main row guides the night, the nap row is a nap inside its own time in bed")
    func epochFileDiary() throws {
        var night = Self.actigraphDay(sleeps: [(120, 50), (660, 480)])
        night.guide = Self.guide(650, 1150, row: 2)
        night.diaryPeriods = [DiaryPeriodGuide(kind: .nap, startUTC: Self.at(110), endUTC: Self.at(180), source: "the sleep diary (diary.csv row 3)")]
        let a = EpochFileNightMethod().analyzeNight(night, parameters: Self.diaryParameters)
        let periods = try #require(a.periods)
        #expect(periods.map(\.kind) == [.main, .nap], "\(periods)")
        #expect(periods.allSatisfy { $0.source == .diary })
        let nap = periods[1]
        #expect(nap.inBedStartUTC == Self.at(110) && nap.inBedEndUTC == Self.at(180))
        #expect(abs(Day.minutes(nap.sleepOnsetUTC, Self.at(120))) <= 5 && abs(nap.totalSleepTimeMinutes - 50) <= 10, "\(nap)")
    }
}
