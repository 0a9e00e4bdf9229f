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
        return metricRows(m, tl, definitions: MetricDefinitions(
            inBed: "time in bed from \(guider)",
            onset: "start of the first run of \(a.parameters.persistentSleepMinutes) min of sleep epochs in bed",
            wake: "end of the last such run", timeInBed: "in bed to out of bed",
            totalSleep: "sleep epochs between sleep onset and wake time", latency: "in bed to sleep onset",
            waso: "wake epochs between sleep onset and wake time", noData: "epochs without data or not worn: neither sleep nor wake",
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
        if let off = e.nonWearMinutes { rows.append(["label": "Not worn", "value": "\(NumberText.minutes(off)) (runs of ≥ \(EpochFileNightMethod.nonWearMinutes / 60) h of zero counts; missing data, neither sleep nor wake)"]) }
        if let name = e.fileLabelsName {
            rows.append(["label": "The file's own scoring", "value": "“\(name)”: TST \(NumberText.minutes(e.fileTotalSleepMinutes)) by the same rules over the same time in bed"])
            rows.append(["label": "Agreement with it", "value": "accuracy \(NumberText.fixed(e.agreementAccuracy.map { $0 * 100 }, 1)) %, Cohen's κ \(NumberText.fixed(e.agreementKappa, 3)) over \(e.agreementEpochs ?? 0) epochs in bed"])
        }
        return rows
    }

    static func epochFileParameterRows(_ a: NightAnalysis) -> [[String: String]] {
        let p = a.parameters
        return [
            ["label": "Interval length", "value": "\(p.interval) (\(p.interval.seconds) s), for the chart, the interval table and phases"],
            ["label": "Actiwatch counts", "value": "Oakley as Actiware: weights 0.04 / 0.2 / 1 per minute (×2 for 30-s, ×4 for 15-s epochs) in double precision, wake if > \(Int(EpochFileNightMethod.actiwareThreshold)) counts (medium)"],
            ["label": "ActiGraph counts", "value": "axis 1 summed to 60 s; \(p.sleepAlgorithm == .sadeh ? "Sadeh" : "Cole–Kripke") as ActiLife; time in bed from ActiLife's Tudor-Locke sleep periods (5-min bedtime, 10-min wake, 160–1440 min)"],
            ["label": "Acceleration (ENMO …)", "value": "the file's own epochs (15, 30, 60, 120 s; others 60-s means); Oakley weighting, wake above \(NumberText.fixed(p.wakeThresholdFactor, 1)) × the night's median (the phones' rule)"],
            ["label": "Not worn", "value": "count columns: runs of ≥ \(EpochFileNightMethod.nonWearMinutes) min of zero counts"],
            ["label": "Persistent sleep", "value": "\(p.persistentSleepMinutes) min"],
            ["label": "Minimum data to score", "value": NumberText.minutes(Double(p.minimumCoverageSeconds) / 60)],
            ["label": "Parameters key", "value": a.key],
        ]
    }
}
