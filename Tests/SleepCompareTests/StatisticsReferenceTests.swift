import Foundation
import Testing
import SleepCore

/// The comparison statistics against values computed independently: numpy/scipy (Bland–Altman,
/// t quantile), pingouin `intraclass_corr` (ICC), scikit-learn (accuracy, Cohen's κ), by
/// Fixtures/compare-statistics/make_reference.py; and against the published numbers of
/// Bland & Altman (1986).
@Suite("Comparison statistics against independent references")
struct StatisticsReferenceTests {
    struct Reference: Decodable {
        struct MetricPair: Decodable {
            var name: String
            var reference: [Double]
            var test: [Double]
            var bias: Double
            var sd: Double
            var loa_lower: Double
            var loa_upper: Double
            var bias_ci_lower: Double
            var bias_ci_upper: Double
            var limit_ci_half_width: Double
            var mean_abs_difference: Double
            var icc1: Double
            var icc2: Double
            var icc3: Double
        }
        struct Scoring: Decodable {
            var start: Int64
            var seconds: Int
            var states: String
            var stages: String
        }
        struct Agreement: Decodable {
            var cells: Int
            var accuracy: Double
            var kappa: Double
        }
        struct Grid: Decodable {
            var name: String
            var origin: Int64
            var in_bed: [Int64]
            var reference: Scoring
            var test: Scoring
            var cell_seconds: Int
            var sleep_wake: Agreement
            var phases: Agreement
        }
        var metric_pairs: [MetricPair]
        var grids: [Grid]
    }

    static func load() throws -> Reference {
        try JSONDecoder().decode(Reference.self, from: TestFiles.fixture("compare-statistics/reference.json"))
    }

    /// Relative agreement to 1e-9 (the references print 17 significant digits).
    static func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance * max(1, abs(b))
    }

    @Test("Bland–Altman bias, SD, limits and CIs, mean |d| and ICC(2,1) equal numpy/scipy/pingouin")
    func metricAgreement() throws {
        var matched = 0, total = 0
        var misses: [String] = []
        for case_ in try Self.load().metric_pairs {
            let m = MetricAgreement.compute(metric: .totalSleepTime, reference: case_.reference, test: case_.test)
            let ba = try #require(m.blandAltman)
            let icc = try #require(IntraclassCorrelation.compute(reference: case_.reference, test: case_.test))
            let checks: [(String, Double?, Double)] = [
                ("bias", ba.bias, case_.bias), ("sd", ba.standardDeviation, case_.sd),
                ("loa lower", ba.lowerLimitOfAgreement, case_.loa_lower), ("loa upper", ba.upperLimitOfAgreement, case_.loa_upper),
                ("bias CI lower", ba.biasConfidenceInterval?.lowerBound, case_.bias_ci_lower),
                ("bias CI upper", ba.biasConfidenceInterval?.upperBound, case_.bias_ci_upper),
                ("limit CI half width", ba.upperLimitConfidenceInterval.map { ($0.upperBound - $0.lowerBound) / 2 }, case_.limit_ci_half_width),
                ("mean |d|", m.meanAbsoluteDifference, case_.mean_abs_difference),
                ("ICC(2,1)", m.intraclassCorrelation, case_.icc2),
                ("ICC(1,1)", icc.oneWay, case_.icc1), ("ICC(3,1)", icc.consistency, case_.icc3),
            ]
            for (label, ours, theirs) in checks {
                total += 1
                if Self.close(ours, theirs) { matched += 1 } else { misses.append("\(case_.name) \(label): ours \(String(describing: ours)), reference \(theirs)") }
            }
        }
        ReferenceReport.record("compare statistics vs numpy/scipy/pingouin", matched: matched, total: total, note: "relative 1e-9")
        #expect(misses.isEmpty, "\(misses)")
        #expect(total == 44)
    }

    /// Bland & Altman (1986), Lancet i:307–310: mini Wright minus Wright peak flow, 17 subjects,
    /// published mean difference 2.1 l/min (−2.1 as Wright − mini) and SD 38.8 l/min.
    @Test func blandAltman1986Published() throws {
        let pefr = try #require(try Self.load().metric_pairs.first { $0.name == "bland-altman-1986-pefr" })
        let ba = try #require(BlandAltman.compute(reference: pefr.reference, test: pefr.test))
        #expect((ba.bias * 10).rounded() / 10 == 2.1)
        #expect((ba.standardDeviation! * 10).rounded() / 10 == 38.8)
        ReferenceReport.record("Bland & Altman 1986 PEFR (published to 0.1)", matched: 2, total: 2)
    }

    @Test("common-grid accuracy and κ equal scikit-learn on independently expanded labels")
    func gridAgreement() throws {
        var matched = 0, total = 0
        var misses: [String] = []
        func hypnogram(_ s: Reference.Scoring) -> IntervalHypnogram {
            IntervalHypnogram(
                startUTC: s.start, intervalSeconds: s.seconds,
                stages: s.stages.map { $0 == "D" ? SleepStage.deep : ($0 == "L" ? .light : .wake) },
                states: s.states.map { $0 == "S" ? SleepWake.sleep : ($0 == "W" ? .wake : nil) })
        }
        for g in try Self.load().grids {
            let ours = CommonGridAgreement.compute(reference: hypnogram(g.reference), test: hypnogram(g.test),
                                                   inBed: (g.in_bed[0], g.in_bed[1]), gridOriginUTC: g.origin)
            let checks: [(String, Double?, Double)] = [
                ("cell", Double(ours.cellSeconds), Double(g.cell_seconds)),
                ("sleep/wake cells", Double(ours.sleepWake.total), Double(g.sleep_wake.cells)),
                ("sleep/wake accuracy", ours.sleepWake.accuracy, g.sleep_wake.accuracy),
                ("sleep/wake kappa", ours.sleepWake.cohenKappa, g.sleep_wake.kappa),
                ("phase cells", Double(ours.phases.total), Double(g.phases.cells)),
                ("phase accuracy", ours.phases.accuracy, g.phases.accuracy),
                ("phase kappa", ours.phases.cohenKappa, g.phases.kappa),
            ]
            for (label, value, reference) in checks {
                total += 1
                if Self.close(value, reference) { matched += 1 } else { misses.append("\(g.name) \(label): ours \(String(describing: value)), sklearn \(reference)") }
            }
        }
        ReferenceReport.record("common-grid agreement vs scikit-learn", matched: matched, total: total, note: "relative 1e-9")
        #expect(misses.isEmpty, "\(misses)")
        #expect(total == 35)
    }
}
