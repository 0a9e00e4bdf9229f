import Foundation
import Testing
import SleepCore
import SleepPipeline
import SleepReport
import SleepStore

/// `sleepsta export --what periods` and `--what days`, from analyses stored with their periods and
/// day minutes (built here: the night methods fill them elsewhere), across the spring change of the
/// clocks in Berlin (the night of 2024-03-30 is 23 h: 1,380 minutes).
@Suite("export --what periods and days", .serialized)
struct DayExportTests {
    static let berlin = UTCOffsetTimeline(initialOffsetSeconds: 3600, transitions: [.init(utcSecond: 1_711_846_800, offsetSeconds: 7200)])
    static let recordingPath = "p07/night.csv"

    /// Night windows, local noon to noon: 03-29 (24 h), 03-30 (23 h, the clocks go forward), 03-31,
    /// 04-01 and 04-02 (24 h each).
    static let noons: [Int64] = [1_711_710_000, 1_711_796_400, 1_711_879_200, 1_711_965_600, 1_712_052_000, 1_712_138_400]

    static func window(_ i: Int) -> NightWindow {
        NightWindow(date: CivilDate(year: 2024, month: i < 3 ? 3 : 4, day: i < 3 ? 29 + i : i - 2), startUTC: noons[i], endUTC: noons[i + 1])
    }

    static func period(_ kind: SleepPeriodKind, onset: Int64, wake: Int64, source: SleepPeriodSource = .data) -> SleepPeriod {
        let spt = Double(wake - onset) / 60
        return SleepPeriod(kind: kind, source: source, inBedStartUTC: onset - 1800, inBedEndUTC: wake + 900, sleepOnsetUTC: onset,
                           wakeTimeUTC: wake, sleepPeriodMinutes: spt, totalSleepTimeMinutes: spt - 20, wasoMinutes: 20, awakenings: 3,
                           sleepEfficiencyPercent: 100 * (spt - 20) / (spt + 45))
    }

    static func analysis(_ status: NightStatus, periods: [SleepPeriod]?, day: DayMinutes?, notes: [NightNote] = []) -> NightAnalysis {
        let metrics = periods?.first.map { p in
            NightSummaryMetrics(resolutionSeconds: 600, inBedStartUTC: p.inBedStartUTC, inBedEndUTC: p.inBedEndUTC, sleepOnsetUTC: p.sleepOnsetUTC,
                                wakeTimeUTC: p.wakeTimeUTC, timeInBedMinutes: p.sleepPeriodMinutes + 45, sleepPeriodMinutes: p.sleepPeriodMinutes,
                                totalSleepTimeMinutes: p.totalSleepTimeMinutes, sleepOnsetLatencyMinutes: 30, wakeAfterSleepOnsetMinutes: p.wasoMinutes,
                                sleepEfficiencyPercent: p.sleepEfficiencyPercent, awakenings: p.awakenings, lightMinutes: 1, deepMinutes: 1, awakeMinutes: 1)
        }
        var a = NightAnalysis(status: status, parameters: AnalysisParameters(), intervals: [], epochs: [], wakeThreshold: 0.5, metrics: metrics,
                              notes: notes)
        a.periods = periods
        a.day = day
        return a
    }

    /// Five nights of one recording: a night with a secondary sleep from 10:30 that runs past noon
    /// into the DST day (carried sleep, 60 min), the DST day with a main sleep and a nap, a night
    /// without sleep found, a night not worn, and one stored without day minutes (an older store).
    static func store(_ path: String) throws {
        let db = try SleepDatabase(path: path)
        // Night 0: main 23:00–07:00 CET, secondary 10:30–13:00 CET (ends in night 1's day).
        let main0 = period(.main, onset: 1_711_749_600, wake: 1_711_778_400)
        let second0 = period(.secondary, onset: 1_711_791_000, wake: 1_711_800_000, source: .diary)
        var day0 = DayMinutes(window: window(0), fill: .awake)
        day0.mark(fromUTC: noons[0], toUTC: noons[0] + 3600, as: .noData)
        day0.mark(fromUTC: 1_711_717_200, toUTC: 1_711_720_800, as: .notWornStill)
        day0.mark(fromUTC: main0.sleepOnsetUTC, toUTC: main0.wakeTimeUTC, as: .sleepMain)
        day0.mark(fromUTC: second0.sleepOnsetUTC, toUTC: second0.wakeTimeUTC, as: .sleepSecondary)
        // Night 1 (23 h): carried 12:00–13:00, nap 16:00–16:30 CET, not worn (temperature 20 min,
        // no movement 60 min), main 23:00 CET – 07:00 CEST (7 h), the last 30 min without data.
        let main1 = period(.main, onset: 1_711_836_000, wake: 1_711_861_200)
        let nap1 = period(.nap, onset: 1_711_810_800, wake: 1_711_812_600)
        var day1 = DayMinutes(window: window(1), fill: .awake)
        day1.mark(fromUTC: noons[1], toUTC: 1_711_800_000, as: .carriedSleep)
        day1.mark(fromUTC: nap1.sleepOnsetUTC, toUTC: nap1.wakeTimeUTC, as: .nap)
        day1.mark(fromUTC: 1_711_818_000, toUTC: 1_711_819_200, as: .notWornTemperature)
        day1.mark(fromUTC: main1.sleepOnsetUTC, toUTC: main1.wakeTimeUTC, as: .sleepMain)
        day1.mark(fromUTC: 1_711_868_400, toUTC: 1_711_872_000, as: .notWornNoMovement)
        day1.mark(fromUTC: noons[2] - 1800, toUTC: noons[2], as: .noData)
        let analyses = [
            analysis(.scored, periods: [main0, second0], day: day0),
            analysis(.scored, periods: [main1, nap1], day: day1),
            analysis(.noSleepFound, periods: nil, day: DayMinutes(window: window(2), fill: .awake)),
            analysis(.insufficientData, periods: nil, day: DayMinutes(window: window(3), fill: .notWornStill),
                     notes: [.notWornAllData(dataSeconds: 3600), .daySleeper]),
            analysis(.scored, periods: nil, day: nil),
        ]
        var nights: [StoredNight] = [], byID: [String: NightAnalysis] = [:]
        for i in 0..<5 {
            let w = window(i)
            let id = "night_\(w.date)"
            nights.append(StoredNight(id: id, window: w, timeline: berlin, timeZone: "Europe/Berlin", label: nil, preBedSurvey: [], postBedSurvey: [],
                                      series: SecondSeries(startSecond: w.startUTC, movement: [0.5], legacyMovement: [1], sampleCounts: [3])))
            byID[id] = analyses[i]
        }
        let recording = StoredRecording(path: recordingPath, contentHash: "blake3:07", format: .samples(.rawCSV), sizeBytes: 10, sampleCount: 5,
                                        effectiveSampleRateHz: 1, firstUTC: noons[0], endUTC: noons[5], timeZone: "Europe/Berlin",
                                        timeZoneSource: .option, units: "g", gravity: .removed, quality: QualitySummary(), warnings: [])
        _ = try db.replaceRecording(recording, nights: nights, analyses: byID, runID: nil)
    }

    /// RFC 4180 as CSVFormat writes it, as dictionaries by column.
    static func table(_ path: String) throws -> (columns: [String], rows: [[String: String]]) {
        let chars = Array(try String(contentsOfFile: path, encoding: .utf8))
        var records: [[String]] = [], record: [String] = [], field = "", quoted = false, i = 0
        while i < chars.count {
            let c = chars[i]
            if quoted {
                if c != "\"" { field.append(c) } else if i + 1 < chars.count, chars[i + 1] == "\"" { field.append(c); i += 1 } else { quoted = false }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                record.append(field); field = ""
            } else if c == "\n" {
                record.append(field); records.append(record); record = []; field = ""
            } else {
                field.append(c)
            }
            i += 1
        }
        let columns = records.first ?? []
        return (columns, records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(columns, $0)) })
    }

    func export(_ table: ExportTable, _ w: Workspace, participants: ParticipantRule? = nil) throws -> (rows: Int, path: String) {
        let out = w.root + "/\(table.rawValue)-\(participants == nil ? "file" : "folder").csv"
        var c = ExportConfiguration(databasePath: w.db, table: table, outputPath: out)
        c.participants = participants
        return (try Exporter(configuration: c).run(), out)
    }

    @Test("periods: one row per period, numbered from 1 within its analysis, times as the nights export writes them (across the change of the clocks)")
    func periods() throws {
        let w = Workspace()
        try Self.store(w.db)
        let (count, path) = try export(.periods, w)
        let t = try Self.table(path)
        #expect(t.columns == DayExportCSV.periodColumns && t.columns == ExportTable.periods.columns)
        #expect(count == 4 && t.rows.count == 4)
        #expect(t.rows.map { $0["night"]! } == ["night_2024-03-29", "night_2024-03-29", "night_2024-03-30", "night_2024-03-30"])
        #expect(t.rows.map { $0["period"]! } == ["1", "2", "1", "2"])
        #expect(t.rows.map { $0["kind"]! } == ["main", "secondary", "main", "nap"])
        #expect(t.rows.map { $0["source"]! } == ["data", "diary", "data", "data"])
        #expect(Set(t.rows.map { $0["participant"]! }) == [Self.recordingPath], "each recording file is a participant by default")
        let dst = t.rows[2]
        #expect(dst["sleep_onset"] == "2024-03-30T23:00:00+01:00" && dst["wake_time"] == "2024-03-31T07:00:00+02:00")
        #expect(dst["sleep_period_min"] == "420.0" && dst["total_sleep_time_min"] == "400.0" && dst["awakenings"] == "3")
        #expect(dst["night_date"] == "2024-03-30" && dst["method"] == "phone-in-bed" && dst["recording"] == Self.recordingPath)
        #expect(dst["parameters_key"] == AnalysisParameters().key && !(dst["analysis_id"] ?? "").isEmpty)
        // The main period's times are the nights export's, character for character.
        let (_, nightsPath) = try export(.nights, w)
        let nights = try Self.table(nightsPath).rows
        for p in t.rows where p["kind"] == "main" {
            let n = try #require(nights.first { $0["analysis_id"] == p["analysis_id"] })
            for column in ["in_bed_start", "in_bed_end", "sleep_onset", "wake_time"] { #expect(n[column] == p[column], "\(column)") }
        }
        // A participants rule (folder level 1) names the participant by folder.
        let folder = try Self.table(try export(.periods, w, participants: .folder(level: 1)).path)
        #expect(Set(folder.rows.map { $0["participant"]! }) == ["p07"])
    }

    @Test("days: one row per day with day minutes; classes sum to the day's minutes (1,380 on the DST day); carried sleep counted by its kind; included or why not")
    func days() throws {
        let w = Workspace()
        try Self.store(w.db)
        let (count, path) = try export(.days, w)
        let t = try Self.table(path)
        #expect(t.columns == DayExportCSV.dayColumns && t.columns == ExportTable.days.columns)
        #expect(count == 4, "the night stored without day minutes gives no row")
        #expect(t.rows.map { $0["date"]! } == ["2024-03-29", "2024-03-30", "2024-03-31", "2024-04-01"])
        func ints(_ column: String) -> [Int] { t.rows.map { Int($0[column]!)! } }
        #expect(ints("day_minutes") == [1440, 1380, 1440, 1440])
        #expect(ints("sleep_main_min") == [480, 420, 0, 0])
        #expect(ints("sleep_secondary_min") == [90, 60, 0, 0], "night 1's day counts the secondary sleep carried past noon")
        #expect(ints("nap_count") == [0, 1, 0, 0] && ints("nap_min") == [0, 30, 0, 0])
        #expect(ints("no_data_min") == [60, 30, 0, 0])
        #expect(ints("not_worn_temperature_min") == [0, 20, 0, 0] && ints("not_worn_still_min") == [60, 0, 0, 1440])
        #expect(ints("not_worn_no_movement_min") == [0, 60, 0, 0] && ints("not_worn_min") == [60, 80, 0, 1440])
        #expect(ints("awake_min") == [750, 760, 1440, 0])
        for r in t.rows {
            let sum = ["sleep_main_min", "sleep_secondary_min", "nap_min", "awake_min", "not_worn_min", "no_data_min"].map { Int(r[$0]!)! }.reduce(0, +)
            #expect(sum == Int(r["day_minutes"]!)!, "\(r["date"]!)")
            #expect(Int(r["valid_wear_min"]!)! == Int(r["day_minutes"]!)! - Int(r["not_worn_min"]!)! - Int(r["no_data_min"]!)!)
        }
        #expect(t.rows.map { $0["included"]! } == ["true", "true", "false", "false"])
        #expect(t.rows.map { $0["excluded_reason"]! } == ["", "", "no-sleep-found", "not-worn-all-data"])
        #expect(Set(t.rows.map { $0["participant"]! }) == [Self.recordingPath] && Set(t.rows.map { $0["method"]! }) == ["phone-in-bed"])
        #expect(t.rows.map { $0["night"]! } == ["night_2024-03-29", "night_2024-03-30", "night_2024-03-31", "night_2024-04-01"])
    }

    @Test("pandas reads both exports: the columns are there, a day's classes sum to its minutes, SPT = wake − onset across the DST change",
          .enabled(if: Pandas.available, Pandas.skipMessage))
    func pandas() throws {
        let w = Workspace()
        try Self.store(w.db)
        let periods = try export(.periods, w).path, days = try export(.days, w).path
        let script = """
            import sys
            import pandas as pd
            p = pd.read_csv(sys.argv[1]); d = pd.read_csv(sys.argv[2])
            assert list(p.columns) == sys.argv[3].split(","), list(p.columns)
            assert list(d.columns) == sys.argv[4].split(","), list(d.columns)
            assert len(p) == 4 and len(d) == 4
            classes = d.sleep_main_min + d.sleep_secondary_min + d.nap_min + d.awake_min + d.not_worn_min + d.no_data_min
            assert (classes == d.day_minutes).all(), classes
            assert (d.not_worn_min == d.not_worn_temperature_min + d.not_worn_still_min + d.not_worn_no_movement_min).all()
            assert sorted(set(d.day_minutes)) == [1380, 1440]
            assert d.included.dtype == bool, d.included.dtype
            assert d.excluded_reason.fillna("").tolist() == ["", "", "no-sleep-found", "not-worn-all-data"]
            onset = pd.to_datetime(p.sleep_onset, utc=True); wake = pd.to_datetime(p.wake_time, utc=True)
            assert ((wake - onset).dt.total_seconds() / 60 == p.sleep_period_min).all()
            assert (p.groupby("analysis_id").period.min() == 1).all()
            assert p.sleep_period_min.dtype == float and p.awakenings.dtype.kind == "i"
            print("ok")
            """
        let result = try Pandas.run(script, arguments: [periods, days, DayExportCSV.periodColumns.joined(separator: ","),
                                                        DayExportCSV.dayColumns.joined(separator: ",")])
        #expect(result.status == 0 && result.output.contains("ok"), "\(result.output)")
    }
}

/// Python 3 with pandas, where the machine has them (tests that read exports as a user would):
/// SLEEPSTA_PYTHON (the venv `make test` makes under CI=true or WITH_PANDAS=1), else python3.
enum Pandas {
    static let available: Bool = (try? run("import pandas", arguments: []).status == 0) ?? false
    static let skipMessage = Comment(rawValue: "python3 with pandas not found (pip install pandas, or make test WITH_PANDAS=1); the pandas check of the export is skipped")
    static let python = ProcessInfo.processInfo.environment["SLEEPSTA_PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "python3"

    static func run(_ script: String, arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [python, "-c", script] + arguments
        let pipe = Pipe()
        p.standardOutput = pipe; p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
