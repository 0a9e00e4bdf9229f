/// Movement phase of an interval: honestly named movement-intensity levels, not EEG stages.
///
/// `deep` means "among the stillest sleep intervals of this night" (at or below the night's
/// ``AnalysisParameters/deepQuantile`` of sleep movement), `light` the other sleep intervals.
public enum MovementPhase: String, Sendable, Codable, CaseIterable {
    case awake, light, deep
}

/// One interval of a night with its movement, state and phase.
public struct AnalyzedInterval: Sendable, Equatable, Codable {
    public var movement: IntervalMovement
    /// Majority of the interval's scored epochs (ties count as sleep); nil when none was scored.
    public var state: SleepWake?
    public var phase: MovementPhase?

    public init(movement: IntervalMovement, state: SleepWake?, phase: MovementPhase?) {
        self.movement = movement; self.state = state; self.phase = phase
    }
}

/// One scored epoch.
public struct ScoredEpoch: Sendable, Equatable, Codable {
    public var startUTC: Int64
    /// Movement summed over the epoch's seconds (NaN without data).
    public var activity: Double
    public var state: SleepWake?

    public init(startUTC: Int64, activity: Double, state: SleepWake?) {
        self.startUTC = startUTC; self.activity = activity; self.state = state
    }
}

/// Whether a night could be scored.
public enum NightStatus: String, Sendable, Codable {
    case scored
    /// Less data than ``AnalysisParameters/minimumCoverageSeconds``: charted, not scored.
    case insufficientData = "insufficient-data"
    /// Data, but no persistent sleep run was found.
    case noSleepFound = "no-sleep-found"
    /// The method does not fit the recording (e.g. the wearable method on acceleration without
    /// gravity): nothing is estimated, ``NightAnalysis/notes`` say why.
    case unsuitable = "unsuitable"
}

/// Night metrics in the units sleep research reports them (minutes, percent).
///
/// Definitions (AASM terms; time in bed is the recording span because the phone records from
/// "going to bed" to the alarm):
/// - `timeInBed`: first to last second with data.
/// - `sleepOnset`: start of the first sleep interval of the sleep period. The period is found on
///   epochs (first to last persistent sleep run, each ≥ persistentSleepMinutes of sleep epochs) and
///   snapped to the interval hypnogram, so onset and wake time fall on interval boundaries (or the
///   in-bed start/end); their resolution is the interval length.
/// - `wakeTime`: end of the last sleep interval of the sleep period.
/// - `sleepPeriod` (SPT): sleepOnset to wakeTime.
/// - `totalSleepTime` (TST): sleep within the sleep period.
/// - `sleepOnsetLatency` (SOL): in-bed start to sleepOnset.
/// - `wakeAfterSleepOnset` (WASO): wake within the sleep period.
/// - `sleepEfficiency`: TST / TIB × 100.
/// - `awakenings`: wake bouts (one or more consecutive wake units) inside the sleep period that sleep follows.
/// - phase minutes: per ``MovementPhase`` within the sleep period.
/// - `sleepMaintenanceEfficiency` (SME): TST / SPT × 100; `sleepFragmentationIndex` (SFI):
///   sleep→wake transitions, the final awakening included, per hour of TST.
/// The arithmetic is ``NightMetrics`` (yasa's definitions, checked against the SRI reference).
/// Computed at the resolution of the interval hypnogram (so 10- and 15-minute analyses can be compared).
public struct NightSummaryMetrics: Sendable, Equatable, Codable {
    public var resolutionSeconds: Int
    public var inBedStartUTC: Int64
    public var inBedEndUTC: Int64
    public var sleepOnsetUTC: Int64?
    public var wakeTimeUTC: Int64?
    public var timeInBedMinutes: Double
    public var sleepPeriodMinutes: Double
    public var totalSleepTimeMinutes: Double
    public var sleepOnsetLatencyMinutes: Double?
    public var wakeAfterSleepOnsetMinutes: Double
    public var sleepEfficiencyPercent: Double
    public var awakenings: Int
    public var lightMinutes: Double
    public var deepMinutes: Double
    public var awakeMinutes: Double
    /// SME: TST / SPT × 100.
    public var sleepMaintenanceEfficiencyPercent: Double?
    /// SFI: sleep→wake transitions (final awakening included) per hour of TST.
    public var sleepFragmentationIndexPerHour: Double?
    /// Minutes of the sleep period without data (intervals with no scored epoch): neither sleep
    /// nor wake, so in neither TST nor WASO. Nil where the method does not report it.
    public var noDataInSleepPeriodMinutes: Double? = nil
    /// Minutes of the sleep period with data that the method took as not worn (the device off the
    /// wrist), apart from ``noDataInSleepPeriodMinutes`` (no data at all): neither sleep nor wake.
    /// Nil where the method does not report it.
    public var notWornInSleepPeriodMinutes: Double? = nil

    public init(resolutionSeconds: Int, inBedStartUTC: Int64, inBedEndUTC: Int64, sleepOnsetUTC: Int64?, wakeTimeUTC: Int64?,
                timeInBedMinutes: Double, sleepPeriodMinutes: Double, totalSleepTimeMinutes: Double,
                sleepOnsetLatencyMinutes: Double?, wakeAfterSleepOnsetMinutes: Double, sleepEfficiencyPercent: Double,
                awakenings: Int, lightMinutes: Double, deepMinutes: Double, awakeMinutes: Double,
                sleepMaintenanceEfficiencyPercent: Double? = nil, sleepFragmentationIndexPerHour: Double? = nil,
                noDataInSleepPeriodMinutes: Double? = nil, notWornInSleepPeriodMinutes: Double? = nil) {
        self.resolutionSeconds = resolutionSeconds; self.inBedStartUTC = inBedStartUTC; self.inBedEndUTC = inBedEndUTC
        self.sleepOnsetUTC = sleepOnsetUTC; self.wakeTimeUTC = wakeTimeUTC; self.timeInBedMinutes = timeInBedMinutes
        self.sleepPeriodMinutes = sleepPeriodMinutes; self.totalSleepTimeMinutes = totalSleepTimeMinutes
        self.sleepOnsetLatencyMinutes = sleepOnsetLatencyMinutes; self.wakeAfterSleepOnsetMinutes = wakeAfterSleepOnsetMinutes
        self.sleepEfficiencyPercent = sleepEfficiencyPercent; self.awakenings = awakenings; self.lightMinutes = lightMinutes
        self.deepMinutes = deepMinutes; self.awakeMinutes = awakeMinutes
        self.sleepMaintenanceEfficiencyPercent = sleepMaintenanceEfficiencyPercent
        self.sleepFragmentationIndexPerHour = sleepFragmentationIndexPerHour
        self.noDataInSleepPeriodMinutes = noDataInSleepPeriodMinutes
        self.notWornInSleepPeriodMinutes = notWornInSleepPeriodMinutes
    }
}

/// The analysis of one night under one parameter set.
public struct NightAnalysis: Sendable, Equatable, Codable {
    public var status: NightStatus
    public var parameters: AnalysisParameters
    public var intervals: [AnalyzedInterval]
    public var epochs: [ScoredEpoch]
    /// The wake threshold actually used (in movement units per weighted epoch).
    public var wakeThreshold: Double?
    public var metrics: NightSummaryMetrics?
    /// The kind of recording, which decided the method (``NightAnalysisMethods``).
    public var kind: RecordingKind = .phoneInBed
    /// Why the night has its status (or how the method was adapted), in order; empty when there
    /// is nothing to say. Facts, not sentences: SleepReport words them.
    public var notes: [NightNote] = []
    /// The wearable method's facts (GGIR part-4 names, quality), nil for other methods.
    public var wearable: WearableNightSummary? = nil
    /// The epoch-file method's facts (column, scorer, guider, agreement with the file's scoring).
    public var epochFile: EpochFileNightSummary? = nil
    /// Time in bed from outside the data (a sleep diary) that guided this analysis, kept with it so
    /// that the analysis can be derived again when its recording is read again without the diary.
    public var guide: TimeInBedGuide? = nil
    /// The diary's other periods of the day that this analysis was given, kept with it as `guide` is.
    public var diaryPeriods: [DiaryPeriodGuide] = []
    /// Every sleep period of the night's day (``SleepPeriod``), the main one first where there is
    /// one, then the others in time order; nil where the method found none or was not asked.
    public var periods: [SleepPeriod]? = nil
    /// One class per minute of the night's window (``DayMinutes``); nil for analyses stored before
    /// days were accounted.
    public var day: DayMinutes? = nil

    public init(status: NightStatus, parameters: AnalysisParameters, intervals: [AnalyzedInterval], epochs: [ScoredEpoch],
                wakeThreshold: Double?, metrics: NightSummaryMetrics?, kind: RecordingKind = .phoneInBed,
                notes: [NightNote] = [], wearable: WearableNightSummary? = nil, epochFile: EpochFileNightSummary? = nil) {
        self.status = status; self.parameters = parameters; self.intervals = intervals; self.epochs = epochs
        self.wakeThreshold = wakeThreshold; self.metrics = metrics; self.kind = kind; self.notes = notes
        self.wearable = wearable; self.epochFile = epochFile
    }

    /// Length of the scored epochs (``epochs``): 5 s for the wearable method, the scoring epoch of
    /// the epoch-file method, the parameters' epoch for phones.
    public var scoredEpochSeconds: Int {
        switch kind {
        case .wearable24h: return WearableEpochs.epochSeconds
        case .epochFile:
            if epochs.count >= 2 { return Int(epochs[1].startUTC - epochs[0].startUTC) }
            return metrics?.resolutionSeconds ?? 60
        case .phoneInBed: return parameters.epochSeconds
        }
    }

    public var method: any NightAnalysisMethod { NightAnalysisMethods.method(for: kind, parameters: parameters) }
    /// The store's key of this analysis (depends on the method).
    public var key: String { method.parametersKey(parameters) }
}
