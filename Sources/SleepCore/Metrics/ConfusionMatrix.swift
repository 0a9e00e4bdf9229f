/// Epoch-by-epoch confusion matrix between a reference scoring (e.g. PSG) and a test scoring
/// (e.g. actigraphy or a consumer tracker) of the same night, for any number of classes.
///
/// Rows are reference classes, columns are test classes, as in the "error matrix" of the SRI
/// pipeline (Menghini et al. 2021, SLEEP 44(2):zsaa170, function `errorMatrix`) and in yasa's
/// `EpochByEpochAgreement.get_confusion_matrix` (reference scorer as the index). Classes are
/// integers `0..<classCount`; ``SleepStage`` and ``SleepWake`` map through their raw values
/// (stages: 0 wake, 1 light, 2 deep, 3 REM; sleep/wake: 0 sleep, 1 wake).
///
/// Multi-class agreement (``accuracy``, ``cohenKappa``) uses all classes at once; per-class
/// sensitivity and specificity come from ``oneVsRest(_:)``, the one-vs-rest dichotomisation the
/// SRI pipeline applies per stage (`indEBE`, `groupEBE`).
public struct ConfusionMatrix: Sendable, Hashable, Codable {
    /// Number of classes (rows = columns).
    public let classCount: Int
    /// Counts, row-major: `counts[reference * classCount + test]`.
    public private(set) var counts: [Int]

    /// An empty matrix.
    public init(classCount: Int) {
        precondition(classCount >= 2, "need at least 2 classes")
        self.classCount = classCount
        self.counts = [Int](repeating: 0, count: classCount * classCount)
    }

    /// Counts of two equally long label sequences with values in `0..<classCount`.
    public init(reference: [Int], test: [Int], classCount: Int) {
        precondition(reference.count == test.count, "scorings must have the same number of epochs")
        self.init(classCount: classCount)
        for i in reference.indices { add(reference: reference[i], test: test[i]) }
    }

    /// 4-class matrix of two staged hypnograms (wake, light, deep, REM).
    public init(reference: [SleepStage], test: [SleepStage]) {
        self.init(
            reference: reference.map { Int($0.rawValue) }, test: test.map { Int($0.rawValue) },
            classCount: SleepStage.allCases.count)
    }

    /// 2-class matrix of two sleep/wake scorings (class 0 = sleep, 1 = wake).
    public init(reference: [SleepWake], test: [SleepWake]) {
        self.init(
            reference: reference.map { Int($0.rawValue) }, test: test.map { Int($0.rawValue) },
            classCount: 2)
    }

    /// Adds one epoch.
    public mutating func add(reference: Int, test: Int) {
        precondition((0..<classCount).contains(reference) && (0..<classCount).contains(test), "class out of range")
        counts[reference * classCount + test] += 1
    }

    /// Adds the counts of another matrix with the same classes (pooling nights: the SRI "sum"
    /// matrices).
    public mutating func add(_ other: ConfusionMatrix) {
        precondition(other.classCount == classCount, "class counts differ")
        for i in counts.indices { counts[i] += other.counts[i] }
    }

    /// Number of epochs with this reference class and this test class.
    public subscript(reference reference: Int, test test: Int) -> Int {
        counts[reference * classCount + test]
    }

    /// Total number of epochs.
    public var total: Int { counts.reduce(0, +) }

    /// Epochs of class `c` in the reference (row total).
    public func referenceTotal(_ c: Int) -> Int {
        (0..<classCount).reduce(0) { $0 + self[reference: c, test: $1] }
    }

    /// Epochs of class `c` in the test scoring (column total).
    public func testTotal(_ c: Int) -> Int {
        (0..<classCount).reduce(0) { $0 + self[reference: $1, test: c] }
    }

    /// Overall accuracy (fraction 0–1 of epochs with the same class); nil for an empty matrix.
    public var accuracy: Double? {
        let n = total
        guard n > 0 else { return nil }
        let agree = (0..<classCount).reduce(0) { $0 + self[reference: $1, test: $1] }
        return Double(agree) / Double(n)
    }

    /// Cohen's (1960) unweighted kappa over all classes: (pₒ − pₑ)/(1 − pₑ) with pₑ the chance
    /// agreement from the row and column marginals (same as scikit-learn `cohen_kappa_score`,
    /// used by yasa). nil when pₑ = 1 (both scorings constant and equal) or the matrix is empty.
    public var cohenKappa: Double? {
        let n = Double(total)
        guard n > 0, let po = accuracy else { return nil }
        var pe = 0.0
        for c in 0..<classCount {
            pe += Double(referenceTotal(c)) * Double(testTotal(c))
        }
        pe /= n * n
        guard pe < 1 else { return nil }
        return (po - pe) / (1 - pe)
    }

    /// Proportion of the reference-class-`r` epochs that the test scoring put in each class
    /// (the SRI "proportional" error matrix row); nil entries when the reference has no epoch
    /// of class `r`.
    public func rowProportions(reference r: Int) -> [Double?] {
        let rowTotal = referenceTotal(r)
        return (0..<classCount).map { t in
            rowTotal > 0 ? Double(self[reference: r, test: t]) / Double(rowTotal) : nil
        }
    }

    /// 2×2 agreement for class `positive` against all other classes.
    public func oneVsRest(_ positive: Int) -> BinaryAgreement {
        precondition((0..<classCount).contains(positive), "class out of range")
        let tp = self[reference: positive, test: positive]
        let fn = referenceTotal(positive) - tp
        let fp = testTotal(positive) - tp
        let tn = total - tp - fn - fp
        return BinaryAgreement(truePositives: tp, falsePositives: fp, falseNegatives: fn, trueNegatives: tn)
    }

    /// One-vs-rest agreement for a sleep stage.
    public func oneVsRest(_ stage: SleepStage) -> BinaryAgreement { oneVsRest(Int(stage.rawValue)) }
}

/// Agreement of a dichotomous scoring with a reference (one class "positive").
///
/// Sleep/wake convention: in actigraphy validation (and in the SRI pipeline's sleep/wake
/// analysis, `per_subject_sleep_wake`) **sleep is the positive class**: sensitivity = share of
/// reference-sleep epochs scored sleep, specificity = share of reference-wake epochs scored wake.
/// Use ``sleepWake(reference:test:positive:)`` with `positive: .wake` for the wake-positive
/// convention (the SRI per-stage table treats WAKE like any stage: wake positive).
///
/// All proportions are fractions (0–1). The extra indices follow Byrt, Bishop & Carlin (1993),
/// as computed by R `epiR::epi.kappa` in the SRI pipeline.
public struct BinaryAgreement: Sendable, Hashable, Codable {
    public var truePositives: Int
    public var falsePositives: Int
    public var falseNegatives: Int
    public var trueNegatives: Int

    public init(truePositives: Int, falsePositives: Int, falseNegatives: Int, trueNegatives: Int) {
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        self.falseNegatives = falseNegatives
        self.trueNegatives = trueNegatives
    }

    /// Agreement of two sleep/wake scorings with `positive` as the positive class.
    public static func sleepWake(reference: [SleepWake], test: [SleepWake], positive: SleepWake = .sleep) -> BinaryAgreement {
        ConfusionMatrix(reference: reference, test: test).oneVsRest(Int(positive.rawValue))
    }

    public var total: Int { truePositives + falsePositives + falseNegatives + trueNegatives }

    private func ratio(_ a: Int, _ b: Int) -> Double? { b > 0 ? Double(a) / Double(b) : nil }

    /// (TP + TN) / N.
    public var accuracy: Double? { ratio(truePositives + trueNegatives, total) }
    /// TP / (TP + FN): share of reference positives found.
    public var sensitivity: Double? { ratio(truePositives, truePositives + falseNegatives) }
    /// TN / (TN + FP): share of reference negatives found.
    public var specificity: Double? { ratio(trueNegatives, trueNegatives + falsePositives) }
    /// TP / (TP + FP).
    public var positivePredictiveValue: Double? { ratio(truePositives, truePositives + falsePositives) }
    /// TN / (TN + FN).
    public var negativePredictiveValue: Double? { ratio(trueNegatives, trueNegatives + falseNegatives) }
    /// Reference prevalence of the positive class: (TP + FN) / N.
    public var prevalence: Double? { ratio(truePositives + falseNegatives, total) }

    /// Cohen's kappa of the 2×2 table (nil when chance agreement is 1 or the table is empty).
    public var cohenKappa: Double? {
        let n = Double(total)
        guard n > 0, let po = accuracy else { return nil }
        let refPositive = Double(truePositives + falseNegatives)
        let testPositive = Double(truePositives + falsePositives)
        let pe = (refPositive * testPositive + (n - refPositive) * (n - testPositive)) / (n * n)
        guard pe < 1 else { return nil }
        return (po - pe) / (1 - pe)
    }

    /// Prevalence- and bias-adjusted kappa, 2·pₒ − 1.
    public var prevalenceAdjustedBiasAdjustedKappa: Double? { accuracy.map { 2 * $0 - 1 } }
    /// Prevalence index (TP − TN) / N (epiR `pindex`).
    public var prevalenceIndex: Double? {
        total > 0 ? Double(truePositives - trueNegatives) / Double(total) : nil
    }
    /// Bias index (FP − FN) / N (epiR `bindex`: test-positive/reference-negative minus
    /// test-negative/reference-positive).
    public var biasIndex: Double? {
        total > 0 ? Double(falsePositives - falseNegatives) / Double(total) : nil
    }
}
