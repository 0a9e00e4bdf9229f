import SleepCore
import SleepStore

/// The one place a night becomes its analyses: for a file just read (`run`, `nightly`), for nights
/// stored earlier and not yet analysed with a run's parameters (re-derivation), and for `compare`.
/// For each parameter set it picks the method of the recording's kind and `--method`, gives it the
/// diary guide that set was made with, and, to a method that reads the whole recording
/// (``NightInputs/wholeRecording``), the recording with what the method prepared of it once
/// (``RecordingContext``).
package struct NightDerivation {
    /// The recording the nights belong to, for methods that read all of it; nil when none can.
    var recording: RecordingContext?

    /// One parameter set to derive, with what its diary said of this night (none: no diary row).
    package struct Set {
        var parameters: AnalysisParameters
        var guides: DiaryGuides
        init(parameters: AnalysisParameters, guides: DiaryGuides = DiaryGuides()) { self.parameters = parameters; self.guides = guides }
        package init(parameters: AnalysisParameters, guide: TimeInBedGuide?) { self.init(parameters: parameters, guides: DiaryGuides(main: guide)) }
    }

    /// The analyses of `night` (of a recording of `kind`), one per set, in order.
    package func analyses(of night: NightData, kind: RecordingKind, sets: [Set]) throws -> [NightAnalysis] {
        try sets.map { set in
            let method = NightAnalysisMethods.method(for: kind, parameters: set.parameters)
            var data = night
            data.guide = set.guides.main
            data.diaryPeriods = set.guides.others
            if method.inputs.contains(.wholeRecording), let whole = try recording?.input(for: method, timeline: night.timeline) {
                data.recordingEpochs = whole.epochs
                data.recording = whole.facts
                data.recordingResult = whole.prepared
            }
            var analysis = method.analyzeNight(data, parameters: set.parameters)
            // The guide is stored with an analysis made with a diary, so that it can be derived
            // again without the diary.
            if set.parameters.diaryDigest != nil { analysis.guide = data.guide; analysis.diaryPeriods = data.diaryPeriods }
            return analysis
        }
    }

    package init(recording: RecordingContext?) {
        self.recording = recording
    }
}

/// The whole recording behind a set of nights, loaded at most once, and what each method that
/// reads it made of it (``NightAnalysisMethod/prepare(recording:facts:timeline:)``), made once:
/// GGIR parity's part 2 over a month is computed once, not once a night.
package final class RecordingContext {
    package typealias Whole = (epochs: WearableEpochs, facts: RecordingFacts)
    private let load: () throws -> Whole?
    private var loaded: Whole??
    /// By method algorithm, with the clock it was prepared on.
    private var prepared: [String: (timeline: UTCOffsetTimeline, result: (any Sendable)?)] = [:]
    /// How many recording-level results were computed (each method's once per recording and clock).
    package private(set) var preparations = 0

    package init(load: @escaping () throws -> Whole?) { self.load = load }

    /// The recording, its facts and `method`'s recording-level result on `timeline`'s clock; nil
    /// when the recording has no wearable epochs.
    func input(for method: any NightAnalysisMethod, timeline: UTCOffsetTimeline)
        throws -> (epochs: WearableEpochs, facts: RecordingFacts, prepared: (any Sendable)?)? {
        if loaded == nil { loaded = .some(try load()) }
        guard let whole = loaded ?? nil else { return nil }
        let key = method.algorithm
        if let p = prepared[key], p.timeline == timeline { return (whole.epochs, whole.facts, p.result) }
        let result = method.prepare(recording: whole.epochs, facts: whole.facts, timeline: timeline)
        preparations += 1
        prepared[key] = (timeline, result)
        return (whole.epochs, whole.facts, result)
    }
}
