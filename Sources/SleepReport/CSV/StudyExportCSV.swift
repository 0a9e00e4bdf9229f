import SleepCore
import SleepStore

/// The study exports: `--what groups` (a paper's Table 1, ``StudyTable``), `--what inclusion`
/// (every participant's valid weekday and weekend nights and whether the inclusion rule keeps
/// them), `--what exclusions` (every excluded participant and night with its reason) and
/// `--what quality` (one row per recording, after GGIR's data_quality_report). Column meanings:
/// docs/exports.md.
public enum StudyExportCSV {
    public enum Table: String, Sendable { case groups, inclusion, exclusions, quality }

    /// The headers (a public contract: add columns at the end, never rename or remove one).
    public static func columns(_ table: Table) -> [String] {
        switch table {
        case .groups:
            return ["group", "participants", "nights", "metric", "unit", "nights_mean", "nights_sd", "participants_mean", "participants_sd",
                    "min_valid_nights", "min_wear_hours", "parameters_key"]
        case .inclusion:
            return ["participant", "group", "nights", "valid_nights", "valid_weekday_nights", "valid_weekend_nights", "included",
                    "excluded_reason", "parameters_key"]
        case .exclusions:
            return ["participant", "group", "level", "night", "night_date", "recording", "reason", "parameters_key"]
        case .quality:
            return ["recording", "format", "kind", "span_hours", "wear_hours", "non_wear_hours", "nights", "valid_nights", "gap_count",
                    "gap_total_min", "longest_gap_min", "calibration", "calibration_error_before_mg", "calibration_error_after_mg",
                    "sample_rate_drift_percent", "clipped_samples", "time_zone_source", "clock_notes", "warnings"]
        }
    }

    /// The study nights of `analyses`, by parameters key (one table per parameter set).
    public static func studyNights(_ analyses: [AnalysisExportEntry], participant: (String) -> Participant) -> [String: [StudyNight]] {
        Dictionary(grouping: analyses.map { a in
            StudyNight.stored(participant: participant(a.night.recordingPath), nightID: a.night.nightID, date: a.night.date,
                              recordingPath: a.night.recordingPath, status: a.status, coverageSeconds: a.night.coverageSeconds,
                              metrics: a.metrics, parametersKey: a.parametersKey)
        }, by: \.parametersKey)
    }

    /// The data rows of `table` from one study table (groups, inclusion, exclusions).
    public static func rows(_ table: Table, _ t: StudyTable, key: String) -> [[String]] {
        let rule = [String(t.rule.minValidNights), CSVFormat.number(t.rule.minWearHours)]
        switch table {
        case .groups:
            return t.groups.flatMap { g in
                g.statistics.map { s in
                    [PrintableText.escaped(g.name), String(g.participants), String(g.nights), s.metric, s.unit,
                     CSVFormat.number(s.nights.mean), CSVFormat.number(s.nights.sd), CSVFormat.number(s.participants.mean),
                     CSVFormat.number(s.participants.sd)] + rule + [key]
                }
            }
        case .inclusion:
            return t.participants.map { p in
                [PrintableText.escaped(p.participant.id), PrintableText.escaped(p.group), String(p.nights), String(p.validNights),
                 String(p.validWeekdayNights), String(p.validWeekendNights), p.included ? "true" : "false", p.reason ?? "", key]
            }
        case .exclusions:
            return t.exclusions.map { e in
                [PrintableText.escaped(e.participant.id), PrintableText.escaped(e.group), e.nightID == nil ? "participant" : "night",
                 e.nightID ?? "", e.date?.description ?? "", e.recordingPath.map(PrintableText.escaped) ?? "", e.reason, key]
            }
        case .quality:
            return []
        }
    }

    /// One quality row of a recording; `nights` are its analyses' study nights.
    public static func qualityRow(_ r: StoredRecording, nights: [StudyNight], rule: InclusionRule) -> [String] {
        let q = r.quality
        let nonWear = q.nonWearSeconds.map { Double($0) / 3600 }
        let wear = Double(q.coveredSeconds) / 3600 - (nonWear ?? 0)
        let valid = nights.filter { StudyTable.nightExclusion($0, rule: rule) == nil }.count
        return [PrintableText.escaped(r.path), r.format.rawValue, r.kind.rawValue, CSVFormat.number(Double(q.spanSeconds) / 3600),
                CSVFormat.number(max(0, wear)), CSVFormat.number(nonWear), String(nights.count), String(valid), String(q.gapCount),
                CSVFormat.number(Double(q.gapTotalSeconds) / 60), CSVFormat.number(Double(q.longestGapSeconds) / 60),
                q.calibration.map(PrintableText.escaped) ?? "", CSVFormat.number(q.calibrationErrorBeforeMilliG),
                CSVFormat.number(q.calibrationErrorAfterMilliG), CSVFormat.number(q.sampleRateDriftPercent), CSVFormat.number(q.clippedSamples),
                r.timeZoneSource.rawValue, clockNotes(r).joined(separator: ";"),
                r.warnings.map(PrintableText.escaped).joined(separator: " | ")]
    }

    /// Short codes for what the store knows of a recording's clock (docs/exports.md).
    public static func clockNotes(_ r: StoredRecording) -> [String] {
        var notes: [String] = []
        if r.timeZoneSource == .assumedUTC { notes.append("time-zone-assumed-utc") }
        if let drift = r.quality.sampleRateDriftPercent, abs(drift) >= 1 { notes.append("sample-rate-drift") }
        if (r.quality.backwardTimestampsKept ?? 0) > 0 || (r.quality.backwardSamplesDropped ?? 0) > 0 { notes.append("backward-timestamps") }
        if r.quality.duplicateTimestamps > 0 { notes.append("duplicate-timestamps") }
        if (r.quality.idleSleepSecondsFilled ?? 0) > 0 { notes.append("idle-sleep-filled") }
        return notes
    }

    /// Writes `table` of `analyses` to `out` (whole or not at all): one study table per parameters key.
    /// - Returns: the number of data rows written.
    public static func write(_ table: Table, _ snapshot: ExportSnapshot, analyses: [AnalysisExportEntry], rule: InclusionRule,
                             participant: (String) -> Participant, unreadable: @escaping (String) -> Void, to out: CSVOutput) throws -> Int {
        return try out.whole {
            var rows = 0
            try out.write(CSVFormat.line(columns(table)))
            let byKey = studyNights(analyses, participant: participant)
            if table == .quality {
                let byRecording = Dictionary(grouping: byKey.values.flatMap { $0 }, by: \.recordingPath)
                for item in try snapshot.recordingsWithRhythm(unreadable: unreadable) {
                    try out.write(CSVFormat.line(qualityRow(item.recording, nights: byRecording[item.recording.path] ?? [], rule: rule))); rows += 1
                }
            } else {
                for key in byKey.keys.sorted() {
                    for fields in Self.rows(table, StudyTable.compute(byKey[key]!, rule: rule), key: key) {
                        try out.write(CSVFormat.line(fields)); rows += 1
                    }
                }
            }
            return rows
        }
    }
}
