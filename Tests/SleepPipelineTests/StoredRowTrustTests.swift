import Foundation
import GRDB
import Logging
import Testing
import SleepCore
import SleepPipeline
import SleepReport
import SleepStore

/// What is read back from a database is input: a value sleepsta never writes (1e300 minutes, text
/// in a number column, a time of Int64.max, a blob shorter than its count, a clock that does not
/// decode, a remembered interval of 0 s) is refused by `merge` naming the shard, table and row,
/// and costs its night, named, in `render`, `export` and `nightly` (exit 1), never a trap.
@Suite("Rows read back from a database", .serialized)
struct StoredRowTrustTests {
    static let start: Int64 = 1_718_398_800

    /// A hostile value: the SQL that writes it (foreign keys off), and the table the error must name.
    struct Mutation: CustomStringConvertible {
        var table: String
        var sql: String
        var description: String { sql }
    }

    static let night = "phone_2024-06-14"

    /// One of each kind of value sleepsta never writes, in the tables the readers read.
    static let mutations: [Mutation] = [
        Mutation(table: "night_metrics", sql: "UPDATE night_metrics SET total_sleep_time_min = 1e300 WHERE night_id = '\(night)'"),
        Mutation(table: "night_metrics", sql: "UPDATE night_metrics SET waso_min = 'a lot' WHERE night_id = '\(night)'"),
        Mutation(table: "night_metrics", sql: "UPDATE night_metrics SET in_bed_start_utc = -9223372036854775808 WHERE night_id = '\(night)'"),
        Mutation(table: "intervals", sql: "UPDATE intervals SET end_utc = 9223372036854775807 WHERE night_id = '\(night)'"),
        Mutation(table: "base_series", sql: "UPDATE base_series SET movement_f32le = x'00000000' WHERE night_id = '\(night)'"),
        Mutation(table: "nights", sql: "UPDATE nights SET offsets_json = '{\"initialOffsetSeconds\": \"east\"}' WHERE id = '\(night)'"),
        Mutation(table: "nights", sql: "UPDATE nights SET window_end_utc = 9223372036854775807 WHERE id = '\(night)'"),
        Mutation(table: "analyses", sql: "UPDATE analyses SET parameters_json = json_set(parameters_json, '$.interval.seconds', 0) WHERE night_id = '\(night)'"),
        Mutation(table: "scores", sql: """
            UPDATE scores SET activity = 'x' WHERE analysis_id = (SELECT id FROM analyses WHERE night_id = '\(night)')
                AND start_utc = (SELECT MIN(start_utc) FROM scores WHERE analysis_id = (SELECT id FROM analyses WHERE night_id = '\(night)'))
            """),
        Mutation(table: "epoch_series", sql: """
            INSERT INTO epoch_series (night_id, start_utc, epoch_seconds, epochs, enmo_f32le, anglez_f32le, mad_f32le, sample_counts_u16le, nonwear_u8)
            VALUES ('\(night)', \(start), 5, 10, x'00000000', x'00', x'00', x'00', x'00')
            """),
        Mutation(table: "epoch_file_series", sql: """
            INSERT INTO epoch_file_series (night_id, format, start_utc, epoch_seconds, epochs, columns_json, values_f64le, actiware_json)
            VALUES ('\(night)', 'actiware-csv', \(start), 60, 0, '[]', x'', '\(actiwareJSON)')
            """),
    ]

    /// An Actiware analysis whose interval runs from Int64.min to Int64.max.
    static var actiwareJSON: String {
        let a = ActiwareFileAnalysis(settings: ActiwareSettings(), intervals: [
            ActiwareStatedInterval(kind: .sleep, number: 1, startUTC: .min, endUTC: .max, statistics: nil, line: 7)])
        return String(decoding: try! JSONEncoder().encode(a), as: UTF8.self)
    }

    static func quietLogger() -> Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    /// A shard of one 1 Hz phone night (`--shard 1/1`), and a copy of it per test.
    static func shard(_ w: Workspace) throws -> String {
        w.write("phone.csv", Workspace.phoneNight(startUTC: start))
        var c = PipelineConfiguration(dataDirectory: w.data, databasePath: w.root + "/shard.sqlite", reportsDirectory: w.root + "/r-shard",
                                      parameters: AnalysisParameters(), timeZoneIdentifier: "Europe/Berlin")
        c.shard = Shard(index: 1, count: 1)
        _ = try Pipeline(configuration: c, logger: quietLogger()).run()
        return c.databasePath
    }

    /// A clean copy of the database at `path` with `sql` applied (foreign keys off, as a hostile writer would).
    static func copy(_ path: String, to copy: String, applying sql: String, changesRows: Bool = true) throws {
        let source = try DatabaseQueue(path: path)
        try source.writeWithoutTransaction { try $0.execute(sql: "VACUUM INTO ?", arguments: [copy]) }
        try source.close()
        let queue = try DatabaseQueue(path: copy)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: sql)
            if changesRows { #expect(db.changesCount > 0, "the mutation changed nothing: \(sql)") }
        }
        try queue.close()
    }

    @Test("merge checks every shard row as the readers read it: each value sleepsta never writes is refused naming the shard, the table and the row; nothing is merged")
    func mergeRefusesHostileRows() throws {
        let w = Workspace()
        let shard = try Self.shard(w)
        for (k, m) in Self.mutations.enumerated() {
            let hostile = w.root + "/hostile-\(k).sqlite"
            try Self.copy(shard, to: hostile, applying: m.sql)
            let merged = w.root + "/merged-\(k).sqlite"
            do {
                _ = try ShardMergeRun(databasePath: merged, shardPaths: [hostile]).run()
                Issue.record("merged: \(m)")
            } catch {
                let text = "\(error)"
                #expect(text.contains(hostile) && text.contains("table \(m.table)") && text.contains("nothing was merged"), "\(m): \(text)")
            }
            if FileManager.default.fileExists(atPath: merged) {
                let db = try SleepDatabase(path: merged)
                #expect(try db.nightIDs().isEmpty, "\(m): nothing partial reaches the merged database")
            }
        }
        // The shard as sleepsta wrote it merges.
        _ = try ShardMergeRun(databasePath: w.root + "/clean.sqlite", shardPaths: [shard]).run()
        #expect(try SleepDatabase(path: w.root + "/clean.sqlite").nightIDs() == [Self.night])
    }

    /// A store of two phone nights (`phone`, `other`), then `sql` applied to its copy.
    static func store(_ w: Workspace) throws {
        w.write("phone.csv", Workspace.phoneNight(startUTC: start))
        w.write("other.csv", Workspace.phoneNight(startUTC: start + 86_400))
        _ = try w.run()
    }

    @Test("render, export and nightly name a row they cannot read, skip its night and exit 1; the other night is rendered and exported")
    func readersSkipHostileRows() throws {
        let w = Workspace()
        try Self.store(w)
        // The tables a night's page, the exports and a re-derivation read.
        for (k, m) in Self.mutations.enumerated() {
            let db = w.root + "/hostile-\(k).sqlite"
            try Self.copy(w.db, to: db, applying: m.sql)
            let reports = w.root + "/Reports-\(k)"
            let s = try ReportRender(databasePath: db, reportsDirectory: reports).run()
            #expect(s.skipped.count == 1 && s.skipped[0].contains(Self.night), "\(m): \(s.skipped)")
            #expect(FileManager.default.fileExists(atPath: reports + "/other_2024-06-15/index.html"), "\(m)")
            #expect(!FileManager.default.fileExists(atPath: reports + "/\(Self.night)/index.html"), "\(m)")
            for table in [ExportTable.nights, .intervals, .epochs] {
                let out = w.root + "/export-\(k)-\(table.rawValue).csv"
                let result = try Exporter(configuration: ExportConfiguration(databasePath: db, table: table, analysis: .all, outputPath: out)).runReporting()
                let csv = try String(contentsOfFile: out, encoding: .utf8)
                #expect(csv.contains("other_2024-06-15"), "\(m), \(table)")
                if m.table == "night_metrics" || m.table == "analyses" || m.table == "nights" || m.table == table.storedTable {
                    #expect(result.unreadable.count == 1 && result.unreadable[0].contains(Self.night), "\(m), \(table): \(result.unreadable)")
                    #expect(!csv.contains(Self.night), "\(m), \(table)")
                }
            }
        }
    }

    @Test("nightly with a new interval re-derives the readable night, names the unreadable one, and exits 1")
    func nightlySkipsHostileRows() throws {
        let w = Workspace()
        try Self.store(w)
        let queue = try DatabaseQueue(path: w.db)
        try queue.write { try $0.execute(sql: "UPDATE base_series SET sample_counts_u16le = x'0100' WHERE night_id = ?", arguments: [Self.night]) }
        try queue.close()
        let s = try w.run(interval: .fifteenMinutes)
        #expect(s.unreadableRows.contains { $0.contains(Self.night) && $0.contains("base_series") && $0.contains("sample_counts_u16le") }, "\(s.unreadableRows)")
        #expect(s.exitCode == ExitStatus.someFilesFailed)
        let db = try SleepDatabase(path: w.db)
        let key15 = AnalysisParameters(interval: .fifteenMinutes).key
        #expect(try db.analysis(nightID: "other_2024-06-15", parametersKey: key15) != nil)
        #expect(RunSummaryText.render(s, configuration: PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports,
                                                                               parameters: AnalysisParameters(), timeZoneIdentifier: nil))
            .contains("stored rows that cannot be read"))
    }

    @Test("a runs row whose counts are text is an error naming the row, not a trap")
    func runsRowTypes() throws {
        let w = Workspace()
        try Self.store(w)
        let queue = try DatabaseQueue(path: w.db)
        try queue.write { try $0.execute(sql: "UPDATE runs SET files_seen = 'many'") }
        try queue.close()
        #expect { try SleepDatabase(path: w.db).allRuns() } throws: { "\($0)".contains("table runs") && "\($0)".contains("files_seen") }
    }

    // MARK: Remembered parameters

    @Test("a remembered parameter the command line would refuse stops nightly (exit 2), naming it and its option; giving the option overrides it; a row that does not decode is refused, not dropped")
    func rememberedParameters() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: Self.start, hours: 3))
        _ = try w.run()
        let cases: [(json: String, key: String)] = [
            ("json_set(parameters_json, '$.analysis.interval.seconds', 0)", "interval"),
            ("json_set(parameters_json, '$.analysis.interval.seconds', -600)", "interval"),
            ("json_set(parameters_json, '$.analysis.interval.seconds', 9223372036854775807)", "interval"),
            ("json_set(parameters_json, '$.analysis.interval', 'ten minutes')", "interval"),
            ("json_set(parameters_json, '$.analysis.wakeThresholdFactor', -4)", "wake-threshold"),
            ("json_set(parameters_json, '$.analysis.wakeThresholdFactor', 'high')", "wake-threshold"),
            ("json_set(parameters_json, '$.analysis.metric', 'loudness')", "metric"),
            ("json_set(parameters_json, '$.analysis.sleepAlgorithm', 'guess')", "sleep-algorithm"),
            ("json_set(parameters_json, '$.analysis.nightMethod', 'magic')", "method"),
            ("json_set(parameters_json, '$.kind', 'epoch-file')", "kind"),
            ("json_set(parameters_json, '$.units', 'furlongs')", "units"),
            ("json_set(parameters_json, '$.timeZone', 'Mars/Olympus')", "tz"),
            ("json_set(parameters_json, '$.diary', 42)", "diary"),
        ]
        for (k, c) in cases.enumerated() {
            let db = w.root + "/remembered-\(k).sqlite"
            try Self.copy(w.db, to: db, applying: "UPDATE runs SET parameters_json = \(c.json) WHERE command = 'run'")
            do {
                _ = try RunParameters.remembered(databasePath: db)
                Issue.record("remembered: \(c.json)")
            } catch {
                guard case PipelineError.environment(let message) = error else { Issue.record("\(error)"); continue }
                #expect(message.contains("runs row") && message.contains("give --\(c.key) to override it"), "\(c.json): \(message)")
            }
            let given = try RunParameters.remembered(databasePath: db, given: [c.key])
            #expect(given != nil, "\(c.json): given --\(c.key), the remembered row's other parameters are used")
        }
        // A remembered epoch the command line never sets, but the analysis would divide by.
        let epoch = w.root + "/remembered-epoch.sqlite"
        try Self.copy(w.db, to: epoch, applying: "UPDATE runs SET parameters_json = json_set(parameters_json, '$.analysis.epochSeconds', 0)")
        #expect { try RunParameters.remembered(databasePath: epoch) } throws: { "\($0)".contains("epochSeconds") }
        for (k, text) in ["{not json", "[]", "\"a string\""].enumerated() {
            let db = w.root + "/remembered-text-\(k).sqlite"
            try Self.copy(w.db, to: db, applying: "UPDATE runs SET parameters_json = '\(text)' WHERE command = 'run'")
            #expect { try RunParameters.remembered(databasePath: db) } throws: { "\($0)".contains("not a JSON object") && "\($0)".contains("sleepsta run") }
        }
        // The row as sleepsta wrote it is remembered as it was.
        let fine = try #require(try RunParameters.remembered(databasePath: w.db))
        #expect(fine.parameters.analysis == AnalysisParameters() && fine.parameters.timeZone == "Europe/Berlin")
    }

    @Test("stored analysis parameters decode only within the command line's ranges")
    func storedParametersDecodeChecked() throws {
        let good = String(decoding: try JSONEncoder().encode(AnalysisParameters(interval: .fifteenMinutes)), as: UTF8.self)
        #expect(try JSONDecoder().decode(AnalysisParameters.self, from: Data(good.utf8)) == AnalysisParameters(interval: .fifteenMinutes))
        for (from, to) in [("\"seconds\":900", "\"seconds\":0"), ("\"seconds\":900", "\"seconds\":86401"), ("\"wakeThresholdFactor\":4", "\"wakeThresholdFactor\":0"),
                           ("\"epochSeconds\":60", "\"epochSeconds\":7"), ("\"deepQuantile\":0.25", "\"deepQuantile\":2"),
                           ("\"persistentSleepMinutes\":10", "\"persistentSleepMinutes\":-1"), ("\"minimumCoverageSeconds\":7200", "\"minimumCoverageSeconds\":-5")] {
            #expect(good.contains(from), "\(from) in \(good)")
            #expect(throws: DecodingError.self, "\(to)") { try JSONDecoder().decode(AnalysisParameters.self, from: Data(good.replacingOccurrences(of: from, with: to).utf8)) }
        }
    }

    // MARK: Errors that name their file

    @Test("merge: SQLite's own error (no such column) names the shard")
    func mergeNamesTheShard() throws {
        let w = Workspace()
        let shard = try Self.shard(w)
        let odd = w.root + "/odd.sqlite"
        try Self.copy(shard, to: odd, applying: "ALTER TABLE nights DROP COLUMN label", changesRows: false)
        #expect { try ShardMergeRun(databasePath: w.root + "/all.sqlite", shardPaths: [odd]).run() } throws: { e in
            "\(e)".contains(odd) && "\(e)".contains("no such column")
        }
    }

    @Test("export --output on a full disk names the file and says why in plain words")
    func fullDisk() throws {
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { return }
        let out = CSVOutput(handle: full, name: "cohort/nights.csv")
        let line = String(repeating: "x", count: 1000) + "\n"
        do {
            for _ in 0..<200 { try out.write(line) }
            try out.finish()
            Issue.record("/dev/full took 200 KB")
        } catch {
            let text = "\(error)"
            #expect(text.contains("cohort/nights.csv") && text.contains(String(cString: strerror(ENOSPC))) && !text.contains("NSCocoaErrorDomain"), "\(text)")
        }
    }

    @Test("export --analysis KEY: the key's control characters are not echoed raw")
    func keyEscaped() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: Self.start))
        _ = try w.run()
        let key = "\u{1B}]0;owned\u{07}\u{1B}[2J\nsleepsta: all fine"
        let exporter = Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .nights, analysis: .key(key), outputPath: w.root + "/n.csv"))
        do {
            try exporter.run()
            Issue.record("a key no analysis has was exported")
        } catch {
            let text = "\(error)"
            #expect(text.contains("owned") && !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(text.debugDescription)")
        }
    }
}

extension ExportTable {
    /// The table an export of this kind reads per analysis.
    var storedTable: String { self == .intervals ? "intervals" : self == .epochs ? "scores" : "night_metrics" }
}
