import SleepCore

/// The comparison's numbers as tidy CSV files in its report folder (same conventions as
/// `sleepsta export`): one row per pair and metric, per night, pair and metric, and per night
/// and pair.
///
/// `statistics.csv` holds, per pair and metric, the row pooled over the methods that score per
/// interval (`method` = `pooled`) and one row per method (`method` = the recording kind:
/// `phone-in-bed`, `wearable-24h`, `epoch-file`).
public enum ComparisonCSV {
    /// The `method` value of the rows pooled over the per-interval methods.
    public static let pooledMethod = "pooled"

    public static func statistics(_ c: IntervalLengthComparison) -> String {
        var text = CSVFormat.line(["reference_interval", "test_interval", "metric", "unit", "n", "reference_mean", "test_mean",
                                   "mean_difference", "bias_ci_lower", "bias_ci_upper", "sd_difference", "loa_lower", "loa_upper",
                                   "mean_abs_difference", "icc_2_1", "method"])
        for pair in c.pairs {
            let groups = [(pooledMethod, pair.metrics)] + pair.methods.map { ($0.kind.rawValue, $0.metrics) }
            for (method, metrics) in groups {
                for m in metrics {
                    let ba = m.blandAltman
                    text += CSVFormat.line([pair.reference.description, pair.test.description, m.metric.rawValue, m.metric.unit, String(m.count),
                                            CSVFormat.number(m.referenceMean), CSVFormat.number(m.testMean), CSVFormat.number(ba?.bias),
                                            CSVFormat.number(ba?.biasConfidenceInterval?.lowerBound),
                                            CSVFormat.number(ba?.biasConfidenceInterval?.upperBound),
                                            CSVFormat.number(ba?.standardDeviation), CSVFormat.number(ba?.lowerLimitOfAgreement),
                                            CSVFormat.number(ba?.upperLimitOfAgreement), CSVFormat.number(m.meanAbsoluteDifference),
                                            CSVFormat.number(m.intraclassCorrelation), method])
                }
            }
        }
        return text
    }

    public static func nightDifferences(_ c: IntervalLengthComparison) -> String {
        var text = CSVFormat.line(["night", "reference_interval", "test_interval", "metric", "reference_value", "test_value", "difference", "method"])
        for pair in c.pairs {
            for n in pair.nights {
                for metric in ComparedMetric.allCases {
                    text += CSVFormat.line([n.nightID, pair.reference.description, pair.test.description, metric.rawValue,
                                            CSVFormat.number(n.referenceValue(metric)), CSVFormat.number(n.testValue(metric)),
                                            CSVFormat.number(n.difference(metric)), n.kind.rawValue])
                }
            }
        }
        return text
    }

    public static func nightAgreement(_ c: IntervalLengthComparison) -> String {
        var text = CSVFormat.line(["night", "reference_interval", "test_interval", "grid_seconds", "sleep_wake_cells", "sleep_wake_accuracy",
                                   "sleep_wake_kappa", "phase_cells", "phase_accuracy", "phase_kappa", "reference_awakenings",
                                   "test_awakenings", "hidden_awakenings", "hidden_awakening_min", "appeared_awakenings",
                                   "appeared_awakening_min", "either_awakenings"])
        for pair in c.pairs {
            for n in pair.nights {
                let g = n.grid
                text += CSVFormat.line([n.nightID, pair.reference.description, pair.test.description, String(g.cellSeconds),
                                        String(g.sleepWake.total), CSVFormat.number(g.sleepWake.accuracy), CSVFormat.number(g.sleepWake.cohenKappa),
                                        String(g.phases.total), CSVFormat.number(g.phases.accuracy), CSVFormat.number(g.phases.cohenKappa),
                                        CSVFormat.number(n.referenceValue(.awakenings).map { Int($0) }),
                                        CSVFormat.number(n.testValue(.awakenings).map { Int($0) }),
                                        String(n.hiddenAwakenings.hiddenCount), CSVFormat.number(n.hiddenAwakenings.hiddenMinutes),
                                        String(n.hiddenAwakenings.appearedCount), CSVFormat.number(n.hiddenAwakenings.appearedMinutes),
                                        String(n.hiddenAwakenings.eitherCount)])
            }
        }
        return text
    }
}
