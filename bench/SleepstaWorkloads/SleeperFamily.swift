import Foundation
import SleepCore

/// The generated sleepers the wearable method is held to: every ``SleepModel`` with several seeds,
/// with and without a temperature channel, each recording holding devices laid down at night and in
/// the day, flat and on their side.
///
/// One recording: 4 days from 2024-06-14 00:00 UTC (02:00 in Europe/Berlin's summer time), 10 Hz, so
/// three whole nights (the evenings of 06-14, 06-15 and 06-16). Besides the script's table afternoon
/// (06-15 14:00–17:00, flat) the device is laid on its side for two hours in the morning of 06-16
/// (09:30–11:30) and taken off at 02:30 of the last night and laid down until 07:30, flat or on its
/// side by the seed: that night's sleep ends at the take-off.
public enum SleeperFamily {
    public static let days = 4.0
    public static let rateHz = 10
    public static let offsetSeconds: Int64 = 7200
    /// The nights scored: the evenings of 06-14, 06-15 and 06-16.
    public static let nightDates = [CivilDate(year: 2024, month: 6, day: 14), CivilDate(year: 2024, month: 6, day: 15),
                                    CivilDate(year: 2024, month: 6, day: 16)]

    /// One recording of the family.
    public struct Member: Sendable, CustomStringConvertible {
        public var model: SleepModel
        public var seed: UInt64
        public var temperature: Bool
        public init(model: SleepModel, seed: UInt64, temperature: Bool) { self.model = model; self.seed = seed; self.temperature = temperature }
        public var description: String { "\(model) seed \(seed)\(temperature ? " +temperature" : "")" }

        /// The laid-down events: the morning on its side, the night's take-off (flat for odd seeds).
        public var events: [WearableEvent] {
            [.offWrist(day: 2, startMinute: 9 * 60 + 30, minutes: 120, attitude: .onItsSide),
             .offWrist(day: 3, startMinute: 150, minutes: 300, attitude: seed % 2 == 1 ? .flat : .onItsSide)]
        }

        public var generator: WearableCSVGenerator {
            var g = WearableCSVGenerator(days: SleeperFamily.days, rateHz: SleeperFamily.rateHz, events: events, temperature: temperature)
            g.seed = seed
            g.sleepModel = model
            return g
        }

        /// Each scored night's truth: onset, wake (the take-off on the last night) and minutes asleep
        /// (up to the take-off), in the order of ``SleeperFamily/nightDates``.
        public func truth() -> [DayNightScript.Night] {
            let g = generator
            var nights = Array(g.truth().prefix(3))
            let takeOff = g.eventSpansUTC()[1].from
            if nights.count == 3 {
                let lost = Int((nights[2].wakeUTC - takeOff) / 60)
                nights[2].wakeUTC = takeOff
                nights[2].sleepMinutes -= max(0, lost)
            }
            return nights
        }

        /// The laid-down stretches in UTC seconds (the table afternoon, the morning, the night).
        public var laidDownUTC: [(from: Int64, to: Int64)] {
            [(1_718_452_800, 1_718_463_600)] + generator.eventSpansUTC()
        }
    }

    /// Every model (the script's included) with `seeds` seeds each, without temperature, and the
    /// first seed of each again with a temperature channel.
    public static func members(seeds: [UInt64]) -> [Member] {
        SleepModel.allCases.flatMap { m in
            seeds.map { Member(model: m, seed: $0, temperature: false) } + [Member(model: m, seed: seeds[0], temperature: true)]
        }
    }

    /// The recording's 5-s epochs, as a reader of its samples would hand them over (no file between).
    public static func epochs(_ m: Member) throws -> WearableEpochs {
        var sink = WearableEpochSink()
        var lastSecond = Int64.min
        let step = 1.0 / Double(rateHz)
        m.generator.forEachSample { second, k, x, y, z, celsius in
            let t = Double(second) + Double(k) * step
            sink.add(timestamp: t, x: x, y: y, z: z)
            if m.temperature && second != lastSecond { sink.addTemperature(timestamp: Double(second), celsius: celsius); lastSecond = second }
        }
        let finished = try sink.finish()
        var e = finished.epochs
        // GGIR 3's default non-wear scores, as the readers store them for `--method ggir`.
        e.ggirNonWearScore = Array(GGIRNonWear2023.scores(finished.statistics, chunkSeconds: GGIRNonWear2023.chunkSeconds(format: format),
                                                          clock: nil).prefix(e.count))
        return e
    }

    static let format = SourceFormat.samples(.rawCSV)

    /// The methods the family is compared on: sleepsta's (the default), GGIR's chain with its 2013
    /// non-wear rule as it is, and GGIR 3.3-6's defaults (``GGIRNightMethod``).
    public static let methods: [(name: String, method: any NightAnalysisMethod)] = [
        ("sleepsta", WearableNightMethod()), ("ggir-2013-rule", WearableNightMethod(judgesStillness: false)), ("ggir-defaults", GGIRNightMethod()),
    ]

    /// A night's data for a method, as the pipeline hands it over: the window and the 6 h after it.
    public static func night(_ date: CivilDate, epochs: WearableEpochs) -> NightData {
        let timeline = UTCOffsetTimeline(initialOffsetSeconds: Int32(offsetSeconds))
        let window = NightSplitter.window(for: date, timeline: timeline)
        return NightData(window: window, timeline: timeline, series: SecondSeries.empty(startSecond: window.startUTC),
                         epochs: epochs.slice(from: window.startUTC, to: window.endUTC + 6 * 3600))
    }

    /// How one night came out against its truth.
    public struct Outcome: Sendable, CustomStringConvertible {
        public var member: Member
        public var date: CivilDate
        public var status: NightStatus
        /// Minutes from the truth (nil when the night was not scored).
        public var onsetMinutes: Double?, wakeMinutes: Double?, tstMinutes: Double?
        /// Minutes scored asleep inside a laid-down stretch.
        public var sleepWhileLaidDownMinutes: Double
        /// The method's own account of the night's still stretches (local clock), for reading a failure.
        public var stillness = ""

        public func within(onset: Double, wake: Double, tst: Double) -> Bool {
            guard let o = onsetMinutes, let w = wakeMinutes, let t = tstMinutes else { return false }
            return abs(o) <= onset && abs(w) <= wake && abs(t) <= tst
        }
        public var description: String {
            func f(_ v: Double?) -> String { v.map { String(format: "%+.0f", $0) } ?? "—" }
            return "\(member) \(date): \(status.rawValue) onset \(f(onsetMinutes)) wake \(f(wakeMinutes)) TST \(f(tstMinutes)) laid-down sleep \(Int(sleepWhileLaidDownMinutes))\(stillness)"
        }
    }

    /// Each night of `m` analysed by `method` and compared with the truth.
    public static func outcomes(_ m: Member, epochs: WearableEpochs, method: any NightAnalysisMethod,
                                parameters: AnalysisParameters = AnalysisParameters()) -> [Outcome] {
        let truth = m.truth()
        let timeline = UTCOffsetTimeline(initialOffsetSeconds: Int32(offsetSeconds))
        let facts = RecordingFacts(format: format, sampleRateHz: Double(rateHz))
        let prepared = method.inputs.contains(.wholeRecording) ? method.prepare(recording: epochs, facts: facts, timeline: timeline) : nil
        return zip(nightDates, truth).map { date, t in
            var data = night(date, epochs: epochs)
            if method.inputs.contains(.wholeRecording) {
                data.recordingEpochs = epochs; data.recording = facts; data.recordingResult = prepared
            }
            let a = method.analyze(data, parameters: parameters)
            var o = Outcome(member: m, date: date, status: a.status, sleepWhileLaidDownMinutes: 0)
            if a.status == .scored, let s = a.metrics, let on = s.sleepOnsetUTC, let wk = s.wakeTimeUTC {
                o.onsetMinutes = Double(on - t.onsetUTC) / 60
                o.wakeMinutes = Double(wk - t.wakeUTC) / 60
                o.tstMinutes = s.totalSleepTimeMinutes - Double(t.sleepMinutes)
            }
            if let w = a.wearable {
                func clock(_ spans: [[Int64]]?) -> String {
                    (spans ?? []).map { s in s.map { u in
                        let m = ((u + offsetSeconds) % 86_400) / 60
                        return String(format: "%02d:%02d", m / 60, m % 60) }.joined(separator: "–") }.joined(separator: " ")
                }
                o.stillness = "\n    still worn: \(clock(w.stillWornSpansUTC))\n    laid down: \(clock(w.laidDownSpansUTC))"
            }
            for e in a.epochs where e.state == .sleep {
                if m.laidDownUTC.contains(where: { e.startUTC >= $0.from && e.startUTC < $0.to }) {
                    o.sleepWhileLaidDownMinutes += Double(a.scoredEpochSeconds) / 60
                }
            }
            return o
        }
    }
}
