import Foundation
import SleepCore

extension ReportBuilder {
    /// Removes the participant page folders of another grouping (another participants table, or
    /// `--participants folder` after a table): folders under `participants/` that no participant
    /// of the store's recordings has now, and not in `written`. Only folders sleepsta made are
    /// touched: a real folder whose `index.html` is a participant page it wrote; from it only the
    /// files sleepsta writes there are removed (the page, its day chart, its overview charts), and
    /// the folder itself only when that leaves it empty, so a user's own files stay. Returns the
    /// folder names removed (or emptied of sleepsta's files).
    func removeStaleParticipantFolders(written: Set<String>) throws -> [String] {
        let fm = FileManager.default
        let root = (reportsDirectory as NSString).appendingPathComponent("participants")
        guard let names = try? fm.contentsOfDirectory(atPath: root) else { return [] }
        let current = Self.participantFolders(try db.recordingPaths().map(participant))
        let keep = written.union(current.values)
        var removed: [String] = []
        for name in names.sorted() where !keep.contains("participants/" + name) {
            let folder = (root as NSString).appendingPathComponent(name)
            guard (try? fm.attributesOfItem(atPath: folder))?[.type] as? FileAttributeType == .typeDirectory,
                  let page = fm.contents(atPath: folder + "/index.html"), Self.isParticipantPage(page) else { continue }
            let ours = (try? fm.contentsOfDirectory(atPath: folder))?.filter { file in
                file == "index.html" || file == "days.png" || (0..<1000).contains { Self.overviewFile($0) == file }
            } ?? []
            for file in ours { try? fm.removeItem(atPath: folder + "/" + file) }
            if (try? fm.contentsOfDirectory(atPath: folder))?.isEmpty == true { try? fm.removeItem(atPath: folder) }
            removed.append(name)
        }
        return removed
    }

    /// The comment every participant page carries, by which a later run knows the folder is sleepsta's.
    static let participantPageMarker = "sleepsta participant page"

    /// Whether `bytes` are a participant page sleepsta wrote: its marker, or (a page of an earlier
    /// version) its link to the index, its heading and its line naming the participants rule.
    static func isParticipantPage(_ bytes: Data) -> Bool {
        let text = String(decoding: bytes.prefix(64 << 10), as: UTF8.self)
        return text.contains("<!-- \(participantPageMarker) -->")
            || (text.contains("<a href=\"../../index.html\">") && text.contains("<h1>Participant ") && text.contains(" · participants: "))
    }
}
