/// What one analysis' numbers are, for every place that names them: the run summary, the index
/// footer, the night pages, the exports. Each method's numbers carry their own words: a wearable's
/// intervals hold ENMO, an Actiwatch file's hold counts, and only a phone's metrics are per
/// interval.
public struct MethodLabels: Sendable, Equatable {
    /// The exports' `metric`: what is summed per interval and scored. Phones: `--metric`, or
    /// `app-totals` for the app's own interval totals; wearables: `enmo`; epoch files: the column.
    public var metric: String
    /// Unit of an interval's `movement_sum` (and, per minute, of `movement_per_minute`).
    public var movementUnit: String
    /// Unit of one scored epoch's `activity`.
    public var activityUnit: String
    /// What sleep/wake and the night metrics are computed per: `10m intervals`, `5-s epochs`.
    public var scoredPer: String
    /// Whether sleep/wake and the night metrics change with the interval length (phones only:
    /// the others score per epoch, and intervals only sum and chart).
    public var metricsDependOnInterval: Bool

    public init(metric: String, movementUnit: String, activityUnit: String, scoredPer: String, metricsDependOnInterval: Bool) {
        self.metric = metric; self.movementUnit = movementUnit; self.activityUnit = activityUnit
        self.scoredPer = scoredPer; self.metricsDependOnInterval = metricsDependOnInterval
    }

    /// The labels of an analysis of `kind` under `parameters`. `epochFile` is the stored summary
    /// of an epoch-file night (its column and unit), `scoredEpochSeconds` the metrics' resolution
    /// where known, `appTotals` whether the recording is the app's export of interval totals.
    public static func of(kind: RecordingKind, parameters p: AnalysisParameters, epochFile: EpochFileNightSummary? = nil,
                          scoredEpochSeconds: Int? = nil, appTotals: Bool = false) -> MethodLabels {
        switch kind {
        case .phoneInBed:
            return MethodLabels(metric: appTotals ? "app-totals" : p.metric.rawValue, movementUnit: "g·s",
                                activityUnit: "g·s per \(p.epochSeconds)-s epoch", scoredPer: "\(p.interval) intervals",
                                metricsDependOnInterval: true)
        case .wearable24h:
            let E = WearableEpochs.epochSeconds
            return MethodLabels(metric: "enmo", movementUnit: "g·s (ENMO)", activityUnit: "g (mean ENMO per \(E)-s epoch)",
                                scoredPer: "\(scoredEpochSeconds ?? E)-s epochs", metricsDependOnInterval: false)
        case .epochFile:
            let column = epochFile?.column ?? "activity"
            let unit = epochFile?.unit ?? "counts"
            let epoch = scoredEpochSeconds ?? epochFile?.fileEpochSeconds
            let per = epoch.map { "\($0)-s epochs" } ?? "the file's epochs"
            return MethodLabels(metric: column, movementUnit: (epochFile?.isAveraged ?? false) ? "\(unit)·s" : unit,
                                activityUnit: "\(unit) per \(epoch.map { "\($0)-s " } ?? "")epoch", scoredPer: per,
                                metricsDependOnInterval: false)
        }
    }
}

extension NightAnalysis {
    /// The labels of this analysis' numbers (``MethodLabels``); `appTotals` for the app's export.
    public func labels(appTotals: Bool = false) -> MethodLabels {
        MethodLabels.of(kind: kind, parameters: parameters, epochFile: epochFile, scoredEpochSeconds: metrics?.resolutionSeconds,
                        appTotals: appTotals)
    }
}
