import Foundation
import GRDB

/// Migration `v6-night-ids-without-device-extensions`: night ids made from `.gt3x`, `.cwa` and
/// `.bin` files (also gzipped) and of the epoch files `.agd`, `.awd` and `.mtn` kept the extension, `participant.cwa_2024-06-14`, while those of
/// CSV and JSON files never did. The new id drops it; stored nights are renamed in the nights
/// table and in every table that names a night (base and epoch series, analyses, intervals,
/// night metrics), in the migration's one transaction. A new id that another night already has
/// (a `p1.csv` next to a `p1.cwa`) is left as it was, so ids stay unique and reports stable.
package enum NightIDRenaming {
    /// Device extensions, longest first (the same list as `NightNaming.recordingStem`).
    static let deviceExtensions = [".gt3x.gz", ".cwa.gz", ".bin.gz", ".gt3x", ".cwa", ".bin", ".agd", ".awd", ".mtn"]

    /// The id without the extension, when `id` is `<stem><extension>_<date…>` for the recording at `path`.
    package static func renamed(_ id: String, recordingPath path: String) -> String? {
        let lower = path.lowercased()
        guard let ext = deviceExtensions.first(where: { lower.hasSuffix($0) }) else { return nil }
        // The id's stem is the path made safe; find "<ext>_" right before the date part.
        guard let range = id.range(of: ext + "_", options: [.caseInsensitive, .backwards]) else { return nil }
        let renamed = String(id[..<range.lowerBound]) + "_" + String(id[range.upperBound...])
        return renamed.hasPrefix("_") ? nil : renamed
    }

    static func dropDeviceExtensions(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT n.id, r.path FROM nights n JOIN recordings r ON r.id = n.recording_id ORDER BY n.id")
        var taken = Set(rows.map { $0["id"] as String })
        for row in rows {
            let old: String = row["id"]
            guard let new = renamed(old, recordingPath: row["path"]), new != old, !taken.contains(new) else { continue }
            taken.remove(old); taken.insert(new)
            try db.execute(sql: "UPDATE nights SET id = ? WHERE id = ?", arguments: [new, old])
            for table in ["base_series", "epoch_series", "epoch_file_series", "analyses", "intervals", "night_metrics"] {
                try db.execute(sql: "UPDATE \(table) SET night_id = ? WHERE night_id = ?", arguments: [new, old])
            }
        }
    }
}
