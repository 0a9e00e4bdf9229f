/// What a Bland–Altman plot shows: for each night the mean of the two methods (x) against
/// their difference test − reference (y), with the bias and the 95 % limits of agreement.
public struct BlandAltmanChart: Sendable {
    public struct Point: Sendable, Equatable {
        public var mean: Double
        public var difference: Double
        public init(mean: Double, difference: Double) { self.mean = mean; self.difference = difference }
    }

    public var title: String
    public var xAxisLabel: String
    public var yAxisLabel: String
    public var points: [Point]
    public var bias: Double?
    public var lowerLimit: Double?
    public var upperLimit: Double?

    public init(title: String, xAxisLabel: String, yAxisLabel: String, points: [Point], bias: Double?,
                lowerLimit: Double?, upperLimit: Double?) {
        self.title = title; self.xAxisLabel = xAxisLabel; self.yAxisLabel = yAxisLabel; self.points = points
        self.bias = bias; self.lowerLimit = lowerLimit; self.upperLimit = upperLimit
    }
}
