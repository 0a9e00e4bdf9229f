import Foundation
import GRDB
import SleepCore

/// The schema as named, append-only migrations (GRDB's `DatabaseMigrator`): a change is a new
/// migration, never an edit of an old one. Units are in column names; times are UTC epoch seconds.
///
/// Each step is a function named after its migration; ``migrator`` lists them in the order they
/// run. A database remembers the names it has applied (`grdb_migrations`), so a name and its
/// SQL never change once released: a store migrated by an older sleepsta must end in the same
/// schema as a new one.
enum Schema {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1-foundation", migrate: v1Foundation)
        m.registerMigration("v2-recording-kinds-wearable-epochs", migrate: v2RecordingKindsWearableEpochs)
        m.registerMigration("v3-no-data-in-sleep-period", migrate: v3NoDataInSleepPeriod)
        m.registerMigration("v4-epoch-file-nights-rhythm", migrate: v4EpochFileNightsRhythm)
        m.registerMigration("v5-file-stat", migrate: v5FileStat)
        m.registerMigration("v6-night-ids-without-device-extensions", migrate: v6NightIDsWithoutDeviceExtensions)
        m.registerMigration("v7-wearable-activity-counts", migrate: v7WearableActivityCounts)
        m.registerMigration("v8-content-hash-blake3", migrate: v8ContentHashBLAKE3)
        m.registerMigration("v9-recording-quality", migrate: v9RecordingQuality)
        m.registerMigration("v10-analysis-guides", migrate: v10AnalysisGuides)
        m.registerMigration("v11-run-parameter-changes", migrate: v11RunParameterChanges)
        m.registerMigration("v12-actiware-intervals", migrate: v12ActiwareIntervals)
        m.registerMigration("v13-ggir-nonwear-2023", migrate: v13GGIRNonWear2023)
        m.registerMigration("v14-epoch-temperature", migrate: v14EpochTemperature)
        m.registerMigration("v15-ggir-scores-clock", migrate: v15GGIRScoresClock)
        m.registerMigration("v16-milestone-version", migrate: v16MilestoneVersion)
        m.registerMigration("v17-recording-warnings", migrate: v17RecordingWarnings)
        m.registerMigration("v18-analysis-notes", migrate: v18AnalysisNotes)
        m.registerMigration("v19-not-worn-in-sleep-period", migrate: v19NotWornInSleepPeriod)
        m.registerMigration("v20-sleep-periods-and-days", migrate: v20SleepPeriodsAndDays)
        m.registerMigration("v21-analysis-diary-periods", migrate: v21AnalysisDiaryPeriods)
        return m
    }

    /// The first schema: the run log, recordings with their nights and per-second base series,
    /// and analyses with their intervals, scores and night metrics.
    static func v1Foundation(_ db: Database) throws {
        try v1RunLog(db)
        try v1RecordingsAndNights(db)
        try v1Analyses(db)
    }

    /// Runs and the files each failed on.
    private static func v1RunLog(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE runs (
                id INTEGER PRIMARY KEY,
                started_utc TEXT NOT NULL,
                finished_utc TEXT,
                tool_version TEXT NOT NULL,
                command TEXT NOT NULL,
                parameters_json TEXT NOT NULL,
                files_seen INTEGER NOT NULL DEFAULT 0,
                files_ingested INTEGER NOT NULL DEFAULT 0,
                files_unchanged INTEGER NOT NULL DEFAULT 0,
                files_failed INTEGER NOT NULL DEFAULT 0,
                status TEXT NOT NULL
            );
            CREATE TABLE run_failures (
                run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                path TEXT NOT NULL,
                error TEXT NOT NULL
            );
            """)
    }

    /// Recordings, their nights and each night's per-second base series.
    private static func v1RecordingsAndNights(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE recordings (
                id INTEGER PRIMARY KEY,
                path TEXT NOT NULL,
                content_sha256 TEXT NOT NULL UNIQUE,
                format TEXT NOT NULL,
                size_bytes INTEGER NOT NULL,
                sample_count INTEGER NOT NULL,
                effective_rate_hz REAL NOT NULL,
                first_utc INTEGER,
                end_utc INTEGER,
                time_zone TEXT,
                time_zone_source TEXT NOT NULL,
                units TEXT NOT NULL,
                gravity TEXT NOT NULL,
                quality_json TEXT NOT NULL,
                warnings_json TEXT NOT NULL
            );
            CREATE INDEX recordings_path ON recordings(path);
            CREATE TABLE nights (
                id TEXT PRIMARY KEY,
                recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
                night_date TEXT NOT NULL,
                window_start_utc INTEGER NOT NULL,
                window_end_utc INTEGER NOT NULL,
                time_zone TEXT,
                offsets_json TEXT NOT NULL,
                label TEXT,
                data_start_utc INTEGER,
                data_end_utc INTEGER,
                coverage_seconds INTEGER NOT NULL,
                source_resolution_seconds INTEGER NOT NULL,
                pre_bed_survey_json TEXT NOT NULL,
                post_bed_survey_json TEXT NOT NULL
            );
            CREATE INDEX nights_recording ON nights(recording_id);
            CREATE TABLE base_series (
                night_id TEXT PRIMARY KEY REFERENCES nights(id) ON DELETE CASCADE,
                start_utc INTEGER NOT NULL,
                seconds INTEGER NOT NULL,
                movement_f32le BLOB NOT NULL,
                legacy_movement_f32le BLOB NOT NULL,
                sample_counts_u16le BLOB NOT NULL
            );
            """)
    }

    /// Analyses of a night with their intervals, scoring epochs and night metrics.
    private static func v1Analyses(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE analyses (
                id INTEGER PRIMARY KEY,
                night_id TEXT NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
                parameters_key TEXT NOT NULL,
                parameters_json TEXT NOT NULL,
                interval_seconds INTEGER NOT NULL,
                algorithm TEXT NOT NULL,
                status TEXT NOT NULL,
                wake_threshold REAL,
                run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
                UNIQUE (night_id, parameters_key)
            );
            CREATE TABLE intervals (
                analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
                night_id TEXT NOT NULL,
                start_utc INTEGER NOT NULL,
                end_utc INTEGER NOT NULL,
                interval_seconds INTEGER NOT NULL,
                movement_sum REAL NOT NULL,
                legacy_movement_sum REAL NOT NULL,
                movement_per_minute REAL,
                coverage_seconds INTEGER NOT NULL,
                state TEXT,
                phase TEXT,
                PRIMARY KEY (analysis_id, start_utc)
            ) WITHOUT ROWID;
            CREATE TABLE scores (
                analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
                start_utc INTEGER NOT NULL,
                epoch_seconds INTEGER NOT NULL,
                activity REAL,
                state TEXT,
                PRIMARY KEY (analysis_id, start_utc)
            ) WITHOUT ROWID;
            CREATE TABLE night_metrics (
                analysis_id INTEGER PRIMARY KEY REFERENCES analyses(id) ON DELETE CASCADE,
                night_id TEXT NOT NULL,
                interval_seconds INTEGER NOT NULL,
                resolution_seconds INTEGER NOT NULL,
                in_bed_start_utc INTEGER NOT NULL,
                in_bed_end_utc INTEGER NOT NULL,
                sleep_onset_utc INTEGER,
                wake_time_utc INTEGER,
                time_in_bed_min REAL NOT NULL,
                sleep_period_min REAL NOT NULL,
                total_sleep_time_min REAL NOT NULL,
                sleep_onset_latency_min REAL,
                waso_min REAL NOT NULL,
                sleep_efficiency_pct REAL NOT NULL,
                awakenings INTEGER NOT NULL,
                light_min REAL NOT NULL,
                deep_min REAL NOT NULL,
                awake_min REAL NOT NULL,
                sleep_maintenance_efficiency_pct REAL,
                sfi_per_hour REAL
            );
            """)
    }

    /// Recording kinds (the night-analysis method is chosen per recording) and the wearable
    /// milestone: 5-s epochs of ENMO, angle-z, MAD and the non-wear flag per night, so that any
    /// analysis re-derives without the raw file. Older rows are phones (the only kind before).
    static func v2RecordingKindsWearableEpochs(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE recordings ADD COLUMN kind TEXT NOT NULL DEFAULT 'phone-in-bed';
            ALTER TABLE recordings ADD COLUMN kind_reason TEXT NOT NULL DEFAULT '';
            ALTER TABLE analyses ADD COLUMN kind TEXT NOT NULL DEFAULT 'phone-in-bed';
            ALTER TABLE analyses ADD COLUMN status_reason TEXT;
            ALTER TABLE analyses ADD COLUMN details_json TEXT;
            CREATE TABLE epoch_series (
                night_id TEXT PRIMARY KEY REFERENCES nights(id) ON DELETE CASCADE,
                start_utc INTEGER NOT NULL,
                epoch_seconds INTEGER NOT NULL,
                epochs INTEGER NOT NULL,
                enmo_f32le BLOB NOT NULL,
                anglez_f32le BLOB NOT NULL,
                mad_f32le BLOB NOT NULL,
                sample_counts_u16le BLOB NOT NULL,
                nonwear_u8 BLOB NOT NULL
            );
            """)
    }

    /// Minutes of the sleep period without data: neither sleep nor wake. NULL for
    /// analyses stored before it was measured, and for methods that report it elsewhere.
    static func v3NoDataInSleepPeriod(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE night_metrics ADD COLUMN no_data_in_sleep_period_min REAL")
    }

    /// Epoch files in the batch: each night's epochs as the file gives them (every
    /// numeric column as float64, the file's own sleep/wake labels), and the rest-activity rhythm
    /// of each recording (IS, IV, RA, L5, M10, SRI), which depends on the data only.
    static func v4EpochFileNightsRhythm(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE epoch_file_series (
                night_id TEXT PRIMARY KEY REFERENCES nights(id) ON DELETE CASCADE,
                format TEXT NOT NULL,
                start_utc INTEGER NOT NULL,
                epoch_seconds INTEGER NOT NULL,
                epochs INTEGER NOT NULL,
                columns_json TEXT NOT NULL,
                values_f64le BLOB NOT NULL,
                file_labels_u8 BLOB,
                file_labels_name TEXT
            );
            CREATE TABLE recording_rhythm (
                recording_id INTEGER PRIMARY KEY REFERENCES recordings(id) ON DELETE CASCADE,
                source TEXT NOT NULL,
                epoch_seconds INTEGER NOT NULL,
                days REAL NOT NULL,
                status TEXT NOT NULL,
                status_reason TEXT,
                interdaily_stability REAL,
                intradaily_variability REAL,
                relative_amplitude REAL,
                l5 REAL,
                l5_start TEXT,
                m10 REAL,
                m10_start TEXT,
                sleep_regularity_index REAL,
                activity_f32le BLOB NOT NULL,
                start_utc INTEGER NOT NULL,
                sleep_u8 BLOB,
                nonwear_u8 BLOB
            );
            """)
    }

    /// The stat cache (like git's index): each recording file's stat (device, inode, size, mtime
    /// and ctime in ns) when its content hash was last verified, and the wall-clock time that
    /// hash began. A nightly run skips the hash of a file whose stat still matches (SleepPipeline's
    /// FileStatFastPath says exactly when). A table of its own, not columns on `recordings`: it is
    /// bookkeeping rewritten by runs that change no data, and a row counts only while the
    /// recording at its path still has its content hash (a replaced or pruned recording's row is
    /// ignored, then overwritten).
    static func v5FileStat(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE file_stats (
                path TEXT PRIMARY KEY,
                content_sha256 TEXT NOT NULL,
                device INTEGER NOT NULL,
                inode INTEGER NOT NULL,
                size_bytes INTEGER NOT NULL,
                mtime_ns INTEGER NOT NULL,
                ctime_ns INTEGER NOT NULL,
                verified_ns INTEGER NOT NULL
            ) WITHOUT ROWID;
            """)
    }

    /// Night ids drop device extensions (`p1.cwa_2024-06-14` → `p1_2024-06-14`), as the CSV and
    /// JSON ones always did: rename the stored nights and every row naming them.
    static func v6NightIDsWithoutDeviceExtensions(_ db: Database) throws {
        try NightIDRenaming.dropDeviceExtensions(db)
    }

    /// ActiGraph counts per 5-s epoch in the wearable milestone (`--sleep-algorithm
    /// cole-kripke|sadeh`): int32 x, y, z interleaved per epoch; NULL where not computed.
    static func v7WearableActivityCounts(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE epoch_series ADD COLUMN counts_xyz_i32le BLOB")
    }

    /// The content identity becomes BLAKE3, three times as fast as SHA-256 here (
    /// SleepPipeline's FileHashing.swift says why that is safe). `content_hash` names its
    /// algorithm: "blake3:<hex>" from now on; rows stored before keep their SHA-256 as
    /// "sha256:<hex>" until a run meets their file again and stores its BLAKE3 (a store never
    /// reads recording files itself). The UNIQUE index follows the renamed column.
    static func v8ContentHashBLAKE3(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE recordings RENAME COLUMN content_sha256 TO content_hash;
            UPDATE recordings SET content_hash = 'sha256:' || content_hash;
            ALTER TABLE file_stats RENAME COLUMN content_sha256 TO content_hash;
            UPDATE file_stats SET content_hash = 'sha256:' || content_hash;
            """)
    }

    /// The quality facts in typed columns of their own table, instead of a JSON text whose keys
    /// the report read through partial copies of the type (a renamed fact would have been
    /// dropped without a word). Every stored summary moves; a fact an old row lacks is NULL
    /// (not measured), its counts 0. One row per recording, gone with it.
    static func v9RecordingQuality(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE recording_quality (
                recording_id INTEGER PRIMARY KEY REFERENCES recordings(id) ON DELETE CASCADE,
                sample_count INTEGER NOT NULL DEFAULT 0,
                effective_sample_rate_hz REAL NOT NULL DEFAULT 0,
                covered_seconds INTEGER NOT NULL DEFAULT 0,
                span_seconds INTEGER NOT NULL DEFAULT 0,
                gap_count INTEGER NOT NULL DEFAULT 0,
                gap_total_seconds INTEGER NOT NULL DEFAULT 0,
                longest_gap_seconds INTEGER NOT NULL DEFAULT 0,
                duplicate_timestamps INTEGER NOT NULL DEFAULT 0,
                nominal_sample_rate_hz REAL,
                sample_rate_drift_percent REAL,
                hourly_rate_min_hz REAL,
                hourly_rate_max_hz REAL,
                backward_timestamps_kept INTEGER,
                backward_samples_dropped INTEGER,
                device_range_g REAL,
                clipped_samples INTEGER,
                idle_sleep_seconds_filled INTEGER,
                skipped_blocks INTEGER,
                still_periods INTEGER,
                still_seconds INTEGER,
                longest_still_seconds INTEGER,
                calibration TEXT,
                calibration_error_before_mg REAL,
                calibration_error_after_mg REAL,
                calibration_offset_g_x REAL,
                calibration_offset_g_y REAL,
                calibration_offset_g_z REAL,
                calibration_scale_x REAL,
                calibration_scale_y REAL,
                calibration_scale_z REAL,
                activity_counts TEXT,
                wearable_epochs INTEGER,
                non_wear_seconds INTEGER,
                non_wear_periods INTEGER
            );
            INSERT INTO recording_quality (recording_id, sample_count, effective_sample_rate_hz, covered_seconds, span_seconds, gap_count, gap_total_seconds, longest_gap_seconds, duplicate_timestamps, nominal_sample_rate_hz, sample_rate_drift_percent, hourly_rate_min_hz, hourly_rate_max_hz, backward_timestamps_kept, backward_samples_dropped, device_range_g, clipped_samples, idle_sleep_seconds_filled, skipped_blocks, still_periods, still_seconds, longest_still_seconds, calibration, calibration_error_before_mg, calibration_error_after_mg, calibration_offset_g_x, calibration_offset_g_y, calibration_offset_g_z, calibration_scale_x, calibration_scale_y, calibration_scale_z, activity_counts, wearable_epochs, non_wear_seconds, non_wear_periods)
            SELECT id,
                coalesce(json_extract(quality_json, '$.sampleCount'), 0),
                coalesce(json_extract(quality_json, '$.effectiveSampleRateHz'), 0),
                coalesce(json_extract(quality_json, '$.coveredSeconds'), 0),
                coalesce(json_extract(quality_json, '$.spanSeconds'), 0),
                coalesce(json_extract(quality_json, '$.gapCount'), 0),
                coalesce(json_extract(quality_json, '$.gapTotalSeconds'), 0),
                coalesce(json_extract(quality_json, '$.longestGapSeconds'), 0),
                coalesce(json_extract(quality_json, '$.duplicateTimestamps'), 0),
                json_extract(quality_json, '$.nominalSampleRateHz'),
                json_extract(quality_json, '$.sampleRateDriftPercent'),
                json_extract(quality_json, '$.hourlyRateMinHz'),
                json_extract(quality_json, '$.hourlyRateMaxHz'),
                json_extract(quality_json, '$.backwardTimestampsKept'),
                json_extract(quality_json, '$.backwardSamplesDropped'),
                json_extract(quality_json, '$.deviceRangeG'),
                json_extract(quality_json, '$.clippedSamples'),
                json_extract(quality_json, '$.idleSleepSecondsFilled'),
                json_extract(quality_json, '$.skippedBlocks'),
                json_extract(quality_json, '$.stillPeriods'),
                json_extract(quality_json, '$.stillSeconds'),
                json_extract(quality_json, '$.longestStillSeconds'),
                json_extract(quality_json, '$.calibration'),
                json_extract(quality_json, '$.calibrationErrorBeforeMilliG'),
                json_extract(quality_json, '$.calibrationErrorAfterMilliG'),
                json_extract(quality_json, '$.calibrationOffsetG[0]'),
                json_extract(quality_json, '$.calibrationOffsetG[1]'),
                json_extract(quality_json, '$.calibrationOffsetG[2]'),
                json_extract(quality_json, '$.calibrationScale[0]'),
                json_extract(quality_json, '$.calibrationScale[1]'),
                json_extract(quality_json, '$.calibrationScale[2]'),
                json_extract(quality_json, '$.activityCounts'),
                json_extract(quality_json, '$.wearableEpochs'),
                json_extract(quality_json, '$.nonWearSeconds'),
                json_extract(quality_json, '$.nonWearPeriods')
            FROM recordings;
            ALTER TABLE recordings DROP COLUMN quality_json;
            """)
    }

    /// The sleep-diary guide of an analysis (time in bed given from outside the data), so that
    /// a recording read again can derive its diary-guided analyses again without the diary.
    static func v10AnalysisGuides(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE analysis_guides (
                analysis_id INTEGER PRIMARY KEY REFERENCES analyses(id) ON DELETE CASCADE,
                start_utc INTEGER NOT NULL,
                end_utc INTEGER NOT NULL,
                source TEXT NOT NULL
            );
            """)
    }

    /// What a run changed against the parameters of the last run before it (`nightly` reuses
    /// them; a run given others says so here and in its summary).
    static func v11RunParameterChanges(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE runs ADD COLUMN parameters_changed TEXT")
    }

    /// An Actiware export's analysis inputs and its own rest and sleep intervals, per night (JSON).
    static func v12ActiwareIntervals(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE epoch_file_series ADD COLUMN actiware_json TEXT")
    }

    /// GGIR 3's non-wear score per 5-s epoch (the "2023" rule), read by `--method ggir`; NULL
    /// in nights stored before it, whose files are read again when that method asks for it.
    static func v13GGIRNonWear2023(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE epoch_series ADD COLUMN ggir_nonwear_score_u8 BLOB")
    }

    /// The device's temperature per 5-s epoch (°C, float32; NaN without a reading), where the
    /// format has a sensor: what tells a still wrist from a device laid down.
    static func v14EpochTemperature(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE epoch_series ADD COLUMN temperature_f32le BLOB")
    }

    /// How the stored GGIR 2023 scores read the device's clock: `device-as-wall` (GGIR's view
    /// across a change of the clocks) from then on; NULL for recordings stored before, whose
    /// `.cwa` files `--method ggir` reads again once. Superseded by v16's `milestone_version`
    /// and no longer read or written; the column stays (migrations only add).
    static func v15GGIRScoresClock(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE recordings ADD COLUMN ggir_scores_clock TEXT")
    }

    /// The version of the per-epoch milestone a recording's nights were derived with
    /// (``SleepDatabase/milestoneVersion``), one number for every change of what the reader
    /// stores instead of a column per change. Version 1 is the milestone as v15 left it: a row v15
    /// marked has it, and so has every format but `.cwa`, whose milestone v15 did not change (its
    /// marker only mattered for a `.cwa`). A `.cwa` stored before v15 stays at 0 and is read again
    /// once by a method that needs the current milestone, as before. The 1 is literal: raising
    /// the current version later must not change what this step did.
    static func v16MilestoneVersion(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE recordings ADD COLUMN milestone_version INTEGER NOT NULL DEFAULT 0")
        try db.execute(sql: "UPDATE recordings SET milestone_version = 1 WHERE ggir_scores_clock IS NOT NULL OR format <> ?",
                       arguments: [SampleFormat.axivityCWA.rawValue])
    }

    /// A recording's warnings as rows of their own table, in the reader's order, instead of a JSON
    /// array in `recordings.warnings_json` that every reader decoded. Every stored array moves,
    /// decoded as the report decoded it; a text that is not an array of strings (sleepsta never
    /// wrote one) becomes one warning holding that text, so no warning is lost and no row can
    /// fail the step. The column stays (migrations only add) and holds `[]` from now on, as the
    /// rows written later do, so a migrated store holds what a new one would.
    static func v17RecordingWarnings(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE recording_warnings (
                recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
                ordinal INTEGER NOT NULL,
                text TEXT NOT NULL,
                PRIMARY KEY (recording_id, ordinal)
            );
            """)
        let insert = try db.makeStatement(sql: "INSERT INTO recording_warnings (recording_id, ordinal, text) VALUES (?, ?, ?)")
        for row in try Row.fetchAll(db, sql: "SELECT id, CAST(warnings_json AS TEXT) AS json FROM recordings ORDER BY id") {
            let id: Int64 = row["id"], json: String = row["json"]
            let warnings = (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? [json]
            for (ordinal, text) in warnings.enumerated() {
                try insert.execute(arguments: [id, ordinal, text])
            }
        }
        try db.execute(sql: "UPDATE recordings SET warnings_json = '[]'")
    }

    /// A night's notes as facts (`analyses.notes_json`: a JSON array of ``NightNote``, each
    /// `{"code": …}` with its values) that the report words, instead of a sentence in
    /// `status_reason`, so that a change of wording needs no analysis derived again. Rows written
    /// from now on hold `notes_json` and leave `status_reason` NULL. Stored sentences stay where
    /// they are, untouched: a row without `notes_json` reads its `status_reason` as one
    /// ``NightNote/legacyText(_:)``, worded as stored, so an existing store's pages read the same.
    static func v18AnalysisNotes(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE analyses ADD COLUMN notes_json TEXT")
    }

    /// Minutes of the sleep period with data that the method took as not worn, apart from the
    /// minutes without data (v3's column, which until now held both for epoch files). NULL for
    /// analyses stored before it was measured, and for methods that do not separate it (GGIR
    /// parity counts invalid time in WASO).
    static func v19NotWornInSleepPeriod(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE night_metrics ADD COLUMN not_worn_in_sleep_period_min REAL")
    }

    /// Every sleep period of a night's day and a class for each minute of its window, so that a
    /// day is accounted (main sleep, secondary sleep, naps, awake, not worn, no data) without
    /// deriving the night again. Analyses stored before have no rows: they read with no periods
    /// and no day, and give no row in the days export until derived again.
    ///
    /// `sleep_periods`: one row per ``SleepPeriod``, `ordinal` its place in the analysis's list
    /// from 0 (the main period first, then the others by time); `kind` `main`, `secondary` or
    /// `nap`, `source` `data` or `diary`; times UTC seconds; minutes and percent as in
    /// `night_metrics`. `day_minutes`: the day's window start (`start_utc`, local noon, UTC
    /// seconds) and one byte per minute of the night's window (`classes_u8`, a
    /// ``DayMinuteClass`` raw value: 1,440 bytes, 1,380 or 1,500 across a change of the clocks).
    /// Both go with their analysis.
    static func v20SleepPeriodsAndDays(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sleep_periods (
                analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
                night_id TEXT NOT NULL,
                ordinal INTEGER NOT NULL,
                kind TEXT NOT NULL,
                source TEXT NOT NULL,
                in_bed_start_utc INTEGER NOT NULL,
                in_bed_end_utc INTEGER NOT NULL,
                sleep_onset_utc INTEGER NOT NULL,
                wake_time_utc INTEGER NOT NULL,
                sleep_period_min REAL NOT NULL,
                total_sleep_time_min REAL NOT NULL,
                waso_min REAL NOT NULL,
                awakenings INTEGER NOT NULL,
                sleep_efficiency_pct REAL NOT NULL,
                PRIMARY KEY (analysis_id, ordinal)
            ) WITHOUT ROWID;
            CREATE TABLE day_minutes (
                analysis_id INTEGER PRIMARY KEY REFERENCES analyses(id) ON DELETE CASCADE,
                night_id TEXT NOT NULL,
                start_utc INTEGER NOT NULL,
                classes_u8 BLOB NOT NULL
            );
            """)
    }

    /// The sleep diary's other periods of a day given to an analysis (a split night's other
    /// `sleep` row, `nap` rows), beside its main time in bed in `analysis_guides`, for the same
    /// reason: a recording read again derives its diary-guided analyses again without the diary.
    /// `ordinal` from 0 in time order; `kind` `sleep` or `nap`; times UTC seconds.
    static func v21AnalysisDiaryPeriods(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE analysis_diary_periods (
                analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
                ordinal INTEGER NOT NULL,
                kind TEXT NOT NULL,
                start_utc INTEGER NOT NULL,
                end_utc INTEGER NOT NULL,
                source TEXT NOT NULL,
                PRIMARY KEY (analysis_id, ordinal)
            ) WITHOUT ROWID;
            """)
    }
}
