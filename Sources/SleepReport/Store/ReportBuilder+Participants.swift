import Foundation
import SleepCore
import SleepStore

extension ReportBuilder {
    /// `participants/<id>` (the id made safe for a folder name, as recording folders are).
    static func participantFolder(_ id: String) -> String {
        "participants/" + String(recordingFolder(id).dropFirst("recordings/".count))
    }

    /// Each participant's folder, none shared: an id in two groups is two participants, and two
    /// ids may make the same name (the hash's 32 bits, or crafted ids); the later one is bumped.
    package static func participantFolders(_ participants: some Sequence<Participant>) -> [Participant: String] {
        FolderNames.assign(Set(participants).sorted(), base: { participantFolder($0.id) })
    }

    /// Each participant's summary over the index's rows (the analyses the pages show) and the
    /// rhythm of their recordings, in the participant order of the index. A rhythm row that cannot
    /// be read is left out of its participant's numbers and passed to `unreadable`.
    func participantEntries(_ rows: [IndexRow], recordingPaths: [String], unreadable: ((String) -> Void)? = nil) throws -> [ParticipantIndexEntry] {
        let rhythms = try db.rhythmNumbers(unreadable: unreadable ?? { _ in })
        var byParticipant: [Participant: [IndexRow]] = [:]
        for r in rows { byParticipant[r.participant, default: []].append(r) }
        var recordings: [Participant: Set<String>] = [:]
        for path in recordingPaths { recordings[participant(path), default: []].insert(path) }
        let folders = Self.participantFolders(byParticipant.keys)
        return byParticipant.keys.sorted().map { p in
            let nights = byParticipant[p] ?? []
            let scored = nights.filter { $0.analysis?.status == .scored }.compactMap { r in
                r.analysis?.metrics.map { ParticipantSummary.Night(date: r.date, metrics: $0, timeline: r.timeline) }
            }
            let paths = (recordings[p] ?? []).sorted()
            let summary = ParticipantSummary.compute(participant: p, recordings: paths.map(PrintableText.escaped), nights: nights.count,
                                                     insufficient: nights.filter { $0.analysis?.status == .insufficientData }.count, scored: scored, rhythms: paths.compactMap { rhythms[$0] })
            return ParticipantIndexEntry(summary: summary, href: (folders[p] ?? Self.participantFolder(p.id)) + "/index.html",
                                         napsPerDay: ParticipantDays.napsPerDay(ParticipantDays.make(nights)))
        }
    }

    /// Writes each participant's page.
    func renderParticipants(_ entries: [ParticipantIndexEntry], rows: [IndexRow], renderer: ChartRenderer) throws -> [ReportWriter.Outcome] {
        var outcomes: [ReportWriter.Outcome] = []
        let byParticipant = Dictionary(grouping: rows, by: \.participant)
        let folders = Self.participantFolders(entries.map(\.summary.participant))
        // The rows hold printable paths: the folders by the printable path (the same for a plain one).
        let recordingFolders = Dictionary(try recordingFolders().map { (PrintableText.escaped($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        for e in entries {
            let folder = folders[e.summary.participant] ?? Self.participantFolder(e.summary.participant.id)
            let directory = try ReportPaths.path(folder, in: reportsDirectory)
            let nights = (byParticipant[e.summary.participant] ?? []).sorted { ($0.date, $0.nightID) < ($1.date, $1.nightID) }
            let recordings = Set(nights.map(\.recordingPath)).sorted().map {
                ParticipantReportInput.Link(href: "../../" + (recordingFolders[$0] ?? Self.recordingFolder($0)) + "/index.html", label: $0)
            }
            let overview = try Self.writeOverview(Self.overviewCharts(nights, participantInLabel: false), in: directory, renderer: renderer)
            outcomes += overview.outcomes
            var input = ParticipantReportInput(summary: e.summary, rule: participants.description,
                                               recordings: recordings, nights: nights, overviewCharts: overview.files)
            // Every sleep of each day, where the analyses hold the days' minute classes.
            input.days = ParticipantDays.make(nights)
            if !input.days.isEmpty {
                let chart = ParticipantDays.timeline(input.days, title: "Participant \(e.summary.participant.id) · every sleep of the day")
                outcomes.append(try ReportWriter.write(renderer.png(chart), to: directory + "/days.png"))
                input.dayChart = "days.png"
            }
            let page = HTMLPages.participantPage(input)
            outcomes.append(try ReportWriter.write(page, to: directory + "/index.html"))
        }
        // The pages of a grouping the run no longer has would be listed nowhere and stay wrong.
        _ = try removeStaleParticipantFolders(written: Set(entries.map { folders[$0.summary.participant] ?? Self.participantFolder($0.summary.participant.id) }))
        return outcomes
    }
}
