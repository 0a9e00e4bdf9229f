/// Intraclass correlation coefficients for n targets (nights) each rated by the same k methods
/// (e.g. PSG and actigraphy TST), from the two-way ANOVA mean squares.
///
/// Shrout & Fleiss (1979, Psychol Bull 86:420–428) single-measure forms, named as in McGraw &
/// Wong (1996, Psychol Methods 1:30–46) and computed like pingouin `intraclass_corr`:
/// - ICC(1,1): one-way random, (MSR − MSW) / (MSR + (k−1)·MSW);
/// - ICC(2,1) = ICC(A,1), **absolute agreement**, two-way random:
///   (MSR − MSE) / (MSR + (k−1)·MSE + k·(MSC − MSE)/n);
/// - ICC(3,1) = ICC(C,1), consistency, two-way mixed: (MSR − MSE) / (MSR + (k−1)·MSE).
///
/// with MSR the between-targets mean square, MSC the between-methods mean square, MSE the
/// residual mean square and MSW the within-target mean square. sleepsta's `compare` reports
/// ``absoluteAgreement`` (ICC(2,1)): a device that reads every night 30 min long has perfect
/// consistency (ICC(3,1) = 1) but is penalised by ICC(2,1), which is what a method comparison
/// wants.
public struct IntraclassCorrelation: Sendable, Hashable, Codable {
    /// Number of targets (rows) and methods (columns).
    public var targets: Int
    public var methods: Int
    /// Mean squares.
    public var meanSquareRows: Double
    public var meanSquareColumns: Double
    public var meanSquareError: Double
    public var meanSquareWithin: Double

    /// ICC(1,1).
    public var oneWay: Double? { ratio(meanSquareRows - meanSquareWithin,
                                       meanSquareRows + Double(methods - 1) * meanSquareWithin) }
    /// ICC(2,1) = ICC(A,1), absolute agreement.
    public var absoluteAgreement: Double? {
        ratio(meanSquareRows - meanSquareError,
              meanSquareRows + Double(methods - 1) * meanSquareError
                + Double(methods) * (meanSquareColumns - meanSquareError) / Double(targets))
    }
    /// ICC(3,1) = ICC(C,1), consistency.
    public var consistency: Double? {
        ratio(meanSquareRows - meanSquareError, meanSquareRows + Double(methods - 1) * meanSquareError)
    }

    private func ratio(_ a: Double, _ b: Double) -> Double? { b != 0 ? a / b : nil }

    /// ANOVA of a complete table `ratings[target][method]`; nil with fewer than 2 targets or
    /// methods or a ragged table.
    public static func compute(ratings: [[Double]]) -> IntraclassCorrelation? {
        let n = ratings.count
        guard n >= 2, let k = ratings.first?.count, k >= 2, ratings.allSatisfy({ $0.count == k }) else {
            return nil
        }
        var grand = 0.0
        for row in ratings { for x in row { grand += x } }
        grand /= Double(n * k)
        var ssRows = 0.0
        var ssCols = 0.0
        var ssTotal = 0.0
        for row in ratings {
            let m = row.reduce(0, +) / Double(k)
            ssRows += (m - grand) * (m - grand)
            for x in row { ssTotal += (x - grand) * (x - grand) }
        }
        ssRows *= Double(k)
        for j in 0..<k {
            var m = 0.0
            for row in ratings { m += row[j] }
            m /= Double(n)
            ssCols += (m - grand) * (m - grand)
        }
        ssCols *= Double(n)
        let ssError = ssTotal - ssRows - ssCols
        return IntraclassCorrelation(
            targets: n, methods: k,
            meanSquareRows: ssRows / Double(n - 1),
            meanSquareColumns: ssCols / Double(k - 1),
            meanSquareError: ssError / Double((n - 1) * (k - 1)),
            meanSquareWithin: (ssTotal - ssRows) / Double(n * (k - 1)))
    }

    /// Two methods: `reference[i]` and `test[i]` are the same night.
    public static func compute(reference: [Double], test: [Double]) -> IntraclassCorrelation? {
        precondition(reference.count == test.count, "paired values needed")
        return compute(ratings: reference.indices.map { [reference[$0], test[$0]] })
    }
}
