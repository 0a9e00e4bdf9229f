import Foundation
import GRDB
import SleepCore

/// A recording's rows read back (`recordings`, `recording_quality`, `recording_warnings`,
/// `recording_rhythm`): checked as a night's rows are (``StoredColumns``, ``StoredRowRules``)
/// before GRDB decodes them, so that a row sleepsta never writes (a shard merged from elsewhere, a
/// hand-edited store) is a ``StoredRowError`` naming the recording and the table, which costs
/// that recording's pages and rows, never the command.
extension SleepDatabase {
    /// The columns of a recording's tables, looked up once for many rows.
    struct RecordingColumns {
        let recordings: StoredColumns, quality: StoredColumns, warnings: StoredColumns, rhythm: StoredColumns
        init(_ db: Database) throws {
            recordings = try StoredColumns(["recordings"], db: db)
            quality = try StoredColumns(["recording_quality"], db: db)
            warnings = try StoredColumns(["recording_warnings"], db: db)
            rhythm = try StoredColumns(["recording_rhythm"], db: db)
        }
    }

    /// How a message names a recording's row: by its path (printable), else by its id.
    static func recordingName(_ row: Row) -> String {
        if let path = String.fromDatabaseValue(row["path"] as DatabaseValue) { return "recording '\(PrintableText.escaped(path))'" }
        return row.hasColumn("id") ? "recording \((row["id"] as DatabaseValue).description)" : "a recording without a path"
    }

    /// A row of ``RecordingRow/withDetails()`` (with its rhythm's scope when the request includes
    /// it) checked, its quality row and its warnings' rows too, then decoded.
    static func checkedRecording(_ row: Row, columns: RecordingColumns) throws -> RecordingDetails {
        let naming = recordingName(row)
        try checked(row, columns: columns.recordings, table: "recordings", naming: naming)
        // A recording without a quality or rhythm row has an all-NULL scope (the LEFT JOIN's).
        if let q = row.scopes["quality"], q.containsNonNullValue {
            try checked(q, columns: columns.quality, table: "recording_quality", naming: naming)
        }
        for w in row.prefetchedRows["warnings"] ?? [] { try checked(w, columns: columns.warnings, table: "recording_warnings", naming: naming) }
        if let h = row.scopes["rhythm"], h.containsNonNullValue {
            try checked(h, columns: columns.rhythm, table: "recording_rhythm", naming: naming)
        }
        // Checked, a row decodes; should GRDB still refuse one, it is this recording's, named.
        do { return try RecordingDetails(row: row) } catch {
            throw StoredRowError("\(naming): its rows do not decode (\(shortDescription(error)))")
        }
    }

    /// The first recording row `request` (``RecordingRow/withDetails()``, narrowed) finds, checked.
    static func checkedRecording(_ request: QueryInterfaceRequest<RecordingRow>, db: Database) throws -> RecordingDetails? {
        guard let row = try Row.fetchOne(db, request) else { return nil }
        return try checkedRecording(row, columns: RecordingColumns(db))
    }

    /// The recording's columns of a night's row joined with its recording (`r.path`, `r.format`,
    /// `r.kind`, `r.time_zone_source`), checked as the `recordings` table's, naming the night and
    /// the recording.
    static func checkJoinedRecording(_ r: Row, columns: StoredColumns, night: String) throws {
        let own = recordingColumns(r, ["path", "format", "kind", "time_zone_source"])
        try checked(own, columns: columns, table: "recordings", naming: "\(night), \(recordingName(own))")
    }

    /// `names` of a joined row, as a row of their own (a joined row's other tables may use the
    /// same names, and a LEFT JOIN's missing row NULLs that the `recordings` table refuses).
    static func recordingColumns(_ r: Row, _ names: [String]) -> Row {
        Row(Dictionary(uniqueKeysWithValues: names.filter(r.hasColumn).map { ($0, (r[$0] as DatabaseValue) as (any DatabaseValueConvertible)?) }))
    }
}
