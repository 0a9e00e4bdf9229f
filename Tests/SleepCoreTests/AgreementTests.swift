import Foundation
import Testing
import SleepCore

/// The SRI sample (yasa 0.8.1 tests/data): per subject, PSG and device stages per 30-s epoch.
private struct SRISample {
    var subjects: [String]
    var reference: [String: [SleepStage]]
    var device: [String: [SleepStage]]

    static func load() throws -> SRISample? {
        guard let text = try ExternalData.text("sri_tracker_vs_psg/sample_data_sri.csv") else { return nil }
        var sample = SRISample(subjects: [], reference: [:], device: [:])
        for row in TestCSV.rows(text).dropFirst() where row.count == 4 {
            guard let r = UInt8(row[2]).flatMap(SleepStage.init(rawValue:)),
                  let d = UInt8(row[3]).flatMap(SleepStage.init(rawValue:)) else { continue }
            if sample.reference[row[0]] == nil { sample.subjects.append(row[0]) }
            sample.reference[row[0], default: []].append(r)
            sample.device[row[0], default: []].append(d)
        }
        return sample
    }
}

/// Counts matched / total against values printed with 2 decimals by the R pipeline.
private struct PrintedPrecisionTally {
    var matched = 0
    var total = 0
    var mismatches: [String] = []

    /// Matches when |ours − printed| ≤ half a unit of the last printed digit (+ float slack).
    mutating func check(_ label: String, _ ours: Double?, _ printed: Any?, decimals: Int = 2) {
        total += 1
        guard let printed = printed as? Double else { mismatches.append("\(label): no reference"); return }
        var unit = 1.0
        for _ in 0..<decimals { unit /= 10 }
        if let ours, abs(ours - printed) <= unit / 2 + 1e-9 { matched += 1 } else {
            mismatches.append("\(label): ours \(String(describing: ours)) printed \(printed)")
        }
    }

    mutating func checkExact(_ label: String, _ ours: Int, _ printed: Any?) {
        total += 1
        if ours == printed as? Int { matched += 1 } else {
            mismatches.append("\(label): ours \(ours) printed \(String(describing: printed))")
        }
    }
}

/// R `round(x, 2)` for the values the SRI pipeline rounds before differencing.
private func agreementRound2(_ x: Double) -> Double { (x * 100).rounded() / 100 }

private func agreementPercent(_ x: Double?) -> Double? { x.map { 100 * $0 } }

/// Mean and sample SD (n − 1) of the non-nil values (R `mean(na.rm=TRUE)`, `sd(na.rm=TRUE)`).
private func agreementMeanSD(_ values: [Double?]) -> (Double, Double) {
    let v = values.compactMap { $0 }
    let m = v.reduce(0, +) / Double(v.count)
    let ss = v.reduce(0) { $0 + ($1 - m) * ($1 - m) }
    return (m, (ss / Double(v.count - 1)).squareRoot())
}

/// PPV and NPV the way the SRI pipeline computes them (`groupEBE`, advancedMetrics): by Bayes'
/// rule from sensitivity, specificity and prevalence that were each already rounded to 2
/// decimals (in percent). They differ from the exact TP/(TP+FP), TN/(TN+FN) of
/// ``BinaryAgreement`` by up to a few hundredths of a percent.
private func sriPipelinePredictiveValues(_ a: BinaryAgreement) -> (ppv: Double?, npv: Double?) {
    guard let sens = agreementPercent(a.sensitivity).map(agreementRound2), let spec = agreementPercent(a.specificity).map(agreementRound2),
          let prev = agreementPercent(a.prevalence).map(agreementRound2) else { return (nil, nil) }
    let ppv = 100 * (sens * prev) / (sens * prev + (100 - spec) * (100 - prev))
    let npv = 100 * (spec * (100 - prev)) / ((100 - prev) * spec + prev * (100 - sens))
    return (ppv, npv)
}

@Suite struct AgreementTests {

    private static let stageKeys: [(SleepStage, String)] = [(.wake, "WAKE"), (.light, "LIGHT"), (.deep, "DEEP"), (.rem, "REM")]

    private func evaluationJSON() throws -> [String: Any] {
        let text = try #require(try ExternalData.text("sri_tracker_vs_psg/evaluation_sri_full.json"))
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Per-subject one-vs-rest and sleep/wake epoch-by-epoch agreement (SRI `indEBE`).
    @Test(.enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func sriPerSubjectEpochByEpoch() throws {
        let sample = try #require(try SRISample.load())
        let json = try evaluationJSON()
        let perStage = try #require(json["per_subject"] as? [String: Any])
        let perSleepWake = try #require(json["per_subject_sleep_wake"] as? [String: Any])
        #expect(sample.subjects.count == 14)
        var tally = PrintedPrecisionTally()
        for subject in sample.subjects {
            let m = ConfusionMatrix(reference: sample.reference[subject]!, test: sample.device[subject]!)
            let ref = try #require(perStage[subject] as? [String: [String: Any]])
            for (stage, key) in Self.stageKeys {
                let a = m.oneVsRest(stage)
                tally.check("\(subject) \(key) acc", agreementPercent(a.accuracy), ref[key]?["accuracy"])
                tally.check("\(subject) \(key) sens", agreementPercent(a.sensitivity), ref[key]?["sensitivity"])
                tally.check("\(subject) \(key) spec", agreementPercent(a.specificity), ref[key]?["specificity"])
            }
            // Sleep/wake: sleep is the positive class.
            let sw = BinaryAgreement.sleepWake(
                reference: sample.reference[subject]!.map(\.sleepWake), test: sample.device[subject]!.map(\.sleepWake))
            let refSW = try #require(perSleepWake[subject] as? [String: Any])
            tally.check("\(subject) SW acc", agreementPercent(sw.accuracy), refSW["accuracy"])
            tally.check("\(subject) SW sens", agreementPercent(sw.sensitivity), refSW["sensitivity"])
            tally.check("\(subject) SW spec", agreementPercent(sw.specificity), refSW["specificity"])
        }
        ReferenceReport.record("SRI per-subject EBE (acc/sens/spec, 4 stages + sleep/wake)",
                               matched: tally.matched, total: tally.total, note: "printed to 0.01 %")
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches)")
        #expect(tally.matched == 14 * 15)
    }

    /// Per-subject sleep measures (SRI `ebe2sleep`) and device − reference discrepancies
    /// (`indDiscr`, computed from the measures rounded to 2 decimals, as the pipeline does).
    @Test(.enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func sriPerSubjectSleepMeasuresAndDiscrepancies() throws {
        let sample = try #require(try SRISample.load())
        let json = try evaluationJSON()
        let measures = try #require(json["per_subject_sleep_measures"] as? [String: Any])
        let discStaging = try #require(json["per_subject_discrepancies_staging"] as? [String: Any])
        let discSW = try #require(json["per_subject_discrepancies_sleep_wake"] as? [String: Any])
        var tally = PrintedPrecisionTally()
        var discTally = PrintedPrecisionTally()

        func values(_ m: NightMetrics) -> [String: Double?] {
            [
                "TST": m.totalSleepMinutes, "SE": m.sleepEfficiencyPercent, "SOL": m.sleepOnsetLatencyMinutes,
                // ebe2sleep counts wake after the first sleep epoch up to lights on.
                "WASO": m.wakeAfterSleepOnsetToLightsOnMinutes,
                "Light": m.stages?.lightMinutes, "Deep": m.stages?.deepMinutes, "REM": m.stages?.remMinutes,
                "LightPerc": m.stages?.lightPercent, "DeepPerc": m.stages?.deepPercent, "REMPerc": m.stages?.remPercent,
            ]
        }

        for subject in sample.subjects {
            let ref = NightMetrics.compute(stages: sample.reference[subject]!, epochSeconds: 30)
            let dev = NightMetrics.compute(stages: sample.device[subject]!, epochSeconds: 30)
            let refSW = NightMetrics.compute(sleepWake: sample.reference[subject]!.map(\.sleepWake), epochSeconds: 30)
            let devSW = NightMetrics.compute(sleepWake: sample.device[subject]!.map(\.sleepWake), epochSeconds: 30)
            let printed = try #require(measures[subject] as? [String: Any])
            tally.check("\(subject) TIB", ref.timeInBedMinutes, printed["TIB"])
            let r = values(ref)
            let d = values(dev)
            for key in ["TST", "SE", "SOL", "WASO", "Light", "Deep", "REM", "LightPerc", "DeepPerc", "REMPerc"] {
                tally.check("\(subject) \(key)_ref", r[key]!, printed["\(key)_ref"])
                tally.check("\(subject) \(key)_device", d[key]!, printed["\(key)_device"])
            }
            let ps = try #require(discStaging[subject] as? [String: Any])
            for key in ["TST", "SE", "SOL", "WASO", "Light", "Deep", "REM", "LightPerc", "DeepPerc", "REMPerc"] {
                let diff = agreementRound2(agreementRound2(d[key]!!) - agreementRound2(r[key]!!))
                discTally.check("\(subject) \(key)_diff", diff, ps["\(key)_diff"])
            }
            let pw = try #require(discSW[subject] as? [String: Any])
            let rsw = values(refSW)
            let dsw = values(devSW)
            for key in ["TST", "SE", "SOL", "WASO"] {
                let diff = agreementRound2(agreementRound2(dsw[key]!!) - agreementRound2(rsw[key]!!))
                discTally.check("\(subject) SW \(key)_diff", diff, pw["\(key)_diff"])
            }
        }
        ReferenceReport.record("SRI per-subject sleep measures (TIB, TST, SE, SOL, WASO, stage min & %)",
                               matched: tally.matched, total: tally.total, note: "printed to 0.01")
        ReferenceReport.record("SRI per-subject discrepancies device−PSG (staging + sleep/wake)",
                               matched: discTally.matched, total: discTally.total, note: "printed to 0.01")
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches)")
        #expect(discTally.mismatches.isEmpty, "\(discTally.mismatches)")
        #expect(tally.total == 14 * 21 && discTally.total == 14 * 14)
    }

    /// Pooled confusion matrices (exact counts), averaged proportional matrices (mean, SD) and
    /// the group EBE tables (pooled "sum" and mean/SD over subjects "avg"; the bootstrap CIs are
    /// random and not compared).
    @Test(.enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func sriErrorMatricesAndGroupAgreement() throws {
        let sample = try #require(try SRISample.load())
        let json = try evaluationJSON()
        let matrices = try #require(json["error_matrices"] as? [String: Any])
        var counts = PrintedPrecisionTally()
        var group = PrintedPrecisionTally()

        var pooled = ConfusionMatrix(classCount: 4)
        var pooledSW = ConfusionMatrix(classCount: 2)
        var perSubject: [ConfusionMatrix] = []
        for subject in sample.subjects {
            let m = ConfusionMatrix(reference: sample.reference[subject]!, test: sample.device[subject]!)
            pooled.add(m)
            pooledSW.add(ConfusionMatrix(reference: sample.reference[subject]!.map(\.sleepWake),
                                         test: sample.device[subject]!.map(\.sleepWake)))
            perSubject.append(m)
        }

        // 4-class pooled matrix.
        let staging = try #require(matrices["_condition_staging"] as? [String: Any])
        let absolute = try #require(staging["absolute_sum"] as? [String: Any]).compactMapValues { $0 as? [String: Any] }
        let rowKeys = ["wake_ref", "light_ref", "deep_ref", "REM_ref"]
        let colKeys = ["device_wake", "device_light", "device_deep", "device_REM"]
        for r in 0..<4 {
            for c in 0..<4 { counts.checkExact("\(rowKeys[r]) \(colKeys[c])", pooled[reference: r, test: c], absolute[rowKeys[r]]?[colKeys[c]]) }
            counts.checkExact("\(rowKeys[r]) total", pooled.referenceTotal(r), absolute[rowKeys[r]]?["reference_total"])
            counts.checkExact("device total \(r)", pooled.testTotal(r), absolute["device_totals"]?[colKeys[r]])
        }
        counts.checkExact("grand total", pooled.total, absolute["device_totals"]?["grand_total"])
        // 2-class pooled matrix (class 0 = sleep, 1 = wake).
        let swMatrices = try #require(matrices["_condition_sleep_wake"] as? [String: Any])
        let swAbsolute = try #require(swMatrices["absolute_sum"] as? [String: Any]).compactMapValues { $0 as? [String: Any] }
        let swClass = ["wake_ref": 1, "sleep_ref": 0, "device_wake": 1, "device_sleep": 0]
        for rk in ["wake_ref", "sleep_ref"] {
            for ck in ["device_wake", "device_sleep"] {
                counts.checkExact("SW \(rk) \(ck)", pooledSW[reference: swClass[rk]!, test: swClass[ck]!], swAbsolute[rk]?[ck])
            }
        }

        // Proportional matrices: "mean (sd) [CI]" of per-subject row proportions.
        let proportional = try #require(staging["proportional_avg"] as? [String: Any]).compactMapValues { $0 as? [String: Any] }
        for r in 0..<4 {
            for c in 0..<4 {
                let text = try #require(proportional[rowKeys[r]]?[colKeys[c]] as? String)
                let parts = text.split(whereSeparator: { " ()[],".contains($0) }).compactMap { Double($0) }
                let (mean, sd) = agreementMeanSD(perSubject.map { $0.rowProportions(reference: r)[c] })
                group.check("prop \(rowKeys[r]) \(colKeys[c]) mean", mean, parts[0])
                group.check("prop \(rowKeys[r]) \(colKeys[c]) sd", sd, parts[1])
            }
        }

        // Group EBE, staging (one-vs-rest per stage) and sleep/wake (sleep positive).
        let stagingGroup = try #require(json["group_ebe_staging"] as? [String: Any])
        let swGroup = try #require(json["group_ebe_sleep_wake"] as? [String: Any])
        var conditions: [(String, [String: Any], [BinaryAgreement], BinaryAgreement)] = []
        for (stage, key) in Self.stageKeys {
            conditions.append((key, stagingGroup, perSubject.map { $0.oneVsRest(stage) }, pooled.oneVsRest(stage)))
        }
        let swPerSubject = sample.subjects.map {
            BinaryAgreement.sleepWake(reference: sample.reference[$0]!.map(\.sleepWake), test: sample.device[$0]!.map(\.sleepWake))
        }
        conditions.append(("SLEEP", swGroup, swPerSubject, pooledSW.oneVsRest(Int(SleepWake.sleep.rawValue))))

        for (key, table, subjects, pooledAgreement) in conditions {
            let basicSum = try #require((table["basic_sum"] as? [String: Any])?[key] as? [String: Any])
            let advancedSum = try #require((table["advanced_sum"] as? [String: Any])?[key] as? [String: Any])
            let basicAvg = try #require((table["basic_avg"] as? [String: Any])?[key] as? [String: [String: Any]])
            let advancedAvg = try #require((table["advanced_avg"] as? [String: Any])?[key] as? [String: [String: Any]])
            let pooledValues: [String: Double?] = [
                "accuracy": agreementPercent(pooledAgreement.accuracy), "sensitivity": agreementPercent(pooledAgreement.sensitivity),
                "specificity": agreementPercent(pooledAgreement.specificity),
                "ppv": sriPipelinePredictiveValues(pooledAgreement).ppv, "npv": sriPipelinePredictiveValues(pooledAgreement).npv,
                "kappa": pooledAgreement.cohenKappa, "pabak": pooledAgreement.prevalenceAdjustedBiasAdjustedKappa,
                "pindex": pooledAgreement.prevalenceIndex,
            ]
            for name in ["accuracy", "sensitivity", "specificity"] {
                group.check("\(key) sum \(name)", pooledValues[name]!, basicSum[name])
            }
            for name in ["accuracy", "sensitivity", "specificity", "ppv", "npv", "kappa", "pabak", "pindex"] {
                group.check("\(key) sum adv \(name)", pooledValues[name]!, advancedSum[name])
            }
            // "avg": mean and SD over subjects of the per-subject values, each rounded to
            // 2 decimals first (groupEBE rounds inside generateAccMetrics).
            func perSubjectValues(_ name: String) -> [Double?] {
                subjects.map { a -> Double? in
                    let v: Double?
                    switch name {
                    case "accuracy": v = agreementPercent(a.accuracy)
                    case "sensitivity": v = agreementPercent(a.sensitivity)
                    case "specificity": v = agreementPercent(a.specificity)
                    case "ppv": v = sriPipelinePredictiveValues(a).ppv
                    case "npv": v = sriPipelinePredictiveValues(a).npv
                    case "kappa": v = a.cohenKappa
                    case "pabak": v = a.prevalenceAdjustedBiasAdjustedKappa
                    default: v = a.prevalenceIndex
                    }
                    return v.map(agreementRound2)
                }
            }
            for name in ["accuracy", "sensitivity", "specificity"] {
                let (m, s) = agreementMeanSD(perSubjectValues(name))
                group.check("\(key) avg \(name) mean", m, basicAvg[name]?["mean"])
                group.check("\(key) avg \(name) sd", s, basicAvg[name]?["sd"])
            }
            for name in ["accuracy", "sensitivity", "specificity", "ppv", "npv", "kappa", "pabak", "pindex"] {
                let (m, s) = agreementMeanSD(perSubjectValues(name))
                group.check("\(key) avg adv \(name) mean", m, advancedAvg[name]?["mean"])
                group.check("\(key) avg adv \(name) sd", s, advancedAvg[name]?["sd"])
            }
        }
        // The exact predictive values stay within 0.1 % (observed ≤ 0.06) of the pipeline's rounded-input ones.
        for (_, _, subjects, pooledAgreement) in conditions {
            for a in subjects + [pooledAgreement] {
                let sri = sriPipelinePredictiveValues(a)
                #expect(abs(agreementPercent(a.positivePredictiveValue)! - sri.ppv!) < 0.1)
                #expect(abs(agreementPercent(a.negativePredictiveValue)! - sri.npv!) < 0.1)
            }
        }
        ReferenceReport.record("SRI pooled confusion matrices (4-class + sleep/wake counts)",
                               matched: counts.matched, total: counts.total, note: "exact")
        ReferenceReport.record("SRI group EBE (pooled sums, subject mean/SD, proportional matrices)",
                               matched: group.matched, total: group.total,
                               note: "printed to 0.01; bootstrap CIs not compared" + (group.mismatches.isEmpty ? "" : "; mismatches: \(group.mismatches)"))
        #expect(counts.mismatches.isEmpty, "\(counts.mismatches)")
        #expect(group.mismatches.isEmpty, "\(group.mismatches)")
    }

    /// Bland–Altman across the 14 subjects: the bias must equal the mean of the published
    /// per-subject device − PSG differences (TST, SOL, WASO are whole 0.5-min multiples; SE
    /// differences are published after rounding, so that comparison is to 0.01).
    @Test(.enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func sriBlandAltmanBiasFromPublishedDifferences() throws {
        let sample = try #require(try SRISample.load())
        let json = try evaluationJSON()
        let disc = try #require(json["per_subject_discrepancies_sleep_wake"] as? [String: Any])
        var tally = PrintedPrecisionTally()
        let refNights = sample.subjects.map { NightMetrics.compute(stages: sample.reference[$0]!, epochSeconds: 30) }
        let devNights = sample.subjects.map { NightMetrics.compute(stages: sample.device[$0]!, epochSeconds: 30) }
        let fields: [(String, (NightMetrics) -> Double)] = [
            ("TST", { $0.totalSleepMinutes }), ("SE", { $0.sleepEfficiencyPercent! }),
            ("SOL", { $0.sleepOnsetLatencyMinutes! }), ("WASO", { $0.wakeAfterSleepOnsetToLightsOnMinutes! }),
        ]
        for (key, value) in fields {
            let ba = try #require(BlandAltman.compute(reference: refNights.map(value), test: devNights.map(value)))
            let published = sample.subjects.compactMap { (disc[$0] as? [String: Any])?["\(key)_diff"] as? Double }
            #expect(published.count == 14)
            let (m, s) = agreementMeanSD(published)
            tally.check("\(key) bias", ba.bias, m, decimals: key == "SE" ? 2 : 9)
            tally.check("\(key) SD", ba.standardDeviation, s, decimals: key == "SE" ? 2 : 9)
            #expect(abs(ba.upperLimitOfAgreement! - (ba.bias + 1.96 * ba.standardDeviation!)) < 1e-12)
        }
        ReferenceReport.record("SRI Bland–Altman bias/SD from published per-subject differences",
                               matched: tally.matched, total: tally.total)
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches)")
    }

    // MARK: - unit tests without external data

    @Test func cohenKappaMultiClass() throws {
        // Hand-made 3-class table: po = 0.7, pe = (4·5 + 3·3 + 3·2)/100 = 0.35 → κ = 0.35/0.65.
        let reference = [0, 0, 0, 0, 1, 1, 1, 2, 2, 2]
        let test      = [0, 0, 0, 1, 1, 1, 0, 2, 2, 0]
        let m = ConfusionMatrix(reference: reference, test: test, classCount: 3)
        #expect(m.total == 10)
        #expect(m[reference: 0, test: 0] == 3 && m[reference: 2, test: 0] == 1)
        #expect(abs(try #require(m.accuracy) - 0.7) < 1e-15)
        #expect(abs(try #require(m.cohenKappa) - 0.35 / 0.65) < 1e-12)
        let constant = ConfusionMatrix(reference: [1, 1], test: [1, 1], classCount: 2)
        #expect(constant.cohenKappa == nil)
        let wake = m.oneVsRest(0)
        #expect(wake.truePositives == 3 && wake.falseNegatives == 1 && wake.falsePositives == 2 && wake.trueNegatives == 4)
        // 2×2 kappa of the one-vs-rest table equals the 2-class matrix kappa.
        let binary = ConfusionMatrix(reference: reference.map { $0 == 0 ? 0 : 1 }, test: test.map { $0 == 0 ? 0 : 1 }, classCount: 2)
        #expect(abs(try #require(wake.cohenKappa) - (try #require(binary.cohenKappa))) < 1e-15)
        #expect(wake.prevalenceIndex == -0.1 && wake.biasIndex == 0.1)
    }

    @Test func sleepIsPositiveByDefault() {
        let reference: [SleepWake] = [.sleep, .sleep, .sleep, .wake, .wake]
        let test: [SleepWake] = [.sleep, .sleep, .wake, .wake, .sleep]
        let sleepPositive = BinaryAgreement.sleepWake(reference: reference, test: test)
        #expect(sleepPositive.sensitivity == 2.0 / 3.0 && sleepPositive.specificity == 0.5)
        let wakePositive = BinaryAgreement.sleepWake(reference: reference, test: test, positive: .wake)
        #expect(wakePositive.sensitivity == 0.5 && wakePositive.specificity == 2.0 / 3.0)
    }

    /// Shrout & Fleiss (1979) Table 2 (6 targets × 4 judges), published ICC(1,1) = .17,
    /// ICC(2,1) = .29, ICC(3,1) = .71.
    @Test func intraclassCorrelationShroutFleiss() throws {
        let ratings: [[Double]] = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
        let icc = try #require(IntraclassCorrelation.compute(ratings: ratings))
        var tally = PrintedPrecisionTally()
        tally.check("ICC(1,1)", icc.oneWay, 0.17)
        tally.check("ICC(2,1)", icc.absoluteAgreement, 0.29)
        tally.check("ICC(3,1)", icc.consistency, 0.71)
        ReferenceReport.record("Shrout & Fleiss 1979 Table 2 ICC", matched: tally.matched, total: tally.total, note: "printed to 0.01")
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches)")
        // A constant offset keeps consistency at 1 but lowers absolute agreement.
        let reference: [Double] = [400, 380, 420, 350, 445]
        let shifted = IntraclassCorrelation.compute(reference: reference, test: reference.map { $0 + 30 })!
        #expect(abs(shifted.consistency! - 1) < 1e-12)
        // MSR = 2·var(ref) = 2660, MSE = 0, MSC = n·2·(30/2)²/1 → ICC(A,1) = 2660/(2660 + 30²).
        #expect(abs(shifted.absoluteAgreement! - 2660.0 / 3560.0) < 1e-12)
    }

    @Test func studentTQuantilesAndBlandAltmanIntervals() throws {
        // Two-sided 95 % critical values (scipy.stats.t.ppf(0.975, df)).
        let table: [(Double, Double)] = [(1, 12.706204736174694), (2, 4.302652729749462), (5, 2.5705818356363146),
                                         (10, 2.228138851986274), (13, 2.1603686564627913), (30, 2.0422724563012378)]
        for (df, t) in table {
            #expect(abs(BlandAltman.StudentT.quantile(0.975, degreesOfFreedom: df) - t) < 1e-9 * t)
        }
        #expect(abs(BlandAltman.StudentT.cdf(-1.5, degreesOfFreedom: 7) - 0.088649243494985) < 1e-12)
        let reference: [Double] = [400, 380, 420, 350, 445]
        let test: [Double] = [410, 395, 415, 372, 450]
        let ba = try #require(BlandAltman.compute(reference: reference, test: test))
        // d = 10, 15, −5, 22, 5: mean 9.4, SD √(417.2/4)
        #expect(abs(ba.bias - 9.4) < 1e-12)
        let sd = (417.2 / 4.0).squareRoot()
        #expect(abs(ba.standardDeviation! - sd) < 1e-12)
        #expect(abs(ba.lowerLimitOfAgreement! - (9.4 - 1.96 * sd)) < 1e-12)
        let t4 = BlandAltman.StudentT.quantile(0.975, degreesOfFreedom: 4)
        #expect(abs(ba.biasConfidenceInterval!.upperBound - (9.4 + t4 * sd / 5.0.squareRoot())) < 1e-9)
        #expect(abs(ba.upperLimitConfidenceInterval!.lowerBound - (9.4 + 1.96 * sd - t4 * sd * (3.0 / 5.0).squareRoot())) < 1e-9)
        #expect(ba.proportionalBiasSlope != nil)
        #expect(BlandAltman.compute(reference: [], test: []) == nil)
    }
}
