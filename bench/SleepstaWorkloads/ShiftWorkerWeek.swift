import Foundation
import SleepCore

/// One sleep of a ``ShiftWorkerWeek`` as it was generated: what a method that finds every sleep of
/// a day should find.
public struct ShiftSleepTruth: Sendable, Equatable, CustomStringConvertible {
    /// The first minute asleep (after the minutes awake in bed it took to fall asleep).
    public var onsetUTC: Int64
    /// The end of the last minute asleep (before the minutes awake in bed before getting up).
    public var wakeUTC: Int64
    /// Minutes asleep between onset and wake: the brief awakenings are not counted.
    public var sleepMinutes: Int
    /// The day's longest sleep (onset to wake) is `main`; another is `secondary` from 120 min onset
    /// to wake on (``SleepPeriod/secondaryMinimumMinutes``), a `nap` below.
    public var kind: SleepPeriodKind
    /// The noon-to-noon day that holds the onset, named by its evening's date: an onset before
    /// 12:00 local belongs to the day before.
    public var dayDate: CivilDate

    public init(onsetUTC: Int64, wakeUTC: Int64, sleepMinutes: Int, kind: SleepPeriodKind, dayDate: CivilDate) {
        self.onsetUTC = onsetUTC; self.wakeUTC = wakeUTC; self.sleepMinutes = sleepMinutes; self.kind = kind; self.dayDate = dayDate
    }
    /// Onset to wake, in minutes.
    public var sleepPeriodMinutes: Int { Int((wakeUTC - onsetUTC) / 60) }
    public var description: String {
        "\(dayDate) \(kind.rawValue): \(Self.iso(onsetUTC)) to \(Self.iso(wakeUTC)), \(sleepMinutes) min asleep"
    }
    /// `2024-06-11T06:38:00Z`.
    public static func iso(_ utc: Int64) -> String {
        let (days, rem) = utc.quotientAndRemainder(dividingBy: 86_400)
        let t = Int(rem)
        return "\(CivilDate(daysSinceEpoch: days))T" + String(format: "%02d:%02d:%02dZ", t / 3600, t % 3600 / 60, t % 60)
    }
}

/// A shift worker's recording, generated from a ``ShiftSchedule``: a wrist device worn day and
/// night (never taken off), with the truth of every sleep, for testing a method that finds all
/// the sleeps of a day (a day sleep after a night shift, a nap before the next, a split night).
///
/// The wrist's motion by activity, and why:
/// - `work`, `upAndAbout`: as by day in the benchmark's script (frequent bursts of 0.05–0.6 g, a
///   new attitude every 20 s on average): a night shift is spent on one's feet.
/// - `awakeHome`: a little calmer than work (bursts 0.04–0.4 g, a new attitude every 30 s).
/// - `sofaStill`: awake and still, held by muscle tone (``SofaStillness``).
/// - `sleep`: a few minutes awake in bed to fall asleep (3–12 min, 2–6 for a sleep under 90 min:
///   sleep pressure), then 90-min cycles of light and deep sleep (deep shorter in later cycles)
///   with brief awakenings of 1–4 min at some cycle ends, and 1–4 min awake in bed at the end. The
///   asleep forearm moves as ``sleepModel`` says (turns every 20–60 min and twitches by default),
///   with the script's small movements of light sleep and rarer ones of deep sleep on top; awake in
///   bed it moves as the script's awakenings. Lying down is a new attitude.
///
/// The movement is drawn second by second from its own random stream and the sensor noise from
/// another, so the same seed gives the same movement at any sample rate (the CSV at 10 Hz, the
/// `.cwa` at 25 Hz), with only the noise differing.
public struct ShiftWorkerWeek: WearableSampleSource {
    public var schedule: ShiftSchedule
    public var seed: UInt64
    public var rateHz: Int
    /// A temperature channel at skin level (33 °C awake, 34 °C asleep: the device is always worn).
    public var temperature: Bool
    /// How the awake, still forearm on the sofa moves.
    public var sofa = SofaStillness.realistic
    /// How the asleep forearm changes posture; `.script` gives the script's rare random posture
    /// changes of light sleep instead of turns.
    public var sleepModel: SleepModel = .turns

    public init(schedule: ShiftSchedule, seed: UInt64, rateHz: Int = 10, temperature: Bool = false) {
        self.schedule = schedule; self.seed = seed; self.rateHz = rateHz; self.temperature = temperature
    }

    public var startEpochSecond: Int64 { schedule.startUTC }
    /// The device clock is set to the schedule's local time.
    public var scriptOffsetSeconds: Int64 { schedule.utcOffsetSeconds }
    public var days: Double { schedule.days }

    /// The sofa stretches (UTC seconds): no sleep period may be found in them.
    public var awakeStillSpansUTC: [(from: Int64, to: Int64)] { schedule.spansUTC(.sofaStill) }
    /// The work stretches (UTC seconds): no sleep period may be found in them.
    public var workSpansUTC: [(from: Int64, to: Int64)] { schedule.spansUTC(.work) }

    /// What the wearer does minute by minute from the recording's start.
    enum Minute: UInt8 {
        case home, work, sofa, up, inBedAwake, light, deep
        var asleep: Bool { self == .light || self == .deep }
        var inBed: Bool { self == .inBedAwake || asleep }
    }

    /// Every minute of the recording; the sleeps' stages drawn from the seed, each sleep from its
    /// own stream (by its start), so the truth does not depend on the signal's draws.
    func minutes() -> [Minute] {
        var states = [Minute](repeating: .home, count: schedule.totalMinutes)
        for s in schedule.segments {
            let range = max(0, s.fromMinute)..<min(states.count, s.toMinute)
            guard !range.isEmpty else { continue }
            switch s.activity {
            case .work: states.replaceSubrange(range, with: repeatElement(.work, count: range.count))
            case .sofaStill: states.replaceSubrange(range, with: repeatElement(.sofa, count: range.count))
            case .upAndAbout: states.replaceSubrange(range, with: repeatElement(.up, count: range.count))
            case .awakeHome: break
            case .sleep:
                var rng = SplitMix64(seed: seed ^ 0x5EED_5EED ^ (UInt64(s.fromMinute) &* 0x9E37_79B9_7F4A_7C15))
                let stages = Self.sleepStages(minutes: s.minutes, rng: &rng)
                states.replaceSubrange(range, with: stages.prefix(range.count))
            }
        }
        return states
    }

    /// A sleep's minutes in bed: awake to fall asleep, cycles of light and deep sleep with brief
    /// awakenings at some cycle ends, awake at the end.
    static func sleepStages(minutes: Int, rng: inout SplitMix64) -> [Minute] {
        let latency = minutes < 90 ? 2 + Int(rng.unit() * 5) : 3 + Int(rng.unit() * 10)
        let final = 1 + Int(rng.unit() * 4)
        let asleep = max(1, minutes - latency - final)
        var body: [Minute] = []
        var cycle = 0
        while body.count < asleep {
            let deep = Int(90 * max(0.1, 0.45 - 0.1 * Double(cycle)))
            body += Array(repeating: .light, count: 90 - deep) + Array(repeating: .deep, count: deep)
            cycle += 1
            // A brief awakening at a cycle end, not in the last 15 minutes (that would be the wake).
            if body.count < asleep - 15 && rng.unit() < 0.4 { body += Array(repeating: .inBedAwake, count: 1 + Int(rng.unit() * 4)) }
        }
        let stages = Array(repeating: Minute.inBedAwake, count: latency) + body.prefix(asleep) + Array(repeating: .inBedAwake, count: final)
        return Array(stages.prefix(minutes))
    }

    /// Every sleep, in time order, with its kind within its day.
    public func truth() -> [ShiftSleepTruth] {
        let states = minutes()
        var found: [ShiftSleepTruth] = []
        for s in schedule.segments where s.activity == .sleep {
            let range = max(0, s.fromMinute)..<min(states.count, s.toMinute)
            guard let first = range.first(where: { states[$0].asleep }), let last = range.last(where: { states[$0].asleep }) else { continue }
            let asleep = (first...last).filter { states[$0].asleep }.count
            let onset = schedule.utc(minute: first)
            found.append(ShiftSleepTruth(onsetUTC: onset, wakeUTC: schedule.utc(minute: last + 1), sleepMinutes: asleep,
                                         kind: .nap, dayDate: dayDate(ofLocalSecond: onset + schedule.utcOffsetSeconds)))
        }
        for date in Set(found.map(\.dayDate)) {
            let indices = found.indices.filter { found[$0].dayDate == date }
            let main = indices.max { found[$0].sleepPeriodMinutes < found[$1].sleepPeriodMinutes }!
            for i in indices {
                found[i].kind = i == main ? .main : SleepPeriod.otherKind(sleepPeriodMinutes: Double(found[i].sleepPeriodMinutes))
            }
        }
        return found
    }

    /// The noon-to-noon day holding a local second.
    func dayDate(ofLocalSecond local: Int64) -> CivilDate {
        let day = Int64((Double(local) / 86_400).rounded(.down))
        return CivilDate(daysSinceEpoch: local - day * 86_400 < 12 * 3600 ? day - 1 : day)
    }
}
