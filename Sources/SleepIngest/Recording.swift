import SleepCore

/// The raw-sample formats Ingest can read (``SampleFormat``, with the epoch formats one
/// ``SourceFormat``).
public typealias RecordingFormat = SampleFormat

/// One answer of the app's pre-bed or post-bed survey.
public struct SurveyAnswer: Sendable, Equatable, Codable {
    public var question: String
    public var answer: String
    public init(question: String, answer: String) { self.question = question; self.answer = answer }
}

/// A continuous piece of a recording: one base series plus what the source said about it.
public struct RecordingSegment: Sendable {
    /// The segment's per-second series. A segment of interval totals (the app export's nights)
    /// keeps only the totals and spreads them over their seconds each time this is read, so that a
    /// reader of thousands of nights does not hold every night's seconds at once (6 bytes a second
    /// against 16 bytes an interval).
    public var series: SecondSeries {
        get { totals?.series ?? storedSeries }
        set { storedSeries = newValue; totals = nil }
    }
    private var storedSeries: SecondSeries
    private var totals: IntervalTotals?
    /// An identifier the source gave this segment (the app export's night id), if any.
    public var label: String?
    public var preBedSurvey: [SurveyAnswer]
    public var postBedSurvey: [SurveyAnswer]
    /// Events the source recorded in this segment (Sleep as Android's `DEEP_START`, `AWAKE_START` …).
    public var events: [RecordingEvent] = []

    public init(series: SecondSeries, label: String? = nil, preBedSurvey: [SurveyAnswer] = [],
                postBedSurvey: [SurveyAnswer] = []) {
        self.storedSeries = series; self.label = label
        self.preBedSurvey = preBedSurvey; self.postBedSurvey = postBedSurvey
    }

    init(totals: IntervalTotals, label: String?, preBedSurvey: [SurveyAnswer], postBedSurvey: [SurveyAnswer]) {
        self.storedSeries = .empty(); self.totals = totals; self.label = label
        self.preBedSurvey = preBedSurvey; self.postBedSurvey = postBedSurvey
    }
}

/// Interval totals already turned into per-second values (checked when read), and the interval
/// ends: the compact form of a series whose source resolution is the interval.
struct IntervalTotals: Sendable {
    /// End of each interval (UTC second), increasing.
    var ends: [Int64]
    /// Each interval's total divided by its seconds.
    var perSecond: [Float]
    var intervalSeconds: Int

    /// Each value over its interval's seconds; an interval starts no earlier than the one before
    /// it ends. Both movement channels are one array (the app's totals are legacy-formula values).
    var series: SecondSeries {
        let first = ends[0] - Int64(intervalSeconds)
        let span = Int(ends[ends.count - 1] - first)
        var movement = [Float](repeating: .nan, count: span)
        var counts = [UInt16](repeating: 0, count: span)
        var previousEnd = first
        for (k, end) in ends.enumerated() {
            let start = max(end - Int64(intervalSeconds), previousEnd)
            for s in Int(start - first)..<Int(end - first) { movement[s] = perSecond[k]; counts[s] = 1 }
            previousEnd = end
        }
        return SecondSeries(startSecond: first, movement: movement, legacyMovement: movement,
                            sampleCounts: counts, sourceResolutionSeconds: intervalSeconds)
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
    /// The device as the file names it (type, serial, firmware), when it does.
    public var device: String? = nil
    /// How the file was compressed (`gzip`), nil when it was not.
    public var compression: String? = nil

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
    /// Multiplies every axis value of a raw `timestamp,x,y,z` CSV as it is parsed, before anything
    /// is computed from it: 1/9.80665 under `--units m/s2` (such a CSV states no unit), so that a
    /// file with gravity in m/s² reaches the wearable method in g; 1 otherwise.
    public var rawCSVAxisScale: Double = 1
    public init(timeZoneIdentifier: String? = nil, rawCSVAxisScale: Double = 1) {
        self.timeZoneIdentifier = timeZoneIdentifier; self.rawCSVAxisScale = rawCSVAxisScale
    }
}

/// Something that happened at a moment of a recording, as the source labels it.
public struct RecordingEvent: Sendable, Equatable, Codable {
    public var label: String
    public var utcSecond: Double
    /// A value the source attached (Sleep as Android's `LUX-…-12.5`), if any.
    public var value: String?
    public init(label: String, utcSecond: Double, value: String? = nil) {
        self.label = label; self.utcSecond = utcSecond; self.value = value
    }
}
