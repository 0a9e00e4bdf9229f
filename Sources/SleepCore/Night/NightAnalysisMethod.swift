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

    public init(window: NightWindow, timeline: UTCOffsetTimeline, series: SecondSeries, epochs: WearableEpochs? = nil,
                epochFile: EpochNightSeries? = nil, guide: TimeInBedGuide? = nil) {
        self.window = window; self.timeline = timeline; self.series = series; self.epochs = epochs
        self.epochFile = epochFile; self.guide = guide
    }
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

/// One way of turning a night's stored data into sleep estimates, one per ``RecordingKind``
/// (GGIR's guiders in `HASPT.R` are interchangeable in the same way: one input, one output shape).
/// Pure: no I/O.
public protocol NightAnalysisMethod: Sendable {
    var kind: RecordingKind { get }
    /// Stored as the analysis' `algorithm`.
    var algorithm: String { get }
    /// The night page's sentence on what ran.
    var summary: String { get }
    /// The store's key for an analysis with these parameters: every parameter the result depends on.
    func parametersKey(_ parameters: AnalysisParameters) -> String
    func analyze(_ night: NightData, parameters: AnalysisParameters) -> NightAnalysis
    /// ``algorithm`` and ``summary`` under given parameters (`--sleep-algorithm` changes them).
    func algorithm(_ parameters: AnalysisParameters) -> String
    func summary(_ parameters: AnalysisParameters) -> String
}

extension NightAnalysisMethod {
    public func algorithm(_ parameters: AnalysisParameters) -> String { algorithm }
    public func summary(_ parameters: AnalysisParameters) -> String { summary }
}

/// The pipeline's one place that maps a recording kind to its method.
public enum NightAnalysisMethods {
    public static func method(for kind: RecordingKind) -> any NightAnalysisMethod {
        switch kind {
        case .phoneInBed: return PhoneInBedMethod()
        case .wearable24h: return WearableNightMethod()
        case .epochFile: return EpochFileNightMethod()
        }
    }

    /// The store's analysis key of every kind's method under `parameters`.
    public static func keys(_ parameters: AnalysisParameters) -> [RecordingKind: String] {
        Dictionary(uniqueKeysWithValues: RecordingKind.allCases.map { ($0, method(for: $0).parametersKey(parameters)) })
    }
}

/// The phone-on-the-mattress method: ``NightAnalyzer`` (Oakley weighting with a night-relative
/// threshold) with time in bed = first to last second with data.
///
/// A phone log that covers most of the day (a sensor-logger app left running) has no such in-bed
/// span: when the night holds at least ``allDayCoverageSeconds`` of data, time in bed is first
/// narrowed to the main rest period, found on 1-min movement with ``MovementSPTWindow`` (sleepsta's
/// HDCZA-style rolling-median detector), and the analysis runs inside it.
public struct PhoneInBedMethod: NightAnalysisMethod {
    public static let allDayCoverageSeconds = 16 * 3600
    public init() {}
    public var kind: RecordingKind { .phoneInBed }
    public var algorithm: String { AnalysisParameters.algorithmName }
    public var summary: String {
        "phone-in-bed: movement from the phone's user acceleration, sleep/wake by Oakley's weighting with a threshold relative to the night's median, time in bed = first to last second with data"
    }
    public func parametersKey(_ parameters: AnalysisParameters) -> String {
        parameters.key + (parameters.diaryDigest.map { ";diary=\($0)" } ?? "")
    }

    public func analyze(_ night: NightData, parameters p: AnalysisParameters) -> NightAnalysis {
        let inWindow = night.series.slice(from: night.window.startUTC, to: night.window.endUTC)
        // A sleep diary row sets time in bed (the data outside it is not the night's).
        if let guide = night.guide, guide.endUTC > guide.startUTC {
            var analysis = NightAnalyzer.analyze(series: inWindow.slice(from: max(guide.startUTC, inWindow.startSecond),
                                                                       to: min(guide.endUTC, inWindow.endSecond)),
                                                 window: night.window, parameters: p)
            analysis.statusReason = "time in bed from \(guide.source)" + (analysis.statusReason.map { "; " + $0 } ?? "")
            return analysis
        }
        guard inWindow.coveredSeconds >= Self.allDayCoverageSeconds, let rest = Self.mainRestPeriod(inWindow) else {
            return NightAnalyzer.analyze(series: night.series, window: night.window, parameters: p)
        }
        var analysis = NightAnalyzer.analyze(series: inWindow.slice(from: rest.start, to: rest.end), window: night.window, parameters: p)
        let gridNote = analysis.statusReason
        analysis.statusReason = "the data covers \(LocalClock.hoursText(seconds: inWindow.coveredSeconds)) of this night's 24 h: time in bed is the main rest period found in the movement (\(LocalClock.hoursText(seconds: Int(rest.end - rest.start))))"
            + (gridNote.map { "; " + $0 } ?? "")
        return analysis
    }

    /// The longest low-movement block of the night on 1-min movement, or nil.
    static func mainRestPeriod(_ series: SecondSeries) -> (start: Int64, end: Int64)? {
        let minute = IntervalLength(seconds: 60)!
        let minutes = IntervalAggregator.aggregate(series, length: minute, gridOriginUTC: series.startSecond,
                                                   fromUTC: series.startSecond, toUTC: series.endSecond)
        let movement = minutes.map { $0.movementPerMinute ?? 0 }
        let invalid = minutes.map { $0.coverageSeconds == 0 }
        guard let spt = MovementSPTWindow.detect(movement: movement, invalid: invalid,
                                                 parameters: MovementSPTWindow.Parameters(epochSeconds: 60)) else { return nil }
        return (minutes[spt.span.startEpoch].startUTC, minutes[max(spt.span.startEpoch, spt.span.endEpoch - 1)].endUTC)
    }
}
