/// The `epoch-file` method: one night (noon to noon, local clock) of a file that holds activity
/// already reduced to epochs by device software (Actiware, ActiLife, `.agd`) or a data set (QUT,
/// MMASH), scored with the defaults of the device's own software.
///
/// Steps:
/// 1. **Activity column**: the first of `activity` (Actiwatch counts), `axis1` (ActiGraph counts),
///    `vm`, `enmo`, `acc_mg`, `pim`, `zcm` the file has (``preferredColumns``); its family
///    (``EpochActivityFamily``) decides the scorer.
/// 2. **Sleep/wake**, each as the device's software does:
///    * Actiwatch counts → Oakley with Actiware's medium threshold (40 counts), on the file's own
///      epochs (15, 30, 60 or 120 s; others are summed to 60 s), in Actiware's floating-point
///      arithmetic (``Oakley``, tie rule documented there). Actiware leaves the first 2 minutes of a
///      record unscored; so does this.
///    * ActiGraph counts → summed to 60-s epochs (ActiLife's collapse), Cole–Kripke as ActiLife
///      implements it (``ColeKripke/Variant/actilife``).
///    * Acceleration (ENMO …) → the phone rule (``PhoneSleepScorer``: Oakley's weighting against
///      `wakeThresholdFactor` × the night's median activity per minute) on the file's own epochs
///      when Oakley defines weights for them (15, 30, 60, 120 s), else on 60-s means.
///    **Not worn**: for count columns, a run of at least ``nonWearMinutes`` minutes of zero counts
///    is taken as the device off the wrist (pyActigraphy's inactivity mask, `duration='2h'`): its
///    epochs become missing data, neither sleep nor wake. Not inside a rest interval the device
///    software marked (it scored those epochs: a still stretch in bed is sleep); an off-wrist
///    column of the file (Actiware's) marks not worn wherever it says so. A night with less worn
///    data than the minimum coverage is `insufficient-data` ("not worn"), never a night of fake sleep.
/// 3. **Time in bed (the guider)**: a sleep diary row when `--diary` gives one for the night; else, the first that applies: the file's own rest interval (Actiware's
///    interval status REST / REST-S: the longest rest run of the night); for ActiGraph counts the
///    longest Tudor-Locke sleep period (ActiLife's defaults, ``TudorLockeSleepPeriods``, minutes
///    without data left out of the runs exactly as `sleepsta periods` does); for a file whose data
///    spans less than 16 h of the night (a recording of the time in bed only, such as a PSG night)
///    first to last epoch with data; otherwise the main rest period found in the movement (``MovementSPTWindow``).
/// 4. **Sleep period and metrics** inside time in bed, at the scoring epoch's resolution, by the
///    device software's rule (``sleepPeriod(_:scored:tib:family:parameters:summary:)``): Actiwatch
///    counts by Actiware's sleep interval (``ActiwareIntervals``, the export's onset / end settings);
///    ActiGraph counts by ActiLife's (onset = first minute asleep in bed, the period runs to out of
///    bed); acceleration from the first to the last run of `persistentSleepMinutes` of sleep. TST
///    and WASO count the sleep and wake epochs of the period, so TST always equals the sleep epochs
///    between sleep onset and wake time; epochs without data are neither (reported as minutes
///    without data); awakenings are wake runs that sleep follows; SE = TST / time in bed with data.
/// 5. **The file's own scoring**, where it has one: its TST over the same sleep period, and its
///    agreement with ours epoch by epoch over time in bed (accuracy, Cohen's κ). An Actiware
///    export's own SLEEP interval (statistics section) is kept beside ours (``ActiwareNightComparison``).
/// 6. **Movement phases** as for phones: intervals of the sleep period at or below the night's
///    quantile of sleep-interval activity are `deep`. Movement-intensity levels, not EEG stages.
public struct EpochFileNightMethod: NightAnalysisMethod {
    /// Activity columns in order of preference.
    public static let preferredColumns = ["activity", "axis1", "vm", "enmo", "acc_mg", "acc", "pim", "zcm", "tat"]
    /// A night with at least this much data is taken as worn day and night (its time in bed is searched).
    public static let dayAndNightSeconds = 16 * 3600
    /// Actiware's medium wake threshold (counts).
    public static let actiwareThreshold = 40.0
    /// Consecutive minutes of zero counts taken as not worn.
    public static let nonWearMinutes = 120

    /// Epochs inside runs of at least ``nonWearMinutes`` of zero counts (missing epochs end a run).
    public static func zeroRunNonWear(_ values: [Double], epochSeconds: Int) -> [Bool] {
        let minimum = max(1, nonWearMinutes * 60 / epochSeconds)
        var flags = [Bool](repeating: false, count: values.count)
        var i = 0
        while i < values.count {
            guard values[i] == 0 else { i += 1; continue }
            var j = i
            while j < values.count && values[j] == 0 { j += 1 }
            if j - i >= minimum { for k in i..<j { flags[k] = true } }
            i = j
        }
        return flags
    }

    /// The activity column to score; nil = the first of ``preferredColumns``.
    public var column: String?

    public init(column: String? = nil) { self.column = column }
    public var kind: RecordingKind { .epochFile }
    public var algorithm: String { "epoch-file-device-defaults" }
    public var summary: String { summary(AnalysisParameters()) }
    public func summary(_ p: AnalysisParameters) -> String {
        "epoch-file: the file's activity epochs scored as the device's own software does — Actiwatch-compatible counts by Oakley (medium threshold 40, as Actiware), ActiGraph counts by \(p.sleepAlgorithm == .sadeh ? "Sadeh" : "Cole–Kripke") (ActiLife, 60-s epochs), acceleration by the phones' relative rule; time in bed from the file's rest intervals, ActiLife's Tudor-Locke periods, or the movement; the sleep period by the Actiware 5 manual's immobile-minutes sleep interval (Actiwatch-compatible counts), ActiLife's (ActiGraph) or persistent sleep runs"
    }

    /// A night's sentence names the branch that ran for its file's activity (all three without a stored summary).
    public func summary(of analysis: NightAnalysis) -> String {
        analysis.epochFile.map { Self.summary(analysis.parameters, family: $0.family) } ?? summary(analysis.parameters)
    }

    /// The sentence for a night whose file's activity is of `family`: the one branch of the
    /// method that ran, not all three.
    public static func summary(_ p: AnalysisParameters, family: EpochActivityFamily) -> String {
        let tib = "time in bed from the diary, the file's rest interval"
        let scoring: String = switch family {
        case .actiwatchCounts:
            "Actiwatch-compatible counts scored by Oakley (medium threshold 40, as Actiware); \(tib), the span of a recording of the time in bed only, or the movement; the sleep period by the Actiware 5 manual's immobile-minutes sleep interval"
        case .actiGraphCounts:
            "ActiGraph counts scored by \(p.sleepAlgorithm == .sadeh ? "Sadeh" : "Cole–Kripke") as ActiLife implements it (60-s epochs); \(tib), ActiLife's longest Tudor-Locke period, the span of a recording of the time in bed only, or the movement; the sleep period as ActiLife's (from the first minute asleep in bed to out of bed)"
        case .acceleration:
            "acceleration scored by the phones' rule (Oakley's weighting against a threshold relative to the night's median per minute); \(tib), the span of a recording of the time in bed only, or the movement; the sleep period from the first to the last run of \(p.persistentSleepMinutes) min of sleep"
        }
        return "epoch-file: the file's activity epochs scored as the device's own software does — " + scoring
    }

    public func algorithm(_ p: AnalysisParameters) -> String { p.sleepAlgorithm == .sadeh ? algorithm + "-sadeh" : algorithm }

    public func parametersKey(_ p: AnalysisParameters) -> String {
        "method=\(kind.rawValue);interval=\(p.interval.seconds)s;column=\(column ?? "auto");"
            + "actiwatch=oakley-actiware(file-or-\(Self.actiwareThreshold))+actiware-sleep-interval(file-or-10m/10m,immobile<4/min);"
            + "actigraph=\(p.sleepAlgorithm == .sadeh ? "sadeh" : "colekripke")-actilife@60s+tudorlocke-actilife(gaps-left-out)+period-actilife;"
            + "acceleration=relative(\(p.wakeThresholdFactor)xmedian-per-minute)@file-epoch;guider=rest>dayfragment(<16h,<1h-of-00-06)>tudorlocke>inbed<16h(ends>=04:00,zeros-immobile)>movement;notworn-night(<1h-of-00-06-worn);"
            + "persistent=\(p.persistentSleepMinutes)m;deep=q\(p.deepQuantile);mincoverage=\(p.minimumCoverageSeconds)s;other-periods=diary>rest>tudorlocke"
            + (p.diaryDigest.map { ";diary=\($0)" } ?? "")
    }

    /// The column this method scores in `series`, or nil.
    public func activityColumn(_ series: EpochNightSeries) -> EpochNightSeries.Column? {
        if let column { return series.column(column) }
        for name in Self.preferredColumns { if let c = series.column(name) { return c } }
        return series.columns.first { $0.name != "rest_interval" && $0.unit == "counts" }
    }

    public func analyze(_ night: NightData, parameters p: AnalysisParameters) -> NightAnalysis {
        let W = night.window
        func fail(_ status: NightStatus, _ note: NightNote, summary: EpochFileNightSummary? = nil) -> NightAnalysis {
            NightAnalysis(status: status, parameters: p, intervals: [], epochs: [], wakeThreshold: nil, metrics: nil,
                          kind: kind, notes: [note], epochFile: summary)
        }
        guard let all = night.epochFile else {
            return fail(.unsuitable, .epochFileNoEpochs)
        }
        let series = all.slice(from: W.startUTC, to: W.endUTC)
        guard var column = activityColumn(series) else {
            let names = series.columns.map(\.name)
            return fail(.unsuitable, column.map { .noSuchColumn(column: $0, available: names) } ?? .noActivityColumn(available: names))
        }
        let family = EpochActivityFamily.of(column: column.name)
        var summary = EpochFileNightSummary(column: column.name, columnTitle: column.sourceName, unit: column.unit,
                                            family: family, fileEpochSeconds: series.epochSeconds)
        // The night's span of data, worn or not (first to last epoch with a value): decides whether
        // the file is a recording of the time in bed only.
        if let first = column.values.firstIndex(where: { !$0.isNaN }), let last = column.values.lastIndex(where: { !$0.isNaN }) {
            summary.dataMinutes = Double((last + 1 - first) * series.epochSeconds) / 60
        }
        summary.format = series.format
        let bed = Self.bedRecording(series, column: column, family: family, night: night)
        if family != .acceleration {
            Self.markNonWear(series, column: &column, family: family, parameters: p, inBed: bed.isAccepted, summary: &summary,
                             diaryNotWornUTC: night.diaryNotWornUTC)
        }
        let covered = series.coveredSeconds(column)
        if covered < p.minimumCoverageSeconds, let off = summary.nonWearMinutes, off * 60 >= Double(p.minimumCoverageSeconds) {
            return fail(.insufficientData, .notWornZeroCounts(offSeconds: Int(off * 60), runHours: Self.nonWearMinutes / 60, wornSeconds: covered),
                        summary: summary)
        }
        guard covered >= p.minimumCoverageSeconds else {
            return fail(.insufficientData, .tooLittleData(column: column.name, seconds: covered, requiredSeconds: p.minimumCoverageSeconds),
                        summary: summary)
        }
        if let why = Self.notWornThroughNight(series, column: column, night: night, summary: summary) {
            return fail(.insufficientData, why, summary: summary)
        }

        // 2. Sleep/wake on the scoring epochs.
        guard let scored = Self.score(series, column: column, family: family, parameters: p, summary: &summary) else {
            return fail(.unsuitable, .epochsNotSummable(epochSeconds: series.epochSeconds), summary: summary)
        }
        let E = scored.epochSeconds
        let n = scored.states.count
        func start(_ i: Int) -> Int64 { scored.startUTC + Int64(i) * Int64(E) }

        var intervals = Self.intervals(scored, length: p.interval, origin: W.startUTC)
        let epochs = (0..<n).map { ScoredEpoch(startUTC: start($0), activity: scored.activity[$0], state: scored.states[$0]) }

        // 3. Time in bed. A fragment of a day (the first morning or last afternoon of a 24-h file)
        // is too little of a night to analyse, unless a diary or the file's rest interval places
        // a bed period in it (a day sleeper's).
        if let why = Self.dayFragment(series, scored: scored, night: night, summary: summary) ?? bed.rejection {
            return NightAnalysis(status: .insufficientData, parameters: p, intervals: intervals, epochs: epochs, wakeThreshold: scored.threshold,
                                 metrics: nil, kind: kind, notes: [why], epochFile: summary)
        }
        guard let tib = Self.timeInBed(series, scored: scored, family: family, night: night, summary: &summary) else {
            return NightAnalysis(status: .noSleepFound, parameters: p, intervals: intervals, epochs: epochs, wakeThreshold: scored.threshold,
                                 metrics: nil, kind: kind,
                                 notes: [summary.guider.map { .noTimeInBed(guider: $0) } ?? .noRestPeriod],
                                 epochFile: summary)
        }
        let inBedStart = start(tib.lowerBound), inBedEnd = start(tib.upperBound)
        summary.inBedStartUTC = inBedStart; summary.inBedEndUTC = inBedEnd

        // 4. Sleep period inside time in bed, by the device software's rule.
        let inBedStates = Array(scored.states[tib])
        let found = Self.sleepPeriod(series, scored: scored, tib: tib, family: family, parameters: p, summary: &summary)
        Self.compareWithFile(series, scored: scored, tib: tib, period: found.period.map { ($0.lowerBound + tib.lowerBound)..<($0.upperBound + tib.lowerBound) },
                             summary: &summary)
        guard let period = found.period else {
            return NightAnalysis(status: .noSleepFound, parameters: p, intervals: intervals, epochs: epochs, wakeThreshold: scored.threshold,
                                 metrics: nil, kind: kind, notes: found.whyNone.map { [$0] } ?? [], epochFile: summary)
        }
        let onsetUTC = start(tib.lowerBound + period.lowerBound), wakeUTC = start(tib.lowerBound + period.upperBound)
        NightAnalyzer.assignPhases(&intervals, onsetUTC: onsetUTC, wakeUTC: wakeUTC, deepQuantile: p.deepQuantile)
        let notWorn = Self.notWornEpochs(series, original: activityColumn(series)?.values ?? [], blanked: column.values, scored: scored)
        let metrics = Self.metrics(inBedStates, period: period, inBed: (inBedStart, inBedEnd), sleep: (onsetUTC, wakeUTC),
                                   epochSeconds: E, intervals: intervals, notWorn: Array(notWorn[tib]))
        summary.light = NightLight.compute(all, onsetUTC: onsetUTC, wakeUTC: wakeUTC)
        var analysis = NightAnalysis(status: .scored, parameters: p, intervals: intervals, epochs: epochs, wakeThreshold: scored.threshold,
                                     metrics: metrics, kind: kind, epochFile: summary)
        if let main = SleepPeriod(main: metrics, source: night.guide == nil ? .data : .diary) {
            analysis.periods = [main] + Self.otherPeriods(series, scored: scored, family: family, night: night, parameters: p,
                                                          summary: summary, main: main, notWorn: notWorn)
        }
        return analysis
    }

    /// Step 5: the night's metrics from the states in bed and the sleep period inside them; epochs
    /// without data count in neither sleep nor wake, and efficiencies leave them out. Of those,
    /// the ones the not-worn rule blanked (`notWorn`, per epoch in bed: ``notWornEpochs(_:original:blanked:scored:)``)
    /// are reported as not worn, the rest as no data, so TST + WASO + no data + not worn = SPT.
    static func metrics(_ inBedStates: [SleepWake?], period: Range<Int>, inBed: (Int64, Int64), sleep: (Int64, Int64),
                        epochSeconds E: Int, intervals: [AnalyzedInterval], notWorn: [Bool] = []) -> NightSummaryMetrics {
        let (inBedStart, inBedEnd) = inBed, (onsetUTC, wakeUTC) = sleep
        let tally = Self.tally(inBedStates, period: period)
        let (light, deep) = NightAnalyzer.phaseMinutes(intervals, onsetUTC: onsetUTC, wakeUTC: wakeUTC)
        let minutes = Double(E) / 60
        let notWornEpochs = period.filter { inBedStates[$0] == nil && $0 < notWorn.count && notWorn[$0] }.count
        let tst = Double(tally.sleep) * minutes, waso = Double(tally.wake) * minutes
        let noData = Double(tally.noData - notWornEpochs) * minutes, off = Double(notWornEpochs) * minutes
        let tibNoData = Double(inBedStates.filter { $0 == nil }.count) * minutes
        let tibMinutes = Double(inBedEnd - inBedStart) / 60, spt = Double(wakeUTC - onsetUTC) / 60
        return NightSummaryMetrics(
            resolutionSeconds: E, inBedStartUTC: inBedStart, inBedEndUTC: inBedEnd, sleepOnsetUTC: onsetUTC, wakeTimeUTC: wakeUTC,
            timeInBedMinutes: tibMinutes, sleepPeriodMinutes: spt, totalSleepTimeMinutes: tst,
            sleepOnsetLatencyMinutes: Double(onsetUTC - inBedStart) / 60, wakeAfterSleepOnsetMinutes: waso,
            sleepEfficiencyPercent: tibMinutes - tibNoData > 0 ? 100 * tst / (tibMinutes - tibNoData) : 0,
            awakenings: tally.awakenings, lightMinutes: light, deepMinutes: deep, awakeMinutes: waso,
            sleepMaintenanceEfficiencyPercent: spt - noData - off > 0 ? 100 * tst / (spt - noData - off) : nil,
            sleepFragmentationIndexPerHour: tst > 0 ? Double(tally.awakenings + 1) / (tst / 60) : nil,
            noDataInSleepPeriodMinutes: noData, notWornInSleepPeriodMinutes: off)
    }

    /// Not worn: runs of zero counts of ``nonWearMinutes`` or more (the device off the wrist), except
    /// inside a rest interval the device software marked, an ActiLife sleep period or a recording
    /// of the time in bed (`inBed`), and wherever the file's own off-wrist channel or a sleep diary's
    /// `nonwear` row (`diaryNotWornUTC`, `[from, to)` UTC) says so. Their epochs become missing in
    /// `column`; the summary keeps how much each rule decided.
    ///
    /// In bed, zero counts are immobility, not the device off: Actiware scores a still stretch in
    /// a rest interval as sleep and takes "not worn" only from its off-wrist channel (Actiware 5
    /// manual, appendix B-4: an epoch is scoreable unless its activity is invalid), and a night of
    /// QUT's data set (a PSG night, Actiwatch on the wrist throughout) holds 4 h of zero counts
    /// that Actiware scored as sleep.
    static func markNonWear(_ series: EpochNightSeries, column: inout EpochNightSeries.Column, family: EpochActivityFamily,
                            parameters p: AnalysisParameters, inBed: Bool, summary: inout EpochFileNightSummary,
                            diaryNotWornUTC: [[Int64]] = []) {
        let zeroRuns = Self.zeroRunNonWear(column.values, epochSeconds: series.epochSeconds)
        var off = zeroRuns
        // Inside a rest interval the device software marked, a long still stretch is sleep it
        // scored, not the device off the wrist; an off-wrist column the file has (Actiware's
        // "Off-Wrist Status") says where it was off.
        if let rest = series.column("rest_interval") {
            for i in off.indices where rest.values[i] >= 0.5 { off[i] = false }
        }
        // A recording of the time in bed is in bed from its first to its last epoch.
        if inBed { for i in off.indices { off[i] = false } }
        // ActiLife finds its Tudor-Locke periods on every minute (a hip or ankle device lies
        // still for hours in bed): a still stretch inside one is in bed, not off the body, so
        // time in bed is the same as `sleepsta periods` finds.
        if family == .actiGraphCounts, off.contains(true) {
            var scratch = summary
            if let raw = Self.score(series, column: column, family: family, parameters: p, summary: &scratch), raw.epochSeconds == 60 {
                for period in TudorLockeSleepPeriods.detect(states: raw.states, counts: raw.activity, epochSeconds: 60) {
                    let from = raw.startUTC + Int64(period.span.startEpoch * 60), to = raw.startUTC + Int64(period.span.endEpoch * 60)
                    for i in off.indices where series.epochStartUTC(i) >= from && series.epochStartUTC(i) < to { off[i] = false }
                }
            }
        }
        let E = Double(series.epochSeconds) / 60
        if let offWrist = series.column("off_wrist") {
            let byChannel = off.indices.filter { offWrist.values[$0] >= 0.5 }
            for i in byChannel { off[i] = true }
            if !byChannel.isEmpty { summary.nonWearOffWristMinutes = Double(byChannel.count) * E }
        }
        for span in diaryNotWornUTC where span.count == 2 {
            for i in off.indices where !column.values[i].isNaN && series.epochStartUTC(i) >= span[0] && series.epochStartUTC(i) < span[1] { off[i] = true }
        }
        let stillInBed = off.indices.filter { zeroRuns[$0] && !off[$0] }.count
        if inBed && stillInBed > 0 { summary.stillInBedMinutes = Double(stillInBed) * E }
        let offEpochs = off.filter { $0 }.count
        if offEpochs > 0 {
            for i in off.indices where off[i] { column.values[i] = .nan }
            summary.nonWearMinutes = Double(offEpochs * series.epochSeconds) / 60
        }
    }

    /// Whether a night's data are a recording of the time in bed (a PSG night): its fate.
    enum BedRecording {
        /// Not such a file: a diary or rest markers guide it, ActiLife's periods do, it spans 16 h
        /// or more, or it is a fragment of a day (``dayFragment(_:scored:night:summary:)``).
        case notApplicable
        /// A night in bed from its first to its last epoch with data.
        case accepted
        /// Short, unmarked, and not a night in bed: why.
        case rejected(NightNote)

        var isAccepted: Bool { if case .accepted = self { return true }; return false }
        var rejection: NightNote? { if case .rejected(let why) = self { return why }; return nil }
    }

    /// Local 04:00 after the night's midnight: the earliest end of a recording of a night in bed.
    public static let bedRecordingEarliestEndSeconds = 4 * 3600

    /// A file under 16 h without rest markers is a recording of the time in bed (started at
    /// lights out, stopped at getting up: a PSG night) only when its data look like a night in
    /// bed. The physical reason: such a recording ends when its wearer gets up, in the morning.
    /// Most adults' mid-sleep lies between about 02:00 and 07:00 (Roenneberg et al. 2007,
    /// "Epidemiology of the human circadian clock", Sleep Med Rev 11:429, the MCTQ's chronotype
    /// distribution), so a night of even 4 h in bed ends at 04:00 or later; every one of the 27
    /// PSG nights of QUT's data set ends between 04:45 and 08:57. A file that ends earlier is a
    /// stretch of an evening (pyActigraphy's MotionWatch test file: 17:30–01:48, hours of a device
    /// lying still, then activity) and would be scored as a night from the device lying still.
    /// Near-zero counts alone cannot tell a device lying still from a wrist asleep: in 5 of QUT's
    /// 27 PSG nights the first 2 h or more in bed hold only immobile minutes (< 4 counts/min) and
    /// movements of 1–3 min, as the MotionWatch file's first 4.9 h do (and one holds 4 h of zero
    /// counts that Actiware scored as sleep), so the rule is the recording's end, not its counts. MotionWare itself takes bed and
    /// get-up times from its user (camntech.com, "MotionWare Sleep Analysis": "the bed times and
    /// get-up times are entered (either manually, graphically or automatically)"), and publishes
    /// no rule for finding them.
    static func bedRecording(_ s: EpochNightSeries, column: EpochNightSeries.Column, family: EpochActivityFamily,
                             night: NightData) -> BedRecording {
        guard night.guide == nil, family != .actiGraphCounts else { return .notApplicable }
        if let rest = s.column("rest_interval"), rest.values.contains(where: { !$0.isNaN }) { return .notApplicable }
        guard let first = column.values.firstIndex(where: { !$0.isNaN }), let last = column.values.lastIndex(where: { !$0.isNaN }) else {
            return .notApplicable
        }
        let from = s.epochStartUTC(first), to = s.epochStartUTC(last + 1)
        guard to - from < Int64(dayAndNightSeconds) else { return .notApplicable }
        let core = nightCore(night)
        guard min(to, core.upperBound) - max(from, core.lowerBound) >= minimumNightCoreSeconds else { return .notApplicable }
        let earliest = core.lowerBound + Int64(bedRecordingEarliestEndSeconds)
        guard to < earliest else { return .accepted }
        let end = Int(night.timeline.localSecond(atUTC: to) - night.timeline.localSecond(atUTC: core.lowerBound))
        return .rejected(.notANightInBed(endSecondsAfterMidnight: end, earliestEndSecondsAfterMidnight: bedRecordingEarliestEndSeconds))
    }

    /// Why a night is a day the device was off rather than a night (nil when it is not): the
    /// not-worn rule took all but less than ``minimumNightCoreSeconds`` of 00:00–06:00, and no
    /// diary entry or rest interval of the file places a bed period in the night. Sleep is
    /// searched at night (the same core as ``dayFragment(_:scored:night:summary:)``); with the
    /// device off through it, the night's sleep was not recorded, so the night is set apart
    /// with the not-worn days, not counted as a night without sleep.
    static func notWornThroughNight(_ s: EpochNightSeries, column: EpochNightSeries.Column, night: NightData,
                                    summary: EpochFileNightSummary) -> NightNote? {
        guard night.guide == nil, let off = summary.nonWearMinutes, off > 0 else { return nil }
        if let rest = s.column("rest_interval"), rest.values.contains(where: { $0 >= 0.5 }) { return nil }
        let core = nightCore(night)
        let E = Int64(s.epochSeconds)
        var worn: Int64 = 0
        for i in 0..<s.count where !column.values[i].isNaN {
            let t = s.epochStartUTC(i)
            worn += max(0, min(t + E, core.upperBound) - max(t, core.lowerBound))
        }
        guard worn < minimumNightCoreSeconds else { return nil }
        return .notWornThroughNight(offSeconds: Int(off * 60), wornCoreSeconds: Int(worn))
    }

    /// Scored epochs: start, activity per epoch (the column's unit), state.
    struct Scored {
        var startUTC: Int64
        var epochSeconds: Int
        var activity: [Double]
        var states: [SleepWake?]
        var threshold: Double?
        /// For intervals: activity × this = the interval's movement sum (1 for counts; epoch seconds for means).
        var movementFactor: Double

        /// The first scoring epoch starting at or after `utc`, clamped to the epochs.
        func epoch(atOrAfter utc: Int64) -> Int {
            max(0, min(states.count, Int(LocalClock.floorDiv(utc - startUTC + Int64(epochSeconds) - 1, Int64(epochSeconds)))))
        }

        /// From the first to the last scoring epoch with data; nil without data.
        var withData: Range<Int>? {
            guard let first = states.firstIndex(where: { $0 != nil }), let last = states.lastIndex(where: { $0 != nil }) else { return nil }
            return first..<(last + 1)
        }
    }

    static func score(_ s: EpochNightSeries, column: EpochNightSeries.Column, family: EpochActivityFamily,
                      parameters p: AnalysisParameters, summary: inout EpochFileNightSummary) -> Scored? {
        let firstLocal = s.startUTC   // collapse boundaries: whole minutes of UTC = whole minutes of any whole-minute offset
        func collapsed(_ values: [Double], _ reduction: EpochCollapse.Reduction) -> (start: Int64, values: [Double])? {
            if s.epochSeconds == 60 { return (s.startUTC, values) }
            guard 60 % s.epochSeconds == 0,
                  let r = EpochCollapse.collapse(columns: [values], reductions: [reduction], inputEpochSeconds: s.epochSeconds,
                                                 outputEpochSeconds: 60, firstEpochStartSeconds: firstLocal) else { return nil }
            return (r.firstOutputStartSeconds, r.columns[0])
        }
        switch family {
        case .actiwatchCounts:
            // The export's own wake threshold where it states one (Actiware's "Wake Threshold Value").
            let threshold = s.actiware?.settings.wakeThreshold ?? actiwareThreshold
            let thresholdText = threshold == actiwareThreshold ? "\(Int(actiwareThreshold)) counts (medium)"
                : "\(threshold == threshold.rounded() ? String(Int(threshold)) : String(threshold)) counts (the file's wake threshold)"
            if Oakley.supportedEpochSeconds.contains(s.epochSeconds) {
                let states = Oakley.score(countsPerEpoch: column.values, epochSeconds: s.epochSeconds,
                                          threshold: .counts(threshold), variant: .actiware)
                summary.scorer = "\(summary.oakleyName), wake if the weighted activity score > \(thresholdText), \(s.epochSeconds)-s epochs"
                return Scored(startUTC: s.startUTC, epochSeconds: s.epochSeconds, activity: column.values, states: states,
                              threshold: threshold, movementFactor: 1)
            }
            guard let c = collapsed(column.values, .sum) else { return nil }
            let states = Oakley.score(countsPerEpoch: c.values, epochSeconds: 60, threshold: .counts(threshold), variant: .actiware)
            summary.scorer = "\(summary.oakleyName), wake if the weighted activity score > \(thresholdText), the file's \(s.epochSeconds)-s epochs summed to 60 s"
            return Scored(startUTC: c.start, epochSeconds: 60, activity: c.values, states: states, threshold: threshold, movementFactor: 1)
        case .actiGraphCounts:
            guard let c = collapsed(column.values, .sum) else { return nil }
            // `--sleep-algorithm sadeh` picks ActiLife's other scorer; Cole–Kripke otherwise.
            let states: [SleepWake?]
            if p.sleepAlgorithm == .sadeh {
                states = Sadeh.score(countsPerEpoch: c.values, variant: .actilife)
                summary.scorer = "Sadeh as ActiLife implements it, on \(column.name) summed to 60-s epochs (--sleep-algorithm sadeh)"
            } else {
                states = ColeKripke.score(countsPerEpoch: c.values, variant: .actilife, rescoring: nil)
                summary.scorer = "Cole–Kripke as ActiLife implements it, on \(column.name) summed to 60-s epochs"
            }
            return Scored(startUTC: c.start, epochSeconds: 60, activity: c.values,
                          states: zip(states, c.values).map { $1.isNaN ? nil : $0 }, threshold: nil, movementFactor: 1)
        case .acceleration:
            let isMean = EpochActivityFamily.averagedUnits.contains(column.unit)
            if Oakley.supportedEpochSeconds.contains(s.epochSeconds) {
                // The phones' rule at the file's own epochs: Oakley's kernel for that length (whose
                // score is per minute: centre weight 60/E) against factor × the night's median
                // activity per minute (median epoch value × 60/E), so that every epoch length
                // applies the same rule as 60-s phone epochs.
                // (60/E is a power of two for every such length, so the factor scales exactly.)
                let (states, threshold) = PhoneSleepScorer.score(activity: column.values,
                                                                 thresholdFactor: p.wakeThresholdFactor * 60 / Double(s.epochSeconds),
                                                                 epochSeconds: s.epochSeconds)
                summary.scorer = "the phones' relative rule on the file's \(s.epochSeconds)-s epochs: Oakley's weighting of \(column.name), wake above \(p.wakeThresholdFactor) × the night's median per minute"
                return Scored(startUTC: s.startUTC, epochSeconds: s.epochSeconds, activity: column.values, states: states,
                              threshold: threshold, movementFactor: isMean ? Double(s.epochSeconds) : 1)
            }
            guard let c = collapsed(column.values, .sum) else { return nil }
            // Mean per minute of the epochs with data (a sum of means over their count).
            let present = collapsed(column.values.map { $0.isNaN ? .nan : 1 }, .sum)?.values ?? []
            let means = zip(c.values, present).map { $1 > 0 ? $0 / $1 : .nan }
            let (states, threshold) = PhoneSleepScorer.score(activity: means, thresholdFactor: p.wakeThresholdFactor)
            summary.scorer = "the phones' relative rule: Oakley's weighting of 60-s means of \(column.name), wake above \(p.wakeThresholdFactor) × the night's median"
            return Scored(startUTC: c.start, epochSeconds: 60, activity: means, states: states, threshold: threshold, movementFactor: 60)
        }
    }

    /// Time in bed as scoring-epoch indices `[first, end)`, and its source in the summary.
    static func timeInBed(_ s: EpochNightSeries, scored: Scored, family: EpochActivityFamily, night: NightData,
                          summary: inout EpochFileNightSummary) -> Range<Int>? {
        let E = scored.epochSeconds
        func index(_ utc: Int64) -> Int { scored.epoch(atOrAfter: utc) }
        if let guide = night.guide {
            summary.guider = guide.source
            let r = index(guide.startUTC)..<index(guide.endUTC)
            return r.isEmpty ? nil : r
        }
        if let rest = s.column("rest_interval"), rest.values.contains(where: { $0 >= 0.5 }) {
            var best: Range<Int>? = nil, i = 0
            while i < s.count {
                guard rest.values[i] >= 0.5 else { i += 1; continue }
                var j = i
                while j < s.count && rest.values[j] >= 0.5 { j += 1 }
                if (best?.count ?? 0) < j - i { best = i..<j }
                i = j
            }
            if let best {
                summary.guider = "the file's rest interval (\(rest.sourceName): REST / REST-S)"
                return index(s.epochStartUTC(best.lowerBound))..<index(s.epochStartUTC(best.upperBound))
            }
        }
        if let rest = s.column("rest_interval"), rest.values.contains(where: { !$0.isNaN }) {
            // The device software marked rest intervals, and none falls in this night.
            summary.guider = "the file's rest intervals (\(rest.sourceName)): none in this night"
            return nil
        }
        if family == .actiGraphCounts && E == 60 {
            // The same periods as `sleepsta periods`: minutes without data are left out of the runs.
            let periods = TudorLockeSleepPeriods.detect(states: scored.states, counts: scored.activity, epochSeconds: 60)
            if let longest = periods.max(by: { $0.span.length < $1.span.length }), longest.span.length > 0 {
                summary.guider = "ActiLife's Tudor-Locke sleep period (longest of \(periods.count); minutes without data left out of the runs)"
                return longest.span.startEpoch..<longest.span.endEpoch
            }
        }
        guard let withData = scored.withData else { return nil }
        let dataSeconds = Int((summary.dataMinutes ?? 0) * 60)
        if dataSeconds < dayAndNightSeconds {
            // A recording of the time in bed (a PSG night) reaches the small hours and ends at
            // 04:00 or later (a fragment of a day or a stretch of an evening does not:
            // ``dayFragment(_:scored:night:summary:)`` and ``bedRecording(_:column:family:night:)`` set them apart).
            summary.guider = "the recording's span in this night (\(LocalClock.hoursText(seconds: dataSeconds)): a recording of the time in bed)"
            return withData
        }
        let movement = scored.activity.map { $0.isNaN ? 0 : $0 }
        let invalid = scored.activity.map(\.isNaN)
        guard let spt = MovementSPTWindow.detect(movement: movement, invalid: invalid,
                                                 parameters: MovementSPTWindow.Parameters(epochSeconds: Double(E))) else { return nil }
        summary.guider = "the main rest period found in the activity (movement-based detector, HDCZA-style)"
        return spt.span.startEpoch..<spt.span.endEpoch
    }

    /// The sleep period as epochs of time in bed (relative to `tib.lowerBound`), by the rule of the
    /// column's device software, and why there is none:
    /// - Actiwatch counts: Actiware's sleep interval (``ActiwareIntervals``) with the export's own
    ///   onset / end settings (10 min by default), its statistics beside the file's own interval;
    /// - ActiGraph counts: ActiLife's: sleep onset is the first minute scored asleep in bed (the
    ///   in-bed minute itself under Tudor-Locke, whose latency is 0), and the period runs to out of
    ///   bed (ActiLife's WASO counts the wake minutes from onset to out of bed);
    /// - acceleration: the first to the last run of `persistentSleepMinutes` of sleep (the phones' rule).
    static func sleepPeriod(_ s: EpochNightSeries, scored: Scored, tib: Range<Int>, family: EpochActivityFamily,
                            parameters p: AnalysisParameters, summary: inout EpochFileNightSummary) -> (period: Range<Int>?, whyNone: NightNote?) {
        let E = scored.epochSeconds
        let inBed = Array(scored.states[tib])
        switch family {
        case .actiwatchCounts:
            let settings = s.actiware?.settings ?? ActiwareSettings()
            summary.periodRule = "\(summary.sleepIntervalTitle): from the first \(settings.sleepOnsetMinutes)-min section of epochs in bed with all but one immobile (< \(Int(ActiwareIntervals.immobileBelowCountsPerMinute)) counts/min) to the last epoch of the last \(settings.sleepEndMinutes)-min such section"
                + (s.actiware != nil ? " (the export's settings)" : summary.isActiware ? " (Actiware's defaults)"
                   : " (the Actiware 5 manual's rule and defaults: the device's own software publishes none)")
                + (settings.statesImmobileMinutes ? "" : "; the export states “\(settings.detectionAlgorithm ?? "")”, which sleepsta does not reproduce")
            let mobile = ActiwareIntervals.mobile(counts: scored.activity, epochSeconds: E)
            guard let sleep = ActiwareIntervals.sleepInterval(mobile: mobile, rest: tib, epochSeconds: E, settings: settings) else {
                return (nil, .noActiwareSleepOnset(sectionMinutes: settings.sleepOnsetMinutes))
            }
            let ours = ActiwareIntervals.statistics(states: scored.states, mobile: mobile, rest: tib, sleep: sleep, epochSeconds: E)
            func utc(_ i: Int) -> Int64 { scored.startUTC + Int64(i) * Int64(E) }
            let (from, to) = (utc(sleep.lowerBound), utc(sleep.upperBound))
            func overlap(_ iv: ActiwareStatedInterval) -> Int64 { max(0, min(iv.endUTC, to) - max(iv.startUTC, from)) }
            let stated = s.actiware?.intervals.filter { $0.kind == .sleep && overlap($0) > 0 }.max { overlap($0) < overlap($1) }
            let statedRest = s.actiware?.intervals.filter { $0.kind == .rest && overlap($0) > 0 }.max { overlap($0) < overlap($1) }
            summary.actiware = ActiwareNightComparison(settings: settings, restStartUTC: utc(tib.lowerBound), restEndUTC: utc(tib.upperBound),
                                                       sleepStartUTC: from, sleepEndUTC: to, ours: ours, stated: stated, statedRest: statedRest)
            return ((sleep.lowerBound - tib.lowerBound)..<(sleep.upperBound - tib.lowerBound), nil)
        case .actiGraphCounts where E == 60:
            summary.periodRule = "ActiLife's: sleep onset is the first minute scored asleep in bed; the sleep period runs to out of bed"
            guard let first = inBed.firstIndex(where: { $0 == .sleep }) else { return (nil, .noMinuteAsleep) }
            return (first..<inBed.count, nil)
        default:
            summary.periodRule = "from the start of the first to the end of the last run of \(p.persistentSleepMinutes) min of sleep epochs in bed"
            let runEpochs = max(1, p.persistentSleepMinutes * 60 / E)
            guard let period = NightAnalyzer.persistentSleepPeriod(inBed, minimumRun: runEpochs) else {
                return (nil, .noPersistentSleep(minutes: p.persistentSleepMinutes))
            }
            return (period, nil)
        }
    }

    /// Least time of 00:00–06:00 (local) that a night's data must hold, unless a diary or the file's rest interval guides it.
    public static let minimumNightCoreSeconds: Int64 = 3600

    /// Why the night's data are a fragment of a day rather than a night (nil when they are a night):
    /// less than ``dayAndNightSeconds`` of data holding less than ``minimumNightCoreSeconds`` of
    /// 00:00–06:00, with no diary entry and no rest interval of the file in the night. The first
    /// morning or last afternoon of a 24-h file is such a fragment; a recording of the time in bed
    /// (a PSG night) reaches the small hours.
    static func dayFragment(_ s: EpochNightSeries, scored: Scored, night: NightData, summary: EpochFileNightSummary) -> NightNote? {
        guard night.guide == nil else { return nil }
        if let rest = s.column("rest_interval"), rest.values.contains(where: { $0 >= 0.5 }) { return nil }
        let dataSeconds = Int((summary.dataMinutes ?? 0) * 60)
        guard dataSeconds < dayAndNightSeconds else { return nil }
        let E = Int64(scored.epochSeconds)
        guard let span = scored.withData else { return nil }
        let from = scored.startUTC + Int64(span.lowerBound) * E, to = scored.startUTC + Int64(span.upperBound) * E
        let core = nightCore(night)
        let inCore = max(0, min(to, core.upperBound) - max(from, core.lowerBound))
        guard inCore < minimumNightCoreSeconds else { return nil }
        return .dayFragment(dataSeconds: dataSeconds, nightCoreSeconds: Int(inCore))
    }

    /// 00:00 to 06:00 on the night's local clock (the window runs noon to noon), in UTC.
    static func nightCore(_ night: NightData) -> Range<Int64> {
        let midnightLocal = Int64(night.window.date.daysSinceEpoch + 1) * 86_400
        return night.timeline.utcSecond(atLocal: midnightLocal)..<night.timeline.utcSecond(atLocal: midnightLocal + 6 * 3600)
    }

    /// Sleep, wake and no-data epochs of `period`, and awakenings (wake runs that sleep follows; a gap neither makes nor splits one).
    static func tally(_ states: [SleepWake?], period: Range<Int>) -> (sleep: Int, wake: Int, noData: Int, awakenings: Int) {
        var sleep = 0, wake = 0, noData = 0, awakenings = 0, inWake = false
        for i in period {
            switch states[i] {
            case nil: noData += 1
            case .wake?: wake += 1; inWake = true
            case .sleep?: sleep += 1; if inWake { awakenings += 1 }; inWake = false
            }
        }
        return (sleep, wake, noData, awakenings)
    }

    /// The file's own labels over time in bed: agreement with ours (at the file's epochs), and the
    /// file's TST over our sleep period (its sleep epochs between our onset and wake time).
    static func compareWithFile(_ s: EpochNightSeries, scored: Scored, tib: Range<Int>, period: Range<Int>?,
                                summary: inout EpochFileNightSummary) {
        guard let labels = s.fileLabels, labels.contains(where: { $0 != nil }) else { return }
        let E = Int64(scored.epochSeconds)
        let from = scored.startUTC + Int64(tib.lowerBound) * E, to = scored.startUTC + Int64(tib.upperBound) * E
        var matrix = ConfusionMatrix(classCount: 2)
        var fileSleep = 0
        let onset = period.map { scored.startUTC + Int64($0.lowerBound) * E }, wake = period.map { scored.startUTC + Int64($0.upperBound) * E }
        for i in 0..<s.count {
            let t = s.epochStartUTC(i)
            if let onset, let wake, t >= onset, t < wake, labels[i] == .sleep { fileSleep += 1 }
            guard t >= from && t < to else { continue }
            let k = Int((t - scored.startUTC) / E)
            guard let reference = labels[i], k >= 0, k < scored.states.count, let ours = scored.states[k] else { continue }
            matrix.add(reference: reference == .sleep ? 0 : 1, test: ours == .sleep ? 0 : 1)
        }
        summary.fileLabelsName = s.fileLabelsName
        summary.agreementEpochs = matrix.total
        summary.agreementAccuracy = matrix.accuracy
        summary.agreementKappa = matrix.cohenKappa
        summary.fileTotalSleepMinutes = period == nil ? nil : Double(fileSleep * s.epochSeconds) / 60
    }

    /// Intervals of `length` through `origin`: movement = activity summed over the interval's
    /// scored epochs (counts; or the mean × seconds for acceleration, g·s), state = majority of
    /// its scored epochs (ties sleep).
    static func intervals(_ s: Scored, length: IntervalLength, origin: Int64) -> [AnalyzedInterval] {
        let n = s.states.count
        guard n > 0 else { return [] }
        let L = Int64(length.seconds), E = Int64(s.epochSeconds)
        let first = origin + LocalClock.floorDiv(s.startUTC - origin, L) * L
        let end = s.startUTC + Int64(n) * E
        var result: [AnalyzedInterval] = []
        var k = 0
        var t = first
        while t < end {
            var sum = 0.0, covered = 0, sleep = 0, wake = 0
            while k < n && s.startUTC + Int64(k) * E < t + L {
                if s.startUTC + Int64(k) * E >= t, !s.activity[k].isNaN {
                    sum += s.activity[k] * s.movementFactor; covered += s.epochSeconds
                    if let st = s.states[k] { if st == .sleep { sleep += 1 } else { wake += 1 } }
                }
                k += 1
            }
            let movement = IntervalMovement(startUTC: t, endUTC: t + L, movementSum: sum, legacyMovementSum: sum, coverageSeconds: covered)
            result.append(AnalyzedInterval(movement: movement, state: sleep + wake > 0 ? (sleep >= wake ? .sleep : .wake) : nil, phase: nil))
            t += L
        }
        return result
    }
}

/// What the `epoch-file` method did with one night: the column, scorer and guider, and the
/// agreement with the file's own scoring. Stored with the analysis (`analyses.details_json`).
public struct EpochFileNightSummary: Sendable, Equatable, Codable {
    public var column: String
    public var columnTitle: String
    public var unit: String
    public var family: EpochActivityFamily
    public var fileEpochSeconds: Int
    /// The scorer, in one phrase.
    public var scorer: String? = nil
    /// What set time in bed.
    public var guider: String? = nil
    public var inBedStartUTC: Int64? = nil
    public var inBedEndUTC: Int64? = nil
    /// The file's own scoring: its title, the epochs compared over time in bed, accuracy and Cohen's κ of ours against it.
    public var fileLabelsName: String? = nil
    public var agreementEpochs: Int? = nil
    public var agreementAccuracy: Double? = nil
    public var agreementKappa: Double? = nil
    /// TST of the file's own labels by the same sleep-period rule over the same time in bed.
    public var fileTotalSleepMinutes: Double? = nil
    /// Minutes from the night's first to its last epoch with data in the scored column, worn or not.
    public var dataMinutes: Double? = nil
    /// Minutes of the night taken as not worn (runs of zero counts, the file's off-wrist channel), nil for none.
    public var nonWearMinutes: Double? = nil
    /// Of ``nonWearMinutes``, those the file's own off-wrist channel marks (Actiware's "Off-Wrist
    /// Status"); the rest are runs of zero counts. Nil for none.
    public var nonWearOffWristMinutes: Double? = nil
    /// Minutes of zero-count runs of ``EpochFileNightMethod/nonWearMinutes`` or more inside a
    /// recording of the time in bed, taken as lying still (immobile), not as not worn. Nil for none.
    public var stillInBedMinutes: Double? = nil
    /// The file's format (``EpochFileFormat`` raw value): whose software's rules name the night's steps.
    public var format: String? = nil
    /// The rule that set sleep onset and wake time inside time in bed, in one phrase.
    public var periodRule: String? = nil
    /// Actiwatch counts: Actiware's sleep interval by sleepsta and the export's own, side by side.
    public var actiware: ActiwareNightComparison? = nil
    /// Light around the sleep period, where the file has a light channel (scored nights only).
    public var light: NightLight? = nil

    /// Whether the file comes from Philips Respironics' Actiware (an Actiware export, or QUT's
    /// Actiwatch data scored by Actiware): only then are its rules named "Actiware's". A CamNtech
    /// MotionWatch or Actiwatch file gets the same published rules under a neutral name, since
    /// its own software (MotionWare) publishes none (camntech.com, "MotionWare Sleep Analysis":
    /// it "uses legacy Actiwatch-compatible activity counts to apply existing published
    /// algorithms"). Summaries stored before the format was kept read as Actiware's.
    public var isActiware: Bool {
        guard let format else { return true }
        return format == EpochFileFormat.actiwareCSV.rawValue || format == EpochFileFormat.qutEpochCSV.rawValue
    }

    /// The sleep-interval rule's name on the page: "Actiware's sleep interval" for Actiware's
    /// files, "Sleep interval by immobile minutes" for others.
    public var sleepIntervalTitle: String { isActiware ? "Actiware's sleep interval" : "Sleep interval by immobile minutes" }

    /// The scorer's name on the page: Actiware's for its files, the published weights for others.
    public var oakleyName: String { isActiware ? "Oakley (Actiware)" : "Oakley (1997, the weights the Actiware 5 manual publishes)" }

    /// Whether the scored column is an average over its epoch (an acceleration summary such as
    /// ENMO), not a sum (counts).
    public var isAveraged: Bool { family == .acceleration && EpochActivityFamily.averagedUnits.contains(unit) }

    public init(column: String, columnTitle: String, unit: String, family: EpochActivityFamily, fileEpochSeconds: Int) {
        self.column = column; self.columnTitle = columnTitle; self.unit = unit; self.family = family
        self.fileEpochSeconds = fileEpochSeconds
    }
}
