import Foundation
import SleepCore

/// The schedules the generator ships: a night-shift week (the case "every sleep of the day" is
/// for), a day worker's and a rotating week. Each from Monday 2024-06-10 00:00 in Europe/Berlin's
/// summer time (UTC+2) for 7.5 days, to Monday 12:00: the last noon-to-noon day (Sunday's) is
/// whole, and no sleep is cut by the recording's end.
///
/// The recording starts before the first bedtime (the device put on on Sunday evening, worn from
/// midnight), so the first sleep begins inside it, after 00:00 on Monday: by the noon-to-noon rule
/// that sleep belongs to Sunday 06-09, the evening before the recording's first date.
///
/// Times move with the seed (starts by up to ±15 min, lengths by a few minutes; a shift's hours
/// by ±5 min, an employer's clock), so seeds differ, while every seed keeps the week's shape: the
/// gaps are wide enough that no jitter makes segments overlap or a sofa evening touch a sleep.
extension ShiftSchedule {
    static let june10 = CivilDate(year: 2024, month: 6, day: 10)
    static let berlinSummer: Int64 = 7200
    static let weekDays = 7.5

    /// Four night shifts (Monday to Thursday nights, 22:00–06:30), each followed by a day sleep
    /// (≈ 08:30–15:00); a pre-shift nap (≈ 19:00–19:45) before each shift after the first; a short
    /// recovery sleep after the last shift (≈ 08:00–11:30) and a normal night; a Saturday siesta
    /// (≈ 14:00–15:00) and a split night (asleep ≈ 22:45–01:40, up and about 60–70 min, asleep
    /// again ≈ 3.7 h); 90-min sofa evenings on Monday, Friday, Saturday and Sunday; a Sunday night.
    public static func nightShiftWeek(seed: UInt64) -> ShiftSchedule {
        var b = WeekBuilder(seed: seed ^ 0x4E49_4748_5453)   // "NIGHTS"
        b.add(.sleep, day: 0, at: 30, minutes: 450, lengthJitter: 20)      // a late bedtime before the first shift
        b.add(.sofaStill, day: 0, at: 19 * 60 + 30, minutes: 90, lengthJitter: 0)
        for day in 0..<4 {
            b.add(.work, day: day, at: 22 * 60, minutes: 510, startJitter: 5, lengthJitter: 5)
            if day > 0 { b.add(.sleep, day: day, at: 19 * 60, minutes: 45, lengthJitter: 5) }         // pre-shift nap
            if day > 0 { b.add(.sleep, day: day, at: 8 * 60 + 30, minutes: 390, lengthJitter: 20) }   // day sleep
        }
        b.add(.sleep, day: 4, at: 8 * 60, minutes: 210, lengthJitter: 15)                 // recovery sleep
        b.add(.sofaStill, day: 4, at: 19 * 60 + 30, minutes: 90, lengthJitter: 0)
        b.add(.sleep, day: 4, at: 23 * 60, minutes: 480, lengthJitter: 20)                // a normal night
        b.add(.sleep, day: 5, at: 14 * 60, minutes: 60, lengthJitter: 5)                  // siesta
        b.add(.sofaStill, day: 5, at: 19 * 60 + 30, minutes: 90, lengthJitter: 0)
        b.splitNight(day: 5, at: 22 * 60 + 45, firstMinutes: 175, upMinutes: 60...70, secondMinutes: 225)
        b.add(.sofaStill, day: 6, at: 20 * 60, minutes: 90, lengthJitter: 0)
        b.add(.sleep, day: 6, at: 23 * 60, minutes: 480, lengthJitter: 20)
        return ShiftSchedule(name: "night", firstDate: june10, utcOffsetSeconds: berlinSummer, days: weekDays, segments: b.segments)
    }

    /// Office days Monday to Friday (08:00–16:30), nights ≈ 23:00–07:00 (later on Friday and
    /// Saturday), sofa evenings on Tuesday, Thursday and Sunday, a Sunday nap (≈ 14:30–15:15).
    public static func dayWorkerWeek(seed: UInt64) -> ShiftSchedule {
        var b = WeekBuilder(seed: seed ^ 0x4441_5953)   // "DAYS"
        b.add(.sleep, day: 0, at: 20, minutes: 400, lengthJitter: 10)
        for day in 0..<5 { b.add(.work, day: day, at: 8 * 60, minutes: 510, startJitter: 5, lengthJitter: 5) }
        for day in 0..<4 { b.add(.sleep, day: day, at: 23 * 60, minutes: 470, lengthJitter: 10) }
        b.add(.sleep, day: 4, at: 23 * 60 + 30, minutes: 540, lengthJitter: 20)
        b.add(.sleep, day: 5, at: 23 * 60 + 30, minutes: 540, lengthJitter: 20)
        b.add(.sofaStill, day: 1, at: 20 * 60, minutes: 90, lengthJitter: 0)
        b.add(.sofaStill, day: 3, at: 19 * 60 + 30, minutes: 90, lengthJitter: 0)
        b.add(.sleep, day: 6, at: 14 * 60 + 30, minutes: 45, lengthJitter: 5)
        b.add(.sofaStill, day: 6, at: 19 * 60 + 30, minutes: 90, lengthJitter: 0)
        b.add(.sleep, day: 6, at: 23 * 60, minutes: 480, lengthJitter: 20)
        return ShiftSchedule(name: "day", firstDate: june10, utcOffsetSeconds: berlinSummer, days: weekDays, segments: b.segments)
    }

    /// Two early shifts (Monday, Tuesday 06:00–14:00, short nights before them and a nap after the
    /// second), two late shifts (Wednesday, Thursday 14:00–22:00, late nights), a nap before the
    /// first of two night shifts (Friday, Saturday 22:00–06:00), a day sleep and a pre-shift nap
    /// between them, a recovery sleep on Sunday morning and a normal Sunday night; sofa evenings
    /// on Monday and Sunday.
    public static func rotatingWeek(seed: UInt64) -> ShiftSchedule {
        var b = WeekBuilder(seed: seed ^ 0x524F_5441_5445)   // "ROTATE"
        b.add(.sleep, day: 0, at: 15, minutes: 285, startJitter: 10, lengthJitter: 10)
        for day in 0..<2 { b.add(.work, day: day, at: 6 * 60, minutes: 480, startJitter: 5, lengthJitter: 5) }
        b.add(.sofaStill, day: 0, at: 19 * 60, minutes: 90, lengthJitter: 0)
        b.add(.sleep, day: 0, at: 22 * 60, minutes: 420, lengthJitter: 10)
        b.add(.sleep, day: 1, at: 15 * 60, minutes: 45, lengthJitter: 5)                   // after the early shift
        b.add(.sleep, day: 1, at: 22 * 60 + 30, minutes: 510, lengthJitter: 20)
        for day in 2..<4 {
            b.add(.work, day: day, at: 14 * 60, minutes: 480, startJitter: 5, lengthJitter: 5)
            b.add(.sleep, day: day, at: 23 * 60 + 30, minutes: 480 + 30 * (day - 2), lengthJitter: 20)
        }
        b.add(.sleep, day: 4, at: 16 * 60 + 30, minutes: 90, lengthJitter: 10)             // before the first night
        for day in 4..<6 { b.add(.work, day: day, at: 22 * 60, minutes: 480, startJitter: 5, lengthJitter: 5) }
        b.add(.sleep, day: 5, at: 7 * 60 + 30, minutes: 360, lengthJitter: 15)              // day sleep
        b.add(.sleep, day: 5, at: 19 * 60, minutes: 45, lengthJitter: 5)                    // pre-shift nap
        b.add(.sleep, day: 6, at: 7 * 60 + 30, minutes: 210, lengthJitter: 15)              // recovery sleep
        b.add(.sofaStill, day: 6, at: 19 * 60 + 30, minutes: 90, lengthJitter: 0)
        b.add(.sleep, day: 6, at: 23 * 60, minutes: 480, lengthJitter: 20)
        return ShiftSchedule(name: "rotating", firstDate: june10, utcOffsetSeconds: berlinSummer, days: weekDays, segments: b.segments)
    }
}

/// Segments with the seed's jitter, drawn in the order they are added (so a schedule's draws do
/// not depend on anything but its seed).
struct WeekBuilder {
    var rng: SplitMix64
    var segments: [ShiftSchedule.Segment] = []
    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// A whole number of minutes in `-range...range`.
    mutating func jitter(_ range: Int) -> Int {
        range == 0 ? 0 : Int(rng.unit() * Double(2 * range + 1)) - range
    }

    mutating func add(_ activity: ShiftActivity, day: Int, at minute: Int, minutes: Int, startJitter: Int = 15, lengthJitter: Int) {
        segments.append(.init(day: day, startMinute: minute + jitter(startJitter), minutes: minutes + jitter(lengthJitter), activity: activity))
    }

    /// Asleep, up and about, asleep again: the second half the longer (the night's main sleep by
    /// at least 25 min whatever the draws), the time up drawn from `upMinutes`.
    mutating func splitNight(day: Int, at minute: Int, firstMinutes: Int, upMinutes: ClosedRange<Int>, secondMinutes: Int) {
        let start = minute + jitter(15)
        let first = firstMinutes + jitter(5)
        let up = upMinutes.lowerBound + Int(rng.unit() * Double(upMinutes.count))
        let second = secondMinutes + jitter(5)
        segments.append(.init(day: day, startMinute: start, minutes: first, activity: .sleep))
        segments.append(.init(day: day, startMinute: start + first, minutes: up, activity: .upAndAbout))
        segments.append(.init(day: day, startMinute: start + first + up, minutes: second, activity: .sleep))
    }
}
