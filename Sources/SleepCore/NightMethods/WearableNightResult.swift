/// The shape both wrist methods give a night (``WearableNightMethod``, ``GGIRNightMethod``): its
/// intervals on the night's grid, movement phases inside the sleep period, the scored 5-s epochs
/// and GGIR's part-4 summary. One builder, so the two methods cannot shape their results apart.
struct WearableNightResult {
    let night: NightData
    let parameters: AnalysisParameters
    /// The epochs the night shows (the 18:00 to 18:00 window for a day sleeper).
    let epochs: WearableEpochs

    /// - Parameters:
    ///   - states: sleep or wake per epoch of ``epochs`` (nil: not scored; an element nil: invalid).
    ///   - period: the sleep period `[onset, wake)` in UTC seconds, inside which phases are assigned.
    func make(_ status: NightStatus, _ notes: [NightNote], summary: WearableNightSummary, states: [SleepWake?]? = nil,
              metrics: NightSummaryMetrics? = nil, period: (Int64, Int64)? = nil) -> NightAnalysis {
        let e = epochs, p = parameters
        var intervals = WearableNightMethod.intervals(e, base: night.series, length: p.interval, origin: night.window.startUTC, states: states)
        var m = metrics
        if let period {
            NightAnalyzer.assignPhases(&intervals, onsetUTC: period.0, wakeUTC: period.1, deepQuantile: p.deepQuantile)
            if m != nil { (m!.lightMinutes, m!.deepMinutes) = NightAnalyzer.phaseMinutes(intervals, onsetUTC: period.0, wakeUTC: period.1) }
        }
        let scored = (0..<e.count).map { i in
            ScoredEpoch(startUTC: e.epochStartUTC(i), activity: e.hasData(i) ? Double(e.enmo[i]) : .nan, state: states?[i])
        }
        return NightAnalysis(status: status, parameters: p, intervals: intervals, epochs: scored, wakeThreshold: nil,
                             metrics: m, kind: .wearable24h, notes: notes, wearable: summary)
    }
}
