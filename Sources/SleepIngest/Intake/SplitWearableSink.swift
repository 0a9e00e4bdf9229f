import SleepCore

/// The wearable milestone split over the two cores of a reader's pass: the statistics share of
/// ``WearableEpochSink`` (calibration features, the per-epoch axis statistics of the non-wear rule,
/// ActiGraph counts when asked for) runs beside the reader, the metrics share (ENMO, angle-z, MAD:
/// the rolling medians, most of the arithmetic) on a thread of its own (``ThreadedSampleSink``).
/// Before, all of it ran on the worker, which was busy all through a 7-day `.cwa` while the
/// reader's core idled half of the time (measured in docs/performance-engineering.md).
///
/// Both shares see every sample, in order, and filter it the same way, so ``finish()`` returns the
/// sink one ``WearableEpochSink/Role/complete`` sink would have been, bit for bit (tested).
///
/// A reader that parses text is the heavier side instead: a raw CSV's first pass (parse, the
/// per-second accumulator and QC on the reading core) kept that core busy all through while the
/// metrics' core idled a third of the time. There (`statisticsOnWorker`) only the calibration
/// features and counts run beside the reader, and the axis statistics go with the metrics, in the
/// calibrated pass too (whose reader only parses and replays). Everything on the worker, features
/// too, overturns the balance: the worker is then busy throughout and the reader a third idle.
public struct SplitWearableSink: SampleSink {
    var front: WearableEpochSink
    var back: ThreadedSampleSink<WearableEpochSink>
    /// False for a `features` share with neither features nor counts to collect: it is skipped.
    private let frontWorks: Bool

    /// The same parameters as ``WearableEpochSink/init(calibration:collectCalibrationFeatures:activityCounts:role:)``;
    /// `statisticsOnWorker`: the axis statistics on the worker with the metrics; beside the reader
    /// only the calibration features and counts.
    public init(calibration: LinearCalibration? = nil, collectCalibrationFeatures: Bool = false, activityCounts: Bool = false,
                statisticsOnWorker: Bool = false) {
        front = WearableEpochSink(calibration: calibration, collectCalibrationFeatures: collectCalibrationFeatures,
                                  activityCounts: activityCounts, role: statisticsOnWorker ? .features : .statistics)
        back = ThreadedSampleSink(WearableEpochSink(calibration: calibration, role: statisticsOnWorker ? .metricsAndStatistics : .metrics))
        frontWorks = front.hasWork
    }

    /// The reader's share takes each batch of samples as a whole (``WearableEpochSink/add(timestamps:x:y:z:count:)``:
    /// runs of samples in one loop instead of a call per sample) just before the worker gets it:
    /// the same samples in the same order, so the same result.
    @inline(__always)
    public mutating func add(timestamp: Double, x: Double, y: Double, z: Double) {
        back.store(timestamp: timestamp, x: x, y: y, z: z)
        if back.isFull {
            frontTakesOpenBatch()
            back.submit()
        }
    }

    /// The reader's share takes the batch the worker is about to get (when it has work).
    private mutating func frontTakesOpenBatch() {
        guard frontWorks else { return }
        let b = back.openBatch
        front.add(timestamps: b.t, x: b.x, y: b.y, z: b.z, count: b.count)
    }

    /// Temperature readings go to the reader's share (they come a block at a time, in any share's
    /// order; ``WearableEpochSink/merged(statistics:metrics:)`` and ``WearableEpochSink/merged(features:rest:)`` keep them).
    public mutating func addTemperature(timestamp: Double, celsius: Double) {
        front.addTemperature(timestamp: timestamp, celsius: celsius)
    }

    /// Both shares as `original` was; the worker's share through ``ThreadedSampleSink/rewind(to:)``.
    public mutating func rewind(to original: Self) {
        front = original.front
        back.rewind(to: original.back)
    }

    /// Waits for the worker and returns the complete sink. Call once, after the reader has returned.
    public mutating func finish() -> WearableEpochSink {
        frontTakesOpenBatch()
        return front.role == .statistics ? WearableEpochSink.merged(statistics: front, metrics: back.finish())
            : WearableEpochSink.merged(features: front, rest: back.finish())
    }
}
