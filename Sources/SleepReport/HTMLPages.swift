import Mustache
import SleepCore

/// The HTML pages: self-contained static files (inline CSS, relative links), rendered with
/// Mustache, whose `{{ }}` escapes every value (&, <, >, ", ') — every string that came from
/// input goes through it. Pages hold nothing that changes between runs (no clock time, no run
/// id), so the same inputs and parameters give byte-identical files.
public enum HTMLPages {
    static let library: PageLibrary = PageLibrary { lib in
        lib.register(try MustacheTemplate(string: Templates.layoutHead), named: "head")
        lib.register(try MustacheTemplate(string: Templates.chartFocusScript), named: "chartFocusScript")
        lib.register(try MustacheTemplate(string: Templates.night), named: "night")
        lib.register(try MustacheTemplate(string: Templates.index), named: "index")
        lib.register(try MustacheTemplate(string: StudyTablePages.template), named: "study")
        lib.register(try MustacheTemplate(string: DefinitionsPage.template), named: "definitions")
        lib.register(try MustacheTemplate(string: ParticipantTemplates.participant), named: "participant")
    }

    /// The pages' own scripts, as they appear in a page: the only `<script` a page holds (tests
    /// strip these, then check that no markup from input remains).
    public static let ownScripts = [Templates.chartFocusScript]

    /// A night's page: what the night is and its status, the method's facts, the chart and the
    /// tables, and what the data and the surveys say.
    public static func nightPage(_ input: NightReportInput, chartFile: String) -> String {
        var context = nightStatusContext(input)
        for part in [nightMethodContext(input), nightChartAndTablesContext(input, chartFile: chartFile), nightDataContext(input),
                     dayPeriodsContext(input.analysis, input.timeline)] {
            context.merge(part) { first, _ in first }
        }
        return library.render(context, withTemplate: "night") ?? ""
    }

    /// The night, its neighbours and recording, its status and why, and a caution about non-wear.
    static func nightStatusContext(_ input: NightReportInput) -> [String: Any] {
        let a = input.analysis
        let caution = nonWearNote(a, input.timeline)
        let reason = NightNoteText.text(a.notes)
        return [
            "title": "Night of \(input.date) — \(input.nightID)",
            "nightID": input.nightID,
            "date": input.date.description,
            "previous": input.previousNight.map { [["id": $0.nightID, "date": $0.date.description]] } ?? [],
            "next": input.nextNight.map { [["id": $0.nightID, "date": $0.date.description]] } ?? [],
            "recording": input.recordingPath,
            "format": input.recordingFormat.rawValue,
            "timeZone": timeZoneText(name: input.timeZoneName, source: input.timeZoneSource),
            "status": a.status.rawValue,
            "scored": a.status == .scored,
            "statusNote": statusNote(a.status),
            "statusReason": reason ?? "",
            "scoredNote": a.status == .scored && reason != nil,
            // Mustache takes an empty string for a present value: the sections test flags.
            "hasStatusReason": !(reason ?? "").isEmpty,
            "hasNonWearNote": caution != nil,
            "nonWearNote": caution ?? "",
            "recordingPage": input.recordingPage.map { [$0] } ?? [],
        ]
    }

    /// The night's method, why the recording got it, the method's own facts and its units.
    static func nightMethodContext(_ input: NightReportInput) -> [String: Any] {
        let a = input.analysis, tl = input.timeline
        let wearable = a.kind == .wearable24h, epochFile = a.kind == .epochFile
        return [
            "method": a.method.summary(of: a),
            "kindReason": input.kindReason,
            "hasKindReason": !input.kindReason.isEmpty,
            "ggirNames": wearable,
            "nightFacts": epochFile ? epochFileFacts(a) : wearable ? wearableFacts(a, tl) : [],
            "hasActiware": a.epochFile?.actiware != nil && a.status == .scored,
            "actiwareRows": a.epochFile?.actiware.map { actiwareRows($0, tl) } ?? [],
            "actiwareSource": a.epochFile?.actiware?.stated.map { "the export (SLEEP \($0.number), line \($0.line))" } ?? "the export",
            "actiwareNote": a.epochFile.flatMap { e in e.actiware.map { actiwareNote($0, e) } } ?? "",
            "actiwareTitle": a.epochFile?.sleepIntervalTitle ?? "Actiware's sleep interval",
            "movementUnit": epochFile ? epochFileUnit(a, perMinute: false) : wearable ? "ENMO (mg·s)" : "Movement sum (g·s)",
            "perMinuteUnit": epochFile ? epochFileUnit(a, perMinute: true) : wearable ? "ENMO (mg)" : "Mean acceleration (mg)",
        ]
    }

    /// The chart, the metric table, the interval table and the parameters, by the night's method.
    static func nightChartAndTablesContext(_ input: NightReportInput, chartFile: String) -> [String: Any] {
        let a = input.analysis, tl = input.timeline
        let metricRows: [[String: String]] = switch a.kind {
        case .epochFile: epochFileMetricRows(a, tl)
        case .wearable24h: wearableMetricRows(a, tl)
        case .phoneInBed: a.metrics.map { Self.metricRows($0, tl, definitions: .phone) } ?? []
        }
        let parameters: [[String: String]] = switch a.kind {
        case .epochFile: epochFileParameterRows(a)
        case .wearable24h: wearableParameterRows(a)
        case .phoneInBed: phoneParameterRows(a, recordingFormat: input.recordingFormat)
        }
        return [
            "chart": chartFile,
            "interval": a.parameters.interval.description,
            "scoredPer": a.labels(appTotals: input.recordingFormat == appExportFormat).scoredPer,
            "chartAlt": chartAlt(a, interval: a.parameters.interval),
            "chartFocus": chartFocus(a).map { NumberText.fixed($0, 3) as Any } ?? false,
            "metrics": metricRows,
            "intervals": a.kind == .wearable24h ? wearableIntervalRows(a, tl) : intervalRows(a, tl),
            "parameters": parameters,
        ]
    }

    /// The facts about the data, the warnings, the surveys and the source's resolution.
    static func nightDataContext(_ input: NightReportInput) -> [String: Any] {
        [
            "facts": input.dataFacts.map { ["label": $0.label, "value": $0.value] },
            "warnings": input.warnings,
            "hasWarnings": !input.warnings.isEmpty,
            "preBed": input.preBedSurvey.map { ["q": $0.question, "a": $0.answer] },
            "postBed": input.postBedSurvey.map { ["q": $0.question, "a": $0.answer] },
            "hasSurvey": !(input.preBedSurvey.isEmpty && input.postBedSurvey.isEmpty),
            "coarseSource": input.sourceResolutionSeconds > 1,
            "sourceResolution": IntervalLength(seconds: input.sourceResolutionSeconds)?.description ?? "",
        ]
    }

    /// The interval table of a phone or epoch-file night: movement in g·s and mg (phones) or in
    /// the file's own unit.
    static func intervalRows(_ a: NightAnalysis, _ tl: UTCOffsetTimeline) -> [[String: String]] {
        a.intervals.map { iv in
            let mv = iv.movement
            return [
                "start": LocalClock.hhmm(localSecond: tl.localSecond(atUTC: mv.startUTC)),
                "offset": UTCOffsetTimeline.formatOffset(tl.offset(atUTC: mv.startUTC)),
                "sum": NumberText.fixed(mv.movementSum, 3),
                "perMinute": a.kind == .epochFile ? NumberText.fixed(mv.movementPerMinute, 2) : NumberText.fixed(MovementUnits.milliG(perMinute: mv.movementPerMinute), 2),
                "coverage": String(mv.coverageSeconds),
                "state": iv.state.map { String($0.letter) } ?? "",
                "phase": iv.phase?.rawValue ?? "",
            ]
        }
    }

    /// The interval table of a wearable night: ENMO in mg·s and mg.
    static func wearableIntervalRows(_ a: NightAnalysis, _ tl: UTCOffsetTimeline) -> [[String: String]] {
        a.intervals.map { iv -> [String: String] in
            let mv = iv.movement
            return ["start": LocalClock.hhmm(localSecond: tl.localSecond(atUTC: mv.startUTC)),
                    "offset": UTCOffsetTimeline.formatOffset(tl.offset(atUTC: mv.startUTC)),
                    "sum": NumberText.fixed(mv.movementSum * 1000, 1), "perMinute": NumberText.fixed(mv.movementPerMinute.map { $0 / 60 * 1000 }, 2),
                    "coverage": String(mv.coverageSeconds), "state": iv.state.map { String($0.letter) } ?? "", "phase": iv.phase?.rawValue ?? ""]
        }
    }

    /// The phone method's parameters; the app's own totals are movement --metric does not change.
    static func phoneParameterRows(_ a: NightAnalysis, recordingFormat: SourceFormat) -> [[String: String]] {
        let p = a.parameters
        return [
            ["label": "Interval length", "value": "\(p.interval) (\(p.interval.seconds) s)"],
            recordingFormat == appExportFormat
                ? ["label": "Movement metric", "value": "app-totals: the app's own interval totals (its legacy formula), spread evenly over their seconds; --metric has no effect on them"]
                : ["label": "Movement metric", "value": "\(p.metric.rawValue): \(p.metric.summary)"],
            ["label": "Scoring", "value": "\(AnalysisParameters.algorithmName) on \(p.epochSeconds)-s epochs; wake if the Oakley-weighted activity exceeds \(NumberText.fixed(p.wakeThresholdFactor, 1)) × the night's median epoch activity"],
            ["label": "Wake threshold used", "value": NumberText.fixed(a.wakeThreshold, 4) + " g·s (Oakley-weighted movement of a \(p.epochSeconds)-s epoch)"],
            ["label": "Persistent sleep", "value": "\(p.persistentSleepMinutes) min"],
            ["label": "Deep phase", "value": "sleep intervals at or below the \(Int(p.deepQuantile * 100))th percentile of the night's sleep movement"],
            ["label": "Minimum data to score", "value": NumberText.minutes(Double(p.minimumCoverageSeconds) / 60)],
            ["label": "Parameters key", "value": p.key],
        ]
    }

    /// The recording format of the app's export: its movement is the app's own interval totals.
    static let appExportFormat = SourceFormat.samples(.appJSON)

    /// Where on the night chart (a share of its width) the sleep period's middle falls, or the
    /// time in bed's: the point a narrow screen scrolls the chart to. The chart's plot spans the
    /// intervals between the night frame's margins; a few pixels off where a secondary axis
    /// widens the right margin, which is close enough to centre.
    static func chartFocus(_ a: NightAnalysis) -> Double? {
        guard let first = a.intervals.first?.movement.startUTC, let last = a.intervals.last?.movement.endUTC, last > first else { return nil }
        let span: (Int64, Int64)? = a.metrics.flatMap { m in
            if let on = m.sleepOnsetUTC, let off = m.wakeTimeUTC { return (on, off) }
            return (m.inBedStartUTC, m.inBedEndUTC)
        }
        guard let (start, end) = span else { return nil }
        // In Double: the times come from the store, and their sum must not trap.
        let share = min(1, max(0, ((Double(start) + Double(end)) / 2 - Double(first)) / (Double(last) - Double(first))))
        let width = Double(ChartRenderer.defaultWidth), left = Double(ChartRenderer.NightFrame.leftMargin)
        let right = Double(ChartRenderer.NightFrame.rightMargin(secondaryAxis: false))
        return (left + share * (width - left - right)) / width
    }

    /// The chart's alternative text, by what the chart shows for the night's method.
    static func chartAlt(_ a: NightAnalysis, interval: IntervalLength) -> String {
        let shown: String
        switch a.kind {
        case .phoneInBed: shown = "Mean acceleration (mg) per \(interval) interval"
        case .wearable24h: shown = "ENMO (mg) per \(interval) interval and angle-z per minute"
        case .epochFile: shown = "\(a.epochFile?.column ?? "Activity") per \(interval) interval"
        }
        return shown + " over the night, with the sleep period shaded" + (a.kind == .phoneInBed ? " and movement phases below" : "")
    }

    /// The index footer's parameters: the analysis key of each method whose nights it lists
    /// (`phone-in-bed: interval=600s;…`), or this run's phone key when it lists none.
    static func footerKeys(_ rows: [IndexRow], parameters: AnalysisParameters) -> [[String: Any]] {
        var seen: [(RecordingKind, String)] = []
        for r in rows { if let a = r.analysis, !seen.contains(where: { $0 == (a.kind, a.key) }) { seen.append((a.kind, a.key)) } }
        if seen.isEmpty { return [["kind": "", "key": parameters.key, "last": true]] }
        seen.sort { ($0.0.rawValue, $0.1) < ($1.0.rawValue, $1.1) }
        return seen.enumerated().map { k, e in ["kind": e.0.rawValue, "key": e.1, "last": k == seen.count - 1] }
    }

    /// The zone a night was split with and where it came from (`recordings.time_zone_source`).
    public static func timeZoneText(name: String?, source: TimeZoneSource?) -> String {
        switch source {
        case .option: return "\(name ?? "UTC") (from --tz)"
        case .assumedUTC: return "UTC, assumed: the file states no time zone and no --tz was given (re-run with --tz to split the nights on the local clock)"
        case .data: return name.map { "\($0) (stated by the file; it wins over --tz)" } ?? "UTC offsets stated by the file (they win over --tz)"
        case nil: return name ?? "UTC offsets from the data"
        }
    }

    /// The caution of a wearable night with non-wear in or just before its sleep window
    /// (``WearableNightSummary/nonWearNearWindowMinutes``, at least 15 minutes: GGIR's non-wear
    /// windows are 15 min long), nil otherwise.
    package static func nonWearNote(_ a: NightAnalysis, _ tl: UTCOffsetTimeline) -> String? {
        guard let w = a.wearable, let minutes = w.nonWearNearWindowMinutes, minutes >= 15,
              let on = w.guiderOnsetUTC, let off = w.guiderWakeupUTC else { return nil }
        if a.parameters.nightMethod == .ggir {
            return "\(NumberText.minutes(minutes)) are invalid (not worn by GGIR 3's 2023 rule and its clean-up) in this night's sleep window (\(NumberText.clock(on, tl))–\(NumberText.clock(off, tl))), the hour before it or the half hour after it. "
                + "GGIR parity judges them by angle-z imputed from the other days and counts them as wake (WASO), as GGIR does; a sleeper lying very still can look like a device off the wrist to that rule. "
                + "sleepsta's own method (--method sleepsta) tells a still wrist from a device laid down."
        }
        return "\(NumberText.minutes(minutes)) marked not worn lie in this night's sleep window (\(NumberText.clock(on, tl))–\(NumberText.clock(off, tl))), the hour before it or the half hour after it. "
            + "A sleeper lying very still can look like a device off the wrist (GGIR's 2013 rule: an hour without movement), and the sleep period may then start late and TST be short. "
            + "Check the chart's \"not worn\" stretches; if the device was worn, a sleep diary (--diary) with the time in bed guides the night."
    }

    static func statusNote(_ s: NightStatus) -> String {
        switch s {
        case .scored: return ""
        case .insufficientData: return "Too little data to score this night; movement is shown, no sleep estimate is made."
        case .noSleepFound: return "No persistent sleep run was found in this night's data."
        case .unsuitable: return "The night-analysis method does not fit this recording; nothing is estimated."
        }
    }

    /// The report's index: the nights by participant (those with too little data apart), the
    /// participants, the overview charts, links to the other pages and the recordings that failed.
    public static func indexPage(_ rows: [IndexRow], parameters: AnalysisParameters, extraLinks: [(href: String, label: String)] = [],
                                 failures: [(path: String, error: String)] = [], participants: [ParticipantIndexEntry] = [],
                                 participantRule: String = ParticipantRule.file.description, overviewCharts: [String] = ["overview.png"],
                                 studyTables: [StudyTableSection] = []) -> String {
        // Nights with too little data for an analysis are listed apart, not among the nights.
        let apart = rows.filter { $0.analysis?.status == .insufficientData }
        let listed = rows.filter { $0.analysis?.status != .insufficientData }
        let span = rows.isEmpty ? "no nights" : "\(rows.map(\.date).min()!) to \(rows.map(\.date).max()!)"
        var context: [String: Any] = [
            "title": "sleepsta — nights",
            "nights": listed.map(indexNightRow), "count": Plural.count(listed.count, "night"), "span": span,
            "interval": parameters.interval.description, "keys": footerKeys(rows, parameters: parameters),
            "hasOverview": !rows.isEmpty && !overviewCharts.isEmpty, "firstOverview": overviewCharts.first ?? "",
            "moreOverview": overviewCharts.dropFirst().map { ["file": $0] }, "hasMoreOverview": overviewCharts.count > 1,
            "moreOverviewCount": Plural.count(overviewCharts.count - 1, "more chart"),
            "hasNights": !listed.isEmpty, "groups": participantGroups(listed, participants: participants),
            "hasParticipants": !participants.isEmpty, "participants": participants.map(participantRow),
            "participantCount": String(participants.count), "participantRule": participantRule,
            "hasApart": !apart.isEmpty, "apartCount": String(apart.count),
            "apart": apart.map { ["id": $0.nightID, "date": $0.date.description, "participant": $0.participant.id, "recording": $0.recordingPath,
                                  "reason": $0.analysis.flatMap { NightNoteText.text($0.notes) } ?? "too little data"] },
            "failures": failures.map { ["path": $0.path, "error": $0.error] }, "hasFailures": !failures.isEmpty,
            "failureCount": String(failures.count),
        ]
        context.merge(indexLinks(extraLinks)) { first, _ in first }
        context.merge(StudyTablePages.context(studyTables)) { first, _ in first }
        return library.render(context, withTemplate: "index") ?? ""
    }

    /// The index's links: the recordings' pages apart from the others (comparisons, definitions).
    static func indexLinks(_ extraLinks: [(href: String, label: String)]) -> [String: Any] {
        let recordings = extraLinks.filter { $0.href.hasPrefix("recordings/") }
        let others = extraLinks.filter { !$0.href.hasPrefix("recordings/") }
        return [
            "links": others.map { ["href": $0.href, "label": $0.label] },
            "hasLinks": !others.isEmpty,
            "recordingLinks": recordings.map { ["href": $0.href, "label": $0.label] },
            "hasRecordingLinks": !recordings.isEmpty,
            "recordingCount": Plural.count(recordings.count, "recording"),
        ]
    }

    /// A night's row on the index: its times in bed and its metrics, "–" where there are none.
    static func indexNightRow(_ r: IndexRow) -> [String: String] {
        let m = r.analysis?.metrics
        return [
            "id": r.nightID, "date": r.date.description, "recording": r.recordingPath,
            "status": r.analysis?.status.rawValue ?? "not analysed",
            "inBed": m.map { "\(NumberText.clock($0.inBedStartUTC, r.timeline))–\(NumberText.clock($0.inBedEndUTC, r.timeline))" } ?? "–",
            "tib": NumberText.minutes(m?.timeInBedMinutes), "tst": NumberText.minutes(m?.totalSleepTimeMinutes),
            "se": m.map { NumberText.fixed($0.sleepEfficiencyPercent, 1) } ?? "–",
            "sol": NumberText.minutes(m?.sleepOnsetLatencyMinutes), "waso": NumberText.minutes(m?.wakeAfterSleepOnsetMinutes),
            "awakenings": m.map { String($0.awakenings) } ?? "–",
        ]
    }

    /// The listed nights grouped by participant, in the participants' order, each group linked to
    /// its participant's page where there is one.
    static func participantGroups(_ listed: [IndexRow], participants: [ParticipantIndexEntry]) -> [[String: Any]] {
        let href = Dictionary(participants.map { ($0.summary.participant, $0.href) }, uniquingKeysWith: { a, _ in a })
        var order: [Participant] = []
        var byParticipant: [Participant: [IndexRow]] = [:]
        for r in listed {
            if byParticipant[r.participant] == nil { order.append(r.participant) }
            byParticipant[r.participant, default: []].append(r)
        }
        order.sort()
        return order.map { p in
            let nights = byParticipant[p] ?? []
            return ["id": p.id, "href": href[p] ?? "", "anchor": "p-" + String(FNV1a.hex(p.id + "\u{1F}" + p.group).suffix(10)),
                    "count": Plural.count(nights.count, "night"), "nights": nights.map(indexNightRow)]
        }
    }

    /// A participant's row on the index: nights, and the means ± SD of their scored nights.
    static func participantRow(_ e: ParticipantIndexEntry) -> [String: Any] {
        let s = e.summary
        let tst = s.statistic("total_sleep_time_min")
        return [
            "id": s.participant.id, "group": s.participant.group, "hasGroup": !s.participant.group.isEmpty, "href": e.href,
            "nights": String(s.nights - s.nightsInsufficient), "scored": String(s.nightsScored),
            "tst": meanAndSD(tst, NumberText.minutes),
            "onset": meanClockAndSD(s.statistic("sleep_onset_hours")), "wake": meanClockAndSD(s.statistic("wake_time_hours")),
            "se": meanAndSD(s.statistic("sleep_efficiency_pct")) { NumberText.fixed($0, 1) },
            "waso": meanAndSD(s.statistic("waso_min"), NumberText.minutes),
            "tstWeek": "\(NumberText.minutes(tst?.weekday)) / \(NumberText.minutes(tst?.weekend))",
            "sri": NumberText.fixed(s.sleepRegularityIndex, 1), "naps": NumberText.fixed(e.napsPerDay, 2),
            "isiv": s.interdailyStability == nil && s.intradailyVariability == nil ? "–"
                : "\(NumberText.fixed(s.interdailyStability, 2)) / \(NumberText.fixed(s.intradailyVariability, 2))",
        ]
    }

    /// A clock time's mean, its SD in minutes.
    static func meanClockAndSD(_ st: ParticipantSummary.Statistic?) -> String {
        guard let st, let m = st.mean else { return "–" }
        return ParticipantSummary.clockText(m) + (st.sd.map { " ± " + NumberText.minutes($0 * 60) } ?? "")
    }

    /// A statistic's mean ± SD, each written by `text`.
    static func meanAndSD(_ st: ParticipantSummary.Statistic?, _ text: (Double?) -> String) -> String {
        guard let st, st.mean != nil else { return "–" }
        return text(st.mean) + (st.sd.map { " ± " + text($0) } ?? "")
    }
}

extension HTMLPages {
    /// What each row of the night's metric table (AASM/yasa names) means under a method: the
    /// phone method's and the epoch-file method's tables have the same rows and values.
    struct MetricDefinitions {
        var inBed, onset, wake, timeInBed, totalSleep, latency, waso, noData, notWorn, efficiency, maintenance, awakenings, fragmentation, phases: String

        static let phone = MetricDefinitions(
            inBed: "first to last second with data",
            onset: "first sleep interval of the sleep period (persistent sleep, at interval resolution)",
            wake: "end of the last sleep interval of the sleep period", timeInBed: "in-bed span",
            totalSleep: "sleep inside the sleep period", latency: "in bed to sleep onset",
            waso: "wake inside the sleep period (intervals without data are not wake)",
            noData: "intervals of the sleep period without data: neither sleep nor wake, in neither TST nor WASO",
            notWorn: "none: a phone lies on the mattress and is never worn (TST + WASO + no data = SPT)",
            efficiency: "TST / (TIB − minutes without data in the sleep period)", maintenance: "TST / (SPT − minutes without data)",
            awakenings: "wake bouts inside the sleep period that sleep follows (a gap neither makes nor splits one)",
            fragmentation: "sleep→wake transitions (final awakening included) per hour of TST",
            phases: "sleep intervals above / at or below the night's quantile of movement")
    }

    /// The metric table's rows: label and value from the metrics, definition from `d`.
    static func metricRows(_ m: NightSummaryMetrics, _ tl: UTCOffsetTimeline, definitions d: MetricDefinitions) -> [[String: String]] {
        [
            ["label": "In bed", "value": "\(NumberText.clock(m.inBedStartUTC, tl))–\(NumberText.clock(m.inBedEndUTC, tl))", "def": d.inBed],
            ["label": "Sleep onset", "value": NumberText.clock(m.sleepOnsetUTC, tl), "def": d.onset],
            ["label": "Wake time", "value": NumberText.clock(m.wakeTimeUTC, tl), "def": d.wake],
            ["label": "Time in bed (TIB)", "value": NumberText.minutes(m.timeInBedMinutes), "def": d.timeInBed],
            ["label": "Total sleep time (TST)", "value": NumberText.minutes(m.totalSleepTimeMinutes), "def": d.totalSleep],
            ["label": "Sleep onset latency (SOL)", "value": NumberText.minutes(m.sleepOnsetLatencyMinutes), "def": d.latency],
            ["label": "Wake after sleep onset (WASO)", "value": NumberText.minutes(m.wakeAfterSleepOnsetMinutes), "def": d.waso],
            ["label": "No data in the sleep period", "value": NumberText.minutes(m.noDataInSleepPeriodMinutes), "def": d.noData],
            ["label": "Not worn in the sleep period", "value": NumberText.minutes(m.notWornInSleepPeriodMinutes), "def": d.notWorn],
            ["label": "Sleep efficiency (SE)", "value": NumberText.fixed(m.sleepEfficiencyPercent, 1) + " %", "def": d.efficiency],
            ["label": "Sleep maintenance efficiency (SME)", "value": NumberText.fixed(m.sleepMaintenanceEfficiencyPercent, 1) + " %", "def": d.maintenance],
            ["label": "Awakenings", "value": String(m.awakenings), "def": d.awakenings],
            ["label": "Sleep fragmentation index (SFI)", "value": NumberText.fixed(m.sleepFragmentationIndexPerHour, 2) + " /h", "def": d.fragmentation],
            ["label": "Light / deep (movement phases)", "value": "\(NumberText.minutes(m.lightMinutes)) / \(NumberText.minutes(m.deepMinutes))", "def": d.phases],
        ]
    }

    /// The wearable night's metrics, each with its AASM/yasa name, GGIR part-4 name and definition.
    static func wearableMetricRows(_ a: NightAnalysis, _ tl: UTCOffsetTimeline) -> [[String: String]] {
        guard let m = a.metrics, let w = a.wearable else { return [] }
        // What a sleep epoch is under the night's sleep algorithm (`--sleep-algorithm`).
        let scorer: String? = switch a.parameters.sleepAlgorithm ?? .vanHees2015 {
        case .vanHees2015: nil
        case .coleKripke: "Cole–Kripke (ActiLife) on axis-1 counts per minute"
        case .sadeh: "Sadeh (ActiLife) on axis-1 counts per minute"
        }
        let bout = scorer.map { "sleep run (\($0))" } ?? "sustained inactivity bout"
        let ggir = a.parameters.nightMethod == .ggir
        let diary = diaryGuider(w)
        let rows: [[String: String]] = [
            ["label": "Sleep period window (guider)", "ggir": "guider_onset – guider_wakeup",
             "value": "\(NumberText.clock(w.guiderOnsetUTC, tl))–\(NumberText.clock(w.guiderWakeupUTC, tl))",
             "def": diary.map { "in bed to out of bed from \($0) (GGIR's sleeplog guider)" } ?? "HDCZA (van Hees 2018): the longest block without change in angle-z, on 5-s epochs"],
            ["label": "Sleep onset", "ggir": "sleeponset", "value": NumberText.clock(m.sleepOnsetUTC, tl),
             "def": "start of the first \(bout) that overlaps the guider window"],
            ["label": "Wake time", "ggir": "wakeup", "value": NumberText.clock(m.wakeTimeUTC, tl),
             "def": ggir ? "start of the last 5-s epoch of the last \(bout) that overlaps the guider window (GGIR part 4)" : "end of the last \(bout) that overlaps the guider window"],
            ["label": "Sleep period (SPT)", "ggir": "SptDuration", "value": NumberText.minutes(m.sleepPeriodMinutes), "def": "sleep onset to wake time"],
            ["label": "Total sleep time (TST)", "ggir": "SleepDurationInSpt", "value": NumberText.minutes(m.totalSleepTimeMinutes),
             "def": ggir ? "the overlapping bouts' lengths, each from its first to its last epoch's start (GGIR part 4)" : scorer.map { "minutes scored sleep by \($0) inside the sleep period" }
                ?? "sustained inactivity (van Hees 2015: no change in angle-z above 5° for more than 5 min) inside the sleep period"],
            ["label": "Wake after sleep onset (WASO)", "ggir": "WASO", "value": NumberText.minutes(m.wakeAfterSleepOnsetMinutes),
             "def": ggir ? "SPT − TST: invalid epochs inside the sleep period count as wake, as in GGIR" : scorer.map { "worn, scored wake by \($0), inside the sleep period" } ?? "worn, not sustained inactivity, inside the sleep period"],
            ["label": "Awakenings", "ggir": "number_of_awakenings", "value": String(m.awakenings), "def": "wake bouts inside the sleep period"],
            ["label": "Invalid in the sleep period", "value": NumberText.minutes(w.invalidInSptMinutes),
             "def": ggir ? "invalid (GGIR's non-wear and clean-up): judged on angle-z imputed from the other days, counted in WASO" : "not worn or no data: neither sleep nor wake"],
            ["label": "Time in bed (TIB)", "value": NumberText.minutes(m.timeInBedMinutes),
             "def": diary.map { "\($0)'s in bed to out of bed, widened to the sleep period" } ?? "guider window widened to the sleep period (no diary: the guider stands in for lights off/on)"],
            ["label": "Sleep onset latency (SOL)", "value": NumberText.minutes(m.sleepOnsetLatencyMinutes), "def": "TIB start to sleep onset"],
            ["label": "Sleep efficiency (SE)", "value": NumberText.fixed(m.sleepEfficiencyPercent, 1) + " %", "def": "TST / TIB"],
            ["label": "Sleep maintenance efficiency (SME)", "value": NumberText.fixed(m.sleepMaintenanceEfficiencyPercent, 1) + " %", "def": "TST / SPT"],
            ["label": "Sleep fragmentation index (SFI)", "value": NumberText.fixed(m.sleepFragmentationIndexPerHour, 2) + " /h",
             "def": "awakenings + 1 per hour of TST"],
            ["label": "Light / deep (movement phases)", "value": "\(NumberText.minutes(m.lightMinutes)) / \(NumberText.minutes(m.deepMinutes))",
             "def": "sleep intervals above / at or below the night's quantile of ENMO (movement intensity, not EEG stages)"],
        ]
        let invalid = rows.firstIndex { $0["label"] == "Invalid in the sleep period" } ?? rows.count - 1
        return Array(rows[...invalid]) + splitInvalidRows(m) + Array(rows[(invalid + 1)...])
    }

    /// The wearable method's invalid time in the sleep period, split (none for GGIR parity, whose
    /// WASO holds it): no data, and not worn.
    static func splitInvalidRows(_ m: NightSummaryMetrics) -> [[String: String]] {
        guard m.noDataInSleepPeriodMinutes != nil || m.notWornInSleepPeriodMinutes != nil else { return [] }
        return [
            ["label": "No data in the sleep period", "value": NumberText.minutes(m.noDataInSleepPeriodMinutes),
             "def": "5-s epochs without samples: neither sleep nor wake"],
            ["label": "Not worn in the sleep period", "value": NumberText.minutes(m.notWornInSleepPeriodMinutes),
             "def": "5-s epochs with samples taken as non-wear, and sleep fragments beside them left unscored: neither sleep nor wake (TST + WASO + no data + not worn = SPT)"],
        ]
    }

    /// The still stretches GGIR's rule calls not worn that were taken as worn, with their clock
    /// times and what cleared them: the temperature, the angle's wander, or turns at their ends.
    package static func stillWornText(_ w: WearableNightSummary, _ tl: UTCOffsetTimeline) -> String {
        guard let all = spansText(w.stillWornSpansUTC, tl) else { return "none" }
        let rule = "still for an hour or more, which GGIR's 2013 rule takes for non-wear"
        if w.temperatureDecides == true {
            return "\(all): \(rule), but the device's temperature stayed at skin level (off the wrist it falls towards the room's); counted as worn"
        }
        let turns = w.stillBetweenTurnsSpansUTC ?? []
        let wandering = (w.stillWornSpansUTC ?? []).filter { !turns.contains($0) }
        var reasons: [String] = []
        if let text = spansText(wandering, tl) {
            reasons.append("\(text) still, but with the small back-and-forth changes of angle of a resting forearm that a device laid down does not show")
        }
        if let text = spansText(turns, tl) {
            reasons.append("\(text) held one angle but turned within 2 min into another still posture, as a sleeper does and a device laid down never does")
        }
        return "\(reasons.joined(separator: "; ")). GGIR's 2013 rule takes such stillness (an hour or more) for non-wear; counted as worn"
    }

    /// The stillness at one angle the method added to GGIR's non-wear, with its clock times.
    static func laidDownText(_ w: WearableNightSummary, _ tl: UTCOffsetTimeline) -> String {
        guard let spans = spansText(w.laidDownSpansUTC, tl) else { return "none" }
        if w.temperatureDecides == true {
            return "\(spans): held one angle with no motion beyond sensor noise while the device's temperature fell towards the room's "
                + "(below 26 °C or 2 °C from where it was), or for 10 min or more outside the sleep window at one angle"
        }
        return "\(spans): held one angle to half a degree with no motion beyond sensor noise, "
            + "beside a stretch GGIR's rule calls not worn or for 10 min or more outside the sleep window, "
            + "with no turn into another still posture or for more than 2 h; a worn wrist, awake, does not hold so still, and asleep it turns"
    }

    /// "1 h 0 min (02:00–02:30, 07:00–07:30)" for `[from, to)` UTC spans; nil without any.
    static func spansText(_ spans: [[Int64]]?, _ tl: UTCOffsetTimeline) -> String? {
        let valid = (spans ?? []).filter { $0.count == 2 }
        guard !valid.isEmpty else { return nil }
        let minutes = Double(valid.reduce(0) { $0 + ($1[1] - $1[0]) }) / 60
        let times = valid.map { "\(NumberText.clock($0[0], tl))–\(NumberText.clock($0[1], tl))" }.joined(separator: ", ")
        return "\(NumberText.minutes(minutes)) (\(times))"
    }

    /// The diary row that guided a wrist night's window (`the sleep diary (diary.csv row 5)`),
    /// nil when HDCZA found it.
    static func diaryGuider(_ w: WearableNightSummary) -> String? {
        guard let g = w.guider, g.hasPrefix("sleeplog ("), g.hasSuffix(")") else { return nil }
        return String(g.dropFirst("sleeplog (".count).dropLast())
    }

    /// The wearable night's quality facts (valid hours, non-wear, invalid share).
    package static func wearableFacts(_ a: NightAnalysis, _ tl: UTCOffsetTimeline) -> [[String: String]] {
        guard let w = a.wearable else { return [] }
        let guided = ["label": "Time in bed from", "value": diaryGuider(w) ?? "no diary row: HDCZA's window stands in for lights off/on"]
        if a.parameters.nightMethod == .ggir {
            var rows: [[String: String]] = [
                ["label": "Valid data", "value": "\(NumberText.fixed(w.validHours, 1)) h (GGIR includenightcrit: 16 h)"],
                ["label": "Invalid (GGIR 2023 rule and g.weardec, imputed from the other days)", "value": spansText(w.invalidSpansUTC, tl) ?? "none"],
                ["label": "Fraction of the night invalid (fraction_night_invalid)", "value": NumberText.fixed(w.fractionNightInvalid, 3) + " (invalid and missing epochs / 17,280; GGIR drops the night above 8/24)"],
            ]
            if let t = w.hdczaThresholdDegrees { rows.append(["label": "HDCZA threshold", "value": "\(NumberText.fixed(t, 3))° change in angle-z"]) }
            if let near = w.nonWearNearWindowMinutes {
                rows.append(["label": "Invalid in the sleep window, the hour before it or the half hour after it", "value": NumberText.minutes(near)])
            }
            rows.append(["label": "Day sleeper (daysleeper)", "value": w.daysleeper ? "yes: the window was searched from 18:00 to 18:00" : "no"])
            return [guided] + rows
        }
        var rows: [[String: String]] = [
            ["label": "Valid (worn) data", "value": "\(NumberText.fixed(w.validHours, 1)) h (GGIR includenightcrit: 16 h)"],
            ["label": "Not worn", "value": "\(NumberText.minutes(w.nonWearMinutes)) (GGIR's 2013 rule, less still sleep, plus the rest of the time a device lay still at one angle)"],
            ["label": "Still, but worn", "value": stillWornText(w, tl)],
            ["label": "Laid down (added to GGIR's non-wear)", "value": laidDownText(w, tl)],
            ["label": "Not worn by the diary (nonwear rows)", "value": spansText(w.diaryNotWornSpansUTC, tl) ?? "none"],
            ["label": "No data", "value": NumberText.minutes(w.noDataMinutes)],
            ["label": "Fraction of the night invalid (fraction_night_invalid)", "value": NumberText.fixed(w.fractionNightInvalid, 3)],
        ]
        if let t = w.hdczaThresholdDegrees { rows.append(["label": "HDCZA threshold", "value": "\(NumberText.fixed(t, 3))° change in angle-z"]) }
        if let near = w.nonWearNearWindowMinutes {
            rows.append(["label": "Not worn in the sleep window, the hour before it or the half hour after it", "value": NumberText.minutes(near)])
        }
        rows.append(["label": "Day sleeper (daysleeper)", "value": w.daysleeper ? "yes: the window was searched from 18:00 to 18:00" : "no"])
        return [guided] + rows
    }

    static func wearableParameterRows(_ a: NightAnalysis) -> [[String: String]] {
        let p = a.parameters
        if p.nightMethod == .ggir {
            return [
                ["label": "Method", "value": "GGIR parity (--method ggir): GGIR \(GGIRNightMethod.version)'s defaults, parts 1–4"],
                ["label": "Interval length", "value": "\(p.interval) (\(p.interval.seconds) s), for the chart, the interval table and phases"],
                ["label": "Non-wear", "value": "GGIR 2023: the 60 min from each 15-min block; an axis is still when its range < 150 mg and SD < 13 mg, marking the block and the 3 after it; score ≥ 2 axes, then g.weardec's clean-up; invalid epochs imputed from the same 5-s slot of the other days"],
                ["label": "Sleep period window", "value": "HDCZA on the imputed angle-z (GGIR defaults; HASPT.ignore.invalid = FALSE); day-sleeper re-run 18:00–18:00"],
                ["label": "Sleep / wake", "value": "van Hees 2015 sustained inactivity bouts on the imputed angle-z, none on invalid epochs; onset and wake from the bouts overlapping the window (relyonguider = FALSE); invalid epochs in the sleep period are WASO"],
                ["label": "Night included", "value": "invalid fraction at most 8/24 (GGIR includenightcrit 16 h) and a bout overlapping the window"],
                ["label": "Deep phase", "value": "sleep intervals at or below the \(Int(p.deepQuantile * 100))th percentile of the night's sleep ENMO"],
                ["label": "Parameters key", "value": a.key],
            ]
        }
        return [
            ["label": "Interval length", "value": "\(p.interval) (\(p.interval.seconds) s), for the chart, the interval table and phases"],
            ["label": "Epochs", "value": "5 s (GGIR ws3): ENMO, angle-z (GGIR's rolling median), MAD"],
            ["label": "Non-wear", "value": "GGIR 2013: 60-min windows every 15 min; an axis is still when its SD < 13 mg and range < 50 mg; non-wear when 2 of 3 axes are still"],
            ["label": "Sleep period window", "value": "a sleep diary row where one guides the night (GGIR's sleeplog), else HDCZA (GGIR defaults: 5-min window, 10th percentile × 15 constrained to 0.13–0.50°, blocks > 30 min, gaps < 60 min filled); invalid epochs count as movement; day-sleeper re-run 18:00–18:00"],
            ["label": "Sleep / wake", "value": WearableNightMethod.sleepWakeText(p.sleepAlgorithm)],
            ["label": "Night included", "value": "at least \(NumberText.fixed(WearableNightMethod.minimumValidHours, 0)) h of worn data (GGIR includenightcrit)"],
            ["label": "Deep phase", "value": "sleep intervals at or below the \(Int(p.deepQuantile * 100))th percentile of the night's sleep ENMO"],
            ["label": "Parameters key", "value": a.key],
        ]
    }
}
