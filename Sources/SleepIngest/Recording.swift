import SleepCore

/// The formats Ingest can read. The raw value is what the store and reports show.
public enum RecordingFormat: String, Sendable, Codable, CaseIterable {
    /// `timestamp,x,y,z` raw samples in g (see README, "Input formats").
    case rawCSV = "raw-csv"
    /// The Sleepsta app's JSON export: nights of interval motion totals with surveys.
    case appJSON = "sleepsta-app-json"
}

/// Where the local time zone of a recording came from.
public enum TimeZoneSource: String, Sendable, Codable {
    /// `--tz` (an IANA zone, with its DST rules).
    case option = "option"
    /// The recording's own UTC offsets (ISO 8601 timestamps with offsets) or zone name.
    case data = "data"
    /// Nothing stated it: UTC was assumed and a warning printed.
    case assumedUTC = "assumed-utc"
}

/// Whether the acceleration includes gravity (decides which metrics mean anything).
public enum GravityContent: String, Sendable, Codable {
    case removed, included, unknown
}

/// One answer of the app's pre-bed or post-bed survey.
public struct SurveyAnswer: Sendable, Equatable, Codable {
    public var question: String
    public var answer: String
    public init(question: String, answer: String) { self.question = question; self.answer = answer }
}

/// A continuous piece of a recording: one base series plus what the source said about it.
public struct RecordingSegment: Sendable {
    public var series: SecondSeries
    /// An identifier the source gave this segment (the app export's night id), if any.
    public var label: String?
    public var preBedSurvey: [SurveyAnswer]
    public var postBedSurvey: [SurveyAnswer]

    public init(series: SecondSeries, label: String? = nil, preBedSurvey: [SurveyAnswer] = [],
                postBedSurvey: [SurveyAnswer] = []) {
        self.series = series; self.label = label
        self.preBedSurvey = preBedSurvey; self.postBedSurvey = postBedSurvey
    }
}

/// Data-quality facts of a recording, gathered while reading (actipy's `info` idea).
public struct QualitySummary: Sendable, Equatable, Codable {
    public var sampleCount: Int = 0
    /// Samples per covered second.
    public var effectiveSampleRateHz: Double = 0
    public var coveredSeconds: Int = 0
    public var spanSeconds: Int = 0
    /// Gaps of at least ``QualitySummary/gapThresholdSeconds`` without samples.
    public var gapCount: Int = 0
    public var gapTotalSeconds: Int = 0
    public var longestGapSeconds: Int = 0
    /// Samples sharing the exact timestamp of the previous sample (kept, counted).
    public var duplicateTimestamps: Int = 0

    public static let gapThresholdSeconds = 60

    public init() {}

    /// Measures a base series.
    public init(series: [SecondSeries], sampleCount: Int, duplicateTimestamps: Int) {
        self.sampleCount = sampleCount
        self.duplicateTimestamps = duplicateTimestamps
        for s in series {
            coveredSeconds += s.coveredSeconds
            spanSeconds += s.count
            var run = 0
            for c in s.sampleCounts {
                if c == 0 { run += 1; continue }
                if run >= Self.gapThresholdSeconds { gapCount += 1; gapTotalSeconds += run; longestGapSeconds = max(longestGapSeconds, run) }
                run = 0
            }
        }
        effectiveSampleRateHz = coveredSeconds > 0 ? Double(sampleCount) / Double(coveredSeconds) : 0
    }
}

/// Everything Ingest learned from one file, ready for Core and Store.
public struct Recording: Sendable {
    public var format: RecordingFormat
    public var segments: [RecordingSegment]
    public var timeline: UTCOffsetTimeline
    /// IANA zone name when known (from `--tz` or the export), else nil.
    public var timeZoneName: String?
    public var timeZoneSource: TimeZoneSource
    public var units: String
    public var gravity: GravityContent
    public var quality: QualitySummary
    /// Non-fatal findings worth telling the user (assumed time zone, duplicates...).
    public var warnings: [String]

    public init(format: RecordingFormat, segments: [RecordingSegment], timeline: UTCOffsetTimeline,
                timeZoneName: String?, timeZoneSource: TimeZoneSource, units: String = "g",
                gravity: GravityContent, quality: QualitySummary, warnings: [String] = []) {
        self.format = format; self.segments = segments; self.timeline = timeline
        self.timeZoneName = timeZoneName; self.timeZoneSource = timeZoneSource; self.units = units
        self.gravity = gravity; self.quality = quality; self.warnings = warnings
    }
}

/// Options that apply to every reader.
public struct IngestOptions: Sendable {
    /// IANA time zone for the recording's local clock (`--tz`); overrides what the data says.
    public var timeZoneIdentifier: String?
    public init(timeZoneIdentifier: String? = nil) { self.timeZoneIdentifier = timeZoneIdentifier }
}
