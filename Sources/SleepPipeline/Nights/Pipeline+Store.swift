import Foundation
import SleepCore
import SleepReport
import SleepIngest
import SleepStore

extension Pipeline {
    /// The night loop, the same for every kind of recording: the read recording is split into
    /// nights (noon to noon on its local clock), each night analysed (``NightDerivation``) and
    /// stored with the recording in one transaction. Nights are made, analysed and stored one at a
    /// time, so memory holds one night's series, not the whole recording's (an app export of 30 years).
    ///
    /// The analyses stored before for this recording (other interval lengths from `compare`, a
    /// diary, another sleep algorithm) are not lost when the file is read again: each of their
    /// parameter sets is derived anew for the new nights in the same transaction
    /// (``rederived(_:kind:)``), one guided by another diary with the guides stored with it, as long as
    /// the recording's clock is the one those guides were placed on (`clockUnchanged`).
    func store(_ read: RecordingRead, path: String, relativePath: String, contentHash: String, before: FileStability,
               db: SleepDatabase, runID: Int64?, clockUnchanged: Bool = true, warnings: inout [String]) throws -> [String] {
        let kind = read.decision.kind
        var again = rederived(try storing { try db.storedAnalysisParameters(recordingPath: relativePath, contentHash: contentHash) }, kind: kind)
        let dropped = clockUnchanged ? [] : again.filter(guidedByAnotherDiary)
        if !dropped.isEmpty {
            again.removeAll(where: guidedByAnotherDiary)
            warnings.append("\(dropped.count) stored analysis parameter set(s) guided by another sleep diary were not derived again: the recording's clock changed, so the diary's times fall elsewhere (run with that --diary to restore them)")
        }
        let guides = again.contains(where: guidedByAnotherDiary)
            ? try storing { try db.storedGuides(recordingPath: relativePath, contentHash: contentHash) } : [:]
        let stem = NightNaming.recordingStem(relativePath)
        let taken = try storing { try db.nightIDs(excludingPath: relativePath) }
        let stored = StoredRecording(
            path: relativePath, contentHash: contentHash, format: read.format,
            sizeBytes: before.sizeBytes, sampleCount: read.sampleCount, effectiveSampleRateHz: read.effectiveSampleRateHz,
            firstUTC: read.span?.first, endUTC: read.span?.end, timeZone: read.timeZoneName, timeZoneSource: read.timeZoneSource,
            units: read.units, gravity: read.gravity, quality: read.quality,
            warnings: read.warnings, kind: kind, kindReason: read.decision.reason)
        try before.requireUnchanged(path: path)
        let rhythm = read.milestone.rhythm(timeline: read.timeline, parameters: configuration.parameters)
        // A method that reads the other days gets the whole read recording, prepared once.
        let derivation = NightDerivation(recording: RecordingContext {
            if case .wearable(let whole) = read.milestone { return (whole, stored.facts) }
            return nil
        })
        var nightIDs: [String] = []
        try storing { try db.replaceRecording(stored, runID: runID, rhythm: rhythm) { store in
            var ids = NightIDSequence(stem: stem, taken: taken)
            for segment in read.segments {
                let series = segment.series   // computed for interval totals: once per segment
                for window in NightSplitter.nights(in: series, timeline: read.timeline) {
                    let id = ids.next(window.date)
                    var night = Self.night(id, window: window, read: read, segment: segment, series: series)
                    let thisRun = configuration.diary?.guides(recordingPath: relativePath, night: window, timeline: read.timeline) ?? DiaryGuides()
                    night.guide = thisRun.main
                    night.diaryPeriods = thisRun.others
                    let sets = ([configuration.parameters] + again).map { p in
                        NightDerivation.Set(parameters: p, guides: diaryGuides(for: p, thisRun: thisRun, stored: guides, date: window.date))
                    }
                    try store(night, try derivation.analyses(of: night.data, kind: kind, sets: sets))
                    nightIDs.append(id)
                }
            }
        } }
        return nightIDs
    }

    /// One night of a read recording, as the store keeps it.
    static func night(_ id: String, window: NightWindow, read: RecordingRead, segment: RecordingSegment, series: SecondSeries) -> StoredNight {
        let milestone = read.milestone.night(window)
        return StoredNight(id: id, window: window, timeline: read.timeline, timeZone: read.timeZoneName,
                           label: segment.label,
                           preBedSurvey: segment.preBedSurvey.map { SurveyItem(question: $0.question, answer: $0.answer) },
                           postBedSurvey: segment.postBedSurvey.map { SurveyItem(question: $0.question, answer: $0.answer) },
                           series: series.slice(from: window.startUTC, to: window.endUTC).trimmedToData(),
                           epochs: milestone.epochs, epochFile: milestone.epochFile, kind: read.decision.kind)
    }

    /// What a diary said of the night for parameter set `p`: nothing without a diary, this run's
    /// diary's guides, or the guides stored with another diary's analyses.
    func diaryGuides(for p: AnalysisParameters, thisRun: DiaryGuides, stored: [String: DiaryGuides], date: CivilDate) -> DiaryGuides {
        guard let digest = p.diaryDigest else { return DiaryGuides() }
        return guidedByAnotherDiary(p) ? stored[SleepDatabase.guideKey(nightDate: date.description, diaryDigest: digest)] ?? DiaryGuides() : thisRun
    }

    /// Of the parameter sets stored for a recording before it is read again, those to derive again
    /// beside this run's: every other key of the recording's methods, once.
    func rederived(_ earlier: [AnalysisParameters], kind: RecordingKind) -> [AnalysisParameters] {
        func key(_ p: AnalysisParameters) -> String { NightAnalysisMethods.method(for: kind, parameters: p).parametersKey(p) }
        var seen: Set<String> = [key(configuration.parameters)]
        return earlier.filter { seen.insert(key($0)).inserted }
    }

    /// Whether `p` was guided by a sleep diary other than this run's: its guides come from the
    /// store (``SleepDatabase/storedGuides(recordingPath:contentHash:)``), not from a diary.
    func guidedByAnotherDiary(_ p: AnalysisParameters) -> Bool {
        p.diaryDigest.map { $0 != configuration.diary?.digest } ?? false
    }
}
