import Foundation
import Logging
import Testing
import SleepCore
import SleepPipeline
import SleepReport
import SleepStore
import SleepstaWorkloads

/// Collects what a run reports as progress.
final class RecordedProgress: PipelineProgressObserver, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var updates: [PipelineProgress] = []
    private(set) var finished = 0
    func update(_ progress: PipelineProgress) { lock.lock(); updates.append(progress); lock.unlock() }
    func finish() { lock.lock(); finished += 1; lock.unlock() }
}

@Suite("Nightly: incremental reports, runs, summary, progress", .serialized)
struct NightlyTests {
    static let night1 = PipelineTests.night1Start
    static let night2 = PipelineTests.night1Start + 86_400

    /// `sleepsta nightly` in-process over a workspace (its Reports folder must exist).
    @discardableResult
    func nightly(_ w: Workspace, interval: IntervalLength = .tenMinutes, progress: (any PipelineProgressObserver)? = nil,
                 participants: ParticipantRule = .file, method: NightMethodChoice? = nil) throws -> RunSummary {
        var p = AnalysisParameters()
        p.interval = interval
        p.nightMethod = method
        var c = PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports,
                                      parameters: p, timeZoneIdentifier: "Europe/Berlin", command: "nightly")
        c.reportScope = .affected
        c.createsReportsDirectory = false
        c.participants = participants
        var logger = Logger(label: "nightly-test")
        logger.logLevel = .critical
        return try Pipeline(configuration: c, logger: logger, progress: progress).run()
    }

    func workspace(nights: Int = 1) throws -> Workspace {
        let w = Workspace()
        try FileManager.default.createDirectory(atPath: w.reports, withIntermediateDirectories: true)
        for k in 0..<nights { w.write("night\(k + 1).csv", Workspace.phoneNight(startUTC: Self.night1 + Int64(k) * 86_400, hours: 7)) }
        return w
    }

    @Test("recording pages: a nightly run renders those of the recordings it touched and any that is missing, no other")
    func rendersOnlyDueRecordingPages() throws {
        let w = try workspace(nights: 2)
        try nightly(w)
        let page1 = w.reports + "/recordings/night1.csv/index.html", page2 = w.reports + "/recordings/night2.csv/index.html"
        let stamp = { (p: String) in try FileManager.default.attributesOfItem(atPath: p)[.modificationDate] as! Date }
        let before2 = try stamp(page2)
        try FileManager.default.removeItem(atPath: page1)
        Thread.sleep(forTimeInterval: 0.05)
        let again = try nightly(w)
        #expect(again.filesIngested == 0)
        #expect(FileManager.default.fileExists(atPath: page1))   // missing: rendered again
        #expect(try stamp(page2) == before2)                      // neither touched nor missing: left alone
    }

    @Test("only nights ingested in this run are rendered, plus the index and their neighbours' pages (links); the rest are not even rendered")
    func rendersOnlyAffectedNights() throws {
        let w = try workspace(nights: 1)
        // Both nights' files are one participant's, so their pages link each other.
        let one = ParticipantRule.table([ParticipantTableRow(id: "P", group: "", path: "night1.csv"),
                                         ParticipantTableRow(id: "P", group: "", path: "night2.csv")])
        func nightly(_ w: Workspace) throws -> RunSummary { try self.nightly(w, participants: one) }
        let first = try nightly(w)
        #expect(first.renderedAllBecause == "first run on this database")
        #expect(first.nightsReported == 1 && first.nightsInStore == 1)
        let night1Page = w.reports + "/night1_2024-06-14/index.html"
        let night1Chart = w.reports + "/night1_2024-06-14/movement.png"
        let before = try FileManager.default.attributesOfItem(atPath: night1Chart)[.modificationDate] as! Date
        #expect(!(try String(contentsOfFile: night1Page, encoding: .utf8)).contains("next night"))

        w.write("night2.csv", Workspace.phoneNight(startUTC: Self.night2, hours: 7))
        let second = try nightly(w)
        #expect(second.renderedAllBecause == nil)
        #expect(second.filesIngested == 1 && second.filesUnchanged == 1)
        // Night 1's page gains its link to night 2 (its chart is not even rendered).
        #expect(second.nightsReported == 2 && second.nightsInStore == 2)
        #expect(second.reportsWritten == 9)   // night 2's page and chart, night 1's page, night 2's recording page, the participant page, its overview chart and its day timeline, the index's overview chart and the index
        #expect(FileManager.default.fileExists(atPath: w.reports + "/night2_2024-06-15/movement.png"))
        #expect(try FileManager.default.attributesOfItem(atPath: night1Chart)[.modificationDate] as! Date == before)
        #expect(try String(contentsOfFile: night1Page, encoding: .utf8).contains("<a href=\"../night2_2024-06-15/index.html\" rel=\"next\">next night (2024-06-15) →</a>"))
        #expect(try String(contentsOfFile: w.reports + "/night2_2024-06-15/index.html", encoding: .utf8)
            .contains("<a href=\"../night1_2024-06-14/index.html\" rel=\"prev\">← previous night (2024-06-14)</a>"))
        let index = try String(contentsOfFile: w.reports + "/index.html", encoding: .utf8)
        #expect(index.contains("night1_2024-06-14") && index.contains("night2_2024-06-15"))

        let third = try nightly(w)
        #expect(third.nightsReported == 0 && third.reportsWritten == 0 && third.reportsUnchanged == 5)   // the index, its overview chart, the participant page, its overview chart and its day timeline
    }

    @Test("a deleted report file is rendered again, byte for byte")
    func missingFilesAreRendered() throws {
        let w = try workspace(nights: 2)
        try nightly(w)
        let chart = w.reports + "/night1_2024-06-14/movement.png"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: chart))
        try FileManager.default.removeItem(atPath: chart)
        let s = try nightly(w)
        #expect(s.nightsReported == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: chart)) == bytes)
    }

    @Test("after a run that did not finish (killed, disk full), every night is rendered again")
    func unfinishedRunRendersAll() throws {
        let w = try workspace(nights: 2)
        try nightly(w)
        // What a killed run leaves: its runs row begun, never finished.
        let db = try SleepDatabase(path: w.db)
        _ = try db.beginRun(RunRecord(startedUTC: "2024-06-16T03:00:00Z", toolVersion: SleepstaVersion.current, command: "nightly",
                                      parametersJSON: "{}"))
        let s = try nightly(w)
        #expect(s.renderedAllBecause?.contains("did not finish") == true)
        #expect(s.nightsReported == 2)
        #expect(try nightly(w).renderedAllBecause == nil)
    }

    @Test("runs of other commands (compare, export) do not make nightly render everything")
    func otherCommandsDoNotForceRenderAll() throws {
        let w = try workspace(nights: 1)
        try nightly(w)
        let db = try SleepDatabase(path: w.db)
        var compare = RunRecord(startedUTC: "2024-06-16T03:00:00Z", toolVersion: SleepstaVersion.current, command: "compare",
                                parametersJSON: "{\"lengths\":[600,900]}")
        compare.id = try db.beginRun(compare)
        compare.finishedUTC = "2024-06-16T03:00:05Z"
        compare.status = "ok"
        try db.finishRun(compare, failures: [])
        let s = try nightly(w)
        #expect(s.renderedAllBecause == nil && s.nightsReported == 0)
    }

    @Test("changing the interval re-derives from the stored base series without the raw files; both analyses stay, pages say which")
    func parameterChangeWithoutRawFiles() throws {
        let w = try workspace(nights: 1)
        try nightly(w)
        // The raw file is gone: a re-analysis can only come from the stored base series.
        try FileManager.default.removeItem(atPath: w.data + "/night1.csv")
        let s15 = try nightly(w, interval: .fifteenMinutes)
        #expect(s15.filesSeen == 0 && s15.nightsAnalysed == 1)
        // Only the analysis changed: the nights of the kinds whose analysis key changed are rendered
        // (every kind's key holds the interval, which the pages chart).
        #expect(s15.renderedAllBecause == nil && s15.renderedKindsBecauseAnalysisChanged == Set(RecordingKind.allCases) && s15.nightsReported == 1,
                "\(String(describing: s15.renderedKindsBecauseAnalysisChanged))")
        let page = try String(contentsOfFile: w.reports + "/night1_2024-06-14/index.html", encoding: .utf8)
        #expect(page.contains("interval=900s"))
        let db = try SleepDatabase(path: w.db)
        #expect(try db.query("SELECT interval_seconds FROM analyses ORDER BY 1").map { $0["interval_seconds"]! } == ["600", "900"])
        let s10 = try nightly(w)
        #expect(s10.nightsAnalysed == 0 && s10.nightsReported == 1)
        #expect(try String(contentsOfFile: w.reports + "/night1_2024-06-14/index.html", encoding: .utf8).contains("interval=600s"))
        let runs = try db.query("SELECT command, parameters_json, finished_utc, tool_version, status FROM runs ORDER BY id")
        #expect(runs.count == 3)
        #expect(runs.allSatisfy { $0["command"] == "nightly" && $0["status"] == "ok" && !$0["finished_utc"]!.isEmpty && $0["tool_version"] == SleepstaVersion.current })
        #expect(runs[1]["parameters_json"]!.contains("interval=900s") && runs[1]["parameters_json"]!.contains("\"reportsDirectory\""))
    }

    @Test("--method ggir renders the wrist nights alone, and the default method again: the phone nights' pages are untouched")
    func methodChangeRendersItsKind() throws {
        let w = try workspace(nights: 2)
        try WearableCWAGenerator(signal: WearableCSVGenerator(days: 2, rateHz: 25)).write(to: w.data + "/wrist.cwa")
        try nightly(w)
        let phonePage = w.reports + "/night1_2024-06-14/index.html"
        let stamp = { (p: String) in try FileManager.default.attributesOfItem(atPath: p)[.modificationDate] as! Date }
        let before = try stamp(phonePage)
        Thread.sleep(forTimeInterval: 0.05)
        let ggir = try nightly(w, method: .ggir)
        #expect(ggir.renderedAllBecause == nil && ggir.renderedKindsBecauseAnalysisChanged == [.wearable24h], "\(String(describing: ggir.renderedAllBecause))")
        let db = try SleepDatabase(path: w.db)
        let wrist = Int(try db.query("SELECT COUNT(*) AS n FROM nights n JOIN recordings r ON r.id = n.recording_id WHERE r.path = 'wrist.cwa'")[0]["n"] ?? "") ?? 0
        #expect(wrist >= 1 && ggir.nightsReported == wrist, "\(ggir.nightsReported) rendered, \(wrist) wrist nights")
        #expect(try stamp(phonePage) == before, "a phone night's page is left alone")
        var c = PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports, command: "nightly")
        c.reportScope = .affected
        let text = RunSummaryText.render(ggir, configuration: c)
        #expect(text.contains("(the wearable-24h nights: their analysis changed)"), "\(text)")
        // Back to the default method: the wrist nights again, nothing else.
        let back = try nightly(w)
        #expect(back.renderedKindsBecauseAnalysisChanged == [.wearable24h] && back.nightsReported == wrist)
        #expect(try stamp(phonePage) == before)
    }

    @Test("reports are deterministic: the same inputs and parameters at another time give byte-identical files")
    func deterministicReports() throws {
        let a = try workspace(nights: 2)
        let sa = try nightly(a)
        sleep(1)   // a different clock second for the second run; nothing of it may reach a page
        let b = try workspace(nights: 2)
        let sb = try nightly(b)
        #expect(sa.startedUTC != sb.startedUTC)
        let fa = ReportTree.files(in: a.reports), fb = ReportTree.files(in: b.reports)
        #expect(fa.count == 15)   // two nights × (page, chart), 2 recording pages, 2 participant pages with their overview charts and day timelines, the index, its overview chart and definitions.html
        #expect(ReportTree.differences(fa, fb).isEmpty, "\(ReportTree.differences(fa, fb))")
        for (name, data) in fa where name.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            #expect(!html.contains(String(sa.startedUTC.prefix(16))) && !html.contains(String(sb.startedUTC.prefix(16))), "\(name) shows the run's time")
        }
    }

    @Test("temporary files left by a killed writer are removed; a live writer's and other files stay")
    func staleTemporaryFiles() throws {
        let w = try workspace(nights: 1)
        try nightly(w)
        let folder = w.reports + "/night1_2024-06-14"
        // Pids above any pid_max: no such process.
        let leftovers = [folder + "/.index.html.tmp-2147483646", w.reports + "/.index.html.tmp-2147483645", folder + "/.dat.nosync1a2b.Xy12Zq"]
        for p in leftovers { _ = FileManager.default.createFile(atPath: p, contents: Data("partial".utf8)) }
        _ = FileManager.default.createFile(atPath: w.reports + "/.keep", contents: Data())
        // A writer that still runs (this test process, say a render beside the run) keeps its file.
        let live = w.reports + "/.notes.html.tmp-\(getpid())"
        _ = FileManager.default.createFile(atPath: live, contents: Data("being written".utf8))
        try nightly(w)
        for p in leftovers { #expect(!FileManager.default.fileExists(atPath: p), "\(p)") }
        #expect(FileManager.default.fileExists(atPath: live))
        try? FileManager.default.removeItem(atPath: live)
        #expect(FileManager.default.fileExists(atPath: w.reports + "/.keep"))
        #expect(ReportWriter.isTemporaryFileName(".movement.png.tmp-123"))
        #expect(!ReportWriter.isTemporaryFileName(".movement.png.tmp-") && !ReportWriter.isTemporaryFileName("movement.png"))
    }

    @Test("why a nightly run renders every night")
    func renderAllReasons() throws {
        let json = "{\"a\":1}"
        func run(finished: Bool = true, version: String = SleepstaVersion.current, parameters: String = json, status: String = "ok") -> RunRecord {
            RunRecord(id: 1, startedUTC: "2024-06-15T03:00:00Z", finishedUTC: finished ? "2024-06-15T03:01:00Z" : nil, toolVersion: version,
                      command: "nightly", parametersJSON: parameters, status: status)
        }
        let reason = { (r: RunRecord?) in ReportScope.renderAllReason(previousRun: r, toolVersion: SleepstaVersion.current, parametersJSON: json) }
        #expect(reason(nil) == "first run on this database")
        #expect(reason(run()) == nil)
        #expect(reason(run(status: "some-files-failed")) == nil)
        #expect(reason(run(finished: false))?.contains("did not finish") == true)
        #expect(reason(run(status: "failed"))?.contains("did not finish") == true)
        #expect(reason(run(version: "0.0.9")) == "the previous run used sleepsta 0.0.9")
        #expect(reason(run(parameters: "{\"a\":2}")) == "the previous run used other parameters or folders")

        // A change of the analysis alone renders the kinds whose key changed; anything else, all.
        let c = PipelineConfiguration(dataDirectory: "Data", databasePath: "db.sqlite", reportsDirectory: "Reports", timeZoneIdentifier: "Europe/Berlin")
        func stored(_ c: PipelineConfiguration) throws -> String { String(decoding: try JSONEncoder().encode(RunParameters(c)), as: UTF8.self) }
        var ggir = c, zone = c, folder = c
        ggir.parameters.nightMethod = .ggir
        zone.timeZoneIdentifier = "UTC"
        folder.reportsDirectory = "Elsewhere"
        let kinds = { (before: String, now: String) in ReportScope.kindsWithNewAnalysis(previousRun: run(parameters: before), parametersJSON: now) }
        #expect(kinds(try stored(c), try stored(ggir)) == [.wearable24h])
        #expect(kinds(try stored(ggir), try stored(c)) == [.wearable24h])
        #expect(kinds(try stored(c), try stored(c)) == [])
        #expect(kinds(try stored(c), try stored(zone)) == nil, "another zone may change every page")
        #expect(kinds(try stored(c), try stored(folder)) == nil)
        #expect(kinds("{\"a\":1}", try stored(c)) == nil, "a row that cannot be read")
        #expect(ReportScope.kindsWithNewAnalysis(previousRun: nil, parametersJSON: try stored(c)) == nil)
    }

    @Test("the summary lists failed files (the first 20, then where the rest are); exit codes follow the contract")
    func summaryAndExitCodes() {
        var s = RunSummary()
        s.filesSeen = 25
        s.runID = 7
        s.failures = (1...23).map { ("f\($0).csv", "f\($0).csv:1: bad") }
        var c = PipelineConfiguration(dataDirectory: "Data", databasePath: "db.sqlite", reportsDirectory: "Reports", command: "nightly")
        c.reportScope = .affected
        let text = RunSummaryText.render(s, configuration: c)
        #expect(text.contains("f20.csv:1: bad") && !text.contains("f21.csv:1: bad"))
        #expect(text.contains("… and 3 more: sqlite3 db.sqlite \"SELECT path, error FROM run_failures WHERE run_id = 7\""))
        #expect(text.split(separator: "\n").count <= 30, "one screen")
        #expect(s.exitCode == 1)
        #expect(RunSummary().exitCode == 0)
        #expect(PipelineError.environment("x").exitCode == 2)
        #expect(PipelineError.locked("x").exitCode == 3)
    }

    @Test("progress: files with bytes, then nights rendered; the bar's text fits the terminal")
    func progress() throws {
        let w = try workspace(nights: 2)
        let recorded = RecordedProgress()
        try nightly(w, progress: recorded)
        let files = recorded.updates.filter { $0.stage == .files }
        let reports = recorded.updates.filter { $0.stage == .reports }
        let totalBytes = try ["night1.csv", "night2.csv"].reduce(Int64(0)) {
            $0 + ((try FileManager.default.attributesOfItem(atPath: w.data + "/" + $1)[.size] as! NSNumber).int64Value)
        }
        #expect(files.last?.done == 2 && files.last?.bytesDone == totalBytes && files.last?.bytesTotal == totalBytes)
        #expect(zip(files, files.dropFirst()).allSatisfy { $0.bytesDone <= $1.bytesDone })
        #expect(reports.last?.done == 2 && reports.last?.total == 2)
        #expect(recorded.finished == 1)

    }

    @Test("nightly refuses a missing reports folder before touching the database; run creates it")
    func missingReportsFolder() throws {
        let w = try workspace(nights: 1)
        try FileManager.default.removeItem(atPath: w.reports)
        #expect(throws: PipelineError.self) { try nightly(w) }
        #expect(!FileManager.default.fileExists(atPath: w.db))
        #expect(try w.run().filesIngested == 1)   // `run` creates the folder
        #expect(FileManager.default.fileExists(atPath: w.reports + "/index.html"))
    }
}
