import Foundation
import SleepCore
import SleepReport

/// A stored analysis's reason as its night page words it, from the row's `notes_json` (the rows a
/// run writes leave `status_reason` NULL); "" without notes.
enum StoredNotes {
    static func text(_ json: String?) -> String {
        guard let json, let notes = try? JSONDecoder().decode([NightNote].self, from: Data(json.utf8)) else { return "" }
        return NightNoteText.text(notes) ?? ""
    }
}
