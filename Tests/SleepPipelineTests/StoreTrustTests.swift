import Foundation
import Logging
import Testing
import SleepCore
import SleepIngest
import SleepPipeline
import SleepReport
import SleepStore
import SleepstaWorkloads

/// The store never loses or mislabels a result: a zone the file states wins over `--tz`, runs
/// remember their parameters, exports choose one analysis per night, every label fits its method.
@Suite("What the store says is what ran", .serialized)
struct StoreTrustTests {
    /// 2024-06-14 10:30Z for 4 h: across noon UTC but not across noon in Berlin (12:30 to 16:30 CEST).
    static let start: Int64 = 1_718_361_000

    /// ``Workspace/phoneNight(startUTC:hours:)`` with ISO 8601 timestamps carrying `offset` (`+02:00`).
    static func phoneNightWithOffsets(startUTC: Int64, hours: Int, offset: String, offsetSeconds: Int64) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return Workspace.phoneNight(startUTC: startUTC, hours: hours).split(separator: "\n").enumerated().map { i, line -> String in
            guard i > 0 else { return String(line) }
            let fields = line.split(separator: ",")
            let t = Double(fields[0])!
            let local = Date(timeIntervalSince1970: t + Double(offsetSeconds))
            return "\(f.string(from: local))\(offset),\(fields[1...].joined(separator: ","))"
        }.joined(separator: "\n") + "\n"
    }

    static func nightsExport(_ w: Workspace, analysis: AnalysisSelection = .current, interval: IntervalLength? = nil,
                             notices: NoticeBox = NoticeBox()) throws -> (header: [String], rows: [[String]]) {
        let out = w.root + "/nights-\(UUID().uuidString).csv"
        var exporter = Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .nights, interval: interval,
                                                                   analysis: analysis, outputPath: out))
        exporter.notice = { notices.append($0) }
        try exporter.run()
        let lines = Self.csv(try String(contentsOfFile: out, encoding: .utf8))
        return (lines[0], Array(lines.dropFirst()))
    }

    /// RFC 4180 rows (a wearable's parameters key holds commas and is quoted).
    static func csv(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars = chars.dropFirst() } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { row.append(field); field = "" }
            else if c == "\n" { row.append(field); rows.append(row); row = []; field = "" }
            else { field.append(c) }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }

    final class NoticeBox: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func append(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
    }

    // MARK: - The zone a file states

    @Test("a file stating its offsets keeps them under a --tz that disagrees: one warning naming both, the page says 'stated by the file', the export's time_zone names the offsets")
    func fileZoneWins() throws {
        let w = Workspace()
        w.write("offsets.csv", Self.phoneNightWithOffsets(startUTC: Self.start, hours: 4, offset: "+02:00", offsetSeconds: 7200))
        let summary = try w.run(tz: "America/New_York")
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        let warnings = summary.warnings.filter { $0.contains("--tz America/New_York disagrees") }
        #expect(warnings.count == 1 && warnings[0].contains("UTC+02:00"), "\(summary.warnings)")
        let db = try SleepDatabase(path: w.db)
        let r = try #require(try db.query("SELECT time_zone, time_zone_source FROM recordings").first)
        #expect(r["time_zone"] == "UTC+02:00" && r["time_zone_source"] == "data")
        #expect(try db.nightIDs() == ["offsets_2024-06-14"], "one night on the file's own clock (12:30 to 16:30)")
        let page = try String(contentsOfFile: w.reports + "/offsets_2024-06-14/index.html", encoding: .utf8)
        #expect(page.contains("stated by the file"))
        let export = try Self.nightsExport(w)
        let zone = try #require(export.header.firstIndex(of: "time_zone"))
        #expect(export.rows.map { $0[zone] } == ["UTC+02:00"])

        // A --tz that agrees with the file: no warning.
        let agreeing = Workspace()
        agreeing.write("offsets.csv", Self.phoneNightWithOffsets(startUTC: Self.start, hours: 4, offset: "+02:00", offsetSeconds: 7200))
        let quiet = try agreeing.run(tz: "Europe/Berlin")
        #expect(!quiet.warnings.contains { $0.contains("disagrees") }, "\(quiet.warnings)")
        // And the --tz change does not read the file again: its zone is its own.
        let again = try w.run(tz: "Asia/Tokyo")
        #expect(again.filesUnchanged == 1 && again.filesIngested == 0)
    }

    @Test("the app export's own zone wins: Alex's nights stay on the Berlin clock under --tz America/New_York")
    func appExportZoneWins() throws {
        let w = Workspace()
        let appExport = """
            {"timeZone": "Europe/Berlin", "nights": [{"id": "n1", "intervalSeconds": 600,
              "motionData": [\((0..<48).map { k in "{\"motion\": \(k % 7 == 0 ? 3.0 : 0.2), \"timestamp\": \(Self.start + 36_000 + Int64(k + 1) * 600)}" }.joined(separator: ", "))]}]}
            """
        w.write("app.json", appExport)
        let summary = try w.run(tz: "America/New_York")
        #expect(summary.warnings.contains { $0.contains("Europe/Berlin") && $0.contains("--tz America/New_York disagrees") })
        let db = try SleepDatabase(path: w.db)
        let r = try #require(try db.query("SELECT time_zone, time_zone_source FROM recordings").first)
        #expect(r["time_zone"] == "Europe/Berlin" && r["time_zone_source"] == "data")
    }

    @Test("--tz Etc/GMT-1 then --tz CET on a file that states no zone: the second run splits the nights again, also when the file's stat is unchanged (no hash)")
    func zoneChangeOnTheStatFastPath() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: Self.start, hours: 4))
        let first = try w.run(tz: "Etc/GMT-1") { $0.statRacyMarginNanoseconds = 0 }
        #expect(first.filesIngested == 1)
        let second = try w.run(tz: "CET") { $0.statRacyMarginNanoseconds = 0 }
        #expect(second.filesIngested == 1 && second.filesUnchangedByStat == 0, "a new zone is not 'unchanged'")
        #expect(second.parameterChanges == ["tz Etc/GMT-1 → CET"])
        let db = try SleepDatabase(path: w.db)
        #expect(try db.query("SELECT time_zone, time_zone_source FROM recordings").first?["time_zone"] == "CET")
        let page = try String(contentsOfFile: w.reports + "/phone_2024-06-14/index.html", encoding: .utf8)
        #expect(page.contains("CET (from --tz)") && !page.contains("Etc/GMT-1"))
        let third = try w.run(tz: "CET") { $0.statRacyMarginNanoseconds = 0 }
        #expect(third.filesUnchangedByStat == 1 && third.parameterChanges.isEmpty)
    }

    @Test("time_zone is named also where nothing stated a zone (UTC)")
    func zoneAlwaysNamed() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: Self.start, hours: 4))
        _ = try w.run(tz: nil)
        let export = try Self.nightsExport(w)
        let zone = try #require(export.header.firstIndex(of: "time_zone")), source = try #require(export.header.firstIndex(of: "time_zone_source"))
        #expect(!export.rows.isEmpty && export.rows.allSatisfy { $0[zone] == "UTC" && $0[source] == "assumed-utc" })
    }

    // MARK: - Remembered parameters

    @Test("a run killed with its WAL not checkpointed and its WAL index stale: the next nightly still reads the parameters it remembers")
    func rememberedAfterKill() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: 1_718_398_800))
        _ = try w.run { $0.parameters.interval = IntervalLength(seconds: 900)! }
        // What a kill can leave: the database, a WAL with frames the shared-memory index does not
        // know of (the index as it was before the last write), so the next reader must rebuild it.
        let held = try SleepDatabase(path: w.db)
        let run = RunRecord(startedUTC: "2026-11-27T03:00:00Z", toolVersion: "test", command: "nightly", parametersJSON: "{}")
        _ = try held.beginRun(run)
        let crashed = w.root + "/crashed"
        try FileManager.default.createDirectory(atPath: crashed, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: w.db + "-shm", toPath: crashed + "/db.sqlite-shm")
        _ = try held.beginRun(run)
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: w.db + suffix, toPath: crashed + "/db.sqlite" + suffix) }
        withExtendedLifetime(held) {}
        let remembered = try #require(try RunParameters.remembered(databasePath: crashed + "/db.sqlite"))
        #expect(remembered.parameters.analysis.interval.seconds == 900)
    }

    @Test("the store remembers the last run's parameters (diary included); a run that changes them says so in its summary and its runs row")
    func rememberedParameters() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: 1_718_398_800))
        try "id,night,in_bed,out_of_bed\nphone,2024-06-14,22:50,07:10\n".write(toFile: w.root + "/diary.csv", atomically: true, encoding: .utf8)
        let diary = try SleepDiary.read(path: w.root + "/diary.csv")
        let first = try w.run { $0.parameters.interval = IntervalLength(seconds: 900)!; $0.diary = diary }
        #expect(first.parameterChanges.isEmpty, "nothing to compare with on a new database")
        let remembered = try #require(try RunParameters.remembered(databasePath: w.db))
        #expect(remembered.parameters.analysis.interval.seconds == 900)
        #expect(remembered.parameters.diary == w.root + "/diary.csv")
        #expect(remembered.parameters.timeZone == "Europe/Berlin")

        let second = try w.run { _ in }
        #expect(second.parameterChanges == ["interval 15m → 10m", "diary \(w.root)/diary.csv → none"], "\(second.parameterChanges)")
        let db = try SleepDatabase(path: w.db)
        let changed = try db.query("SELECT parameters_changed FROM runs ORDER BY id").map { $0["parameters_changed"] ?? "" }
        #expect(changed == ["", "interval 15m → 10m; diary \(w.root)/diary.csv → none"], "\(changed)")
        let text = RunSummaryText.render(second, configuration: PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports))
        #expect(text.contains("parameters changed since the last run: interval 15m → 10m; diary"))

        // The runs export carries the column.
        let out = w.root + "/runs.csv"
        try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .runs, outputPath: out)).run()
        let runs = try String(contentsOfFile: out, encoding: .utf8)
        #expect(runs.split(separator: "\n")[0].hasSuffix(",parameters_json,parameters_changed"))
    }

    // MARK: - Exports choose

    @Test("export --analysis: current gives one row per night (the pages' analysis), all every parameter set with distinct analysis_id, KEY one set")
    func exportChoosesAnalyses() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: 1_718_398_800))
        w.write("phone2.csv", Workspace.phoneNight(startUTC: 1_718_398_800 + 86_400))
        _ = try w.run(interval: IntervalLength(seconds: 900)!)
        _ = try w.run(interval: .tenMinutes)
        let nights = try SleepDatabase(path: w.db).nightIDs().count
        #expect(nights == 2)
        let current = try Self.nightsExport(w)
        let id = try #require(current.header.firstIndex(of: "analysis_id")), key = try #require(current.header.firstIndex(of: "parameters_key"))
        let interval = try #require(current.header.firstIndex(of: "interval_seconds")), night = try #require(current.header.firstIndex(of: "night"))
        #expect(current.rows.count == nights && current.rows.allSatisfy { $0[interval] == "600" })
        #expect(Set(current.rows.map { $0[night] }).count == nights, "night ids unique in the default export")
        let all = try Self.nightsExport(w, analysis: .all)
        #expect(all.rows.count == 2 * nights && Set(all.rows.map { $0[id] }).count == 2 * nights)
        let fifteen = try #require(all.rows.first { $0[interval] == "900" })[key]
        let chosen = try Self.nightsExport(w, analysis: .key(fifteen))
        #expect(chosen.rows.count == nights && chosen.rows.allSatisfy { $0[key] == fifteen })
        // --interval with current: the remembered parameters at that length.
        #expect(try Self.nightsExport(w, interval: IntervalLength(seconds: 900)!).rows.allSatisfy { $0[interval] == "900" })
        #expect(throws: PipelineError.self) { try Self.nightsExport(w, analysis: .key("no-such-key")) }
    }

    @Test("an export while a run holds the store is one snapshot and says on stderr that a run is in progress")
    func exportDuringARun() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: 1_718_398_800))
        _ = try w.run()
        let lock = try RunLock.forRun(databasePath: w.db)
        let notices = NoticeBox()
        let export = try Self.nightsExport(w, notices: notices)
        withExtendedLifetime(lock) {}
        #expect(export.rows.count == 1)
        #expect(notices.all.contains { $0.contains("a run is in progress") && $0.contains("as it was when the export began") }, "\(notices.all)")
    }

    // MARK: - Labels per method, units, comparison

    @Test("a wearable's labels are its own: summary, exports' metric and units, night page heading, index footer; --units m/s2 reads a gravity CSV in m/s² as the same file in g")
    func wearableLabelsAndUnits() throws {
        let g = Workspace(), ms2 = Workspace(), refused = Workspace()
        let signal = WearableCSVGenerator(days: 1.6, rateHz: 10)
        _ = try signal.write(to: g.data + "/wrist.csv")
        let text = try String(contentsOfFile: g.data + "/wrist.csv", encoding: .utf8)
        let scaled = text.split(separator: "\n").enumerated().map { i, line -> String in
            guard i > 0 else { return String(line) }
            let f = line.split(separator: ",")
            // Shortest round-trip decimals: exact to the double, and far cheaper than String(format:)
            // over the file's 1.4 million lines.
            return "\(f[0]),\(f[1...3].map { "\(Double($0)! * AccelerationUnits.standardGravity)" }.joined(separator: ","))"
        }.joined(separator: "\n") + "\n"
        ms2.write("wrist.csv", scaled)
        refused.write("wrist.csv", scaled)

        let summary = try g.run { _ in }
        let rendered = RunSummaryText.render(summary, configuration: PipelineConfiguration(dataDirectory: g.data, databasePath: g.db, reportsDirectory: g.reports))
        #expect(rendered.contains("wearable-24h scored per 5-s epochs (method=wearable-24h;"), "\(rendered)")
        #expect(!rendered.contains("metric=mean-abs-axis"))
        let export = try Self.nightsExport(g)
        let metric = try #require(export.header.firstIndex(of: "metric")), method = try #require(export.header.firstIndex(of: "method"))
        let per = try #require(export.header.firstIndex(of: "scored_per")), epoch = try #require(export.header.firstIndex(of: "epoch_seconds"))
        #expect(export.rows.allSatisfy { $0[metric] == "enmo" && $0[method] == "wearable-24h" && $0[per] == "5-s epochs" })
        #expect(export.rows.contains { $0[epoch] == "5" })
        let out = g.root + "/intervals.csv"
        try Exporter(configuration: ExportConfiguration(databasePath: g.db, table: .intervals, outputPath: out)).run()
        let intervals = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(intervals[0].hasSuffix(",analysis_id,method,movement_unit") && intervals[1].hasSuffix(",wearable-24h,g·s (ENMO)"))
        let scoredNight = try #require(try SleepDatabase(path: g.db).query("SELECT night_id FROM analyses WHERE status = 'scored'").first?["night_id"])
        let page = try String(contentsOfFile: g.reports + "/\(scoredNight)/index.html", encoding: .utf8)
        #expect(page.contains("Night metrics (per 5-s epochs)") && !page.contains("(10m intervals)"))
        let index = try String(contentsOfFile: g.reports + "/index.html", encoding: .utf8)
        #expect(index.contains("wearable-24h: <code>method=wearable-24h;") && !index.contains("metric=mean-abs-axis"))

        // The same signal in m/s²: refused without --units, naming the flag; read as g with it.
        let no = try refused.run { _ in }
        #expect(no.failures.count == 1 && no.failures[0].error.contains("--units m/s2"), "\(no.failures)")
        _ = try ms2.run { $0.units = .metresPerSecondSquared }
        func nights(_ w: Workspace) throws -> [[String: String]] {
            try SleepDatabase(path: w.db).query("""
                SELECT a.night_id, a.status, m.sleep_onset_utc, m.wake_time_utc, m.total_sleep_time_min
                FROM analyses a LEFT JOIN night_metrics m ON m.analysis_id = a.id ORDER BY a.night_id
                """)
        }
        let a = try nights(g), b = try nights(ms2)
        #expect(a.count == b.count && a.contains { $0["status"] == "scored" })
        for (x, y) in zip(a, b) {
            #expect(x["status"] == y["status"])
            if let ox = x["sleep_onset_utc"].flatMap(Int64.init), let oy = y["sleep_onset_utc"].flatMap(Int64.init) { #expect(abs(ox - oy) <= 5) }
            if let wx = x["wake_time_utc"].flatMap(Int64.init), let wy = y["wake_time_utc"].flatMap(Int64.init) { #expect(abs(wx - wy) <= 5) }
            if let tx = x["total_sleep_time_min"].flatMap(Double.init), let ty = y["total_sleep_time_min"].flatMap(Double.init) { #expect(abs(tx - ty) <= 1) }
        }
        #expect(try SleepDatabase(path: ms2.db).query("SELECT units FROM recordings").first?["units"] == "m/s² (converted to g)")

        // Compare 10 and 15 min: the wearable's metrics and sleep/wake labels do not depend on the
        // length, so κ is 1 and nothing is hidden; the page says so for the method.
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let compared = try IntervalComparisonRun(configuration: CompareConfiguration(databasePath: g.db, reportsDirectory: g.reports,
                                                                       lengths: [.tenMinutes, IntervalLength(seconds: 900)!]),
                                   logger: logger).run()
        let pair = try #require(compared.comparison.pairs.first)
        #expect(!pair.nights.isEmpty)
        #expect(pair.pooledGrid.sleepWake.cohenKappa == 1 && pair.hiddenAwakenings == 0 && pair.appearedAwakenings == 0)
        for m in ComparedMetric.allCases where m != .light && m != .deep {
            #expect(pair.agreement(m).blandAltman?.bias ?? 0 == 0, "\(m)")
        }
        let awakenings = pair.nights.map { Int($0.referenceValue(.awakenings) ?? -1) }
        #expect(pair.nights.map(\.hiddenAwakenings.eitherCount) == awakenings, "either length = the metrics' awakenings")
        let comparePage = try String(contentsOfFile: g.reports + "/compare-10m-15m/index.html", encoding: .utf8)
        #expect(comparePage.contains("do not depend on the interval length") && !comparePage.contains("re-aggregated from the per-second base series"))
    }

    @Test("a comparison whose nights were analysed again is marked stale on the index, with the command that renews it")
    func staleComparison() throws {
        let w = try Self.comparedPhoneNight(methods: [AnalysisParameters()])
        _ = try w.run()
        var index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(index.contains("Interval lengths compared: 10m vs 15m") && !index.contains("stale"))
        w.write("phone.csv", Workspace.phoneNight(startUTC: 1_718_398_800 + 600))   // the file changes: read again
        _ = try w.run()
        index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(index.contains("(stale: its nights were analysed again") && index.contains("sleepsta compare --intervals 10m,15m"))
    }

    @Test("compare --method ggir writes its own folder beside the plain comparison of the same lengths; the index links both, each with its own renew command")
    func comparisonPerMethod() throws {
        var ggir = AnalysisParameters()
        ggir.nightMethod = .ggir
        let w = try Self.comparedPhoneNight(methods: [AnalysisParameters(), ggir])
        let files = FileManager.default
        #expect(files.fileExists(atPath: w.reports + "/compare-10m-15m/index.html"))
        #expect(files.fileExists(atPath: w.reports + "/compare-ggir-10m-15m/index.html"))
        #expect(ComparisonReportLayout.parseFolderName("compare-ggir-10m-15m")?.method == .ggir)
        #expect(ComparisonReportLayout.parseFolderName("compare-10m-15m")?.method == nil)
        #expect(ComparisonReportLayout.parseFolderName("compare-ggir-10m") == nil)
        #expect(ComparisonReportLayout.parseFolderName("compare-other-10m-15m") == nil)
        _ = try w.run()
        var index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(index.contains("<a href=\"compare-10m-15m/index.html\">Interval lengths compared: 10m vs 15m</a>"))
        #expect(index.contains("<a href=\"compare-ggir-10m-15m/index.html\">Interval lengths compared: 10m vs 15m (GGIR parity, --method ggir)</a>"))
        w.write("phone.csv", Workspace.phoneNight(startUTC: 1_718_398_800 + 600))   // the file changes: read again
        _ = try w.run()
        index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(index.contains("renew with sleepsta compare --intervals 10m,15m)"))
        #expect(index.contains("renew with sleepsta compare --intervals 10m,15m --method ggir)"))
    }

    /// A workspace with one phone night, run, then compared at 10 and 15 minutes under each of `methods`.
    static func comparedPhoneNight(methods: [AnalysisParameters]) throws -> Workspace {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: 1_718_398_800))
        _ = try w.run()
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        for parameters in methods {
            _ = try IntervalComparisonRun(configuration: CompareConfiguration(databasePath: w.db, reportsDirectory: w.reports,
                                                                              lengths: [.tenMinutes, IntervalLength(seconds: 900)!],
                                                                              parameters: parameters), logger: logger).run()
        }
        return w
    }
}
