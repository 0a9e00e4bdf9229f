import Foundation
import SleepCore
import SleepStore

/// Turns stored nights into report files: `<reports>/index.html` and, per night,
/// `<reports>/<night-id>/index.html` and `movement.png`.
public struct ReportBuilder: Sendable {
    let db: SleepDatabase
    let reportsDirectory: String
    let parameters: AnalysisParameters
    /// The files that failed in this run, listed on the index; nil: those of the latest run in the store.
    public var failures: [(path: String, error: String)]? = nil
    /// How recordings map to participants (`--participants`): the index's participant table, the
    /// participant pages, and each night's previous / next link, which stay within the participant.
    public var participants: ParticipantRule = .file { didSet { matcher = ParticipantMatcher(participants) } }
    /// ``participants`` indexed once: every night and recording asks it.
    private(set) var matcher = ParticipantMatcher(.file)
    /// Where the night pages are rendered (the pipeline lends its work queue's cores).
    public var workers: PageWorkers = .serial
    /// Which participants and nights the index's Table 1 counts (`--min-valid-nights`, `--min-wear-hours`).
    public var inclusion: InclusionRule = .none

    public init(db: SleepDatabase, reportsDirectory: String, parameters: AnalysisParameters) {
        self.db = db; self.reportsDirectory = reportsDirectory; self.parameters = parameters
    }

    /// The participant of a stored recording path, printable.
    func participant(_ recordingPath: String) -> Participant {
        let p = matcher.participant(recordingPath: recordingPath)
        return Participant(id: PrintableText.escaped(p.id), group: PrintableText.escaped(p.group))
    }

    /// The analysis key of each kind's method under these parameters.
    var keys: [RecordingKind: String] {
        NightAnalysisMethods.keys(parameters)
    }

    public func renderAll() throws -> (written: Int, unchanged: Int) {
        let result = try render(only: nil)
        return (result.written, result.unchanged)
    }

    /// Renders the page and chart of each night in `only` (of every night when nil) and of each
    /// night whose files are missing, then the index (always: it lists every night).
    /// `progress(done, total, nightID)` is called after each night.
    ///
    /// A night whose id is not one sleepsta makes (a damaged or hostile store) or whose stored row
    /// cannot be read is not rendered: it is listed in `skipped` with the reason, and every other
    /// night is rendered.
    public func render(only: Set<String>?, progress: (@Sendable (Int, Int, String) -> Void)? = nil) throws
        -> (written: Int, unchanged: Int, nightsRendered: Int, nights: Int, skipped: [String]) {
        // Before any page: a page folder that is a link or a file would lose its pages silently.
        try ReportPaths.checkPageFolders(in: reportsDirectory)
        var written = 0, unchanged = 0, nightsRendered = 0
        func count(_ o: ReportWriter.Outcome) { if case .written = o { written += 1 } else { unchanged += 1 } }
        let renderer = ChartRenderer()
        var rows: [IndexRow] = []
        // Every night's status and metrics (for the index, the links and the recording pages), but
        // the series, the intervals, the scored epochs and the files only of the nights rendered: a
        // nightly run over a store of many nights reads little more than what it renders.
        let overviews = try db.overviews(keys: keys, series: false)
        // A night whose row cannot be read is named by its overview (below), not by the catalog.
        let catalog = Dictionary(uniqueKeysWithValues: try db.nightCatalog(unreadable: { _ in }).map { ($0.nightID, $0) })
        let keys = self.keys
        // Nights are independent: they are rendered on every core (WorkQueue), and counted and
        // listed afterwards in night order, so files and index are those of a serial loop.
        ChartRenderer.prepareForConcurrentRendering()
        // Each night's step reported one at a time (a terminal bar is not thread-safe).
        let total = overviews.count
        let steps = Locked(0)
        let step: @Sendable (String) -> Void = { nightID in steps.with { done in done += 1; progress?(done, total, nightID) } }
        let neighbours = Self.neighbours(overviews) { participant($0.recordingPath) }
        // A night's page links its neighbours: the pages (not the charts) of the neighbours of a
        // rendered night are rendered too, so that their links follow.
        let pagesOnly = only.map { only in Set(only.flatMap { id in [neighbours[id]?.previous?.nightID, neighbours[id]?.next?.nightID].compactMap { $0 } })
            .subtracting(only) } ?? []
        let plan = NightPlan(only: only, pagesOnly: pagesOnly, neighbours: neighbours, catalog: catalog, keys: keys,
                             recordingFolders: try recordingFolders(), renderer: renderer, step: step)
        let nights = try workers.map(overviews.count) { k in try renderNight(overviews[k], plan) }
        var skipped: [String] = []
        for night in nights {
            switch night {
            case .rendered(let outcomes, let row)?:
                outcomes.forEach(count)
                if !outcomes.isEmpty { nightsRendered += 1 }
                rows.append(row)
            case .skipped(let why)?:
                skipped.append(why)
            case nil:
                continue
            }
        }
        let recordings = try renderRecordings(overviews, only: only)
        recordings.outcomes.forEach(count)
        skipped += recordings.skipped
        // The index links the recording pages written (a page skipped above is not there to follow).
        let linked = overviews.filter { $0.analysis != nil && !recordings.unwritten.contains($0.recordingPath) }.map(\.recordingPath)
        let overview = try Self.writeOverview(Self.overviewCharts(rows, participantInLabel: participants != .file), in: reportsDirectory, renderer: renderer)
        overview.outcomes.forEach(count)
        // The definitions page is the same for every run: written when missing, not counted.
        _ = (try ReportWriter.write(DefinitionsPage.page(), to: (reportsDirectory as NSString).appendingPathComponent(DefinitionsPage.fileName)))
        // A rhythm row that cannot be read: named once, by its recording page when that was due.
        let entries = try participantEntries(rows, recordingPaths: overviews.filter { $0.analysis != nil }.map(\.recordingPath)) { why in
            if !skipped.contains(where: { $0.hasPrefix(why) }) { skipped.append("\(why); left out of its participant's rhythm") }
        }
        try renderParticipants(entries, rows: rows, renderer: renderer).forEach(count)
        let indexPath = (reportsDirectory as NSString).appendingPathComponent("index.html")
        count(try ReportWriter.write(HTMLPages.indexPage(rows, parameters: parameters, extraLinks: Self.comparisonLinks(in: reportsDirectory, db: db)
                                                                 + (try recordingLinks(linked)),
                                                         failures: try failures ?? db.latestRunFailures(commands: ["run", "nightly", "merge"]),
                                                         participants: entries, participantRule: participants.description,
                                                         overviewCharts: overview.files, studyTables: studyTables(rows, catalog: catalog)),
                                     to: indexPath))
        return (written, unchanged, nightsRendered, overviews.count, skipped)
    }

    /// What every night's turn in ``render(only:progress:)`` shares.
    struct NightPlan: Sendable {
        /// The nights whose chart and page are asked for (nil: all).
        let only: Set<String>?
        /// Neighbours of those nights: their pages are rewritten so that their links follow.
        let pagesOnly: Set<String>
        let neighbours: [String: (previous: (nightID: String, date: CivilDate)?, next: (nightID: String, date: CivilDate)?)]
        let catalog: [String: NightCatalogEntry]
        let keys: [RecordingKind: String]
        /// Each stored recording's page folder (``recordingFolders(_:)``).
        let recordingFolders: [String: String]
        let renderer: ChartRenderer
        /// Called once per night listed, after its files.
        let step: @Sendable (String) -> Void
    }

    /// One night: its index row, and its chart and page when asked for or missing; nil for a night
    /// without an analysis under its kind's key.
    func renderNight(_ overview: NightOverview, _ plan: NightPlan) throws -> NightRendering? {
        if let why = overview.unreadable { return .skipped("\(why); its page is not written") }
        guard let listed = overview.analysis else { return nil }
        guard NightNaming.isNightID(overview.nightID) else {
            return .skipped("night '\(PrintableText.escaped(overview.nightID))': not a night id sleepsta makes (stem_YYYY-MM-DD); its page is not written")
        }
        let folder: String
        do { folder = try ReportPaths.path(overview.nightID, in: reportsDirectory) } catch { return .skipped("night \(error)") }
        let whole = (plan.only?.contains(overview.nightID) ?? true) || !Self.nightFilesExist(in: folder)
        guard whole || plan.pagesOnly.contains(overview.nightID) else {
            guard let entry = plan.catalog[overview.nightID] else { return nil }
            plan.step(overview.nightID)
            return .rendered([], IndexRow(nightID: overview.nightID, date: entry.date, recordingPath: PrintableText.escaped(overview.recordingPath),
                                          timeline: entry.timeline, analysis: listed, participant: participant(overview.recordingPath)))
        }
        // A stored row that cannot be read (damaged, or written by a hostile shard) costs its
        // night, not the render.
        let stored: (night: StoredNight, analysis: NightAnalysis, recording: StoredRecording?)
        do {
            guard let night = try db.night(id: overview.nightID), let key = plan.keys[overview.kind],
                  let analysis = try db.analysis(nightID: overview.nightID, parametersKey: key) else { return nil }
            stored = (night, analysis, try db.recording(forNight: overview.nightID))
        } catch {
            return .skipped("night \(overview.nightID): its stored row cannot be read (\(SleepDatabase.shortDescription(error))); its page is not written")
        }
        let outcomes = try writeNight(overview, stored, chart: whole, folder: folder, plan)
        plan.step(overview.nightID)
        return .rendered(outcomes, IndexRow(nightID: overview.nightID, date: stored.night.window.date,
                                            recordingPath: PrintableText.escaped(overview.recordingPath), timeline: stored.night.timeline,
                                            analysis: stored.analysis, participant: participant(overview.recordingPath)))
    }

    /// A night's chart (when `chart`) and page.
    func writeNight(_ overview: NightOverview, _ stored: (night: StoredNight, analysis: NightAnalysis, recording: StoredRecording?),
                    chart: Bool, folder: String, _ plan: NightPlan) throws -> [ReportWriter.Outcome] {
        let (night, analysis, recording) = stored
        var outcomes: [ReportWriter.Outcome] = []
        if chart {
            let picture = NightPageText.chart(analysis, epochs: night.epochs, timeline: night.timeline, date: night.window.date,
                                              interval: parameters.interval)
            outcomes.append(try ReportWriter.write(plan.renderer.png(picture), to: folder + "/movement.png"))
        }
        var input = NightReportInput(
            nightID: overview.nightID, date: night.window.date, timeline: night.timeline, timeZoneName: night.timeZone,
            recordingPath: PrintableText.escaped(overview.recordingPath), recordingFormat: overview.recordingFormat,
            dataFacts: Self.facts(night: night, recording: recording), warnings: Self.warnings(recording),
            preBedSurvey: night.preBedSurvey.map { ($0.question, $0.answer) },
            postBedSurvey: night.postBedSurvey.map { ($0.question, $0.answer) },
            analysis: analysis, sourceResolutionSeconds: night.series.sourceResolutionSeconds)
        input.kindReason = recording?.kindReason ?? ""
        input.recordingPage = "../" + (plan.recordingFolders[overview.recordingPath] ?? Self.recordingFolder(overview.recordingPath)) + "/index.html"
        input.previousNight = plan.neighbours[overview.nightID]?.previous
        input.nextNight = plan.neighbours[overview.nightID]?.next
        input.timeZoneSource = recording?.timeZoneSource
        outcomes.append(try ReportWriter.write(HTMLPages.nightPage(input, chartFile: "movement.png"), to: folder + "/index.html"))
        return outcomes
    }

    /// One night's turn in ``render(only:progress:)``.
    enum NightRendering {
        case rendered([ReportWriter.Outcome], IndexRow)
        case skipped(String)
    }

    /// Each analysed night's previous and next analysed night of the same participant, in the index's order.
    static func neighbours(_ overviews: [NightOverview], participant: (NightOverview) -> Participant)
        -> [String: (previous: (nightID: String, date: CivilDate)?, next: (nightID: String, date: CivilDate)?)] {
        let listed = overviews.filter { $0.analysis != nil }
        var result: [String: (previous: (nightID: String, date: CivilDate)?, next: (nightID: String, date: CivilDate)?)] = [:]
        for (_, nights) in Dictionary(grouping: listed, by: participant) {
            for (k, o) in nights.enumerated() {
                result[o.nightID] = (k > 0 ? (nights[k - 1].nightID, nights[k - 1].date) : nil,
                                     k + 1 < nights.count ? (nights[k + 1].nightID, nights[k + 1].date) : nil)
            }
        }
        return result
    }

    /// Whether a night's page and chart are both on disk (a deleted file is rendered again).
    static func nightFilesExist(in folder: String) -> Bool {
        let fm = FileManager.default
        return fm.fileExists(atPath: folder + "/index.html") && fm.fileExists(atPath: folder + "/movement.png")
    }

    /// The night page's facts of a stored night and its recording (``NightPageText``).
    static func facts(night: StoredNight, recording: StoredRecording?) -> [(label: String, value: String)] {
        NightPageText.facts(series: night.series, window: night.window, timeline: night.timeline, recording: recording.map { r in
            NightPageText.Recording(path: r.path, format: r.format, sizeBytes: r.sizeBytes, contentHash: r.contentHash,
                                    sampleCount: r.sampleCount, effectiveSampleRateHz: r.effectiveSampleRateHz, timeZone: r.timeZone,
                                    timeZoneSource: r.timeZoneSource, gravity: r.gravity, kind: r.kind, kindReason: r.kindReason,
                                    quality: r.quality)
        })
    }

    static func warnings(_ recording: StoredRecording?) -> [String] {
        recording?.warnings ?? []
    }
}
