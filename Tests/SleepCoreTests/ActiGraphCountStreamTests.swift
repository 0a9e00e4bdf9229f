import Foundation
import Testing
import SleepCore

/// ``ActiGraphCountStream``: the counts the wearable milestone carries for `--sleep-algorithm
/// cole-kripke|sadeh`, a sample at a time, equal to the batch counts and to ActiLife.
@Suite("ActiGraph counts, streamed per 5-s epoch")
struct ActiGraphCountStreamTests {
    static func streamed(_ axes: [[Double]], rate: Int, startUTC: Double) throws -> WearableEpochs.Counts {
        var stream = try ActiGraphCountStream(sampleRateHz: rate)
        for i in 0..<axes[0].count {
            stream.add(timestamp: startUTC + Double(i) / Double(rate), x: axes[0][i], y: axes[1][i], z: axes[2][i])
        }
        let n = axes[0].count / rate / 5
        return stream.counts(startUTC: Int64(startUTC), count: n)
    }

    @Test("a continuous stream from an epoch boundary equals the batch counts, every rational rate",
          arguments: ActiGraphCountStream.streamedSampleRatesHz)
    func equalsBatch(rate: Int) throws {
        // An integer-valued test signal with gravity on z and movement that changes per second.
        let n = rate * 120
        let axes: [[Double]] = (0..<3).map { axis in
            var state = UInt64(axis + 7)
            return (0..<n).map { i in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let second = i / rate
                let amplitude = Double((second * (3 + axis)) % 9) / 8
                let wave = sin(Double(i) * 2 * .pi * Double(1 + axis) / Double(rate))
                return (axis == 2 ? 1 : 0) + 0.5 * amplitude * wave + Double(Int(state >> 58) - 32) / 4096
            }
        }
        let batch = try ActiGraphCounts.counts(x: axes[0], y: axes[1], z: axes[2], sampleRateHz: rate, epochSeconds: 5)
        let ours = try Self.streamed(axes, rate: rate, startUTC: 1_718_400_000)
        #expect(ours.count == batch.count)
        #expect(ours.x == batch.x.map(Int32.init) && ours.y == batch.y.map(Int32.init) && ours.z == batch.z.map(Int32.init))
        #expect(batch.y.reduce(0, +) > 0)
    }

    @Test("ActiLife 6.13.4's 5-s counts of the 100 Hz ActiGraph Link file, streamed",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func actiLifeLink100Hz() throws {
        let text = try #require(try ExternalData.text("agcounts_link_100hz/example_raw_100hz_pygt3x.csv"))
        let rows = TestCSV.rows(text).dropFirst()
        let axes = [rows.map { Double($0[1])! }, rows.map { Double($0[2])! }, rows.map { Double($0[3])! }]
        let reference = try #require(try ExternalData.text("agcounts_link_100hz/example5sec_actilife_counts.csv"))
        let table = TestCSV.rows(reference)
        let column = { (name: String) in table[0].firstIndex(of: name)! }
        let expected = table.dropFirst().map { (Int32($0[column("axis1")])!, Int32($0[column("axis2")])!, Int32($0[column("axis3")])!) }
        let ours = try Self.streamed(axes, rate: 100, startUTC: 1_600_000_000)
        #expect(ours.count == expected.count)
        var matched = 0
        for (i, e) in expected.enumerated() where i < ours.count {
            matched += (ours.axis1[i] == e.0 ? 1 : 0) + (ours.x[i] == e.1 ? 1 : 0) + (ours.z[i] == e.2 ? 1 : 0)
        }
        ReferenceReport.record("ActiLife 6.13.4 5-s counts, ActiGraph Link 100 Hz, streamed (ActiGraphCountStream)",
                               matched: matched, total: 3 * expected.count)
        #expect(matched == 3 * expected.count)
    }

    @Test("rates without a streamed path throw; a gap leaves its epochs at zero")
    func ratesAndGaps() throws {
        #expect(throws: ActiGraphCountsError.unsupportedSampleRate(86)) { try ActiGraphCountStream(sampleRateHz: 86) }
        #expect(throws: ActiGraphCountsError.unsupportedSampleRate(64)) { try ActiGraphCountStream(sampleRateHz: 64) }
        var stream = try ActiGraphCountStream(sampleRateHz: 30)
        func wave(_ i: Int) -> Double { 0.5 * sin(2 * .pi * Double(i) / 30) }   // 1 Hz: inside the band-pass
        for i in 0..<(30 * 10) { stream.add(timestamp: 100 + Double(i) / 30, x: wave(i), y: wave(i + 7), z: 1) }
        for i in 0..<(30 * 10) { stream.add(timestamp: 200 + Double(i) / 30, x: wave(i), y: wave(i + 7), z: 1) }
        let c = stream.counts(startUTC: 95, count: 25)   // 95 … 220
        #expect(c.x[0] == 0 && c.x[1] > 0 && c.x[2] > 0)          // 95–100 before, 100–110 moving
        #expect(c.x[3..<21].allSatisfy { $0 == 0 })               // 110–200: no samples
        #expect(c.x[21] > 0 && c.x[22] > 0 && c.x[23] == 0)       // 200–210 moving
    }
}
