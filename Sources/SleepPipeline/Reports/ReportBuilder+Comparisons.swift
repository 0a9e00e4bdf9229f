import Foundation
import SleepCore
import SleepReport
import SleepStore

/// The index page's links to comparison reports (`compare-<lengths>/index.html` folders found
/// in the reports folder), and an index-only refresh for `sleepsta compare`.
extension ReportBuilder {
    /// `(href, label)` for each comparison folder with an index page, by folder name.
    static func comparisonLinks(in reportsDirectory: String) -> [(href: String, label: String)] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: reportsDirectory) else { return [] }
        return names.sorted().compactMap { name in
            guard name.hasPrefix("compare-"),
                  fm.fileExists(atPath: (reportsDirectory as NSString).appendingPathComponent(name + "/index.html")) else { return nil }
            let lengths = name.dropFirst("compare-".count).split(separator: "-").map(String.init)
            guard lengths.count >= 2, lengths.allSatisfy({ IntervalLength(parsing: $0) != nil }) else { return nil }
            return (href: name + "/index.html", label: "Interval lengths compared: " + lengths.joined(separator: " vs "))
        }
    }

    /// Rewrites `index.html` only (same rows and bytes as ``renderAll()`` writes).
    func renderIndex() throws -> ReportWriter.Outcome {
        let catalog = Dictionary(uniqueKeysWithValues: try db.nightCatalog().map { ($0.nightID, $0) })
        var rows: [IndexRow] = []
        var paths: [String] = []
        for overview in try db.overviews(keys: keys) {
            guard let night = catalog[overview.nightID], let analysis = overview.analysis else { continue }
            paths.append(overview.recordingPath)
            rows.append(IndexRow(nightID: overview.nightID, date: night.window.date, recordingPath: PrintableText.escaped(overview.recordingPath),
                                 timeline: night.timeline, analysis: analysis))
        }
        let indexPath = (reportsDirectory as NSString).appendingPathComponent("index.html")
        return try ReportWriter.write(HTMLPages.indexPage(rows, parameters: parameters,
                                                          extraLinks: Self.comparisonLinks(in: reportsDirectory) + recordingLinks(paths),
                                                          failures: try failures ?? db.latestRunFailures(commands: ["run", "nightly", "merge"])),
                                      to: indexPath)
    }
}
