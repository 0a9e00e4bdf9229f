import Foundation
import SleepCore
import SleepstaWorkloads
import SleepIngest
import SleepPipeline
import SleepStore

/// The benchmark's year of nights: 365 per-second base series made directly through the library
/// (no CSV files: parsing has its own stages), scored with the batch's analysis and stored the way
/// `sleepsta run` stores a recording, one transaction per recording. `sleepsta run` (reports) and
/// `sleepsta compare` are then timed on that database.
///
/// Each night: a phone logging at 50 Hz from about 22:30–00:00 Berlin time for 7–9 h, with the
/// movement script of the sample nights (awake in bed, sleep cycles of light and deep sleep with
/// brief awakenings, a final wake); per-second movement in g as the accumulator would give it.
enum NightLibrary {
    struct Night {
        var stored: StoredNight
        var recording: StoredRecording
    }

    static func make(count: Int, seed: UInt64 = 365) -> [Night] {
        let zone = "Europe/Berlin"
        let timeline = ZoneTimeline.timeline(identifier: zone) ?? .utc
        var rng = SplitMix64(seed: seed)
        let firstEvening = CivilDate(year: 2023, month: 6, day: 1)
        return (0..<count).map { k in
            let date = firstEvening.adding(days: k)
            let window = NightSplitter.window(for: date, timeline: timeline)
            let bedLocal = date.daysSinceEpoch * 86_400 + 22 * 3600 + 1800 + Int64(rng.unit() * 5400)
            let start = timeline.utcSecond(atLocal: bedLocal)
            let seconds = 7 * 3600 + Int(rng.unit() * 7200)
            var movement = [Float](repeating: 0, count: seconds)
            var legacy = [Float](repeating: 0, count: seconds)
            let counts = [UInt16](repeating: 50, count: seconds)
            let minutes = seconds / 60 + 1
            var stage = [UInt8](repeating: 1, count: minutes)      // 0 wake, 1 light, 2 deep
            let latency = 10 + Int(rng.unit() * 15)
            for m in 0..<min(latency, minutes) { stage[m] = 0 }
            var m = latency
            var cycle = 0
            while m < minutes {
                let deep = Int(90 * max(0.1, 0.45 - 0.1 * Double(cycle)))
                for j in min(m, minutes)..<min(m + 90, minutes) { stage[j] = j - m >= 90 - deep ? 2 : 1 }
                m += 90
                if rng.unit() < 0.4 {
                    let awake = 1 + Int(rng.unit() * 4)
                    for j in min(m, minutes)..<min(m + awake, minutes) { stage[j] = 0 }
                    m += awake
                }
                cycle += 1
            }
            for j in max(0, minutes - 6)..<minutes { stage[j] = 0 }
            var burst = 0
            var amplitude = 0.0
            for s in 0..<seconds {
                let st = stage[s / 60]
                let p = st == 0 ? 0.06 : (st == 1 ? 0.004 : 0.0004)
                if burst == 0 && rng.unit() < p { burst = 1 + Int(rng.unit() * 6); amplitude = (st == 0 ? 0.1 : 0.03) * rng.unit() }
                var v = 0.0012 + 0.0002 * rng.gaussian()
                if burst > 0 { v += amplitude; burst -= 1 }
                movement[s] = Float(v)
                legacy[s] = Float(v * 7 / 3)
            }
            let series = SecondSeries(startSecond: start, movement: movement, legacyMovement: legacy, sampleCounts: counts)
            let id = "year/phone_\(date)"
            let night = StoredNight(id: id, window: window, timeline: timeline, timeZone: zone, label: nil,
                                    preBedSurvey: [], postBedSurvey: [], series: series)
            let hex = "blake3:" + String(format: "%064x", k + 1)   // a made-up identity of the stored form
            let recording = StoredRecording(
                path: "year/phone-\(date).csv", contentHash: hex, format: .samples(.rawCSV),
                sizeBytes: Int64(seconds * 50 * 40), sampleCount: Int64(seconds * 50), effectiveSampleRateHz: 50,
                firstUTC: start, endUTC: start + Int64(seconds), timeZone: zone, timeZoneSource: .option,
                units: "g", gravity: .removed, quality: QualitySummary(), warnings: [])
            return Night(stored: night, recording: recording)
        }
    }

    /// Scoring (the batch's night analysis) and storing of 365 nights, each timed.
    static func stages(_ o: StageOptions, database: String, count: Int = 365) throws -> [StageResult] {
        let nights = make(count: count)
        let parameters = AnalysisParameters()
        var analyses: [String: NightAnalysis] = [:]
        let scoreTimes = Stopwatch.measure(warmUp: o.warmUp, repeats: o.repeats) {
            for n in nights {
                analyses[n.stored.id] = NightAnalyzer.analyze(series: n.stored.series, window: n.stored.window, parameters: parameters)
            }
        }
        let secondsTotal = nights.reduce(0) { $0 + $1.stored.series.count }
        var storeTimes: [Double] = []
        for run in 0..<(o.warmUp + max(1, o.repeats)) {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            let db = try SleepDatabase(path: database)
            let start = Stopwatch.now()
            for n in nights {
                try db.replaceRecording(n.recording, nights: [n.stored], analyses: [n.stored.id: analyses[n.stored.id]!], runID: nil)
            }
            if run >= o.warmUp { storeTimes.append(Stopwatch.now() - start) }
        }
        let peak = Stopwatch.peakResidentBytes()
        let scored = analyses.values.filter { $0.status == .scored }.count
        return [
            StageResult(name: "score-nights", label: "night analysis (oakley-relative, 10-min intervals, metrics), \(count) nights",
                        seconds: scoreTimes, bytes: 0, items: count, unit: "nights", peakResidentBytes: peak,
                        notes: ["scored nights": String(scored), "per-second values": String(secondsTotal)]),
            StageResult(name: "store", label: "store \(count) nights (base series + analysis, one transaction each)",
                        seconds: storeTimes, bytes: 0, items: count, unit: "nights", peakResidentBytes: peak),
        ]
    }
}
