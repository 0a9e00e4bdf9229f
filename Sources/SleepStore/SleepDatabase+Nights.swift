import Foundation
import GRDB
import SleepCore

/// Nights: stored with their series, listed, read back, and the overview of each with its analysis.
extension SleepDatabase {
    /// Night ids already taken by recordings other than those at `path`.
    public func nightIDs(excludingPath path: String) throws -> Set<String> {
        try pool.read { db in
            Set(try String.fetchAll(db, sql: """
                SELECT n.id FROM nights n JOIN recordings r ON r.id = n.recording_id WHERE r.path <> ?
                """, arguments: [path]))
        }
    }

    static func insert(_ night: StoredNight, recordingID: Int64, db: Database) throws {
        try NightRow(night, recordingID: recordingID).insert(db)
        try BaseSeriesRow(nightID: night.id, night.series).insert(db)
        if let e = night.epochs { try EpochSeriesRow(nightID: night.id, e).insert(db) }
        if let f = night.epochFile { try EpochFileSeriesRow(nightID: night.id, f).insert(db) }
    }

    /// Ids of nights without an analysis under the key of their recording's kind (`keys[kind]`).
    public func nightIDsMissingAnalysis(keys: [RecordingKind: String]) throws -> [String] {
        try pool.read { db in
            let have = Set(try Row.fetchAll(db, sql: "SELECT night_id, parameters_key FROM analyses").compactMap { r -> String? in
                guard let id = String.fromDatabaseValue(r["night_id"] as DatabaseValue),
                      let key = String.fromDatabaseValue(r["parameters_key"] as DatabaseValue) else { return nil }
                return id + "\u{0}" + key
            })
            return try Row.fetchAll(db, sql: """
                SELECT n.id, r.kind FROM nights n JOIN recordings r ON r.id = n.recording_id ORDER BY n.night_date, n.id
                """).compactMap { r -> String? in
                // A night whose id or kind is not text this sleepsta writes is named by the report, not derived.
                guard let id = String.fromDatabaseValue(r["id"] as DatabaseValue),
                      let kind = String.fromDatabaseValue(r["kind"] as DatabaseValue).flatMap(RecordingKind.init(rawValue:)),
                      let key = keys[kind] else { return nil }
                return have.contains(id + "\u{0}" + key) ? nil : id
            }
        }
    }

    /// Ids of nights that have no analysis under `parametersKey`.
    public func nightIDsMissingAnalysis(parametersKey: String) throws -> [String] {
        try pool.read { db in
            try String.fetchAll(db, sql: """
                SELECT n.id FROM nights n
                WHERE NOT EXISTS (SELECT 1 FROM analyses a WHERE a.night_id = n.id AND a.parameters_key = ?)
                ORDER BY n.night_date, n.id
                """, arguments: [parametersKey])
        }
    }

    public func nightIDs() throws -> [String] {
        try pool.read { db in try String.fetchAll(db, sql: "SELECT id FROM nights ORDER BY night_date, id") }
    }

    /// A night with its base series. A row that breaks the store's rules (``StoredRowRules``) is a
    /// ``StoredRowError`` naming the table and the night: the caller skips the night.
    public func night(id: String) throws -> StoredNight? {
        try pool.read { db in
            guard let nightRow = try Row.fetchOne(db, sql: "SELECT * FROM nights WHERE id = ?", arguments: [id]),
                  let baseRow = try Row.fetchOne(db, sql: "SELECT * FROM base_series WHERE night_id = ?", arguments: [id]) else { return nil }
            let epochRow = try Row.fetchOne(db, sql: "SELECT * FROM epoch_series WHERE night_id = ?", arguments: [id])
            let fileRow = try Row.fetchOne(db, sql: "SELECT * FROM epoch_file_series WHERE night_id = ?", arguments: [id])
            let rows: [(String, Row?)] = [("nights", nightRow), ("base_series", baseRow), ("epoch_series", epochRow), ("epoch_file_series", fileRow)]
            for (table, row) in rows {
                guard let row else { continue }
                try Self.checkStored(row, table: table, db: db, naming: "night '\(PrintableText.escaped(id))'")
            }
            let n = try NightRow(row: nightRow), base = try BaseSeriesRow(row: baseRow)
            guard let kind = try RecordingKind.fetchOne(db, sql: "SELECT kind FROM recordings WHERE id = ?", arguments: [n.recordingID])
            else { return nil }
            guard let date = CivilDate(iso: n.nightDate) else { throw StoredRowError("night \(n.id): bad night_date '\(n.nightDate)'") }
            return StoredNight(id: n.id, recordingID: n.recordingID,
                               window: NightWindow(date: date, startUTC: n.windowStartUTC, endUTC: n.windowEndUTC),
                               timeline: try StoredRowRules.timeline(n.offsetsJSON),
                               timeZone: n.timeZone, label: n.label,
                               preBedSurvey: try JSONText.decode([SurveyItem].self, n.preBedSurveyJSON),
                               postBedSurvey: try JSONText.decode([SurveyItem].self, n.postBedSurveyJSON),
                               series: base.series(sourceResolutionSeconds: n.sourceResolutionSeconds),
                               epochs: try epochRow.map { try EpochSeriesRow(row: $0).wearableEpochs },
                               epochFile: try fileRow.flatMap { try EpochFileSeriesRow(row: $0).series() },
                               kind: kind)
        }
    }

    /// Checks a row read from `table` (its columns' types, then the table's rules), naming the
    /// table and `naming` (the row's night or analysis) when it breaks one.
    static func checkStored(_ row: Row, table: String, db: Database, naming: String) throws {
        do {
            try StoredColumns([table], db: db).check(row)
            try StoredRowRules.check(row, table: table)
        } catch let e as StoredRowError {
            throw StoredRowError("\(naming): table \(table): \(e.message)")
        }
    }

    /// The wearable milestone of a whole recording, stitched from its nights' epochs (each night
    /// holds its window and the 6 h after it); nil when its nights have none. What methods that
    /// look at the other days need (GGIR's imputation, ``GGIRNightMethod``).
    public func recordingEpochs(recordingID: Int64) throws -> WearableEpochs? {
        try pool.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT e.* FROM epoch_series e JOIN nights n ON n.id = e.night_id WHERE n.recording_id = ? ORDER BY e.start_utc
                """, arguments: [recordingID])
            let columns = try StoredColumns(["epoch_series"], db: db)
            let pieces = try rows.map { r -> WearableEpochs in
                do { try columns.check(r); try StoredRowRules.check(r, table: "epoch_series") } catch let e as StoredRowError {
                    throw StoredRowError("night '\(PrintableText.escaped(String.fromDatabaseValue(r["night_id"] as DatabaseValue) ?? "?"))': table epoch_series: \(e.message)")
                }
                return try EpochSeriesRow(row: r).wearableEpochs
            }
            // The whole is allocated from the first night's start to the last one's end.
            if let from = pieces.map(\.startUTC).min(), let to = pieces.map(\.endUTC).max(), to - from > Self.recordingSpanLimit {
                throw StoredRowError("recording \(recordingID): table epoch_series: its nights' epochs span \((to - from) / 86_400) days (from \(from) to \(to)), more than a recording's")
            }
            return WearableEpochs.stitched(pieces)
        }
    }

    /// The longest span a recording's epochs are stitched over: two years.
    static let recordingSpanLimit: Int64 = 2 * 366 * 86_400

    /// Every night with its analysis under the key of its recording's kind (nil if not analysed), by date.
    /// - Parameter series: with each analysis' intervals and scored epochs (``fetchAnalysis(nightID:key:db:series:)``);
    ///   without, the analyses hold their status, parameters, metrics and details only.
    /// A night whose rows break the store's rules is listed with ``NightOverview/unreadable`` and no analysis.
    public func overviews(keys: [RecordingKind: String], series: Bool = true) throws -> [NightOverview] {
        try pool.read { db in
            try Self.overviewRows(db).map { r in
                try Self.overview(r, db: db) { kind in try keys[kind].flatMap { try Self.fetchAnalysis(nightID: r["id"], key: $0, db: db, series: series) } }
            }
        }
    }

    /// Every night with its analysis under `parametersKey` (nil if not analysed), by date.
    public func overviews(parametersKey: String) throws -> [NightOverview] {
        try pool.read { db in
            try Self.overviewRows(db).map { r in
                try Self.overview(r, db: db) { _ in try Self.fetchAnalysis(nightID: r["id"], key: parametersKey, db: db) }
            }
        }
    }

    static func overviewRows(_ db: Database) throws -> [Row] {
        try Row.fetchAll(db, sql: """
            SELECT n.id, n.night_date, n.time_zone, r.path, r.format, r.kind FROM nights n JOIN recordings r ON r.id = n.recording_id
            ORDER BY n.night_date, n.id
            """)
    }

    /// One night's overview, its analysis from `analysis`; a row that breaks the store's rules
    /// (``StoredRowError``) gives an overview naming why instead.
    static func overview(_ r: Row, db: Database, analysis: (RecordingKind) throws -> NightAnalysis?) throws -> NightOverview {
        let id = String.fromDatabaseValue(r["id"] as DatabaseValue) ?? "?"
        do {
            try checked(r, columns: StoredColumns(["nights"], db: db), table: "nights", naming: "night '\(PrintableText.escaped(id))'")
            try checkJoinedRecording(r, columns: StoredColumns(["recordings"], db: db), night: "night '\(PrintableText.escaped(id))'")
            let date: String = r["night_date"]
            let kind: RecordingKind = try r.decode(forColumn: "kind")
            return NightOverview(nightID: id, date: CivilDate(iso: date)!, recordingPath: r["path"], recordingFormat: try r.decode(forColumn: "format"),
                                 timeZone: r["time_zone"], analysis: try analysis(kind), kind: kind)
        } catch let e as StoredRowError {
            return NightOverview(nightID: id, date: CivilDate(iso: String.fromDatabaseValue(r["night_date"] as DatabaseValue) ?? "") ?? CivilDate(year: 1970, month: 1, day: 1),
                                 recordingPath: String.fromDatabaseValue(r["path"] as DatabaseValue) ?? "?", recordingFormat: .samples(.rawCSV),
                                 timeZone: nil, analysis: nil, unreadable: e.message)
        }
    }

    /// Ids of the nights of the recording with this content (by date).
    public func nightIDs(contentHash hash: String) throws -> [String] {
        try pool.read { db in
            try String.fetchAll(db, sql: """
                SELECT n.id FROM nights n JOIN recordings r ON r.id = n.recording_id WHERE r.content_hash = ?
                ORDER BY n.night_date, n.id
                """, arguments: [hash])
        }
    }
}
