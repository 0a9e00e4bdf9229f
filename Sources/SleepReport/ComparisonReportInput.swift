import SleepCore

/// Everything the comparison report shows: the comparison itself and, per night (same order as
/// ``IntervalLengthComparison/nights``), what names and places it.
public struct ComparisonReportInput: Sendable {
    public struct NightInfo: Sendable {
        public var date: CivilDate
        public var timeline: UTCOffsetTimeline
        public var recordingPath: String
        public init(date: CivilDate, timeline: UTCOffsetTimeline, recordingPath: String) {
            self.date = date; self.timeline = timeline; self.recordingPath = recordingPath
        }
    }

    public var comparison: IntervalLengthComparison
    public var nights: [NightInfo]
    /// The parameters shared by every length (the interval is the reference's).
    public var parameters: AnalysisParameters

    public init(comparison: IntervalLengthComparison, nights: [NightInfo], parameters: AnalysisParameters) {
        precondition(nights.count == comparison.nights.count, "one info per night")
        self.comparison = comparison; self.nights = nights; self.parameters = parameters
    }
}

/// File names inside a comparison's report folder, shared by the pages and the pipeline.
public enum ComparisonReportLayout {
    /// `compare-10m-15m` for 10 and 15 minutes; `compare-ggir-10m-15m` for the same lengths under
    /// `--method ggir`, so that the two comparisons of one set of lengths do not overwrite each other.
    public static func folderName(_ lengths: [IntervalLength], method: NightMethodChoice? = nil) -> String {
        "compare-" + (method.flatMap(methodTag).map { $0 + "-" } ?? "") + lengths.map(\.description).joined(separator: "-")
    }

    /// The folder name's tag for a night method other than the default (none for sleepsta's own).
    public static func methodTag(_ method: NightMethodChoice) -> String? {
        method == .sleepsta ? nil : method.rawValue
    }

    /// The lengths and method a comparison folder's name stands for (``folderName(_:method:)``), nil
    /// for any other name.
    public static func parseFolderName(_ name: String) -> (lengths: [String], method: NightMethodChoice?)? {
        guard name.hasPrefix("compare-") else { return nil }
        var parts = name.dropFirst("compare-".count).split(separator: "-").map(String.init)
        var method: NightMethodChoice? = nil
        if let first = parts.first, let tagged = NightMethodChoice.allCases.first(where: { methodTag($0) == first }) {
            method = tagged
            parts.removeFirst()
        }
        guard parts.count >= 2, parts.allSatisfy({ IntervalLength(parsing: $0) != nil }) else { return nil }
        return (parts, method)
    }
    public static func movementChart(nightID: String) -> String { "movement-\(nightID).png" }
    public static func blandAltmanChart(reference: IntervalLength, test: IntervalLength, metric: ComparedMetric) -> String {
        "bland-altman-\(test)-vs-\(reference)-\(metric.rawValue).png"
    }
    public static let statisticsCSV = "statistics.csv"
    public static let nightDifferencesCSV = "night-differences.csv"
    public static let nightAgreementCSV = "night-agreement.csv"
}
