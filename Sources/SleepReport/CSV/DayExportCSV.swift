import SleepCore
import SleepStore

/// `sleepsta export --what periods` (one row per sleep period of a stored analysis) and `--what
/// days` (one row per participant day, i.e. per night's analysis with stored day minutes): the
/// headers and the rows, formatted as the other exports are (``CSVFormat``; times as the nights
/// export writes them, ``CSVFormat/time(_:timeline:)``). Column meanings: docs/exports.md.
public enum DayExportCSV {
    /// The periods header (a public contract: add columns at the end, never rename or remove one).
    public static let periodColumns = [
        "participant", "recording", "night", "night_date", "period", "kind", "in_bed_start", "in_bed_end", "sleep_onset", "wake_time",
        "sleep_period_min", "total_sleep_time_min", "waso_min", "awakenings", "sleep_efficiency_pct", "source", "method",
        "parameters_key", "analysis_id",
    ]

    /// The days header (a public contract, as ``periodColumns``).
    public static let dayColumns = [
        "participant", "recording", "date", "valid_wear_min", "sleep_main_min", "sleep_secondary_min", "nap_count", "nap_min",
        "awake_min", "not_worn_min", "no_data_min", "included", "excluded_reason", "not_worn_temperature_min", "not_worn_still_min",
        "not_worn_no_movement_min", "day_minutes", "method", "parameters_key", "analysis_id", "night",
    ]

    public static func periodFields(_ r: SleepPeriodExportRow, participant: Participant) -> [String] {
        let a = r.analysis, p = r.sleepPeriod, timeline = a.night.timeline
        return [PrintableText.escaped(participant.id), a.night.recordingPath, a.night.nightID, a.night.date.description, String(r.period),
                p.kind.rawValue, CSVFormat.time(p.inBedStartUTC, timeline: timeline), CSVFormat.time(p.inBedEndUTC, timeline: timeline),
                CSVFormat.time(p.sleepOnsetUTC, timeline: timeline), CSVFormat.time(p.wakeTimeUTC, timeline: timeline),
                CSVFormat.number(p.sleepPeriodMinutes), CSVFormat.number(p.totalSleepTimeMinutes), CSVFormat.number(p.wasoMinutes),
                String(p.awakenings), CSVFormat.number(p.sleepEfficiencyPercent), p.source.rawValue, a.night.kind.rawValue,
                a.parametersKey, String(a.analysisID)]
    }

    public static func dayFields(_ r: DayExportRow, participant: Participant) -> [String] {
        let a = r.analysis, d = r.account, m = d.minutes
        return [PrintableText.escaped(participant.id), a.night.recordingPath, a.night.date.description, String(d.validWearMinutes),
                String(m.minutes(.sleepMain)), String(m.minutes(.sleepSecondary)), String(d.napCount), String(m.minutes(.nap)),
                String(m.minutes(.awake)), String(d.notWornMinutes), String(m.minutes(.noData)), d.included ? "true" : "false",
                d.excludedReason ?? "", String(m.minutes(.notWornTemperature)), String(m.minutes(.notWornStill)),
                String(m.minutes(.notWornNoMovement)), String(m.classes.count), a.night.kind.rawValue, a.parametersKey,
                String(a.analysisID), a.night.nightID]
    }

    /// Writes the periods (`days` false) or days export of `analyses` to `out` (whole or not at all);
    /// `participant` maps a recording path to its participant.
    /// - Returns: the number of data rows written.
    public static func write(_ snapshot: ExportSnapshot, analyses: [AnalysisExportEntry], days: Bool,
                             participant: (String) -> Participant, to out: CSVOutput) throws -> Int {
        return try out.whole {
            var rows = 0
            try out.write(CSVFormat.line(days ? dayColumns : periodColumns))
            if days {
                try snapshot.days(analyses) { r in
                    try out.write(CSVFormat.line(dayFields(r, participant: participant(r.analysis.night.recordingPath)))); rows += 1
                }
            } else {
                try snapshot.sleepPeriods(analyses) { r in
                    try out.write(CSVFormat.line(periodFields(r, participant: participant(r.analysis.night.recordingPath)))); rows += 1
                }
            }
            return rows
        }
    }
}
