import SleepCore

/// A stored night as comparisons and exports list it (no base series: cheap to fetch for all).
public struct NightCatalogEntry: Sendable, Equatable {
    public var nightID: String
    public var date: CivilDate
    public var window: NightWindow
    public var timeline: UTCOffsetTimeline
    public var timeZone: String?
    public var recordingPath: String
    public var recordingFormat: SourceFormat
    public var coverageSeconds: Int
    public var sourceResolutionSeconds: Int
    public var kind: RecordingKind = .phoneInBed
    /// Where the zone came from (`recordings.time_zone_source`): `--tz`, the data, or UTC assumed.
    public var timeZoneSource: TimeZoneSource = .assumedUTC
}

/// One stored analysis with its night and, when scored, its night metrics (the rows of the
/// nights export; the intervals and epochs exports hang their rows on it).
public struct AnalysisExportEntry: Sendable, Equatable {
    public var analysisID: Int64
    public var night: NightCatalogEntry
    public var parametersKey: String
    public var parameters: AnalysisParameters
    public var algorithm: String
    public var status: String
    public var wakeThreshold: Double?
    public var metrics: NightSummaryMetrics?
    /// The analysis's notes (the export's `flags` are read from them: ``NightFlag``).
    public var notes: [NightNote] = []
    /// An epoch-file night's stored summary (its column and unit), nil for other kinds.
    public var epochFile: EpochFileNightSummary? = nil

    /// What this analysis' numbers are (the exports' `metric` and units).
    public var labels: MethodLabels {
        MethodLabels.of(kind: night.kind, parameters: parameters, epochFile: epochFile, scoredEpochSeconds: metrics?.resolutionSeconds,
                        appTotals: night.recordingFormat == .samples(.appJSON))
    }
}
