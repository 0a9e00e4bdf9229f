import Foundation
import Logging
import SleepCore
import SleepStore

extension Pipeline {
    /// Nights stored earlier but not yet analysed with this run's parameters: derived again from
    /// the stored base series and epochs (``NightDerivation``), without reading raw files.
    /// Returns the nights analysed.
    func rederive(db: SleepDatabase, runID: Int64?, summary: inout RunSummary) throws -> Set<String> {
        let c = configuration
        let missing = try storing { try db.nightIDsMissingAnalysis(keys: c.analysisKeys) }
        var state = PipelineProgress(stage: .analyses, done: 0, total: missing.count, nights: summary.nightsAnalysed)
        var recordings = StoredRecordingContexts(db: db) { $0 is StoredRowError ? $0 : Self.storeError($0, databasePath: c.databasePath) }
        var analysed = Set<String>()
        for nightID in missing {
            state.item = nightID
            progress?.update(state)
            let night: StoredNight, analysis: NightAnalysis
            do {
                guard let stored = try storingRow({ try db.night(id: nightID) }) else { continue }
                night = stored
                var guides = DiaryGuides()
                if let diary = c.diary, let path = try storingRow({ try db.recording(forNight: nightID)?.path }) {
                    guides = diary.guides(recordingPath: path, night: night.window, timeline: night.timeline)
                }
                let derivation = NightDerivation(recording: recordings.context(for: night))
                analysis = try derivation.analyses(of: night.data, kind: night.kind, sets: [.init(parameters: c.parameters, guides: guides)])[0]
            } catch let e as StoredRowError {
                // A row that cannot be read (the night's or its recording's) costs its night, not the run.
                summary.unreadableRows.append(PrintableText.escaped(e.message))
                logger.error("\(e.message); the night is not analysed")
                continue
            }
            try storing { try db.saveAnalysis(analysis, nightID: nightID, runID: runID) }
            summary.nightsAnalysed += 1
            summary.kindsAnalysed.insert(night.kind)
            analysed.insert(nightID)
            logger.debug("analysed \(nightID) with \(analysis.key)")
            state.done += 1
            state.nights = summary.nightsAnalysed
        }
        return analysed
    }
}

/// The stored recordings behind nights derived one after another, each loaded from the store at
/// most once while it is among the last few met (nights come by date, recordings interleaved).
package struct StoredRecordingContexts {
    let db: SleepDatabase
    /// What a failed store read becomes (the pipeline blames the store, not the file: ``Pipeline/storeError(_:databasePath:)``).
    let blame: @Sendable (any Error) -> any Error
    private var contexts: [Int64: RecordingContext] = [:]
    static let kept = 8

    package init(db: SleepDatabase, blame: @escaping @Sendable (any Error) -> any Error = { $0 }) { self.db = db; self.blame = blame }

    /// The context of `night`'s recording; nil for a night without one.
    package mutating func context(for night: StoredNight) -> RecordingContext? {
        guard let id = night.recordingID else { return nil }
        if let known = contexts[id] { return known }
        if contexts.count >= Self.kept { contexts.removeAll() }
        let (db, blame, nightID) = (db, blame, night.id)
        let context = RecordingContext {
            do {
                guard let epochs = try db.recordingEpochs(recordingID: id),
                      let facts = try db.recording(forNight: nightID)?.facts else { return nil }
                return (epochs, facts)
            } catch {
                throw blame(error)
            }
        }
        contexts[id] = context
        return context
    }
}
