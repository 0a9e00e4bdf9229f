import CZlib
import Foundation
import SleepCore

/// Writes the benchmark's raw tri-axial wearable CSV: `timestamp,x,y,z`, epoch seconds with two
/// decimals at 100 Hz, acceleration in g **with gravity** (a wrist device, as ActiGraph and
/// Axivity record), deterministic for a seed.
///
/// The signal follows a daily script so that every stage downstream has real work: days
/// (07:00–23:00 local) with frequent movement bursts of 0.05–0.6 g at 1–3 Hz and a wrist that turns
/// (a new orientation every 20 s on average, as an active wrist does; angle-based methods such as
/// HDCZA and van Hees 2015 see only orientation), nights with sleep cycles (light sleep with
/// occasional small movements, deep sleep nearly still, brief awakenings), sensor noise of σ 4 mg
/// per axis, and on the second day an afternoon (14:00–17:00) with the watch lying on a table
/// (flat, still: non-wear). ``DayNightScript/truth(days:startEpochSecond:)`` gives each night's
/// scripted sleep onset, wake time and sleep minutes, against which the wearable method is tested. Numbers are written with 4 decimals, as
/// device exports do; a row is about 37 bytes, so 7 days at 100 Hz are 60.48 M rows, about 2.3 GB.
public struct WearableCSVGenerator: Sendable {
    public var days: Double = 7
    public var rateHz = 100
    /// 2024-06-14 00:00 UTC.
    public var startEpochSecond: Int64 = 1_718_323_200
    /// Local clock offset used by the day/night script (Europe/Berlin in summer).
    public var scriptOffsetSeconds: Int64 = 7200
    public var seed: UInt64 = 20240614
    /// Departures from the plain script (a still sleeper, a device laid down …); none by default,
    /// so the benchmark's files stay the same.
    public var events: [WearableEvent] = []
    /// A change of the local clock (daylight saving time) at a UTC second, to a new offset: the
    /// script (bedtime 23:00, waking by 07:00) follows the wall clock from then on, so the night
    /// of the change lasts 25 h or 23 h. The device's clock keeps the offset it was set to, as
    /// devices do (the `.cwa` times, the temperature CSV's local times). nil: one offset throughout.
    public var clockChange: (utc: Int64, offsetSeconds: Int64)? = nil
    /// Whether the files carry a temperature channel (°C): the CSV is then written as devices
    /// export it (`time,x,y,z,temperature`, the local time to the millisecond; read it with
    /// `--tz Europe/Berlin`), and a `.cwa` has it in each block's temperature field. Off the wrist it falls toward room temperature
    /// (``SkinTemperature``).
    public var temperature = false
    /// How the asleep wrist is still (``SleepModel``); the script's own by default, so the
    /// benchmark's files stay the same.
    public var sleepModel: SleepModel = .script

    public init(days: Double = 7, rateHz: Int = 100, events: [WearableEvent] = [], temperature: Bool = false) {
        self.days = days; self.rateHz = rateHz; self.events = events; self.temperature = temperature
    }

    /// The script this generator follows (its own random stream, as ``forEachSample(_:)`` uses it).
    func script() -> DayNightScript {
        DayNightScript(rng: SplitMix64(seed: seed ^ 0x9E37_79B9_7F4A_7C15), offsetSeconds: scriptOffsetSeconds, events: events,
                       clockChange: clockChange)
    }

    /// The script of every night that starts inside the recording (see ``DayNightScript/Night``).
    public func truth() -> [DayNightScript.Night] {
        var script = script()
        return script.nights(from: startEpochSecond, seconds: Int(days * 86_400))
    }

    /// Each event's stretch in UTC seconds, in the order of ``events``.
    public func eventSpansUTC() -> [(from: Int64, to: Int64)] {
        let local = startEpochSecond + scriptOffsetSeconds
        let firstDay = local - (((local % 86_400) + 86_400) % 86_400)
        return events.map { e in
            let s = e.span(firstDayLocal: firstDay)
            return (s.from - scriptOffsetSeconds, s.to - scriptOffsetSeconds)
        }
    }

    /// Writes the CSV to `path` and, when `gzipPath` is given, the same bytes gzip-compressed
    /// (level 1) to it. Returns the number of rows.
    @discardableResult
    public func write(to path: String, gzipPath: String? = nil) throws -> Int {
        try WearableCSVWriter.write(self, to: path, gzipPath: gzipPath)
    }

    /// The signal, sample by sample in time order: UTC second, sample index within that second
    /// (0 ..< rateHz), acceleration in g. The CSV and the binary (.cwa) workloads both write it.
    public func forEachSample(_ body: (_ second: Int64, _ k: Int, _ x: Double, _ y: Double, _ z: Double) throws -> Void) rethrows {
        try forEachSample { second, k, x, y, z, _ in try body(second, k, x, y, z) }
    }

    /// The same signal with the device's temperature (°C) of each second.
    public func forEachSample(_ body: (_ second: Int64, _ k: Int, _ x: Double, _ y: Double, _ z: Double,
                                       _ celsius: Double) throws -> Void) rethrows {
        var rng = SplitMix64(seed: seed)
        let totalSeconds = Int(days * 86_400)
        var script = script()
        var gravity = (0.05, -0.98, 0.18)
        var burst = Burst()
        var wander: StillWander? = nil
        var skin = SkinTemperature()
        var motion: SleepMotion? = sleepModel == .script ? nil : SleepMotion(model: sleepModel, seed: seed)
        let step = 1.0 / Double(rateHz)
        for s in 0..<totalSeconds {
            let second = startEpochSecond + Int64(s)
            let level = script.level(at: second)
            skin.advance(worn: level.offWrist == nil, asleep: level.asleep)
            let modelled = level.asleep && !level.still && level.offWrist == nil && motion != nil
            if let attitude = level.offWrist { gravity = attitude.gravity; wander = nil }
            else if level.still {
                if wander == nil { wander = StillWander(around: gravity) }
            } else if modelled {
                let next = motion!.second(gravity: gravity)
                if let b = next.burst {
                    burst = Burst(amplitudeG: b.amplitudeG, frequencyHz: 1 + 2 * rng.unit(), remaining: b.seconds, phase: rng.unit() * 6.283)
                }
                if next.gravity != gravity || !sleepModel.wanders { wander = nil }
                gravity = next.gravity
                if sleepModel.wanders && wander == nil { wander = StillWander(around: gravity) }
            } else {
                wander = nil
                motion?.awake()
                if rng.unit() < level.postureChangeProbability { gravity = Self.randomGravity(&rng) }
            }
            if !modelled && burst.remaining == 0 && rng.unit() < level.burstProbability {
                burst = Burst(amplitudeG: level.amplitudeG.lowerBound + rng.unit() * (level.amplitudeG.upperBound - level.amplitudeG.lowerBound),
                              frequencyHz: 1 + 2 * rng.unit(), remaining: 1 + Int(rng.unit() * 4), phase: rng.unit() * 6.283)
            }
            let held = wander?.gravity(atSecond: Double(s)) ?? gravity
            let breathes = modelled && sleepModel.breathes
            for k in 0..<rateHz {
                let g = breathes ? SleepMotion.breathing(held, t: Double(s) + Double(k) * step) : held
                var x = g.0 + 0.004 * rng.gaussian()
                var y = g.1 + 0.004 * rng.gaussian()
                var z = g.2 + 0.004 * rng.gaussian()
                if burst.remaining > 0 {
                    let w = burst.amplitudeG * sin(burst.phase + 6.283185307 * burst.frequencyHz * Double(k) * step)
                    x += w; y += 0.6 * w; z -= 0.4 * w
                }
                try body(second, k, x, y, z, skin.celsius)
            }
            if burst.remaining > 0 { burst.remaining -= 1 }
        }
    }

    static func randomGravity(_ rng: inout SplitMix64) -> (Double, Double, Double) {
        let a = rng.gaussian(), b = rng.gaussian(), c = rng.gaussian()
        let n = max((a * a + b * b + c * c).squareRoot(), 1e-9)
        return (a / n, b / n, c / n)
    }

    /// `second.hh,x,y,z\n` with 4 decimals per axis, written without `String` (60 M rows).
    @inline(__always)
    static func writeRow(into b: UnsafeMutablePointer<UInt8>, at start: Int, second: Int64, hundredths: Int,
                         x: Double, y: Double, z: Double) -> Int {
        var i = start
        i = writeInteger(b, i, Int(second))
        b[i] = UInt8(ascii: "."); i += 1
        b[i] = UInt8(48 + hundredths / 10); b[i + 1] = UInt8(48 + hundredths % 10); i += 2
        b[i] = UInt8(ascii: ","); i = writeFixed4(b, i + 1, x)
        b[i] = UInt8(ascii: ","); i = writeFixed4(b, i + 1, y)
        b[i] = UInt8(ascii: ","); i = writeFixed4(b, i + 1, z)
        b[i] = UInt8(ascii: "\n"); i += 1
        return i - start
    }

    @inline(__always)
    static func writeInteger(_ b: UnsafeMutablePointer<UInt8>, _ at: Int, _ value: Int) -> Int {
        var count = 1
        var probe = value
        while probe >= 10 { probe /= 10; count += 1 }
        var n = value
        for k in stride(from: count - 1, through: 0, by: -1) { b[at + k] = UInt8(48 + n % 10); n /= 10 }
        return at + count
    }

    /// `v` rounded to 4 decimals (half away from zero), e.g. `-0.9981`.
    @inline(__always)
    static func writeFixed4(_ b: UnsafeMutablePointer<UInt8>, _ at: Int, _ v: Double) -> Int { writeFixed(b, at, v, decimals: 4) }

    /// `v` rounded to 2 decimals (half away from zero), e.g. `33.05`.
    @inline(__always)
    static func writeFixed2(_ b: UnsafeMutablePointer<UInt8>, _ at: Int, _ v: Double) -> Int { writeFixed(b, at, v, decimals: 2) }

    /// `v` rounded to `decimals` decimals (half away from zero), written without `String`.
    @inline(__always)
    static func writeFixed(_ b: UnsafeMutablePointer<UInt8>, _ at: Int, _ v: Double, decimals: Int) -> Int {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        var i = at
        let scaled = Int((abs(v) * Double(scale)).rounded())
        if v < 0 && scaled != 0 { b[i] = UInt8(ascii: "-"); i += 1 }
        i = writeInteger(b, i, scaled / scale)
        b[i] = UInt8(ascii: "."); i += 1
        var f = scaled % scale
        for k in stride(from: decimals - 1, through: 0, by: -1) { b[i + k] = UInt8(48 + f % 10); f /= 10 }
        return i + decimals
    }

    /// `2024-06-14 02:00:00` for a local-clock second.
    public static func localTime(_ local: Int64) -> [UInt8] {
        let (days, rem) = local.quotientAndRemainder(dividingBy: 86_400)
        let d = CivilDate(daysSinceEpoch: days), t = Int(rem)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return Array("\(d.year)-\(two(d.month))-\(two(d.day)) \(two(t / 3600)):\(two(t % 3600 / 60)):\(two(t % 60))".utf8)
    }

    private struct Burst {
        var amplitudeG = 0.0
        var frequencyHz = 1.0
        var remaining = 0
        var phase = 0.0
    }
}

/// A departure from the plain day/night script, for testing how the wearable method tells a
/// still sleeper from a device laid down. Days and nights count from the recording's first local
/// day (0); night `n` starts at 23:00 local of day `n`.
public enum WearableEvent: Sendable, Equatable {
    /// Asleep without a posture change for `minutes`, from `startMinute` minutes after the night's
    /// 23:00 (the scripted sleep starts 10–25 min after 23:00). Still, but worn: the wrist keeps
    /// the slow small changes of angle of a resting forearm (``StillWander``), below GGIR's
    /// non-wear thresholds, so that rule takes the stretch for a device off the wrist.
    case stillSleep(night: Int, startMinute: Int, minutes: Int)
    /// The device off the wrist, lying still at `attitude`, from `startMinute` minutes after
    /// 00:00 local of day `day` (more than 1440 runs into the next day) for `minutes`. The wearer's
    /// activity in that time is not recorded; a night the device leaves is asleep until then.
    case offWrist(day: Int, startMinute: Int, minutes: Int, attitude: RestingAttitude)
    /// A day sleeper: up through night `night` (awake from its 23:00) and asleep from `startMinute`
    /// minutes after that 23:00 for `minutes`, in light and deep cycles as a night's, into the
    /// next day (GGIR reruns its guider from 18:00 to 18:00 for such a night).
    case daySleep(night: Int, startMinute: Int, minutes: Int)

    /// The stretch in local-clock seconds, for a script whose first local day starts at `firstDayLocal`.
    func span(firstDayLocal: Int64) -> (from: Int64, to: Int64) {
        switch self {
        case let .stillSleep(night, start, minutes), let .daySleep(night, start, minutes):
            let from = firstDayLocal + Int64(night) * 86_400 + 23 * 3600 + Int64(start) * 60
            return (from, from + Int64(minutes) * 60)
        case let .offWrist(day, start, minutes, _):
            let from = firstDayLocal + Int64(day) * 86_400 + Int64(start) * 60
            return (from, from + Int64(minutes) * 60)
        }
    }
}

extension WearableEvent {
    /// The wearable method's hard cases, for a recording of ``hardCaseDays`` days from 2024-06-14
    /// (the generator's start; local days 0–4, Europe/Berlin summer time), beside the script's own
    /// table afternoon (06-15 14:00–17:00):
    /// a sleeper who does not turn for 3 h from falling asleep in the first night (06-14 23:10–02:10) and
    /// in the middle of the second (06-16 02:00–05:00); the device taken off at 02:00 of the third
    /// night and laid on a nightstand on its side until 07:30 (06-17); taken off for a 20-min
    /// shower (06-15 07:40–08:00), laid flat; and a day sleeper, up through the fourth night and
    /// asleep from 04:30 to 12:30 (06-18). The recording ends at 02:00 of the fifth night: a short
    /// last day.
    public static let hardCases: [WearableEvent] = [
        .stillSleep(night: 0, startMinute: 10, minutes: 180),
        .stillSleep(night: 1, startMinute: 180, minutes: 180),
        .offWrist(day: 3, startMinute: 120, minutes: 330, attitude: .onItsSide),
        .offWrist(day: 1, startMinute: 7 * 60 + 40, minutes: 20, attitude: .flat),
        .daySleep(night: 3, startMinute: 330, minutes: 480),
    ]
    /// The length of the hard cases' recording.
    public static let hardCaseDays = 5.0

    /// What the event is, in words.
    public var label: String {
        switch self {
        case .stillSleep: return "still sleeper (no posture change)"
        case .daySleep: return "day sleeper (up all night, asleep into the day)"
        case .offWrist(_, _, let minutes, .onItsSide): return minutes >= 60 ? "off the wrist, on a nightstand on its side" : "off the wrist, on its side"
        case .offWrist(_, _, let minutes, .flat): return minutes >= 60 ? "off the wrist, flat on a table" : "off the wrist (a shower), laid flat"
        }
    }
}

extension WearableCSVGenerator {
    /// Four days over the end of summer time in Europe/Berlin: from 2024-10-25 02:00 CEST; the
    /// clocks go back at 03:00 CEST on 10-27 (01:00 UTC), so the night of 10-26 lasts 25 h.
    public static func autumnClockChange(rateHz: Int = 10) -> WearableCSVGenerator {
        var g = WearableCSVGenerator(days: 4, rateHz: rateHz)
        g.startEpochSecond = 1_729_814_400                 // 2024-10-25 00:00 UTC
        g.clockChange = (utc: 1_729_990_800, offsetSeconds: 3600)   // 2024-10-27 01:00 UTC
        return g
    }

    /// Four days over the start of summer time: from 2024-03-29 01:00 CET; the clocks go forward
    /// at 02:00 CET on 03-31 (01:00 UTC), so the night of 03-30 lasts 23 h.
    public static func springClockChange(rateHz: Int = 10) -> WearableCSVGenerator {
        var g = WearableCSVGenerator(days: 4, rateHz: rateHz)
        g.startEpochSecond = 1_711_670_400                 // 2024-03-29 00:00 UTC
        g.scriptOffsetSeconds = 3600
        g.clockChange = (utc: 1_711_846_800, offsetSeconds: 7200)   // 2024-03-31 01:00 UTC
        return g
    }
}

/// How a device taken off lies.
public enum RestingAttitude: Sendable, Equatable {
    /// Flat on a table, face up, slightly tilted.
    case flat
    /// On its side (on a nightstand against a lamp): gravity along the device's x axis.
    case onItsSide
    var gravity: (Double, Double, Double) {
        switch self {
        case .flat: return DayNightScript.tableGravity
        case .onItsSide: return (0.9994, 0.025, -0.024)
        }
    }
}

/// The slow, small changes of angle of a forearm resting without a posture change: the gravity
/// vector swings about the resting attitude by about 0.3° on two axes, with periods of 25 and
/// 37 minutes. The swing (about 10 mg per axis) keeps the stretch under GGIR's non-wear
/// thresholds (50 mg range, 13 mg SD over an hour), as a still sleeper's wrist stays there.
struct StillWander {
    let rest: (Double, Double, Double)
    let u: (Double, Double, Double), v: (Double, Double, Double)
    static let amplitude = 0.0055   // tan 0.32°
    init(around g: (Double, Double, Double)) {
        rest = g
        // u: the device z axis made perpendicular to gravity (or x, when gravity lies along z); v = g × u.
        let axis: (Double, Double, Double) = abs(g.2) < 0.9 ? (0, 0, 1) : (1, 0, 0)
        let d = axis.0 * g.0 + axis.1 * g.1 + axis.2 * g.2
        var a = (axis.0 - d * g.0, axis.1 - d * g.1, axis.2 - d * g.2)
        let n = (a.0 * a.0 + a.1 * a.1 + a.2 * a.2).squareRoot()
        a = (a.0 / n, a.1 / n, a.2 / n)
        u = a
        v = (g.1 * a.2 - g.2 * a.1, g.2 * a.0 - g.0 * a.2, g.0 * a.1 - g.1 * a.0)
    }
    func gravity(atSecond t: Double) -> (Double, Double, Double) {
        let p = Self.amplitude * sin(6.283185307 * t / 1500), q = Self.amplitude * sin(6.283185307 * t / 2220 + 1.1)
        let g = (rest.0 + p * u.0 + q * v.0, rest.1 + p * u.1 + q * v.1, rest.2 + p * u.2 + q * v.2)
        let n = (g.0 * g.0 + g.1 * g.1 + g.2 * g.2).squareRoot()
        return (g.0 / n, g.1 / n, g.2 / n)
    }
}

/// The device's temperature: near skin temperature on the wrist (33 °C by day, 34 °C asleep
/// under the covers), falling toward a 22 °C room with a time constant of 10 minutes once it is
/// taken off, and warming back within minutes once it is put on again (the behaviour Zhou et al.
/// 2015 use to tell wear from non-wear).
struct SkinTemperature {
    var celsius = 33.0
    mutating func advance(worn: Bool, asleep: Bool) {
        let target = worn ? (asleep ? 34.0 : 33.0) : 22.0
        let tau = worn ? 300.0 : 600.0
        celsius += (target - celsius) * (1 - exp(-1 / tau))
    }
}

/// Movement level by local clock time: active days, nights of sleep cycles with brief awakenings.
public struct DayNightScript: Sendable {
    struct Level {
        var burstProbability: Double
        var amplitudeG: ClosedRange<Double>
        var postureChangeProbability: Double
        /// Off the wrist, lying at this attitude.
        var offWrist: RestingAttitude? = nil
        /// Asleep (the script's light, deep or still sleep).
        var asleep = false
        /// Asleep without a posture change (``WearableEvent/stillSleep(night:startMinute:minutes:)``).
        var still = false
    }
    /// One scripted night: local 23:00 to 07:00, asleep from `onsetUTC` to `wakeUTC` but for the
    /// brief awakenings (`sleepMinutes` excludes them).
    public struct Night: Sendable {
        public var onsetUTC: Int64
        public var wakeUTC: Int64
        public var sleepMinutes: Int
    }
    var rng: SplitMix64
    let offsetSeconds: Int64
    let events: [WearableEvent]
    let clockChange: (utc: Int64, offsetSeconds: Int64)?
    private var nightStage: [Int64: [UInt8]] = [:]
    /// ``daySleepStages(minutes:)`` of each day-sleep event, by its index in ``events``.
    private var daySleep: [Int: [UInt8]] = [:]
    private var firstLocalDay: Int64? = nil

    init(rng: SplitMix64, offsetSeconds: Int64, events: [WearableEvent] = [], clockChange: (utc: Int64, offsetSeconds: Int64)? = nil) {
        self.rng = rng; self.offsetSeconds = offsetSeconds; self.events = events; self.clockChange = clockChange
    }

    /// The wall clock's offset from UTC at `utc` (``WearableCSVGenerator/clockChange``).
    func offset(at utc: Int64) -> Int64 {
        if let c = clockChange, utc >= c.utc { return c.offsetSeconds }
        return offsetSeconds
    }

    static let day = Level(burstProbability: 0.35, amplitudeG: 0.05...0.6, postureChangeProbability: 1.0 / 20)
    static let wake = Level(burstProbability: 0.08, amplitudeG: 0.02...0.2, postureChangeProbability: 1.0 / 60)
    static let light = Level(burstProbability: 0.006, amplitudeG: 0.01...0.08, postureChangeProbability: 1.0 / 3600, asleep: true)
    static let deep = Level(burstProbability: 0.0005, amplitudeG: 0.005...0.02, postureChangeProbability: 0, asleep: true)
    static let stillSleep = Level(burstProbability: 0, amplitudeG: 0...0, postureChangeProbability: 0, asleep: true, still: true)
    static let table = Level(burstProbability: 0, amplitudeG: 0...0, postureChangeProbability: 0, offWrist: .flat)
    /// A watch lying flat on a table, slightly tilted.
    static let tableGravity = (0.02, -0.03, 0.9993)
    /// Stage code of a scripted minute of still sleep (0 awake, 1 light, 2 deep).
    static let stillStage: UInt8 = 3
    /// … and of a minute up and about at night, as by day (a day sleeper's night).
    static let upStage: UInt8 = 4

    /// The nights whose 23:00 start lies in `[start, start + seconds)`, in order; generates them as
    /// ``level(at:)`` would (same random draws in the same order).
    mutating func nights(from start: Int64, seconds: Int) -> [Night] {
        var result: [Night] = []
        _ = level(at: start)   // as the generator's first sample does
        var s = start
        while s < start + Int64(seconds) {
            let local = s + offset(at: s)
            let secondOfDay = ((local % 86_400) + 86_400) % 86_400
            if secondOfDay == 23 * 3600 || (s == start && secondOfDay < 7 * 3600) {
                let nightStart = secondOfDay >= 23 * 3600 ? local : local - secondOfDay - 3600
                _ = level(at: s)
                let stages = nightStage[nightStart]!
                func asleep(_ stage: UInt8) -> Bool { stage != 0 && stage != Self.upStage }
                if secondOfDay == 23 * 3600 {
                    // Minute by minute of real time to the wall clock's 07:00: a clock change
                    // repeats an hour of the script or skips one, as the generator plays it.
                    var first: Int64? = nil, last: Int64 = 0, minutes = 0
                    var u = s
                    while true {
                        let m = Int((u + offset(at: u) - nightStart) / 60)
                        guard m < stages.count else { break }
                        if m >= 0 && asleep(stages[m]) { first = first ?? u; last = u; minutes += 1 }
                        u += 60
                    }
                    if let first { result.append(Night(onsetUTC: first, wakeUTC: last + 60, sleepMinutes: minutes)) }
                }
            }
            s += 60
        }
        return result
    }

    mutating func level(at utcSecond: Int64) -> Level {
        let local = utcSecond + offset(at: utcSecond)
        let secondOfDay = ((local % 86_400) + 86_400) % 86_400
        let localDay = (local - secondOfDay) / 86_400
        if firstLocalDay == nil { firstLocalDay = localDay }
        // The night that starts at 23:00 local of this evening (or of yesterday's, after midnight).
        let nightStart = secondOfDay >= 23 * 3600 ? local - secondOfDay + 23 * 3600
            : (secondOfDay < 7 * 3600 ? local - secondOfDay - 3600 : Int64.min)
        if nightStart != Int64.min && nightStage[nightStart] == nil {
            nightStage[nightStart] = withEvents(makeNight(), nightStartLocal: nightStart)
        }
        // The second day, 14:00–17:00: the watch lies on a table.
        if localDay == firstLocalDay! + 1 && secondOfDay >= 14 * 3600 && secondOfDay < 17 * 3600 { return Self.table }
        if let off = events.first(where: { covers($0, local) }), case let .offWrist(_, _, _, attitude) = off {
            return Level(burstProbability: 0, amplitudeG: 0...0, postureChangeProbability: 0, offWrist: attitude)
        }
        if let k = events.firstIndex(where: { if case .daySleep = $0 { return covers($0, local) } else { return false } }),
           case let .daySleep(_, _, minutes) = events[k] {
            if daySleep[k] == nil { daySleep[k] = Self.daySleepStages(minutes: minutes) }
            let stages = daySleep[k]!
            let span = events[k].span(firstDayLocal: firstLocalDay! * 86_400)
            return stages[min(Int((local - span.from) / 60), stages.count - 1)] == 2 ? Self.deep : Self.light
        }
        guard nightStart != Int64.min else { return Self.day }
        let minute = Int((local - nightStart) / 60)
        let stages = nightStage[nightStart]!
        switch stages[min(minute, stages.count - 1)] {
        case 0: return Self.wake
        case 1: return Self.light
        case Self.stillStage: return Self.stillSleep
        case Self.upStage: return Self.day
        default: return Self.deep
        }
    }

    /// Whether the event's stretch holds local second `local`.
    private func covers(_ event: WearableEvent, _ local: Int64) -> Bool {
        guard let first = firstLocalDay else { return false }
        let span = event.span(firstDayLocal: first * 86_400)
        return local >= span.from && local < span.to
    }

    /// The night's minutes with the still-sleep events of the night starting at `nightStartLocal` in them.
    private func withEvents(_ stages: [UInt8], nightStartLocal: Int64) -> [UInt8] {
        guard let first = firstLocalDay else { return stages }
        var s = stages
        for case let .stillSleep(night, start, minutes) in events
        where first * 86_400 + Int64(night) * 86_400 + 23 * 3600 == nightStartLocal {
            for m in max(0, start)..<min(s.count, start + minutes) { s[m] = Self.stillStage }
        }
        // A day sleeper is up and about through the night (the day sleep is ``daySleepStages``).
        for case let .daySleep(night, _, _) in events where first * 86_400 + Int64(night) * 86_400 + 23 * 3600 == nightStartLocal {
            s = Array(repeating: Self.upStage, count: s.count)
        }
        return s
    }

    /// A day sleep's minutes, light (1) and deep (2) in 90-minute cycles with deep shorter in later
    /// cycles, as a night's; fixed (no draws from the script's stream, which stays as it was).
    static func daySleepStages(minutes: Int) -> [UInt8] {
        var stages: [UInt8] = []
        var cycle = 0
        while stages.count < minutes {
            let deep = Int(90 * max(0.1, 0.45 - 0.1 * Double(cycle)))
            stages += Array(repeating: 1, count: 90 - deep) + Array(repeating: 2, count: deep)
            cycle += 1
        }
        return Array(stages.prefix(minutes))
    }

    /// 480 minutes: 10–25 awake, then 90-minute cycles of light and deep sleep (deep shorter in
    /// later cycles) with an awakening of 1–4 minutes at some cycle ends, a few minutes awake at the end.
    private mutating func makeNight() -> [UInt8] {
        var stages: [UInt8] = Array(repeating: 0, count: 10 + Int(rng.unit() * 15))
        var cycle = 0
        while stages.count < 472 {
            let deepShare = max(0.1, 0.45 - 0.1 * Double(cycle))
            let deep = Int(90 * deepShare)
            stages += Array(repeating: 1, count: 90 - deep) + Array(repeating: 2, count: deep)
            if rng.unit() < 0.4 { stages += Array(repeating: 0, count: 1 + Int(rng.unit() * 4)) }
            cycle += 1
        }
        return Array(stages.prefix(472)) + Array(repeating: 0, count: 8)
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and the same sequence on every machine.
public struct SplitMix64: Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    @inline(__always)
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    @inline(__always)
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }
    /// Approximately standard normal (sum of four uniforms, scaled): enough for sensor noise, and fast.
    @inline(__always)
    public mutating func gaussian() -> Double {
        (unit() + unit() + unit() + unit() - 2) * 1.7320508075688772
    }
}

public enum BenchError: Error, CustomStringConvertible {
    case io(String)
    case failed(String)
    public var description: String {
        switch self {
        case .io(let m), .failed(let m): return m
        }
    }
}
