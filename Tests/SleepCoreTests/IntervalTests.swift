import Testing
import SleepCore

@Suite("Interval lengths and aggregation")
struct IntervalTests {
    @Test("interval lengths parse with units and refuse bare numbers", arguments: [
        ("10m", 600), ("15m", 900), ("15min", 900), ("900s", 900), ("1h", 3600), ("90s", 90), (" 5m ", 300),
    ])
    func parse(text: String, seconds: Int) {
        #expect(IntervalLength(parsing: text)?.seconds == seconds)
    }

    @Test("invalid lengths", arguments: ["10", "", "m", "-5m", "0m", "ten minutes", "2d"])
    func invalid(text: String) {
        #expect(IntervalLength(parsing: text) == nil)
    }

    @Test("labels round-trip")
    func labels() {
        #expect(IntervalLength.tenMinutes.description == "10m")
        #expect(IntervalLength(seconds: 3600)!.description == "1h")
        #expect(IntervalLength(seconds: 90)!.description == "90s")
    }

    /// A deterministic pseudo-random series with gaps.
    static func series(seconds: Int, start: Int64, seed: UInt64) -> SecondSeries {
        var state = seed
        func next() -> Double { state = state &* 6364136223846793005 &+ 1442695040888963407; return Double(state >> 11) / Double(1 << 53) }
        var m = [Float](), l = [Float](), c = [UInt16]()
        for i in 0..<seconds {
            let gap = (i / 700) % 9 == 4 && i % 700 < 300   // some 5-minute gaps
            if gap { m.append(.nan); l.append(.nan); c.append(0) }
            else { let v = Float(next() * 0.1); m.append(v); l.append(v * 1.5); c.append(UInt16(1 + Int(next() * 50))) }
        }
        return SecondSeries(startSecond: start, movement: m, legacyMovement: l, sampleCounts: c)
    }

    @Test("10- and 15-minute intervals agree over every common 30-minute span (sums and per-minute means)")
    func tenVersusFifteen() {
        let origin: Int64 = 1_718_359_200 // a local noon
        let s = Self.series(seconds: 8 * 3600 + 123, start: origin + 10 * 3600 + 47, seed: 7)
        let ten = IntervalAggregator.aggregate(s, length: .tenMinutes, gridOriginUTC: origin, fromUTC: s.startSecond, toUTC: s.endSecond)
        let fifteen = IntervalAggregator.aggregate(s, length: .fifteenMinutes, gridOriginUTC: origin, fromUTC: s.startSecond, toUTC: s.endSecond)
        #expect(ten.allSatisfy { $0.durationSeconds == 600 && ($0.startUTC - origin) % 600 == 0 })
        #expect(fifteen.allSatisfy { $0.durationSeconds == 900 && ($0.startUTC - origin) % 900 == 0 })
        var compared = 0
        for block in stride(from: ten.first!.startUTC, to: ten.last!.endUTC, by: 1800) where (block - origin) % 1800 == 0 {
            let a = ten.filter { $0.startUTC >= block && $0.endUTC <= block + 1800 }
            let b = fifteen.filter { $0.startUTC >= block && $0.endUTC <= block + 1800 }
            guard a.count == 3, b.count == 2 else { continue }
            let sumA = a.reduce(0) { $0 + $1.movementSum }, sumB = b.reduce(0) { $0 + $1.movementSum }
            let covA = a.reduce(0) { $0 + $1.coverageSeconds }, covB = b.reduce(0) { $0 + $1.coverageSeconds }
            #expect(abs(sumA - sumB) < 1e-9 * max(1, sumA))
            #expect(covA == covB)
            if covA > 0 { #expect(abs(sumA / Double(covA) * 60 - sumB / Double(covB) * 60) < 1e-9) }
            compared += 1
        }
        #expect(compared >= 14)
    }

    @Test("intervals are aligned to the grid origin and gaps show as zero coverage")
    func alignmentAndCoverage() {
        let origin: Int64 = 0
        var m = [Float](repeating: 0.01, count: 1200), c = [UInt16](repeating: 1, count: 1200)
        for i in 550..<1150 { m[i] = .nan; c[i] = 0 }   // UTC seconds 1200..<1800: exactly one interval
        let s = SecondSeries(startSecond: 650, movement: m, legacyMovement: m, sampleCounts: c)
        let iv = IntervalAggregator.aggregate(s, length: .tenMinutes, gridOriginUTC: origin, fromUTC: 650, toUTC: 1850)
        #expect(iv.map(\.startUTC) == [600, 1200, 1800])
        #expect(iv.map(\.coverageSeconds) == [550, 0, 50])   // seconds 650..<1200 and 1800..<1850
        #expect(iv[1].movementPerMinute == nil)
        #expect(abs(iv[0].movementPerMinute! - 0.6) < 1e-6)
    }

    @Test("the per-minute mean does not depend on the interval length for a constant signal")
    func perMinuteInvariance() {
        let s = SecondSeries(startSecond: 0, movement: .init(repeating: 0.02, count: 7200),
                             legacyMovement: .init(repeating: 0.02, count: 7200), sampleCounts: .init(repeating: 1, count: 7200))
        for length in [60, 300, 600, 900, 1800] {
            let iv = IntervalAggregator.aggregate(s, length: IntervalLength(seconds: length)!, gridOriginUTC: 0, fromUTC: 0, toUTC: 7200)
            #expect(iv.allSatisfy { abs($0.movementPerMinute! - 1.2) < 1e-5 })
            #expect(iv.allSatisfy { abs($0.movementSum - 0.02 * Double(length)) < 1e-4 })
        }
    }
}
