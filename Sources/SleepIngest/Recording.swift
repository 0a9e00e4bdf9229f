import SleepCore

/// The formats Ingest can read. The raw value is what the store and reports show.
public enum RecordingFormat: String, Sendable, Codable, CaseIterable {
    /// `timestamp,x,y,z` raw samples in g (docs/formats.md).
    case rawCSV = "raw-csv"
    /// The Sleepsta app's JSON export: nights of interval motion totals with surveys.
    case appJSON = "sleepsta-app-json"
    /// SensorLog (iOS) CSV: CoreMotion columns such as `motionUserAccelerationX(G)`, `loggingTime(txt)`.
    case sensorLogCSV = "sensorlog-csv"
    /// Sensor Logger (iOS/Android) `Accelerometer.csv` / `TotalAcceleration.csv`: `time` in ns, m/s².
    case sensorLoggerCSV = "sensor-logger-csv"
    /// Sleep as Android `sleep-export.csv`: per-record header, actigraphy per time bin, events.
    case sleepAsAndroidCSV = "sleep-as-android-csv"
    /// Raw CSV of a formatted local time, x, y, z in g and further columns (GGIR's raw CSV, AX6 exports).
    case wideRawCSV = "raw-csv-extra-columns"
    /// ActiGraph `.gt3x` (zip with `info.txt` and `log.bin`).
    case actiGraphGT3X = "actigraph-gt3x"
    /// ActiLife raw CSV export (`------------ Data File Created By ActiGraph …`, epoch period 00:00:00).
    case actiLifeRawCSV = "actilife-raw-csv"
    /// Axivity AX3/AX6 `.cwa` (512-byte blocks).
    case axivityCWA = "axivity-cwa"
    /// GENEActiv `.bin` (text pages with hex-packed 12-bit samples).
    case geneActivBin = "geneactiv-bin"
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
    // Facts added with the device readers (optional: older stored summaries lack them; nil = not measured).
    /// The rate the device or header states, else the median samples per fully covered second.
    public var nominalSampleRateHz: Double? = nil
    /// (effective − nominal) / nominal × 100: the device clock or logger running fast (+) or slow (−).
    public var sampleRateDriftPercent: Double? = nil
    /// Lowest and highest effective rate over the clock hours with at least half their seconds covered.
    public var hourlyRateMinHz: Double? = nil
    public var hourlyRateMaxHz: Double? = nil
    /// Samples earlier than the previous one but in the same second: kept (the per-second mean does not depend on order).
    public var backwardTimestampsKept: Int? = nil
    /// Samples up to 1 s earlier than the previous one, in an earlier second: dropped (larger steps back are refused).
    public var backwardSamplesDropped: Int? = nil
    /// Measuring range of the device (±g), when the file states it.
    public var deviceRangeG: Double? = nil
    /// Samples with an axis within 0.5 g of the range (GGIR's clipping threshold), when the range is known.
    public var clippedSamples: Int? = nil
    /// Seconds a device left out while idle (ActiGraph idle-sleep mode) and that were filled with its last sample.
    public var idleSleepSecondsFilled: Int? = nil
    /// Damaged blocks or records that were skipped (bad checksum), when the format has them.
    public var skippedBlocks: Int? = nil
    /// Still periods: at least ``stillPeriodMinimumSeconds`` in which no axis varied by more than
    /// GGIR's non-wear thresholds (device not worn, or a phone lying away from the sleeper).
    public var stillPeriods: Int? = nil
    public var stillSeconds: Int? = nil
    public var longestStillSeconds: Int? = nil
    // Facts of the wearable method (nil for other kinds), added by the batch after reading.
    /// Auto-calibration (van Hees 2014): `calibrated`, or `skipped: <reason>`.
    public var calibration: String? = nil
    public var calibrationErrorBeforeMilliG: Double? = nil
    public var calibrationErrorAfterMilliG: Double? = nil
    /// Offset (g) and scale per axis applied as (raw + offset) · scale.
    public var calibrationOffsetG: [Double]? = nil
    public var calibrationScale: [Double]? = nil
    /// ActiGraph counts from the raw samples (asked for by a counts-based `--sleep-algorithm`):
    /// `computed …`, or `not computed: <reason>`; nil when not asked for.
    public var activityCounts: String? = nil
    /// 5-s epochs (GGIR's milestone) with data, and those flagged non-wear (GGIR 2013 rule).
    public var wearableEpochs: Int? = nil
    public var nonWearSeconds: Int? = nil
    public var nonWearPeriods: Int? = nil

    public static let gapThresholdSeconds = 60

    public init() {}

    /// Measures a base series.
    /// `series` is walked once, one series at a time (a lazy sequence need not hold them all).
    public init<Series: Sequence<SecondSeries>>(series: Series, sampleCount: Int, duplicateTimestamps: Int) {
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
    public init(timeZoneIdentifier: String? = nil) { self.timeZoneIdentifier = timeZoneIdentifier }
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
