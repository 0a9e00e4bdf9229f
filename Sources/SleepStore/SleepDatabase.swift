import Foundation
import GRDB
import SleepCore

/// Errors the store reports in words a user can act on.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The SQLite database of nights, base series, analyses and runs (WAL mode, foreign keys on).
///
/// Every write that belongs together is one transaction: a recording with all its nights and
/// their analyses, or one night's analysis. A failure leaves nothing half written.
public final class SleepDatabase: Sendable {
    public let path: String
    let pool: DatabasePool

    public init(path: String) throws {
        self.path = path
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(30)
        // Opening a pool writes (GRDB makes sure a WAL file exists), so look first, read-only.
        try Self.refuseIfWrittenByNewerVersion(path: path)
        do {
            pool = try DatabasePool(path: path, configuration: config)
        } catch {
            throw StoreError("cannot open database \(path): \(error)")
        }
        let migrator = Schema.migrator
        try pool.read { db in
            if try migrator.hasBeenSuperseded(db) {
                throw StoreError("database \(path) was written by a newer sleepsta (unknown schema migrations); refusing to touch it")
            }
        }
        try migrator.migrate(pool)
    }

    // MARK: Recordings and nights

    /// The id of a recording with this content hash, if stored.
    public func recordingID(contentHash hash: String) throws -> Int64? {
        try pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM recordings WHERE content_hash = ?", arguments: [hash])
        }
    }

    /// Records that a stored recording's file now lives at `newPath` (it was moved or renamed), so a
    /// later change to the file at its new path replaces the same nights.
    public func moveRecording(contentHash hash: String, to newPath: String) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE recordings SET path = ? WHERE content_hash = ?", arguments: [newPath, hash])
        }
    }

    /// Night ids already taken by recordings other than those at `path`.
    public func nightIDs(excludingPath path: String) throws -> Set<String> {
        try pool.read { db in
            Set(try String.fetchAll(db, sql: """
                SELECT n.id FROM nights n JOIN recordings r ON r.id = n.recording_id WHERE r.path <> ?
                """, arguments: [path]))
        }
    }

    /// Stores a recording with its nights and their analyses in one transaction, replacing any
    /// earlier recording at the same path (a changed file).
    @discardableResult
    public func replaceRecording(_ recording: StoredRecording, nights: [StoredNight], analyses: [String: NightAnalysis],
                                 runID: Int64?) throws -> Int64 {
        try replaceRecording(recording, runID: runID) { store in
            for night in nights { try store(night, analyses[night.id].map { [$0] } ?? []) }
        }
    }

    /// Inserts the recording and its quality row; returns the recording's id.
    @discardableResult
    static func insert(_ recording: StoredRecording, db: Database) throws -> Int64 {
        var row = RecordingRow(recording)
        try row.insert(db)
        let id = row.id!
        try RecordingQualityRow(recordingID: id, recording.quality).insert(db)
        return id
    }

    /// Stores a recording and the nights `produce` hands to its `store` closure, one at a time, each
    /// with its analyses, in one transaction (replacing any earlier recording at the same path or
    /// with the same content): memory holds one night, however many the recording has. A throw
    /// leaves nothing of it stored.
    @discardableResult
    public func replaceRecording(_ recording: StoredRecording, runID: Int64?, rhythm: RecordingRhythm? = nil,
                                 nights produce: (_ store: (StoredNight, [NightAnalysis]) throws -> Void) throws -> Void) throws -> Int64 {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM recordings WHERE path = ? OR content_hash = ?",
                           arguments: [recording.path, recording.contentHash])
            let recordingID = try Self.insert(recording, db: db)
            if let rhythm { try Self.insert(rhythm, recordingID: recordingID, db: db) }
            try produce { night, analyses in
                try Self.insert(night, recordingID: recordingID, db: db)
                for analysis in analyses { try Self.insert(analysis, nightID: night.id, runID: runID, db: db) }
            }
            return recordingID
        }
    }

    static func insert(_ night: StoredNight, recordingID: Int64, db: Database) throws {
        try NightRow(night, recordingID: recordingID).insert(db)
        try BaseSeriesRow(nightID: night.id, night.series).insert(db)
        if let e = night.epochs { try EpochSeriesRow(nightID: night.id, e).insert(db) }
        if let f = night.epochFile { try EpochFileSeriesRow(nightID: night.id, f).insert(db) }
    }

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
    public func storedGuides(recordingPath path: String, contentHash: String) throws -> [String: TimeInBedGuide] {
        try pool.read { db in
            var guides: [String: TimeInBedGuide] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT n.night_date, a.parameters_json, g.start_utc, g.end_utc, g.source
                FROM analysis_guides g JOIN analyses a ON a.id = g.analysis_id JOIN nights n ON n.id = a.night_id
                JOIN recordings r ON r.id = n.recording_id
                WHERE r.path = ? OR r.content_hash = ?
                """, arguments: [path, contentHash]) {
                let p = try JSONText.decode(AnalysisParameters.self, row["parameters_json"])
                guard let digest = p.diaryDigest else { continue }
                guides[Self.guideKey(nightDate: row["night_date"], diaryDigest: digest)] =
                    TimeInBedGuide(startUTC: row["start_utc"], endUTC: row["end_utc"], source: row["source"])
            }
            return guides
        }
    }

    /// The key of ``storedGuides(recordingPath:contentHash:)``.
    public static func guideKey(nightDate: String, diaryDigest: String) -> String { nightDate + "|" + diaryDigest }

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
                let kind = RecordingKind(rawValue: r["kind"]) ?? .phoneInBed
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
                  let kind = try String.fetchOne(db, sql: "SELECT kind FROM recordings WHERE id = ?", arguments: [n.recordingID])
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
                               kind: RecordingKind(rawValue: kind) ?? .phoneInBed)
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

    /// The recording a night came from.
    public func recording(forNight nightID: String) throws -> StoredRecording? {
        try pool.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT r.* FROM recordings r JOIN nights n ON n.recording_id = r.id WHERE n.id = ?
                """, arguments: [nightID]) else { return nil }
            return try Self.storedRecording(row, db)
        }
    }

    /// A `recordings` row (`SELECT r.*` or `SELECT *`, further columns ignored) as a
    /// ``StoredRecording``, with its quality facts.
    static func storedRecording(_ row: Row, _ db: Database) throws -> StoredRecording {
        let r = try RecordingRow(row: row)
        return r.stored(quality: try RecordingQualityRow.fetchOne(db, key: r.id)?.summary ?? QualitySummary())
    }

    // MARK: Analyses

    /// Stores one night's analysis in its own transaction (replacing one with the same parameters).
    public func saveAnalysis(_ analysis: NightAnalysis, nightID: String, runID: Int64?) throws {
        try pool.write { db in try Self.insert(analysis, nightID: nightID, runID: runID, db: db) }
    }

    static func insert(_ a: NightAnalysis, nightID: String, runID: Int64?, db: Database) throws {
        let key = a.key
        try db.execute(sql: "DELETE FROM analyses WHERE night_id = ? AND parameters_key = ?", arguments: [nightID, key])
        try db.execute(sql: """
            INSERT INTO analyses (night_id, parameters_key, parameters_json, interval_seconds, algorithm, status, wake_threshold, run_id,
                kind, status_reason, details_json)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [nightID, key, try JSONText.encode(a.parameters), a.parameters.interval.seconds,
                             a.method.algorithm(a.parameters), a.status.rawValue, a.wakeThreshold.flatMap { $0.isFinite ? $0 : nil }, runID,
                             a.kind.rawValue, a.statusReason,
                             try a.wearable.map { try JSONText.encode($0) } ?? a.epochFile.map { try JSONText.encode($0) }])
        let analysisID = db.lastInsertedRowID
        if let g = a.guide { try AnalysisGuideRow(analysisID: analysisID, g).insert(db) }
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
        if let m = a.metrics {
            try db.execute(sql: """
                INSERT INTO night_metrics (analysis_id, night_id, interval_seconds, resolution_seconds, in_bed_start_utc, in_bed_end_utc,
                    sleep_onset_utc, wake_time_utc, time_in_bed_min, sleep_period_min, total_sleep_time_min, sleep_onset_latency_min,
                    waso_min, sleep_efficiency_pct, awakenings, light_min, deep_min, awake_min,
                    sleep_maintenance_efficiency_pct, sfi_per_hour, no_data_in_sleep_period_min)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [analysisID, nightID, a.parameters.interval.seconds, m.resolutionSeconds, m.inBedStartUTC, m.inBedEndUTC,
                                 m.sleepOnsetUTC, m.wakeTimeUTC, m.timeInBedMinutes, m.sleepPeriodMinutes, m.totalSleepTimeMinutes,
                                 m.sleepOnsetLatencyMinutes, m.wakeAfterSleepOnsetMinutes, m.sleepEfficiencyPercent, m.awakenings,
                                 m.lightMinutes, m.deepMinutes, m.awakeMinutes, m.sleepMaintenanceEfficiencyPercent,
                                 m.sleepFragmentationIndexPerHour, m.noDataInSleepPeriodMinutes])
        }
    }

    /// A night's stored analysis under `parametersKey`.
    public func analysis(nightID: String, parametersKey: String) throws -> NightAnalysis? {
        try pool.read { db in try Self.fetchAnalysis(nightID: nightID, key: parametersKey, db: db) }
    }

    /// - Parameter series: also read the intervals and the scored epochs (a wearable night has
    ///   17,000 of them); the index and the recording pages need the status and metrics only.
    static func fetchAnalysis(nightID: String, key: String, db: Database, series withSeries: Bool = true) throws -> NightAnalysis? {
        guard let a = try Row.fetchOne(db, sql: "SELECT * FROM analyses WHERE night_id = ? AND parameters_key = ?",
                                       arguments: [nightID, key]) else { return nil }
        let id: Int64 = a["id"]
        let parameters = try JSONText.decode(AnalysisParameters.self, a["parameters_json"])
        let intervals = !withSeries ? [] : try Row.fetchAll(db, sql: "SELECT * FROM intervals WHERE analysis_id = ? ORDER BY start_utc", arguments: [id]).map { r in
            AnalyzedInterval(movement: IntervalMovement(startUTC: r["start_utc"], endUTC: r["end_utc"], movementSum: r["movement_sum"],
                                                        legacyMovementSum: r["legacy_movement_sum"], coverageSeconds: r["coverage_seconds"]),
                             state: (r["state"] as String?).flatMap(sleepWake), phase: (r["phase"] as String?).flatMap(MovementPhase.init(rawValue:)))
        }
        let epochs = !withSeries ? [] : try fetchScores(analysisID: id, db: db)
        let metrics = try Row.fetchOne(db, sql: "SELECT * FROM night_metrics WHERE analysis_id = ?", arguments: [id]).map { r in
            NightSummaryMetrics(resolutionSeconds: r["resolution_seconds"], inBedStartUTC: r["in_bed_start_utc"], inBedEndUTC: r["in_bed_end_utc"],
                                sleepOnsetUTC: r["sleep_onset_utc"], wakeTimeUTC: r["wake_time_utc"], timeInBedMinutes: r["time_in_bed_min"],
                                sleepPeriodMinutes: r["sleep_period_min"], totalSleepTimeMinutes: r["total_sleep_time_min"],
                                sleepOnsetLatencyMinutes: r["sleep_onset_latency_min"], wakeAfterSleepOnsetMinutes: r["waso_min"],
                                sleepEfficiencyPercent: r["sleep_efficiency_pct"], awakenings: r["awakenings"], lightMinutes: r["light_min"],
                                deepMinutes: r["deep_min"], awakeMinutes: r["awake_min"],
                                sleepMaintenanceEfficiencyPercent: r["sleep_maintenance_efficiency_pct"],
                                sleepFragmentationIndexPerHour: r["sfi_per_hour"],
                                noDataInSleepPeriodMinutes: r["no_data_in_sleep_period_min"])
        }
        let kind = RecordingKind(rawValue: a["kind"]) ?? .phoneInBed
        let details = a["details_json"] as String?
        return NightAnalysis(status: NightStatus(rawValue: a["status"]) ?? .insufficientData, parameters: parameters,
                             intervals: intervals, epochs: epochs, wakeThreshold: a["wake_threshold"], metrics: metrics,
                             kind: kind, statusReason: a["status_reason"],
                             wearable: kind == .wearable24h ? try details.map { try JSONText.decode(WearableNightSummary.self, $0) } : nil,
                             epochFile: kind == .epochFile ? try details.map { try JSONText.decode(EpochFileNightSummary.self, $0) } : nil)
    }

    static func sleepWake(_ letter: String) -> SleepWake? { letter == "S" ? .sleep : (letter == "W" ? .wake : nil) }

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
                let kind = RecordingKind(rawValue: r["kind"]) ?? .phoneInBed
                return NightOverview(nightID: id, date: CivilDate(iso: date)!, recordingPath: r["path"], recordingFormat: r["format"],
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
                return NightOverview(nightID: id, date: CivilDate(iso: date)!, recordingPath: r["path"], recordingFormat: r["format"],
                                     timeZone: r["time_zone"], analysis: try Self.fetchAnalysis(nightID: id, key: parametersKey, db: db))
            }
        }
    }

    // MARK: Runs

    public func beginRun(_ run: RunRecord) throws -> Int64 {
        try pool.write { db in
            try db.execute(sql: """
                INSERT INTO runs (started_utc, tool_version, command, parameters_json, status, parameters_changed) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [run.startedUTC, run.toolVersion, run.command, run.parametersJSON, run.status, run.parametersChanged])
            return db.lastInsertedRowID
        }
    }

    public func finishRun(_ run: RunRecord, failures: [(path: String, error: String)]) throws {
        guard let id = run.id else { return }
        try pool.write { db in
            try db.execute(sql: """
                UPDATE runs SET finished_utc = ?, files_seen = ?, files_ingested = ?, files_unchanged = ?, files_failed = ?, status = ?
                WHERE id = ?
                """, arguments: [run.finishedUTC, run.filesSeen, run.filesIngested, run.filesUnchanged, run.filesFailed, run.status, id])
            for f in failures {
                try db.execute(sql: "INSERT INTO run_failures (run_id, path, error) VALUES (?, ?, ?)", arguments: [id, f.path, f.error])
            }
        }
    }

    /// Row counts per table (for tests and `--verbose`).
    public func rowCounts() throws -> [String: Int] {
        try pool.read { db in
            var result: [String: Int] = [:]
            for t in ["recordings", "nights", "base_series", "epoch_series", "analyses", "intervals", "scores", "night_metrics", "runs"] {
                result[t] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(t)") ?? 0
            }
            return result
        }
    }

    /// The interval lengths (seconds) of the stored analyses, shortest first.
    public func storedIntervalSeconds() throws -> [Int] {
        try pool.read { db in try Int.fetchAll(db, sql: "SELECT DISTINCT interval_seconds FROM analyses ORDER BY 1") }
    }

    /// Runs a read-only SQL query for the package's tests and the bench; values as text. Not part of
    /// the library's interface: SQL stays inside SleepStore.
    package func query(_ sql: String, _ arguments: [any DatabaseValueConvertible & Sendable] = []) throws -> [[String: String]] {
        try pool.read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                var d: [String: String] = [:]
                for (col, value) in row {
                    switch value.storage {
                    case .null: d[col] = ""
                    case .int64(let i): d[col] = String(i)
                    case .double(let x): d[col] = String(x)
                    case .string(let t): d[col] = t
                    case .blob(let b): d[col] = "<\(b.count) bytes>"
                    }
                }
                return d
            }
        }
    }

    public func integrityCheck() throws -> String {
        try pool.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" }
    }
}

/// Little-endian packing of the base series into BLOBs (compact: 10 bytes per second).
enum BlobCodec {
    static func data(_ values: [Float]) -> Data {
        values.map { $0.bitPattern.littleEndian }.withUnsafeBytes { Data($0) }
    }
    static func data(_ values: [UInt16]) -> Data {
        values.map { $0.littleEndian }.withUnsafeBytes { Data($0) }
    }
    static func data(_ values: [Double]) -> Data {
        values.withUnsafeBufferPointer { Data(buffer: $0) }
    }
    static func doubles(_ data: Data) -> [Double] {
        var out = [Double](repeating: 0, count: data.count / MemoryLayout<Double>.size)
        out.withUnsafeMutableBytes { _ = data.copyBytes(to: $0) }
        return out
    }
    /// Sleep/wake labels as bytes: 0 = none, 1 = sleep, 2 = wake.
    static func labels(_ values: [SleepWake?]) -> Data {
        Data(values.map { $0 == nil ? 0 : ($0 == .sleep ? 1 : 2) })
    }
    static func labels(_ data: Data) -> [SleepWake?] {
        data.map { $0 == 1 ? .sleep : ($0 == 2 ? .wake : nil) }
    }
    static func floats(_ data: Data) -> [Float] {
        var result = [Float](repeating: 0, count: data.count / 4)
        data.withUnsafeBytes { raw in
            for i in result.indices { result[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))) }
        }
        return result
    }
    /// ActiGraph counts: int32 x, y, z interleaved per epoch.
    static func data(_ c: WearableEpochs.Counts) -> Data {
        var out = [Int32](); out.reserveCapacity(3 * c.count)
        for i in 0..<c.count { out.append(c.x[i].littleEndian); out.append(c.y[i].littleEndian); out.append(c.z[i].littleEndian) }
        return out.withUnsafeBytes { Data($0) }
    }
    static func counts(_ data: Data) -> WearableEpochs.Counts {
        let n = data.count / 12
        var x = [Int32](repeating: 0, count: n), y = x, z = x
        data.withUnsafeBytes { raw in
            for i in 0..<n {
                x[i] = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 12, as: Int32.self))
                y[i] = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 12 + 4, as: Int32.self))
                z[i] = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 12 + 8, as: Int32.self))
            }
        }
        return WearableEpochs.Counts(x: x, y: y, z: z)
    }
    static func uint16s(_ data: Data) -> [UInt16] {
        var result = [UInt16](repeating: 0, count: data.count / 2)
        data.withUnsafeBytes { raw in
            for i in result.indices { result[i] = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: i * 2, as: UInt16.self)) }
        }
        return result
    }
}

/// Deterministic JSON text (sorted keys) for columns that hold small structured values.
enum JSONText {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try e.encode(value), as: UTF8.self)
    }
    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// A night's clock (`nights.offsets_json`): every night of a recording stores the same one, the
    /// zone's transitions from 1970 on (about 11 KB for Europe/Berlin), and a run reads it for every
    /// night several times (catalog, pages, analyses). Each distinct text is decoded and encoded once
    /// per process; the texts are few (one per zone and offset history).
    static func timeline(_ text: String) throws -> UTCOffsetTimeline {
        if let known = TimelineTexts.shared.withLock({ $0.decoded[text] }) { return known }
        let timeline = try decode(UTCOffsetTimeline.self, text)
        TimelineTexts.shared.withLock { $0.decoded[text] = timeline }
        return timeline
    }

    static func encode(_ timeline: UTCOffsetTimeline) throws -> String {
        if let known = TimelineTexts.shared.withLock({ $0.encoded[timeline] }) { return known }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        let text = String(decoding: try e.encode(timeline), as: UTF8.self)
        TimelineTexts.shared.withLock { $0.encoded[timeline] = text }
        return text
    }
}

/// The memo behind ``JSONText/timeline(_:)`` and ``JSONText/encode(_:)-(UTCOffsetTimeline)``,
/// shared by the report threads.
private final class TimelineTexts: @unchecked Sendable {
    struct Memo { var decoded: [String: UTCOffsetTimeline] = [:]; var encoded: [UTCOffsetTimeline: String] = [:] }
    private var memo = Memo()
    private let lock = NSLock()
    static let shared = TimelineTexts()

    func withLock<R>(_ body: (inout Memo) -> R) -> R {
        lock.lock(); defer { lock.unlock() }
        return body(&memo)
    }
}
