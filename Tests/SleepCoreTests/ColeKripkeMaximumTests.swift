import Foundation
import Testing
import SleepCore

/// Cole–Kripke's 1992 maximum variants on 10-s epochs scored 60-s sums instead of the
/// per-minute maximum of the 10-s (or 30-s) epochs that Cole et al. 1992 define them on.
@Suite("Cole–Kripke 1992 maximum variants on finer epochs")
struct ColeKripkeMaximumTests {
    /// Minute m's six 10-s counts: 10m+1, 10m+2, 2·(10m+3), 10m+4, 10m+5, 10m+6.
    static func minute(_ m: Int) -> [Double] {
        let b = Double(10 * m)
        return [b + 1, b + 2, 2 * (b + 3), b + 4, b + 5, b + 6]
    }

    static func tenSecondFile() -> EpochRecording {
        var values: [Double] = []
        for m in 0..<10 { values += minute(m) }
        let column = EpochColumn(name: "axis1", sourceName: "Axis1", unit: "counts", reduction: .sum, values: values)
        return EpochRecording(path: "ten.csv", format: .actiLifeCSV, epochSeconds: 10, firstEpochLocalSecond: 1_718_402_400,
                              count: values.count, timeline: .utc, timeZoneName: "UTC", timeZoneSource: .option, columns: [column])
    }

    @Test("max-non-overlapping-10s-1992 scores the largest 10-s epoch of each minute; 30-s the largest 30-s sum; --epoch 10s is accepted")
    func maxima() throws {
        let file = Self.tenSecondFile()
        let max10: [Double] = (0..<10).map { Self.minute($0).max()! }
        let max30: [Double] = (0..<10).map { m -> Double in
            let v = Self.minute(m)
            return max(v[0] + v[1] + v[2], v[3] + v[4] + v[5])
        }
        let cases: [(String, ColeKripke.Variant, [Double])] = [
            ("max-non-overlapping-10s-1992", .maxNonOverlapping10s1992, max10),
            ("max-overlapping-10s-1992", .maxOverlapping10s1992, max10),
            ("max-non-overlapping-30s-1992", .maxNonOverlapping30s1992, max30),
        ]
        for (name, variant, expected) in cases {
            let r = try EpochScoring.score(.epochs(file), ScoreRequest(path: "ten.csv", algorithm: .coleKripke, variant: name))
            let activity: [Double] = r.epochs.map { $0.activity }
            let states: [SleepWake?] = r.epochs.map { $0.state }
            #expect(activity == expected, "\(name): \(activity)")
            #expect(r.notes.contains { $0.contains("the largest") }, "\(name)")
            #expect(states == ColeKripke.score(countsPerEpoch: expected, variant: variant), "\(name)")
        }
        // The mean variant keeps summing (ActiLife's collapse); --epoch 10s is accepted for the 10-s maxima.
        let sum = try EpochScoring.score(.epochs(file), ScoreRequest(path: "ten.csv", algorithm: .coleKripke))
        #expect(sum.epochs.first?.activity == Self.minute(0).reduce(0, +))
        let ten = try EpochScoring.score(.epochs(file), ScoreRequest(path: "ten.csv", algorithm: .coleKripke,
                                                                     variant: "max-non-overlapping-10s-1992", epochSeconds: 10))
        #expect(ten.epochs.count == 10 && ten.epochs.first?.activity == 6)
    }
}
