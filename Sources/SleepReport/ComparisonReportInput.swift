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
    /// `compare-10m-15m` for 10 and 15 minutes.
    public static func folderName(_ lengths: [IntervalLength]) -> String {
        "compare-" + lengths.map(\.description).joined(separator: "-")
    }
    public static func movementChart(nightID: String) -> String { "movement-\(nightID).png" }
    public static func blandAltmanChart(reference: IntervalLength, test: IntervalLength, metric: ComparedMetric) -> String {
        "bland-altman-\(test)-vs-\(reference)-\(metric.rawValue).png"
    }
    public static let statisticsCSV = "statistics.csv"
    public static let nightDifferencesCSV = "night-differences.csv"
    public static let nightAgreementCSV = "night-agreement.csv"
}
