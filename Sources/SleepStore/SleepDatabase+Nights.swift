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
            let have = Set(try Row.fetchAll(db, sql: "SELECT night_id, parameters_key FROM analyses").map { r -> String in
                let id: String = r["night_id"]; let key: String = r["parameters_key"]; return id + "\u{0}" + key
            })
            return try Row.fetchAll(db, sql: """
                SELECT n.id, r.kind FROM nights n JOIN recordings r ON r.id = n.recording_id ORDER BY n.night_date, n.id
                """).compactMap { r -> String? in
                let id: String = r["id"]
                let kind: RecordingKind = try r.decode(forColumn: "kind")
                guard let key = keys[kind] else { return nil }
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

    /// A night with its base series.
    public func night(id: String) throws -> StoredNight? {
        try pool.read { db in
            guard let n = try NightRow.fetchOne(db, key: id), let base = try BaseSeriesRow.fetchOne(db, key: id),
                  let kind = try RecordingKind.fetchOne(db, sql: "SELECT kind FROM recordings WHERE id = ?", arguments: [n.recordingID])
            else { return nil }
            guard let date = CivilDate(iso: n.nightDate) else { throw StoreError("night \(n.id): bad night_date '\(n.nightDate)'") }
            return StoredNight(id: n.id, recordingID: n.recordingID,
                               window: NightWindow(date: date, startUTC: n.windowStartUTC, endUTC: n.windowEndUTC),
                               timeline: try JSONText.timeline(n.offsetsJSON),
                               timeZone: n.timeZone, label: n.label,
                               preBedSurvey: try JSONText.decode([SurveyItem].self, n.preBedSurveyJSON),
                               postBedSurvey: try JSONText.decode([SurveyItem].self, n.postBedSurveyJSON),
                               series: base.series(sourceResolutionSeconds: n.sourceResolutionSeconds),
                               epochs: try EpochSeriesRow.fetchOne(db, key: id)?.wearableEpochs,
                               epochFile: try EpochFileSeriesRow.fetchOne(db, key: id)?.series(),
                               kind: kind)
        }
    }

    /// The wearable milestone of a whole recording, stitched from its nights' epochs (each night
    /// holds its window and the 6 h after it); nil when its nights have none. What methods that
    /// look at the other days need (GGIR's imputation, ``GGIRNightMethod``).
    public func recordingEpochs(recordingID: Int64) throws -> WearableEpochs? {
        try pool.read { db in
            let rows = try EpochSeriesRow.fetchAll(db, sql: """
                SELECT e.* FROM epoch_series e JOIN nights n ON n.id = e.night_id WHERE n.recording_id = ? ORDER BY e.start_utc
                """, arguments: [recordingID])
            return WearableEpochs.stitched(rows.map(\.wearableEpochs))
        }
    }

    /// Every night with its analysis under the key of its recording's kind (nil if not analysed), by date.
    /// - Parameter series: with each analysis' intervals and scored epochs (``fetchAnalysis(nightID:key:db:series:)``);
    ///   without, the analyses hold their status, parameters, metrics and details only.
    public func overviews(keys: [RecordingKind: String], series: Bool = true) throws -> [NightOverview] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT n.id, n.night_date, n.time_zone, r.path, r.format, r.kind FROM nights n JOIN recordings r ON r.id = n.recording_id
                ORDER BY n.night_date, n.id
                """).map { r in
                let id: String = r["id"]
                let date: String = r["night_date"]
                let kind: RecordingKind = try r.decode(forColumn: "kind")
                return NightOverview(nightID: id, date: CivilDate(iso: date)!, recordingPath: r["path"], recordingFormat: try r.decode(forColumn: "format"),
                                     timeZone: r["time_zone"],
                                     analysis: try keys[kind].flatMap { try Self.fetchAnalysis(nightID: id, key: $0, db: db, series: series) }, kind: kind)
            }
        }
    }

    /// Every night with its analysis under `parametersKey` (nil if not analysed), by date.
    public func overviews(parametersKey: String) throws -> [NightOverview] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT n.id, n.night_date, n.time_zone, r.path, r.format FROM nights n JOIN recordings r ON r.id = n.recording_id
                ORDER BY n.night_date, n.id
                """).map { r in
                let id: String = r["id"]
                let date: String = r["night_date"]
                return NightOverview(nightID: id, date: CivilDate(iso: date)!, recordingPath: r["path"], recordingFormat: try r.decode(forColumn: "format"),
                                     timeZone: r["time_zone"], analysis: try Self.fetchAnalysis(nightID: id, key: parametersKey, db: db))
            }
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
