import SleepCore
import SleepReport

/// What `sleepsta export` writes: one tidy table, one row per observation.
public enum ExportTable: String, Sendable, CaseIterable {
    /// One row per interval of every stored analysis.
    case intervals
    /// One row per night and parameter set: the night metrics and the parameters.
    case nights
    /// One row per scored epoch of every stored analysis.
    case epochs
    /// One row per run of `run`, `nightly` and `compare` (the `runs` table): `status` is `ok`,
    /// `some-files-failed`, `failed`, `running` (a live run holds the lock) or `interrupted`
    /// (killed: no live process holds the lock, whether or not a later run marked it yet).
    case runs
    /// One row per recording and measure (tidy): its rest-activity rhythm across days (IS, IV,
    /// RA, L5, M10 with their onsets, SRI; scope `recording`) and the mean and SD of each night
    /// metric over its scored nights, all (`AD`), weekday (`WD`) and weekend nights (`WE`), per
    /// stored parameter set.
    case recordings
    /// One row per participant and parameter set (GGIR's person summary): nights, the mean, SD,
    /// weekday and weekend mean of each night metric over the scored nights (`_mn`, `_sd`, `_wd`,
    /// `_we`), sleep onset and wake time in clock hours, and the rhythm of their recordings.
    case participants
    /// One row per sleep period (main, secondary, nap) of every selected analysis.
    case periods
    /// One row per participant day (a night's analysis with stored day minutes): its minutes by class.
    case days
    /// A paper's Table 1, per participant group and night metric: n and mean ± SD over the valid
    /// nights and over the participants' means, after `--min-valid-nights` and `--min-wear-hours`.
    case groups
    /// One row per participant: valid (weekday, weekend) nights, and whether the rule includes it.
    case inclusion
    /// One row per participant or night the rule leaves out, with its reason.
    case exclusions
    /// One row per recording: wear, non-wear, gaps, calibration, clock (GGIR's data quality report).
    case quality

    /// The header. These names are a public contract (scripts depend on them): add columns at
    /// the end, never rename or remove one.
    public var columns: [String] {
        switch self {
        case .intervals:
            return ["night", "start", "end", "interval_seconds", "movement_sum", "movement_per_minute", "coverage_seconds",
                    "legacy_movement_sum", "state", "phase", "metric", "algorithm", "parameters_key",
                    "analysis_id", "method", "movement_unit"]
        case .nights:
            return ["night", "night_date", "recording", "time_zone", "status", "in_bed_start", "in_bed_end", "sleep_onset",
                    "wake_time", "time_in_bed_min", "sleep_period_min", "total_sleep_time_min", "sleep_onset_latency_min",
                    "waso_min", "sleep_efficiency_pct", "sleep_maintenance_efficiency_pct", "awakenings", "sfi_per_hour",
                    "light_min", "deep_min", "coverage_seconds", "source_resolution_seconds",
                    "interval_seconds", "metric", "algorithm", "parameters_key", "epoch_seconds", "wake_threshold_factor", "wake_threshold", "persistent_sleep_min",
                    "deep_quantile", "min_coverage_seconds", "time_zone_source", "analysis_id", "method", "scored_per",
                    "no_data_in_sleep_period_min", "not_worn_in_sleep_period_min", "flags", "mean_lux_sleep", "mean_lux_hour_before"]
        case .epochs:
            return ["night", "start", "end", "epoch_seconds", "activity", "state", "interval_seconds", "metric", "algorithm",
                    "parameters_key", "analysis_id", "method", "activity_unit"]
        case .recordings:
            return ["recording", "format", "kind", "days", "measure", "scope", "value", "sd", "n", "unit", "source", "parameters_key"]
        case .participants:
            var columns = ["participant", "group", "recordings", "nights", "nights_scored"]
            for name in NightMetricAverages.metrics.map(\.name) + ["sleep_onset_hours", "wake_time_hours"] {
                columns += ["\(name)_mn", "\(name)_sd", "\(name)_wd", "\(name)_we"]
            }
            return columns + ["interdaily_stability", "intradaily_variability", "sleep_regularity_index", "parameters_key",
                               "nights_insufficient_data"]
        case .periods:
            return DayExportCSV.periodColumns
        case .days:
            return DayExportCSV.dayColumns
        case .groups, .inclusion, .exclusions, .quality:
            return StudyExportCSV.columns(StudyExportCSV.Table(rawValue: rawValue)!)
        case .runs:
            return ["run", "started_utc", "finished_utc", "tool_version", "command", "status", "files_seen", "files_ingested",
                    "files_unchanged", "files_failed", "parameters_json", "parameters_changed"]
        }
    }
}
