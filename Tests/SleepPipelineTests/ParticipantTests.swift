import Foundation
import Testing
import SleepReport
import SleepCore
import SleepIngest
import SleepPipeline
import SleepStore

/// Participants: the rule (`--participants`), the index's participant table and pages, the night
/// pages' previous / next links within a participant, and `export --what participants`.
@Suite("Participants", .serialized)
struct ParticipantTests {
    @Test("the rule: each file, a folder level, or a table (most specific row; a file no row names is its own)")
    func rule() throws {
        #expect(ParticipantRule.file.participant(recordingPath: "p07/night1.cwa") == Participant(id: "p07/night1.cwa"))
        #expect(ParticipantRule.parse("folder")?.participant(recordingPath: "p07/night1.cwa") == Participant(id: "p07"))
        #expect(ParticipantRule.parse("folder:2")?.participant(recordingPath: "site-a/p07/night1.cwa") == Participant(id: "p07"))
        #expect(ParticipantRule.parse("folder")?.participant(recordingPath: "loose.csv") == Participant(id: "loose.csv"))
        #expect(ParticipantRule.parse("folders") == nil && ParticipantRule.parse("folder:0") == nil)
        let folder = Workspace()
        let csv = folder.root + "/participants.csv"
        try Data("id,group,path\nP1,control,site-a\nP2,control,site-a/special.cwa\n\"P 3, x\",patient,other.csv\n".utf8).write(to: URL(fileURLWithPath: csv))
        let table = ParticipantRule.table(try ParticipantsTable.read(path: csv))
        #expect(table.participant(recordingPath: "site-a/night1.cwa") == Participant(id: "P1", group: "control"))
        #expect(table.participant(recordingPath: "site-a/special.cwa") == Participant(id: "P2", group: "control"))
        #expect(table.participant(recordingPath: "deep/other.csv") == Participant(id: "P 3, x", group: "patient"))
        #expect(table.participant(recordingPath: "nobody.csv") == Participant(id: "nobody.csv"))
        try Data("name,file\nx,y\n".utf8).write(to: URL(fileURLWithPath: csv))
        #expect(throws: IngestError.self) { try ParticipantsTable.read(path: csv) }
        try Data("id,path\n,y\n".utf8).write(to: URL(fileURLWithPath: csv))
        do { _ = try ParticipantsTable.read(path: csv); Issue.record("an empty id was accepted") } catch { #expect(error.line == 2) }
    }

    @Test("phone nights in two participant folders: one table row each, pages, and previous/next never leave the participant")
    func phoneFolders() throws {
        let w = Workspace()
        let day: Int64 = 86_400
        try FileManager.default.createDirectory(atPath: w.data + "/alex", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: w.data + "/sam", withIntermediateDirectories: true)
        w.write("alex/n1.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start))
        w.write("alex/n2.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start + 2 * day))
        w.write("sam/n1.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start + day))
        w.write("sam/n2.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start + 3 * day))
        let s = try w.run(tz: "Europe/Berlin") { $0.participants = .folder(level: 1); $0.participantsOption = "folder" }
        #expect(s.failures.isEmpty)
        let index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(index.contains("Participants (2)") && index.contains("participants/alex/index.html") && index.contains("participants/sam/index.html"))
        #expect(FileManager.default.fileExists(atPath: w.reports + "/participants/alex/index.html"))
        try Self.expectNeighboursWithinParticipants(reports: w.reports, db: w.db, rule: .folder(level: 1))
        // The export: one row per participant, the mean of its exported nights.
        try Self.expectExportIsMeanOfNights(db: w.db, rule: nil)
    }

    @Test("a sleep two recordings of one participant measured is flagged overlaps-other-recording in the nights export; another participant's night, or the participant's other nights, are not")
    func overlapFlag() throws {
        let w = Workspace()
        let day: Int64 = 86_400
        for folder in ["alex", "sam"] { try FileManager.default.createDirectory(atPath: w.data + "/" + folder, withIntermediateDirectories: true) }
        // Two phones on alex's bed the same night, the second started 40 min later; sam the same
        // night 10 min later (not the same content, which would be stored once), apart.
        w.write("alex/phone-a.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start))
        w.write("alex/phone-b.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start + 2400, hours: 7))
        w.write("alex/later.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start + 2 * day))
        w.write("sam/phone.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start + 600))
        let s = try w.run(tz: "Europe/Berlin") { $0.participants = .folder(level: 1); $0.participantsOption = "folder" }
        #expect(s.failures.isEmpty)
        try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .nights, outputPath: w.root + "/n.csv")).run()
        let rows = TestCSV.rows(try String(contentsOfFile: w.root + "/n.csv", encoding: .utf8))
        let recording = try #require(rows[0].firstIndex(of: "recording")), flags = try #require(rows[0].firstIndex(of: "flags"))
        let status = try #require(rows[0].firstIndex(of: "status"))
        var byRecording: [String: [String]] = [:]
        for row in rows.dropFirst() where row[status] == "scored" { byRecording[row[recording], default: []].append(row[flags]) }
        #expect(byRecording.count == 4, "\(byRecording)")
        for (path, cells) in byRecording {
            let overlapped = path.hasPrefix("alex/phone-")
            #expect(cells.allSatisfy { $0.split(separator: ";").contains("overlaps-other-recording") == overlapped }, "\(path): \(cells)")
        }
        // Each file its own participant (the rule's default): nothing is measured twice.
        var c = ExportConfiguration(databasePath: w.db, table: .nights, outputPath: w.root + "/n-file.csv")
        c.participants = .file
        try Exporter(configuration: c).run()
        #expect(!(try String(contentsOfFile: w.root + "/n-file.csv", encoding: .utf8)).contains("overlaps-other-recording"))
    }

    @Test("the shared epoch files: every night page's previous/next stays within its participant; export --what participants = the mean of each participant's exported nights",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func sharedEpochFiles() throws {
        let w = try EpochFilePipelineTests.workspaceWithSharedEpochFiles()
        _ = try w.run(tz: nil) { $0.participants = .folder(level: 1); $0.participantsOption = "folder" }
        try Self.expectNeighboursWithinParticipants(reports: w.reports, db: w.db, rule: .folder(level: 1))
        let rows = try Self.expectExportIsMeanOfNights(db: w.db, rule: nil)
        #expect(rows >= 10)
        // The same store under the file rule: one participant per recording.
        let perFile = try Self.expectExportIsMeanOfNights(db: w.db, rule: .file)
        #expect(perFile >= rows)
    }

    @Test("the overview covers every night with enough data, by participant, in charts of 42 nights that break between participants")
    func overviewPaging() {
        let tl = UTCOffsetTimeline(initialOffsetSeconds: 0, transitions: [])
        func rows(_ id: String, _ n: Int, status: NightStatus = .scored) -> [IndexRow] {
            (0..<n).map { k in
                let date = CivilDate(daysSinceEpoch: Int64(20_000 + k))
                return IndexRow(nightID: "\(id)_\(date)", date: date, recordingPath: id + ".csv", timeline: tl,
                                analysis: NightAnalysis(status: status, parameters: AnalysisParameters(), intervals: [], epochs: [],
                                                        wakeThreshold: nil, metrics: nil),
                                participant: Participant(id: id))
            }
        }
        // Given in date order across participants (as the store lists them), one night too short.
        let all = (rows("c", 50) + rows("a", 30) + rows("b", 20) + rows("a-short", 1, status: .insufficientData)).shuffled()
        let charts = ReportBuilder.overviewCharts(all, participantInLabel: true)
        #expect(charts.map(\.rows.count) == [30, 20, 42, 8], "a: 30 fit; b would overflow a's chart; c runs over two")
        #expect(charts.map(\.title) == ["Nights 1–30 of 100", "Nights 31–50 of 100", "Nights 51–92 of 100", "Nights 93–100 of 100"])
        #expect(charts[0].rows.allSatisfy { $0.label.hasPrefix("a  ") } && charts[3].rows.allSatisfy { $0.label.hasPrefix("c  ") })
        #expect(charts[0].rows.map(\.label) == charts[0].rows.map(\.label).sorted(), "date order within a participant")
        #expect(ReportBuilder.overviewCharts(rows("a", 3), participantInLabel: false).map(\.title) == ["All 3 nights"])
        #expect(ReportBuilder.overviewCharts(rows("a", 2, status: .insufficientData), participantInLabel: false).isEmpty)
        #expect((0..<3).map(ReportBuilder.overviewFile) == ["overview.png", "overview-2.png", "overview-3.png"])
    }

    /// Every night page's previous and next link points to a night of the same participant.
    static func expectNeighboursWithinParticipants(reports: String, db path: String, rule: ParticipantRule) throws {
        let db = try SleepDatabase(path: path)
        let owner = Dictionary(uniqueKeysWithValues: try db.query("SELECT n.id, r.path FROM nights n JOIN recordings r ON r.id = n.recording_id")
            .map { ($0["id"]!, rule.participant(recordingPath: $0["path"]!)) })
        var links = 0
        for (night, participant) in owner {
            guard let page = try? String(contentsOfFile: reports + "/" + night + "/index.html", encoding: .utf8) else { continue }
            for rel in ["prev", "next"] {
                guard let r = page.range(of: "\" rel=\"\(rel)\"") else { continue }
                let before = page[..<r.lowerBound]
                guard let start = before.range(of: "href=\"../", options: .backwards) else { continue }
                let target = String(before[start.upperBound...].dropLast("/index.html".count))
                #expect(owner[target] == participant, "\(night) (\(participant.id)) links \(rel) to \(target) (\(owner[target]?.id ?? "?"))")
                links += 1
            }
        }
        #expect(links > 0)
    }

    /// `export --what participants` against the means of `export --what nights` per participant.
    @discardableResult
    static func expectExportIsMeanOfNights(db path: String, rule: ParticipantRule?) throws -> Int {
        let folder = Workspace()
        var c = ExportConfiguration(databasePath: path, table: .participants, outputPath: folder.root + "/p.csv")
        c.participants = rule
        let rows = try Exporter(configuration: c).run()
        try Exporter(configuration: ExportConfiguration(databasePath: path, table: .nights, outputPath: folder.root + "/n.csv")).run()
        let participants = TestCSV.rows(try String(contentsOfFile: folder.root + "/p.csv", encoding: .utf8))
        let nights = TestCSV.rows(try String(contentsOfFile: folder.root + "/n.csv", encoding: .utf8))
        let ph = participants[0], nh = nights[0]
        let effective = rule ?? {
            let runs = (try? SleepDatabase(path: path).allRuns()) ?? []
            return ParticipantOption.remembered(runs: runs)
        }()
        #expect(Set(participants.dropFirst().map { $0[0] }).count == rows, "one row per participant")
        for metric in ["total_sleep_time_min", "sleep_efficiency_pct", "waso_min"] {
            let col = try #require(ph.firstIndex(of: metric + "_mn")), ncol = try #require(nh.firstIndex(of: metric))
            let status = try #require(nh.firstIndex(of: "status")), recording = try #require(nh.firstIndex(of: "recording"))
            for row in participants.dropFirst() {
                let values = nights.dropFirst().filter { n in
                    n[status] == "scored" && effective.participant(recordingPath: n[recording]).id == row[0]
                }.compactMap { Double($0[ncol]) }
                let mean = values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
                let exported = Double(row[col])
                #expect((mean == nil && exported == nil) || abs((mean ?? 0) - (exported ?? .nan)) < 1e-6,
                        "\(row[0]) \(metric): export \(row[col]), mean of nights \(String(describing: mean))")
            }
        }
        return rows
    }
}
