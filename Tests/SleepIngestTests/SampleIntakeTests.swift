import Foundation
import Testing
import SleepCore
import SleepIngest

@Suite("Sample intake and quality facts")
struct SampleIntakeTests {
    @Test("timestamps going back: same second kept, ≤ 1 s dropped, more refused, implausible times refused")
    func backwards() throws {
        var intake = SampleIntake(sink: DiscardingSampleSink())
        try intake.add(timestamp: 100.5, x: 0, y: 0, z: 1)
        try intake.add(timestamp: 100.2, x: 0, y: 0, z: 1)     // same second: kept
        try intake.add(timestamp: 101.1, x: 0, y: 0, z: 1)
        try intake.add(timestamp: 100.9, x: 0, y: 0, z: 1)     // 0.2 s back into second 100: dropped
        #expect(throws: SampleIntake<DiscardingSampleSink>.Rejection.self) { try intake.add(timestamp: 99.0, x: 0, y: 0, z: 1) }
        #expect(throws: SampleIntake<DiscardingSampleSink>.Rejection.self) { try intake.add(timestamp: .nan, x: 0, y: 0, z: 1) }
        #expect(throws: SampleIntake<DiscardingSampleSink>.Rejection.self) { try intake.add(timestamp: 1e12, x: 0, y: 0, z: 1) }
        let (series, q) = intake.finish()
        #expect(series.sampleCounts == [2, 1])
        #expect(q.backwardTimestampsKept == 1 && q.backwardSamplesDropped == 1)
        #expect(intake.warnings(q).count == 2)
    }

    @Test("clipping counts samples within 0.5 g of the device range; without a range it is not assessed")
    func clipping() throws {
        var intake = SampleIntake(sink: DiscardingSampleSink(), deviceRangeG: 8)
        for (k, x) in [0.1, 7.4, 7.5, -7.9, 8.0].enumerated() { try intake.add(timestamp: 10 + Double(k) * 0.1, x: x, y: 0, z: 1) }
        #expect(intake.finish(deviceRangeG: 8).1.clippedSamples == 3)
        var unknown = SampleIntake(sink: DiscardingSampleSink())
        try unknown.add(timestamp: 1, x: 9, y: 0, z: 0)
        #expect(unknown.finish().1.clippedSamples == nil)
    }

    @Test("still periods: ≥ 4 still 15-min blocks; a moving block ends a run; seconds are counted to the last sample")
    func stillness() throws {
        var intake = SampleIntake(sink: DiscardingSampleSink())
        var noise: UInt64 = 3
        func n() -> Double { noise = noise &* 6364136223846793005 &+ 1; return Double(noise >> 40) / Double(1 << 24) * 0.004 - 0.002 }
        // 1 Hz: 70 min still, 15 min moving, 50 min still (50 < 60 min: not a period), then 40 s still.
        var t = 1_000_000.0
        func add(_ seconds: Int, moving: Bool) throws {
            for k in 0..<seconds {
                let m = moving ? (k % 2 == 0 ? 0.3 : -0.3) : 0
                // Movement on every axis: GGIR calls a block still when 2 of its 3 axes are.
                try intake.add(timestamp: t, x: n() + m, y: n() - m, z: 1 + n() + m); t += 1
            }
        }
        try add(70 * 60, moving: false)
        try add(15 * 60, moving: true)
        try add(50 * 60 + 40, moving: false)
        let q = intake.finish().1
        // 70 still minutes fill blocks 1-4 (60 min); block 5 mixes 10 still and 5 moving minutes.
        #expect(q.stillPeriods == 1)
        #expect(q.stillSeconds == 3600 && q.longestStillSeconds == 3600)
    }

    @Test("sample-rate facts: nominal from the header, drift of the effective rate, hourly spread")
    func rates() throws {
        var intake = SampleIntake(sink: DiscardingSampleSink())
        // 2 h at 100.5 Hz against a stated 100 Hz.
        let n = Int(7200 * 100.5)
        for i in 0..<n { try intake.add(timestamp: 3600 * 100 + Double(i) / 100.5, x: 0, y: 0, z: 1) }
        let q = intake.finish(nominalSampleRateHz: 100).1
        #expect(q.nominalSampleRateHz == 100)
        let drift = try #require(q.sampleRateDriftPercent)
        #expect(abs(drift - 0.5) < 0.01, "\(drift)")
        #expect(abs((q.hourlyRateMinHz ?? 0) - 100.5) < 0.01 && abs((q.hourlyRateMaxHz ?? 0) - 100.5) < 0.01)
        // Without a stated rate the median samples per second stands in.
        var phone = SampleIntake(sink: DiscardingSampleSink())
        for i in 0..<600 { try phone.add(timestamp: 50 + Double(i) / 10, x: 0, y: 0, z: 0) }
        let short = phone.finish().1
        #expect(short.nominalSampleRateHz == 10)
        // A minute of samples: one second more or less reads as percents. No drift below 10 minutes.
        #expect(short.sampleRateDriftPercent == nil && QualitySummary.minimumDriftSeconds == 600)
    }
}
