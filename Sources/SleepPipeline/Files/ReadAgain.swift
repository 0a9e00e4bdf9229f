import SleepCore
import SleepStore

/// Why a stored recording must be read again although its bytes are unchanged: this run's options
/// change what its read made. Asked twice with the same answer: on the stat fast path (before any
/// hashing) and after the content hash found the recording.
package enum ReadAgain: Equatable {
    /// `--kind` other than the stored kind (raw samples only: an epoch file is always one).
    case kind
    /// A counts-based `--sleep-algorithm` over a wearable stored without ActiGraph counts.
    case counts
    /// `--method ggir` over a wearable whose stored nights lack GGIR's 2023 non-wear scores.
    case ggirScores
    /// `--tz` other than the zone that placed a recording whose file states none. A file that
    /// states its zone keeps it whatever `--tz` says (``ZoneChoice``), so it is never read again
    /// for `--tz`. The file is read again rather than the stored series re-cut: a device clock
    /// without a zone was converted to UTC with the old zone's offset.
    case zone(was: String)

    static func reason(_ stored: StoredReadFacts, configuration c: PipelineConfiguration, isSamples: Bool) -> ReadAgain? {
        if isSamples, let kind = c.kindOverride, kind != stored.kind { return .kind }
        if isSamples, c.needsActivityCounts, stored.kind == .wearable24h, !stored.activityCountsAttempted { return .counts }
        if isSamples, methodNeedsGGIRScores(kind: stored.kind, configuration: c), stored.milestoneOutdated { return .ggirScores }
        if let tz = c.timeZoneIdentifier, stored.timeZoneSource != .data, stored.timeZone != tz {
            return .zone(was: stored.timeZoneSource == .assumedUTC
                ? "UTC (assumed: no zone in the file, no --tz)" : "\(stored.timeZone ?? "UTC") (\(stored.timeZoneSource.rawValue))")
        }
        return nil
    }

    /// Whether the method this run gives a recording of `kind`
    /// reads GGIR's 2023 non-wear scores from the stored milestone (``NightInputs/ggirNonWearScores``).
    static func methodNeedsGGIRScores(kind: RecordingKind, configuration c: PipelineConfiguration) -> Bool {
        NightAnalysisMethods.method(for: kind, parameters: c.parameters).inputs.contains(.ggirNonWearScores)
    }
}
