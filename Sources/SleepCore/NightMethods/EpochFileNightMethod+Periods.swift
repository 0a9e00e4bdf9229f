/// Every sleep period of an epoch file's day besides the main one (``SleepPeriod``).
///
/// The periods come from what marks rest in or beside the file, in this order, a later source's
/// period dropped where it overlaps an earlier one (or the main period's time in bed):
/// 1. **The sleep diary's other rows** of the night (a split night's other `sleep` row, `nap`
///    rows, ``DiaryPeriodGuide``): the row is the period's time in bed. A `nap` row is a nap
///    whatever its length; another `sleep` row is secondary from 2 h of sleep period, else a nap.
///    The diary says the person slept: the period stands with whatever sleep the scorer finds in
///    it, and is left out only when the scorer finds none (no sleep period by the device's rule).
/// 2. **Actiware's other REST intervals** of the day, with the export's own statistics
///    (``NightAnalysis/fileRestPeriods(_:main:)``).
/// 3. **ActiLife's other sleep periods**: for ActiGraph counts without rest markers, every
///    Tudor-Locke period of the day (ActiLife lists each; their shortest is 160 min, so they are
///    secondary sleeps, never naps), the period's time in bed as ActiLife's in bed to out of bed.
///
/// Inside each time in bed the sleep period, TST, WASO and awakenings follow the same device rule
/// as the main period (``sleepPeriod(_:scored:tib:family:parameters:summary:)``), so a period of
/// the day is measured as the night is. Scored sleep outside every marked interval is not made a
/// period: an epoch file holds counts, not posture, and the evidence that tells a nap from a still
/// spell awake on the wrist (sustained inactivity of the angle, ``WearableDayPeriods``) is not in it.
extension EpochFileNightMethod {
    static func otherPeriods(_ s: EpochNightSeries, scored: Scored, family: EpochActivityFamily, night: NightData,
                             parameters p: AnalysisParameters, summary: EpochFileNightSummary, main: SleepPeriod,
                             notWorn: [Bool]) -> [SleepPeriod] {
        let E = scored.epochSeconds, n = scored.states.count
        func start(_ i: Int) -> Int64 { scored.startUTC + Int64(i) * Int64(E) }
        func period(_ tib: Range<Int>, kind: SleepPeriodKind?, source: SleepPeriodSource) -> SleepPeriod? {
            guard !tib.isEmpty else { return nil }
            var scratch = summary
            guard let found = sleepPeriod(s, scored: scored, tib: tib, family: family, parameters: p, summary: &scratch).period else { return nil }
            let m = metrics(Array(scored.states[tib]), period: found, inBed: (start(tib.lowerBound), start(tib.upperBound)),
                            sleep: (start(tib.lowerBound + found.lowerBound), start(tib.lowerBound + found.upperBound)),
                            epochSeconds: E, intervals: [], notWorn: notWorn.count == n ? Array(notWorn[tib]) : [])
            guard var sp = SleepPeriod(main: m, source: source), sp.totalSleepTimeMinutes > 0 else { return nil }
            sp.kind = kind ?? SleepPeriod.otherKind(sleepPeriodMinutes: sp.sleepPeriodMinutes)
            return sp
        }
        var candidates = night.diarySleeps.compactMap { g in
            period(scored.epoch(atOrAfter: g.startUTC)..<scored.epoch(atOrAfter: g.endUTC), kind: g.kind == .nap ? .nap : nil, source: .diary)
        }
        candidates += NightAnalysis.fileRestPeriods(night, main: main)
        let hasRestMarkers = s.column("rest_interval").map { $0.values.contains { !$0.isNaN } } ?? false
        if family == .actiGraphCounts && E == 60 && !hasRestMarkers {
            candidates += TudorLockeSleepPeriods.detect(states: scored.states, counts: scored.activity, epochSeconds: 60).compactMap {
                period($0.span.startEpoch..<$0.span.endEpoch, kind: nil, source: .data)
            }.filter { $0.totalSleepTimeMinutes >= SleepPeriod.napMinimumSleepMinutes }
        }
        return SleepPeriod.others(candidates, besides: main)
    }
}
