import Foundation
import Testing
import SleepCore

/// Every sleep of the day on signals made at the 5-s epoch (not from samples, unlike the bench's
/// generators): a split night, a nap, a night worker's day sleep carried past noon, and awake-still
/// evenings that must stay awake.
@Suite("Every sleep of the day: periods and minutes on epoch-level signals")
struct DaySleepPeriodsTests {
    enum Activity { case home, active, sofa, sleep }
    /// One day's plan: (local minute after the window's noon, minutes, activity); the rest is home.
    typealias Plan = [(from: Int, minutes: Int, activity: Activity)]

    static let offset: Int64 = 7200
    static let date = CivilDate(year: 2024, month: 6, day: 12)
    static var timeline: UTCOffsetTimeline { UTCOffsetTimeline(initialOffsetSeconds: Int32(offset)) }
    static var window: NightWindow { NightSplitter.window(for: date, timeline: timeline) }

    /// Epochs from `hoursBefore` before the window to 6 h after it, following `plan` (minutes from
    /// the window's start, negative before it). Asleep: one attitude with posture changes every
    /// 15–40 min; on a sofa: held by muscle tone, adjusted by 3–15° every 1–3 min with sub-degree
    /// jitter between; at home: the angle wanders by several degrees an epoch; active: anything.
    static func epochs(_ plan: Plan, seed: UInt64, hoursBefore: Int = 0) -> WearableEpochs {
        var rng = SplitMix(seed)
        let start = window.startUTC - Int64(hoursBefore * 3600)
        let n = Int(window.durationSeconds / 5) + (6 + hoursBefore) * 720
        var enmo = [Float](), angle = [Float](), mad = [Float]()
        var held = 0.0, next = 0
        for i in 0..<n {
            let minute = (i - hoursBefore * 720) / 12
            let a = plan.first { minute >= $0.from && minute < $0.from + $0.minutes }?.activity ?? .home
            switch a {
            case .sleep:
                if i >= next { held = rng.uniform(-50, 50); next = i + Int(rng.uniform(15, 40) * 12) }
                angle.append(Float(held + rng.uniform(-0.05, 0.05))); enmo.append(Float(rng.uniform(0.001, 0.004)))
                mad.append(Float(rng.uniform(0.002, 0.004)))
            case .sofa:
                if i >= next { held = max(-70, min(70, held + (rng.uniform(0, 1) < 0.5 ? -1 : 1) * rng.uniform(3, 15))); next = i + Int(rng.uniform(1, 3) * 12) }
                angle.append(Float(held + rng.uniform(-0.8, 0.8))); enmo.append(Float(rng.uniform(0.005, 0.02)))
                mad.append(Float(rng.uniform(0.006, 0.02)))
            case .home:
                held = max(-80, min(80, held + rng.uniform(-8, 8))); next = i
                angle.append(Float(held)); enmo.append(Float(rng.uniform(0.01, 0.06))); mad.append(Float(rng.uniform(0.02, 0.08)))
            case .active:
                held = rng.uniform(-60, 60); next = i
                angle.append(Float(held)); enmo.append(Float(rng.uniform(0.05, 0.3))); mad.append(Float(rng.uniform(0.05, 0.3)))
            }
        }
        return WearableEpochs(startUTC: start, enmo: enmo, angleZ: angle, mad: mad, sampleCounts: .init(repeating: 50, count: n),
                              nonWear: .init(repeating: false, count: n))
    }

    struct SplitMix {
        var state: UInt64
        init(_ seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9; z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53) }
    }

    static func analyse(_ plan: Plan, seed: UInt64) -> NightAnalysis {
        let e = epochs(plan, seed: seed)
        let data = NightData(window: window, timeline: timeline, series: SecondSeries.empty(startSecond: window.startUTC),
                             epochs: e.slice(from: window.startUTC, to: window.endUTC + 6 * 3600))
        return WearableNightMethod().analyzeNight(data, parameters: AnalysisParameters())
    }

    /// UTC of `minute` after the window's start.
    static func at(_ minute: Int) -> Int64 { window.startUTC + Int64(minute) * 60 }
    static func minutes(_ a: Int64, _ b: Int64) -> Double { Double(a - b) / 60 }

    static func expect(_ p: SleepPeriod?, kind: SleepPeriodKind, from: Int, minutes: Int, _ comment: Comment) {
        guard let p else { Issue.record("missing \(kind) period: \(comment)"); return }
        #expect(p.kind == kind, comment)
        #expect(abs(Self.minutes(p.sleepOnsetUTC, at(from))) <= 15, "onset \(Self.minutes(p.sleepOnsetUTC, at(from))) min off: \(comment)")
        #expect(abs(Self.minutes(p.wakeTimeUTC, at(from + minutes))) <= 15, "wake \(Self.minutes(p.wakeTimeUTC, at(from + minutes))) min off: \(comment)")
    }

    @Test("a split night with 75 min up and about is two periods; sofa evenings stay awake", arguments: [1, 2, 3] as [UInt64])
    func splitNight(seed: UInt64) {
        // 19:30–21:00 sofa, asleep 22:45–01:50, up 01:50–03:05, asleep 03:05–06:50.
        let plan: Plan = [(450, 90, .sofa), (645, 185, .sleep), (830, 75, .active), (905, 225, .sleep)]
        let a = Self.analyse(plan, seed: seed)
        let periods = a.periods ?? []
        #expect(periods.count == 2, "\(periods.map { "\($0.kind) \(Self.minutes($0.sleepOnsetUTC, Self.window.startUTC))" })")
        Self.expect(periods.first, kind: .main, from: 905, minutes: 225, "the longer half is main")
        Self.expect(periods.dropFirst().first, kind: .secondary, from: 645, minutes: 185, "the first half is secondary")
        #expect(!(periods.contains { $0.sleepOnsetUTC < Self.at(540) }), "nothing on the sofa")
        let day = a.day!
        #expect(day.classes.count == 1440)
        #expect(day.classes[470] == .awake && day.classes[700] == .sleepSecondary && day.classes[1000] == .sleepMain && day.classes[860] == .awake)
    }

    @Test("an afternoon nap is a nap; a night with only a bathroom trip stays one period", arguments: [4, 5] as [UInt64])
    func nap(seed: UInt64) {
        // a nap 14:00–14:50 with a turn in it; sofa 20:00–21:30; night 23:00–07:00 with 8 min up at 03:00.
        let plan: Plan = [(120, 50, .sleep), (480, 90, .sofa), (660, 240, .sleep), (900, 8, .active), (908, 232, .sleep)]
        let a = Self.analyse(plan, seed: seed)
        let periods = a.periods ?? []
        #expect(periods.count == 2, "\(periods.map { "\($0.kind) \(Self.minutes($0.sleepOnsetUTC, Self.window.startUTC))" })")
        Self.expect(periods.first, kind: .main, from: 660, minutes: 480, "the night is one main period")
        Self.expect(periods.dropFirst().first, kind: .nap, from: 120, minutes: 50, "the afternoon nap")
        #expect(a.day.map { $0.minutes(.nap) } ?? 0 >= 35)
    }

    @Test("a night worker's day sleep is its onset's day's; the next day counts its afternoon part as carried")
    func nightWorker() {
        // The day before the window (hours before noon) the worker slept from 08:30; the sleep runs to
        // 15:30 of this window; work 22:00–06:30; day sleep 08:30–15:30 after the window; nap 19:00–19:45.
        let plan: Plan = [(-210, 420, .sleep), (420, 45, .sleep), (600, 510, .active), (1230, 420, .sleep)]
        let e = Self.epochs(plan, seed: 7, hoursBefore: 6)
        let data = NightData(window: Self.window, timeline: Self.timeline, series: SecondSeries.empty(startSecond: Self.window.startUTC),
                             epochs: e.slice(from: Self.window.startUTC, to: Self.window.endUTC + 6 * 3600))
        let a = WearableNightMethod().analyzeNight(data, parameters: AnalysisParameters())
        let periods = a.periods ?? []
        Self.expect(periods.first, kind: .main, from: 1230, minutes: 420, "the day sleep after the shift is main (day sleeper)")
        Self.expect(periods.dropFirst().first, kind: .nap, from: 420, minutes: 45, "the pre-shift nap")
        #expect(!(periods.contains { $0.sleepOnsetUTC < Self.at(60) }), "the sleep under way at noon is the day before's")
        let day = a.day!
        #expect(day.classes[0] == .carriedSleep && day.classes[200] == .carriedSleep && day.classes[240] == .awake)
        // Resolved by the day before's period: its kind.
        let before = SleepPeriod(kind: .main, source: .data, inBedStartUTC: Self.at(-210), inBedEndUTC: Self.at(210), sleepOnsetUTC: Self.at(-210),
                                 wakeTimeUTC: Self.at(210), sleepPeriodMinutes: 420, totalSleepTimeMinutes: 410, wasoMinutes: 10, awakenings: 1,
                                 sleepEfficiencyPercent: 97)
        let account = DayAccount(minutes: day, periods: periods, earlier: [before], included: true, excludedReason: nil)
        #expect(account.minutes.minutes(.carriedSleep) == 0 && account.minutes.minutes(.sleepMain) >= 2 * 200)
        #expect(account.napCount == 1)
    }

    @Test("awake and still evenings and a desk day hold no period", arguments: [8, 9] as [UInt64])
    func stillWake(seed: UInt64) {
        let plan: Plan = [(0, 240, .sofa), (420, 120, .sofa), (660, 480, .sleep)]
        let a = Self.analyse(plan, seed: seed)
        #expect(a.periods?.count == 1, "\((a.periods ?? []).map { "\($0.kind) \(Self.minutes($0.sleepOnsetUTC, Self.window.startUTC))" })")
        #expect(a.periods?.first?.kind == .main)
    }

    @Test("a day's minutes are its window's, also on a change of the clocks: the split night's day in spring and autumn")
    func dstMinutes() {
        // Europe/Berlin: CET→CEST at 2024-03-31 01:00 UTC, CEST→CET at 2024-10-27 01:00 UTC.
        let tl = UTCOffsetTimeline(initialOffsetSeconds: 3600, transitions: [
            .init(utcSecond: 1_711_846_800, offsetSeconds: 7200), .init(utcSecond: 1_729_990_800, offsetSeconds: 3600)])
        for (date, minutes) in [(CivilDate(year: 2024, month: 3, day: 30), 1380), (CivilDate(year: 2024, month: 10, day: 26), 1500),
                                (CivilDate(year: 2024, month: 6, day: 12), 1440)] {
            let w = NightSplitter.window(for: date, timeline: tl)
            let n = Int(w.durationSeconds / 5) + 6 * 720
            let e = WearableEpochs(startUTC: w.startUTC, enmo: .init(repeating: 0.03, count: n), angleZ: (0..<n).map { Float(($0 * 7) % 60) },
                                   mad: .init(repeating: 0.03, count: n), sampleCounts: .init(repeating: 50, count: n), nonWear: .init(repeating: false, count: n))
            let a = WearableNightMethod().analyzeNight(NightData(window: w, timeline: tl, series: SecondSeries.empty(startSecond: w.startUTC), epochs: e),
                                                       parameters: AnalysisParameters())
            #expect(a.day?.classes.count == minutes, "\(date)")
            #expect(a.day.map { $0.minutes(.awake) } == minutes, "awake all day: \(date)")
        }
    }
}
