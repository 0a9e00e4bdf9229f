import SleepCore

/// A recording as the store keeps it (Ingest's result, flattened; the store does not know Ingest).
public struct StoredRecording: Sendable, Equatable {
    public var id: Int64?
    /// The path as the batch saw it (relative to the data folder when run over one).
    public var path: String
    /// The file's content identity, "<algorithm>:<hex>": "blake3:…" (migration v8-content-hash-blake3),
    /// or "sha256:…" for a recording stored before it and not met since.
    public var contentHash: String
    public var format: SourceFormat
    public var sizeBytes: Int64
    public var sampleCount: Int64
    public var effectiveSampleRateHz: Double
    public var firstUTC: Int64?
    public var endUTC: Int64?
    public var timeZone: String?
    public var timeZoneSource: TimeZoneSource
    public var units: String
    public var gravity: GravityContent
    /// The quality facts (gaps, rate, duplicates, calibration, non-wear …), stored in
    /// `recording_quality` and shown on the night pages.
    public var quality: QualitySummary
    /// The reader's notices about the file (cut short, no time zone, gravity included …), in
    /// the order it gave them; stored in `recording_warnings` and listed on the pages.
    public var warnings: [String]
    /// Which night-analysis method its nights get.
    public var kind: RecordingKind = .phoneInBed
    /// Why that kind, in one sentence.
    public var kindReason: String = ""

    public init(id: Int64? = nil, path: String, contentHash: String, format: SourceFormat, sizeBytes: Int64, sampleCount: Int64,
                effectiveSampleRateHz: Double, firstUTC: Int64?, endUTC: Int64?, timeZone: String?, timeZoneSource: TimeZoneSource,
                units: String, gravity: GravityContent, quality: QualitySummary, warnings: [String],
                kind: RecordingKind = .phoneInBed, kindReason: String = "") {
        self.kind = kind; self.kindReason = kindReason
        self.id = id; self.path = path; self.contentHash = contentHash; self.format = format; self.sizeBytes = sizeBytes
        self.sampleCount = sampleCount; self.effectiveSampleRateHz = effectiveSampleRateHz; self.firstUTC = firstUTC
        self.endUTC = endUTC; self.timeZone = timeZone; self.timeZoneSource = timeZoneSource; self.units = units
        self.gravity = gravity; self.quality = quality; self.warnings = warnings
    }
}

extension StoredRecording {
    /// The facts a night method may need (``RecordingFacts``).
    public var facts: RecordingFacts { RecordingFacts(format: format, sampleRateHz: quality.nominalSampleRateHz ?? effectiveSampleRateHz) }
}

/// A night with its base series: everything needed to re-derive any analysis without the raw file.
public struct StoredNight: Sendable, Equatable {
    public var id: String
    public var recordingID: Int64?
    public var window: NightWindow
    public var timeline: UTCOffsetTimeline
    public var timeZone: String?
    public var label: String?
    public var preBedSurvey: [SurveyItem]
    public var postBedSurvey: [SurveyItem]
    public var series: SecondSeries
    /// The wearable milestone (5-s epochs from the window's start to 6 h after its end), if any.
    public var epochs: WearableEpochs?
    /// The epoch file's own epochs in this night (epoch-file recordings), if any.
    public var epochFile: EpochNightSeries?
    /// The recording's kind (from `recordings`), which picks the night's method.
    public var kind: RecordingKind = .phoneInBed
    /// Time in bed from a sleep diary (not stored with the night: the diary is an input of each run).
    public var guide: TimeInBedGuide? = nil
    /// The diary's other periods of the night's day (not stored with the night, as `guide`).
    public var diaryPeriods: [DiaryPeriodGuide] = []
    /// The whole recording's wearable epochs, for a method that reads the other days (`--method
    /// ggir`); not stored with the night (the nights' epochs together are the recording's).
    public var recordingEpochs: WearableEpochs? = nil
    /// The recording's format and rate, supplied with ``recordingEpochs``.
    public var recordingFacts: RecordingFacts? = nil

    public init(id: String, recordingID: Int64? = nil, window: NightWindow, timeline: UTCOffsetTimeline, timeZone: String?,
                label: String?, preBedSurvey: [SurveyItem], postBedSurvey: [SurveyItem], series: SecondSeries,
                epochs: WearableEpochs? = nil, epochFile: EpochNightSeries? = nil, kind: RecordingKind = .phoneInBed) {
        self.id = id; self.recordingID = recordingID; self.window = window; self.timeline = timeline; self.timeZone = timeZone
        self.label = label; self.preBedSurvey = preBedSurvey; self.postBedSurvey = postBedSurvey; self.series = series
        self.epochs = epochs; self.epochFile = epochFile; self.kind = kind
    }

    /// What a night-analysis method reads.
    public var data: NightData {
        var d = NightData(window: window, timeline: timeline, series: series, epochs: epochs, epochFile: epochFile, guide: guide)
        d.diaryPeriods = diaryPeriods
        d.recordingEpochs = recordingEpochs
        d.recording = recordingFacts
        return d
    }
}

/// A survey question and its answer, verbatim from the source (escape before display).
public struct SurveyItem: Sendable, Equatable, Codable {
    public var question: String
    public var answer: String
    public init(question: String, answer: String) { self.question = question; self.answer = answer }
}

/// What the index page and exports list per night and analysis.
public struct NightOverview: Sendable, Equatable {
    public var nightID: String
    public var date: CivilDate
    public var recordingPath: String
    public var recordingFormat: SourceFormat
    public var timeZone: String?
    public var analysis: NightAnalysis?
    public var kind: RecordingKind = .phoneInBed
    /// Why the night's stored rows cannot be read (``StoredRowError``), nil when they can: such a
    /// night has no analysis here, and the report names it instead of listing it.
    public var unreadable: String? = nil
}

/// A run of the tool: the project's `config.csv` (GGIR's idea): what ran, with which parameters.
public struct RunRecord: Sendable, Equatable {
    public var id: Int64?
    public var startedUTC: String
    public var finishedUTC: String?
    public var toolVersion: String
    public var command: String
    public var parametersJSON: String
    public var filesSeen: Int
    public var filesIngested: Int
    public var filesUnchanged: Int
    public var filesFailed: Int
    public var status: String
    /// What this run's parameters changed against the last finished `run` or `nightly` before it
    /// (`interval 10m → 15m; diary none → d.csv`), nil when nothing did.
    public var parametersChanged: String?

    public init(id: Int64? = nil, startedUTC: String, finishedUTC: String? = nil, toolVersion: String, command: String,
                parametersJSON: String, filesSeen: Int = 0, filesIngested: Int = 0, filesUnchanged: Int = 0,
                filesFailed: Int = 0, status: String = "running", parametersChanged: String? = nil) {
        self.parametersChanged = parametersChanged
        self.id = id; self.startedUTC = startedUTC; self.finishedUTC = finishedUTC; self.toolVersion = toolVersion
        self.command = command; self.parametersJSON = parametersJSON; self.filesSeen = filesSeen
        self.filesIngested = filesIngested; self.filesUnchanged = filesUnchanged; self.filesFailed = filesFailed; self.status = status
    }
}
