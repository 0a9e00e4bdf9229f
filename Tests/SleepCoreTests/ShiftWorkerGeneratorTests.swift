import Foundation
import Testing
import SleepCore
import SleepstaWorkloads

/// The shift worker's generator (``ShiftWorkerWeek``) against its own schedule: the truth of every
/// sleep is what the schedule says (a split night is two sleeps, naps are naps, a day sleep is its
/// day's main sleep), every day's kinds follow the rule, seeds differ, and the wrist it generates
/// is plausible (work busier than the sofa, the sofa busier and less still than sleep). Whether a
/// method finds those sleeps is tested elsewhere.
@Suite("Shift worker's week: a schedule as data, the truth of every sleep, a plausible wrist")
struct ShiftWorkerGeneratorTests {
    static let seeds: [UInt64] = [1, 2, 3, 7, 42]
    /// Monday 2024-06-10 00:00 in Berlin's summer time.
    static let monday: Int64 = 1_717_970_400

    /// The night week of seed 1 and its epochs (generated once: 7.5 days at 10 Hz).
    static let night: (week: ShiftWorkerWeek, epochs: WearableEpochs) = {
        let week = ShiftWorkerWeek(schedule: .nightShiftWeek(seed: 1), seed: 1)
        return (week, try! week.epochs())
    }()

    static func localMinuteOfDay(_ utc: Int64) -> Int { Int(((utc + 7200) % 86_400) / 60) }
    static func localDate(_ utc: Int64) -> CivilDate { CivilDate(daysSinceEpoch: (utc + 7200) / 86_400) }
    static func date(_ day: Int) -> CivilDate { CivilDate(year: 2024, month: 6, day: day) }

    @Test("every shipped schedule is valid for every seed: nothing overlaps, the sofa keeps 30 min from sleep", arguments: ShiftSchedule.names)
    func valid(_ name: String) throws {
        for seed in Self.seeds {
            let s = try #require(ShiftSchedule.named(name, seed: seed))
            #expect(s.problems.isEmpty, "\(name) seed \(seed): \(s.problems)\n\(s.timeline)")
            #expect(s.startUTC == Self.monday && s.days == 7.5)
            #expect(s.segments.count(where: { $0.activity == .sofaStill }) >= (name == "rotating" ? 2 : 3))
        }
        #expect(ShiftSchedule.named("weekend", seed: 1) == nil)
    }

    @Test("the night week's truth: a split night of two sleeps 60–90 min apart, naps before shifts, day sleeps the main sleep of their day")
    func nightWeek() {
        for seed in Self.seeds {
            let week = ShiftWorkerWeek(schedule: .nightShiftWeek(seed: seed), seed: seed)
            let truth = week.truth(), work = week.workSpansUTC
            #expect(truth.count == 13 && work.count == 4, "seed \(seed): \(truth)")
            // The split night: the only two sleeps 60–90 min apart, the evening of Saturday 06-15.
            let pairs = zip(truth, truth.dropFirst()).filter { (60 * 60...90 * 60).contains($1.onsetUTC - $0.wakeUTC) }
            #expect(pairs.count == 1, "seed \(seed): \(truth)")
            if let pair = pairs.first {
                let (first, second) = pair
                #expect(first.dayDate == Self.date(15) && second.dayDate == Self.date(15))
                #expect(first.kind == .secondary && second.kind == .main, "seed \(seed): \(first) / \(second)")
                #expect(Self.localMinuteOfDay(first.onsetUTC) >= 22 * 60 + 30)
            }
            // Pre-shift naps: asleep around 19:00, a shift within 3 h of waking; naps of their day.
            let naps = truth.filter { (18 * 60 + 30...19 * 60 + 40).contains(Self.localMinuteOfDay($0.onsetUTC)) }
            #expect(naps.count == 3, "seed \(seed): \(truth)")
            for n in naps {
                #expect(n.kind == .nap && n.sleepMinutes >= 30, "\(n)")
                #expect(work.contains { $0.from > n.wakeUTC && $0.from - n.wakeUTC < 3 * 3600 }, "\(n)")
            }
            // After each shift a sleep begins within 3 h: the main sleep of the day the shift began in.
            for w in work {
                let after = truth.first { $0.onsetUTC >= w.to && $0.onsetUTC - w.to < 3 * 3600 }
                #expect(after?.kind == .main && after?.dayDate == Self.localDate(w.from), "seed \(seed): \(String(describing: after))")
                #expect(after.map { Self.localMinuteOfDay($0.onsetUTC) < 12 * 60 } ?? false)
            }
            // No sleep during work; the sofa evenings keep 30 min from every sleep.
            for t in truth {
                #expect(!work.contains { $0.from < t.wakeUTC && t.onsetUTC < $0.to }, "\(t)")
                #expect(!week.awakeStillSpansUTC.contains { $0.from < t.wakeUTC + 1800 && t.onsetUTC < $0.to + 1800 }, "\(t)")
            }
            #expect(Set(week.awakeStillSpansUTC.map { Self.localDate($0.from) }).count >= 3)
            #expect(week.awakeStillSpansUTC.allSatisfy { $0.to - $0.from == 90 * 60 })
        }
    }

    @Test("every day's kinds: one main (the longest), others secondary from 120 min, naps below", arguments: ShiftSchedule.names)
    func kinds(_ name: String) throws {
        let expected: [String: [SleepPeriodKind: Int]] = ["night": [.main: 8, .secondary: 1, .nap: 4],
                                                          "day": [.main: 8, .nap: 1], "rotating": [.main: 8, .nap: 3]]
        for seed in Self.seeds {
            let week = ShiftWorkerWeek(schedule: try #require(ShiftSchedule.named(name, seed: seed)), seed: seed)
            let truth = week.truth()
            #expect(Dictionary(grouping: truth, by: \.kind).mapValues(\.count) == expected[name], "\(name) seed \(seed): \(truth)")
            #expect(Set(truth.map(\.dayDate)) == Set((9...16).map(Self.date)), "\(name) seed \(seed)")
            for (_, sleeps) in Dictionary(grouping: truth, by: \.dayDate) {
                let main = sleeps.filter { $0.kind == .main }
                #expect(main.count == 1)
                for s in sleeps where s.kind != .main {
                    #expect(s.sleepPeriodMinutes <= main[0].sleepPeriodMinutes)
                    #expect(s.kind == (s.sleepPeriodMinutes >= 120 ? .secondary : .nap), "\(s)")
                }
            }
            for (a, b) in zip(truth, truth.dropFirst()) { #expect(a.wakeUTC < b.onsetUTC) }
            for t in truth {
                #expect(t.onsetUTC >= Self.monday && t.wakeUTC <= week.schedule.endUTC)
                #expect(t.sleepMinutes >= 30 && t.sleepMinutes <= t.sleepPeriodMinutes && t.sleepMinutes >= t.sleepPeriodMinutes - 20, "\(t)")
                let onsetDate = Self.localDate(t.onsetUTC)
                let expectedDate = Self.localMinuteOfDay(t.onsetUTC) < 12 * 60 ? CivilDate(daysSinceEpoch: onsetDate.daysSinceEpoch - 1) : onsetDate
                #expect(t.dayDate == expectedDate, "\(t)")
            }
        }
    }

    @Test("seeds differ: the schedule's times, the truth and the signal")
    func seedsDiffer() throws {
        for name in ShiftSchedule.names {
            let a = try #require(ShiftSchedule.named(name, seed: 1)), b = try #require(ShiftSchedule.named(name, seed: 2))
            #expect(a != b)
            #expect(ShiftWorkerWeek(schedule: a, seed: 1).truth() != ShiftWorkerWeek(schedule: b, seed: 2).truth())
            #expect(a == ShiftSchedule.named(name, seed: 1), "the same seed, the same schedule")
        }
        func head(_ seed: UInt64) -> [Double] {
            var xs: [Double] = []
            ShiftWorkerWeek(schedule: Self.custom, seed: seed).forEachSample { s, _, x, _, _, _ in if s < Self.monday + 60 { xs.append(x) } }
            return xs
        }
        #expect(head(1) != head(2) && head(1) == head(1))
    }

    /// A schedule given as data: sofa, a sleep, up and about, a second sleep, work, a nap.
    static let custom = ShiftSchedule(name: "custom", firstDate: date(10), utcOffsetSeconds: 7200, days: 1, segments: [
        .init(day: 0, startMinute: 60, minutes: 240, activity: .sofaStill),
        .init(day: 0, startMinute: 330, minutes: 200, activity: .sleep),
        .init(day: 0, startMinute: 530, minutes: 70, activity: .upAndAbout),
        .init(day: 0, startMinute: 600, minutes: 180, activity: .sleep),
        .init(day: 0, startMinute: 840, minutes: 240, activity: .work),
        .init(day: 0, startMinute: 1200, minutes: 50, activity: .sleep),
    ])

    @Test("a schedule as data: one truth per sleep segment, asleep within minutes of getting into bed")
    func customSchedule() {
        let s = Self.custom
        #expect(s.problems.isEmpty, "\(s.problems)")
        let truth = ShiftWorkerWeek(schedule: s, seed: 5).truth()
        let sleeps = s.segments.filter { $0.activity == .sleep }
        #expect(truth.count == sleeps.count)
        for (t, seg) in zip(truth, sleeps) {
            let lag = Int(t.onsetUTC - s.utc(minute: seg.fromMinute)) / 60, early = Int(s.utc(minute: seg.toMinute) - t.wakeUTC) / 60
            #expect((2...12).contains(lag) && (1...4).contains(early), "\(t)")
        }
        // 05:30 and 10:00 on 06-10 belong to 06-09 (main, then secondary); 20:00 is 06-10's only sleep.
        #expect(truth.map(\.kind) == [.main, .secondary, .main])
        #expect(truth.map(\.dayDate) == [Self.date(9), Self.date(9), Self.date(10)])
        #expect(ShiftSchedule(name: "x", firstDate: Self.date(10), utcOffsetSeconds: 7200, days: 1, segments: [
            .init(day: 0, startMinute: 600, minutes: 60, activity: .sofaStill), .init(day: 0, startMinute: 680, minutes: 60, activity: .sleep),
        ]).problems.count == 1, "a sofa 20 min before a sleep")
    }

    /// Mean ENMO (mg) and the share of epochs after which angle-z moves more than 5° within 5 min,
    /// over the epochs inside `spans`.
    static func stats(_ e: WearableEpochs, _ spans: [(from: Int64, to: Int64)]) -> (enmo: Double, moving: Double) {
        var enmo = 0.0, n = 0, moving = 0, windows = 0
        for span in spans {
            let first = Int((span.from - e.startUTC + 4) / 5), end = min(e.count, Int((span.to - e.startUTC) / 5))
            guard first < end else { continue }
            for i in first..<end {
                enmo += Double(e.enmo[i]); n += 1
                guard i + 60 < end else { continue }
                windows += 1
                if (i + 1...i + 60).contains(where: { abs(e.angleZ[$0] - e.angleZ[i]) > 5 }) { moving += 1 }
            }
        }
        return (1000 * enmo / Double(max(n, 1)), Double(moving) / Double(max(windows, 1)))
    }

    @Test("the wrist: work busier than the sofa, the sofa busier and less still than sleep")
    func plausibleEpochs() {
        let (week, e) = Self.night
        #expect(e.startUTC == Self.monday && e.count == Int(7.5 * 86_400) / 5)
        let asleep = week.truth().map { (from: $0.onsetUTC, to: $0.wakeUTC) }
        let work = Self.stats(e, week.workSpansUTC), sofa = Self.stats(e, week.awakeStillSpansUTC), sleep = Self.stats(e, asleep)
        print("SHIFTWORKER ENMO mg work \(work.enmo) sofa \(sofa.enmo) sleep \(sleep.enmo); angle-z >5° within 5 min: work \(work.moving) sofa \(sofa.moving) sleep \(sleep.moving)")
        #expect(work.enmo > 3 * sofa.enmo)
        #expect(sofa.enmo > 1.1 * sleep.enmo)   // above the same noise floor (about 1.6 mg): 2.1 against 1.8 mg for seed 1
        #expect(sofa.moving > 0.4 && sofa.moving > 2.5 * sleep.moving)
        #expect(sleep.moving < 0.3)
    }

    @Test("a stiller sofa (a parameter) moves the angle less; a temperature channel reads skin temperature")
    func stillerSofa() throws {
        var week = ShiftWorkerWeek(schedule: Self.custom, seed: 3)
        let sofa = week.awakeStillSpansUTC
        let realistic = Self.stats(try week.epochs(), sofa)
        week.sofa = .stiller(meanAdjustmentSeconds: 1800)
        week.temperature = true
        let e = try week.epochs()
        let stiller = Self.stats(e, sofa)
        print("SHIFTWORKER sofa realistic \(realistic) stiller \(stiller)")
        #expect(stiller.moving < realistic.moving / 2 && stiller.enmo < realistic.enmo)
        let celsius = try #require(e.temperature).suffix(e.count / 2).filter { !$0.isNaN }
        #expect(!celsius.isEmpty && celsius.allSatisfy { (32.5...34.5).contains($0) })
    }

    @Test("the files: CSV at 10 Hz in the benchmark's layout, .cwa at 25 Hz, the truth as CSV")
    func files() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shiftworker-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let week = ShiftWorkerWeek(schedule: Self.custom, seed: 4)
        #expect(try week.writeCSV(to: dir + "/w.csv") == 86_400 * 10)
        let csv = try String(contentsOfFile: dir + "/w.csv", encoding: .utf8)
        let lines = csv.split(separator: "\n", maxSplits: 2)
        #expect(lines[0] == "timestamp,x,y,z" && lines[1].hasPrefix("\(Self.monday).00,"))
        #expect(try week.writeCWA(to: dir + "/w.cwa") == 86_400 * 25)
        let size = try #require((try FileManager.default.attributesOfItem(atPath: dir + "/w.cwa")[.size] as? NSNumber)?.intValue)
        #expect(size == 1024 + 86_400 * 25 / 120 * 512)
        try week.writeTruthCSV(to: dir + "/t.csv")
        let truth = try String(contentsOfFile: dir + "/t.csv", encoding: .utf8).split(separator: "\n")
        #expect(truth.first == "day_date,kind,onset_utc_iso,wake_utc_iso,sleep_minutes" && truth.count == 4)
        #expect(truth[1].hasPrefix("2024-06-09,main,2024-06-10T03:") && truth[1].hasSuffix("Z,\(week.truth()[0].sleepMinutes)"))
    }
}
