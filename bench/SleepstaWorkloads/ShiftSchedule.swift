import Foundation
import SleepCore

/// What a wearer does in a stretch of a ``ShiftSchedule``; each has its own wrist motion
/// (``ShiftWorkerWeek``).
public enum ShiftActivity: String, Sendable, CaseIterable {
    /// At work, moving as by day (walking, handling things): a night shift's hours.
    case work
    /// Ordinary awake time at home (cooking, tidying, sitting now and then).
    case awakeHome
    /// Awake and still on a sofa (a film, a book): the wrist rests but is held (``SofaStillness``).
    case sofaStill
    /// Up at night between the two halves of a split night, active as by day.
    case upAndAbout
    /// In bed for a sleep: a few minutes awake to fall asleep, light and deep sleep with posture
    /// changes and brief awakenings, a minute or more awake before getting up. A nap is a short one.
    case sleep
}

/// A week (or any stretch) of a wearer's life on the local wall clock, as data: the generator
/// plays whatever schedule it is given, so tests can hold a method to schedules it was not tuned on.
///
/// Segments are given by local day (0 = ``firstDate``), start minute of that day and length in
/// minutes (a segment may run past midnight); time no segment covers is ``ShiftActivity/awakeHome``.
/// The local clock is UTC + ``utcOffsetSeconds`` throughout (no change of the clocks).
public struct ShiftSchedule: Sendable, Equatable {
    public struct Segment: Sendable, Equatable {
        public var day: Int
        public var startMinute: Int
        public var minutes: Int
        public var activity: ShiftActivity
        public init(day: Int, startMinute: Int, minutes: Int, activity: ShiftActivity) {
            self.day = day; self.startMinute = startMinute; self.minutes = minutes; self.activity = activity
        }
        /// Minutes from the schedule's first local midnight to the start and to the end.
        public var fromMinute: Int { day * 1440 + startMinute }
        public var toMinute: Int { fromMinute + minutes }
    }

    /// A short name for files and messages (`night`, `day`, `rotating`, or the caller's).
    public var name: String
    /// The local date of day 0; the recording starts at its 00:00 local.
    public var firstDate: CivilDate
    public var utcOffsetSeconds: Int64
    /// The recording's length from ``firstDate`` 00:00 local.
    public var days: Double
    /// In time order, not overlapping (``problems``).
    public var segments: [Segment]

    public init(name: String, firstDate: CivilDate, utcOffsetSeconds: Int64, days: Double, segments: [Segment]) {
        self.name = name; self.firstDate = firstDate; self.utcOffsetSeconds = utcOffsetSeconds; self.days = days
        self.segments = segments.sorted { $0.fromMinute < $1.fromMinute }
    }

    /// The recording's first UTC second (00:00 local of ``firstDate``).
    public var startUTC: Int64 { firstDate.daysSinceEpoch * 86_400 - utcOffsetSeconds }
    public var totalMinutes: Int { Int(days * 1440) }
    public var endUTC: Int64 { startUTC + Int64(totalMinutes) * 60 }
    /// The UTC second of minute `minute` from the first local midnight.
    public func utc(minute: Int) -> Int64 { startUTC + Int64(minute) * 60 }

    /// The UTC stretches of every segment of `activity`, in order.
    public func spansUTC(_ activity: ShiftActivity) -> [(from: Int64, to: Int64)] {
        segments.filter { $0.activity == activity }.map { (utc(minute: $0.fromMinute), utc(minute: $0.toMinute)) }
    }

    /// What is wrong with the schedule: overlapping segments, segments outside the recording, empty
    /// ones, a sofa evening within 30 min of a sleep (the sofa is there to be awake and still, not
    /// the minutes of lying down). Empty for a schedule the generator plays as meant.
    public var problems: [String] {
        var found: [String] = []
        for s in segments where s.minutes <= 0 || s.fromMinute < 0 || s.toMinute > totalMinutes {
            found.append("\(s.activity) at day \(s.day) \(Self.clock(s.startMinute)) lies outside the recording or is empty")
        }
        for (a, b) in zip(segments, segments.dropFirst()) where b.fromMinute < a.toMinute {
            found.append("\(a.activity) at day \(a.day) \(Self.clock(a.startMinute)) overlaps \(b.activity) at day \(b.day) \(Self.clock(b.startMinute))")
        }
        for sofa in segments where sofa.activity == .sofaStill {
            for bed in segments where bed.activity == .sleep && bed.fromMinute < sofa.toMinute + 30 && sofa.fromMinute < bed.toMinute + 30 {
                found.append("the sofa at day \(sofa.day) \(Self.clock(sofa.startMinute)) lies within 30 min of a sleep")
            }
        }
        return found
    }

    /// The schedule on the local clock, a segment a line (`Mon 06-10 22:00–06:30 work`).
    public var timeline: String {
        segments.map { s in
            let date = CivilDate(daysSinceEpoch: firstDate.daysSinceEpoch + Int64(s.fromMinute / 1440))
            let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][Int(((date.daysSinceEpoch % 7) + 7) % 7)]
            return "\(weekday) \(date) \(Self.clock(s.fromMinute))–\(Self.clock(s.toMinute)) \(s.activity) (\(s.minutes) min)"
        }.joined(separator: "\n")
    }

    static func clock(_ minute: Int) -> String {
        let m = ((minute % 1440) + 1440) % 1440
        return String(format: "%02d:%02d", m / 60, m % 60)
    }

    /// The schedules by name: `night` (``nightShiftWeek(seed:)``), `day` (``dayWorkerWeek(seed:)``),
    /// `rotating` (``rotatingWeek(seed:)``).
    public static func named(_ name: String, seed: UInt64) -> ShiftSchedule? {
        switch name {
        case "night": return nightShiftWeek(seed: seed)
        case "day": return dayWorkerWeek(seed: seed)
        case "rotating": return rotatingWeek(seed: seed)
        default: return nil
        }
    }
    public static let names = ["night", "day", "rotating"]
}
