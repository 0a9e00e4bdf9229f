import SleepCore

/// The night page's rows for the epoch-file method (``EpochFileNightMethod``).
extension HTMLPages {
    static func epochFileUnit(_ a: NightAnalysis, perMinute: Bool) -> String {
        guard let e = a.epochFile else { return perMinute ? "Per minute" : "Activity" }
        if e.family == .acceleration { return perMinute ? "\(e.column) (\(e.unit)·s/min)" : "\(e.column) (\(e.unit)·s)" }
        return perMinute ? "\(e.column) (\(e.unit)/min)" : "\(e.column) (\(e.unit))"
    }

    static func epochFileMetricRows(_ a: NightAnalysis, _ tl: UTCOffsetTimeline) -> [[String: String]] {
        guard let m = a.metrics else { return [] }
        let guider = a.epochFile?.guider ?? "the guider"
        let onset: String, wake: String
        switch (a.epochFile?.actiware != nil, a.epochFile?.family) {
        case (true, _):
            let whose = a.epochFile?.isActiware ?? true ? "Actiware's sleep" : "Sleep"
            onset = "\(whose) start: first epoch of the first section of the onset setting's minutes in bed with all but one epoch immobile"
            wake = "\(whose) end: last epoch of the last such section of the end setting's minutes"
        case (false, .actiGraphCounts?):
            onset = "ActiLife's: the first minute scored asleep in bed"
            wake = "ActiLife's: out of bed (the sleep period runs to the end of time in bed)"
        default:
            onset = "start of the first run of \(a.parameters.persistentSleepMinutes) min of sleep epochs in bed"
            wake = "end of the last such run"
        }
        return metricRows(m, tl, definitions: MetricDefinitions(
            inBed: "time in bed from \(guider)",
            onset: onset,
            wake: wake, timeInBed: "in bed to out of bed",
            totalSleep: "sleep epochs between sleep onset and wake time", latency: "in bed to sleep onset",
            waso: "wake epochs between sleep onset and wake time", noData: "epochs the file has no value for: neither sleep nor wake",
            notWorn: "epochs taken as the device off the wrist (runs of zero counts, the file's off-wrist channel): neither sleep nor wake (TST + WASO + no data + not worn = SPT)",
            efficiency: "TST / (TIB − minutes without data in bed)", maintenance: "TST / (SPT − minutes without data)",
            awakenings: "wake runs between sleep onset and wake time that sleep follows", fragmentation: "awakenings + 1 per hour of TST",
            phases: "sleep intervals above / at or below the night's quantile of activity (movement intensity, not EEG stages)"))
    }

    /// The night's facts: what was scored, how, the guider, and the agreement with the file's own scoring.
    static func epochFileFacts(_ a: NightAnalysis) -> [[String: String]] {
        guard let e = a.epochFile else { return [] }
        var rows: [[String: String]] = [
            ["label": "Activity column", "value": "\(e.column) (file title “\(e.columnTitle)”, \(e.unit)), \(e.fileEpochSeconds)-s epochs: \(e.family.rawValue)"],
            ["label": "Sleep/wake", "value": e.scorer ?? "–"],
            ["label": "Time in bed from", "value": e.guider ?? "–"],
        ]
        if let rule = e.periodRule { rows.append(["label": "Sleep period", "value": rule]) }
        if let off = e.nonWearMinutes { rows.append(["label": "Not worn", "value": nonWearText(off, e)]) }
        if let still = e.stillInBedMinutes {
            rows.append(["label": "Lying still in bed", "value": "\(NumberText.minutes(still)) of zero counts in runs of ≥ \(EpochFileNightMethod.nonWearMinutes / 60) h inside the recording of the time in bed: immobile, scored as the rest of the night, not taken as not worn (in bed only the file's off-wrist channel marks not worn, as in Actiware)"])
        }
        if let name = e.fileLabelsName {
            rows.append(["label": "The file's own scoring", "value": "“\(name)”: TST \(NumberText.minutes(e.fileTotalSleepMinutes)) (its sleep epochs between our sleep onset and wake time)"])
            rows.append(["label": "Agreement with it", "value": "accuracy \(NumberText.fixed(e.agreementAccuracy.map { $0 * 100 }, 1)) %, Cohen's κ \(NumberText.fixed(e.agreementKappa, 3)) over \(e.agreementEpochs ?? 0) epochs in bed"])
        }
        if let light = e.light {
            rows.append(["label": "Light", "value": "mean \(NumberText.fixed(light.meanLuxSleepPeriod, 1)) lux in the sleep period, \(NumberText.fixed(light.meanLuxHourBefore, 1)) lux in the hour before onset (file channel “\(light.columnTitle)”)"])
        }
        return rows
    }

    /// The not-worn minutes and the rule that decided them: the file's off-wrist channel, runs of zero counts, or both.
    static func nonWearText(_ off: Double, _ e: EpochFileNightSummary) -> String {
        let channel = e.nonWearOffWristMinutes ?? 0, runs = max(0, off - channel)
        var parts: [String] = []
        if channel > 0 { parts.append("\(NumberText.minutes(channel)) by the file's off-wrist channel") }
        if runs > 0 { parts.append("\(NumberText.minutes(runs)) by runs of ≥ \(EpochFileNightMethod.nonWearMinutes / 60) h of zero counts") }
        return "\(NumberText.minutes(off)) (\(parts.joined(separator: ", ")); missing data, neither sleep nor wake)"
    }

    /// The method's parameters for this night: those of its file's activity family (the branch
    /// that ran; all three where the night has no stored summary), then what every family shares.
    static func epochFileParameterRows(_ a: NightAnalysis) -> [[String: String]] {
        let p = a.parameters
        let families: [(EpochActivityFamily, [String: String])] = [
            (.actiwatchCounts, ["label": "Actiwatch counts", "value": "Oakley as Actiware: weights 0.04 / 0.2 / 1 per minute (×2 for 30-s, ×4 for 15-s epochs) in double precision, wake if > the export's wake threshold (\(Int(EpochFileNightMethod.actiwareThreshold)) counts, medium, where it states none); sleep interval by the Actiware 5 manual's immobile-minutes rule with the export's sleep onset / end settings (10 min where it states none), immobile < \(Int(ActiwareIntervals.immobileBelowCountsPerMinute)) counts per minute"]),
            (.actiGraphCounts, ["label": "ActiGraph counts", "value": "axis 1 summed to 60 s; \(p.sleepAlgorithm == .sadeh ? "Sadeh" : "Cole–Kripke") as ActiLife; time in bed from ActiLife's Tudor-Locke sleep periods (5-min bedtime, 10-min wake, 160–1440 min; minutes without data left out of the runs, as sleepsta periods does); sleep onset = the first minute asleep, the period runs to out of bed (ActiLife)"]),
            (.acceleration, ["label": "Acceleration (ENMO …)", "value": "the file's own epochs (15, 30, 60, 120 s; others 60-s means); Oakley weighting, wake above \(NumberText.fixed(p.wakeThresholdFactor, 1)) × the night's median (the phones' rule)"]),
        ]
        let ran = a.epochFile?.family
        return [["label": "Interval length", "value": "\(p.interval) (\(p.interval.seconds) s), for the chart, the interval table and phases"]]
            + families.filter { ran == nil || $0.0 == ran }.map(\.1) + [
            ["label": "Not worn", "value": "count columns: runs of ≥ \(EpochFileNightMethod.nonWearMinutes) min of zero counts, except in bed (the file's rest interval, a Tudor-Locke period, a recording of the time in bed), where they are lying still; the file's off-wrist channel wherever it says so"],
            ["label": "Persistent sleep", "value": "\(p.persistentSleepMinutes) min"],
            ["label": "Minimum data to score", "value": NumberText.minutes(Double(p.minimumCoverageSeconds) / 60)],
            ["label": "Parameters key", "value": a.key],
        ]
    }

    /// Actiware's interval by sleepsta beside the export's own (its statistics section), with the
    /// differences: start and end to the second, minutes and percent.
    static func actiwareRows(_ c: ActiwareNightComparison, _ tl: UTCOffsetTimeline) -> [[String: String]] {
        func clock(_ utc: Int64) -> String { LocalClock.hhmmss(localSecond: tl.localSecond(atUTC: utc)) }
        func minutesDiff(_ a: Int64, _ b: Int64) -> String { NumberText.signedMinutes(Double(a - b) / 60) }
        func row(_ label: String, _ ours: Double?, _ theirs: Double?, percent: Bool = false) -> [String: String] {
            let text: (Double?) -> String = { percent ? NumberText.fixed($0, 2) + ($0 == nil ? "" : " %") : NumberText.tenthsOfMinutes($0) }
            let diff = (ours != nil && theirs != nil) ? (percent ? NumberText.signedFixed(ours! - theirs!, 2) + " %" : NumberText.signedMinutes(ours! - theirs!)) : "–"
            return ["label": label, "ours": text(ours), "theirs": text(theirs), "diff": diff]
        }
        let s = c.stated, r = c.statedRest
        var rows: [[String: String]] = [
            ["label": "Rest interval (time in bed)", "ours": "\(clock(c.restStartUTC))–\(clock(c.restEndUTC))",
             "theirs": r.map { "\(clock($0.startUTC))–\(clock($0.endUTC))" } ?? "–",
             "diff": r.map { "\(minutesDiff(c.restStartUTC, $0.startUTC)) / \(minutesDiff(c.restEndUTC, $0.endUTC))" } ?? "–"],
            ["label": "Sleep interval (onset–end)", "ours": "\(clock(c.sleepStartUTC))–\(clock(c.sleepEndUTC))",
             "theirs": s.map { "\(clock($0.startUTC))–\(clock($0.endUTC))" } ?? "–",
             "diff": s.map { "\(minutesDiff(c.sleepStartUTC, $0.startUTC)) / \(minutesDiff(c.sleepEndUTC, $0.endUTC))" } ?? "–"],
            row("Duration", c.ours.durationMinutes, s.map { Double($0.endUTC - $0.startUTC) / 60 }),
            row("Sleep time", c.ours.sleepMinutes, s?.statistics?.sleepMinutes),
            row("Wake time (WASO)", c.ours.wakeMinutes, s?.statistics?.wakeMinutes),
            row("Efficiency (sleep time / rest interval)", c.ours.efficiencyPercent, s?.statistics?.efficiencyPercent, percent: true),
        ]
        rows.append(["label": "Wake bouts", "ours": c.ours.wakeBouts.map(String.init) ?? "–",
                     "theirs": s?.statistics?.wakeBouts.map(String.init) ?? "–",
                     "diff": zip2(c.ours.wakeBouts, s?.statistics?.wakeBouts).map { String($0 - $1) } ?? "–"])
        rows.append(row("Immobile time", c.ours.immobileMinutes, nil))
        rows.append(row("Latency (rest start to sleep start)", c.ours.latencyMinutes, nil))
        rows.append(row("Snooze (sleep end to rest end)", c.ours.snoozeMinutes, nil))
        return rows
    }

    private static func zip2(_ a: Int?, _ b: Int?) -> (Int, Int)? { if let a, let b { return (a, b) }; return nil }

    static func actiwareNote(_ c: ActiwareNightComparison, _ e: EpochFileNightSummary) -> String {
        let settings = "sleep onset setting \(c.settings.sleepOnsetMinutes) min, sleep end setting \(c.settings.sleepEndMinutes) min, wake threshold \(NumberText.fixed(c.settings.wakeThreshold, 2)) counts"
        guard e.isActiware else {
            return "The sleep-interval rule the Actiware 5 manual publishes, applied to this device's Actiwatch-compatible counts with \(settings): its own software (MotionWare for CamNtech devices) publishes no rule of its own, and the file states no interval to compare with."
        }
        guard c.stated != nil else {
            return "Actiware's rules applied to the epochs with \(settings); the export lists no sleep interval for this night, so there is nothing to compare with."
        }
        return "Actiware's rules applied to the epochs with the export's \(settings), beside the interval the export's statistics section lists. A difference means sleepsta and Actiware disagree on this night: the interval is recomputed, never copied."
    }
}
