import GRDB
import SleepCore

/// Read queries for `sleepsta compare` and `sleepsta export`. Exports walk one analysis at a
/// time (intervals and epochs by the primary key), so memory stays bounded by one night.
extension SleepDatabase {
    /// Every night with its window, clock and recording, by date then id. A row that breaks the
    /// store's rules is an error naming it, or, given `unreadable`, is passed to it and left out.
    public func nightCatalog(unreadable: ((String) -> Void)? = nil) throws -> [NightCatalogEntry] {
        try pool.read { db in
            let columns = (nights: try StoredColumns(["nights"], db: db), recordings: try StoredColumns(["recordings"], db: db))
            return try Row.fetchAll(db, sql: """
                SELECT n.*, r.path, r.format, r.kind, r.time_zone_source FROM nights n JOIN recordings r ON r.id = n.recording_id
                ORDER BY n.night_date, n.id
                """).compactMap { r in
                do { return try Self.catalogEntry(r, columns: columns) } catch let e as StoredRowError {
                    guard let unreadable else { throw e }
                    unreadable(e.message)
                    return nil
                }
            }
        }
    }

    static func catalogEntry(_ r: Row, columns: (nights: StoredColumns, recordings: StoredColumns)) throws -> NightCatalogEntry {
        let id = String.fromDatabaseValue(r["id"] as DatabaseValue) ?? "?"
        try checked(r, columns: columns.nights, table: "nights", naming: "night '\(PrintableText.escaped(id))'")
        try checkJoinedRecording(r, columns: columns.recordings, night: "night '\(PrintableText.escaped(id))'")
        let dateText: String = r["night_date"]
        guard let date = CivilDate(iso: dateText) else { throw StoredRowError("night \(id): bad night_date '\(dateText)'") }
        return NightCatalogEntry(
            nightID: id, date: date,
            window: NightWindow(date: date, startUTC: r["window_start_utc"], endUTC: r["window_end_utc"]),
            timeline: try StoredRowRules.timeline(r["offsets_json"]), timeZone: r["time_zone"],
            recordingPath: r["path"], recordingFormat: try r.decode(forColumn: "format"), coverageSeconds: r["coverage_seconds"],
            sourceResolutionSeconds: r["source_resolution_seconds"],
            kind: try r.decode(forColumn: "kind"), timeZoneSource: try r.decode(forColumn: "time_zone_source"))
    }

    /// The parameters JSON of the latest run of any of `commands` (e.g. the `run` or `nightly` that
    /// wrote the index page).
    public func latestRunParametersJSON(commands: [String]) throws -> String? {
        try pool.read { db in
            let marks = Array(repeating: "?", count: commands.count).joined(separator: ", ")
            return try String.fetchOne(db, sql: "SELECT parameters_json FROM runs WHERE command IN (\(marks)) ORDER BY id DESC LIMIT 1",
                                       arguments: StatementArguments(commands))
        }
    }

    /// Every stored analysis (optionally of one interval length) with its night and metrics, by
    /// night date, night id, interval length and parameters key.
    public func exportAnalyses(intervalSeconds: Int? = nil) throws -> [AnalysisExportEntry] {
        try pool.read { try Self.exportAnalyses($0, intervalSeconds: intervalSeconds) }
    }

    /// - Parameter unreadable: receives each analysis whose rows break the store's rules, which is
    ///   left out; without it such a row is an error.
    static func exportAnalyses(_ db: Database, intervalSeconds: Int?, unreadable: ((String) -> Void)? = nil) throws -> [AnalysisExportEntry] {
        let columns = try StoredColumns(["nights", "recordings", "analyses"], db: db)
        let metricColumns = try StoredColumns(["night_metrics"], db: db)
        let catalogColumns = (nights: try StoredColumns(["nights"], db: db), recordings: try StoredColumns(["recordings"], db: db))
        return try exportRows(db, intervalSeconds: intervalSeconds).compactMap { r in
            do {
                let naming = "analysis \((r["analysis_id"] as DatabaseValue).description) of night '\(PrintableText.escaped(String.fromDatabaseValue(r["id"] as DatabaseValue) ?? "?"))'"
                try checked(r, columns: columns, table: "analyses", naming: naming)
                // Without a metrics row (LEFT JOIN) its columns are NULL, which its NOT NULLs refuse.
                if !(r["m_id"] as DatabaseValue).isNull { try checked(r, columns: metricColumns, table: "night_metrics", naming: naming) }
                return try exportEntry(r, columns: catalogColumns)
            } catch let e as StoredRowError {
                guard let unreadable else { throw e }
                unreadable(e.message)
                return nil
            }
        }
    }

    static func exportRows(_ db: Database, intervalSeconds: Int?) throws -> [Row] {
            try Row.fetchAll(db, sql: """
                SELECT n.*, r.path, r.format, r.kind, r.time_zone_source, a.id AS analysis_id, a.parameters_key, a.parameters_json, a.algorithm,
                       a.details_json AS a_details_json, a.notes_json, a.status_reason,
                       a.status, a.wake_threshold, a.interval_seconds AS a_interval_seconds, m.analysis_id AS m_id, m.resolution_seconds,
                       m.in_bed_start_utc, m.in_bed_end_utc, m.sleep_onset_utc, m.wake_time_utc, m.time_in_bed_min,
                       m.sleep_period_min, m.total_sleep_time_min, m.sleep_onset_latency_min, m.waso_min, m.sleep_efficiency_pct,
                       m.awakenings, m.light_min, m.deep_min, m.awake_min, m.sleep_maintenance_efficiency_pct, m.sfi_per_hour,
                       m.no_data_in_sleep_period_min, m.not_worn_in_sleep_period_min
                FROM analyses a
                JOIN nights n ON n.id = a.night_id
                JOIN recordings r ON r.id = n.recording_id
                LEFT JOIN night_metrics m ON m.analysis_id = a.id
                WHERE (?1 IS NULL OR a.interval_seconds = ?1)
                ORDER BY n.night_date, n.id, a.interval_seconds, a.parameters_key
                """, arguments: [intervalSeconds])
    }

    static func exportEntry(_ r: Row, columns: (nights: StoredColumns, recordings: StoredColumns)) throws -> AnalysisExportEntry {
                let metrics: NightSummaryMetrics? = (r["m_id"] as Int64?) == nil ? nil : NightSummaryMetrics(
                    resolutionSeconds: r["resolution_seconds"], inBedStartUTC: r["in_bed_start_utc"], inBedEndUTC: r["in_bed_end_utc"],
                    sleepOnsetUTC: r["sleep_onset_utc"], wakeTimeUTC: r["wake_time_utc"], timeInBedMinutes: r["time_in_bed_min"],
                    sleepPeriodMinutes: r["sleep_period_min"], totalSleepTimeMinutes: r["total_sleep_time_min"],
                    sleepOnsetLatencyMinutes: r["sleep_onset_latency_min"], wakeAfterSleepOnsetMinutes: r["waso_min"],
                    sleepEfficiencyPercent: r["sleep_efficiency_pct"], awakenings: r["awakenings"], lightMinutes: r["light_min"],
                    deepMinutes: r["deep_min"], awakeMinutes: r["awake_min"],
                    sleepMaintenanceEfficiencyPercent: r["sleep_maintenance_efficiency_pct"], sleepFragmentationIndexPerHour: r["sfi_per_hour"],
                    noDataInSleepPeriodMinutes: r["no_data_in_sleep_period_min"], notWornInSleepPeriodMinutes: r["not_worn_in_sleep_period_min"])
                let night = try Self.catalogEntry(r, columns: columns)
                return AnalysisExportEntry(
                    analysisID: r["analysis_id"], night: night, parametersKey: r["parameters_key"],
                    parameters: try JSONText.decode(AnalysisParameters.self, r["parameters_json"]), algorithm: r["algorithm"],
                    status: r["status"], wakeThreshold: r["wake_threshold"], metrics: metrics,
                    notes: try Self.notes(r, analysisID: r["analysis_id"]),
                    epochFile: night.kind == .epochFile
                        ? (r["a_details_json"] as String?).flatMap { try? JSONText.decode(EpochFileNightSummary.self, $0) } : nil)
    }

    /// The intervals of one analysis, by start.
    public func intervals(analysisID: Int64) throws -> [AnalyzedInterval] {
        try pool.read { try Self.intervals($0, analysisID: analysisID) }
    }

    static func intervals(_ db: Database, analysisID: Int64) throws -> [AnalyzedInterval] {
            let columns = try StoredColumns(["intervals"], db: db)
            return try Row.fetchAll(db, sql: """
                SELECT start_utc, end_utc, movement_sum, legacy_movement_sum, coverage_seconds, state, phase
                FROM intervals WHERE analysis_id = ? ORDER BY start_utc
                """, arguments: [analysisID]).map { r -> AnalyzedInterval in
                try checked(r, columns: columns, table: "intervals", naming: "analysis \(analysisID)")
                return AnalyzedInterval(movement: IntervalMovement(startUTC: r["start_utc"], endUTC: r["end_utc"], movementSum: r["movement_sum"],
                                                            legacyMovementSum: r["legacy_movement_sum"], coverageSeconds: r["coverage_seconds"]),
                                 state: (r["state"] as String?).flatMap(Self.sleepWake),
                                 phase: (r["phase"] as String?).flatMap(MovementPhase.init(rawValue:)))
            }
    }

    /// The scored epochs of one analysis, by start, with their length in seconds.
    public func epochs(analysisID: Int64) throws -> [(epoch: ScoredEpoch, seconds: Int)] {
        try pool.read { try Self.epochs($0, analysisID: analysisID) }
    }

    static func epochs(_ db: Database, analysisID: Int64) throws -> [(epoch: ScoredEpoch, seconds: Int)] {
            let columns = try StoredColumns(["scores"], db: db)
            return try Row.fetchAll(db, sql: """
                SELECT start_utc, epoch_seconds, activity, state FROM scores WHERE analysis_id = ? ORDER BY start_utc
                """, arguments: [analysisID]).map { r -> (epoch: ScoredEpoch, seconds: Int) in
                try checked(r, columns: columns, table: "scores", naming: "analysis \(analysisID)")
                return (ScoredEpoch(startUTC: r["start_utc"], activity: (r["activity"] as Double?) ?? .nan,
                             state: (r["state"] as String?).flatMap(Self.sleepWake)), r["epoch_seconds"])
            }
    }

    /// Runs `body` inside one read transaction: every query it makes sees the store as it was when
    /// the transaction began (a consistent snapshot), whatever a run writes meanwhile.
    public func exportSnapshot<T>(_ body: (ExportSnapshot) throws -> T) throws -> T {
        try pool.read { db in try body(ExportSnapshot(db: db)) }
    }
}

/// The export's queries inside one read transaction (``SleepDatabase/exportSnapshot(_:)``).
public struct ExportSnapshot {
    let db: Database

    /// - Parameter unreadable: receives each analysis whose rows cannot be read, which is left out.
    public func analyses(intervalSeconds: Int? = nil, unreadable: ((String) -> Void)? = nil) throws -> [AnalysisExportEntry] {
        try SleepDatabase.exportAnalyses(db, intervalSeconds: intervalSeconds, unreadable: unreadable)
    }
    public func intervals(analysisID: Int64) throws -> [AnalyzedInterval] { try SleepDatabase.intervals(db, analysisID: analysisID) }
    public func epochs(analysisID: Int64) throws -> [(epoch: ScoredEpoch, seconds: Int)] { try SleepDatabase.epochs(db, analysisID: analysisID) }
    /// - Parameter unreadable: receives each recording whose rows cannot be read, which is left out.
    public func recordingsWithRhythm(unreadable: ((String) -> Void)? = nil) throws -> [SleepDatabase.RecordingWithRhythm] {
        try SleepDatabase.recordingsWithRhythm(db, paths: nil, unreadable: unreadable)
    }
    /// IS, IV and SRI by recording path, without the activity series; `unreadable` as above.
    public func rhythmNumbers(unreadable: ((String) -> Void)? = nil)
        throws -> [String: (interdailyStability: Double?, intradailyVariability: Double?, sleepRegularityIndex: Double?)] {
        try SleepDatabase.rhythmNumbers(db, unreadable: unreadable)
    }
    public func runs() throws -> [RunRecord] { try Row.fetchAll(db, sql: "SELECT * FROM runs ORDER BY id").map { try SleepDatabase.runRecord($0) } }
    /// The parameters JSON of the last finished run of any of `commands`.
    public func lastFinishedRun(commands: [String]) throws -> RunRecord? { try SleepDatabase.lastFinishedRun(db, commands: commands) }
}
