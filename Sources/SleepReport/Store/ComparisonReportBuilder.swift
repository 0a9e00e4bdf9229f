import Foundation
import SleepCore
import SleepStore

/// Writes `<reports>/compare-<lengths>/` (`compare-ggir-<lengths>/` under `--method ggir`): `index.html`, a movement chart per night overlaying the
/// lengths, a Bland–Altman plot per pair and metric, and the statistics as CSV. Files are
/// rewritten only when their bytes change; charts of nights no longer compared are removed.
public struct ComparisonReportBuilder {
    let reportsDirectory: String
    let parameters: AnalysisParameters

    public init(reportsDirectory: String, parameters: AnalysisParameters) {
        self.reportsDirectory = reportsDirectory; self.parameters = parameters
    }

    public func write(_ comparison: IntervalLengthComparison, nights: [NightCatalogEntry]) throws -> (folder: String, written: Int, unchanged: Int) {
        let folder = (reportsDirectory as NSString).appendingPathComponent(ComparisonReportLayout.folderName(comparison.lengths, method: parameters.nightMethod))
        var written = 0, unchanged = 0
        var names = Set<String>()
        func put(_ bytes: [UInt8], _ name: String) throws {
            names.insert(name)
            if case .written = try ReportWriter.write(bytes, to: folder + "/" + name) { written += 1 } else { unchanged += 1 }
        }
        let infos = nights.map { ComparisonReportInput.NightInfo(date: $0.date, timeline: $0.timeline, recordingPath: PrintableText.escaped($0.recordingPath)) }
        let movement = ChartRenderer()
        for k in comparison.nights.indices {
            let chart = ComparisonPages.movementChart(comparison, index: k, info: infos[k])
            try put(movement.png(chart), ComparisonReportLayout.movementChart(nightID: comparison.nights[k].nightID))
        }
        let blandAltman = BlandAltmanChartRenderer()
        for pair in comparison.pairs {
            for metric in ComparedMetric.allCases {
                try put(blandAltman.png(ComparisonPages.blandAltmanChart(pair, metric: metric)),
                        ComparisonReportLayout.blandAltmanChart(reference: pair.reference, test: pair.test, metric: metric))
            }
        }
        try put(Array(ComparisonCSV.statistics(comparison).utf8), ComparisonReportLayout.statisticsCSV)
        try put(Array(ComparisonCSV.nightDifferences(comparison).utf8), ComparisonReportLayout.nightDifferencesCSV)
        try put(Array(ComparisonCSV.nightAgreement(comparison).utf8), ComparisonReportLayout.nightAgreementCSV)
        let input = ComparisonReportInput(comparison: comparison, nights: infos, parameters: parameters)
        try put(Array(ComparisonPages.page(input).utf8), "index.html")
        removeStaleCharts(in: folder, keeping: names)
        return (folder, written, unchanged)
    }

    /// Charts this report wrote earlier for nights or metrics it no longer shows.
    private func removeStaleCharts(in folder: String, keeping names: Set<String>) {
        guard let existing = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in existing where name.hasSuffix(".png") && (name.hasPrefix("movement-") || name.hasPrefix("bland-altman-")) && !names.contains(name) {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }
}
