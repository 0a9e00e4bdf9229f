import Foundation
import GRDB
import Testing
import SleepCore
import SleepStore

@Suite("SQLite store")
struct SleepDatabaseTests {
    let path = NSTemporaryDirectory() + "sleepsta-store-\(UUID().uuidString).sqlite"

    func recording(_ sha: String, path: String = "a.csv") -> StoredRecording {
        StoredRecording(path: path, contentHash: sha, format: .samples(.rawCSV), sizeBytes: 10, sampleCount: 3, effectiveSampleRateHz: 1,
                        firstUTC: 0, endUTC: 3, timeZone: "Europe/Berlin", timeZoneSource: .option, units: "g", gravity: .removed,
                        quality: QualitySummary(), warnings: [])
    }

    func night(_ id: String) -> StoredNight {
        let s = SecondSeries(startSecond: 100, movement: [0.5, .nan, 0.25], legacyMovement: [1, .nan, 2], sampleCounts: [3, 0, 65535])
        return StoredNight(id: id, window: NightWindow(date: CivilDate(year: 2024, month: 6, day: 14), startUTC: 0, endUTC: 86_400),
                           timeline: .fixed(7200), timeZone: "Europe/Berlin", label: "x",
                           preBedSurvey: [SurveyItem(question: "q", answer: "<a>")], postBedSurvey: [], series: s)
    }

    @Test("a night and its base series round-trip bit for bit")
    func roundTrip() throws {
        let db = try SleepDatabase(path: path)
        try db.replaceRecording(recording("h1"), nights: [night("n1")], analyses: [:], runID: nil)
        let back = try #require(try db.night(id: "n1"))
        #expect(back.series.movement[0] == 0.5 && back.series.movement[1].isNaN && back.series.movement[2] == 0.25)
        #expect(back.series.sampleCounts == [3, 0, 65535])
        #expect(back.timeline == .fixed(7200))
        #expect(back.preBedSurvey == [SurveyItem(question: "q", answer: "<a>")])
        #expect(try db.recordingID(contentHash: "h1") != nil)
    }

    @Test("recordingsWithRhythm(paths:) reads only the recordings asked for, in path order, across chunks of bound parameters")
    func recordingsByPath() throws {
        let db = try SleepDatabase(path: path)
        for i in 0..<1203 { try db.replaceRecording(recording("h\(i)", path: String(format: "p%04d.csv", i)), nights: [], analyses: [:], runID: nil) }
        #expect(try db.recordingsWithRhythm().count == 1203)
        let wanted: Set<String> = Set((0..<1203).filter { $0 % 2 == 1 }.map { String(format: "p%04d.csv", $0) }).union(["missing.csv"])
        let got = try db.recordingsWithRhythm(paths: wanted).map(\.recording.path)
        #expect(got.count == 601 && got == got.sorted() && Set(got) == wanted.subtracting(["missing.csv"]))
        #expect(try db.recordingsWithRhythm(paths: []).isEmpty)
    }

    @Test("a recording's warnings are stored in order with it, read back by every reader, and go with it")
    func warningsRoundTrip() throws {
        let db = try SleepDatabase(path: path)
        var cut = recording("h1", path: "a.csv")
        cut.warnings = ["file ends inside its last row: that incomplete row was dropped", "no time zone", "no time zone"]
        try db.replaceRecording(cut, nights: [night("n1")], analyses: [:], runID: nil)
        try db.replaceRecording(recording("h2", path: "b.csv"), nights: [], analyses: [:], runID: nil)
        #expect(try db.recording(contentHash: "h1")?.recording.warnings == cut.warnings)
        #expect(try db.recording(contentHash: "h2")?.recording.warnings == [])
        #expect(try db.recording(forNight: "n1")?.warnings == cut.warnings)
        #expect(try db.recordingsWithRhythm().map(\.recording.warnings) == [cut.warnings, []])
        #expect(try db.recordingsWithRhythm(paths: ["b.csv", "a.csv"]).map(\.recording.warnings) == [cut.warnings, []])
        #expect(try db.query("SELECT DISTINCT warnings_json FROM recordings") == [["warnings_json": "[]"]])
        // The file changed: its new reading's warnings replace the old ones.
        var again = recording("h3", path: "a.csv")
        again.warnings = ["includes gravity"]
        try db.replaceRecording(again, nights: [], analyses: [:], runID: nil)
        #expect(try db.query("SELECT text FROM recording_warnings ORDER BY recording_id, ordinal").map { $0["text"]! } == ["includes gravity"])
        try db.deleteRecording(path: "a.csv")
        #expect(try db.query("SELECT COUNT(*) AS n FROM recording_warnings") == [["n": "0"]])
    }

    @Test("stored names come back typed; a name this version does not know is refused naming its column and value")
    func storedNamesTyped() throws {
        let db = try SleepDatabase(path: path)
        var r = recording("h1", path: "a.cwa")
        r.format = .samples(.axivityCWA); r.kind = .wearable24h; r.gravity = .included; r.timeZoneSource = .data
        try db.replaceRecording(r, nights: [night("n1")], analyses: [:], runID: nil)
        let back = try #require(try db.recording(contentHash: "h1")?.recording)
        #expect(back.format == .samples(.axivityCWA) && back.kind == .wearable24h && back.gravity == .included && back.timeZoneSource == .data)
        #expect(try db.nightCatalog().map(\.recordingFormat) == [.samples(.axivityCWA)])
        for (column, value) in [("kind", "wearable-48h"), ("format", "axivity-cwz"), ("gravity", "sideways"), ("time_zone_source", "guess")] {
            let queue = try DatabaseQueue(path: path)
            try queue.write { d in
                try d.execute(sql: "UPDATE recordings SET \(column) = ?", arguments: [value])
            }
            try queue.close()
            let error = #expect(throws: (any Error).self) { try db.recording(contentHash: "h1") }
            let text = String(describing: error)
            #expect(text.contains(column) && text.contains(value), "\(text)")
            if column == "kind" { #expect(throws: (any Error).self) { try db.night(id: "n1") } }
            try DatabaseQueue(path: path).write { d in try d.execute(sql: "UPDATE recordings SET \(column) = ?", arguments: [Self.stored(column, r)]) }
        }
        #expect(try db.recording(forNight: "n1") == back)
    }

    static func stored(_ column: String, _ r: StoredRecording) -> String {
        switch column {
        case "kind": r.kind.rawValue
        case "format": r.format.rawValue
        case "gravity": r.gravity.rawValue
        default: r.timeZoneSource.rawValue
        }
    }

    @Test("an analysis round-trips, and saving it again replaces it")
    func analysisRoundTrip() throws {
        let db = try SleepDatabase(path: path)
        try db.replaceRecording(recording("h1"), nights: [night("n1")], analyses: [:], runID: nil)
        let iv = IntervalMovement(startUTC: 0, endUTC: 600, movementSum: 1.5, legacyMovementSum: 2, coverageSeconds: 300)
        let m = NightSummaryMetrics(resolutionSeconds: 600, inBedStartUTC: 0, inBedEndUTC: 600, sleepOnsetUTC: 60, wakeTimeUTC: 540,
                                    timeInBedMinutes: 10, sleepPeriodMinutes: 8, totalSleepTimeMinutes: 7, sleepOnsetLatencyMinutes: 1,
                                    wakeAfterSleepOnsetMinutes: 1, sleepEfficiencyPercent: 70, awakenings: 1, lightMinutes: 5,
                                    deepMinutes: 2, awakeMinutes: 1)
        let a = NightAnalysis(status: .scored, parameters: AnalysisParameters(), intervals: [AnalyzedInterval(movement: iv, state: .sleep, phase: .deep)],
                              epochs: [ScoredEpoch(startUTC: 0, activity: .nan, state: nil), ScoredEpoch(startUTC: 60, activity: 2, state: .wake)],
                              wakeThreshold: 0.5, metrics: m)
        try db.saveAnalysis(a, nightID: "n1", runID: nil)
        try db.saveAnalysis(a, nightID: "n1", runID: nil)
        let back = try #require(try db.analysis(nightID: "n1", parametersKey: AnalysisParameters().key))
        #expect(back.intervals == a.intervals)
        #expect(back.metrics == m)
        #expect(back.epochs[1] == a.epochs[1] && back.epochs[0].activity.isNaN && back.epochs[0].state == nil)
        #expect(try db.rowCounts()["analyses"] == 1)
        #expect(try db.nightIDsMissingAnalysis(parametersKey: AnalysisParameters().key).isEmpty)
        var other = AnalysisParameters(); other.interval = .fifteenMinutes
        #expect(try db.nightIDsMissingAnalysis(parametersKey: other.key) == ["n1"])
    }

    @Test("a failing write leaves nothing behind (one transaction per recording)")
    func atomicity() throws {
        let db = try SleepDatabase(path: path)
        // Two nights with the same id violate the primary key halfway through the write.
        #expect(throws: (any Error).self) {
            try db.replaceRecording(recording("h2"), nights: [night("dup"), night("dup")], analyses: [:], runID: nil)
        }
        let counts = try db.rowCounts()
        #expect(counts["recordings"] == 0 && counts["nights"] == 0 && counts["base_series"] == 0)
    }

    @Test("a changed file replaces its earlier recording and nights")
    func replaceByPath() throws {
        let db = try SleepDatabase(path: path)
        try db.replaceRecording(recording("old"), nights: [night("n1")], analyses: [:], runID: nil)
        try db.replaceRecording(recording("new"), nights: [night("n1")], analyses: [:], runID: nil)
        #expect(try db.recordingID(contentHash: "old") == nil)
        #expect(try db.rowCounts()["nights"] == 1)
    }

    @Test("a database from a newer sleepsta is refused, untouched")
    func newerSchema() throws {
        do {
            let db = try SleepDatabase(path: path)
            _ = db
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) { _ = try SleepDatabase(path: path) }
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(before == after)
    }
}
