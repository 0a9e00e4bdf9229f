import SleepCore
import SleepIngest

/// What a batch run works on and with.
public struct PipelineConfiguration: Sendable {
    public var dataDirectory: String
    public var databasePath: String
    public var reportsDirectory: String
    public var parameters: AnalysisParameters
    /// IANA zone for recordings that do not state one (`--tz`).
    public var timeZoneIdentifier: String?
    public var toolVersion: String
    public var command: String
    /// Which nights get their report pages re-rendered (`nightly`: only the affected ones).
    public var reportScope: ReportScope = .all
    /// Create the reports folder when it is missing (`run`); `nightly` refuses instead, since under
    /// cron a missing folder usually means an unmounted disk or a typo, not a first run.
    public var createsReportsDirectory = true
    /// `--kind`: the recording kind for every file, nil to decide per file from the data (`auto`).
    public var kindOverride: RecordingKind? = nil
    /// `--units`: the acceleration unit of raw CSVs, which state none (``AccelerationUnits``).
    public var units: AccelerationUnits = .auto
    /// `--prune`: remove stored recordings whose file is no longer in the data folder, with their
    /// nights and report folders. Without it they are kept, and the summary says so.
    public var prune = false
    /// `--diary FILE`: a sleep diary whose rows guide their nights (``SleepDiary``); its digest goes into the parameters
    /// (a changed diary re-analyses), its participant ids match through ``participants`` (``SleepDiary/bind(participants:)``).
    public var diary: SleepDiary? = nil {
        didSet { let rule = participants; diary?.bind(participants: rule); parameters.diaryDigest = diary?.digest }
    }
    /// `--participants`: how recordings map to participants on the index, the participant pages,
    /// `export --what participants` and the diary's participant ids (each file by default).
    public var participants: ParticipantRule = .file { didSet { let rule = participants; diary?.bind(participants: rule) } }
    /// `--participants` as given (a rule or a table's path), remembered for `nightly` and `render`.
    public var participantsOption: String? = nil
    /// Files under the data folder that are not recordings: the study file's `ignore` and `--ignore`.
    public var ignored = IgnorePatterns()
    /// The study file the run read (``StudyFile``), recorded with its parameters.
    public var study: StudyFile.Stamp? = nil
    /// `--min-valid-nights`, `--min-wear-hours`: which participants and nights the index's Table 1 counts.
    public var inclusion: InclusionRule = .none
    /// `--rehash`: hash every file's content, even one whose stat matches the stored one (``FileStatFastPath``).
    public var rehash = false
    /// The racily-clean margin of ``FileStatFastPath`` (tests set 0).
    package var statRacyMarginNanoseconds: Int64 = FileStatFastPath.racyMarginNanoseconds

    /// What a file's read is asked for (zone, units, kind, ActiGraph counts).
    var readOptions: RecordingRead.Options {
        RecordingRead.Options(timeZoneIdentifier: timeZoneIdentifier, units: units, kindOverride: kindOverride,
                              activityCounts: parameters.sleepAlgorithm?.needsCounts ?? false)
    }
    /// Whether the wearable milestone must carry ActiGraph counts (a counts-based `--sleep-algorithm`;
    /// never under `--kind phone-in-bed`, which sums no milestone).
    var needsActivityCounts: Bool { readOptions.sumsActivityCounts }
    /// `--shard K/N`: process only the files of shard K of N (``Shard``), nil for all.
    public var shard: Shard? = nil
    /// Files ingested at once (``Pipeline/ingestFiles(_:db:runID:progress:threads:)``); nil for one per core.
    public var ingestThreads: Int? = nil

    /// The analysis key of each kind's method under these parameters.
    public var analysisKeys: [RecordingKind: String] {
        NightAnalysisMethods.keys(parameters)
    }

    public init(dataDirectory: String, databasePath: String, reportsDirectory: String,
                parameters: AnalysisParameters = AnalysisParameters(), timeZoneIdentifier: String? = nil,
                toolVersion: String = SleepstaVersion.current, command: String = "run") {
        self.dataDirectory = dataDirectory; self.databasePath = databasePath; self.reportsDirectory = reportsDirectory
        self.parameters = parameters; self.timeZoneIdentifier = timeZoneIdentifier; self.toolVersion = toolVersion
        self.command = command
    }
}

public enum SleepstaVersion {
    public static let current = "0.1.0"
}

/// What a run did, for the one-screen summary and the exit code.
public struct RunSummary: Sendable {
    public var filesSeen = 0
    public var filesIngested = 0
    public var filesUnchanged = 0
    /// Files and folders left out by ``PipelineConfiguration/ignored``.
    public var filesIgnored = 0
    /// Of ``filesUnchanged``, those taken for unchanged from their stat, without hashing (``FileStatFastPath``).
    public var filesUnchangedByStat = 0
    public var failures: [(path: String, error: String)] = []
    /// Files that are tables beside the recordings (``NonRecordingFile``), skipped: not in ``filesSeen``, not failed.
    public var notRecordings: [(path: String, kind: String)] = []
    public var nightsStored = 0
    public var nightsAnalysed = 0
    public var reportsWritten = 0
    public var reportsUnchanged = 0
    public var warnings: [String] = []
    /// Stored rows the run could not read (a damaged store, or a shard merged from elsewhere),
    /// each naming its table and row: their nights were skipped, and the run exits 1.
    public var unreadableRows: [String] = []
    /// Nights whose report pages and charts were rendered, of all nights in the store.
    public var nightsReported = 0
    public var nightsInStore = 0
    /// Why every night was rendered (first run, changed parameters, an interrupted run ...), or nil.
    public var renderedAllBecause: String?
    /// After a change of the analysis alone (``ReportScope/kindsWithNewAnalysis(previousRun:parametersJSON:)``):
    /// the kinds whose nights were rendered for it (empty: none changed); nil otherwise.
    public var renderedKindsBecauseAnalysisChanged: Set<RecordingKind>?
    /// Stored recordings whose file is gone from the data folder: kept (without `--prune`) or removed.
    public var goneRecordings: [String] = []
    public var prunedRecordings = 0
    public var startedUTC = ""
    public var finishedUTC = ""
    public var durationSeconds = 0.0
    /// The `runs` row of this run.
    public var runID: Int64?
    /// Files with the same content as a stored recording at another path that still exists: each
    /// stored once, under the path met first.
    public var twins: [(path: String, storedAs: String)] = []
    /// How the sleep diary (`--diary`) was used, nil without one.
    public var diary: SleepDiary.Use?
    /// The participants table's mistakes (``ParticipantsTable/problems(_:path:recordings:present:)``), each naming
    /// its row or recording; stored with the run in `run_failures` under the table's path (warnings: exit 0).
    public var participantProblems: [String] = []
    /// The kinds of recording whose nights this run analysed: the summary names each one's method
    /// and analysis key, not the phone method's alone.
    public var kindsAnalysed: Set<RecordingKind> = []
    /// What this run's parameters changed against the last finished run's (``RunParameters``).
    public var parameterChanges: [String] = []

    public init() {}
    public var filesFailed: Int { failures.count }
}

/// Errors that stop a run before it starts (exit code 2), or because another run holds the lock (3).
public enum PipelineError: Error, CustomStringConvertible {
    case environment(String)
    case locked(String)

    public var description: String {
        switch self {
        case .environment(let m): return m
        case .locked(let m): return m
        }
    }
}
