import Testing
import SleepCore

@Suite("Per-second accumulator")
struct AccumulatorTests {
    @Test("per-second movement is the mean of (|x|+|y|+|z|)/3 over the second's samples")
    func meanPerSecond() throws {
        var acc = SecondAccumulator()
        try acc.add(timestamp: 100.0, x: 0.3, y: -0.6, z: 0.9)   // (0.3+0.6+0.9)/3 = 0.6
        try acc.add(timestamp: 100.5, x: -0.3, y: 0, z: 0)       // 0.1
        try acc.add(timestamp: 101.2, x: 0, y: 0, z: -0.3)       // 0.1
        let s = acc.finish()
        #expect(s.startSecond == 100)
        #expect(s.count == 2)
        #expect(abs(Double(s.movement[0]) - 0.35) < 1e-7)
        #expect(abs(Double(s.movement[1]) - 0.1) < 1e-7)
        #expect(s.sampleCounts == [2, 1])
    }

    @Test("the legacy metric reproduces the app's abs(x) + abs(y) + abs(z) / 3")
    func legacyFormula() throws {
        var acc = SecondAccumulator()
        try acc.add(timestamp: 5, x: 0.3, y: -0.6, z: 0.9)
        let s = acc.finish()
        #expect(abs(Double(s.legacyMovement[0]) - (0.3 + 0.6 + 0.3)) < 1e-7)
        #expect(MovementMetric.legacyApp.value(x: 0.3, y: -0.6, z: 0.9) == abs(0.3) + abs(-0.6) + abs(0.9) / 3)
        #expect(MovementMetric.meanAbsoluteAxis.value(x: 0.3, y: -0.6, z: 0.9) == (0.3 + 0.6 + 0.9) / 3)
    }

    @Test("seconds without samples are gaps: NaN movement and zero count")
    func gapsStayVisible() throws {
        var acc = SecondAccumulator()
        try acc.add(timestamp: 10, x: 0.1, y: 0.1, z: 0.1)
        try acc.add(timestamp: 13.9, x: 0.1, y: 0.1, z: 0.1)
        let s = acc.finish()
        #expect(s.count == 4)
        #expect(s.sampleCounts == [1, 0, 0, 1])
        #expect(s.movement[1].isNaN && s.movement[2].isNaN)
        #expect(s.coveredSeconds == 2)
        #expect(s.dataSpan! == (10, 14))
    }

    @Test("time going backwards is refused; equal timestamps are counted")
    func ordering() throws {
        var acc = SecondAccumulator()
        try acc.add(timestamp: 10.5, x: 0, y: 0, z: 0)
        try acc.add(timestamp: 10.5, x: 0, y: 0, z: 0)
        #expect(acc.duplicateTimestampCount == 1)
        #expect(throws: SecondAccumulator.Failure.timeWentBackwards(previousSecond: 10, second: 9)) {
            try acc.add(timestamp: 9.9, x: 0, y: 0, z: 0)
        }
    }

    @Test("a timestamp far beyond the recording is refused instead of allocating years of seconds")
    func spanLimit() throws {
        var acc = SecondAccumulator()
        try acc.add(timestamp: 0, x: 0, y: 0, z: 0)
        #expect(throws: SecondAccumulator.Failure.self) {
            try acc.add(timestamp: 2_147_483_648, x: 0, y: 0, z: 0)
        }
    }

    @Test("negative (pre-1970) timestamps floor to the right second")
    func negativeTimestamps() throws {
        var acc = SecondAccumulator()
        try acc.add(timestamp: -1.5, x: 0.3, y: 0.3, z: 0.3)
        try acc.add(timestamp: -0.5, x: 0.6, y: 0.6, z: 0.6)
        let s = acc.finish()
        #expect(s.startSecond == -2)
        #expect(s.count == 2)
    }
}
