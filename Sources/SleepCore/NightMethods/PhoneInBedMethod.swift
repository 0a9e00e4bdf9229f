/// The phone-on-the-mattress method: ``NightAnalyzer`` (Oakley weighting with a night-relative
/// threshold) with time in bed = first to last second with data.
///
/// A phone log that covers most of the day (a sensor-logger app left running) has no such in-bed
/// span: when the night holds at least ``allDayCoverageSeconds`` of data, time in bed is first
/// narrowed to the main rest period, found on 1-min movement with ``MovementSPTWindow`` (sleepsta's
/// HDCZA-style rolling-median detector), and the analysis runs inside it.
///
/// A sleep diary's `nonwear` rows mean, for a phone, that it was off the mattress (taken to the
/// bathroom, moved to the bedside): what it recorded then is the phone's movement, not the
/// sleeper's, so those seconds are taken as no data before anything else (they can shorten time
/// in bed at its ends and, inside it, are neither sleep nor wake).
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
        var night = night
        let offBed = night.series.removingData(in: night.diaryNotWornUTC)
        guard offBed.removedSeconds > 0 else { return analyzeSeries(night, parameters: p) }
        night.series = offBed.series
        var analysis = analyzeSeries(night, parameters: p)
        analysis.notes.append(.diaryPhoneOffBed(seconds: offBed.removedSeconds))
        return analysis
    }

    func analyzeSeries(_ night: NightData, parameters p: AnalysisParameters) -> NightAnalysis {
        let inWindow = night.series.slice(from: night.window.startUTC, to: night.window.endUTC)
        // A sleep diary row sets time in bed (the data outside it is not the night's).
        if let guide = night.guide, guide.endUTC > guide.startUTC {
            var analysis = NightAnalyzer.analyze(series: inWindow.slice(from: max(guide.startUTC, inWindow.startSecond),
                                                                       to: min(guide.endUTC, inWindow.endSecond)),
                                                 window: night.window, parameters: p)
            analysis.notes.insert(.timeInBedFromDiary(source: guide.source), at: 0)
            return analysis
        }
        guard inWindow.coveredSeconds >= Self.allDayCoverageSeconds, let rest = Self.mainRestPeriod(inWindow) else {
            return NightAnalyzer.analyze(series: night.series, window: night.window, parameters: p)
        }
        var analysis = NightAnalyzer.analyze(series: inWindow.slice(from: rest.start, to: rest.end), window: night.window, parameters: p)
        analysis.notes.insert(.mainRestPeriod(coveredSeconds: inWindow.coveredSeconds, restSeconds: Int(rest.end - rest.start)), at: 0)
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
