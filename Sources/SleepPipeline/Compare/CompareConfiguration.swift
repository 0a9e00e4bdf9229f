import SleepCore

/// What `sleepsta compare` compares, where.
public struct CompareConfiguration: Sendable {
    public var databasePath: String
    public var reportsDirectory: String
    /// Two or more lengths, any order (compared ascending; the shortest is the reference).
    public var lengths: [IntervalLength]
    /// Night ids or evening dates (`2024-06-14`); empty for every night in the database.
    public var nightSelectors: [String]
    /// Every parameter but the interval, which each length sets.
    public var parameters: AnalysisParameters
    public var toolVersion: String

    public init(databasePath: String, reportsDirectory: String, lengths: [IntervalLength], nightSelectors: [String] = [],
                parameters: AnalysisParameters = AnalysisParameters(), toolVersion: String = SleepstaVersion.current) {
        self.databasePath = databasePath; self.reportsDirectory = reportsDirectory; self.lengths = lengths
        self.nightSelectors = nightSelectors; self.parameters = parameters; self.toolVersion = toolVersion
    }

    /// The lengths as compared: distinct, ascending.
    public var sortedLengths: [IntervalLength] { Array(Set(lengths)).sorted() }
}

/// What a comparison did.
public struct CompareSummary: Sendable {
    public var comparison: IntervalLengthComparison
    /// Analyses derived from the stored nights in this run (missing before).
    public var analysesComputed = 0
    /// Analyses found in the database.
    public var analysesReused = 0
    /// `<reports>/compare-<lengths>`.
    public var reportFolder: String
    public var reportsWritten = 0
    public var reportsUnchanged = 0
    /// Whether `<reports>/index.html` now links the comparison.
    public var indexLinked = false
    /// Nights left out because a stored row of theirs cannot be read, each with why (exit 1).
    public var skipped: [String] = []
}
