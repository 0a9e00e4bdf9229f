import Foundation
import GRDB
import SleepCore

/// A night's sleep periods and the class of each minute of its day (migration v20:
/// `sleep_periods`, `day_minutes`): written with the analysis, read back with it, checked before a
/// shard is merged, and walked by the periods and days exports.
///
/// One set of rules reads a row everywhere (``StoredDays``): a name this sleepsta does not know, a
/// number that is not finite, or a day whose minutes do not cover its night's window is refused
/// with an error that names the row, never guessed and never a trap.
enum StoredDays {
    /// The SQL for one period row, its columns in the order of ``periodArguments(_:)``.
    static let insertPeriod = """
        INSERT INTO sleep_periods (analysis_id, night_id, ordinal, kind, source, in_bed_start_utc, in_bed_end_utc,
            sleep_onset_utc, wake_time_utc, sleep_period_min, total_sleep_time_min, waso_min, awakenings, sleep_efficiency_pct)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// A period as read from its row; throws (without naming the row: the caller does) when a
    /// column holds what no sleepsta writes.
    static func period(_ r: Row) throws -> SleepPeriod {
        func text(_ column: String) throws -> String {
            guard let v = String.fromDatabaseValue(r[column] as DatabaseValue) else { throw StoreError("\(column) is not text") }
            return v
        }
        func integer(_ column: String) throws -> Int64 {
            let value: DatabaseValue = r[column]
            guard case .int64(let v) = value.storage else { throw StoreError("\(column) \(value) is not an integer") }
            return v
        }
        func number(_ column: String) throws -> Double {
            let value: DatabaseValue = r[column]
            guard let v = Double.fromDatabaseValue(value), v.isFinite else { throw StoreError("\(column) \(value) is not a finite number") }
            return v
        }
        let kindName = try text("kind"), sourceName = try text("source")
        guard let kind = SleepPeriodKind(rawValue: kindName) else {
            throw StoreError("kind '\(PrintableText.escaped(kindName))' is not one this sleepsta knows (\(SleepPeriodKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let source = SleepPeriodSource(rawValue: sourceName) else {
            throw StoreError("source '\(PrintableText.escaped(sourceName))' is not one this sleepsta knows (\(SleepPeriodSource.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let awakenings = try integer("awakenings")
        guard awakenings >= 0, awakenings <= Int64(Int32.max) else { throw StoreError("awakenings \(awakenings) is out of range") }
        return SleepPeriod(kind: kind, source: source, inBedStartUTC: try integer("in_bed_start_utc"), inBedEndUTC: try integer("in_bed_end_utc"),
                           sleepOnsetUTC: try integer("sleep_onset_utc"), wakeTimeUTC: try integer("wake_time_utc"),
                           sleepPeriodMinutes: try number("sleep_period_min"), totalSleepTimeMinutes: try number("total_sleep_time_min"),
                           wasoMinutes: try number("waso_min"), awakenings: Int(awakenings),
                           sleepEfficiencyPercent: try number("sleep_efficiency_pct"))
    }

    /// A diary period given to an analysis (`analysis_diary_periods`, migration v21), as read from
    /// its row; throws, as ``period(_:)`` does, when a column holds what no sleepsta writes.
    static func diaryPeriod(_ r: Row) throws -> DiaryPeriodGuide {
        func integer(_ column: String) throws -> Int64 {
            let value: DatabaseValue = r[column]
            guard case .int64(let v) = value.storage else { throw StoreError("\(column) \(value) is not an integer") }
            return v
        }
        guard let kindName = String.fromDatabaseValue(r["kind"] as DatabaseValue), let source = String.fromDatabaseValue(r["source"] as DatabaseValue) else {
            throw StoreError("kind or source is not text")
        }
        guard let kind = DiaryPeriodGuide.Kind(rawValue: kindName) else {
            throw StoreError("kind '\(PrintableText.escaped(kindName))' is not one this sleepsta knows (\(DiaryPeriodGuide.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let start = try integer("start_utc"), end = try integer("end_utc")
        guard start < end, end - start <= 86_400 else { throw StoreError("start_utc \(start) to end_utc \(end) is not a diary period (at most 24 h)") }
        return DiaryPeriodGuide(kind: kind, startUTC: start, endUTC: end, source: source)
    }

    /// A day's minutes from `start_utc` and `classes_u8`, checked against its night's window
    /// (`window_start_utc`, `window_end_utc` in the same row): one known class per minute of it.
    static func day(_ r: Row) throws -> DayMinutes {
        let startValue: DatabaseValue = r["start_utc"], blob: DatabaseValue = r["classes_u8"]
        guard case .int64(let start) = startValue.storage else { throw StoreError("start_utc \(startValue) is not an integer") }
        guard case .int64(let windowStart) = (r["window_start_utc"] as DatabaseValue).storage,
              case .int64(let windowEnd) = (r["window_end_utc"] as DatabaseValue).storage else {
            throw StoreError("its night's window cannot be read (no night for the analysis)")
        }
        guard case .blob(let data) = blob.storage else { throw StoreError("classes_u8 is not a BLOB") }
        // Both times in range first: their difference then fits (Int64.max minus a negative start would not).
        guard StoredLimits.utc.contains(windowStart), StoredLimits.utc.contains(windowEnd), StoredLimits.utc.contains(start) else {
            throw StoreError("its night's window (\(windowStart) to \(windowEnd)) or start_utc \(start) is not a time between 1900 and 2200")
        }
        let minutes = Int(max(0, windowEnd - windowStart) / 60)
        guard data.count == minutes else {
            throw StoreError("classes_u8 holds \(data.count) minutes, its night's window \(minutes)")
        }
        guard start == windowStart else { throw StoreError("start_utc \(start) is not its night's window start \(windowStart)") }
        if let i = data.firstIndex(where: { DayMinuteClass(rawValue: $0) == nil }) {
            throw StoreError("classes_u8 byte \(data[i]) at minute \(i - data.startIndex) is not a minute class this sleepsta knows")
        }
        guard let day = DayMinutes(startUTC: start, bytes: [UInt8](data)) else { throw StoreError("classes_u8 does not decode") }
        return day
    }

    /// A period's values for ``insertPeriod``; refuses a number that is not finite (SQLite would
    /// store NaN as NULL), naming the night.
    static func periodArguments(_ p: SleepPeriod, analysisID: Int64, nightID: String, ordinal: Int) throws -> StatementArguments {
        let numbers = [("sleep_period_min", p.sleepPeriodMinutes), ("total_sleep_time_min", p.totalSleepTimeMinutes),
                       ("waso_min", p.wasoMinutes), ("sleep_efficiency_pct", p.sleepEfficiencyPercent)]
        if let bad = numbers.first(where: { !$0.1.isFinite }) {
            throw StoreError("night \(nightID): sleep period \(ordinal + 1) has \(bad.0) \(bad.1), not a finite number; not stored")
        }
        return [analysisID, nightID, ordinal, p.kind.rawValue, p.source.rawValue, p.inBedStartUTC, p.inBedEndUTC,
                p.sleepOnsetUTC, p.wakeTimeUTC, p.sleepPeriodMinutes, p.totalSleepTimeMinutes, p.wasoMinutes, p.awakenings,
                p.sleepEfficiencyPercent]
    }

    /// The day row joined with its night's window (what ``day(_:)`` reads), by analysis.
    static let daySelect = """
        SELECT d.analysis_id, d.start_utc, d.classes_u8, n.window_start_utc, n.window_end_utc
        FROM day_minutes d LEFT JOIN analyses a ON a.id = d.analysis_id LEFT JOIN nights n ON n.id = a.night_id
        """
}

extension SleepDatabase {
    /// Stores an analysis's periods and day minutes (inside ``insert(_:nightID:runID:db:)``). A day
    /// that does not cover the night's window is refused here, so nothing unreadable is stored.
    static func insertDay(_ a: NightAnalysis, analysisID: Int64, nightID: String, db: Database) throws {
        let statement = try db.cachedStatement(sql: StoredDays.insertPeriod)
        for (ordinal, p) in (a.periods ?? []).enumerated() {
            try statement.execute(arguments: try StoredDays.periodArguments(p, analysisID: analysisID, nightID: nightID, ordinal: ordinal))
        }
        guard let day = a.day else { return }
        if let w = try Row.fetchOne(db, sql: "SELECT window_start_utc, window_end_utc FROM nights WHERE id = ?", arguments: [nightID]) {
            let start: Int64 = w["window_start_utc"], end: Int64 = w["window_end_utc"]
            guard day.startUTC == start, day.classes.count == Int(max(0, end - start) / 60) else {
                throw StoreError("night \(nightID): its day's \(day.classes.count) minutes from \(day.startUTC) do not cover its window (\(start) to \(end)); not stored")
            }
        }
        try db.execute(sql: "INSERT INTO day_minutes (analysis_id, night_id, start_utc, classes_u8) VALUES (?, ?, ?, ?)",
                       arguments: [analysisID, nightID, day.startUTC, Data(day.bytes)])
    }

    /// The stored periods of an analysis in their order; nil when it has none (none found, or
    /// stored before v20).
    static func fetchPeriods(analysisID: Int64, db: Database) throws -> [SleepPeriod]? {
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM sleep_periods WHERE analysis_id = ? ORDER BY ordinal", arguments: [analysisID])
        guard !rows.isEmpty else { return nil }
        return try rows.map { r in
            do { return try StoredDays.period(r) } catch let e as StoreError {
                throw StoredRowError("analysis \(analysisID): sleep_periods row \((r["ordinal"] as DatabaseValue).description): \(e.message)")
            }
        }
    }

    /// The stored day minutes of an analysis; nil for one stored before v20 (or without a day).
    static func fetchDay(analysisID: Int64, db: Database) throws -> DayMinutes? {
        guard let r = try Row.fetchOne(db, sql: StoredDays.daySelect + " WHERE d.analysis_id = ?", arguments: [analysisID]) else { return nil }
        do { return try StoredDays.day(r) } catch let e as StoreError {
            throw StoredRowError("analysis \(analysisID): day_minutes: \(e.message)")
        }
    }

    /// Refuses a shard whose periods or days the readers would refuse, naming the shard, the table
    /// and the row (``mergeShards(_:run:)`` checks before merging anything).
    static func checkDays(shard: Database, path: String) throws {
        if try shard.tableExists("sleep_periods") {
            let rows = try Row.fetchCursor(shard, sql: "SELECT * FROM sleep_periods ORDER BY analysis_id, ordinal")
            while let r = try rows.next() {
                do { _ = try StoredDays.period(r) } catch let e as StoreError {
                    throw StoreError("shard \(path): table sleep_periods, row (analysis_id \((r["analysis_id"] as DatabaseValue).description), ordinal \((r["ordinal"] as DatabaseValue).description)): \(e.message)")
                }
            }
        }
        if try shard.tableExists("analysis_diary_periods") {
            let rows = try Row.fetchCursor(shard, sql: "SELECT * FROM analysis_diary_periods ORDER BY analysis_id, ordinal")
            while let r = try rows.next() {
                do { _ = try StoredDays.diaryPeriod(r) } catch let e as StoreError {
                    throw StoreError("shard \(path): table analysis_diary_periods, row (analysis_id \((r["analysis_id"] as DatabaseValue).description), ordinal \((r["ordinal"] as DatabaseValue).description)): \(e.message)")
                }
            }
        }
        if try shard.tableExists("day_minutes") {
            let rows = try Row.fetchCursor(shard, sql: StoredDays.daySelect + " ORDER BY d.analysis_id")
            while let r = try rows.next() {
                do { _ = try StoredDays.day(r) } catch let e as StoreError {
                    throw StoreError("shard \(path): table day_minutes, row (analysis_id \((r["analysis_id"] as DatabaseValue).description)): \(e.message)")
                }
            }
        }
    }
}

/// One sleep period of a stored analysis: a row of the periods export.
public struct SleepPeriodExportRow: Sendable, Equatable {
    public var analysis: AnalysisExportEntry
    /// The period's place in its analysis's list, from 1 (the main period first).
    public var period: Int
    public var sleepPeriod: SleepPeriod
}

/// One day of a stored analysis, its carried sleep resolved: a row of the days export.
public struct DayExportRow: Sendable, Equatable {
    public var analysis: AnalysisExportEntry
    public var account: DayAccount
}

extension ExportSnapshot {
    /// The periods of each analysis, in the analyses' order, then each analysis's own order.
    public func sleepPeriods(_ analyses: [AnalysisExportEntry], _ body: (SleepPeriodExportRow) throws -> Void) throws {
        for a in analyses {
            for (i, p) in (try SleepDatabase.fetchPeriods(analysisID: a.analysisID, db: db) ?? []).enumerated() {
                try body(SleepPeriodExportRow(analysis: a, period: i + 1, sleepPeriod: p))
            }
        }
    }

    /// The day of each analysis that has stored day minutes (analyses stored before v20 give
    /// none), in the analyses' order. Sleep carried into a day takes the kind of the period it
    /// belongs to: the periods of the same recording's previous night under the same parameters
    /// key among `analyses` (given by night date, as ``analyses(intervalSeconds:)`` gives them).
    /// A day is included when its status is `scored`; otherwise its reason is the code of its
    /// first note, or its status.
    public func days(_ analyses: [AnalysisExportEntry], _ body: (DayExportRow) throws -> Void) throws {
        var previous: [String: [SleepPeriod]] = [:]
        for a in analyses {
            let periods = try SleepDatabase.fetchPeriods(analysisID: a.analysisID, db: db) ?? []
            let group = a.night.recordingPath + "\u{0}" + a.parametersKey
            let earlier = previous[group] ?? []
            previous[group] = periods
            guard let minutes = try SleepDatabase.fetchDay(analysisID: a.analysisID, db: db) else { continue }
            try body(DayExportRow(analysis: a, account: DayAccount(minutes: minutes, periods: periods, earlier: earlier, status: a.status, notes: a.notes)))
        }
    }
}
