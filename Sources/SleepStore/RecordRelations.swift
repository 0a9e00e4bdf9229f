import GRDB
import SleepCore

// How the rows relate, declared once as GRDB associations (the schema's foreign keys), so that a
// query names what it wants ("a recording with its quality and warnings") instead of spelling the
// join each time.

extension RecordingRow {
    /// The recording's quality facts (`recording_quality`, one row per recording).
    static let quality = hasOne(RecordingQualityRow.self, key: "quality")
    /// The reader's warnings, in the order it gave them.
    static let warnings = hasMany(RecordingWarningRow.self, key: "warnings").order(Column("ordinal"))
    /// The recording's nights.
    static let nights = hasMany(NightRow.self, key: "nights")
    /// The recording's rest-activity rhythm (`recording_rhythm`), read as a row: its columns map to
    /// ``RecordingRhythm`` in ``SleepDatabase/rhythm(_:)``.
    static let rhythm = hasOne(Table("recording_rhythm"), key: "rhythm", using: ForeignKey(["recording_id"]))

    /// Recordings with what a ``StoredRecording`` holds besides its own row.
    static func withDetails() -> QueryInterfaceRequest<RecordingRow> {
        all().including(optional: quality).including(all: warnings)
    }
}

extension NightRow {
    /// The recording a night came from.
    static let recording = belongsTo(RecordingRow.self, key: "recording")
}

/// A recording row with its quality row and warning rows (``RecordingRow/withDetails()``).
struct RecordingDetails: Decodable, FetchableRecord {
    var recording: RecordingRow
    var quality: RecordingQualityRow?
    var warnings: [RecordingWarningRow]

    /// The recording as the store's users see it; one stored before quality facts existed has
    /// empty ones.
    var stored: StoredRecording {
        recording.stored(quality: quality?.summary ?? QualitySummary(), warnings: warnings.map(\.text))
    }
}
