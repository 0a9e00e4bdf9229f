/// A night metric compared between interval lengths, with the column name it has in the
/// database (`night_metrics`) and in the exports.
///
/// `sleep_onset_min` and `wake_time_min` are clock times turned into numbers for the statistics:
/// elapsed minutes from the start of the night window (local noon). Both interval lengths of a
/// night share that origin, so their difference is the difference of the two clock times, DST
/// nights included. `awake_min` is not listed: it equals WASO by definition.
public enum ComparedMetric: String, Sendable, Hashable, Codable, CaseIterable {
    case timeInBed = "time_in_bed_min"
    case sleepOnset = "sleep_onset_min"
    case wakeTime = "wake_time_min"
    case sleepPeriod = "sleep_period_min"
    case totalSleepTime = "total_sleep_time_min"
    case sleepOnsetLatency = "sleep_onset_latency_min"
    case wakeAfterSleepOnset = "waso_min"
    case sleepEfficiency = "sleep_efficiency_pct"
    case sleepMaintenanceEfficiency = "sleep_maintenance_efficiency_pct"
    case awakenings = "awakenings"
    case sleepFragmentationIndex = "sfi_per_hour"
    case light = "light_min"
    case deep = "deep_min"

    /// Short name used in tables and chart titles.
    public var abbreviation: String {
        switch self {
        case .timeInBed: return "TIB"
        case .sleepOnset: return "Sleep onset"
        case .wakeTime: return "Wake time"
        case .sleepPeriod: return "SPT"
        case .totalSleepTime: return "TST"
        case .sleepOnsetLatency: return "SOL"
        case .wakeAfterSleepOnset: return "WASO"
        case .sleepEfficiency: return "SE"
        case .sleepMaintenanceEfficiency: return "SME"
        case .awakenings: return "Awakenings"
        case .sleepFragmentationIndex: return "SFI"
        case .light: return "Light"
        case .deep: return "Deep"
        }
    }

    public var name: String {
        switch self {
        case .timeInBed: return "time in bed"
        case .sleepOnset: return "sleep onset (min after the night's noon)"
        case .wakeTime: return "wake time (min after the night's noon)"
        case .sleepPeriod: return "sleep period time"
        case .totalSleepTime: return "total sleep time"
        case .sleepOnsetLatency: return "sleep onset latency"
        case .wakeAfterSleepOnset: return "wake after sleep onset"
        case .sleepEfficiency: return "sleep efficiency"
        case .sleepMaintenanceEfficiency: return "sleep maintenance efficiency"
        case .awakenings: return "awakenings"
        case .sleepFragmentationIndex: return "sleep fragmentation index"
        case .light: return "light (movement phase)"
        case .deep: return "deep (movement phase)"
        }
    }

    public var unit: String {
        switch self {
        case .sleepEfficiency, .sleepMaintenanceEfficiency: return "%"
        case .awakenings: return "count"
        case .sleepFragmentationIndex: return "per hour"
        default: return "min"
        }
    }

    /// The metric's value for one night; nil where it is undefined (e.g. SME without sleep).
    /// - Parameter nightStartUTC: the night window's start (local noon), origin of the clock metrics.
    public func value(_ m: NightSummaryMetrics, nightStartUTC: Int64) -> Double? {
        switch self {
        case .timeInBed: return m.timeInBedMinutes
        case .sleepOnset: return m.sleepOnsetUTC.map { Double($0 - nightStartUTC) / 60 }
        case .wakeTime: return m.wakeTimeUTC.map { Double($0 - nightStartUTC) / 60 }
        case .sleepPeriod: return m.sleepPeriodMinutes
        case .totalSleepTime: return m.totalSleepTimeMinutes
        case .sleepOnsetLatency: return m.sleepOnsetLatencyMinutes
        case .wakeAfterSleepOnset: return m.wakeAfterSleepOnsetMinutes
        case .sleepEfficiency: return m.sleepEfficiencyPercent
        case .sleepMaintenanceEfficiency: return m.sleepMaintenanceEfficiencyPercent
        case .awakenings: return Double(m.awakenings)
        case .sleepFragmentationIndex: return m.sleepFragmentationIndexPerHour
        case .light: return m.lightMinutes
        case .deep: return m.deepMinutes
        }
    }
}
