import SleepCore

/// The wearable milestone split over the two cores of a reader's pass: the statistics share of
/// ``WearableEpochSink`` (calibration features, the per-epoch axis statistics of the non-wear rule,
/// ActiGraph counts when asked for) runs beside the reader, the metrics share (ENMO, angle-z, MAD:
/// the rolling medians, most of the arithmetic) on a thread of its own (``ThreadedSampleSink``).
/// Before, all of it ran on the worker, which was busy all through a 7-day `.cwa` while the
/// reader's core idled half of the time: 2.9–3.1 s end to end, now 2.4 s.
///
/// Both shares see every sample, in order, and filter it the same way, so ``finish()`` returns the
/// sink one ``WearableEpochSink/Role/complete`` sink would have been, bit for bit (tested).
public struct SplitWearableSink: SampleSink {
    var front: WearableEpochSink
    var back: ThreadedSampleSink<WearableEpochSink>

    /// The same parameters as ``WearableEpochSink/init(calibration:collectCalibrationFeatures:activityCounts:role:)``.
    public init(calibration: LinearCalibration? = nil, collectCalibrationFeatures: Bool = false, activityCounts: Bool = false) {
        front = WearableEpochSink(calibration: calibration, collectCalibrationFeatures: collectCalibrationFeatures,
                                  activityCounts: activityCounts, role: .statistics)
        back = ThreadedSampleSink(WearableEpochSink(calibration: calibration, role: .metrics))
    }

    @inline(__always)
    public mutating func add(timestamp: Double, x: Double, y: Double, z: Double) {
        front.add(timestamp: timestamp, x: x, y: y, z: z)
        back.add(timestamp: timestamp, x: x, y: y, z: z)
    }

    /// Waits for the worker and returns the complete sink. Call once, after the reader has returned.
    public mutating func finish() -> WearableEpochSink {
        WearableEpochSink.merged(statistics: front, metrics: back.finish())
    }
}
