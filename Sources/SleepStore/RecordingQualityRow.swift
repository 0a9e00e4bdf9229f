import GRDB
import SleepCore

/// A recording's ``QualitySummary`` as its `recording_quality` row: one typed column per fact
/// (migration v9-recording-quality), so that a renamed fact is a schema change a migration must
/// carry, not a JSON key that silently stops being read. NULL = not measured.
struct RecordingQualityRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "recording_quality"

    var recordingID: Int64
    var sampleCount: Int
    var effectiveSampleRateHz: Double
    var coveredSeconds: Int
    var spanSeconds: Int
    var gapCount: Int
    var gapTotalSeconds: Int
    var longestGapSeconds: Int
    var duplicateTimestamps: Int
    var nominalSampleRateHz: Double?
    var sampleRateDriftPercent: Double?
    var hourlyRateMinHz: Double?
    var hourlyRateMaxHz: Double?
    var backwardTimestampsKept: Int?
    var backwardSamplesDropped: Int?
    var deviceRangeG: Double?
    var clippedSamples: Int?
    var idleSleepSecondsFilled: Int?
    var skippedBlocks: Int?
    var stillPeriods: Int?
    var stillSeconds: Int?
    var longestStillSeconds: Int?
    var calibration: String?
    var calibrationErrorBeforeMilliG: Double?
    var calibrationErrorAfterMilliG: Double?
    var calibrationOffsetGX: Double?
    var calibrationOffsetGY: Double?
    var calibrationOffsetGZ: Double?
    var calibrationScaleX: Double?
    var calibrationScaleY: Double?
    var calibrationScaleZ: Double?
    var activityCounts: String?
    var wearableEpochs: Int?
    var nonWearSeconds: Int?
    var nonWearPeriods: Int?

    enum CodingKeys: String, CodingKey {
        case recordingID = "recording_id"
        case sampleCount = "sample_count"
        case effectiveSampleRateHz = "effective_sample_rate_hz"
        case coveredSeconds = "covered_seconds"
        case spanSeconds = "span_seconds"
        case gapCount = "gap_count"
        case gapTotalSeconds = "gap_total_seconds"
        case longestGapSeconds = "longest_gap_seconds"
        case duplicateTimestamps = "duplicate_timestamps"
        case nominalSampleRateHz = "nominal_sample_rate_hz"
        case sampleRateDriftPercent = "sample_rate_drift_percent"
        case hourlyRateMinHz = "hourly_rate_min_hz"
        case hourlyRateMaxHz = "hourly_rate_max_hz"
        case backwardTimestampsKept = "backward_timestamps_kept"
        case backwardSamplesDropped = "backward_samples_dropped"
        case deviceRangeG = "device_range_g"
        case clippedSamples = "clipped_samples"
        case idleSleepSecondsFilled = "idle_sleep_seconds_filled"
        case skippedBlocks = "skipped_blocks"
        case stillPeriods = "still_periods"
        case stillSeconds = "still_seconds"
        case longestStillSeconds = "longest_still_seconds"
        case calibration = "calibration"
        case calibrationErrorBeforeMilliG = "calibration_error_before_mg"
        case calibrationErrorAfterMilliG = "calibration_error_after_mg"
        case calibrationOffsetGX = "calibration_offset_g_x"
        case calibrationOffsetGY = "calibration_offset_g_y"
        case calibrationOffsetGZ = "calibration_offset_g_z"
        case calibrationScaleX = "calibration_scale_x"
        case calibrationScaleY = "calibration_scale_y"
        case calibrationScaleZ = "calibration_scale_z"
        case activityCounts = "activity_counts"
        case wearableEpochs = "wearable_epochs"
        case nonWearSeconds = "non_wear_seconds"
        case nonWearPeriods = "non_wear_periods"
    }

    init(recordingID: Int64, _ q: QualitySummary) {
        self.recordingID = recordingID
        sampleCount = q.sampleCount
        effectiveSampleRateHz = q.effectiveSampleRateHz
        coveredSeconds = q.coveredSeconds
        spanSeconds = q.spanSeconds
        gapCount = q.gapCount
        gapTotalSeconds = q.gapTotalSeconds
        longestGapSeconds = q.longestGapSeconds
        duplicateTimestamps = q.duplicateTimestamps
        nominalSampleRateHz = q.nominalSampleRateHz
        sampleRateDriftPercent = q.sampleRateDriftPercent
        hourlyRateMinHz = q.hourlyRateMinHz
        hourlyRateMaxHz = q.hourlyRateMaxHz
        backwardTimestampsKept = q.backwardTimestampsKept
        backwardSamplesDropped = q.backwardSamplesDropped
        deviceRangeG = q.deviceRangeG
        clippedSamples = q.clippedSamples
        idleSleepSecondsFilled = q.idleSleepSecondsFilled
        skippedBlocks = q.skippedBlocks
        stillPeriods = q.stillPeriods
        stillSeconds = q.stillSeconds
        longestStillSeconds = q.longestStillSeconds
        calibration = q.calibration
        calibrationErrorBeforeMilliG = q.calibrationErrorBeforeMilliG
        calibrationErrorAfterMilliG = q.calibrationErrorAfterMilliG
        calibrationOffsetGX = q.calibrationOffsetG.flatMap { $0.count == 3 ? $0[0] : nil }
        calibrationOffsetGY = q.calibrationOffsetG.flatMap { $0.count == 3 ? $0[1] : nil }
        calibrationOffsetGZ = q.calibrationOffsetG.flatMap { $0.count == 3 ? $0[2] : nil }
        calibrationScaleX = q.calibrationScale.flatMap { $0.count == 3 ? $0[0] : nil }
        calibrationScaleY = q.calibrationScale.flatMap { $0.count == 3 ? $0[1] : nil }
        calibrationScaleZ = q.calibrationScale.flatMap { $0.count == 3 ? $0[2] : nil }
        activityCounts = q.activityCounts
        wearableEpochs = q.wearableEpochs
        nonWearSeconds = q.nonWearSeconds
        nonWearPeriods = q.nonWearPeriods
    }

    var summary: QualitySummary {
        var q = QualitySummary()
        q.sampleCount = sampleCount
        q.effectiveSampleRateHz = effectiveSampleRateHz
        q.coveredSeconds = coveredSeconds
        q.spanSeconds = spanSeconds
        q.gapCount = gapCount
        q.gapTotalSeconds = gapTotalSeconds
        q.longestGapSeconds = longestGapSeconds
        q.duplicateTimestamps = duplicateTimestamps
        q.nominalSampleRateHz = nominalSampleRateHz
        q.sampleRateDriftPercent = sampleRateDriftPercent
        q.hourlyRateMinHz = hourlyRateMinHz
        q.hourlyRateMaxHz = hourlyRateMaxHz
        q.backwardTimestampsKept = backwardTimestampsKept
        q.backwardSamplesDropped = backwardSamplesDropped
        q.deviceRangeG = deviceRangeG
        q.clippedSamples = clippedSamples
        q.idleSleepSecondsFilled = idleSleepSecondsFilled
        q.skippedBlocks = skippedBlocks
        q.stillPeriods = stillPeriods
        q.stillSeconds = stillSeconds
        q.longestStillSeconds = longestStillSeconds
        q.calibration = calibration
        q.calibrationErrorBeforeMilliG = calibrationErrorBeforeMilliG
        q.calibrationErrorAfterMilliG = calibrationErrorAfterMilliG
        q.calibrationOffsetG = [calibrationOffsetGX, calibrationOffsetGY, calibrationOffsetGZ].allSatisfy { $0 != nil } ? [calibrationOffsetGX, calibrationOffsetGY, calibrationOffsetGZ].map { $0! } : nil
        q.calibrationScale = [calibrationScaleX, calibrationScaleY, calibrationScaleZ].allSatisfy { $0 != nil } ? [calibrationScaleX, calibrationScaleY, calibrationScaleZ].map { $0! } : nil
        q.activityCounts = activityCounts
        q.wearableEpochs = wearableEpochs
        q.nonWearSeconds = nonWearSeconds
        q.nonWearPeriods = nonWearPeriods
        return q
    }
}
