import Foundation
import GRDB
import Testing
import SleepCore
import SleepStore

/// Every migration, one at a time: a database as an older sleepsta left it just before the step
/// (GRDB's `migrate(_:upTo:)`), holding rows of that schema (a run, a wearable `.cwa` recording
/// with a night, its base series and 5-s epochs, an analysis with its interval, score and metrics;
/// an epoch file's night, a rhythm, a file stat, a diary guide, as the tables then were), is
/// opened by this version, and every row is still there with the value each later step promises:
/// defaults, backfills, renamed ids and columns.
@Suite("Migrations step by step: rows stored before each step survive to the latest schema")
struct MigrationStepTests {
    /// The released steps in their order: names never change, new ones only come last.
    static let released = [
        "v1-foundation", "v2-recording-kinds-wearable-epochs", "v3-no-data-in-sleep-period", "v4-epoch-file-nights-rhythm",
        "v5-file-stat", "v6-night-ids-without-device-extensions", "v7-wearable-activity-counts", "v8-content-hash-blake3",
        "v9-recording-quality", "v10-analysis-guides", "v11-run-parameter-changes", "v12-actiware-intervals",
        "v13-ggir-nonwear-2023", "v14-epoch-temperature", "v15-ggir-scores-clock", "v16-milestone-version",
        "v17-recording-warnings", "v18-analysis-notes", "v19-not-worn-in-sleep-period",
        "v20-sleep-periods-and-days", "v21-analysis-diary-periods",
    ]

    @Test("the migrations are the released steps, in order, under their released names")
    func appendOnly() {
        #expect(Array(SleepDatabase.knownMigrations.prefix(Self.released.count)) == Self.released)
    }

    @Test("v1-foundation: a new file gets every table")
    func foundation() throws {
        let path = Self.temporaryPath()
        defer { Self.remove(path) }
        let db = try SleepDatabase(path: path)
        let tables = Set(try db.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0["name"] })
        for table in ["runs", "run_failures", "recordings", "nights", "base_series", "analyses", "intervals", "scores", "night_metrics",
                      "epoch_series", "epoch_file_series", "recording_rhythm", "file_stats", "recording_quality", "analysis_guides",
                      "recording_warnings", "sleep_periods", "day_minutes", "analysis_diary_periods"] {
            #expect(tables.contains(table), "\(table)")
        }
        #expect(try db.appliedMigrations() == SleepDatabase.knownMigrations)
    }

    @Test("rows stored just before the step survive it and every later one", arguments: Array(released.dropFirst()))
    func rowsSurvive(step: String) throws {
        let old = try OldStore(before: step)
        defer { Self.remove(old.path) }
        let db = try SleepDatabase(path: old.path)
        #expect(try db.appliedMigrations() == SleepDatabase.knownMigrations)
        try checkRunAndRecording(db, old)
        try checkNight(db, old)
        try checkAnalysis(db, old)
        try checkLaterTables(db, old)
        try checkMilestone(db, old)
        #expect(try db.query("PRAGMA foreign_key_check").isEmpty)
        #expect(try db.integrityCheck() == "ok")
    }

    /// The run keeps its counts (v11's change list where it had one), the recording its facts:
    /// v2's kind, v8's algorithm-named hash, v9's typed quality facts, v17's warnings, v5's stat.
    func checkRunAndRecording(_ db: SleepDatabase, _ old: OldStore) throws {
        let run = try #require(try db.allRuns().first)
        #expect(run.filesIngested == 2 && run.status == "ok")
        #expect(run.parametersChanged == (old.had("v11") ? "--tz" : nil))
        #expect(try db.query("SELECT path, error FROM run_failures") == [["path": "bad.csv", "error": "unreadable"]])
        let (recording, _) = try #require(try db.recording(contentHash: old.expectedHash))
        #expect(recording.path == "sub/p1.cwa" && recording.format == .samples(.axivityCWA) && recording.sizeBytes == 10)
        #expect(recording.kind == (old.had("v2") ? .wearable24h : .phoneInBed))
        #expect(recording.kindReason == (old.had("v2") ? "device" : ""))
        #expect(recording.quality == OldStore.quality)
        #expect(recording.warnings == OldStore.warnings)
        #expect(try db.query("SELECT DISTINCT warnings_json FROM recordings") == [["warnings_json": "[]"]])
        let stored = try #require(try db.storedFileStat(ofRecordingAt: "sub/p1.cwa"))
        #expect((stored.stat != nil) == old.had("v5"), "a stat counts only where one was stored")
        #expect(stored.stat?.inode == (old.had("v5") ? 42 : nil))
    }

    /// The night under v6's id (in every table that names it), its base series bit for bit, and
    /// its 5-s epochs with the series later steps added (NULL where they were not stored).
    func checkNight(_ db: SleepDatabase, _ old: OldStore) throws {
        let night = try #require(try db.night(id: OldStore.renamedNight))
        #expect(night.series.movement == [0.5, 0.25] && night.series.legacyMovement == [1, 2] && night.series.sampleCounts == [3, 65535])
        #expect(night.timeline == .fixed(7200) && night.label == "first")
        let stale = try db.query("SELECT COUNT(*) AS n FROM nights WHERE id LIKE '%.cwa%'")
        #expect(stale.first?["n"] == "0")
        #expect((night.epochs != nil) == old.had("v2"))
        guard let epochs = night.epochs else { return }
        #expect(epochs.enmo == [0.01, 0.02] && epochs.nonWear == [false, true])
        #expect(epochs.counts == (old.had("v7") ? OldStore.counts : nil))
        #expect(epochs.ggirNonWearScore == (old.had("v13") ? [0, 3] : nil))
        #expect(epochs.temperature == (old.had("v14") ? [20.5, 21] : nil))
    }

    /// The analysis and its rows under the renamed night: v2's kind and reason (a legacy note
    /// since v18), v3's minutes without data and v19's minutes not worn (NULL before each was measured).
    func checkAnalysis(_ db: SleepDatabase, _ old: OldStore) throws {
        let a = try #require(try db.analysis(nightID: OldStore.renamedNight, parametersKey: AnalysisParameters().key))
        #expect(a.status == .scored && a.wakeThreshold == 0.5)
        #expect(a.kind == (old.had("v2") ? .wearable24h : .phoneInBed))
        #expect(a.notes == (old.had("v2") ? [.legacyText("scored")] : []))
        #expect(a.intervals.map(\.movement.movementSum) == [1.5] && a.intervals.first?.phase == .deep)
        #expect(a.epochs.map(\.state) == [.wake])
        let metrics = try #require(a.metrics)
        #expect(metrics.totalSleepTimeMinutes == 7 && metrics.awakenings == 1)
        #expect(metrics.noDataInSleepPeriodMinutes == (old.had("v3") ? 4 : nil))
        #expect(metrics.notWornInSleepPeriodMinutes == (old.had("v19") ? 3 : nil))
        #expect(a.periods?.map(\.kind) == (old.had("v20") ? [.main] : nil))
        #expect(a.periods?.first?.totalSleepTimeMinutes == (old.had("v20") ? 7 : nil))
        #expect(a.day?.classes.count == (old.had("v20") ? 1440 : nil))
        #expect(a.day?.minutes(.sleepMain) == (old.had("v20") ? 8 : nil))
        for table in ["base_series", "analyses", "intervals", "night_metrics"] {
            let ids = try db.query("SELECT night_id FROM \(table) WHERE night_id LIKE 'sub%'").map { $0["night_id"] }
            #expect(ids == [OldStore.renamedNight], "\(table)")
        }
    }

    /// Tables a step added keep their rows: v4's epoch-file night (v12's Actiware facts NULL)
    /// and rhythm, v10's diary guide.
    func checkLaterTables(_ db: SleepDatabase, _ old: OldStore) throws {
        let epochFile = try db.night(id: "e_2024-06-14")?.epochFile
        #expect((epochFile != nil) == old.had("v4"))
        if let epochFile {
            #expect(epochFile.columns.map(\.values) == [[12, 0]] && epochFile.fileLabels == [.wake, .sleep] && epochFile.actiware == nil)
        }
        let rhythm = try db.query("SELECT status, days FROM recording_rhythm")
        #expect(rhythm == (old.had("v4") ? [["status": "computed", "days": "7.0"]] : []))
        let guides = try db.query("SELECT source FROM analysis_guides")
        #expect(guides == (old.had("v10") ? [["source": "diary.csv row 2"]] : []))
        #expect(try db.query("SELECT kind, source FROM analysis_diary_periods") == (old.had("v21") ? [["kind": "nap", "source": "diary.csv row 3"]] : []))
    }

    /// v15's marker stays where it was written; v16 turns it into the milestone version: a `.cwa`
    /// wearable stored before v15 is read again once (its milestone 0), one stored after is not;
    /// an epoch file never is.
    func checkMilestone(_ db: SleepDatabase, _ old: OldStore) throws {
        let row = try db.query("SELECT ggir_scores_clock, milestone_version FROM recordings WHERE id = 1")[0]
        #expect(row["ggir_scores_clock"] == (old.had("v15") ? "device-as-wall" : ""), "NULL before v15")
        #expect(row["milestone_version"] == (old.had("v15") ? "1" : "0"))
        #expect(try db.milestoneOutdated(contentHash: old.expectedHash) == (old.had("v2") && !old.had("v15")))
        #expect(try db.storedFileStat(ofRecordingAt: "sub/p1.cwa")?.facts.milestoneOutdated == (old.had("v2") && !old.had("v15")))
        if old.had("v4") {
            #expect(try db.query("SELECT milestone_version FROM recordings WHERE id = 2")[0]["milestone_version"] == "1")
            #expect(try db.milestoneOutdated(contentHash: old.had("v8") ? "blake3:ee" : "sha256:ee") == false)
        }
    }

    @Test("v16-milestone-version: a .cwa wearable stored before v15 is read again once; one marked by v15, another format, a phone and a row stored now are not")
    func milestoneBackfill() throws {
        let path = Self.temporaryPath()
        defer { Self.remove(path) }
        try SleepDatabase.createSchema(path: path, upTo: "v15-ggir-scores-clock")
        let cases: [(file: String, format: String, kind: String, clock: String?)] = [
            ("old.cwa", "axivity-cwa", "wearable-24h", nil), ("marked.cwa", "axivity-cwa", "wearable-24h", "device-as-wall"),
            ("old.bin", "geneactiv-bin", "wearable-24h", nil), ("phone.csv", "raw-csv", "phone-in-bed", nil),
        ]
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for (k, c) in cases.enumerated() {
                try db.execute(sql: """
                    INSERT INTO recordings (id, path, content_hash, format, size_bytes, sample_count, effective_rate_hz, time_zone_source,
                        units, gravity, warnings_json, kind, kind_reason, ggir_scores_clock)
                    VALUES (?, ?, ?, ?, 10, 3, 100, 'option', 'g', 'included', '[]', ?, '', ?)
                    """, arguments: [k + 1, c.file, "blake3:\(k)", c.format, c.kind, c.clock])
                try db.execute(sql: """
                    INSERT INTO nights (id, recording_id, night_date, window_start_utc, window_end_utc, offsets_json, coverage_seconds,
                        source_resolution_seconds, pre_bed_survey_json, post_bed_survey_json)
                    VALUES (?, ?, '2024-06-14', 0, 86400, ?, 0, 1, '[]', '[]')
                    """, arguments: ["n\(k)", k + 1, try JSONText.encode(UTCOffsetTimeline.fixed(0))])
                guard c.kind == "wearable-24h" else { continue }
                try db.execute(sql: """
                    INSERT INTO epoch_series (night_id, start_utc, epoch_seconds, epochs, enmo_f32le, anglez_f32le, mad_f32le,
                        sample_counts_u16le, nonwear_u8, ggir_nonwear_score_u8)
                    VALUES (?, 0, 5, 1, ?, ?, ?, ?, ?, ?)
                    """, arguments: ["n\(k)", BlobCodec.data([Float(0)]), BlobCodec.data([Float(0)]), BlobCodec.data([Float(0)]),
                                     BlobCodec.data([UInt16(500)]), Data([0]), Data([0])])
            }
        }
        try queue.close()
        let db = try SleepDatabase(path: path)
        #expect(try db.query("SELECT milestone_version FROM recordings ORDER BY id").map { $0["milestone_version"] } == ["0", "1", "1", "1"])
        #expect(try (0..<4).map { try db.milestoneOutdated(contentHash: "blake3:\($0)") } == [true, false, false, false])
        #expect(try db.milestoneOutdated(contentHash: "blake3:0"))
        #expect(try db.storedFileStat(ofRecordingAt: "old.cwa")?.facts.milestoneOutdated == true)
        #expect(try db.milestoneOutdated(contentHash: "blake3:unknown") == false)

        // Read again: the new row carries this version's milestone, and the old marker no more.
        let epochs = WearableEpochs(startUTC: 0, enmo: [0], angleZ: [0], mad: [0], sampleCounts: [500], nonWear: [false], ggirNonWearScore: [0])
        let night = StoredNight(id: "n0", window: NightWindow(date: CivilDate(year: 2024, month: 6, day: 14), startUTC: 0, endUTC: 86_400),
                                timeline: .fixed(0), timeZone: nil, label: nil, preBedSurvey: [], postBedSurvey: [],
                                series: SecondSeries(startSecond: 0, movement: [], legacyMovement: [], sampleCounts: []),
                                epochs: epochs, kind: .wearable24h)
        let again = StoredRecording(path: "old.cwa", contentHash: "blake3:0", format: .samples(.axivityCWA), sizeBytes: 10, sampleCount: 3,
                                    effectiveSampleRateHz: 100, firstUTC: nil, endUTC: nil, timeZone: nil, timeZoneSource: .option,
                                    units: "g", gravity: .included, quality: QualitySummary(), warnings: [], kind: .wearable24h)
        try db.replaceRecording(again, nights: [night], analyses: [:], runID: nil)
        let row = try db.query("SELECT milestone_version, ggir_scores_clock FROM recordings WHERE path = 'old.cwa'")
        #expect(row == [["milestone_version": String(SleepDatabase.milestoneVersion), "ggir_scores_clock": ""]])
        #expect(try db.milestoneOutdated(contentHash: "blake3:0") == false)
    }

    @Test("v17-recording-warnings: each recording's JSON array becomes its rows in order; an empty one none; a text that does not decode one warning")
    func warningsMove() throws {
        let path = Self.temporaryPath()
        defer { Self.remove(path) }
        try SleepDatabase.createSchema(path: path, upTo: "v16-milestone-version")
        let two = ["the file ends inside its last row (cut short): that incomplete row was dropped", "acceleration read as m/s² (--units m/s2)"]
        let cases: [(file: String, json: String)] = [
            ("two.csv", try JSONText.encode(two)), ("none.csv", "[]"), ("broken.csv", #"["cut short", "#), ("numbers.csv", "[1, 2]"),
        ]
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for (k, c) in cases.enumerated() {
                try db.execute(sql: """
                    INSERT INTO recordings (id, path, content_hash, format, size_bytes, sample_count, effective_rate_hz, time_zone_source,
                        units, gravity, warnings_json, kind, kind_reason)
                    VALUES (?, ?, ?, 'raw-csv', 10, 3, 1, 'option', 'g', 'removed', ?, 'phone-in-bed', '')
                    """, arguments: [k + 1, c.file, "blake3:\(k)", c.json])
            }
        }
        try queue.close()
        let db = try SleepDatabase(path: path)
        let rows = try db.query("SELECT recording_id, ordinal, text FROM recording_warnings ORDER BY recording_id, ordinal")
        #expect(rows == [
            ["recording_id": "1", "ordinal": "0", "text": two[0]], ["recording_id": "1", "ordinal": "1", "text": two[1]],
            ["recording_id": "3", "ordinal": "0", "text": #"["cut short", "#], ["recording_id": "4", "ordinal": "0", "text": "[1, 2]"],
        ])
        #expect(try (0..<4).map { try db.recording(contentHash: "blake3:\($0)")?.recording.warnings }
                == [two, [], [#"["cut short", "#], ["[1, 2]"]])
        #expect(try db.query("SELECT DISTINCT warnings_json FROM recordings") == [["warnings_json": "[]"]])
        // Gone with its recording.
        try db.deleteRecording(path: "two.csv")
        #expect(try db.query("SELECT COUNT(*) AS n FROM recording_warnings WHERE recording_id = 1") == [["n": "0"]])
    }

    @Test("v18-analysis-notes: a stored sentence reads back verbatim as one legacy note; an analysis stored now writes typed notes and no sentence")
    func analysisNotes() throws {
        let old = try OldStore(before: "v18-analysis-notes")
        defer { Self.remove(old.path) }
        let sentence = "time in bed from diary.csv row 2; 15m intervals cannot follow the source's own 10m totals (15m is neither a multiple nor a divisor of 10m): intervals lie on the local clock and some of them mix two source totals"
        let queue = try DatabaseQueue(path: old.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE analyses SET status_reason = ? WHERE id = 1", arguments: [sentence])
            // A second analysis of the night with nothing to say.
            try db.execute(sql: """
                INSERT INTO analyses (id, night_id, parameters_key, parameters_json, interval_seconds, algorithm, status, kind)
                VALUES (2, ?, 'quiet', ?, 600, 'oakley-relative', 'no-sleep-found', 'phone-in-bed')
                """, arguments: [OldStore.renamedNight, try JSONText.encode(AnalysisParameters())])
        }
        try queue.close()
        let db = try SleepDatabase(path: old.path)
        let stored = try #require(try db.analysis(nightID: OldStore.renamedNight, parametersKey: AnalysisParameters().key))
        #expect(stored.notes == [.legacyText(sentence)])
        #expect(try db.analysis(nightID: OldStore.renamedNight, parametersKey: "quiet")?.notes == [])
        #expect(try db.query("SELECT id, status_reason, notes_json FROM analyses ORDER BY id")
                == [["id": "1", "status_reason": sentence, "notes_json": ""], ["id": "2", "status_reason": "", "notes_json": ""]],
                "the step leaves stored sentences where they are (NULL reads as \"\")")

        // Derived again now: typed notes, in order, and no sentence.
        var again = stored
        again.notes = [.timeInBedFromDiary(source: "diary.csv row 2"), .intervalGridOffSource(intervalSeconds: 900, sourceSeconds: 600)]
        try db.saveAnalysis(again, nightID: OldStore.renamedNight, runID: nil)
        let row = try #require(try db.query("SELECT status_reason, notes_json FROM analyses WHERE parameters_key = ?", [again.key]).first)
        #expect(row["status_reason"] == "", "NULL")
        #expect(row["notes_json"] == #"[{"code":"time-in-bed-from-diary","source":"diary.csv row 2"},{"code":"interval-grid-off-source","intervalSeconds":900,"sourceSeconds":600}]"#)
        #expect(try db.analysis(nightID: OldStore.renamedNight, parametersKey: again.key)?.notes == again.notes)
    }

    @Test("v19-not-worn-in-sleep-period: an analysis stored before reads its minutes without data as stored and none not worn; one stored now keeps both apart")
    func notWornInSleepPeriod() throws {
        let old = try OldStore(before: "v19-not-worn-in-sleep-period")
        defer { Self.remove(old.path) }
        let db = try SleepDatabase(path: old.path)
        let columns = try db.query("SELECT name, type FROM pragma_table_info('night_metrics') WHERE name LIKE '%_in_sleep_period_min'")
        #expect(columns == [["name": "no_data_in_sleep_period_min", "type": "REAL"], ["name": "not_worn_in_sleep_period_min", "type": "REAL"]])
        var a = try #require(try db.analysis(nightID: OldStore.renamedNight, parametersKey: AnalysisParameters().key))
        #expect(a.metrics?.noDataInSleepPeriodMinutes == 4 && a.metrics?.notWornInSleepPeriodMinutes == nil, "NULL: not measured then")
        #expect(try db.query("SELECT not_worn_in_sleep_period_min AS v FROM night_metrics") == [["v": ""]])

        // Derived again now: 2.5 min without data and 12.5 min not worn, each in its column.
        a.metrics?.noDataInSleepPeriodMinutes = 2.5
        a.metrics?.notWornInSleepPeriodMinutes = 12.5
        try db.saveAnalysis(a, nightID: OldStore.renamedNight, runID: nil)
        let stored = try #require(try db.analysis(nightID: OldStore.renamedNight, parametersKey: a.key)?.metrics)
        #expect(stored.noDataInSleepPeriodMinutes == 2.5 && stored.notWornInSleepPeriodMinutes == 12.5)
        #expect(try db.query("""
            SELECT no_data_in_sleep_period_min AS d, not_worn_in_sleep_period_min AS w FROM night_metrics m
            JOIN analyses a ON a.id = m.analysis_id ORDER BY a.parameters_key = ?
            """, [a.key]) == [["d": "4.0", "w": ""], ["d": "2.5", "w": "12.5"]])
        let exported = try #require(try db.exportAnalyses().first { $0.parametersKey == a.key }?.metrics)
        #expect(exported.noDataInSleepPeriodMinutes == 2.5 && exported.notWornInSleepPeriodMinutes == 12.5)
    }

    @Test("stored notes: each shape of their JSON round-trips through the store; a code this sleepsta does not know reads as itself; JSON that does not decode names the analysis")
    func notesRoundTrip() throws {
        let old = try OldStore(before: "v18-analysis-notes")
        defer { Self.remove(old.path) }
        let db = try SleepDatabase(path: old.path)
        var a = try #require(try db.analysis(nightID: OldStore.renamedNight, parametersKey: AnalysisParameters().key))
        a.notes = Self.notesOfEachShape
        try db.saveAnalysis(a, nightID: OldStore.renamedNight, runID: nil)
        #expect(try db.analysis(nightID: OldStore.renamedNight, parametersKey: a.key)?.notes == Self.notesOfEachShape)

        func setNotes(_ json: String) throws {
            try db.pool.write { try $0.execute(sql: "UPDATE analyses SET notes_json = ? WHERE parameters_key = ?", arguments: [json, a.key]) }
        }
        try setNotes(#"[{"code":"a-newer-note","hours":3},{"code":"day-sleeper"}]"#)
        #expect(try db.analysis(nightID: OldStore.renamedNight, parametersKey: a.key)?.notes == [.unrecognised(code: "a-newer-note"), .daySleeper])
        try setNotes(#"[{"code":"not-worn-all-data"}]"#)
        let id = try #require(try db.query("SELECT id FROM analyses WHERE parameters_key = ?", [a.key]).first?["id"])
        #expect { try db.analysis(nightID: OldStore.renamedNight, parametersKey: a.key) } throws: { error in
            // The analyses row's rules name the night and the table (the readers skip the night).
            _ = id
            return (error as? StoredRowError)?.message.contains("table analyses: notes_json does not decode") == true
        }
    }

    /// Notes of each shape the JSON takes (no values, numbers, a date, strings and lists, an enum,
    /// the two fallbacks); that every case codes is SleepCore's test (`NightNoteCodingTests`).
    static let notesOfEachShape: [NightNote] = [
        .daySleeper, .notWornAllData(dataSeconds: 86_400),
        .tooFewValidHours(validHours: 10.254166666666666, nightSeconds: 90_000, requiredHours: 16),
        .ggirClockChange(back: true, day: CivilDate(year: 2024, month: 10, day: 27), shiftAfterSeconds: -3600),
        .noSuchColumn(column: "enmo", available: ["activity", "light"]), .noCountsForAlgorithm(.sadeh),
        .legacyText("as stored; \"quoted\""), .unrecognised(code: "a-newer-note"),
    ]

    static func temporaryPath() -> String { NSTemporaryDirectory() + "sleepsta-steps-\(UUID().uuidString).sqlite" }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

/// A database migrated up to the step before `step`, holding one row per table of that schema,
/// written with the columns the schema then had (as the sleepsta of that version wrote them).
struct OldStore {
    let path = MigrationStepTests.temporaryPath()
    /// The migrations applied before the rows were written (their version prefixes, `v1` … ).
    let applied: Set<String>

    static let renamedNight = "sub_p1_2024-06-14"
    static let counts = WearableEpochs.Counts(x: [1, 4], y: [2, 5], z: [3, 6])
    /// The warnings every version stores (as a JSON array before v17, in rows after).
    static let warnings = ["file ends inside data block 21 (cut short)", "acceleration read as m/s² (--units m/s2)"]
    /// The quality facts every version stores (as JSON before v9, in typed columns after).
    static var quality: QualitySummary {
        var q = QualitySummary()
        q.sampleCount = 3; q.effectiveSampleRateHz = 100; q.coveredSeconds = 2; q.spanSeconds = 2; q.calibration = "applied"
        return q
    }

    init(before step: String) throws {
        let names = SleepDatabase.knownMigrations
        let index = try #require(names.firstIndex(of: step))
        applied = Set(names[..<index].map { name in String(name.prefix { $0 != "-" }) })
        try SleepDatabase.createSchema(path: path, upTo: names[index - 1])
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            try insertRun(db)
            try insertRecording(db)
            try insertNight(db)
            try insertAnalysis(db)
            if had("v4") { try insertEpochFileAndRhythm(db) }
            if had("v5") { try insertFileStat(db) }
        }
    }

    /// Whether migration `version` (`"v8"`) ran before the rows were written.
    func had(_ version: String) -> Bool { applied.contains(version) }

    /// The hash of the `.cwa` recording after the latest migration (v8 names the algorithm).
    var expectedHash: String { had("v8") ? "blake3:aa" : "sha256:aa" }
    var hashColumn: String { had("v8") ? "content_hash" : "content_sha256" }
    var storedHash: String { had("v8") ? "blake3:aa" : "aa" }
    var nightID: String { had("v6") ? Self.renamedNight : "sub_p1.cwa_2024-06-14" }

    func insert(_ db: Database, _ table: String, _ columns: [(String, (any DatabaseValueConvertible)?)]) throws {
        let names = columns.map(\.0).joined(separator: ", ")
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        try db.execute(sql: "INSERT INTO \(table) (\(names)) VALUES (\(marks))",
                       arguments: StatementArguments(columns.map { $0.1?.databaseValue ?? .null }))
    }

    func insertRun(_ db: Database) throws {
        var run: [(String, (any DatabaseValueConvertible)?)] = [
            ("id", 1), ("started_utc", "2024-06-15T06:00:00Z"), ("finished_utc", "2024-06-15T06:01:00Z"), ("tool_version", "0.9"),
            ("command", "run"), ("parameters_json", "{}"), ("files_seen", 3), ("files_ingested", 2), ("files_unchanged", 0),
            ("files_failed", 1), ("status", "ok"),
        ]
        if had("v11") { run.append(("parameters_changed", "--tz")) }
        try insert(db, "runs", run)
        try insert(db, "run_failures", [("run_id", 1), ("path", "bad.csv"), ("error", "unreadable")])
    }

    func insertRecording(_ db: Database) throws {
        var r: [(String, (any DatabaseValueConvertible)?)] = [
            ("id", 1), ("path", "sub/p1.cwa"), (hashColumn, storedHash), ("format", "axivity-cwa"), ("size_bytes", 10),
            ("sample_count", 3), ("effective_rate_hz", 100.0), ("first_utc", 0), ("end_utc", 86_400), ("time_zone", "Europe/Berlin"),
            ("time_zone_source", "option"), ("units", "g"), ("gravity", "included"),
            ("warnings_json", had("v17") ? "[]" : try JSONText.encode(Self.warnings)),
        ]
        if !had("v9") {
            r.append(("quality_json", #"{"sampleCount":3,"effectiveSampleRateHz":100,"coveredSeconds":2,"spanSeconds":2,"gapCount":0,"gapTotalSeconds":0,"longestGapSeconds":0,"duplicateTimestamps":0,"calibration":"applied"}"#))
        }
        if had("v2") { r += [("kind", "wearable-24h"), ("kind_reason", "device")] }
        if had("v15") { r.append(("ggir_scores_clock", "device-as-wall")) }
        if had("v16") { r.append(("milestone_version", 1)) }
        try insert(db, "recordings", r)
        if had("v17") {
            for (ordinal, text) in Self.warnings.enumerated() {
                try insert(db, "recording_warnings", [("recording_id", 1), ("ordinal", ordinal), ("text", text)])
            }
        }
        if had("v9") {
            try insert(db, "recording_quality", [("recording_id", 1), ("sample_count", 3), ("effective_sample_rate_hz", 100.0),
                                                 ("covered_seconds", 2), ("span_seconds", 2), ("calibration", "applied")])
        }
    }

    func nightRow(id: String, recordingID: Int64, label: String?) throws -> [(String, (any DatabaseValueConvertible)?)] {
        [("id", id), ("recording_id", recordingID), ("night_date", "2024-06-14"), ("window_start_utc", 0), ("window_end_utc", 86_400),
         ("time_zone", "Europe/Berlin"), ("offsets_json", try JSONText.encode(UTCOffsetTimeline.fixed(7200))), ("label", label),
         ("data_start_utc", 0), ("data_end_utc", 2), ("coverage_seconds", 2), ("source_resolution_seconds", 1),
         ("pre_bed_survey_json", "[]"), ("post_bed_survey_json", "[]")]
    }

    func insertNight(_ db: Database) throws {
        try insert(db, "nights", try nightRow(id: nightID, recordingID: 1, label: "first"))
        try insert(db, "base_series", [("night_id", nightID), ("start_utc", 0), ("seconds", 2),
                                       ("movement_f32le", BlobCodec.data([Float(0.5), 0.25])),
                                       ("legacy_movement_f32le", BlobCodec.data([Float(1), 2])),
                                       ("sample_counts_u16le", BlobCodec.data([UInt16(3), 65535]))])
        guard had("v2") else { return }
        var e: [(String, (any DatabaseValueConvertible)?)] = [
            ("night_id", nightID), ("start_utc", 0), ("epoch_seconds", 5), ("epochs", 2),
            ("enmo_f32le", BlobCodec.data([Float(0.01), 0.02])), ("anglez_f32le", BlobCodec.data([Float(10), -20])),
            ("mad_f32le", BlobCodec.data([Float(0.001), 0.002])), ("sample_counts_u16le", BlobCodec.data([UInt16(500), 500])),
            ("nonwear_u8", Data([0, 1])),
        ]
        if had("v7") { e.append(("counts_xyz_i32le", BlobCodec.data(Self.counts))) }
        if had("v13") { e.append(("ggir_nonwear_score_u8", Data([0, 3]))) }
        if had("v14") { e.append(("temperature_f32le", BlobCodec.data([Float(20.5), 21]))) }
        try insert(db, "epoch_series", e)
    }

    func insertAnalysis(_ db: Database) throws {
        var a: [(String, (any DatabaseValueConvertible)?)] = [
            ("id", 1), ("night_id", nightID), ("parameters_key", AnalysisParameters().key),
            ("parameters_json", try JSONText.encode(AnalysisParameters())), ("interval_seconds", 600), ("algorithm", "oakley-relative"),
            ("status", "scored"), ("wake_threshold", 0.5), ("run_id", 1),
        ]
        if had("v2") { a += [("kind", "wearable-24h"), ("status_reason", "scored")] }
        try insert(db, "analyses", a)
        try insert(db, "intervals", [("analysis_id", 1), ("night_id", nightID), ("start_utc", 0), ("end_utc", 600), ("interval_seconds", 600),
                                     ("movement_sum", 1.5), ("legacy_movement_sum", 2.0), ("movement_per_minute", 0.15),
                                     ("coverage_seconds", 300), ("state", "S"), ("phase", "deep")])
        try insert(db, "scores", [("analysis_id", 1), ("start_utc", 60), ("epoch_seconds", 60), ("activity", 2.0), ("state", "W")])
        var m: [(String, (any DatabaseValueConvertible)?)] = [
            ("analysis_id", 1), ("night_id", nightID), ("interval_seconds", 600), ("resolution_seconds", 600), ("in_bed_start_utc", 0),
            ("in_bed_end_utc", 600), ("sleep_onset_utc", 60), ("wake_time_utc", 540), ("time_in_bed_min", 10.0),
            ("sleep_period_min", 8.0), ("total_sleep_time_min", 7.0), ("sleep_onset_latency_min", 1.0), ("waso_min", 1.0),
            ("sleep_efficiency_pct", 70.0), ("awakenings", 1), ("light_min", 5.0), ("deep_min", 2.0), ("awake_min", 1.0),
        ]
        if had("v3") { m.append(("no_data_in_sleep_period_min", 4.0)) }
        if had("v19") { m.append(("not_worn_in_sleep_period_min", 3.0)) }
        try insert(db, "night_metrics", m)
        if had("v20") {
            try insert(db, "sleep_periods", [("analysis_id", 1), ("night_id", nightID), ("ordinal", 0), ("kind", "main"), ("source", "data"),
                                             ("in_bed_start_utc", 0), ("in_bed_end_utc", 600), ("sleep_onset_utc", 60), ("wake_time_utc", 540),
                                             ("sleep_period_min", 8.0), ("total_sleep_time_min", 7.0), ("waso_min", 1.0), ("awakenings", 1),
                                             ("sleep_efficiency_pct", 70.0)])
            try insert(db, "day_minutes", [("analysis_id", 1), ("night_id", nightID), ("start_utc", 0),
                                           ("classes_u8", Data([1] + Array(repeating: 5, count: 8) + Array(repeating: 1, count: 1431)))])
        }
        if had("v21") {
            try insert(db, "analysis_diary_periods", [("analysis_id", 1), ("ordinal", 0), ("kind", "nap"), ("start_utc", 700), ("end_utc", 900),
                                                      ("source", "diary.csv row 3")])
        }
        if had("v10") {
            try insert(db, "analysis_guides", [("analysis_id", 1), ("start_utc", 0), ("end_utc", 600), ("source", "diary.csv row 2")])
        }
    }

    /// An epoch file's recording and night (v4), and the `.cwa`'s rhythm.
    func insertEpochFileAndRhythm(_ db: Database) throws {
        var r: [(String, (any DatabaseValueConvertible)?)] = [
            ("id", 2), ("path", "e.csv"), (hashColumn, had("v8") ? "blake3:ee" : "ee"), ("format", "actigraph-counts"),
            ("size_bytes", 5), ("sample_count", 2), ("effective_rate_hz", 0.0167), ("time_zone_source", "option"), ("units", "counts"),
            ("gravity", "unknown"), ("warnings_json", "[]"), ("kind", "epoch-file"), ("kind_reason", "epochs"),
        ]
        if !had("v9") { r.append(("quality_json", "{}")) }
        if had("v16") { r.append(("milestone_version", 1)) }
        try insert(db, "recordings", r)
        try insert(db, "nights", try nightRow(id: "e_2024-06-14", recordingID: 2, label: nil))
        try insert(db, "base_series", [("night_id", "e_2024-06-14"), ("start_utc", 0), ("seconds", 0), ("movement_f32le", Data()),
                                       ("legacy_movement_f32le", Data()), ("sample_counts_u16le", Data())])
        try insert(db, "epoch_file_series", [
            ("night_id", "e_2024-06-14"), ("format", "actigraph-counts"), ("start_utc", 0), ("epoch_seconds", 60), ("epochs", 2),
            ("columns_json", #"[{"name":"activity","sourceName":"Activity","unit":"counts"}]"#),
            ("values_f64le", BlobCodec.data([12.0, 0])), ("file_labels_u8", BlobCodec.labels([.wake, .sleep])),
            ("file_labels_name", "Sleep/Wake"),
        ])
        try insert(db, "recording_rhythm", [("recording_id", 1), ("source", "enmo"), ("epoch_seconds", 60), ("days", 7.0),
                                            ("status", "computed"), ("activity_f32le", BlobCodec.data([Float(1), 2])), ("start_utc", 0)])
    }

    func insertFileStat(_ db: Database) throws {
        try insert(db, "file_stats", [("path", "sub/p1.cwa"), (hashColumn, storedHash), ("device", 1), ("inode", 42), ("size_bytes", 10),
                                      ("mtime_ns", 100), ("ctime_ns", 100), ("verified_ns", 200)])
    }
}
