/// GGIR parity (`--method ggir`): a wrist night as GGIR 3.3-6 analyses it with its defaults, for a
/// paper that needs GGIR's numbers. The wearable method's variant, chosen by
/// ``AnalysisParameters/nightMethod``; it reads the whole recording (``NightData/recordingEpochs``)
/// because GGIR's non-wear clean-up, imputation and sleep bouts look at the other days.
///
/// Steps (GGIR 3.3-6 sources; docs/methods.md, "GGIR parity", lists every deviation):
/// 1. Non-wear by GGIR 3's `"2023"` rule (``GGIRNonWear2023``, stored per epoch at ingest), its
///    `g.weardec` clean-up and `g.impute` imputation of invalid epochs from the other days
///    (``GGIRPart2``).
/// 2. Sustained inactivity bouts (van Hees 2015, `HASIB.R`) on the whole imputed angle-z, then
///    removed from invalid epochs (`ignorenonwear = TRUE`).
/// 3. The night: epochs from 12:00:05 to 12:00:00 local (`g.sib.det`). HDCZA (`HASPT.R`) on the
///    imputed angle-z, invalid epochs judged on their imputed values (`HASPT.ignore.invalid = FALSE`);
///    a window ending in its last hour is searched again from 18:00 to 18:00 and kept if it still
///    ends at or after noon. A night cut short at the recording's start gets the mean of the other
///    nights' windows, as GGIR ends up doing.
/// 4. Part 4 (`g.part4.R`, `relyonguider = FALSE`): onset = start of the first bout overlapping the
///    window, wake = start of the last epoch of the last overlapping bout; SPT and TST (Σ bouts' last
///    epoch start − first epoch start) as clock-hour differences with GGIR's correction on a night
///    with a change of the clocks (``part4Durations(onsetUTC:wakeUTC:bouts:night:timeline:)``);
///    WASO = SPT − TST (invalid epochs inside count as WASO).
/// 5. GGIR's cleaned summary: a night is kept when its invalid fraction (invalid + missing epochs
///    / 17,280) is at most 8/24 (`includenightcrit = 16`) and a bout overlaps the window; others are
///    `insufficient-data` or `no-sleep-found`, with GGIR's reason.
public struct GGIRNightMethod: Sendable {
    public static let version = "3.3-6"
    public static let algorithm = "ggir-parity-3.3-6"
    public static let summary = "wearable-24h, GGIR parity (--method ggir): GGIR 3.3-6's defaults — non-wear by its 2023 rule, invalid epochs imputed from the other days, HDCZA on the imputed angle-z (van Hees 2018), sustained inactivity bouts (van Hees 2015), its part 4 and its night inclusion (includenightcrit 16 h)"
    static let epochsPerDay = 86_400 / WearableEpochs.epochSeconds

    public init() {}

    public static func parametersKey(_ p: AnalysisParameters) -> String {
        "method=wearable-24h;variant=ggir-\(version);interval=\(p.interval.seconds)s;nonwear=ggir2023(150mg,13mg,chunks)+weardec;"
            + "impute=other-days-slot-mean;spt=hdcza-ggir(invalid-imputed)+daysleeper;sib=vanhees2015(5deg,5min,ignorenonwear);"
            + "part4=relyonguider-false;includenight=16h;clock=device-as-wall;deep=q\(p.deepQuantile)"
    }

    /// What GGIR computes per night window, in UTC seconds of epoch starts.
    struct Night {
        var guiderOnsetUTC: Int64, guiderWakeUTC: Int64, daysleeper: Bool, threshold: Double
    }

    public func analyze(_ night: NightData, parameters p: AnalysisParameters) -> NightAnalysis {
        let W = night.window
        let kind = RecordingKind.wearable24h
        func plain(_ status: NightStatus, _ reason: String) -> NightAnalysis {
            NightAnalysis(status: status, parameters: p, intervals: [], epochs: [], wakeThreshold: nil, metrics: nil,
                          kind: kind, statusReason: reason)
        }
        guard let stored = night.epochs, stored.count > 0 else {
            return plain(.unsuitable, "the GGIR parity method needs raw acceleration with gravity (angle-z, ENMO); this recording has no 5-s epochs of it")
        }
        // GGIR's clean-up, imputation and read chunks need the whole recording and its format: a
        // night alone would give other numbers under the same key, so none are given.
        guard let recording = night.recordingEpochs, recording.count >= stored.count, let facts = night.recording else {
            return plain(.unsuitable, "the GGIR parity method reads the whole recording and its format, which were not supplied with this night")
        }
        guard recording.ggirNonWearScore != nil else {
            return plain(.unsuitable, "GGIR's 2023 non-wear scores are not stored for this night (stored by an older sleepsta): a run with --method ggir reads the file again")
        }
        // A `.cwa`'s device clock across a change of the clocks: GGIR's rows, on its clock.
        let clock: GGIRClockView?
        if facts.format == "axivity-cwa", let data = recording.dataEpochs {
            clock = GGIRClockView(timeline: night.timeline, startUTC: recording.startUTC, count: recording.count,
                                  dataStartUTC: recording.epochStartUTC(data.lowerBound), dataEndUTC: recording.epochStartUTC(data.upperBound + 1))
        } else {
            clock = nil
        }
        let whole = clock?.epochs(recording) ?? recording
        guard let part2 = GGIRPart2(whole, chunkSeconds: GGIRNonWear2023.chunkSeconds(format: facts.format), sampleRateHz: facts.sampleRateHz,
                                    clock: clock) else {
            return plain(.insufficientData, "GGIR analyses no part of this recording: it needs at least an hour of data from the first whole quarter hour of the clock")
        }
        let E = Int64(WearableEpochs.epochSeconds)
        // 2. Sustained inactivity bouts on the whole imputed series, none on invalid epochs.
        let judgedAngles = part2.judged.map { part2.angleZ[$0].isFinite ? part2.angleZ[$0] : 0 }
        var sib = [Bool](repeating: false, count: whole.count)
        for (k, s) in VanHees2015.score(angleZDegrees: judgedAngles).enumerated() where s == .sleep {
            let i = part2.judged.lowerBound + k
            sib[i] = !part2.invalid[i]
        }
        func index(_ utc: Int64) -> Int { Int(LocalClock.floorDiv(utc - whole.startUTC, E)) }
        /// GGIR's window around a night's midnight: epochs starting (noon, next noon], clamped to its data.
        func window(_ w: NightWindow, shiftSeconds: Int64 = 0) -> Range<Int> {
            let from = max(part2.judged.lowerBound, index(w.startUTC + shiftSeconds) + 1)
            let to = min(part2.judged.upperBound, index(w.endUTC + shiftSeconds) + 1)
            return from..<max(from, to)
        }
        let range = window(W)
        let utc = { (i: Int) in whole.epochStartUTC(i) }

        // Does GGIR have this night? Its windows are those around a midnight in its data, plus the
        // morning before the first midnight when the data start between 00:00 and 04:00.
        let midnightLocal = night.timeline.localSecond(atUTC: W.startUTC) + 12 * 3600
        let midnight = index(night.timeline.utcSecond(atLocal: midnightLocal))
        let fourAM = index(night.timeline.utcSecond(atLocal: midnightLocal + 4 * 3600))
        let hasMidnight = part2.judged.contains(midnight)
        let morningStart = !hasMidnight && part2.judged.lowerBound > midnight && part2.judged.lowerBound < fourAM
        guard !range.isEmpty, hasMidnight || morningStart else {
            return plain(.insufficientData, "GGIR has no night here: its night windows lie around a midnight in its data (which start at the first whole quarter hour and end with the last 15-min block it processed)")
        }
        let fractionInvalid = min(1, Double(range.filter { part2.invalid[$0] }.count + max(0, Self.epochsPerDay - range.count)) / Double(Self.epochsPerDay))

        // 3. The guider. GGIR stores none for a window cut short at the start (a date bug in
        //    g.sib.det) and part 4 takes the mean of the other nights' windows.
        let partialFirst = range.lowerBound == part2.judged.lowerBound && range.count != Self.epochsPerDay
        let found: Night?
        if partialFirst {
            found = meanGuider(for: W, night: night, whole: whole, part2: part2, window: window)
        } else {
            found = guider(W, whole: whole, part2: part2, window: window)
        }
        var summary = WearableNightSummary(epochs: whole.slice(from: W.startUTC, to: W.endUTC))
        summary.fractionNightInvalid = fractionInvalid
        summary.validHours = Double(range.filter { !part2.invalid[$0] }.count * WearableEpochs.epochSeconds) / 3600
        summary.guider = "HDCZA (GGIR \(Self.version) parity)"
        guard let g = found else {
            return plain(.noSleepFound, "HDCZA found no sleep period window (every epoch of the night invalid, or no rest block longer than 30 minutes); GGIR writes no night")
        }
        summary.daysleeper = g.daysleeper
        summary.guiderOnsetUTC = g.guiderOnsetUTC; summary.guiderWakeupUTC = g.guiderWakeUTC
        summary.hdczaThresholdDegrees = g.threshold.isNaN ? nil : g.threshold

        // 4. The bouts of this night's window (of the 18:00 window for a day sleeper), cut at its edges.
        let boutRange = g.daysleeper ? window(W, shiftSeconds: 6 * 3600) : range
        var bouts: [ClosedRange<Int>] = []
        var i = boutRange.lowerBound
        while i < boutRange.upperBound {
            guard sib[i] else { i += 1; continue }
            var j = i
            while j + 1 < boutRange.upperBound && sib[j + 1] { j += 1 }
            bouts.append(i...j)
            i = j + 1
        }
        let shift: Int64 = g.daysleeper ? 6 * 3600 : 0
        let shown = whole.slice(from: W.startUTC + shift, to: W.endUTC + shift)
        summary.invalidSpansUTC = Self.spans(of: part2.invalid, whole: whole, within: shown)
        // The page's caution: invalid (imputed) minutes in the window, the hour before it and the half hour after.
        // Not WearableNightMethod.nonWearNear: a guider averaged from other nights can lie before the data.
        let nearFrom = max(0, index(g.guiderOnsetUTC) - WearableNightMethod.nonWearLookBeforeEpochs)
        let nearTo = min(whole.count, index(g.guiderWakeUTC) + WearableNightMethod.nonWearLookAfterEpochs)
        summary.nonWearNearWindowMinutes = Double((nearFrom..<max(nearFrom, nearTo)).filter { part2.invalid[$0] && whole.hasData($0) }.count
                                                  * WearableEpochs.epochSeconds) / 60
        func result(_ status: NightStatus, _ reason: String?, states: [SleepWake?]? = nil, metrics: NightSummaryMetrics? = nil,
                    period: (Int64, Int64)? = nil) -> NightAnalysis {
            var intervals = WearableNightMethod.intervals(shown, base: night.series, length: p.interval, origin: W.startUTC, states: states)
            var m = metrics
            if let period {
                NightAnalyzer.assignPhases(&intervals, onsetUTC: period.0, wakeUTC: period.1, deepQuantile: p.deepQuantile)
                if m != nil { (m!.lightMinutes, m!.deepMinutes) = NightAnalyzer.phaseMinutes(intervals, onsetUTC: period.0, wakeUTC: period.1) }
            }
            let scored = (0..<shown.count).map { k in
                ScoredEpoch(startUTC: shown.epochStartUTC(k), activity: shown.hasData(k) ? Double(shown.enmo[k]) : .nan, state: states?[k])
            }
            return NightAnalysis(status: status, parameters: p, intervals: intervals, epochs: scored, wakeThreshold: nil,
                                 metrics: m, kind: kind, statusReason: reason, wearable: summary)
        }
        guard !bouts.isEmpty else {
            return result(.noSleepFound, "no sustained inactivity bout in the night's valid epochs; GGIR writes no row for this night")
        }
        // g.create.sp.mat adds 24 to the clock hours of a bout after midnight only when its start
        // and end differ: a one-epoch bout between midnight and noon stays at hours 0–12, before
        // any guider, and never overlaps it.
        func lateSingle(_ b: ClosedRange<Int>) -> Bool {
            !g.daysleeper && b.count == 1
                && LocalClock.floorDiv(night.timeline.localSecond(atUTC: utc(b.lowerBound)), 86_400) > LocalClock.floorDiv(night.timeline.localSecond(atUTC: W.startUTC), 86_400)
                && (night.timeline.localSecond(atUTC: utc(b.lowerBound)) % 86_400) < 12 * 3600
        }
        let overlapping = bouts.filter { utc($0.lowerBound) < g.guiderWakeUTC && utc($0.upperBound) > g.guiderOnsetUTC && !lateSingle($0) }
        let states: [SleepWake?] = (0..<shown.count).map { k in
            let i = index(shown.epochStartUTC(k))
            guard i >= 0 && i < whole.count, !part2.invalid[i] else { return nil }
            return sib[i] ? .sleep : .wake
        }
        if overlapping.isEmpty {
            return result(.noSleepFound, "GGIR drops this night (cleaningcode 5): no sustained inactivity bout overlaps the HDCZA window; invalid fraction \(Self.fixed(fractionInvalid, 3))", states: states)
        }
        let onsetUTC = utc(overlapping.first!.lowerBound), wakeUTC = utc(overlapping.last!.upperBound)
        let (spt, tst) = Self.part4Durations(onsetUTC: onsetUTC, wakeUTC: wakeUTC,
                                             bouts: overlapping.map { (utc($0.lowerBound), utc($0.upperBound)) }, night: W, timeline: night.timeline)
        let waso = spt - tst
        let invalidInSpt = (index(onsetUTC)..<index(wakeUTC)).filter { part2.invalid[$0] }.count
        summary.sleepOnsetUTC = onsetUTC; summary.wakeupUTC = wakeUTC
        summary.sptDurationMinutes = spt; summary.sleepDurationInSptMinutes = tst; summary.wasoMinutes = waso
        summary.numberOfAwakenings = overlapping.count - 1
        summary.invalidInSptMinutes = Double(invalidInSpt) * Double(E) / 60
        let inBedStart = min(g.guiderOnsetUTC, onsetUTC), inBedEnd = max(g.guiderWakeUTC, wakeUTC)
        let tib = Double(inBedEnd - inBedStart) / 60
        let metrics = NightSummaryMetrics(
            resolutionSeconds: WearableEpochs.epochSeconds, inBedStartUTC: inBedStart, inBedEndUTC: inBedEnd,
            sleepOnsetUTC: onsetUTC, wakeTimeUTC: wakeUTC, timeInBedMinutes: tib, sleepPeriodMinutes: spt,
            totalSleepTimeMinutes: tst, sleepOnsetLatencyMinutes: Double(onsetUTC - inBedStart) / 60,
            wakeAfterSleepOnsetMinutes: waso, sleepEfficiencyPercent: tib > 0 ? tst / tib * 100 : 0, awakenings: overlapping.count - 1,
            lightMinutes: 0, deepMinutes: 0, awakeMinutes: waso,
            sleepMaintenanceEfficiencyPercent: spt > 0 ? tst / spt * 100 : nil,
            sleepFragmentationIndexPerHour: tst > 0 ? Double(overlapping.count) / (tst / 60) : nil)
        var clockNotes: [String] = []
        if let clock, let seam = clock.seams.last(where: { $0.atUTC < W.endUTC }) {
            let day = CivilDate(daysSinceEpoch: LocalClock.floorDiv(night.timeline.localSecond(atUTC: seam.atUTC), 86_400))
            let after = seam.shiftAfter == 0 ? "real time again"
                : "\(LocalClock.hoursText(seconds: Int(abs(seam.shiftAfter)))) \(seam.shiftAfter > 0 ? "later" : "earlier") than real time"
            clockNotes.append((seam.jump > 0
                ? "the clocks went back an hour on \(day); GGIR reads this device's clock, which kept the time it was set to, as wall-clock time: it inserts an hour of still filler there"
                : "the clocks went forward an hour on \(day); GGIR reads this device's clock, which kept the time it was set to, as wall-clock time: it drops an hour of data there")
                + ", and its times from then on are \(after)")
            clockNotes.append("these are GGIR's numbers on GGIR's clock (the chart's angle-z line is on real time)")
        }
        if fractionInvalid > 8.0 / 24 {
            return result(.insufficientData, (["GGIR drops this night from its cleaned summary (cleaningcode 2): invalid fraction \(Self.fixed(fractionInvalid, 3)) > 8/24 (includenightcrit 16 h); GGIR's numbers: onset \(Self.clock(onsetUTC, night.timeline)), wake \(Self.clock(wakeUTC, night.timeline)), TST \(Self.fixed(tst, 1)) min"] + clockNotes).joined(separator: "; "),
                          states: states)
        }
        var notes: [String] = []
        if g.daysleeper { notes.append("day sleeper: the HDCZA window ended in its last hour, so it was searched again from 18:00 to 18:00 (GGIR's rule)") }
        notes += clockNotes
        return result(.scored, notes.isEmpty ? nil : notes.joined(separator: "; "), states: states, metrics: metrics, period: (onsetUTC, wakeUTC))
    }

    /// `g.part4`'s SPT and TST in minutes: differences of clock hours (after midnight + 24) on the
    /// night's clock, then its corrections on a night with a change of the clocks (`is_this_a_dst_night`,
    /// which finds the changed hour `h` among the hours from 21:00 to 06:00):
    /// - clocks forward: an hour less of both when a bout overlapping the guider runs from by `h` to
    ///   from `h + 1`;
    /// - clocks back: an hour more of SPT when onset is by `h` and wake from `h + 1`, and
    ///   (`correctSptEdgingInDoubleHour`) an hour more for onset by `h` with wake inside `h…h + 1`,
    ///   and another for onset inside `h…h + 1` with wake from `h + 1`.
    /// On any other night these are the epochs' elapsed time.
    static func part4Durations(onsetUTC: Int64, wakeUTC: Int64, bouts: [(Int64, Int64)], night w: NightWindow,
                               timeline: UTCOffsetTimeline) -> (spt: Double, tst: Double) {
        let midnightLocal = timeline.localSecond(atUTC: w.startUTC) - 12 * 3600
        // Clock seconds after the night's first midnight (GGIR's hours × 3600), whole seconds.
        func clock(_ utc: Int64) -> Int64 { timeline.localSecond(atUTC: utc) - midnightLocal }
        var spt = clock(wakeUTC) - clock(onsetUTC)
        var tst = bouts.reduce(Int64(0)) { $0 + clock($1.1) - clock($1.0) }
        if let change = Self.clockChangeNight(w, timeline: timeline) {
            let from = (change.hour + 24) * 3600, to = (change.hour + 25) * 3600
            if change.forward {
                if bouts.contains(where: { clock($0.0) <= from && clock($0.1) >= to }) { spt -= 3600; tst -= 3600 }
            } else {
                let onset = clock(onsetUTC), wake = clock(wakeUTC)
                if onset <= from && wake >= to { spt += 3600 }
                if onset <= from && wake >= from && wake <= to { spt += 3600 }
                if wake >= to && onset >= from && onset <= to { spt += 3600 }
            }
        }
        return (Double(spt) / 60, Double(tst) / 60)
    }

    /// GGIR's `is_this_a_dst_night`: the local hours of the ten hours from 21:00 on the night's date;
    /// fewer than nine hours between the first and the last means the clocks went back (the
    /// repeated hour), more means they went forward (the first hour of 21–23, 0–7 that is missing).
    static func clockChangeNight(_ w: NightWindow, timeline: UTCOffsetTimeline) -> (forward: Bool, hour: Int)? {
        let midnightLocal = timeline.localSecond(atUTC: w.startUTC) - 12 * 3600
        let evening = timeline.utcSecond(atLocal: midnightLocal + 21 * 3600)
        let hours = (0...9).map { k in Int(LocalClock.floorDiv(timeline.localSecond(atUTC: evening + Int64(k) * 3600), 3600) % 24 + 24) % 24 }
        let span = hours[9] + 24 - hours[0]
        if span < 9 {
            var seen = Set<Int>()
            guard let repeated = hours.first(where: { !seen.insert($0).inserted }) else { return nil }
            return (false, repeated)
        }
        if span > 9 {
            guard let missing = (Array(21...23) + Array(0...7)).first(where: { !hours.contains($0) }) else { return nil }
            return (true, missing)
        }
        return nil
    }

    /// The runs of `flags` (epochs of `whole` with data) inside `shown`, as `[from, to)` UTC seconds.
    static func spans(of flags: [Bool], whole: WearableEpochs, within shown: WearableEpochs) -> [[Int64]] {
        let E = Int64(WearableEpochs.epochSeconds)
        let from = max(0, Int((shown.startUTC - whole.startUTC) / E)), to = min(whole.count, Int((shown.endUTC - whole.startUTC) / E))
        var result: [[Int64]] = []
        var i = from
        while i < to {
            guard flags[i] && whole.hasData(i) else { i += 1; continue }
            var j = i
            while j < to && flags[j] && whole.hasData(j) { j += 1 }
            result.append([whole.epochStartUTC(i), whole.epochStartUTC(j)])
            i = j
        }
        return result
    }

    static func clock(_ utc: Int64, _ timeline: UTCOffsetTimeline) -> String {
        LocalClock.hhmmss(localSecond: timeline.localSecond(atUTC: utc))
    }

    /// `value` with `places` decimals (SleepCore has no Foundation formatting).
    static func fixed(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale), fraction = String(scaled % Int(scale))
        return (value < 0 && scaled > 0 ? "-" : "") + "\(whole)" + (places > 0 ? "." + String(repeating: "0", count: places - fraction.count) + fraction : "")
    }

    /// HDCZA on one night window of the imputed angle-z, with GGIR's day-sleeper rerun.
    func guider(_ w: NightWindow, whole: WearableEpochs, part2: GGIRPart2, window: (NightWindow, Int64) -> Range<Int>) -> Night? {
        func run(_ r: Range<Int>) -> SleepPeriodTimeWindow? {
            guard !r.isEmpty else { return nil }
            let angles = r.map { part2.angleZ[$0].isFinite ? part2.angleZ[$0] : 0 }
            return HDCZA.detect(angleZ: angles, invalid: r.map { part2.invalid[$0] }, parameters: HDCZA.Parameters(invalidEpochs: .useSignal))
        }
        let r = window(w, 0)
        guard let spt = run(r) else { return nil }
        var result = Night(guiderOnsetUTC: whole.epochStartUTC(r.lowerBound + spt.span.startEpoch),
                           guiderWakeUTC: whole.epochStartUTC(r.lowerBound + spt.span.endEpoch),
                           daysleeper: false, threshold: spt.threshold)
        // g.sib.det: the window ends within the last hour of noon → 18:00 to 18:00, kept if it
        // still ends at or after noon; only when the later window lies inside the data.
        let lastHour = 3600 / WearableEpochs.epochSeconds
        if r.lowerBound + spt.span.endEpoch >= r.upperBound - lastHour {
            let later = window(w, 6 * 3600)
            let unclamped = Int(LocalClock.floorDiv(w.endUTC + 6 * 3600 - whole.startUTC, Int64(WearableEpochs.epochSeconds))) + 1
            if later.upperBound == unclamped && later.upperBound < part2.judged.upperBound && later.count > 23 * 3600 / WearableEpochs.epochSeconds,
               let again = run(later), later.lowerBound + again.span.endEpoch >= r.upperBound {
                result = Night(guiderOnsetUTC: whole.epochStartUTC(later.lowerBound + again.span.startEpoch),
                               guiderWakeUTC: whole.epochStartUTC(later.lowerBound + again.span.endEpoch),
                               daysleeper: true, threshold: again.threshold)
            }
        }
        return result
    }

    /// g.part4 for a window GGIR stored no guider for: the mean clock time of the other nights'
    /// guider onsets and wakes (in hours after this night's noon-day midnight, 12–36).
    func meanGuider(for w: NightWindow, night: NightData, whole: WearableEpochs, part2: GGIRPart2,
                    window: (NightWindow, Int64) -> Range<Int>) -> Night? {
        let t = night.timeline
        func midnightLocal(_ v: NightWindow) -> Int64 { t.localSecond(atUTC: v.startUTC) + 12 * 3600 }
        let firstMidnight = midnightLocal(w)
        var onsets: [Double] = [], wakes: [Double] = []
        var k: Int64 = 1
        while true {
            let m = firstMidnight + k * 86_400
            let start = t.utcSecond(atLocal: m - 12 * 3600), end = t.utcSecond(atLocal: m + 12 * 3600)
            let other = NightWindow(date: w.date, startUTC: start, endUTC: end)
            guard window(other, 0).count > 0, part2.judged.contains(Int(LocalClock.floorDiv(t.utcSecond(atLocal: m) - whole.startUTC, Int64(WearableEpochs.epochSeconds)))) else { break }
            if let g = guider(other, whole: whole, part2: part2, window: window) {
                onsets.append(Double(t.localSecond(atUTC: g.guiderOnsetUTC) - (m - 86_400)) / 3600)
                wakes.append(Double(t.localSecond(atUTC: g.guiderWakeUTC) - (m - 86_400)) / 3600)
            }
            k += 1
        }
        guard !onsets.isEmpty else { return nil }
        let base = firstMidnight - 86_400
        func at(_ hours: Double) -> Int64 { t.utcSecond(atLocal: base + Int64((hours * 3600).rounded())) }
        return Night(guiderOnsetUTC: at(onsets.reduce(0, +) / Double(onsets.count)),
                     guiderWakeUTC: at(wakes.reduce(0, +) / Double(wakes.count)), daysleeper: false, threshold: .nan)
    }
}
