extension RawMetrics {
    /// The rolling medians of x, y and z over the same window (angle-z's three medians), exact.
    ///
    /// Short windows (at most ``sortedLimit`` values: GGIR's default, 51 values at 10 Hz, and every
    /// rate below 26 Hz) keep each axis as a ring plus a sorted copy in one buffer
    /// (``SortedAxes``); longer ones (the full-rate variant: 501 values at 100 Hz) use three
    /// ``MedianWindow`` double heaps, whose O(log W) update wins there. Measured on an
    /// accelerometer-like random walk (one core, three axes per push, medians read each time):
    /// at W = 51 the sorted copies take 54 ns against 84–92 ns for the heaps; they break even near
    /// W = 150 and take 300 against 114–126 ns at W = 501.
    ///
    /// Both give the median of the same values, so they agree exactly but for the sign of a zero:
    /// with 0.0 and −0.0 both in a window, either may be its median. No output depends on it: in
    /// angle-z, atan(z / √(x² + y²)), x and y are squared and a zero z gives a zero angle, which
    /// leaves a per-epoch sum that starts at +0.0 unchanged (the streaming-equals-batch test, whose
    /// quantised values include −0.0, compares the angle sums bit for bit).
    package struct AxesMedianWindow: Sendable {
        /// The longest window kept sorted.
        package static let sortedLimit = 128

        let capacity: Int
        private let sortedPath: Bool
        private var sorted: SortedAxes
        private var x: MedianWindow, y: MedianWindow, z: MedianWindow

        package init(capacity: Int) {
            precondition(capacity >= 1)
            self.capacity = capacity
            sortedPath = capacity <= Self.sortedLimit
            sorted = SortedAxes(capacity: sortedPath ? capacity : 1)
            let heap = sortedPath ? 1 : capacity
            x = MedianWindow(capacity: heap); y = MedianWindow(capacity: heap); z = MedianWindow(capacity: heap)
        }

        package var count: Int { sortedPath ? sorted.count : x.count }

        package mutating func reset() {
            if sortedPath { sorted.reset() } else { x.reset(); y.reset(); z.reset() }
        }

        /// Adds one value per axis (finite); when the window is full the oldest ones leave.
        @inline(__always)
        package mutating func push(_ vx: Double, _ vy: Double, _ vz: Double) {
            if sortedPath { sorted.push(vx, vy, vz) } else { x.push(vx); y.push(vy); z.push(vz) }
        }

        /// The three medians (R's `median`: the mean of the two middle values for an even count).
        package var medians: (x: Double, y: Double, z: Double) {
            sortedPath ? sorted.medians : (x.median, y.median, z.median)
        }
    }

    /// Three short rolling windows in one buffer: per axis a ring (arrival order, to know which
    /// value leaves) and the same values sorted, padded with +∞ to a multiple of 8. A value's rank
    /// is counted with 8-wide SIMD comparisons, without branches; the leaving value is the first at
    /// its rank, and the values between it and the new value's place move by one (a `memmove` of a
    /// few dozen bytes). One buffer for the three axes: one uniqueness check per push, not six.
    struct SortedAxes: Sendable {
        let capacity: Int
        /// Sorted values per axis, padded (the padding and unused places hold +∞).
        let padded: Int
        private var storage: [Double]
        private var oldest = 0
        private(set) var count = 0

        init(capacity: Int) {
            precondition(capacity >= 1)
            self.capacity = capacity
            padded = (capacity + 7) & ~7
            storage = [Double](repeating: .infinity, count: 3 * (capacity + padded))
        }

        /// Empties the window: every sorted place back to +∞, so that ranks count only values held.
        mutating func reset() {
            oldest = 0
            count = 0
            let stride = capacity + padded
            storage.withUnsafeMutableBufferPointer { b in
                for axis in 0..<3 { (b.baseAddress! + axis * stride + capacity).update(repeating: .infinity, count: padded) }
            }
        }

        /// How many of the `n` (a multiple of 8) values at `s` are below `v`.
        @inline(__always)
        static func rank(_ s: UnsafeMutablePointer<Double>, _ n: Int, _ v: Double) -> Int {
            var below = SIMD8<Int64>()
            let value = SIMD8<Double>(repeating: v), one = SIMD8<Int64>(repeating: 1)
            let raw = UnsafeRawPointer(s)
            var k = 0
            while k < n {
                below &+= SIMD8<Int64>().replacing(with: one, where: raw.loadUnaligned(fromByteOffset: k * 8, as: SIMD8<Double>.self) .< value)
                k += 8
            }
            return Int(below.wrappedSum())
        }

        @inline(__always)
        mutating func push(_ vx: Double, _ vy: Double, _ vz: Double) {
            let capacity = self.capacity, count = self.count, padded = self.padded
            let stride = capacity + padded
            let filling = count < capacity
            var slot = oldest
            if filling { slot += count; if slot >= capacity { slot -= capacity } }
            storage.withUnsafeMutableBufferPointer { b in
                let base = b.baseAddress!
                Self.push(vx, ring: base, slot: slot, filling: filling, count: count, capacity: capacity, padded: padded)
                Self.push(vy, ring: base + stride, slot: slot, filling: filling, count: count, capacity: capacity, padded: padded)
                Self.push(vz, ring: base + 2 * stride, slot: slot, filling: filling, count: count, capacity: capacity, padded: padded)
            }
            if filling { self.count = count + 1 } else { oldest = oldest + 1 == capacity ? 0 : oldest + 1 }
        }

        @inline(__always)
        private static func push(_ value: Double, ring: UnsafeMutablePointer<Double>, slot: Int, filling: Bool, count: Int,
                                 capacity: Int, padded: Int) {
            let sorted = ring + capacity
            let j = rank(sorted, padded, value)
            if filling {
                ring[slot] = value
                (sorted + j + 1).update(from: sorted + j, count: count - j)
                sorted[j] = value
                return
            }
            let leaving = ring[slot]
            ring[slot] = value
            let i = rank(sorted, padded, leaving)   // sorted[i] == leaving
            if j <= i {
                (sorted + j + 1).update(from: sorted + j, count: i - j)
                sorted[j] = value
            } else {
                // `leaving` was counted below `value`: without it, `value` goes to j − 1.
                (sorted + i).update(from: sorted + i + 1, count: j - 1 - i)
                sorted[j - 1] = value
            }
        }

        var medians: (x: Double, y: Double, z: Double) {
            precondition(count > 0, "median of an empty window")
            let m = count / 2, odd = count % 2 == 1, stride = capacity + padded, capacity = self.capacity
            return storage.withUnsafeBufferPointer { b in
                func median(_ axis: Int) -> Double {
                    let s = b.baseAddress! + axis * stride + capacity
                    return odd ? s[m] : (s[m - 1] + s[m]) / 2
                }
                return (median(0), median(1), median(2))
            }
        }
    }
}
