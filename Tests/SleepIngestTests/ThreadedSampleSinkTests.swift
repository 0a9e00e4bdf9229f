import Foundation
import Testing
import SleepCore
import SleepIngest

@Suite("ThreadedSampleSink")
struct ThreadedSampleSinkTests {
    @Test("the inner sink sees every sample in order: the wearable milestone equals a direct run, bit for bit")
    func equalsDirect() throws {
        var direct = WearableEpochSink()
        var threaded = ThreadedSampleSink(WearableEpochSink())
        var buffer = RawSampleBuffer()
        var threadedBuffer = ThreadedSampleSink(RawSampleBuffer())
        // 3.5 batches of samples at 50 Hz, with a gap, so batch edges fall inside epochs.
        let n = ThreadedSampleSink<WearableEpochSink>.batchSamples * 7 / 2
        for i in 0..<n {
            let t = 1_718_380_800 + Double(i) / 50 + (i > n / 2 ? 120 : 0)
            let x = sin(Double(i) * 0.01), y = cos(Double(i) * 0.013), z = 0.3 * sin(Double(i) * 0.002)
            direct.add(timestamp: t, x: x, y: y, z: z)
            threaded.add(timestamp: t, x: x, y: y, z: z)
            buffer.add(timestamp: t, x: x, y: y, z: z)
            threadedBuffer.add(timestamp: t, x: x, y: y, z: z)
        }
        let a = try direct.finish(), b = try threaded.finish().finish()
        // Bit patterns: the gap's epochs are NaN, which == never equals.
        func bits(_ v: [Float]) -> [UInt32] { v.map(\.bitPattern) }
        func bits(_ v: [[Double]]) -> [[UInt64]] { v.map { $0.map(\.bitPattern) } }
        #expect(a.epochs.count > 0 && a.epochs.sampleCounts.contains(0))
        #expect(a.epochs.startUTC == b.epochs.startUTC && a.epochs.sampleCounts == b.epochs.sampleCounts && a.epochs.nonWear == b.epochs.nonWear)
        #expect(bits(a.epochs.enmo) == bits(b.epochs.enmo) && bits(a.epochs.angleZ) == bits(b.epochs.angleZ) && bits(a.epochs.mad) == bits(b.epochs.mad))
        #expect(a.statistics.counts == b.statistics.counts && bits(a.statistics.mean) == bits(b.statistics.mean)
                && bits(a.statistics.m2) == bits(b.statistics.m2) && bits(a.statistics.minimum) == bits(b.statistics.minimum))
        let copy = threadedBuffer.finish()
        #expect(copy.timestamps == buffer.timestamps && copy.x == buffer.x && copy.z == buffer.z && copy.count == n)
    }

    @Test("the milestone split over two cores (SplitWearableSink, either split) equals one complete sink, bit for bit: epochs, statistics, calibration features, counts",
          arguments: [false, true], [false, true])
    func splitEqualsComplete(calibrated: Bool, statisticsOnWorker: Bool) throws {
        let calibration = calibrated ? LinearCalibration(offset: [0.01, -0.02, 0.005], scale: [1.01, 0.99, 1.002]) : nil
        var whole = WearableEpochSink(calibration: calibration, collectCalibrationFeatures: !calibrated, activityCounts: !calibrated)
        var split = SplitWearableSink(calibration: calibration, collectCalibrationFeatures: !calibrated, activityCounts: !calibrated,
                                      statisticsOnWorker: statisticsOnWorker)
        // 100 Hz over 3.2 batches, with a gap and a sample out of order.
        let n = ThreadedSampleSink<WearableEpochSink>.batchSamples * 16 / 5
        for i in 0..<n {
            var t = 1_718_380_800 + Double(i) / 100 + (i > n / 2 ? 300 : 0)
            if i == 1000 { t -= 0.5 }
            let x = sin(Double(i) * 0.01), y = cos(Double(i) * 0.013), z = 0.3 * sin(Double(i) * 0.002)
            whole.add(timestamp: t, x: x, y: y, z: z)
            split.add(timestamp: t, x: x, y: y, z: z)
        }
        let merged = split.finish()
        let a = try whole.finish(), b = try merged.finish()
        func bits(_ v: [Float]) -> [UInt32] { v.map(\.bitPattern) }
        func bits(_ v: [[Double]]) -> [[UInt64]] { v.map { $0.map(\.bitPattern) } }
        #expect(a.epochs.count > 100 && a.epochs.sampleCounts.contains(0))
        #expect(a.epochs.startUTC == b.epochs.startUTC && a.epochs.sampleCounts == b.epochs.sampleCounts && a.epochs.nonWear == b.epochs.nonWear)
        #expect(bits(a.epochs.enmo) == bits(b.epochs.enmo) && bits(a.epochs.angleZ) == bits(b.epochs.angleZ) && bits(a.epochs.mad) == bits(b.epochs.mad))
        #expect(a.epochs.counts == b.epochs.counts && (a.epochs.counts != nil) == !calibrated)
        #expect(a.statistics.counts == b.statistics.counts && bits(a.statistics.mean) == bits(b.statistics.mean)
                && bits(a.statistics.m2) == bits(b.statistics.m2) && bits(a.statistics.maximum) == bits(b.statistics.maximum))
        #expect(whole.calibrationFeatures == merged.calibrationFeatures && whole.outOfOrderSamples == 1 && merged.outOfOrderSamples == 1)
    }

    @Test("rewound after a reader fed it partway (the fast CSV path giving up), the split milestone equals one fed once: no batch or sample of the first attempt survives")
    func rewindDropsTheFirstAttempt() throws {
        let n = ThreadedSampleSink<WearableEpochSink>.batchSamples * 5 / 2
        func sample(_ i: Int) -> (Double, Double, Double, Double) {
            (1_718_380_800 + Double(i) / 100, sin(Double(i) * 0.01), cos(Double(i) * 0.013), 0.3 * sin(Double(i) * 0.002))
        }
        var once = WearableEpochSink(collectCalibrationFeatures: true)
        for i in 0..<n { let s = sample(i); once.add(timestamp: s.0, x: s.1, y: s.2, z: s.3) }
        let original = SplitWearableSink(collectCalibrationFeatures: true, statisticsOnWorker: true)
        var fed = original
        // More than a batch handed to the worker, and a batch half full, then given up.
        for i in 0..<(n * 3 / 5) { let s = sample(i); fed.add(timestamp: s.0, x: s.1, y: s.2, z: s.3) }
        fed.rewind(to: original)
        for i in 0..<n { let s = sample(i); fed.add(timestamp: s.0, x: s.1, y: s.2, z: s.3) }
        let merged = fed.finish()
        let a = try once.finish(), b = try merged.finish()
        func bits(_ v: [Float]) -> [UInt32] { v.map(\.bitPattern) }
        #expect(a.epochs.count > 100 && a.epochs.sampleCounts == b.epochs.sampleCounts && merged.outOfOrderSamples == 0)
        #expect(bits(a.epochs.enmo) == bits(b.epochs.enmo) && bits(a.epochs.angleZ) == bits(b.epochs.angleZ) && bits(a.epochs.mad) == bits(b.epochs.mad))
        #expect(once.calibrationFeatures == merged.calibrationFeatures && a.statistics.counts == b.statistics.counts)
    }

    @Test("nothing added: finish returns the untouched inner sink")
    func empty() {
        var s = ThreadedSampleSink(RawSampleBuffer())
        #expect(s.finish().count == 0)
    }
}
