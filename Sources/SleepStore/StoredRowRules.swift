import Foundation
import GRDB
import SleepCore

/// A stored row that breaks a rule of what sleepsta writes (a damaged store, or a shard written by
/// something else): the message names the table, the row and what was expected. Readers that meet
/// one skip what the row holds and say so; `merge` refuses the shard.
public struct StoredRowError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The ranges a stored value must lie in before any reader converts or computes with it, so that a
/// value sleepsta never writes (a time of Int64.max, 1e300 minutes, text in a number column, a blob
/// shorter than its count) is an error naming its row instead of a trap further on.
public enum StoredLimits {
    /// UTC seconds: 1900-01-01 to 2200-01-01. Every time a device or an export can state lies in it,
    /// and any sum or difference of two such times fits an Int64 and an Int many times over.
    public static let utc: ClosedRange<Int64> = -2_208_988_800...7_258_118_400
    /// Integers that count or measure (bytes, samples, seconds): far above any recording's.
    public static let integerMagnitude: Int64 = 1 << 50
    /// Every REAL column: finite, and far above any movement sum or rate sleepsta stores, yet small
    /// enough that `Int(value)` and products of a few such values cannot overflow.
    public static let realMagnitude: Double = 1e12
    /// Columns in minutes (`…_min`): a year of them.
    public static let minutes: Double = 366 * 1440
    /// Columns in percent (`…_pct`).
    public static let percent: ClosedRange<Double> = 0...100.000_001
    /// A night's window: noon to noon, 23 to 25 h; anything up to a week is read, longer is not a night.
    public static let windowSeconds: ClosedRange<Int64> = 1...(7 * 86_400)
    /// A night's series: its window and the 6 h after it, within a week and a day.
    public static let seriesSeconds: ClosedRange<Int64> = 0...(8 * 86_400)
    /// A clock's offset from UTC (the widest zones are ±14 h; ±26 h leaves room and stays an Int32).
    public static let offsetSeconds: ClosedRange<Int32> = -93_600...93_600
}

/// What a SQLite column holds as its declared type says: what merge checks every shard value
/// against, and what the readers check before GRDB converts a value (GRDB traps on a value it
/// cannot convert to a non-optional type).
struct StoredColumns: Sendable {
    enum Affinity: Sendable { case integer, real, text, blob, other }
    struct Column: Sendable { var affinity: Affinity; var notNull: Bool }
    private var columns: [String: Column] = [:]

    /// The `runs` table's columns as v1 and v11 made them (a runs row is read before any
    /// migration, from a shard or from an older store, so not looked up in its schema).
    static let runs = StoredColumns(fixed: [
        "id": Column(affinity: .integer, notNull: false), "started_utc": Column(affinity: .text, notNull: true),
        "finished_utc": Column(affinity: .text, notNull: false), "tool_version": Column(affinity: .text, notNull: true),
        "command": Column(affinity: .text, notNull: true), "parameters_json": Column(affinity: .text, notNull: true),
        "files_seen": Column(affinity: .integer, notNull: true), "files_ingested": Column(affinity: .integer, notNull: true),
        "files_unchanged": Column(affinity: .integer, notNull: true), "files_failed": Column(affinity: .integer, notNull: true),
        "status": Column(affinity: .text, notNull: true), "parameters_changed": Column(affinity: .text, notNull: false)])

    private init(fixed: [String: Column]) { columns = fixed }

    /// The columns of `tables`; a name in two tables takes the first's type (a joined row).
    init(_ tables: [String], db: Database) throws {
        for table in tables where try db.tableExists(table) {
            for c in try db.columns(in: table) where columns[c.name] == nil {
                let t = c.type.uppercased()
                let affinity: Affinity = t.contains("INT") ? .integer : (t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB")) ? .real
                    : (t.contains("TEXT") || t.contains("CHAR") || t.contains("CLOB")) ? .text : t.contains("BLOB") ? .blob : .other
                columns[c.name] = Column(affinity: affinity, notNull: c.isNotNull)
            }
        }
    }

    /// Throws for the first value that is not of its column's type or outside its range
    /// (``StoredLimits``); columns the row has that these tables do not (aliases) are left alone.
    func check(_ row: Row) throws {
        for (name, value) in row {
            guard let column = columns[name] else { continue }
            if let problem = Self.problem(value, name: name, column: column) { throw StoredRowError("\(name) \(problem)") }
        }
    }

    static func problem(_ value: DatabaseValue, name: String, column: Column) -> String? {
        switch (value.storage, column.affinity) {
        case (.null, _):
            return column.notNull ? "is NULL" : nil
        case (.int64(let v), .integer):
            if name.hasSuffix("_utc") { return StoredLimits.utc.contains(v) ? nil : "\(v) is not a time between 1900 and 2200" }
            if name == "id" || name.hasSuffix("_id") { return nil }
            return v.magnitude <= StoredLimits.integerMagnitude.magnitude ? nil : "\(v) is out of range"
        case (.int64(let v), .real):
            return realProblem(Double(v), name: name)
        case (.double(let v), .real):
            return realProblem(v, name: name)
        case (.string, .text), (.blob, .blob), (_, .other):
            return nil
        case (let storage, let affinity):
            return "holds \(kind(storage)) where sleepsta writes \(affinity == .integer ? "an integer" : affinity == .real ? "a number" : affinity == .text ? "text" : "a BLOB")"
        }
    }

    static func realProblem(_ v: Double, name: String) -> String? {
        guard v.isFinite, v.magnitude <= StoredLimits.realMagnitude else { return "\(v) is not a finite number in range" }
        if name.hasSuffix("_min"), v.magnitude > StoredLimits.minutes { return "\(v) minutes is out of range" }
        if name.hasSuffix("_pct"), !StoredLimits.percent.contains(v) { return "\(v) % is not a percentage" }
        return nil
    }

    static func kind(_ storage: DatabaseValue.Storage) -> String {
        switch storage {
        case .null: return "NULL"
        case .int64(let v): return "the integer \(v)"
        case .double(let v): return "the number \(v)"
        case .string(let s): return "the text '\(PrintableText.escaped(String(s.prefix(40))))'"
        case .blob(let d): return "a \(d.count)-byte BLOB"
        }
    }
}

/// The rules of one table's rows beyond their columns' types: blobs as long as their counts say,
/// JSON columns that decode, a window that is a night, names this sleepsta knows. One set of rules
/// for every reader and for `merge`, which refuses a shard whose rows a reader would refuse.
/// A rule reads only the columns the row has (a reader selects some), after ``StoredColumns``.
enum StoredRowRules {
    static func check(_ row: Row, table: String) throws {
        switch table {
        case "recordings": try recording(row)
        case "nights": try night(row)
        case "base_series": try baseSeries(row)
        case "epoch_series": try epochSeries(row)
        case "epoch_file_series": try epochFileSeries(row)
        case "analyses": try analysis(row)
        case "intervals": try interval(row)
        case "scores": try score(row)
        case "night_metrics": try metrics(row)
        case "analysis_guides": try ordered(row, "start_utc", "end_utc")
        case "sleep_periods":
            do { _ = try StoredDays.period(row) } catch let e as StoreError { throw StoredRowError(e.message) }
        case "recording_rhythm": try rhythm(row)
        default: break
        }
    }

    /// The columns of `tables` checked (``StoredColumns``), then each table's own rules.
    static func checkJoined(_ row: Row, columns: StoredColumns, tables: [String]) throws {
        try columns.check(row)
        for t in tables { try check(row, table: t) }
    }

    // MARK: Values, after StoredColumns checked their types

    static func integer(_ r: Row, _ c: String) -> Int64? {
        guard r.hasColumn(c), case .int64(let v) = (r[c] as DatabaseValue).storage else { return nil }
        return v
    }
    static func text(_ r: Row, _ c: String) -> String? {
        guard r.hasColumn(c) else { return nil }
        return String.fromDatabaseValue(r[c] as DatabaseValue)
    }
    static func blobBytes(_ r: Row, _ c: String) -> Int? {
        guard r.hasColumn(c), case .blob(let d) = (r[c] as DatabaseValue).storage else { return nil }
        return d.count
    }

    static func known<T>(_ r: Row, _ c: String, _ make: (String) -> T?, _ names: [String]) throws {
        guard let v = text(r, c) else { return }
        guard make(v) != nil else {
            throw StoredRowError("\(c) '\(PrintableText.escaped(String(v.prefix(60))))' is not one this sleepsta knows (\(names.joined(separator: ", ")))")
        }
    }

    static func decodes<T: Decodable>(_ r: Row, _ c: String, as type: T.Type, what: String) throws {
        guard let v = text(r, c) else { return }
        do { _ = try JSONText.decode(type, v) } catch {
            throw StoredRowError("\(c) does not decode as \(what) (\(JSONText.problem(error)))")
        }
    }

    /// Every number in a JSON column within ±2^50: the notes and summaries hold times, counts and
    /// minutes, and the pages compute with them (`abs(Int64.min)` traps).
    static func boundedNumbers(_ r: Row, _ c: String) throws {
        guard let v = text(r, c), let object = try? JSONSerialization.jsonObject(with: Data(v.utf8), options: [.fragmentsAllowed]) else { return }
        func bounded(_ o: Any) -> Bool {
            switch o {
            case let n as NSNumber: return n.doubleValue.isFinite && n.doubleValue.magnitude <= Double(StoredLimits.integerMagnitude)
            case let a as [Any]: return a.allSatisfy(bounded)
            case let d as [String: Any]: return d.values.allSatisfy(bounded)
            default: return true
            }
        }
        guard bounded(object) else { throw StoredRowError("\(c) holds a number beyond ±2^50, which sleepsta never writes") }
    }

    static func ordered(_ r: Row, _ start: String, _ end: String) throws {
        if let s = integer(r, start), let e = integer(r, end), e < s { throw StoredRowError("\(end) \(e) is before \(start) \(s)") }
    }

    static func within(_ r: Row, _ c: String, _ range: ClosedRange<Int64>, _ what: String) throws {
        if let v = integer(r, c), !range.contains(v) { throw StoredRowError("\(c) \(v) is not \(what) (\(range.lowerBound) to \(range.upperBound))") }
    }

    /// A blob of `bytesPer` bytes per item of the row's count column (`counted`).
    static func blob(_ r: Row, _ c: String, bytesPer: Int, count: Int64, counted: String) throws {
        guard let n = blobBytes(r, c) else { return }
        guard Int64(n) == count * Int64(bytesPer) else {
            throw StoredRowError("\(c) holds \(n) bytes, \(counted) \(count) needs \(count * Int64(bytesPer))")
        }
    }

    // MARK: Tables

    static func recording(_ r: Row) throws {
        try known(r, "format", SourceFormat.init(rawValue:), ["a format this sleepsta reads"])
        try known(r, "kind", RecordingKind.init(rawValue:), RecordingKind.allCases.map(\.rawValue))
        try known(r, "time_zone_source", TimeZoneSource.init(rawValue:), ["data", "option", "assumed-utc"])
        try known(r, "gravity", GravityContent.init(rawValue:), GravityContent.allCases.map(\.rawValue))
        try within(r, "size_bytes", 0...StoredLimits.integerMagnitude, "a size")
        try within(r, "sample_count", 0...StoredLimits.integerMagnitude, "a count")
        try ordered(r, "first_utc", "end_utc")
    }

    static func night(_ r: Row) throws {
        if let d = text(r, "night_date"), CivilDate(iso: d) == nil {
            throw StoredRowError("night_date '\(PrintableText.escaped(String(d.prefix(40))))' is not a date (YYYY-MM-DD)")
        }
        if let s = integer(r, "window_start_utc"), let e = integer(r, "window_end_utc"), !StoredLimits.windowSeconds.contains(e - s) {
            throw StoredRowError("window_start_utc \(s) to window_end_utc \(e) is not a night's window (up to 7 days)")
        }
        try ordered(r, "data_start_utc", "data_end_utc")
        try within(r, "coverage_seconds", StoredLimits.seriesSeconds, "a number of seconds in a night")
        try within(r, "source_resolution_seconds", 1...86_400, "a resolution in seconds")
        if let json = text(r, "offsets_json") { _ = try timeline(json) }
        try decodes(r, "pre_bed_survey_json", as: [SurveyItem].self, what: "a list of survey answers")
        try decodes(r, "post_bed_survey_json", as: [SurveyItem].self, what: "a list of survey answers")
    }

    /// A night's clock from `offsets_json`: it decodes, its offsets are a clock's, its transitions are times.
    static func timeline(_ json: String) throws -> UTCOffsetTimeline {
        let t: UTCOffsetTimeline
        do { t = try JSONText.timeline(json) } catch {
            throw StoredRowError("offsets_json does not decode as a clock (\(JSONText.problem(error)))")
        }
        guard StoredLimits.offsetSeconds.contains(t.initialOffsetSeconds),
              t.transitions.allSatisfy({ StoredLimits.offsetSeconds.contains($0.offsetSeconds) && StoredLimits.utc.contains($0.utcSecond) }) else {
            throw StoredRowError("offsets_json holds an offset beyond ±26 h or a transition outside 1900 to 2200")
        }
        return t
    }

    static func baseSeries(_ r: Row) throws {
        try within(r, "seconds", StoredLimits.seriesSeconds, "a number of seconds in a night's series")
        guard let n = integer(r, "seconds") else { return }
        try blob(r, "movement_f32le", bytesPer: 4, count: n, counted: "seconds")
        try blob(r, "legacy_movement_f32le", bytesPer: 4, count: n, counted: "seconds")
        try blob(r, "sample_counts_u16le", bytesPer: 2, count: n, counted: "seconds")
    }

    static func epochSeries(_ r: Row) throws {
        let five = Int64(WearableEpochs.epochSeconds)
        try within(r, "epoch_seconds", five...five, "the wearable epoch")
        try within(r, "epochs", 0...(StoredLimits.seriesSeconds.upperBound / five), "a number of epochs in a night")
        guard let n = integer(r, "epochs") else { return }
        for c in ["enmo_f32le", "anglez_f32le", "mad_f32le", "temperature_f32le"] { try blob(r, c, bytesPer: 4, count: n, counted: "epochs") }
        try blob(r, "sample_counts_u16le", bytesPer: 2, count: n, counted: "epochs")
        try blob(r, "nonwear_u8", bytesPer: 1, count: n, counted: "epochs")
        try blob(r, "ggir_nonwear_score_u8", bytesPer: 1, count: n, counted: "epochs")
        try blob(r, "counts_xyz_i32le", bytesPer: 12, count: n, counted: "epochs")
    }

    static func epochFileSeries(_ r: Row) throws {
        try within(r, "epoch_seconds", 1...3600, "an epoch length in seconds")
        guard let n = integer(r, "epochs"), let seconds = integer(r, "epoch_seconds") else { return }
        guard n >= 0, n <= StoredLimits.seriesSeconds.upperBound / seconds else {
            throw StoredRowError("epochs \(n) of \(seconds) s is not a night's")
        }
        if let json = text(r, "columns_json") {
            let headers: [EpochFileSeriesRow.ColumnHeader]
            do { headers = try JSONText.decode([EpochFileSeriesRow.ColumnHeader].self, json) } catch {
                throw StoredRowError("columns_json does not decode as a list of columns (\(JSONText.problem(error)))")
            }
            guard headers.count <= 1000 else { throw StoredRowError("columns_json names \(headers.count) columns") }
            try blob(r, "values_f64le", bytesPer: 8 * headers.count, count: n, counted: "epochs (\(headers.count) columns)")
        }
        try blob(r, "file_labels_u8", bytesPer: 1, count: n, counted: "epochs")
        if let json = text(r, "actiware_json") {
            let a: ActiwareFileAnalysis
            do { a = try JSONText.decode(ActiwareFileAnalysis.self, json) } catch {
                throw StoredRowError("actiware_json does not decode as an Actiware analysis (\(JSONText.problem(error)))")
            }
            try actiware(a)
        }
    }

    /// An Actiware export's settings and intervals: times between 1900 and 2200 in order, settings
    /// in minutes of a day, statistics finite minutes of at most a year.
    static func actiware(_ a: ActiwareFileAnalysis) throws {
        let s = a.settings
        guard (0...1440).contains(s.sleepOnsetMinutes), (0...1440).contains(s.sleepEndMinutes),
              s.wakeThreshold.isFinite, (0...1e6).contains(s.wakeThreshold) else {
            throw StoredRowError("actiware_json: settings (sleep onset \(s.sleepOnsetMinutes) min, sleep end \(s.sleepEndMinutes) min, wake threshold \(s.wakeThreshold)) are not Actiware's (0 to 1440 minutes, a threshold of 0 to 10^6)")
        }
        for i in a.intervals {
            guard StoredLimits.utc.contains(i.startUTC), StoredLimits.utc.contains(i.endUTC), i.endUTC >= i.startUTC else {
                throw StoredRowError("actiware_json: interval \(i.number) runs from \(i.startUTC) to \(i.endUTC), not two times between 1900 and 2200 in order")
            }
            guard let st = i.statistics else { continue }
            let minutes = [st.durationMinutes, st.sleepMinutes, st.wakeMinutes, st.invalidMinutes, st.immobileMinutes, st.mobileMinutes,
                           st.latencyMinutes, st.snoozeMinutes, st.efficiencyPercent].compactMap { $0 }
            guard minutes.allSatisfy({ $0.isFinite && $0.magnitude <= StoredLimits.minutes }), (0...Int(Int32.max)).contains(st.wakeBouts ?? 0) else {
                throw StoredRowError("actiware_json: interval \(i.number) states statistics that are not finite minutes of at most a year")
            }
        }
    }

    static func analysis(_ r: Row) throws {
        try known(r, "kind", RecordingKind.init(rawValue:), RecordingKind.allCases.map(\.rawValue))
        try known(r, "status", NightStatus.init(rawValue:), ["a night status this sleepsta writes"])
        if let json = text(r, "parameters_json") {
            let p: AnalysisParameters
            do { p = try JSONText.decode(AnalysisParameters.self, json) } catch {
                throw StoredRowError("parameters_json does not decode as analysis parameters (\(JSONText.problem(error)))")
            }
            if let s = integer(r, "interval_seconds"), s != Int64(p.interval.seconds) {
                throw StoredRowError("interval_seconds \(s) is not its parameters' interval (\(p.interval.seconds) s)")
            }
        }
        try decodes(r, "notes_json", as: [NightNote].self, what: "a list of night notes")
        for c in ["notes_json", "details_json", "a_details_json"] { try boundedNumbers(r, c) }
        guard let details = text(r, "details_json") ?? text(r, "a_details_json"), let kind = text(r, "kind").flatMap(RecordingKind.init(rawValue:)) else { return }
        do {
            switch kind {
            case .wearable24h: _ = try JSONText.decode(WearableNightSummary.self, details)
            case .epochFile: _ = try JSONText.decode(EpochFileNightSummary.self, details)
            default: break
            }
        } catch {
            throw StoredRowError("details_json does not decode as a \(kind.rawValue) night's summary (\(JSONText.problem(error)))")
        }
    }

    /// A recording's rest-activity rhythm: one float32 of activity per epoch, and as many sleep and
    /// non-wear bytes.
    static func rhythm(_ r: Row) throws {
        try within(r, "epoch_seconds", 1...86_400, "an epoch length in seconds")
        guard let bytes = blobBytes(r, "activity_f32le") else { return }
        guard bytes % 4 == 0 else { throw StoredRowError("activity_f32le holds \(bytes) bytes, not whole float32 values") }
        if let seconds = integer(r, "epoch_seconds"), Int64(bytes / 4) * seconds > SleepDatabase.recordingSpanLimit {
            throw StoredRowError("activity_f32le spans \(Int64(bytes / 4) * seconds / 86_400) days, more than a recording's")
        }
        try blob(r, "sleep_u8", bytesPer: 1, count: Int64(bytes / 4), counted: "activity epochs")
        try blob(r, "nonwear_u8", bytesPer: 1, count: Int64(bytes / 4), counted: "activity epochs")
    }

    static func interval(_ r: Row) throws {
        try ordered(r, "start_utc", "end_utc")
        try within(r, "interval_seconds", 1...86_400, "an interval length in seconds")
        try within(r, "coverage_seconds", 0...86_400, "a number of seconds in an interval")
        try known(r, "state", { $0 == "S" || $0 == "W" ? $0 : nil }, ["S", "W"])
        try known(r, "phase", MovementPhase.init(rawValue:), MovementPhase.allCases.map(\.rawValue))
    }

    static func score(_ r: Row) throws {
        try within(r, "epoch_seconds", 1...3600, "an epoch length in seconds")
        try known(r, "state", { $0 == "S" || $0 == "W" ? $0 : nil }, ["S", "W"])
    }

    static func metrics(_ r: Row) throws {
        try within(r, "interval_seconds", 1...86_400, "an interval length in seconds")
        try within(r, "resolution_seconds", 1...86_400, "a resolution in seconds")
        try within(r, "awakenings", 0...Int64(Int32.max), "a count of awakenings")
        try ordered(r, "in_bed_start_utc", "in_bed_end_utc")
        try ordered(r, "sleep_onset_utc", "wake_time_utc")
    }
}

extension JSONText {
    /// A decoding error in a few words: where in the JSON and what, without Foundation's dump.
    static func problem(_ error: any Error) -> String {
        guard let e = error as? DecodingError else { return SleepDatabase.shortDescription(error) }
        let path: ([any CodingKey]) -> String = { $0.isEmpty ? "the top level" : $0.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") }
        switch e {
        case .dataCorrupted(let c): return c.codingPath.isEmpty ? "not JSON, or not a value of this shape" : "\(path(c.codingPath)): \(c.debugDescription)"
        case .keyNotFound(let k, let c): return "\(path(c.codingPath + [k])) is missing"
        case .typeMismatch(_, let c): return "\(path(c.codingPath)) has the wrong type"
        case .valueNotFound(_, let c): return "\(path(c.codingPath)) is null"
        @unknown default: return "\(e)"
        }
    }
}
