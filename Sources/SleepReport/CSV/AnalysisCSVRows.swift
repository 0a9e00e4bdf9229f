import SleepCore
import SleepStore

/// The rows of the nights, intervals and epochs exports (`sleepsta export`, docs/exports.md), one
/// stored analysis's fields each, times written as ``CSVFormat/time(_:timeline:)`` writes them
/// (ISO 8601 with the night's UTC offset), as the periods and days exports do (``DayExportCSV``).
public enum AnalysisCSVRows {
    /// The exports written one analysis at a time.
    public enum Table: Sendable { case nights, intervals, epochs }

    /// An analysis's CSV lines of `table`: one for the night, one per interval or scored epoch.
    /// `overlapping`: the analyses whose sleep period overlaps another recording's of the same
    /// participant (``overlappingAnalyses(_:participant:)``), flagged in the nights rows.
    public static func lines(_ table: Table, _ a: AnalysisExportEntry, snapshot: ExportSnapshot, overlapping: Set<Int64> = []) throws -> [String] {
        switch table {
        case .nights: return [CSVFormat.line(nightFields(a, overlapsOtherRecording: overlapping.contains(a.analysisID)))]
        case .intervals: return try snapshot.intervals(analysisID: a.analysisID).map { CSVFormat.line(intervalFields($0, a)) }
        case .epochs: return try snapshot.epochs(analysisID: a.analysisID).map { CSVFormat.line(epochFields($0.epoch, seconds: $0.seconds, a)) }
        }
    }

    /// The zone's name, also for nights stored before every recording had one: the offsets the
    /// file stated, or UTC where nothing stated a zone.
    public static func zoneName(_ a: AnalysisExportEntry) -> String {
        a.night.timeZone ?? (a.night.timeZoneSource == .assumedUTC ? "UTC" : a.night.timeline.offsetsName())
    }

    public static func time(_ utc: Int64?, _ a: AnalysisExportEntry) -> String {
        CSVFormat.time(utc, timeline: a.night.timeline)
    }

    /// The analysis a row belongs to: `interval_seconds` (the analysis's interval length),
    /// `metric` (what the method scored: ``MethodLabels``), `algorithm`, `parameters_key`.
    public static func parameterFields(_ a: AnalysisExportEntry) -> [String] {
        [String(a.parameters.interval.seconds), a.labels.metric, a.algorithm, a.parametersKey]
    }

    public static func intervalFields(_ iv: AnalyzedInterval, _ a: AnalysisExportEntry) -> [String] {
        let m = iv.movement
        return [a.night.nightID, time(m.startUTC, a), time(m.endUTC, a), String(m.durationSeconds), CSVFormat.number(m.movementSum),
                CSVFormat.number(m.movementPerMinute), String(m.coverageSeconds), CSVFormat.number(m.legacyMovementSum),
                iv.state.map { String($0.letter) } ?? "", iv.phase?.rawValue ?? ""] + parameterFields(a).dropFirst()
            + [String(a.analysisID), a.night.kind.rawValue, a.labels.movementUnit]
    }

    public static func epochFields(_ e: ScoredEpoch, seconds: Int, _ a: AnalysisExportEntry) -> [String] {
        [a.night.nightID, time(e.startUTC, a), time(e.startUTC + Int64(seconds), a), String(seconds), CSVFormat.number(e.activity),
         e.state.map { String($0.letter) } ?? ""] + parameterFields(a)
            + [String(a.analysisID), a.night.kind.rawValue, a.labels.activityUnit]
    }

    /// The analyses among `analyses` whose scored sleep period overlaps that of a night of another
    /// recording of the same participant (``SleepPeriodOverlap``).
    public static func overlappingAnalyses(_ analyses: [AnalysisExportEntry], participant: (String) -> Participant) -> Set<Int64> {
        let periods = analyses.compactMap { a -> SleepPeriodOverlap.Period? in
            guard a.status == "scored", let onset = a.metrics?.sleepOnsetUTC, let wake = a.metrics?.wakeTimeUTC else { return nil }
            let path = a.night.recordingPath
            return SleepPeriodOverlap.Period(id: a.analysisID, participant: participant(path).id, recording: path, onsetUTC: onset, wakeUTC: wake)
        }
        return SleepPeriodOverlap.overlapping(periods)
    }

    public static func nightFields(_ a: AnalysisExportEntry, overlapsOtherRecording: Bool = false) -> [String] {
        let m = a.metrics
        let p = a.parameters
        let phone = a.night.kind == .phoneInBed
        // The scoring epoch and the wake-threshold factor of the method that ran: the phone's
        // Oakley epochs and factor; a wearable's or an epoch file's own epochs, no factor for wearables.
        let epochSeconds = phone ? String(p.epochSeconds) : (m?.resolutionSeconds).map(String.init) ?? ""
        let factor = a.night.kind == .wearable24h ? "" : CSVFormat.number(p.wakeThresholdFactor)
        return [a.night.nightID, a.night.date.description, a.night.recordingPath, zoneName(a), a.status,
                time(m?.inBedStartUTC, a), time(m?.inBedEndUTC, a), time(m?.sleepOnsetUTC, a), time(m?.wakeTimeUTC, a),
                CSVFormat.number(m?.timeInBedMinutes), CSVFormat.number(m?.sleepPeriodMinutes), CSVFormat.number(m?.totalSleepTimeMinutes),
                CSVFormat.number(m?.sleepOnsetLatencyMinutes), CSVFormat.number(m?.wakeAfterSleepOnsetMinutes),
                CSVFormat.number(m?.sleepEfficiencyPercent), CSVFormat.number(m?.sleepMaintenanceEfficiencyPercent),
                CSVFormat.number(m?.awakenings), CSVFormat.number(m?.sleepFragmentationIndexPerHour),
                CSVFormat.number(m?.lightMinutes), CSVFormat.number(m?.deepMinutes),
                String(a.night.coverageSeconds), String(a.night.sourceResolutionSeconds)]
            + parameterFields(a)
            + [epochSeconds, factor, CSVFormat.number(a.wakeThreshold),
               String(p.persistentSleepMinutes), CSVFormat.number(p.deepQuantile), String(p.minimumCoverageSeconds),
               a.night.timeZoneSource.rawValue, String(a.analysisID), a.night.kind.rawValue, a.labels.scoredPer,
               CSVFormat.number(m?.noDataInSleepPeriodMinutes), CSVFormat.number(m?.notWornInSleepPeriodMinutes),
               NightFlag.column(a.notes, kind: a.night.kind, overlapsOtherRecording: overlapsOtherRecording),
               CSVFormat.number(a.epochFile?.light?.meanLuxSleepPeriod), CSVFormat.number(a.epochFile?.light?.meanLuxHourBefore)]
    }
}
