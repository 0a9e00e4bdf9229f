/// Agreement of one night metric between two interval lengths across nights.
///
/// Pairs are (reference = shorter length, test = longer length) of the same night; nights where
/// the metric is undefined at either length are left out (``count`` says how many remain).
/// - mean difference = Bland–Altman bias = mean(test − reference) (``BlandAltman``);
/// - 95 % limits of agreement = bias ± 1.96 · SD of the differences (SD with n − 1), with
///   parametric confidence intervals (Bland & Altman 1986);
/// - ICC(2,1) = ICC(A,1), two-way random, absolute agreement, single measures (Shrout & Fleiss
///   1979; McGraw & Wong 1996; pingouin `intraclass_corr` row ICC(A,1)) (``IntraclassCorrelation/absoluteAgreement``):
///   a systematic offset between the lengths lowers it, as a method comparison wants.
public struct MetricAgreement: Sendable, Equatable {
    public var metric: ComparedMetric
    public var count: Int
    public var referenceMean: Double?
    public var testMean: Double?
    /// mean |test − reference|.
    public var meanAbsoluteDifference: Double?
    public var blandAltman: BlandAltman?
    /// ICC(2,1); nil with fewer than 2 nights or when every value is the same.
    public var intraclassCorrelation: Double?

    public static func compute(metric: ComparedMetric, reference: [Double], test: [Double]) -> MetricAgreement {
        precondition(reference.count == test.count, "paired values needed")
        let n = reference.count
        func mean(_ v: [Double]) -> Double? { v.isEmpty ? nil : v.reduce(0, +) / Double(v.count) }
        let icc = IntraclassCorrelation.compute(reference: reference, test: test)?.absoluteAgreement
        return MetricAgreement(
            metric: metric, count: n, referenceMean: mean(reference), testMean: mean(test),
            meanAbsoluteDifference: mean(zip(test, reference).map { abs($0 - $1) }),
            blandAltman: BlandAltman.compute(reference: reference, test: test),
            intraclassCorrelation: icc.flatMap { $0.isFinite ? $0 : nil })
    }
}
