/// Per-epoch ActiGraph counts for the three device axes, as produced by
/// ``ActiGraphCounts/counts(x:y:z:sampleRateHz:epochSeconds:trimming:)``.
///
/// ActiLife names the axes differently from the device: **axis1 = Y** (vertical on a hip-worn
/// device, the axis used by Cole–Kripke and Sadeh), **axis2 = X**, **axis3 = Z**.
public struct ActiGraphCountEpochs: Sendable, Equatable {
    /// Epoch length in seconds.
    public var epochSeconds: Int
    /// Device X counts per epoch (ActiLife axis2).
    public var x: [Int]
    /// Device Y counts per epoch (ActiLife axis1).
    public var y: [Int]
    /// Device Z counts per epoch (ActiLife axis3).
    public var z: [Int]

    public init(epochSeconds: Int, x: [Int], y: [Int], z: [Int]) {
        precondition(x.count == y.count && y.count == z.count, "axes must have equal epoch counts")
        self.epochSeconds = epochSeconds
        self.x = x
        self.y = y
        self.z = z
    }

    /// Number of epochs.
    public var count: Int { x.count }

    /// ActiLife axis1 (= device Y).
    public var axis1: [Int] { y }
    /// ActiLife axis2 (= device X).
    public var axis2: [Int] { x }
    /// ActiLife axis3 (= device Z).
    public var axis3: [Int] { z }

    /// ActiLife's vector magnitude √(axis1² + axis2² + axis3²) per epoch, unrounded
    /// (ActiLife displays it with two decimals; the R port of agcounts rounds it to an integer).
    public var vectorMagnitude: [Double] {
        (0..<count).map { i in
            let sumOfSquares = Double(x[i] * x[i]) + Double(y[i] * y[i]) + Double(z[i] * z[i])
            return sumOfSquares.squareRoot()
        }
    }
}
