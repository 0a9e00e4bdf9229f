import Foundation
import Testing
import SleepCore
import SleepPipeline
import SleepStore
import SleepstaWorkloads

/// The one place nights become analyses (``NightDerivation``): GGIR parity's recording-level work
/// is done once per recording, and a night derived from the prepared result is the night derived
/// alone; the identity decision a run takes for a known file.
@Suite("Night derivation", .serialized)
struct NightDerivationTests {
    @Test("GGIR's recording-level result is computed once per recording, and each night sliced from it equals the night computed alone")
    func ggirPreparedOncePerRecording() throws {
        let w = Workspace()
        try WearableCWAGenerator(signal: WearableCSVGenerator(days: 4)).write(to: w.data + "/wrist.cwa")
        let summary = try w.run(tz: "Europe/Berlin") { $0.parameters.nightMethod = .ggir }
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        let db = try SleepDatabase(path: w.db)
        let nights = try db.nightCatalog().compactMap { try db.night(id: $0.nightID) }
        #expect(nights.count >= 4)
        var p = AnalysisParameters()
        p.nightMethod = .ggir
        var contexts = StoredRecordingContexts(db: db)
        var prepared: [NightAnalysis] = []
        var context: RecordingContext?
        for night in nights {
            context = contexts.context(for: night)
            prepared += try NightDerivation(recording: context).analyses(of: night.data, kind: night.kind, sets: [.init(parameters: p, guide: nil)])
        }
        #expect(context?.preparations == 1, "GGIR's part 2 and bouts made once for \(nights.count) nights")
        // The same nights, each given only the whole recording (the method makes its own part 2).
        let recordingID = try #require(nights.first?.recordingID)
        let whole = try #require(try db.recordingEpochs(recordingID: recordingID))
        for (night, fromPrepared) in zip(nights, prepared) {
            var data = night.data
            data.recordingEpochs = whole
            data.recording = try db.recording(forNight: night.id)?.facts
            let alone = GGIRNightMethod().analyzeNight(data, parameters: p)
            #expect(Self.same(alone, fromPrepared, epochs: true), "\(night.id)")
            let stored = try #require(try db.analysis(nightID: night.id, parametersKey: GGIRNightMethod.parametersKey(p)))
            #expect(Self.same(stored, fromPrepared, epochs: false), "\(night.id): as stored by the run")
        }
        #expect(prepared.contains { $0.status == .scored })
        // GGIR parity's WASO holds its invalid time (SPT − TST, as GGIR's part 4): no data and not
        // worn are not reported apart.
        for m in prepared.compactMap(\.metrics) {
            #expect(m.noDataInSleepPeriodMinutes == nil && m.notWornInSleepPeriodMinutes == nil)
            #expect(abs(m.totalSleepTimeMinutes + m.wakeAfterSleepOnsetMinutes - m.sleepPeriodMinutes) < 1e-9)
        }
    }

    /// The same night analysis; an epoch without data has NaN activity, which `==` never matches,
    /// so epochs compare by bit pattern (a stored analysis keeps its numbers, not every epoch's bits).
    static func same(_ a: NightAnalysis, _ b: NightAnalysis, epochs: Bool) -> Bool {
        guard a.status == b.status, a.notes == b.notes, a.metrics == b.metrics, a.wearable == b.wearable else { return false }
        guard epochs else { return true }
        return a.intervals == b.intervals && a.epochs.count == b.epochs.count
            && zip(a.epochs, b.epochs).allSatisfy { $0.startUTC == $1.startUTC && $0.state == $1.state && $0.activity.bitPattern == $1.activity.bitPattern }
    }

    @Test("A method that reads nothing beyond its night never loads the recording")
    func plainMethodsLoadNothing() throws {
        var loads = 0
        let context = RecordingContext { loads += 1; return nil }
        let night = NightData(window: NightWindow(date: CivilDate(year: 2024, month: 6, day: 14), startUTC: 0, endUTC: 86_400),
                              timeline: UTCOffsetTimeline(initialOffsetSeconds: 0), series: .empty())
        _ = try NightDerivation(recording: context).analyses(of: night, kind: .wearable24h, sets: [.init(parameters: AnalysisParameters(), guide: nil)])
        #expect(loads == 0 && context.preparations == 0)
    }

    @Test("A known file: unchanged, moved, a twin, or read again; a new one is read")
    func identityDecision() {
        let none: (String) -> Bool = { _ in false }, all: (String) -> Bool = { _ in true }
        #expect(FileIdentity.decide(storedPath: nil, again: nil, relativePath: "a.cwa", exists: none) == .read(again: nil))
        #expect(FileIdentity.decide(storedPath: "a.cwa", again: nil, relativePath: "a.cwa", exists: all) == .unchanged)
        #expect(FileIdentity.decide(storedPath: "old/a.cwa", again: nil, relativePath: "a.cwa", exists: none) == .moved(from: "old/a.cwa"))
        #expect(FileIdentity.decide(storedPath: "old/a.cwa", again: nil, relativePath: "a.cwa", exists: all) == .twin(of: "old/a.cwa"))
        #expect(FileIdentity.decide(storedPath: "a.cwa", again: .counts, relativePath: "a.cwa", exists: all) == .read(again: .counts))
        #expect(FileIdentity.decide(storedPath: "old/a.cwa", again: .kind, relativePath: "a.cwa", exists: none) == .read(again: .kind))
    }
}
