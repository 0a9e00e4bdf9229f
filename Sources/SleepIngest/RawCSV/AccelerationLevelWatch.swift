/// Watches the level of |a| along a raw `timestamp,x,y,z` CSV, which states no unit, for a file
/// whose unit changes on the way (rows appended in m/s² to a file in g, or the reverse): the
/// unit is judged from the first rows, and every movement after the change would be 9.81 times
/// off. One sample in 128 is looked at (a counter and a branch per sample); 64 looks make a block
/// (8192 samples: 82 s at 100 Hz). A block whose mean |a| lies near 9.8 after a start near 1 (or
/// the reverse) is a unit change: a moving wrist averages 1–1.5 g over such a block, never 5.
struct AccelerationLevelWatch {
    private var seen = 0
    private var blockSum = 0.0
    private var blockCount = 0
    private var firstLevel: Double? = nil
    /// The first block's level, the changed block's level and the sample count at the change.
    private(set) var change: (from: Double, to: Double, sample: Int)? = nil

    @inline(__always)
    mutating func observe(x: Double, y: Double, z: Double) {
        seen &+= 1
        guard seen & 127 == 0, change == nil else { return }
        blockSum += (x * x + y * y + z * z).squareRoot()
        blockCount += 1
        if blockCount == 64 { closeBlock() }
    }

    @inline(never)
    private mutating func closeBlock() {
        let level = blockSum / Double(blockCount)
        blockSum = 0; blockCount = 0
        guard let first = firstLevel else { firstLevel = level; return }
        let g = 0.5..<2.0, metres = 5.0..<15.0
        if (g.contains(first) && metres.contains(level)) || (metres.contains(first) && g.contains(level)) {
            change = (first, level, seen)
        }
    }

    /// The refusal's text, nil when the level held.
    var problem: String? {
        change.map { c in
            "mean |a| changes from about \(String(format1: c.from)) to \(String(format1: c.to)) near sample \(c.sample): the acceleration unit changes within the file (g and m/s²); split the file or convert one part"
        }
    }
}
