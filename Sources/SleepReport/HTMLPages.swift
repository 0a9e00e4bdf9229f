import Mustache
import SleepCore

/// The HTML pages: self-contained static files (inline CSS, relative links), rendered with
/// Mustache, whose `{{ }}` escapes every value (&, <, >, ", ') — every string that came from
/// input goes through it. Pages hold nothing that changes between runs (no clock time, no run
/// id), so the same inputs and parameters give byte-identical files.
public enum HTMLPages {
    static let library: MustacheLibrary = {
        var lib = MustacheLibrary()
        do {
            lib.register(try MustacheTemplate(string: Templates.layoutHead), named: "head")
            lib.register(try MustacheTemplate(string: Templates.night), named: "night")
            lib.register(try MustacheTemplate(string: Templates.index), named: "index")
        } catch {
            preconditionFailure("built-in template does not parse: \(error)")
        }
        return lib
    }()

    public static func nightPage(_ input: NightReportInput, chartFile: String) -> String {
        let a = input.analysis
        let tl = input.timeline
        let m = a.metrics
        let metricRows: [[String: String]] = m.map { m in [
            ["label": "In bed", "value": "\(Fmt.clock(m.inBedStartUTC, tl))–\(Fmt.clock(m.inBedEndUTC, tl))", "def": "first to last second with data"],
            ["label": "Sleep onset", "value": Fmt.clock(m.sleepOnsetUTC, tl), "def": "first sleep interval of the sleep period (persistent sleep, at interval resolution)"],
            ["label": "Wake time", "value": Fmt.clock(m.wakeTimeUTC, tl), "def": "end of the last sleep interval of the sleep period"],
            ["label": "Time in bed (TIB)", "value": Fmt.minutes(m.timeInBedMinutes), "def": "in-bed span"],
            ["label": "Total sleep time (TST)", "value": Fmt.minutes(m.totalSleepTimeMinutes), "def": "sleep inside the sleep period"],
            ["label": "Sleep onset latency (SOL)", "value": Fmt.minutes(m.sleepOnsetLatencyMinutes), "def": "in bed to sleep onset"],
            ["label": "Wake after sleep onset (WASO)", "value": Fmt.minutes(m.wakeAfterSleepOnsetMinutes), "def": "wake inside the sleep period"],
            ["label": "Sleep efficiency (SE)", "value": Fmt.fixed(m.sleepEfficiencyPercent, 1) + " %", "def": "TST / TIB"],
            ["label": "Sleep maintenance efficiency (SME)", "value": Fmt.fixed(m.sleepMaintenanceEfficiencyPercent, 1) + " %", "def": "TST / SPT"],
            ["label": "Awakenings", "value": String(m.awakenings), "def": "wake bouts inside the sleep period that sleep follows"],
            ["label": "Sleep fragmentation index (SFI)", "value": Fmt.fixed(m.sleepFragmentationIndexPerHour, 2) + " /h", "def": "sleep→wake transitions (final awakening included) per hour of TST"],
            ["label": "Light / deep (movement phases)", "value": "\(Fmt.minutes(m.lightMinutes)) / \(Fmt.minutes(m.deepMinutes))",
             "def": "sleep intervals above / at or below the night's quantile of movement"],
        ] } ?? []
        let intervals: [[String: String]] = a.intervals.map { iv in
            let mv = iv.movement
            return [
                "start": LocalClock.hhmm(localSecond: tl.localSecond(atUTC: mv.startUTC)),
                "sum": Fmt.fixed(mv.movementSum, 3),
                "perMinute": Fmt.fixed(mv.movementPerMinute, 4),
                "coverage": String(mv.coverageSeconds),
                "state": iv.state.map { String($0.letter) } ?? "",
                "phase": iv.phase?.rawValue ?? "",
            ]
        }
        let p = a.parameters
        let parameters: [[String: String]] = [
            ["label": "Interval length", "value": "\(p.interval) (\(p.interval.seconds) s)"],
            ["label": "Movement metric", "value": "\(p.metric.rawValue): \(p.metric.summary)"],
            ["label": "Scoring", "value": "\(AnalysisParameters.algorithmName) on \(p.epochSeconds)-s epochs; wake if the Oakley-weighted activity exceeds \(Fmt.fixed(p.wakeThresholdFactor, 1)) × the night's median epoch activity"],
            ["label": "Wake threshold used", "value": Fmt.fixed(a.wakeThreshold, 4)],
            ["label": "Persistent sleep", "value": "\(p.persistentSleepMinutes) min"],
            ["label": "Deep phase", "value": "sleep intervals at or below the \(Int(p.deepQuantile * 100))th percentile of the night's sleep movement"],
            ["label": "Minimum data to score", "value": Fmt.minutes(Double(p.minimumCoverageSeconds) / 60)],
            ["label": "Parameters key", "value": p.key],
        ]
        let context: [String: Any] = [
            "title": "Night of \(input.date) — \(input.nightID)",
            "nightID": input.nightID,
            "date": input.date.description,
            "recording": input.recordingPath,
            "format": input.recordingFormat,
            "timeZone": input.timeZoneName ?? "UTC offsets from the data",
            "status": a.status.rawValue,
            "scored": a.status == .scored,
            "statusNote": statusNote(a.status),
            "chart": chartFile,
            "interval": p.interval.description,
            "metrics": metricRows,
            "intervals": intervals,
            "parameters": parameters,
            "facts": input.dataFacts.map { ["label": $0.label, "value": $0.value] },
            "warnings": input.warnings,
            "hasWarnings": !input.warnings.isEmpty,
            "preBed": input.preBedSurvey.map { ["q": $0.question, "a": $0.answer] },
            "postBed": input.postBedSurvey.map { ["q": $0.question, "a": $0.answer] },
            "hasSurvey": !(input.preBedSurvey.isEmpty && input.postBedSurvey.isEmpty),
            "coarseSource": input.sourceResolutionSeconds > 1,
            "sourceResolution": IntervalLength(seconds: input.sourceResolutionSeconds)?.description ?? "",
        ]
        return library.render(context, withTemplate: "night") ?? ""
    }

    static func statusNote(_ s: NightStatus) -> String {
        switch s {
        case .scored: return ""
        case .insufficientData: return "Too little data to score this night; movement is shown, no sleep estimate is made."
        case .noSleepFound: return "No persistent sleep run was found in this night's data."
        }
    }

    public static func indexPage(_ rows: [IndexRow], parameters: AnalysisParameters, extraLinks: [(href: String, label: String)] = []) -> String {
        let items: [[String: String]] = rows.map { r in
            let m = r.analysis?.metrics
            return [
                "id": r.nightID, "date": r.date.description, "recording": r.recordingPath,
                "status": r.analysis?.status.rawValue ?? "not analysed",
                "inBed": m.map { "\(Fmt.clock($0.inBedStartUTC, r.timeline))–\(Fmt.clock($0.inBedEndUTC, r.timeline))" } ?? "–",
                "tib": Fmt.minutes(m?.timeInBedMinutes), "tst": Fmt.minutes(m?.totalSleepTimeMinutes),
                "se": m.map { Fmt.fixed($0.sleepEfficiencyPercent, 1) } ?? "–",
                "sol": Fmt.minutes(m?.sleepOnsetLatencyMinutes), "waso": Fmt.minutes(m?.wakeAfterSleepOnsetMinutes),
                "awakenings": m.map { String($0.awakenings) } ?? "–",
            ]
        }
        let span = rows.isEmpty ? "no nights" : "\(rows.first!.date) to \(rows.last!.date)"
        let context: [String: Any] = [
            "title": "sleepsta — nights",
            "nights": items, "count": String(rows.count), "span": span,
            "interval": parameters.interval.description, "key": parameters.key,
            "links": extraLinks.map { ["href": $0.href, "label": $0.label] }, "hasLinks": !extraLinks.isEmpty,
        ]
        return library.render(context, withTemplate: "index") ?? ""
    }
}
