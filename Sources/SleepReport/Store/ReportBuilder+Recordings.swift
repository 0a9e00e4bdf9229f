import Foundation
import SleepCore
import SleepStore

/// Recording pages: `<reports>/recordings/<stem>/index.html` and `actogram.png`, one per stored
/// recording, rendered from the database alone after the nights.
extension ReportBuilder {
    /// The folder of a recording's page, relative to the reports folder.
    ///
    /// The folder is the recording's path made safe (letters, digits, `-` and `.` kept, others `_`),
    /// extension included, so that `p.csv` and `p.json` get folders of their own; when characters
    /// were replaced, 8 hex digits of the path's FNV-1a hash follow, so that `a/b.csv` and `a_b.csv`
    /// do too.
    public static func recordingFolder(_ path: String) -> String {
        var safe = String(path.unicodeScalars.map { s -> Character in
            if s.isASCII, s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "-" || s == "." { return Character(s) }
            return "_"
        })
        while safe.hasPrefix(".") || safe.hasPrefix("_") { safe.removeFirst() }
        safe = String(safe.prefix(100))
        if safe != path || safe.isEmpty {
            safe += (safe.isEmpty ? "recording-" : "-") + String(FNV1a.hex(path).suffix(8))
        }
        return "recordings/" + safe
    }

    /// The folder of each of `paths`' pages: ``recordingFolder(_:)``, bumped (``FolderNames``) where
    /// two paths make the same name (crafted names, or the hash's 32 bits colliding), so that no
    /// two recordings ever share a page.
    public static func recordingFolders(_ paths: [String]) -> [String: String] {
        FolderNames.assign(Set(paths).sorted(), base: recordingFolder)
    }

    /// ``recordingFolders(_:)`` of every stored recording: the same names wherever a page or link is made.
    func recordingFolders() throws -> [String: String] {
        Self.recordingFolders(try db.recordingPaths())
    }

    /// The index's links to the recording pages, one per recording with nights, by path.
    func recordingLinks(_ paths: [String]) throws -> [(href: String, label: String)] {
        let folders = try recordingFolders()
        return Set(paths).sorted().map { path in
            (href: (folders[path] ?? Self.recordingFolder(path)) + "/index.html", label: "Recording " + PrintableText.escaped(path))
        }
    }

    /// Renders the page (and actogram) of each recording with a night in `only` (of every recording
    /// when nil) and of each recording whose page is missing. A recording whose stored rows cannot
    /// be read is not rendered: it is listed in `skipped` with why, its path in `unwritten`.
    func renderRecordings(_ overviews: [NightOverview], only: Set<String>? = nil) throws
        -> (outcomes: [ReportWriter.Outcome], skipped: [String], unwritten: Set<String>) {
        var outcomes: [ReportWriter.Outcome] = []
        var skipped: [String] = []
        let byPath = Dictionary(grouping: overviews, by: \.recordingPath)
        let renderer = ChartRenderer()
        let folders = try recordingFolders()
        // A night's clock without its series (the catalog reads no blobs).
        let timelines = Dictionary(uniqueKeysWithValues: try db.nightCatalog(unreadable: { _ in }).map { ($0.nightID, $0.timeline) })
        // Only the recordings whose page is due are read with their activity series: a nightly run
        // over a cohort touches a few of them (and reading every series costs a blob per recording).
        let due = byPath.filter { path, nights in
            guard let only else { return true }
            let page = (reportsDirectory as NSString).appendingPathComponent(folders[path] ?? Self.recordingFolder(path)) + "/index.html"
            return nights.contains { only.contains($0.nightID) } || !FileManager.default.fileExists(atPath: page)
        }
        let readable = try db.recordingsWithRhythm(paths: Set(due.keys)) { skipped.append("\($0); its recording page is not written") }
        for item in readable {
            let r = item.recording
            let nights = (byPath[r.path] ?? []).sorted { ($0.date, $0.nightID) < ($1.date, $1.nightID) }
            let folder = folders[r.path] ?? Self.recordingFolder(r.path)
            // The folder is made from the path here, but the path came from the store: checked all the same.
            guard let directory = try? ReportPaths.path(folder, in: reportsDirectory) else { continue }
            guard let firstNight = nights.first, let timeline = timelines[firstNight.nightID] else { continue }
            var scored: [(date: CivilDate, metrics: NightSummaryMetrics)] = []
            var periods: [(Int64, Int64)] = []
            var links2: [RecordingReportInput.NightLink] = []
            for n in nights {
                let m = n.analysis?.metrics
                if n.analysis?.status == .scored, let m { scored.append((n.date, m)) }
                // Every sleep of the day where the analysis has its periods, else the night's one.
                if let all = n.analysis?.periods, !all.isEmpty { periods += all.map { ($0.sleepOnsetUTC, $0.wakeTimeUTC) } }
                else if let m, let on = m.sleepOnsetUTC, let off = m.wakeTimeUTC { periods.append((on, off)) }
                links2.append(.init(href: "../../\(n.nightID)/index.html", date: n.date.description, status: n.analysis?.status.rawValue ?? "not analysed",
                                    inBed: m.map { "\(LocalClock.hhmm(localSecond: timeline.localSecond(atUTC: $0.inBedStartUTC)))–\(LocalClock.hhmm(localSecond: timeline.localSecond(atUTC: $0.inBedEndUTC)))" } ?? "–",
                                    tst: NumberText.minutes(m?.totalSleepTimeMinutes),
                                    se: m.map { String(format: "%.1f", $0.sleepEfficiencyPercent) } ?? "–"))
            }
            var actogramFile: String? = nil
            if let h = item.rhythm, !h.activity.isEmpty {
                let actogram = Actogram.make(title: "\(PrintableText.escaped(r.path)) · actogram", unit: h.source.components(separatedBy: " per ").first ?? h.source,
                                             activity: h.activity, startUTC: h.startUTC, epochSeconds: h.epochSeconds, timeline: timeline,
                                             nonWear: h.nonWear, sleepPeriodsUTC: periods)
                outcomes.append(try ReportWriter.write(renderer.png(actogram), to: directory + "/actogram.png"))
                actogramFile = "actogram.png"
            }
            var rhythm = item.rhythm
            rhythm?.utcOffsetSeconds = Int(timeline.offset(atUTC: item.rhythm?.startUTC ?? 0))
            let input = RecordingReportInput(
                path: PrintableText.escaped(r.path), format: r.format.rawValue, kind: r.kind.rawValue, kindReason: r.kindReason,
                timeZone: "\(r.timeZone ?? "UTC offsets from the data") (\(r.timeZoneSource.rawValue))",
                facts: [("Format", r.format.rawValue), ("Size", "\(r.sizeBytes) bytes, \(NightPageText.shortContentHash(r.contentHash))"),
                        ("Data", r.firstUTC.flatMap { a in r.endUTC.map { b in "\(LocalClock.iso8601(utcSecond: a, timeline: timeline)) to \(LocalClock.iso8601(utcSecond: b, timeline: timeline))" } } ?? "–")],
                warnings: Self.warnings(r), rhythm: rhythm, averages: NightMetricAverages.compute(scored), nights: links2,
                actogramFile: actogramFile)
            outcomes.append(try ReportWriter.write(HTMLPages.recordingPage(input), to: directory + "/index.html"))
        }
        return (outcomes, skipped, Set(due.keys).subtracting(readable.map(\.recording.path)))
    }
}

extension ReportBuilder {
    /// Rows of one overview chart: a cohort's nights are drawn over as many charts as they need.
    static let overviewNightsPerChart = 42

    /// The overview of `rows` in charts of at most ``overviewNightsPerChart`` nights: every night
    /// with enough data (those with too little are listed apart), grouped by participant and in
    /// date order within each; a chart ends before a participant who would not fit on it (a
    /// participant with more nights than a chart holds starts a chart and runs over several).
    /// `participantInLabel`: each row names its participant (the index, when a participant is not
    /// simply a recording file).
    package static func overviewCharts(_ rows: [IndexRow], participantInLabel: Bool) -> [NightsOverview] {
        let shown = rows.filter { $0.analysis?.status != .insufficientData }
        guard !shown.isEmpty else { return [] }
        let groups = Dictionary(grouping: shown, by: \.participant).sorted { $0.key < $1.key }
            .map { $0.value.sorted { ($0.date, $0.nightID) < ($1.date, $1.nightID) } }
        var charts: [[IndexRow]] = [[]]
        for nights in groups {
            if !charts[charts.count - 1].isEmpty && charts[charts.count - 1].count + nights.count > overviewNightsPerChart { charts.append([]) }
            for night in nights {
                if charts[charts.count - 1].count == overviewNightsPerChart { charts.append([]) }
                charts[charts.count - 1].append(night)
            }
        }
        var first = 1
        return charts.map { chart in
            let title = charts.count > 1 ? "Nights \(first)–\(first + chart.count - 1) of \(shown.count)"
                : chart.count == 1 ? "The one night" : "All \(chart.count) nights"
            first += chart.count
            return NightsOverview(title: title, rows: chart.map { overviewRow($0, participantInLabel: participantInLabel) })
        }
    }

    /// One night's row of an overview chart.
    package static func overviewRow(_ r: IndexRow, participantInLabel: Bool) -> NightsOverview.Row {
        let noon = r.timeline.utcSecond(atLocal: r.date.daysSinceEpoch * 86_400 + 12 * 3600)
        func after(_ t: Int64?) -> Int? { t.map { Int(r.timeline.localSecond(atUTC: $0) - r.timeline.localSecond(atUTC: noon)) } }
        let m = r.analysis?.metrics
        var inBed: (Int, Int)? = nil, sleep: (Int, Int)? = nil
        if let m, let a = after(m.inBedStartUTC), let b = after(m.inBedEndUTC) { inBed = (a, b) }
        if let m, let a = after(m.sleepOnsetUTC), let b = after(m.wakeTimeUTC) { sleep = (a, b) }
        // The recording's path in the data folder (files of the same name in two folders stay
        // apart) and, for a second night of the same evening, its number. `recordingPath` and the
        // participant's id are printable already.
        var label = (participantInLabel && r.participant.id != r.recordingPath ? r.participant.id + "  " : "") + "\(r.date)  " + r.recordingPath
        if let dash = r.nightID.range(of: "_\(r.date)-", options: .backwards), let n = Int(r.nightID[dash.upperBound...]) {
            label += " (night \(n))"
        }
        // The day's other sleeps (naps, a secondary sleep), where the analysis has its periods.
        let others = (r.analysis?.periods ?? []).filter { $0.kind != .main }.compactMap { p -> (kind: SleepPeriodKind, start: Int, end: Int)? in
            guard let a = after(p.sleepOnsetUTC), let b = after(p.wakeTimeUTC) else { return nil }
            return (p.kind, a, b)
        }
        return NightsOverview.Row(label: label, inBed: inBed, sleep: sleep,
                                  totalSleepMinutes: r.analysis?.status == .scored ? m?.totalSleepTimeMinutes : nil, others: others)
    }

    /// The file name of an overview's chart `k` (0-based): `overview.png`, `overview-2.png` …
    package static func overviewFile(_ k: Int) -> String { k == 0 ? "overview.png" : "overview-\(k + 1).png" }

    /// Writes `charts` into `directory` as ``overviewFile(_:)`` and removes the charts of an earlier,
    /// longer overview; returns the outcomes and the file names.
    package static func writeOverview(_ charts: [NightsOverview], in directory: String, renderer: ChartRenderer) throws
        -> (outcomes: [ReportWriter.Outcome], files: [String]) {
        var outcomes: [ReportWriter.Outcome] = []
        for (k, chart) in charts.enumerated() {
            outcomes.append(try ReportWriter.write(renderer.png(chart), to: (directory as NSString).appendingPathComponent(overviewFile(k))))
        }
        var k = charts.count
        while FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(overviewFile(k))) {
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(overviewFile(k)))
            k += 1
        }
        return (outcomes, charts.indices.map(overviewFile))
    }
}

/// Folder names for many keys at once, none shared: each key's base name, and where an earlier key
/// (in the order given) already has it, the name with `-2`, `-3` … (as a night id's second night
/// of an evening is bumped, ``NightIDSequence``), skipping any name that is another key's base.
package enum FolderNames {
    package static func assign<Key: Hashable>(_ keys: [Key], base: (Key) -> String) -> [Key: String] {
        let bases = keys.map(base)
        let allBases = Set(bases)
        var taken = Set<String>()
        var result: [Key: String] = [:]
        result.reserveCapacity(keys.count)
        for (key, name) in zip(keys, bases) {
            var chosen = name
            var n = 2
            while taken.contains(chosen) {
                chosen = "\(name)-\(n)"
                n += 1
                if allBases.contains(chosen) { chosen = name }   // another key's own name: try the next
            }
            taken.insert(chosen)
            result[key] = chosen
        }
        return result
    }
}
