/// What a recording holds beyond its per-second base series for its nights' method: the wearable
/// 5-s epochs (raw acceleration with gravity, ``WearableNightMethod``), the epoch file's own epochs
/// (``EpochFileNightMethod``), or nothing (``PhoneInBedMethod`` needs only the base series).
public enum RecordingMilestone: Sendable {
    case none
    case wearable(WearableEpochs)
    case epochFile(EpochNightSeries)

    /// The part of the milestone that one night's method reads: the wearable epochs cover the
    /// window and the 6 h after it (GGIR's day-sleeper re-run looks at 18:00 to 18:00), an epoch
    /// file's epochs the window.
    public func night(_ window: NightWindow) -> (epochs: WearableEpochs?, epochFile: EpochNightSeries?) {
        switch self {
        case .none: return (nil, nil)
        case .wearable(let e): return (e.slice(from: window.startUTC, to: window.endUTC + 6 * 3600), nil)
        case .epochFile(let s): return (nil, s.slice(from: window.startUTC, to: window.endUTC))
        }
    }

    /// The rhythm across days (IS, IV, RA, L5, M10, SRI): of a wearable's epochs, or of an epoch
    /// file's activity column; nil for phone recordings, which hold nights only.
    public func rhythm(timeline: UTCOffsetTimeline, parameters: AnalysisParameters) -> RecordingRhythm? {
        switch self {
        case .none: return nil
        case .wearable(let e): return RecordingRhythm.wearable(e, timeline: timeline)
        case .epochFile(let whole):
            let method = EpochFileNightMethod()
            guard let c = method.activityColumn(whole) else { return nil }
            let counts = EpochActivityFamily.of(column: c.name) != .acceleration
            // Not worn as the nights see it (runs of zero counts), for the actogram; the metrics
            // themselves follow pyActigraphy's defaults, which mask nothing.
            return RecordingRhythm.compute(source: "\(c.name) (\(c.unit)) per \(whole.epochSeconds)-s epoch" + (counts ? ", binarized at > 4 (pyActigraphy's default)" : ""),
                                           activity: c.values, epochSeconds: whole.epochSeconds, startUTC: whole.startUTC, timeline: timeline,
                                           states: method.recordingStates(whole, parameters: parameters), binarize: counts,
                                           nonWear: counts ? EpochFileNightMethod.zeroRunNonWear(c.values, epochSeconds: whole.epochSeconds) : nil)
        }
    }
}
