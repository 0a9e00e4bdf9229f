/// One night of GGIR parity, a slice of the recording's ``GGIRRecording``, in the steps GGIR takes
/// (``GGIRNightMethod`` lists them with their sources): does GGIR have the night, its guider, the
/// bouts that overlap it, part 4's numbers, and its night inclusion.
struct GGIRNightAnalysis {
    let recording: GGIRRecording
    let night: NightData
    let parameters: AnalysisParameters

    init(recording: GGIRRecording, night: NightData, parameters: AnalysisParameters) {
        self.recording = recording; self.night = night; self.parameters = parameters
    }

    typealias Night = GGIRNightMethod.Night
    var W: NightWindow { night.window }
    var timeline: UTCOffsetTimeline { night.timeline }
    func utc(_ i: Int) -> Int64 { recording.whole.epochStartUTC(i) }

    func plain(_ status: NightStatus, _ note: NightNote) -> NightAnalysis {
        GGIRNightMethod.Refusal(status: status, note: note).analysis(parameters)
    }

    func analyze() -> NightAnalysis {
        let range = recording.window(W)
        guard !range.isEmpty, hasNight else {
            return plain(.insufficientData, .ggirNoNight)
        }
        let fractionInvalid = self.fractionInvalid(range)
        var summary = WearableNightSummary(epochs: recording.whole.slice(from: W.startUTC, to: W.endUTC))
        summary.fractionNightInvalid = fractionInvalid
        summary.validHours = Double(range.filter { !recording.part2.invalid[$0] }.count * WearableEpochs.epochSeconds) / 3600
        summary.guider = "HDCZA (GGIR \(GGIRNightMethod.version) parity)"
        guard let g = guider(range) else {
            return plain(.noSleepFound, .ggirNoWindow)
        }
        summary.daysleeper = g.daysleeper
        if g.l5 { summary.guider = "L5 ± 6 h (GGIR \(GGIRNightMethod.version)'s L512: no night of the recording has an HDCZA window)" }
        summary.guiderOnsetUTC = g.guiderOnsetUTC; summary.guiderWakeupUTC = g.guiderWakeUTC
        summary.hdczaThresholdDegrees = g.threshold.isNaN ? nil : g.threshold
        // The bouts of this night's window (of the 18:00 window for a day sleeper), cut at its edges.
        let bouts = recording.bouts(in: g.daysleeper ? recording.window(W, shiftSeconds: 6 * 3600) : range)
        let shift: Int64 = g.daysleeper ? 6 * 3600 : 0
        let shown = recording.whole.slice(from: W.startUTC + shift, to: W.endUTC + shift)
        summary.invalidSpansUTC = GGIRNightMethod.spans(of: recording.part2.invalid, whole: recording.whole, within: shown)
        summary.nonWearNearWindowMinutes = invalidMinutesNear(g)
        let result = WearableNightResult(night: night, parameters: parameters, epochs: shown)
        guard !bouts.isEmpty else {
            return result.make(.noSleepFound, [.ggirNoBouts], summary: summary)
        }
        let overlapping = bouts.filter { utc($0.lowerBound) < g.guiderWakeUTC && utc($0.upperBound) > g.guiderOnsetUTC && !lateSingle($0, g) }
        let states = self.states(shown)
        if overlapping.isEmpty {
            return result.make(.noSleepFound, [.ggirNoBoutInWindow(fractionInvalid: fractionInvalid)], summary: summary, states: states)
        }
        return part4(overlapping, guider: g, fractionInvalid: fractionInvalid, summary: summary, states: states, result: result)
    }

    /// Does GGIR have this night? Its windows are those around a midnight in its data, plus the
    /// morning before the first midnight when the data start between 00:00 and 04:00.
    var hasNight: Bool {
        let judged = recording.part2.judged
        let midnightLocal = timeline.localSecond(atUTC: W.startUTC) + 12 * 3600
        let midnight = recording.index(timeline.utcSecond(atLocal: midnightLocal))
        let fourAM = recording.index(timeline.utcSecond(atLocal: midnightLocal + 4 * 3600))
        return judged.contains(midnight) || (judged.lowerBound > midnight && judged.lowerBound < fourAM)
    }

    /// GGIR's `fraction_night_invalid`: invalid and missing epochs over a whole day's 17,280.
    func fractionInvalid(_ range: Range<Int>) -> Double {
        let perDay = GGIRNightMethod.epochsPerDay
        return min(1, Double(range.filter { recording.part2.invalid[$0] }.count + max(0, perDay - range.count)) / Double(perDay))
    }

    /// The guider. GGIR stores none for a window cut short at the start (a date bug in
    /// `g.sib.det`) and part 4 takes the mean of the other nights' windows, or, when no night
    /// has one (a recording of a day or less), L5 ± 6 h.
    func guider(_ range: Range<Int>) -> Night? {
        let partialFirst = range.lowerBound == recording.part2.judged.lowerBound && range.count != GGIRNightMethod.epochsPerDay
        guard partialFirst else { return GGIRNightMethod.guider(W, in: recording) }
        return GGIRNightMethod.meanGuider(for: W, timeline: timeline, in: recording)
            ?? GGIRNightMethod.l5Guider(range, night: W, timeline: timeline, in: recording)
    }

    /// The page's caution: invalid (imputed) minutes in the window, the hour before it and the half
    /// hour after. Not ``WearableNightMethod/nonWearNear(_:in:)``: a guider averaged from other
    /// nights can lie before the data.
    func invalidMinutesNear(_ g: Night) -> Double {
        let whole = recording.whole
        let nearFrom = max(0, recording.index(g.guiderOnsetUTC) - WearableNightMethod.nonWearLookBeforeEpochs)
        let nearTo = min(whole.count, recording.index(g.guiderWakeUTC) + WearableNightMethod.nonWearLookAfterEpochs)
        let invalid = (nearFrom..<max(nearFrom, nearTo)).filter { recording.part2.invalid[$0] && whole.hasData($0) }.count
        return Double(invalid * WearableEpochs.epochSeconds) / 60
    }

    /// `g.create.sp.mat` adds 24 to the clock hours of a bout after midnight only when its start
    /// and end differ: a one-epoch bout between midnight and noon stays at hours 0–12, before any
    /// guider, and never overlaps it.
    func lateSingle(_ b: ClosedRange<Int>, _ g: Night) -> Bool {
        guard !g.daysleeper && b.count == 1 else { return false }
        let local = timeline.localSecond(atUTC: utc(b.lowerBound))
        return LocalClock.floorDiv(local, 86_400) > LocalClock.floorDiv(timeline.localSecond(atUTC: W.startUTC), 86_400)
            && (local % 86_400) < 12 * 3600
    }

    /// Sleep or wake per shown epoch: a bout is sleep; invalid epochs are neither.
    func states(_ shown: WearableEpochs) -> [SleepWake?] {
        (0..<shown.count).map { k in
            let i = recording.index(shown.epochStartUTC(k))
            guard i >= 0 && i < recording.whole.count, !recording.part2.invalid[i] else { return nil }
            return recording.sib[i] ? .sleep : .wake
        }
    }

    /// Part 4: onset at the first overlapping bout's start, wake at the start of the last one's last
    /// epoch, its clock-hour SPT and TST, and its night inclusion (`includenightcrit = 16`).
    ///
    /// No data and not worn in the sleep period stay nil: GGIR imputes invalid epochs (non-wear
    /// and missing alike) from the other days and its part 4 counts them in WASO = SPT − TST, so
    /// parity's TST + WASO = SPT already holds with them inside WASO; splitting them out would no
    /// longer be GGIR's WASO. The invalid minutes are reported beside it (``WearableNightSummary/invalidInSptMinutes``).
    func part4(_ overlapping: [ClosedRange<Int>], guider g: Night, fractionInvalid: Double, summary: WearableNightSummary,
               states: [SleepWake?], result: WearableNightResult) -> NightAnalysis {
        var summary = summary
        let onsetUTC = utc(overlapping.first!.lowerBound), wakeUTC = utc(overlapping.last!.upperBound)
        let (spt, tst) = GGIRNightMethod.part4Durations(onsetUTC: onsetUTC, wakeUTC: wakeUTC,
                                                        bouts: overlapping.map { (utc($0.lowerBound), utc($0.upperBound)) }, night: W, timeline: timeline)
        let waso = spt - tst
        let invalidInSpt = (recording.index(onsetUTC)..<recording.index(wakeUTC)).filter { recording.part2.invalid[$0] }.count
        summary.sleepOnsetUTC = onsetUTC; summary.wakeupUTC = wakeUTC
        summary.sptDurationMinutes = spt; summary.sleepDurationInSptMinutes = tst; summary.wasoMinutes = waso
        summary.numberOfAwakenings = overlapping.count - 1
        summary.invalidInSptMinutes = Double(invalidInSpt * WearableEpochs.epochSeconds) / 60
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
        let clockNotes = self.clockNotes()
        if fractionInvalid > 8.0 / 24 {
            let dropped = NightNote.ggirTooMuchInvalid(fractionInvalid: fractionInvalid, onsetLocalSecond: timeline.localSecond(atUTC: onsetUTC),
                                                       wakeLocalSecond: timeline.localSecond(atUTC: wakeUTC), totalSleepMinutes: tst)
            return result.make(.insufficientData, [dropped] + clockNotes, summary: summary, states: states)
        }
        let notes = (g.daysleeper ? [NightNote.ggirDaySleeper] : []) + clockNotes
        return result.make(.scored, notes, summary: summary, states: states,
                           metrics: metrics, period: (onsetUTC, wakeUTC))
    }

    /// The page's notes on a change of the clocks GGIR read the device's clock across.
    func clockNotes() -> [NightNote] {
        guard let clock = recording.clock, let seam = clock.seams.last(where: { $0.atUTC < W.endUTC }) else { return [] }
        let day = CivilDate(daysSinceEpoch: LocalClock.floorDiv(timeline.localSecond(atUTC: seam.atUTC), 86_400))
        return [.ggirClockChange(back: seam.jump > 0, day: day, shiftAfterSeconds: seam.shiftAfter), .ggirOwnClock]
    }
}
