import Foundation
import GRDB
import Testing
import SleepCore
import SleepStore

/// Migration v21: the diary's other periods given to an analysis are stored with it, read back as
/// the guides a recording read again derives its diary-guided analyses with, merged with their
/// analyses, and refused (never a trap) where a row holds what no sleepsta writes.
@Suite("The diary's other periods in the store")
struct DiaryPeriodStoreTests {
    typealias Days = SleepPeriodStoreTests
    let path = NSTemporaryDirectory() + "sleepsta-diary-periods-\(UUID().uuidString).sqlite"

    static var analysis: NightAnalysis {
        var a = Days.analysis
        a.parameters.diaryDigest = "d1"
        let w = Days.windowStart
        a.guide = TimeInBedGuide(startUTC: w + 10 * 3600, endUTC: w + 13 * 3600, source: "the sleep diary (diary.csv row 2)")
        a.diaryPeriods = [
            DiaryPeriodGuide(kind: .nap, startUTC: w + 3 * 3600, endUTC: w + 3 * 3600 + 2400, source: "the sleep diary (diary.csv row 4)"),
            DiaryPeriodGuide(kind: .sleep, startUTC: w + 15 * 3600, endUTC: w + 19 * 3600, source: "the sleep diary (diary.csv row 3)"),
        ]
        return a
    }

    func stored(_ a: NightAnalysis = Self.analysis, at path: String? = nil) throws -> SleepDatabase {
        let db = try SleepDatabase(path: path ?? self.path)
        _ = try db.replaceRecording(Days.recording("h1", path: "p1.csv"), nights: [Days.night("p1_2024-06-14")],
                                    analyses: ["p1_2024-06-14": a], runID: nil)
        return db
    }

    @Test("the main time in bed and the other periods come back as the night's guides, under the night's date and the diary's digest")
    func roundTrip() throws {
        let db = try stored()
        let guides = try db.storedGuides(recordingPath: "p1.csv", contentHash: "h1")
        let g = try #require(guides[SleepDatabase.guideKey(nightDate: "2024-06-14", diaryDigest: "d1")])
        #expect(g.main == Self.analysis.guide)
        #expect(g.others == Self.analysis.diaryPeriods)
        #expect(try db.query("SELECT ordinal, kind FROM analysis_diary_periods ORDER BY ordinal") == [
            ["ordinal": "0", "kind": "nap"], ["ordinal": "1", "kind": "sleep"],
        ])
        // A day the diary names only naps: no main time in bed, its naps all the same.
        var naps = Self.analysis
        naps.guide = nil
        try db.saveAnalysis(naps, nightID: "p1_2024-06-14", runID: nil)
        let only = try db.storedGuides(recordingPath: "p1.csv", contentHash: "h1")[SleepDatabase.guideKey(nightDate: "2024-06-14", diaryDigest: "d1")]
        #expect(only?.main == nil && only?.others == Self.analysis.diaryPeriods)
    }

    @Test("a stored diary period no sleepsta writes is refused when read and when merged, naming the table and row",
          arguments: [("UPDATE analysis_diary_periods SET kind = 'siesta' WHERE ordinal = 1", "kind 'siesta'"),
                      ("UPDATE analysis_diary_periods SET end_utc = start_utc - 1 WHERE ordinal = 0", "is not a diary period"),
                      ("UPDATE analysis_diary_periods SET start_utc = 'noon' WHERE ordinal = 0", "start_utc")])
    func hostileRows(sql: String, expected: String) throws {
        let db = try stored()
        try db.pool.write { try $0.execute(sql: sql) }
        #expect { try db.storedGuides(recordingPath: "p1.csv", contentHash: "h1") } throws: { e in
            "\(e)".contains("analysis_diary_periods") && "\(e)".contains(expected)
        }
        let root = NSTemporaryDirectory() + "sleepsta-diary-merge-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let target = try SleepDatabase(path: root + "/all.sqlite")
        let run = RunRecord(startedUTC: "2024-06-15T06:00:00Z", finishedUTC: "2024-06-15T06:00:00Z", toolVersion: "test", command: "merge",
                            parametersJSON: "{}", status: "ok")
        #expect { try target.mergeShards([path], run: run) } throws: { e in
            "\(e)".contains("shard \(path): table analysis_diary_periods, row (analysis_id") && "\(e)".contains(expected)
        }
    }

    @Test("merge copies the diary's periods with their analyses")
    func merge() throws {
        let root = NSTemporaryDirectory() + "sleepsta-diary-merge-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try stored(at: root + "/shard.sqlite")
        let target = try SleepDatabase(path: root + "/all.sqlite")
        let run = RunRecord(startedUTC: "2024-06-15T06:00:00Z", finishedUTC: "2024-06-15T06:00:00Z", toolVersion: "test", command: "merge",
                            parametersJSON: "{}", status: "ok")
        let counts = try target.mergeShards([root + "/shard.sqlite"], run: run)
        #expect(counts["analysis_diary_periods"]?.inserted == 2)
        let g = try target.storedGuides(recordingPath: "p1.csv", contentHash: "h1")[SleepDatabase.guideKey(nightDate: "2024-06-14", diaryDigest: "d1")]
        #expect(g?.others == Self.analysis.diaryPeriods && g?.main == Self.analysis.guide)
    }
}
