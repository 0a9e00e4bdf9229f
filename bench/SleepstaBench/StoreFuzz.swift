import Foundation
import GRDB
import Logging
import SleepCore
import SleepPipeline
import SleepStore
import SleepstaWorkloads

/// Shards with hostile rows: a shard sleepsta wrote (one phone night, `--shard 1/1`), copied, and
/// one to three of its values replaced by what sleepsta never writes (numbers beyond any range,
/// text in number columns, times of Int64.min/max, blobs of another length, JSON that does not
/// decode or holds other values, rows of epoch tables that do not fit) or a byte of a value
/// flipped. Each shard is merged: refused (naming the shard) or merged, and then the merged
/// database is rendered and exported (nights, intervals, epochs). A trap ends the process.
final class MergedFuzz {
    let root = NSTemporaryDirectory() + "sleepsta-fuzz-merged-\(UUID().uuidString)"
    let shard: String
    /// Tables with rows, with the columns that identify a row (the primary key, or `rowid`).
    let tables: [(name: String, key: [String], columns: [String])]

    init() throws {
        try FileManager.default.createDirectory(atPath: root + "/Data", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root + "/Data/phone.csv", contents: Data(Self.phoneNight(startUTC: 1_718_398_800).utf8))
        var logger = Logger(label: "fuzz")
        logger.logLevel = .critical
        var c = PipelineConfiguration(dataDirectory: root + "/Data", databasePath: root + "/shard.sqlite", reportsDirectory: root + "/r-shard",
                                      parameters: AnalysisParameters(), timeZoneIdentifier: "Europe/Berlin")
        c.shard = Shard(index: 1, count: 1)
        _ = try Pipeline(configuration: c, logger: logger).run()
        shard = c.databasePath
        let queue = try DatabaseQueue(path: shard)
        tables = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
                .filter { !ShardMerge.bookkeepingTables.contains($0) }
                .compactMap { name -> (name: String, key: [String], columns: [String])? in
                    guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(name)\"") ?? 0 > 0 else { return nil }
                    let info = try Row.fetchAll(db, sql: "SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", arguments: [name])
                    let key = info.filter { ($0["pk"] as Int) > 0 }.map { $0["name"] as String }
                    let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [name]) ?? ""
                    return (name, key.isEmpty || !sql.uppercased().contains("WITHOUT ROWID") ? ["rowid"] : key, info.map { $0["name"] as String })
                }
        }
        try queue.close()
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func execute(_ rng: inout SplitMix64, index: Int) -> Fuzz.Outcome {
        let dir = root + "/x\(index)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let hostile = dir + "/hostile.sqlite"
            let source = try DatabaseQueue(path: shard)
            try source.writeWithoutTransaction { try $0.execute(sql: "VACUUM INTO ?", arguments: [hostile]) }
            try source.close()
            let queue = try DatabaseQueue(path: hostile)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                for _ in 0...(rng.next() % 3) { try mutate(db, &rng) }
            }
            try queue.close()
            let merged = dir + "/merged.sqlite"
            do { _ = try ShardMergeRun(databasePath: merged, shardPaths: [hostile]).run() } catch {
                return "\(error)".contains(hostile) ? .refused : .other("merge refused without naming the shard: \(error)")
            }
            // Merged: every reader must read it or name what it cannot read.
            _ = try? ReportRender(databasePath: merged, reportsDirectory: dir + "/Reports").run()
            for table in [ExportTable.nights, .intervals, .epochs] {
                _ = try? Exporter(configuration: ExportConfiguration(databasePath: merged, table: table, analysis: .all,
                                                                     outputPath: dir + "/\(table.rawValue).csv")).runReporting()
            }
            return .read
        } catch {
            return .other("\(error)")
        }
    }

    /// One hostile value in a random row and column, or a hostile row of an epoch table.
    func mutate(_ db: Database, _ rng: inout SplitMix64) throws {
        if rng.next() % 10 == 0 { _ = try? db.execute(sql: Self.hostileRows[Int(rng.next() % UInt64(Self.hostileRows.count))]); return }
        let t = tables[Int(rng.next() % UInt64(tables.count))]
        let column = t.columns[Int(rng.next() % UInt64(t.columns.count))]
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(t.name)\"") ?? 1
        let offset = Int(rng.next() % UInt64(max(1, count)))
        let key = t.key.map { "\"\($0)\"" }.joined(separator: ", ")
        let current = try DatabaseValue.fetchOne(db, sql: "SELECT \"\(column)\" FROM \"\(t.name)\" LIMIT 1 OFFSET ?", arguments: [offset]) ?? .null
        let value = Self.value(&rng, current: current)
        // SQLite itself refuses some (a row id that is not an integer): that mutation is not made.
        _ = try? db.execute(sql: "UPDATE OR IGNORE \"\(t.name)\" SET \"\(column)\" = ? WHERE (\(key)) IN (SELECT \(key) FROM \"\(t.name)\" LIMIT 1 OFFSET ?)",
                            arguments: [value, offset])
    }

    static let texts = ["", "text", "{", "[]", "null", "{\"seconds\": 0}", "{\"initialOffsetSeconds\": 999999999, \"transitions\": []}",
                        "[{\"question\": 1}]", "1e300", "9223372036854775807", "phone-in-bed", "epoch-file", "S", "W", "x\u{202E}y", "../..",
                        "{\"settings\": {\"sleepOnsetMinutes\": 9223372036854775807, \"sleepEndMinutes\": 10, \"wakeThreshold\": 40}, \"intervals\": []}"]

    static func value(_ rng: inout SplitMix64, current: DatabaseValue) -> DatabaseValue {
        switch rng.next() % 16 {
        case 0: return 1e300.databaseValue
        case 1: return (-1e300).databaseValue
        case 2: return Int64.max.databaseValue
        case 3: return Int64.min.databaseValue
        case 4: return 0.databaseValue
        case 5: return (-1).databaseValue
        case 6: return .null
        case 7: return Double.infinity.databaseValue
        case 8: return Data((0..<Int(rng.next() % 17)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }).databaseValue
        case 9: return (1e12 + 1).databaseValue
        case 10: return Int64(bitPattern: rng.next()).databaseValue
        case 11, 12:
            // The current value with one byte changed (JSON, blobs, names).
            switch current.storage {
            case .string(let s):
                var bytes = Array(s.utf8)
                guard !bytes.isEmpty else { return "x".databaseValue }
                bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next() % 128)
                return String(decoding: bytes, as: UTF8.self).databaseValue
            case .blob(let d):
                var bytes = [UInt8](d)
                guard !bytes.isEmpty else { return Data([1]).databaseValue }
                if rng.next() % 2 == 0 { bytes.removeLast() } else { bytes[Int(rng.next() % UInt64(bytes.count))] ^= 0xFF }
                return Data(bytes).databaseValue
            case .int64(let v): return (v &+ Int64(bitPattern: rng.next() % 1_000_000_000_000)).databaseValue
            case .double(let v): return (v * 1e9).databaseValue
            case .null: return 1.databaseValue
            }
        default: return texts[Int(rng.next() % UInt64(texts.count))].databaseValue
        }
    }

    static let night = "phone_2024-06-14"
    static let hostileRows = [
        """
        INSERT OR REPLACE INTO epoch_series (night_id, start_utc, epoch_seconds, epochs, enmo_f32le, anglez_f32le, mad_f32le, sample_counts_u16le, nonwear_u8)
        VALUES ('\(night)', 1718398800, 5, 10, x'00000000', x'00', x'00', x'00', x'00')
        """,
        """
        INSERT OR REPLACE INTO epoch_series (night_id, start_utc, epoch_seconds, epochs, enmo_f32le, anglez_f32le, mad_f32le, sample_counts_u16le, nonwear_u8)
        VALUES ('\(night)', 9223372036854775807, 0, -1, x'', x'', x'', x'', x'')
        """,
        """
        INSERT OR REPLACE INTO epoch_file_series (night_id, format, start_utc, epoch_seconds, epochs, columns_json, values_f64le, actiware_json)
        VALUES ('\(night)', 'actiware-csv', 1718398800, 60, 0, '[]', x'',
                '{"settings": {"sleepOnsetMinutes": 10, "sleepEndMinutes": 10, "wakeThreshold": 40}, "intervals": [{"kind": "sleep", "number": 1, "startUTC": -9223372036854775808, "endUTC": 9223372036854775807, "line": 3}]}')
        """,
        """
        INSERT OR REPLACE INTO epoch_file_series (night_id, format, start_utc, epoch_seconds, epochs, columns_json, values_f64le)
        VALUES ('\(night)', 'actiware-csv', 1718398800, 60, 3, '[{"name": "activity", "sourceName": "Activity", "unit": "counts"}]', x'00')
        """,
    ]

    /// A 1 Hz phone night of 8 hours (still, with a restless start and end).
    static func phoneNight(startUTC: Int64) -> String {
        var rng = SplitMix64(seed: 7)
        var lines = ["timestamp,x,y,z"]
        for s in 0..<(8 * 3600) {
            let minute = s / 60
            let a = minute < 20 || minute >= 470 ? 0.15 : 0.004
            func noise() -> String { String(format: "%.4f", a * (Double(rng.next() >> 11) / Double(1 << 53) - 0.5)) }
            lines.append("\(startUTC + Int64(s)),\(noise()),\(noise()),\(noise())")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Remembered parameters (`runs.parameters_json`, what `nightly` reuses): a valid row with values
/// replaced (intervals of 0 s, −600 s or Int64.max, thresholds that are negative, not finite or
/// text, kinds and units no option takes, unknown zones, keys removed, types changed), bytes
/// flipped or the text cut short, read as nightly reads it with a random set of options given.
/// Accepted parameters then analyse a short night, so an accepted value that traps shows.
enum RememberedFuzz {
    static let base: String = {
        let c = PipelineConfiguration(dataDirectory: "Data", databasePath: "db.sqlite", reportsDirectory: "Reports",
                                      parameters: AnalysisParameters(), timeZoneIdentifier: "Europe/Berlin")
        return String(decoding: (try? JSONEncoder().encode(RunParameters(c))) ?? Data("{}".utf8), as: UTF8.self)
    }()

    static let paths: [[String]] = [["analysis", "interval", "seconds"], ["analysis", "interval"], ["analysis", "metric"], ["analysis", "wakeThresholdFactor"],
                                    ["analysis", "epochSeconds"], ["analysis", "persistentSleepMinutes"], ["analysis", "deepQuantile"],
                                    ["analysis", "minimumCoverageSeconds"], ["analysis", "sleepAlgorithm"], ["analysis", "nightMethod"],
                                    ["analysis"], ["kind"], ["units"], ["timeZone"], ["diary"], ["participants"], ["dataDirectory"], ["key"]]
    static var values: [Any] {
        [0, -600, Int64.max, Int64.min, -1, 1e300, -4.0, 0.5, "text", NSNull(), [Any](), [String: Any](), true,
         "epoch-file", "wearable-24h", "m/s2", "furlongs", "Europe/Berlin", "Mars/Olympus", "ggir", "sadeh", "x\u{202E}y", 86_401, 30]
    }
    static let given = ["interval", "metric", "wake-threshold", "sleep-algorithm", "method", "kind", "units", "tz", "diary", "participants"]

    static func execute(_ rng: inout SplitMix64) -> Fuzz.Outcome {
        let json = mutated(&rng)
        let options = Set(given.filter { _ in rng.next() % 4 == 0 })
        let p: RunParameters?
        do { p = try RunParameters.remembered(parametersJSON: json, given: options) } catch let e as RunParameters.RememberedProblem {
            return e.message.isEmpty ? .other("a refusal without a message") : .refused
        } catch {
            return .other("not a RememberedProblem: \(error)")
        }
        guard let analysis = p?.analysis else { return .read }
        // What nightly does with accepted parameters: analyse with them.
        let start: Int64 = 1_718_398_800
        let seconds = 3 * 3600
        let series = SecondSeries(startSecond: start, movement: (0..<seconds).map { Float($0 % 97) / 500 }, legacyMovement: [Float](repeating: 0, count: seconds),
                                  sampleCounts: [UInt16](repeating: 1, count: seconds), sourceResolutionSeconds: 1)
        _ = NightAnalyzer.analyze(series: series, window: NightWindow(date: CivilDate(year: 2024, month: 6, day: 14), startUTC: start - 3600, endUTC: start + 82_800),
                                  parameters: analysis)
        return .read
    }

    static func mutated(_ rng: inout SplitMix64) -> String {
        guard var row = (try? JSONSerialization.jsonObject(with: Data(base.utf8))) as? [String: Any] else { return base }
        switch rng.next() % 10 {
        case 0:
            var bytes = Array(base.utf8)
            bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next() % 128)
            return String(decoding: bytes, as: UTF8.self)
        case 1:
            return String(base.prefix(Int(rng.next() % UInt64(base.count))))
        default:
            for _ in 0...(rng.next() % 2) {
                let path = paths[Int(rng.next() % UInt64(paths.count))]
                let value: Any? = rng.next() % 8 == 0 ? nil : values[Int(rng.next() % UInt64(values.count))]
                row = set(row, path[...], value)
            }
            guard let data = try? JSONSerialization.data(withJSONObject: row) else { return base }
            return String(decoding: data, as: UTF8.self)
        }
    }

    static func set(_ object: [String: Any], _ path: ArraySlice<String>, _ value: Any?) -> [String: Any] {
        var o = object
        guard let first = path.first else { return o }
        if path.count == 1 { o[first] = value; return o }
        o[first] = set(o[first] as? [String: Any] ?? [:], path.dropFirst(), value)
        return o
    }
}
