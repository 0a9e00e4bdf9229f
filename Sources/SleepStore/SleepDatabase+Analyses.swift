import Foundation
import GRDB
import SleepCore

/// Analyses of a night: stored, read back, and what a recording read again must derive again
/// (its parameter sets and sleep-diary guides).
extension SleepDatabase {
    /// The parameter sets of the analyses stored for the recording at `path` or with `contentHash`
    /// (what storing that file again replaces), one per analysis key, in key order.
    public func storedAnalysisParameters(recordingPath path: String, contentHash: String) throws -> [AnalysisParameters] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT a.parameters_key, MIN(a.parameters_json) AS parameters_json
                FROM analyses a JOIN nights n ON n.id = a.night_id JOIN recordings r ON r.id = n.recording_id
                WHERE r.path = ? OR r.content_hash = ?
                GROUP BY a.parameters_key ORDER BY a.parameters_key
                """, arguments: [path, contentHash]).map { try JSONText.decode(AnalysisParameters.self, $0["parameters_json"]) }
        }
    }

    /// The sleep-diary guides stored with the analyses of the recording at `path` or with
    /// `contentHash`, by the night's evening date and the diary's digest (`AnalysisParameters.diaryDigest`).
    public func storedGuides(recordingPath path: String, contentHash: String) throws -> [String: DiaryGuides] {
        try pool.read { db in
            var guides: [String: DiaryGuides] = [:]
            func key(_ row: Row) throws -> String? {
                let p = try JSONText.decode(AnalysisParameters.self, row["parameters_json"])
                return p.diaryDigest.map { Self.guideKey(nightDate: row["night_date"], diaryDigest: $0) }
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT n.night_date, a.parameters_json, g.start_utc, g.end_utc, g.source
                FROM analysis_guides g JOIN analyses a ON a.id = g.analysis_id JOIN nights n ON n.id = a.night_id
                JOIN recordings r ON r.id = n.recording_id
                WHERE r.path = ? OR r.content_hash = ?
                """, arguments: [path, contentHash]) {
                guard let k = try key(row) else { continue }
                guides[k, default: DiaryGuides()].main = TimeInBedGuide(startUTC: row["start_utc"], endUTC: row["end_utc"], source: row["source"])
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT n.night_date, a.parameters_json, g.kind, g.start_utc, g.end_utc, g.source
                FROM analysis_diary_periods g JOIN analyses a ON a.id = g.analysis_id JOIN nights n ON n.id = a.night_id
                JOIN recordings r ON r.id = n.recording_id
                WHERE r.path = ? OR r.content_hash = ?
                ORDER BY g.analysis_id, g.ordinal
                """, arguments: [path, contentHash]) {
                guard let k = try key(row) else { continue }
                let period: DiaryPeriodGuide
                do { period = try StoredDays.diaryPeriod(row) } catch let e as StoreError {
                    throw StoreError("analysis_diary_periods row of night \((row["night_date"] as DatabaseValue).description): \(e.message)")
                }
                // Every analysis of one night and diary was given the same periods: keep one copy.
                if !(guides[k]?.others.contains(period) ?? false) { guides[k, default: DiaryGuides()].others.append(period) }
            }
            return guides
        }
    }

    /// The key of ``storedGuides(recordingPath:contentHash:)``.
    public static func guideKey(nightDate: String, diaryDigest: String) -> String { nightDate + "|" + diaryDigest }

    /// Stores one night's analysis in its own transaction (replacing one with the same parameters).
    public func saveAnalysis(_ analysis: NightAnalysis, nightID: String, runID: Int64?) throws {
        try pool.write { db in try Self.insert(analysis, nightID: nightID, runID: runID, db: db) }
    }

    static func insert(_ a: NightAnalysis, nightID: String, runID: Int64?, db: Database) throws {
        let key = a.key
        try db.execute(sql: "DELETE FROM analyses WHERE night_id = ? AND parameters_key = ?", arguments: [nightID, key])
        try db.execute(sql: """
            INSERT INTO analyses (night_id, parameters_key, parameters_json, interval_seconds, algorithm, status, wake_threshold, run_id,
                kind, notes_json, details_json)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [nightID, key, try JSONText.encode(a.parameters), a.parameters.interval.seconds,
                             a.method.algorithm(a.parameters), a.status.rawValue, a.wakeThreshold.flatMap { $0.isFinite ? $0 : nil }, runID,
                             a.kind.rawValue, try JSONText.encode(a.notes),
                             try a.wearable.map { try JSONText.encode($0) } ?? a.epochFile.map { try JSONText.encode($0) }])
        let analysisID = db.lastInsertedRowID
        if let g = a.guide { try AnalysisGuideRow(analysisID: analysisID, g).insert(db) }
        for (ordinal, g) in a.diaryPeriods.enumerated() {
            try db.execute(sql: "INSERT INTO analysis_diary_periods (analysis_id, ordinal, kind, start_utc, end_utc, source) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [analysisID, ordinal, g.kind.rawValue, g.startUTC, g.endUTC, g.source])
        }
        let intervalStatement = try db.cachedStatement(sql: """
            INSERT INTO intervals (analysis_id, night_id, start_utc, end_utc, interval_seconds, movement_sum, legacy_movement_sum,
                movement_per_minute, coverage_seconds, state, phase) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for iv in a.intervals {
            let m = iv.movement
            try intervalStatement.execute(arguments: [analysisID, nightID, m.startUTC, m.endUTC, m.durationSeconds, m.movementSum,
                                                      m.legacyMovementSum, m.movementPerMinute, m.coverageSeconds,
                                                      iv.state.map { String($0.letter) }, iv.phase?.rawValue])
        }
        try insertScores(a.epochs, epochSeconds: a.scoredEpochSeconds, analysisID: analysisID, db: db)
        try insertDay(a, analysisID: analysisID, nightID: nightID, db: db)
        if let m = a.metrics {
            try db.execute(sql: """
                INSERT INTO night_metrics (analysis_id, night_id, interval_seconds, resolution_seconds, in_bed_start_utc, in_bed_end_utc,
                    sleep_onset_utc, wake_time_utc, time_in_bed_min, sleep_period_min, total_sleep_time_min, sleep_onset_latency_min,
                    waso_min, sleep_efficiency_pct, awakenings, light_min, deep_min, awake_min,
                    sleep_maintenance_efficiency_pct, sfi_per_hour, no_data_in_sleep_period_min, not_worn_in_sleep_period_min)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [analysisID, nightID, a.parameters.interval.seconds, m.resolutionSeconds, m.inBedStartUTC, m.inBedEndUTC,
                                 m.sleepOnsetUTC, m.wakeTimeUTC, m.timeInBedMinutes, m.sleepPeriodMinutes, m.totalSleepTimeMinutes,
                                 m.sleepOnsetLatencyMinutes, m.wakeAfterSleepOnsetMinutes, m.sleepEfficiencyPercent, m.awakenings,
                                 m.lightMinutes, m.deepMinutes, m.awakeMinutes, m.sleepMaintenanceEfficiencyPercent,
                                 m.sleepFragmentationIndexPerHour, m.noDataInSleepPeriodMinutes, m.notWornInSleepPeriodMinutes])
        }
    }

    /// A night's stored analysis under `parametersKey`.
    public func analysis(nightID: String, parametersKey: String) throws -> NightAnalysis? {
        try pool.read { db in try Self.fetchAnalysis(nightID: nightID, key: parametersKey, db: db) }
    }

    /// - Parameter series: also read the intervals and the scored epochs (a wearable night has
    ///   17,000 of them); the index and the recording pages need the status and metrics only.
    ///   The sleep periods and the day's minutes (a few rows, one 1,440-byte BLOB) are always read.
    package static func fetchAnalysis(nightID: String, key: String, db: Database, series withSeries: Bool = true) throws -> NightAnalysis? {
        guard let a = try Row.fetchOne(db, sql: "SELECT * FROM analyses WHERE night_id = ? AND parameters_key = ?",
                                       arguments: [nightID, key]) else { return nil }
        let naming = "night '\(PrintableText.escaped(nightID))'"
        try checkStored(a, table: "analyses", db: db, naming: naming)
        let id: Int64 = a["id"]
        let parameters = try JSONText.decode(AnalysisParameters.self, a["parameters_json"])
        let intervalColumns = try StoredColumns(["intervals"], db: db)
        let intervals: [AnalyzedInterval] = !withSeries ? [] : try Row.fetchAll(db, sql: "SELECT * FROM intervals WHERE analysis_id = ? ORDER BY start_utc", arguments: [id]).map { r -> AnalyzedInterval in
            try checked(r, columns: intervalColumns, table: "intervals", naming: "\(naming), analysis \(id)")
            return AnalyzedInterval(movement: IntervalMovement(startUTC: r["start_utc"], endUTC: r["end_utc"], movementSum: r["movement_sum"],
                                                        legacyMovementSum: r["legacy_movement_sum"], coverageSeconds: r["coverage_seconds"]),
                             state: (r["state"] as String?).flatMap(sleepWake), phase: (r["phase"] as String?).flatMap(MovementPhase.init(rawValue:)))
        }
        let epochs: [ScoredEpoch]
        do { epochs = !withSeries ? [] : try fetchScores(analysisID: id, db: db) } catch let e as StoredRowError {
            throw StoredRowError("\(naming): \(e.message)")
        }
        let metrics = try Row.fetchOne(db, sql: "SELECT * FROM night_metrics WHERE analysis_id = ?", arguments: [id]).map { r -> NightSummaryMetrics in
            try checkStored(r, table: "night_metrics", db: db, naming: "\(naming), analysis \(id)")
            return NightSummaryMetrics(resolutionSeconds: r["resolution_seconds"], inBedStartUTC: r["in_bed_start_utc"], inBedEndUTC: r["in_bed_end_utc"],
                                sleepOnsetUTC: r["sleep_onset_utc"], wakeTimeUTC: r["wake_time_utc"], timeInBedMinutes: r["time_in_bed_min"],
                                sleepPeriodMinutes: r["sleep_period_min"], totalSleepTimeMinutes: r["total_sleep_time_min"],
                                sleepOnsetLatencyMinutes: r["sleep_onset_latency_min"], wakeAfterSleepOnsetMinutes: r["waso_min"],
                                sleepEfficiencyPercent: r["sleep_efficiency_pct"], awakenings: r["awakenings"], lightMinutes: r["light_min"],
                                deepMinutes: r["deep_min"], awakeMinutes: r["awake_min"],
                                sleepMaintenanceEfficiencyPercent: r["sleep_maintenance_efficiency_pct"],
                                sleepFragmentationIndexPerHour: r["sfi_per_hour"],
                                noDataInSleepPeriodMinutes: r["no_data_in_sleep_period_min"],
                                notWornInSleepPeriodMinutes: r["not_worn_in_sleep_period_min"])
        }
        let kind: RecordingKind = try a.decode(forColumn: "kind")
        let details = a["details_json"] as String?
        var analysis = NightAnalysis(status: NightStatus(rawValue: a["status"]) ?? .insufficientData, parameters: parameters,
                             intervals: intervals, epochs: epochs, wakeThreshold: a["wake_threshold"], metrics: metrics,
                             kind: kind, notes: try notes(a, analysisID: id),
                             wearable: kind == .wearable24h ? try details.map { try JSONText.decode(WearableNightSummary.self, $0) } : nil,
                             epochFile: kind == .epochFile ? try details.map { try JSONText.decode(EpochFileNightSummary.self, $0) } : nil)
        do {
            analysis.periods = try fetchPeriods(analysisID: id, db: db)
            analysis.day = try fetchDay(analysisID: id, db: db)
        } catch let e as StoredRowError {
            throw StoredRowError("\(naming): \(e.message)")
        }
        return analysis
    }

    /// The analysis's notes: `notes_json` where it was written (v18 on); before, the sentence an
    /// older sleepsta stored in `status_reason` as one legacy note, worded as stored. A code this
    /// sleepsta does not know reads as ``NightNote/unrecognised(code:)``; JSON that does not
    /// decode is an error naming the analysis.
    static func notes(_ row: Row, analysisID: Int64) throws -> [NightNote] {
        if let json = row["notes_json"] as String? {
            do { return try JSONText.decode([NightNote].self, json) } catch {
                throw StoreError("analysis \(analysisID): notes_json does not decode (\(error))")
            }
        }
        return (row["status_reason"] as String?).map { [.legacyText($0)] } ?? []
    }

    /// ``checkStored(_:table:db:naming:)`` with the table's columns looked up once for many rows.
    static func checked(_ row: Row, columns: StoredColumns, table: String, naming: String) throws {
        do { try columns.check(row); try StoredRowRules.check(row, table: table) } catch let e as StoredRowError {
            throw StoredRowError("\(naming): table \(table): \(e.message)")
        }
    }

    static func sleepWake(_ letter: String) -> SleepWake? { letter == "S" ? .sleep : (letter == "W" ? .wake : nil) }
}
