/// The rest-activity rhythm of one whole recording across its days: IS, IV, RA, L5 and M10 (with
/// their onset clock times, ``RestActivityMetrics``) and the Sleep Regularity Index
/// (``SleepRegularityIndex``), each as pyActigraphy 1.2.2 computes it by default
/// (`binarize=True, threshold=4`, hourly bins; SRI on 0 = sleep / 1 = wake scores), plus the
/// activity kept for the actogram.
///
/// Computed only for recordings of at least ``minimumDays`` days (IS and IV compare days; van
/// Someren et al. 1999 ask for at least 3); shorter recordings get `too-short` and the reason.
public struct RecordingRhythm: Sendable, Equatable, Codable {
    public static let minimumDays = 3.0

    public enum Status: String, Sendable, Codable {
        case computed
        case tooShort = "too-short"
        case noActivity = "no-activity"
    }

    /// What the activity is, e.g. `activity (counts) per 30-s epoch, binarized at > 4`.
    public var source: String
    public var status: Status
    public var statusReason: String?
    /// Days from the first to the last epoch with data.
    public var days: Double
    public var metrics: RestActivityMetrics?
    public var sleepRegularityIndex: Double?
    /// The actogram's data: activity per ``epochSeconds`` from ``startUTC`` (NaN = no data), and
    /// sleep/wake per epoch where scored.
    public var startUTC: Int64
    public var epochSeconds: Int
    public var activity: [Float]
    public var sleep: [SleepWake?]?
    /// Per epoch, taken as not worn (the wearable method's non-wear; runs of zero counts in an
    /// epoch file); nil when the recording has no such rule. The actogram marks these.
    public var nonWear: [Bool]? = nil
    /// UTC offset of the first epoch (seconds east), for the clock times.
    public var utcOffsetSeconds: Int

    public init(source: String, status: Status, statusReason: String?, days: Double, metrics: RestActivityMetrics?,
                sleepRegularityIndex: Double?, startUTC: Int64, epochSeconds: Int, activity: [Float], sleep: [SleepWake?]?,
                utcOffsetSeconds: Int) {
        self.source = source; self.status = status; self.statusReason = statusReason; self.days = days; self.metrics = metrics
        self.sleepRegularityIndex = sleepRegularityIndex; self.startUTC = startUTC; self.epochSeconds = epochSeconds
        self.activity = activity; self.sleep = sleep; self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The rhythm of an activity series.
    /// - Parameters:
    ///   - activity: one value per epoch (NaN = missing), from `startUTC`.
    ///   - states: sleep/wake per epoch for the SRI (nil entries = unscored), or nil for none.
    ///   - binarize: pyActigraphy's default for counts (activity > 4 → 1); false for acceleration summaries.
    public static func compute(source: String, activity: [Double], epochSeconds: Int, startUTC: Int64,
                               timeline: UTCOffsetTimeline, states: [SleepWake?]?, binarize: Bool,
                               nonWear: [Bool]? = nil) -> RecordingRhythm {
        var rhythm = metrics(source: source, activity: activity, epochSeconds: epochSeconds, startUTC: startUTC,
                             timeline: timeline, states: states, binarize: binarize)
        rhythm.nonWear = nonWear
        return rhythm
    }

    static func metrics(source: String, activity: [Double], epochSeconds: Int, startUTC: Int64,
                        timeline: UTCOffsetTimeline, states: [SleepWake?]?, binarize: Bool) -> RecordingRhythm {
        let present = activity.indices.filter { !activity[$0].isNaN }
        let offset = Int(timeline.offset(atUTC: startUTC))
        let keep = activity.map(Float.init)
        guard let first = present.first, let last = present.last else {
            return RecordingRhythm(source: source, status: .noActivity, statusReason: "no epoch with activity", days: 0, metrics: nil,
                                   sleepRegularityIndex: nil, startUTC: startUTC, epochSeconds: epochSeconds, activity: keep,
                                   sleep: states, utcOffsetSeconds: offset)
        }
        let days = Double((last + 1 - first) * epochSeconds) / 86_400
        guard days >= minimumDays else {
            return RecordingRhythm(source: source, status: .tooShort,
                                   statusReason: "\(LocalClock.hoursText(seconds: (last + 1 - first) * epochSeconds)) of data; IS, IV, RA, L5, M10 and SRI compare days and need at least \(Int(minimumDays)) days",
                                   days: days, metrics: nil, sleepRegularityIndex: nil, startUTC: startUTC, epochSeconds: epochSeconds,
                                   activity: keep, sleep: states, utcOffsetSeconds: offset)
        }
        guard 86_400 % epochSeconds == 0, 3600 % epochSeconds == 0 else {
            return RecordingRhythm(source: source, status: .noActivity, statusReason: "\(epochSeconds)-s epochs do not divide an hour",
                                   days: days, metrics: nil, sleepRegularityIndex: nil, startUTC: startUTC, epochSeconds: epochSeconds,
                                   activity: keep, sleep: states, utcOffsetSeconds: offset)
        }
        let metrics = RestActivityMetrics.compute(counts: activity, epochSeconds: epochSeconds, startUnixSeconds: startUTC,
                                                  utcOffsetSeconds: offset, options: .init(binarize: binarize))
        let sri = states.flatMap { SleepRegularityIndex.compute(states: $0, epochSeconds: epochSeconds) }
        return RecordingRhythm(source: source, status: .computed, statusReason: nil, days: days, metrics: metrics,
                               sleepRegularityIndex: sri, startUTC: startUTC, epochSeconds: epochSeconds, activity: keep,
                               sleep: states, utcOffsetSeconds: offset)
    }

    /// `HH:MM` (or `HH:MM:SS` when the seconds are not 0) of a number of seconds after midnight.
    public static func clockText(_ seconds: Int?) -> String? {
        guard let s0 = seconds else { return nil }
        let s = (s0 % 86_400 + 86_400) % 86_400
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(s / 3600)):\(two(s / 60 % 60))" + (s % 60 == 0 ? "" : ":\(two(s % 60))")
    }

    /// Seconds after midnight of a ``clockText(_:)``.
    public static func seconds(clockText text: String?) -> Int? {
        guard let parts = text?.split(separator: ":").map({ Int($0) }), parts.count >= 2, parts.allSatisfy({ $0 != nil }) else { return nil }
        return parts[0]! * 3600 + parts[1]! * 60 + (parts.count > 2 ? parts[2]! : 0)
    }
}

extension EpochFileNightMethod {
    /// Sleep/wake over a whole recording with the same scorer as its nights (for the SRI and the
    /// actogram), at the file's own epochs (60-s scorers' labels spread back over their epochs).
    public func recordingStates(_ series: EpochNightSeries, parameters p: AnalysisParameters = AnalysisParameters()) -> [SleepWake?]? {
        guard let column = activityColumn(series) else { return nil }
        var summary = EpochFileNightSummary(column: column.name, columnTitle: column.sourceName, unit: column.unit,
                                            family: EpochActivityFamily.of(column: column.name), fileEpochSeconds: series.epochSeconds)
        guard let scored = Self.score(series, column: column, family: summary.family, parameters: p, summary: &summary) else { return nil }
        if scored.epochSeconds == series.epochSeconds && scored.startUTC == series.startUTC { return scored.states }
        return (0..<series.count).map { i in
            let k = Int(LocalClock.floorDiv(series.epochStartUTC(i) - scored.startUTC, Int64(scored.epochSeconds)))
            return k >= 0 && k < scored.states.count ? scored.states[k] : nil
        }
    }
}

extension RecordingRhythm {
    /// The rhythm of a wearable recording from its 5-s milestone: ENMO in mg per minute (mean of
    /// the minute's worn epochs; not worn or no data = missing), not binarized (acceleration, not
    /// counts); sleep/wake for the SRI from van Hees 2015 on angle-z over the whole recording,
    /// per minute by majority of its worn epochs (ties sleep).
    public static func wearable(_ e: WearableEpochs, timeline: UTCOffsetTimeline) -> RecordingRhythm {
        let per = 60 / WearableEpochs.epochSeconds
        let first = LocalClock.floorDiv(e.startUTC, 60) * 60
        let skip = Int(e.startUTC - first) / WearableEpochs.epochSeconds
        let minutes = (skip + e.count + per - 1) / per
        var sums = [Double](repeating: 0, count: minutes), counts = [Int](repeating: 0, count: minutes)
        var sleep = [Int](repeating: 0, count: minutes), wake = [Int](repeating: 0, count: minutes)
        var seen = [Int](repeating: 0, count: minutes), off = [Int](repeating: 0, count: minutes)
        let angles = (0..<e.count).map { e.hasData($0) ? Double(e.angleZ[$0]) : .nan }
        let sib = VanHees2015.score(angleZDegrees: angles, epochSeconds: Double(WearableEpochs.epochSeconds))
        for i in 0..<e.count where e.hasData(i) {
            let m = (skip + i) / per
            seen[m] += 1
            guard !e.nonWear[i] else { off[m] += 1; continue }
            sums[m] += Double(e.enmo[i]) * 1000; counts[m] += 1
            if sib[i] == .sleep { sleep[m] += 1 } else if sib[i] == .wake { wake[m] += 1 }
        }
        let activity = (0..<minutes).map { counts[$0] > 0 ? sums[$0] / Double(counts[$0]) : .nan }
        let states: [SleepWake?] = (0..<minutes).map { sleep[$0] + wake[$0] > 0 ? (sleep[$0] >= wake[$0] ? .sleep : .wake) : nil }
        // A minute is not worn when most of its epochs with data are (GGIR's 2013 rule, per epoch).
        let nonWear = (0..<minutes).map { seen[$0] > 0 && off[$0] * 2 >= seen[$0] }
        return compute(source: "ENMO (mg) per 60-s epoch, worn data only", activity: activity, epochSeconds: 60, startUTC: first,
                       timeline: timeline, states: states, binarize: false, nonWear: nonWear)
    }
}
