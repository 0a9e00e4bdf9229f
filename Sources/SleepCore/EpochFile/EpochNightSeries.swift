/// One night of an epoch file (Actiware, ActiLife, `.agd`, QUT, MMASH …): the file's epochs as it
/// gives them, the milestone the `epoch-file` method works from (``EpochFileNightMethod``), as the
/// wearable method works from ``WearableEpochs``. Stored per night, so that any analysis re-derives
/// without the file.
public struct EpochNightSeries: Sendable, Equatable {
    /// One numeric column of the file.
    public struct Column: Sendable, Equatable, Codable {
        /// Canonical name (`activity`, `axis1`, `vm`, `enmo`, `rest_interval` …).
        public var name: String
        /// The file's own title.
        public var sourceName: String
        public var unit: String
        /// One value per epoch; NaN = missing.
        public var values: [Double]
        public init(name: String, sourceName: String, unit: String, values: [Double]) {
            self.name = name; self.sourceName = sourceName; self.unit = unit; self.values = values
        }
    }

    /// The file's format (`actiware-csv`, `actigraph-agd` …): decides the device software's defaults.
    public var format: String
    public var startUTC: Int64
    public var epochSeconds: Int
    public var count: Int
    public var columns: [Column]
    /// The file's own sleep/wake scoring (Actiware's S/W, ActiLife's `Sleep or Awake?`, QUT's
    /// classification), one per epoch; nil when the file has none.
    public var fileLabels: [SleepWake?]?
    /// The file's title of that column.
    public var fileLabelsName: String?
    /// An Actiware export's analysis inputs and its own rest and sleep intervals; nil for other files.
    public var actiware: ActiwareFileAnalysis?

    public init(format: String, startUTC: Int64, epochSeconds: Int, count: Int, columns: [Column],
                fileLabels: [SleepWake?]? = nil, fileLabelsName: String? = nil, actiware: ActiwareFileAnalysis? = nil) {
        self.format = format; self.startUTC = startUTC; self.epochSeconds = epochSeconds; self.count = count
        self.columns = columns; self.fileLabels = fileLabels; self.fileLabelsName = fileLabelsName; self.actiware = actiware
    }

    public var endUTC: Int64 { startUTC + Int64(count) * Int64(epochSeconds) }
    public func epochStartUTC(_ i: Int) -> Int64 { startUTC + Int64(i) * Int64(epochSeconds) }

    public func column(_ name: String) -> Column? { columns.first { $0.name == name } }

    /// Epochs whose start lies in `[from, to)`.
    public func slice(from: Int64, to: Int64) -> EpochNightSeries {
        let E = Int64(epochSeconds)
        let lo = max(0, min(count, Int((from - startUTC + E - 1) / E)))
        let hi = max(lo, min(count, Int((to - startUTC + E - 1) / E)))
        var copy = self
        copy.startUTC = epochStartUTC(lo)
        copy.count = hi - lo
        copy.columns = columns.map { Column(name: $0.name, sourceName: $0.sourceName, unit: $0.unit, values: Array($0.values[lo..<hi])) }
        copy.fileLabels = fileLabels.map { Array($0[lo..<hi]) }
        copy.actiware = actiware?.overlapping(from: copy.startUTC, to: copy.endUTC)
        return copy
    }

    /// Seconds of epochs with a value in `column`.
    public func coveredSeconds(_ column: Column) -> Int {
        column.values.reduce(0) { $0 + ($1.isNaN ? 0 : epochSeconds) }
    }
}

/// What an activity column measures, which decides how the `epoch-file` method scores it (each
/// device's own software's default).
public enum EpochActivityFamily: String, Sendable, Codable, CaseIterable {
    /// Actiwatch / Actiware activity counts (Philips Respironics, CamNtech): Oakley, Actiware's medium threshold.
    case actiwatchCounts = "actiwatch-counts"
    /// ActiGraph counts (axis 1; ActiLife, `.agd`, MMASH): Cole–Kripke as ActiLife, Tudor-Locke sleep periods.
    case actiGraphCounts = "actigraph-counts"
    /// Acceleration summaries (ENMO in g or mg, Condor PIM …): the relative rule used for phones.
    case acceleration = "acceleration"

    /// Units of columns that are averages over their epoch (ENMO, angle-z, per-second means), as
    /// opposed to sums (counts): an interval's movement is then the mean × seconds.
    public static let averagedUnits: Set<String> = ["g", "mg", "degrees", "counts/s"]

    /// The family of a column by its canonical name.
    public static func of(column: String) -> EpochActivityFamily {
        switch column {
        case "activity": return .actiwatchCounts
        case "axis1", "axis2", "axis3", "vm": return .actiGraphCounts
        default: return .acceleration
        }
    }
}

extension EpochNightSeries {
    /// The per-second base series of `column` (for charts, the interval table and `compare`): each
    /// epoch's value spread over its seconds. `isSum`: counts per second for count columns (an
    /// interval's movement is then its counts); otherwise the value itself, for averaged columns
    /// such as ENMO (an interval's movement is then g·s, as for wearables). Its source resolution
    /// is the epoch length.
    public func secondSeries(column: Column, isSum: Bool) -> SecondSeries {
        let E = epochSeconds
        var movement = [Float](repeating: .nan, count: count * E)
        var counts = [UInt16](repeating: 0, count: count * E)
        for i in 0..<count where !column.values[i].isNaN {
            let v = Float(isSum ? column.values[i] / Double(E) : column.values[i])
            for k in (i * E)..<((i + 1) * E) { movement[k] = v; counts[k] = 1 }
        }
        return SecondSeries(startSecond: startUTC, movement: movement, legacyMovement: movement, sampleCounts: counts,
                            sourceResolutionSeconds: E)
    }
}
