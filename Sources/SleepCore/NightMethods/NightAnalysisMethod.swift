/// Everything a night-analysis method may use of one stored night: its window, its clock, the
/// per-second base series and, for recordings with raw acceleration, the 5-s wearable milestone.
public struct NightData: Sendable {
    public var window: NightWindow
    public var timeline: UTCOffsetTimeline
    public var series: SecondSeries
    /// ENMO / angle-z / MAD / non-wear per 5-s epoch, covering the window and the 6 h after it
    /// (GGIR's day-sleeper re-run looks at 18:00 to 18:00); nil when the source had no raw samples.
    public var epochs: WearableEpochs?
    /// The file's epochs, for recordings of an epoch file (``EpochFileNightMethod``); nil otherwise.
    public var epochFile: EpochNightSeries?
    /// Time in bed from outside the data (a sleep diary), which then guides the method; nil = none.
    public var guide: TimeInBedGuide?
    /// The diary's other periods of the day (a split night's other sleep, naps), each with its own
    /// time in bed: a method that finds several periods a day makes each a period of source `diary`.
    public var diaryPeriods: [DiaryPeriodGuide] = []
    /// The diary's sleep periods of the day (its `sleep` and `nap` rows besides the main one).
    public var diarySleeps: [DiaryPeriodGuide] { diaryPeriods.filter { $0.kind != .nonwear } }
    /// The diary's spans of the device off the wrist (`nonwear` rows): `[from, to)` UTC seconds.
    public var diaryNotWornUTC: [[Int64]] { diaryPeriods.filter { $0.kind == .nonwear }.map { [$0.startUTC, $0.endUTC] } }
    /// The whole recording's 5-s epochs, for a method that looks at the other days (GGIR parity:
    /// its imputation and non-wear clean-up); nil when the pipeline did not supply them.
    public var recordingEpochs: WearableEpochs? = nil
    /// The recording's format and rate, for a method that follows how another tool read the file
    /// (GGIR parity: its read chunks); nil when the pipeline did not supply them.
    public var recording: RecordingFacts? = nil
    /// What the method made of the whole recording, once for all its nights
    /// (``NightAnalysisMethod/prepare(recording:facts:timeline:)``); nil: the method makes it itself.
    public var recordingResult: (any Sendable)? = nil

    public init(window: NightWindow, timeline: UTCOffsetTimeline, series: SecondSeries, epochs: WearableEpochs? = nil,
                epochFile: EpochNightSeries? = nil, guide: TimeInBedGuide? = nil) {
        self.window = window; self.timeline = timeline; self.series = series; self.epochs = epochs
        self.epochFile = epochFile; self.guide = guide
    }
}

/// What a method may need to know of the recording a night came from.
public struct RecordingFacts: Sendable, Hashable {
    /// The reader's format; nil for a name this version does not know (a store written by a newer one).
    public var format: SourceFormat?
    /// The device's nominal sample rate (the effective one where none is stated).
    public var sampleRateHz: Double
    public init(format: SourceFormat?, sampleRateHz: Double) { self.format = format; self.sampleRateHz = sampleRateHz }
}

/// Time in bed given from outside the data (GGIR's sleeplog, pyActigraphy's SleepDiary): in bed /
/// lights off to out of bed / lights on, and where it came from.
public struct TimeInBedGuide: Sendable, Hashable, Codable {
    public var startUTC: Int64
    public var endUTC: Int64
    /// For the page: `the sleep diary (diary.csv row 4)`.
    public var source: String
    public init(startUTC: Int64, endUTC: Int64, source: String) {
        self.startUTC = startUTC; self.endUTC = endUTC; self.source = source
    }
}

/// A period of a day that a sleep diary names besides the night's main time in bed: the other
/// half of a split night (another `sleep` row of the night) or a nap (a `nap` row), with its own
/// time in bed; or a span the diary says the device was off (a `nonwear` row), which the methods
/// that judge wear take as not worn.
public struct DiaryPeriodGuide: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable { case sleep, nap, nonwear }
    public var kind: Kind
    public var startUTC: Int64
    public var endUTC: Int64
    /// For the page: `the sleep diary (diary.csv row 5)`.
    public var source: String
    public init(kind: Kind, startUTC: Int64, endUTC: Int64, source: String) {
        self.kind = kind; self.startUTC = startUTC; self.endUTC = endUTC; self.source = source
    }
}

/// What a sleep diary says of one night: its main time in bed and the day's other periods.
public struct DiaryGuides: Sendable, Hashable {
    public var main: TimeInBedGuide?
    public var others: [DiaryPeriodGuide]
    public init(main: TimeInBedGuide? = nil, others: [DiaryPeriodGuide] = []) { self.main = main; self.others = others }
}

/// What a method reads beyond its own night's series and epochs, so that the pipeline supplies it
/// where the method asks, not where a flag says.
public struct NightInputs: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The whole recording's 5-s epochs and facts (``NightData/recordingEpochs``, ``NightData/recording``):
    /// for a method that looks at the other days.
    public static let wholeRecording = NightInputs(rawValue: 1 << 0)
    /// GGIR's 2023 non-wear scores in the stored milestone: a recording stored without them, or
    /// with scores of an older reading, is read again.
    public static let ggirNonWearScores = NightInputs(rawValue: 1 << 1)
}

/// One way of turning a night's stored data into sleep estimates, chosen per ``RecordingKind`` and
/// `--method` (GGIR's guiders in `HASPT.R` are interchangeable in the same way: one input, one
/// output shape). Pure: no I/O.
public protocol NightAnalysisMethod: Sendable {
    var kind: RecordingKind { get }
    /// Stored as the analysis' `algorithm`.
    var algorithm: String { get }
    /// The night page's sentence on what ran.
    var summary: String { get }
    /// What the method reads beyond its night (default: nothing).
    var inputs: NightInputs { get }
    /// The store's key for an analysis with these parameters: every parameter the result depends on.
    func parametersKey(_ parameters: AnalysisParameters) -> String
    func analyze(_ night: NightData, parameters: AnalysisParameters) -> NightAnalysis
    /// ``algorithm`` and ``summary`` under given parameters (`--sleep-algorithm` changes them).
    func algorithm(_ parameters: AnalysisParameters) -> String
    func summary(_ parameters: AnalysisParameters) -> String
    /// The night page's sentence for one analysis: the branch of the method that ran for it, where
    /// the method has several (default: ``summary(_:)``).
    func summary(of analysis: NightAnalysis) -> String
    /// The recording-level work of a method that reads the whole recording, done once per
    /// recording and handed to each of its nights as ``NightData/recordingResult`` (default: none).
    func prepare(recording: WearableEpochs, facts: RecordingFacts, timeline: UTCOffsetTimeline) -> (any Sendable)?
    /// Why the method does not apply a diary's `nonwear` rows, for the run summary; nil (the
    /// default) where it applies them.
    var diaryNonwearNotApplied: String? { get }
}

extension NightAnalysisMethod {
    public var inputs: NightInputs { [] }
    public var diaryNonwearNotApplied: String? { nil }
    public func algorithm(_ parameters: AnalysisParameters) -> String { algorithm }
    public func summary(_ parameters: AnalysisParameters) -> String { summary }
    public func summary(of analysis: NightAnalysis) -> String { summary(analysis.parameters) }
    public func prepare(recording: WearableEpochs, facts: RecordingFacts, timeline: UTCOffsetTimeline) -> (any Sendable)? { nil }
}

/// The one place that maps a recording kind and the parameters to a method.
public enum NightAnalysisMethods {
    public static func method(for kind: RecordingKind, parameters: AnalysisParameters) -> any NightAnalysisMethod {
        switch kind {
        case .phoneInBed: return PhoneInBedMethod()
        case .wearable24h: return parameters.nightMethod == .ggir ? GGIRNightMethod() : WearableNightMethod()
        case .epochFile: return EpochFileNightMethod()
        }
    }

    /// The store's analysis key of every kind's method under `parameters`.
    public static func keys(_ parameters: AnalysisParameters) -> [RecordingKind: String] {
        Dictionary(uniqueKeysWithValues: RecordingKind.allCases.map { ($0, method(for: $0, parameters: parameters).parametersKey(parameters)) })
    }
}
