import Foundation
import GRDB
import Testing
import SleepCore
import SleepStore

/// Issue 14 item 13: night ids drop `.gt3x`, `.cwa`, `.bin`; migration v6 renames stored nights.
@Suite("Migration v6: night ids without device extensions")
struct NightIDMigrationTests {
    let path = NSTemporaryDirectory() + "sleepsta-v6-\(UUID().uuidString).sqlite"

    func recording(_ sha: String, path: String) -> StoredRecording {
        StoredRecording(path: path, contentHash: sha, format: .samples(.axivityCWA), sizeBytes: 10, sampleCount: 3, effectiveSampleRateHz: 1,
                        firstUTC: 0, endUTC: 3, timeZone: "Europe/Berlin", timeZoneSource: .option, units: "g", gravity: .included,
                        quality: QualitySummary(), warnings: [])
    }

    func night(_ id: String) -> StoredNight {
        let s = SecondSeries(startSecond: 100, movement: [0.5, 0.25], legacyMovement: [1, 2], sampleCounts: [3, 3])
        return StoredNight(id: id, window: NightWindow(date: CivilDate(year: 2024, month: 6, day: 14), startUTC: 0, endUTC: 86_400),
                           timeline: .fixed(7200), timeZone: "Europe/Berlin", label: nil, preBedSurvey: [], postBedSurvey: [], series: s)
    }

    func analysis() -> NightAnalysis {
        let iv = IntervalMovement(startUTC: 0, endUTC: 600, movementSum: 1.5, legacyMovementSum: 2, coverageSeconds: 300)
        let m = NightSummaryMetrics(resolutionSeconds: 600, inBedStartUTC: 0, inBedEndUTC: 600, sleepOnsetUTC: 60, wakeTimeUTC: 540,
                                    timeInBedMinutes: 10, sleepPeriodMinutes: 8, totalSleepTimeMinutes: 7, sleepOnsetLatencyMinutes: 1,
                                    wakeAfterSleepOnsetMinutes: 1, sleepEfficiencyPercent: 70, awakenings: 1, lightMinutes: 5,
                                    deepMinutes: 2, awakeMinutes: 1)
        return NightAnalysis(status: .scored, parameters: AnalysisParameters(), intervals: [AnalyzedInterval(movement: iv, state: .sleep, phase: .deep)],
                             epochs: [ScoredEpoch(startUTC: 60, activity: 2, state: .wake)], wakeThreshold: 0.5, metrics: m)
    }

    @Test("an older database's .cwa/.gt3x/.bin night ids lose the extension in every table; a clash keeps the old id")
    func renamesStoredNights() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        // What an older sleepsta stored: the current schema without migration v6, ids with extensions.
        do {
            let db = try SleepDatabase(path: path)
            let a = analysis()
            try db.replaceRecording(recording("h1", path: "sub/p1.cwa"), nights: [night("sub_p1.cwa_2024-06-14"), night("sub_p1.cwa_2024-06-14-2")],
                                    analyses: ["sub_p1.cwa_2024-06-14": a, "sub_p1.cwa_2024-06-14-2": a], runID: nil)
            try db.replaceRecording(recording("h2", path: "w.GT3X.gz"), nights: [night("w.GT3X.gz_2024-06-14")], analyses: [:], runID: nil)
            try db.replaceRecording(recording("h3", path: "g.bin"), nights: [night("g.bin_2024-06-14")], analyses: [:], runID: nil)
            // g.csv already has the id g.bin's night would get.
            try db.replaceRecording(recording("h4", path: "g.csv"), nights: [night("g_2024-06-14")], analyses: [:], runID: nil)
            try db.replaceRecording(recording("h5", path: "plain.csv"), nights: [night("plain_2024-06-14")], analyses: [:], runID: nil)
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v6-night-ids-without-device-extensions'") }
        try queue.close()

        let db = try SleepDatabase(path: path)
        #expect(try db.appliedMigrations().contains("v6-night-ids-without-device-extensions"))
        #expect(try db.nightIDs().sorted() == ["g.bin_2024-06-14", "g_2024-06-14", "plain_2024-06-14", "sub_p1_2024-06-14",
                                                "sub_p1_2024-06-14-2", "w_2024-06-14"])
        // Every table follows: the night's series and its analysis are found under the new id.
        #expect(try db.night(id: "sub_p1_2024-06-14")?.series.movement == [0.5, 0.25])
        #expect(try db.analysis(nightID: "sub_p1_2024-06-14", parametersKey: AnalysisParameters().key)?.metrics?.awakenings == 1)
        for table in ["base_series", "analyses", "intervals", "night_metrics"] {
            let stale = try db.query("SELECT COUNT(*) AS n FROM \(table) WHERE night_id LIKE '%.cwa%'")
            #expect(stale.first?["n"] == "0", "\(table)")
        }
        #expect(try db.query("PRAGMA foreign_key_check").isEmpty)
        #expect(try db.integrityCheck() == "ok")
    }

    @Test("the renaming rule: the extension right before the date goes, nothing else")
    func rule() {
        #expect(NightIDRenaming.renamed("p1.cwa_2024-06-14", recordingPath: "p1.cwa") == "p1_2024-06-14")
        #expect(NightIDRenaming.renamed("a.cwa.x.bin_2024-06-14-3", recordingPath: "a.cwa.x.bin") == "a.cwa.x_2024-06-14-3")
        #expect(NightIDRenaming.renamed("p1_2024-06-14", recordingPath: "p1.csv") == nil)
        #expect(NightIDRenaming.renamed("p1_2024-06-14", recordingPath: "p1.cwa") == nil)
    }
}
