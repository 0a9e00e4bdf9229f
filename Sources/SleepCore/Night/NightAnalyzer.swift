/// Analyses one night from its per-second base series: epochs → sleep/wake → sleep period →
/// interval states and phases → night metrics.
public enum NightAnalyzer {
    /// The origin of the interval grid and, when the source's own intervals cannot be followed, why.
    ///
    /// Raw samples: the night's local noon, so boundaries fall on the clock. A source that only
    /// holds interval totals (the app's export: 10-min totals that may close at :05, :15 …) has its
    /// own phase; an interval grid through noon would cut each source interval in two, spreading one
    /// awakening over two intervals where majority votes (ties: sleep) can erase it. So when the
    /// length is a multiple or a divisor of the source resolution, the grid follows the source: its
    /// origin is shifted to the first source interval's start (the first second with data). Other
    /// lengths (15 min over 10-min totals) cannot align with it: they keep the clock grid and a note says so.
    public static func intervalGrid(sourceResolutionSeconds source: Int, firstDataUTC: Int64?, window: NightWindow,
                                    length: IntervalLength) -> (originUTC: Int64, note: NightNote?) {
        guard source > 1, let first = firstDataUTC else { return (window.startUTC, nil) }
        let L = length.seconds
        guard L % source == 0 || source % L == 0 else {
            return (window.startUTC, .intervalGridOffSource(intervalSeconds: L, sourceSeconds: source))
        }
        return (first, nil)
    }

    /// - Parameters:
    ///   - series: the night's base series (any span; only `window` is used).
    ///   - window: the night (noon to noon local); also the origin of the interval grid, which puts
    ///     interval boundaries on the local clock (00:00, 00:10, ... for 10-minute intervals), unless
    ///     the source holds interval totals of its own (see ``intervalGrid(sourceResolutionSeconds:firstDataUTC:window:length:)``).
    public static func analyze(series: SecondSeries, window: NightWindow, parameters p: AnalysisParameters) -> NightAnalysis {
        let night = series.slice(from: window.startUTC, to: window.endUTC)
        let values = night.values(for: p.metric)
        let channel = SecondSeries(startSecond: night.startSecond, movement: values, legacyMovement: night.legacyMovement,
                                   sampleCounts: night.sampleCounts, sourceResolutionSeconds: night.sourceResolutionSeconds)
        guard let span = channel.dataSpan else {
            return NightAnalysis(status: .insufficientData, parameters: p, intervals: [], epochs: [], wakeThreshold: nil, metrics: nil)
        }
        let grid = intervalGrid(sourceResolutionSeconds: channel.sourceResolutionSeconds, firstDataUTC: span.first,
                                window: window, length: p.interval)
        // Epochs follow the source's phase at every length, so each length scores the same epochs.
        let epochOriginUTC = channel.sourceResolutionSeconds > 1 ? span.first : window.startUTC
        var analysis = analyzeIntervals(channel, span: span, gridOriginUTC: grid.originUTC, epochOriginUTC: epochOriginUTC, parameters: p)
        if let note = grid.note { analysis.notes = [note] }
        return analysis
    }

    /// Everything after the grids are chosen: intervals through `gridOriginUTC`, epochs through `epochOriginUTC`.
    static func analyzeIntervals(_ channel: SecondSeries, span: (first: Int64, end: Int64), gridOriginUTC: Int64,
                                 epochOriginUTC: Int64, parameters p: AnalysisParameters) -> NightAnalysis {
        let movement = IntervalAggregator.aggregate(channel, length: p.interval, gridOriginUTC: gridOriginUTC,
                                                    fromUTC: span.first, toUTC: span.end)
        var intervals = movement.map { AnalyzedInterval(movement: $0, state: nil, phase: nil) }
        guard channel.coveredSeconds >= p.minimumCoverageSeconds else {
            return NightAnalysis(status: .insufficientData, parameters: p, intervals: intervals, epochs: [], wakeThreshold: nil, metrics: nil)
        }

        // Epochs; an epoch needs half its seconds covered to be scored.
        let epochLength = IntervalLength(seconds: p.epochSeconds) ?? IntervalLength(seconds: 60)!
        let epochMovement = IntervalAggregator.aggregate(channel, length: epochLength, gridOriginUTC: epochOriginUTC,
                                                         fromUTC: span.first, toUTC: span.end)
        let activity = epochMovement.map { e -> Double in
            e.coverageSeconds * 2 >= e.durationSeconds ? e.movementSum * Double(e.durationSeconds) / Double(e.coverageSeconds) : .nan
        }
        let (states, threshold) = PhoneSleepScorer.score(activity: activity, thresholdFactor: p.wakeThresholdFactor)
        let epochs = zip(epochMovement, zip(activity, states)).map { ScoredEpoch(startUTC: $0.startUTC, activity: $1.0, state: $1.1) }

        // Interval state = majority of its scored epochs.
        var e = 0
        for i in intervals.indices {
            var sleep = 0, wake = 0
            while e < epochs.count && epochs[e].startUTC < intervals[i].movement.endUTC {
                if epochs[e].startUTC >= intervals[i].movement.startUTC, let s = epochs[e].state {
                    if s == .sleep { sleep += 1 } else { wake += 1 }
                }
                e += 1
            }
            if sleep + wake > 0 { intervals[i].state = sleep >= wake ? .sleep : .wake }
        }

        // Sleep period from persistent sleep runs of epochs.
        let runEpochs = max(1, p.persistentSleepMinutes * 60 / p.epochSeconds)
        guard let period = persistentSleepPeriod(epochs.map(\.state), minimumRun: runEpochs) else {
            return NightAnalysis(status: .noSleepFound, parameters: p, intervals: intervals, epochs: epochs, wakeThreshold: threshold, metrics: nil)
        }
        // The epoch-level period, snapped to the interval hypnogram: from the first sleep interval
        // that ends after the epoch onset to the last sleep interval that starts before the epoch
        // wake time, clipped to the in-bed span. Metrics then agree with the intervals shown.
        let epochOnset = epochs[period.lowerBound].startUTC
        let epochWake = epochs[period.upperBound - 1].startUTC + Int64(p.epochSeconds)
        guard let first = intervals.firstIndex(where: { $0.state == .sleep && $0.movement.endUTC > epochOnset }),
              let last = intervals.lastIndex(where: { $0.state == .sleep && $0.movement.startUTC < epochWake }), first <= last else {
            return NightAnalysis(status: .noSleepFound, parameters: p, intervals: intervals, epochs: epochs, wakeThreshold: threshold, metrics: nil)
        }
        let onsetUTC = max(intervals[first].movement.startUTC, span.first)
        let wakeUTC = min(intervals[last].movement.endUTC, span.end)

        assignPhases(&intervals, onsetUTC: onsetUTC, wakeUTC: wakeUTC, deepQuantile: p.deepQuantile)
        let metrics = computeMetrics(intervals, inBed: span, onsetUTC: onsetUTC, wakeUTC: wakeUTC, resolution: p.interval.seconds)
        return NightAnalysis(status: .scored, parameters: p, intervals: intervals, epochs: epochs, wakeThreshold: threshold, metrics: metrics)
    }

    /// Indices `[first, last)` from the start of the first run of at least `minimumRun` sleep
    /// epochs to the end of the last such run, or nil without one.
    package static func persistentSleepPeriod(_ states: [SleepWake?], minimumRun: Int) -> Range<Int>? {
        var runs: [Range<Int>] = []
        var start: Int? = nil
        for i in 0...states.count {
            let asleep = i < states.count && states[i] == .sleep
            if asleep { if start == nil { start = i } }
            else if let s = start { if i - s >= minimumRun { runs.append(s..<i) }; start = nil }
        }
        guard let first = runs.first, let last = runs.last else { return nil }
        return first.lowerBound..<last.upperBound
    }

    /// Minutes of light and deep phase at interval resolution, clipped to the sleep period.
    static func phaseMinutes(_ intervals: [AnalyzedInterval], onsetUTC: Int64, wakeUTC: Int64) -> (light: Double, deep: Double) {
        var light = 0.0, deep = 0.0
        for iv in intervals {
            let overlap = Double(max(0, min(iv.movement.endUTC, wakeUTC) - max(iv.movement.startUTC, onsetUTC))) / 60
            if iv.phase == .light { light += overlap } else if iv.phase == .deep { deep += overlap }
        }
        return (light, deep)
    }

    /// Intervals inside the sleep period get a phase: awake for wake, deep for the stillest sleep
    /// intervals (per-minute movement at or below the night's quantile), light otherwise.
    static func assignPhases(_ intervals: inout [AnalyzedInterval], onsetUTC: Int64, wakeUTC: Int64, deepQuantile: Double) {
        let inPeriod = intervals.indices.filter { intervals[$0].movement.endUTC > onsetUTC && intervals[$0].movement.startUTC < wakeUTC }
        let sleepLevels = inPeriod.compactMap { i -> Double? in
            intervals[i].state == .sleep ? intervals[i].movement.movementPerMinute : nil
        }.sorted()
        let cut = sleepLevels.isEmpty ? 0 : sleepLevels[min(sleepLevels.count - 1, Int((Double(sleepLevels.count - 1) * deepQuantile).rounded(.down)))]
        for i in inPeriod {
            switch intervals[i].state {
            case .wake?: intervals[i].phase = .awake
            case .sleep?: intervals[i].phase = (intervals[i].movement.movementPerMinute ?? .infinity) <= cut ? .deep : .light
            case nil: intervals[i].phase = nil
            }
        }
    }

    /// Night metrics from the interval hypnogram with ``NightMetrics`` (yasa/AASM definitions):
    /// intervals outside the sleep period count as wake (before onset: latency; after: final wake),
    /// and lights off/on are the in-bed span. Intervals without data (no scored epoch) inside the
    /// sleep period are neither sleep nor wake: they are reported as minutes without data and kept
    /// out of WASO, awakenings and the time SE and SME divide by (a gap is not an awakening).
    /// Not worn is 0, a fact rather than unknown: a phone lies on the mattress and is never worn,
    /// so no rule takes any of its data for "off the wrist"; its only gaps are seconds it did not
    /// log, which are no data. So TST + WASO + no data = SPT (at interval resolution).
    static func computeMetrics(_ intervals: [AnalyzedInterval], inBed: (first: Int64, end: Int64), onsetUTC: Int64,
                               wakeUTC: Int64, resolution: Int) -> NightSummaryMetrics {
        let origin = intervals[0].movement.startUTC
        let stages: [SleepStage] = intervals.map { iv in
            guard iv.state == .sleep, iv.movement.endUTC > onsetUTC, iv.movement.startUTC < wakeUTC else { return .wake }
            return iv.phase == .deep ? .deep : .light
        }
        let m = NightMetrics.compute(stages: stages, epochSeconds: Double(resolution),
                                     lightsOffSeconds: Double(inBed.first - origin), lightsOnSeconds: Double(inBed.end - origin))
        let period = sleepPeriodWake(intervals, onsetUTC: onsetUTC, wakeUTC: wakeUTC)
        let noData = period.noDataMinutes
        let waso = max(0, (m.wakeAfterSleepOnsetMinutes ?? 0) - noData)
        let tst = m.totalSleepMinutes
        let withData = m.timeInBedMinutes - noData, sptWithData = m.sleepPeriodMinutes - noData
        let transitions = period.awakenings + (m.sleepToWakeTransitions - m.awakenings)
        let hasSleep = m.wakeAfterSleepOnsetMinutes != nil
        return NightSummaryMetrics(
            resolutionSeconds: resolution, inBedStartUTC: inBed.first, inBedEndUTC: inBed.end,
            sleepOnsetUTC: onsetUTC, wakeTimeUTC: wakeUTC, timeInBedMinutes: m.timeInBedMinutes,
            sleepPeriodMinutes: m.sleepPeriodMinutes, totalSleepTimeMinutes: tst,
            sleepOnsetLatencyMinutes: m.sleepOnsetLatencyMinutes,
            wakeAfterSleepOnsetMinutes: waso,
            sleepEfficiencyPercent: withData > 0 ? 100 * tst / withData : 0, awakenings: hasSleep ? period.awakenings : 0,
            lightMinutes: m.stages?.lightMinutes ?? 0, deepMinutes: m.stages?.deepMinutes ?? 0,
            awakeMinutes: waso,
            sleepMaintenanceEfficiencyPercent: hasSleep && sptWithData > 0 ? 100 * tst / sptWithData : nil,
            sleepFragmentationIndexPerHour: hasSleep && tst > 0 ? Double(transitions) / (tst / 60) : nil,
            noDataInSleepPeriodMinutes: noData, notWornInSleepPeriodMinutes: 0)
    }

    /// Inside the sleep period: minutes of intervals without data, and awakenings (wake runs that
    /// sleep follows) counted with those intervals skipped, so a gap neither makes nor splits one.
    static func sleepPeriodWake(_ intervals: [AnalyzedInterval], onsetUTC: Int64, wakeUTC: Int64) -> (noDataMinutes: Double, awakenings: Int) {
        var noDataSeconds: Int64 = 0, awakenings = 0
        var inWake = false, seenSleep = false
        for iv in intervals where iv.movement.endUTC > onsetUTC && iv.movement.startUTC < wakeUTC {
            switch iv.state {
            case nil:
                noDataSeconds += min(iv.movement.endUTC, wakeUTC) - max(iv.movement.startUTC, onsetUTC)
            case .wake?:
                if seenSleep { inWake = true }
            case .sleep?:
                if inWake { awakenings += 1 }
                inWake = false; seenSleep = true
            }
        }
        return (Double(noDataSeconds) / 60, awakenings)
    }
}
