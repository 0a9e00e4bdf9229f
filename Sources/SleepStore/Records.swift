import Foundation
import GRDB
import SleepCore

// The store's tables as GRDB records: each row type names its table's columns once (its
// CodingKeys), and GRDB maps them, instead of `row["…"]` lookups spread over the queries. The
// public types (``StoredRecording``, ``StoredNight``) are assembled from these rows; the rows stay
// internal to SleepStore, the only module that speaks SQL.

// MARK: Little-endian blobs

/// float32 per value, little-endian (`…_f32le`).
struct Float32LE: DatabaseValueConvertible, Codable {
    var values: [Float]
    init(_ values: [Float]) { self.values = values }
    var databaseValue: DatabaseValue { BlobCodec.data(values).databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float32LE? { Data.fromDatabaseValue(dbValue).map { Float32LE(BlobCodec.floats($0)) } }
}

/// uint16 per value, little-endian (`…_u16le`).
struct UInt16LE: DatabaseValueConvertible, Codable {
    var values: [UInt16]
    init(_ values: [UInt16]) { self.values = values }
    var databaseValue: DatabaseValue { BlobCodec.data(values).databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt16LE? { Data.fromDatabaseValue(dbValue).map { UInt16LE(BlobCodec.uint16s($0)) } }
}

/// float64 per value, in the machine's order (`…_f64le`; every supported machine is little-endian).
struct Float64LE: DatabaseValueConvertible, Codable {
    var values: [Double]
    init(_ values: [Double]) { self.values = values }
    var databaseValue: DatabaseValue { BlobCodec.data(values).databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float64LE? { Data.fromDatabaseValue(dbValue).map { Float64LE(BlobCodec.doubles($0)) } }
}

/// ActiGraph counts: int32 x, y, z interleaved per epoch (`counts_xyz_i32le`).
struct CountsXYZ: DatabaseValueConvertible, Codable {
    var counts: WearableEpochs.Counts
    var databaseValue: DatabaseValue { BlobCodec.data(counts).databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> CountsXYZ? { Data.fromDatabaseValue(dbValue).map { CountsXYZ(counts: BlobCodec.counts($0)) } }
    init(counts: WearableEpochs.Counts) { self.counts = counts }
    init(from decoder: any Decoder) throws { throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a blob column")) }
    func encode(to encoder: any Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(BlobCodec.data(counts)) }
}

/// One byte per epoch: 0 = none, 1 = sleep, 2 = wake (`file_labels_u8`).
struct LabelsU8: DatabaseValueConvertible, Codable {
    var labels: [SleepWake?]
    init(_ labels: [SleepWake?]) { self.labels = labels }
    var databaseValue: DatabaseValue { BlobCodec.labels(labels).databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> LabelsU8? { Data.fromDatabaseValue(dbValue).map { LabelsU8(BlobCodec.labels($0)) } }
    init(from decoder: any Decoder) throws { throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a blob column")) }
    func encode(to encoder: any Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(BlobCodec.labels(labels)) }
}

/// One byte per epoch: 1 = flagged (`nonwear_u8`).
struct FlagsU8: DatabaseValueConvertible, Codable {
    var flags: [Bool]
    init(_ flags: [Bool]) { self.flags = flags }
    var databaseValue: DatabaseValue { Data(flags.map { $0 ? 1 : 0 }).databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FlagsU8? { Data.fromDatabaseValue(dbValue).map { FlagsU8($0.map { $0 != 0 }) } }
}

/// Small unsigned values, one byte per epoch (`ggir_nonwear_score_u8`).
struct BytesU8: DatabaseValueConvertible, Codable {
    var values: [UInt8]
    init(_ values: [UInt8]) { self.values = values }
    var databaseValue: DatabaseValue { Data(values).databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> BytesU8? { Data.fromDatabaseValue(dbValue).map { BytesU8([UInt8]($0)) } }
}

// MARK: Rows

/// A `recordings` row (its quality facts are the ``RecordingQualityRow`` of the same id, its
/// warnings the ``RecordingWarningRow``s).
struct RecordingRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "recordings"
    var id: Int64?
    var path: String
    var contentHash: String
    var format: SourceFormat
    var sizeBytes: Int64
    var sampleCount: Int64
    var effectiveRateHz: Double
    var firstUTC: Int64?
    var endUTC: Int64?
    var timeZone: String?
    var timeZoneSource: TimeZoneSource
    var units: String
    var gravity: GravityContent
    /// Superseded by `recording_warnings` (migration v17): written as `[]`, never read.
    var warningsJSON = "[]"
    var kind: RecordingKind
    var kindReason: String
    /// The per-epoch milestone's version its nights were derived with: this version's, for a row
    /// it writes (``SleepDatabase/milestoneVersion``).
    var milestoneVersion: Int = SleepDatabase.milestoneVersion

    enum CodingKeys: String, CodingKey {
        case id, path, format, units, gravity, kind
        case contentHash = "content_hash", sizeBytes = "size_bytes", sampleCount = "sample_count", effectiveRateHz = "effective_rate_hz"
        case firstUTC = "first_utc", endUTC = "end_utc", timeZone = "time_zone", timeZoneSource = "time_zone_source"
        case warningsJSON = "warnings_json", kindReason = "kind_reason", milestoneVersion = "milestone_version"
    }

    init(_ r: StoredRecording) {
        id = r.id; path = r.path; contentHash = r.contentHash; format = r.format; sizeBytes = r.sizeBytes
        sampleCount = r.sampleCount; effectiveRateHz = r.effectiveSampleRateHz; firstUTC = r.firstUTC; endUTC = r.endUTC
        timeZone = r.timeZone; timeZoneSource = r.timeZoneSource; units = r.units; gravity = r.gravity
        kind = r.kind; kindReason = r.kindReason
    }

    func stored(quality: QualitySummary, warnings: [String]) -> StoredRecording {
        StoredRecording(id: id, path: path, contentHash: contentHash, format: format, sizeBytes: sizeBytes, sampleCount: sampleCount,
                        effectiveSampleRateHz: effectiveRateHz, firstUTC: firstUTC, endUTC: endUTC, timeZone: timeZone,
                        timeZoneSource: timeZoneSource, units: units, gravity: gravity, quality: quality, warnings: warnings,
                        kind: kind, kindReason: kindReason)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A `recording_warnings` row: one of a recording's warnings, at its place (`ordinal`, from 0) in
/// the order the reader gave them.
struct RecordingWarningRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "recording_warnings"
    var recordingID: Int64
    var ordinal: Int
    var text: String

    enum CodingKeys: String, CodingKey {
        case ordinal, text
        case recordingID = "recording_id"
    }

    /// The rows of a recording's warnings, in order.
    static func rows(_ warnings: [String], recordingID: Int64) -> [RecordingWarningRow] {
        warnings.enumerated().map { RecordingWarningRow(recordingID: recordingID, ordinal: $0.offset, text: $0.element) }
    }
}

/// A `nights` row: the night's window, clock, label and surveys (its series are other tables').
struct NightRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "nights"
    var id: String
    var recordingID: Int64
    var nightDate: String
    var windowStartUTC: Int64
    var windowEndUTC: Int64
    var timeZone: String?
    var offsetsJSON: String
    var label: String?
    var dataStartUTC: Int64?
    var dataEndUTC: Int64?
    var coverageSeconds: Int
    var sourceResolutionSeconds: Int
    var preBedSurveyJSON: String
    var postBedSurveyJSON: String

    enum CodingKeys: String, CodingKey {
        case id, label
        case recordingID = "recording_id", nightDate = "night_date", windowStartUTC = "window_start_utc", windowEndUTC = "window_end_utc"
        case timeZone = "time_zone", offsetsJSON = "offsets_json", dataStartUTC = "data_start_utc", dataEndUTC = "data_end_utc"
        case coverageSeconds = "coverage_seconds", sourceResolutionSeconds = "source_resolution_seconds"
        case preBedSurveyJSON = "pre_bed_survey_json", postBedSurveyJSON = "post_bed_survey_json"
    }

    init(_ night: StoredNight, recordingID: Int64) throws {
        let span = night.series.dataSpan
        id = night.id; self.recordingID = recordingID; nightDate = night.window.date.description
        windowStartUTC = night.window.startUTC; windowEndUTC = night.window.endUTC; timeZone = night.timeZone
        offsetsJSON = try JSONText.encode(night.timeline); label = night.label
        dataStartUTC = span?.first; dataEndUTC = span?.end
        coverageSeconds = night.series.coveredSeconds; sourceResolutionSeconds = night.series.sourceResolutionSeconds
        preBedSurveyJSON = try JSONText.encode(night.preBedSurvey); postBedSurveyJSON = try JSONText.encode(night.postBedSurvey)
    }
}

/// A `base_series` row: the night's per-second series.
struct BaseSeriesRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "base_series"
    var nightID: String
    var startUTC: Int64
    var seconds: Int
    var movement: Float32LE
    var legacyMovement: Float32LE
    var sampleCounts: UInt16LE

    enum CodingKeys: String, CodingKey {
        case seconds
        case nightID = "night_id", startUTC = "start_utc", movement = "movement_f32le", legacyMovement = "legacy_movement_f32le"
        case sampleCounts = "sample_counts_u16le"
    }

    init(nightID: String, _ s: SecondSeries) {
        self.nightID = nightID; startUTC = s.startSecond; seconds = s.count
        movement = Float32LE(s.movement); legacyMovement = Float32LE(s.legacyMovement); sampleCounts = UInt16LE(s.sampleCounts)
    }

    func series(sourceResolutionSeconds: Int) -> SecondSeries {
        SecondSeries(startSecond: startUTC, movement: movement.values, legacyMovement: legacyMovement.values,
                     sampleCounts: sampleCounts.values, sourceResolutionSeconds: sourceResolutionSeconds)
    }
}

/// An `epoch_series` row: the wearable milestone of a night (5-s epochs).
struct EpochSeriesRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "epoch_series"
    var nightID: String
    var startUTC: Int64
    var epochSeconds: Int
    var epochs: Int
    var enmo: Float32LE
    var angleZ: Float32LE
    var mad: Float32LE
    var sampleCounts: UInt16LE
    var nonWear: FlagsU8
    var counts: CountsXYZ?
    var ggirNonWearScore: BytesU8?
    var temperature: Float32LE?

    enum CodingKeys: String, CodingKey {
        case epochs, mad = "mad_f32le"
        case nightID = "night_id", startUTC = "start_utc", epochSeconds = "epoch_seconds", enmo = "enmo_f32le", angleZ = "anglez_f32le"
        case sampleCounts = "sample_counts_u16le", nonWear = "nonwear_u8", counts = "counts_xyz_i32le"
        case ggirNonWearScore = "ggir_nonwear_score_u8", temperature = "temperature_f32le"
    }

    init(nightID: String, _ e: WearableEpochs) {
        self.nightID = nightID; startUTC = e.startUTC; epochSeconds = WearableEpochs.epochSeconds; epochs = e.count
        enmo = Float32LE(e.enmo); angleZ = Float32LE(e.angleZ); mad = Float32LE(e.mad); sampleCounts = UInt16LE(e.sampleCounts)
        nonWear = FlagsU8(e.nonWear); counts = e.counts.map { CountsXYZ(counts: $0) }
        ggirNonWearScore = e.ggirNonWearScore.map(BytesU8.init)
        temperature = e.temperature.map(Float32LE.init)
    }

    var wearableEpochs: WearableEpochs {
        WearableEpochs(startUTC: startUTC, enmo: enmo.values, angleZ: angleZ.values, mad: mad.values, sampleCounts: sampleCounts.values,
                       nonWear: nonWear.flags, counts: counts?.counts,
                       ggirNonWearScore: ggirNonWearScore.flatMap { $0.values.count == epochs ? $0.values : nil },
                       temperature: temperature.flatMap { $0.values.count == epochs ? $0.values : nil })
    }
}

/// An `epoch_file_series` row: an epoch file's own epochs in one night, every numeric column as
/// float64 (column after column) and the file's own sleep/wake labels.
struct EpochFileSeriesRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "epoch_file_series"
    var nightID: String
    var format: String
    var startUTC: Int64
    var epochSeconds: Int
    var epochs: Int
    var columnsJSON: String
    var values: Float64LE
    var fileLabels: LabelsU8?
    var fileLabelsName: String?
    var actiwareJSON: String?

    enum CodingKeys: String, CodingKey {
        case format, epochs
        case nightID = "night_id", startUTC = "start_utc", epochSeconds = "epoch_seconds", columnsJSON = "columns_json"
        case values = "values_f64le", fileLabels = "file_labels_u8", fileLabelsName = "file_labels_name"
        case actiwareJSON = "actiware_json"
    }

    /// Column titles of `columns_json` (the values are one float64 blob, column after column).
    struct ColumnHeader: Codable { var name: String; var sourceName: String; var unit: String }

    init(nightID: String, _ f: EpochNightSeries) throws {
        self.nightID = nightID; format = f.format; startUTC = f.startUTC; epochSeconds = f.epochSeconds; epochs = f.count
        columnsJSON = try JSONText.encode(f.columns.map { ColumnHeader(name: $0.name, sourceName: $0.sourceName, unit: $0.unit) })
        values = Float64LE(f.columns.flatMap(\.values)); fileLabels = f.fileLabels.map { LabelsU8($0) }; fileLabelsName = f.fileLabelsName
        actiwareJSON = try f.actiware.map { try JSONText.encode($0) }
    }

    /// The night's epochs; nil when the row's blob does not hold `epochs` values per column.
    func series() throws -> EpochNightSeries? {
        let headers = try JSONText.decode([ColumnHeader].self, columnsJSON)
        let all = values.values
        guard all.count == headers.count * epochs else { return nil }
        let columns = headers.enumerated().map { k, h in
            EpochNightSeries.Column(name: h.name, sourceName: h.sourceName, unit: h.unit, values: Array(all[(k * epochs)..<((k + 1) * epochs)]))
        }
        return EpochNightSeries(format: format, startUTC: startUTC, epochSeconds: epochSeconds, count: epochs, columns: columns,
                                fileLabels: fileLabels?.labels, fileLabelsName: fileLabelsName,
                                actiware: try actiwareJSON.map { try JSONText.decode(ActiwareFileAnalysis.self, $0) })
    }
}

/// An `analysis_guides` row: the time in bed a sleep diary gave an analysis.
struct AnalysisGuideRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "analysis_guides"
    var analysisID: Int64
    var startUTC: Int64
    var endUTC: Int64
    var source: String

    enum CodingKeys: String, CodingKey {
        case source
        case analysisID = "analysis_id", startUTC = "start_utc", endUTC = "end_utc"
    }

    init(analysisID: Int64, _ g: TimeInBedGuide) {
        self.analysisID = analysisID; startUTC = g.startUTC; endUTC = g.endUTC; source = g.source
    }

    var guide: TimeInBedGuide { TimeInBedGuide(startUTC: startUTC, endUTC: endUTC, source: source) }
}
