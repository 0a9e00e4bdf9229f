import Foundation
import GRDB
import Testing
import SleepCore
import SleepStore

/// Migration v20: a night's sleep periods and day minutes are stored with its analysis, read back
/// as written, copied by merge with their analyses, and refused (never a trap) where a row holds
/// what no sleepsta writes.
@Suite("Sleep periods and day minutes in the store")
struct SleepPeriodStoreTests {
    let path = NSTemporaryDirectory() + "sleepsta-days-\(UUID().uuidString).sqlite"

    /// 2024-06-14 12:00 Berlin (UTC+2), the night's window start; the window is 24 h.
    static let windowStart: Int64 = 1_718_359_200

    static func recording(_ hash: String, path: String) -> StoredRecording {
        StoredRecording(path: path, contentHash: hash, format: .samples(.rawCSV), sizeBytes: 10, sampleCount: 3, effectiveSampleRateHz: 1,
                        firstUTC: windowStart, endUTC: windowStart + 86_400, timeZone: "Europe/Berlin", timeZoneSource: .option, units: "g",
                        gravity: .removed, quality: QualitySummary(), warnings: [])
    }

    static func night(_ id: String) -> StoredNight {
        let s = SecondSeries(startSecond: windowStart, movement: [0.5], legacyMovement: [1], sampleCounts: [3])
        return StoredNight(id: id, window: NightWindow(date: CivilDate(year: 2024, month: 6, day: 14), startUTC: windowStart, endUTC: windowStart + 86_400),
                           timeline: .fixed(7200), timeZone: "Europe/Berlin", label: nil, preBedSurvey: [], postBedSurvey: [], series: s)
    }

    /// A main period 23:00–07:00 and a nap 15:00–15:40 (local), and the day's minutes to match.
    static var analysis: NightAnalysis {
        let h: Int64 = 3600
        let main = SleepPeriod(kind: .main, source: .data, inBedStartUTC: windowStart + 10 * h + 1800, inBedEndUTC: windowStart + 19 * h + 900,
                               sleepOnsetUTC: windowStart + 11 * h, wakeTimeUTC: windowStart + 19 * h, sleepPeriodMinutes: 480,
                               totalSleepTimeMinutes: 441.5, wasoMinutes: 38.5, awakenings: 4, sleepEfficiencyPercent: 83.3)
        let nap = SleepPeriod(kind: .nap, source: .diary, inBedStartUTC: windowStart + 3 * h, inBedEndUTC: windowStart + 3 * h + 2400,
                              sleepOnsetUTC: windowStart + 3 * h, wakeTimeUTC: windowStart + 3 * h + 2400, sleepPeriodMinutes: 40,
                              totalSleepTimeMinutes: 35, wasoMinutes: 5, awakenings: 1, sleepEfficiencyPercent: 87.5)
        var day = DayMinutes(window: NightWindow(date: CivilDate(year: 2024, month: 6, day: 14), startUTC: windowStart, endUTC: windowStart + 86_400),
                             fill: .awake)
        day.mark(fromUTC: windowStart, toUTC: windowStart + 3600, as: .noData)
        day.mark(fromUTC: nap.sleepOnsetUTC, toUTC: nap.wakeTimeUTC, as: .nap)
        day.mark(fromUTC: windowStart + 6 * h, toUTC: windowStart + 7 * h, as: .notWornTemperature)
        day.mark(fromUTC: main.sleepOnsetUTC, toUTC: main.wakeTimeUTC, as: .sleepMain)
        var a = NightAnalysis(status: .scored, parameters: AnalysisParameters(), intervals: [], epochs: [], wakeThreshold: 0.5, metrics: nil)
        a.periods = [main, nap]
        a.day = day
        return a
    }

    /// A 1,440-byte BLOB literal: `first` (hex) then awake minutes.
    static func blob(first: String) -> String { "X'" + first + String(repeating: "01", count: 1439) + "'" }

    func stored() throws -> (SleepDatabase, NightAnalysis) {
        let db = try SleepDatabase(path: path)
        _ = try db.replaceRecording(Self.recording("h1", path: "p1.csv"), nights: [Self.night("p1_2024-06-14")], analyses: ["p1_2024-06-14": Self.analysis],
                                    runID: nil)
        return (db, Self.analysis)
    }

    @Test("periods and day minutes round-trip with their analysis, with and without its series; saving again replaces them; none stored reads as none")
    func roundTrip() throws {
        let (db, a) = try stored()
        let back = try #require(try db.analysis(nightID: "p1_2024-06-14", parametersKey: a.key))
        #expect(back.periods == a.periods)
        #expect(back.day == a.day)
        #expect(back.day?.classes.count == 1440 && back.day?.minutes(.sleepMain) == 480 && back.day?.minutes(.nap) == 40)
        try db.saveAnalysis(a, nightID: "p1_2024-06-14", runID: nil)
        #expect(try db.query("SELECT COUNT(*) AS n FROM sleep_periods") == [["n": "2"]])
        #expect(try db.query("SELECT ordinal, kind, source, awakenings FROM sleep_periods ORDER BY ordinal") == [
            ["ordinal": "0", "kind": "main", "source": "data", "awakenings": "4"],
            ["ordinal": "1", "kind": "nap", "source": "diary", "awakenings": "1"],
        ])
        #expect(try db.query("SELECT night_id, start_utc, length(classes_u8) AS n FROM day_minutes") == [
            ["night_id": "p1_2024-06-14", "start_utc": String(Self.windowStart), "n": "1440"],
        ])
        // The index's read (no series) has them too.
        let light = try db.pool.read { try SleepDatabase.fetchAnalysis(nightID: "p1_2024-06-14", key: a.key, db: $0, series: false) }
        #expect(light?.periods == a.periods && light?.day == a.day)
        // An analysis without them (a method that does not find periods; stored before v20).
        var bare = a
        bare.periods = nil; bare.day = nil
        try db.saveAnalysis(bare, nightID: "p1_2024-06-14", runID: nil)
        let none = try #require(try db.analysis(nightID: "p1_2024-06-14", parametersKey: a.key))
        #expect(none.periods == nil && none.day == nil)
        #expect(try db.query("SELECT (SELECT COUNT(*) FROM sleep_periods) + (SELECT COUNT(*) FROM day_minutes) AS n") == [["n": "0"]])
        // They go with their recording.
        try db.saveAnalysis(a, nightID: "p1_2024-06-14", runID: nil)
        try db.deleteRecording(path: "p1.csv")
        #expect(try db.query("SELECT (SELECT COUNT(*) FROM sleep_periods) + (SELECT COUNT(*) FROM day_minutes) AS n") == [["n": "0"]])
    }

    @Test("a day that does not cover its night's window, or a period with a number that is not finite, is refused when saved, naming the night")
    func refusedOnWrite() throws {
        let (db, a) = try stored()
        var short = a
        short.day?.classes.removeLast()
        #expect { try db.saveAnalysis(short, nightID: "p1_2024-06-14", runID: nil) } throws: { e in
            "\(e)".contains("night p1_2024-06-14") && "\(e)".contains("1439 minutes")
        }
        var nan = a
        nan.periods?[1].sleepEfficiencyPercent = .nan
        #expect { try db.saveAnalysis(nan, nightID: "p1_2024-06-14", runID: nil) } throws: { e in
            "\(e)".contains("night p1_2024-06-14") && "\(e)".contains("sleep_efficiency_pct")
        }
        #expect(try db.analysis(nightID: "p1_2024-06-14", parametersKey: a.key)?.periods == a.periods, "the stored analysis is as it was")
    }

    @Test("a stored row no sleepsta writes is refused when read, naming the analysis, the table and what is wrong; never a trap",
          arguments: [
            ("UPDATE day_minutes SET classes_u8 = " + SleepPeriodStoreTests.blob(first: "09"), "byte 9 at minute 0"),
            ("UPDATE day_minutes SET classes_u8 = substr(classes_u8, 1, 1439)", "1439 minutes, its night's window 1440"),
            ("UPDATE day_minutes SET classes_u8 = zeroblob(1500)", "1500 minutes"),
            ("UPDATE day_minutes SET classes_u8 = 'text'", "not a BLOB"),
            ("UPDATE day_minutes SET start_utc = start_utc + 60", "is not its night's window start"),
            ("UPDATE sleep_periods SET kind = 'siesta' WHERE ordinal = 1", "sleep_periods row 1: kind 'siesta'"),
            ("UPDATE sleep_periods SET source = 'guess'", "source 'guess'"),
            ("UPDATE sleep_periods SET waso_min = 9e999", "waso_min inf is not a finite number"),
            ("UPDATE sleep_periods SET awakenings = 'many'", "awakenings"),
            ("UPDATE sleep_periods SET sleep_onset_utc = 1.5", "sleep_onset_utc"),
          ])
    func hostileRows(sql: String, expected: String) throws {
        let (db, a) = try stored()
        try db.pool.write { try $0.execute(sql: sql) }
        let id = try #require(try db.query("SELECT id FROM analyses").first?["id"])
        #expect { try db.analysis(nightID: "p1_2024-06-14", parametersKey: a.key) } throws: { e in
            // A row the readers refuse names its night, its analysis and the rule (the caller skips the night).
            guard let e = e as? StoredRowError else { return false }
            return e.message.hasPrefix("night 'p1_2024-06-14': analysis \(id): ") && e.message.contains(expected)
        }
    }

    @Test("merge copies periods and day minutes with their analyses under the merged ids, and refuses a shard whose rows the readers would refuse, naming shard, table and row")
    func merge() throws {
        let root = NSTemporaryDirectory() + "sleepsta-days-merge-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The merged database already holds another recording, so the shard's analysis id changes.
        let target = try SleepDatabase(path: root + "/all.sqlite")
        var other = Self.analysis
        other.periods = [other.periods![0]]
        _ = try target.replaceRecording(Self.recording("h0", path: "p0.csv"), nights: [Self.night("p0_2024-06-14")],
                                        analyses: ["p0_2024-06-14": other], runID: nil)
        _ = try target.replaceRecording(Self.recording("h9", path: "p9.csv"), nights: [Self.night("p9_2024-06-14")], analyses: [:], runID: nil)
        func makeShard(_ path: String) throws -> SleepDatabase {
            let shard = try SleepDatabase(path: path)
            _ = try shard.replaceRecording(Self.recording("h1", path: "p1.csv"), nights: [Self.night("p1_2024-06-14")],
                                           analyses: ["p1_2024-06-14": Self.analysis], runID: nil)
            return shard
        }
        let shardPath = root + "/shard.sqlite"
        let shard = try makeShard(shardPath)
        let run = RunRecord(startedUTC: "2024-06-15T06:00:00Z", finishedUTC: "2024-06-15T06:00:00Z", toolVersion: "test", command: "merge",
                            parametersJSON: "{}", status: "ok")
        let counts = try target.mergeShards([shardPath], run: run)
        #expect(counts["sleep_periods"]?.inserted == 2 && counts["day_minutes"]?.inserted == 1)
        let merged = try #require(try target.analysis(nightID: "p1_2024-06-14", parametersKey: Self.analysis.key))
        #expect(merged.periods == Self.analysis.periods && merged.day == Self.analysis.day)
        #expect(try target.analysis(nightID: "p0_2024-06-14", parametersKey: other.key)?.periods == other.periods)
        let shardID = try shard.query("SELECT id FROM analyses")[0]["id"]!
        let mergedID = try target.query("SELECT id FROM analyses WHERE night_id = 'p1_2024-06-14'")[0]["id"]!
        #expect(shardID != mergedID, "ids renumbered")
        #expect(try target.query("SELECT DISTINCT analysis_id FROM sleep_periods WHERE night_id = 'p1_2024-06-14'") == [["analysis_id": mergedID]])
        #expect(try target.query("SELECT analysis_id FROM day_minutes WHERE night_id = 'p1_2024-06-14'") == [["analysis_id": mergedID]])
        // Again: nothing doubles.
        let again = try target.mergeShards([shardPath], run: run)
        #expect(again["sleep_periods"]?.unchanged == 2 && again["day_minutes"]?.unchanged == 1)

        let before = try target.query("SELECT analysis_id, ordinal, kind FROM sleep_periods ORDER BY analysis_id, ordinal")
        let runs = try target.allRuns().count
        for (sql, table, row, what) in [
            ("UPDATE sleep_periods SET kind = 'siesta' WHERE ordinal = 1", "sleep_periods", "(analysis_id \(shardID), ordinal 1)", "kind 'siesta'"),
            ("UPDATE sleep_periods SET total_sleep_time_min = -9e999 WHERE ordinal = 0", "sleep_periods", "(analysis_id \(shardID), ordinal 0)", "total_sleep_time_min"),
            ("UPDATE day_minutes SET classes_u8 = zeroblob(1380)", "day_minutes", "(analysis_id \(shardID))", "1380 minutes, its night's window 1440"),
            ("UPDATE day_minutes SET classes_u8 = " + Self.blob(first: "FF"), "day_minutes", "(analysis_id \(shardID))", "byte 255"),
        ] {
            let hostile = root + "/hostile-\(UUID().uuidString).sqlite"
            try makeShard(hostile).pool.write { try $0.execute(sql: sql) }
            #expect { try target.mergeShards([hostile], run: run) } throws: { e in
                let text = "\(e)"
                return text.contains("shard \(hostile): table \(table), row \(row)") && text.contains(what)
            }
        }
        #expect(try target.query("SELECT analysis_id, ordinal, kind FROM sleep_periods ORDER BY analysis_id, ordinal") == before)
        #expect(try target.allRuns().count == runs, "nothing merged, not even the run row")
    }
}
