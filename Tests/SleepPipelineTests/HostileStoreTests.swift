import Foundation
import GRDB
import Logging
import Testing
import SleepCore
import SleepPipeline
import SleepReport
import SleepStore

/// Values read from a database are input too: night ids never become paths outside the reports
/// folder, shards with views or foreign names are refused, a row that cannot be read costs its night.
@Suite("Hostile stores and shards", .serialized)
struct HostileStoreTests {
    /// Renames a night everywhere its id is stored (foreign keys off, as a hostile writer would).
    static func renameNight(db path: String, from old: String, to new: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            for t in tables {
                let columns = try db.columns(in: t).map(\.name)
                for c in ["id", "night_id"] where columns.contains(c) && (c == "night_id" || t == "nights") {
                    try db.execute(sql: "UPDATE \"\(t)\" SET \"\(c)\" = ? WHERE \"\(c)\" = ?", arguments: [new, old])
                }
            }
        }
        try queue.close()
    }

    @Test("night ids: the naming code's own pass, names with a path, dots or foreign characters do not")
    func nightIDs() {
        for good in ["phone-1hz-alex_2024-03-30", "participant_2024-03-30-2", "a.b_c_2024-06-14"] { #expect(NightNaming.isNightID(good), "\(good)") }
        for bad in ["../../../ESCAPED-night_2024-06-14", "..", "a/b_2024-06-14", ".hidden_2024-06-14", "x_2024-13-40", "x_2024-06-14-", "_2024-06-14",
                    "x_2024-06-14/..", "x\u{202E}_2024-06-14", ""] {
            #expect(!NightNaming.isNightID(bad), "\(bad)")
        }
        #expect(Shard(parsing: "1/1000000000000") == nil && Shard(parsing: "3/8") != nil)
    }

    @Test("a reports path through a symbolic link out of the reports folder, or with .., is refused; inside it is kept")
    func reportPaths() throws {
        let w = Workspace()
        let outside = w.root + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: w.reports, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: w.reports + "/linked_2024-06-14", withDestinationPath: outside)
        #expect(throws: ReportPaths.Outside.self) { try ReportPaths.path("linked_2024-06-14", in: w.reports) }
        #expect(throws: ReportPaths.Outside.self) { try ReportPaths.path("../outside", in: w.reports) }
        #expect(throws: ReportPaths.Outside.self) { try ReportPaths.path("recordings/..", in: w.reports) }
        #expect(try ReportPaths.path("recordings/alex", in: w.reports) == w.reports + "/recordings/alex")
        #expect(try ReportPaths.path("alex_2024-06-14", in: w.reports) == w.reports + "/alex_2024-06-14")
    }

    @Test("render: a night whose stored id would be a path outside the reports folder is named and skipped; the others are rendered; --prune never deletes outside")
    func renderSkipsForeignNightIDs() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: 1_718_398_800))
        w.write("other.csv", Workspace.phoneNight(startUTC: 1_718_398_800 + 86_400))
        _ = try w.run()
        let victim = w.root + "/victim"
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: victim + "/precious.txt", contents: Data("keep".utf8))
        try Self.renameNight(db: w.db, from: "phone_2024-06-14", to: "../victim")
        let reports = w.root + "/Rendered"
        let s = try ReportRender(databasePath: w.db, reportsDirectory: reports).run()
        #expect(s.skipped.count == 1 && s.skipped[0].contains("../victim"), "\(s.skipped)")
        #expect(FileManager.default.fileExists(atPath: reports + "/other_2024-06-15/index.html"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim) == ["precious.txt"])

        // The file is gone and --prune removes its recording: the hostile id is not deleted as a path.
        try FileManager.default.removeItem(atPath: w.data + "/phone.csv")
        _ = try w.run { $0.prune = true }
        #expect(FileManager.default.fileExists(atPath: victim + "/precious.txt"))
    }

    @Test("render: a night whose stored row cannot be read is named, the others are rendered")
    func renderSkipsUnreadableRows() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: 1_718_398_800))
        w.write("other.csv", Workspace.phoneNight(startUTC: 1_718_398_800 + 86_400))
        _ = try w.run()
        let queue = try DatabaseQueue(path: w.db)
        try queue.write { try $0.execute(sql: "UPDATE nights SET pre_bed_survey_json = '{not json' WHERE id = 'phone_2024-06-14'") }
        try queue.close()
        let reports = w.root + "/Rendered"
        let s = try ReportRender(databasePath: w.db, reportsDirectory: reports).run()
        #expect(s.skipped.count == 1 && s.skipped[0].contains("phone_2024-06-14") && s.skipped[0].contains("cannot be read"), "\(s.skipped)")
        #expect(FileManager.default.fileExists(atPath: reports + "/other_2024-06-15/index.html"))
        #expect(!FileManager.default.fileExists(atPath: reports + "/phone_2024-06-14/index.html"))
    }

    @Test("merge refuses a shard holding a night id that is a path, or a view, before merging anything")
    func mergeRefusesForeignShards() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: 1_718_398_800))
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        func shard(_ name: String) throws -> String {
            var c = PipelineConfiguration(dataDirectory: w.data, databasePath: w.root + "/\(name).sqlite", reportsDirectory: w.root + "/r-\(name)",
                                          parameters: AnalysisParameters(), timeZoneIdentifier: "Europe/Berlin")
            c.shard = Shard(index: 1, count: 1)
            _ = try Pipeline(configuration: c, logger: logger).run()
            return c.databasePath
        }
        let escaping = try shard("escaping")
        try Self.renameNight(db: escaping, from: "phone_2024-06-14", to: "../../../ESCAPED-night_2024-06-14")
        #expect { try ShardMergeRun(databasePath: w.root + "/all.sqlite", shardPaths: [escaping]).run() } throws: { e in
            "\(e)".contains("not one sleepsta makes") && "\(e)".contains("nothing was merged")
        }
        let viewing = try shard("viewing")
        let queue = try DatabaseQueue(path: viewing)
        try queue.write { try $0.execute(sql: "CREATE VIEW endless AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r") }
        try queue.close()
        #expect { try ShardMergeRun(databasePath: w.root + "/all2.sqlite", shardPaths: [viewing]).run() } throws: { e in
            "\(e)".contains("holds views") && "\(e)".contains("endless")
        }
    }
}
