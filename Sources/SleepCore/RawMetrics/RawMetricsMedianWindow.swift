extension RawMetrics {
    /// A sliding window of the last `capacity` values with an exact running median, in O(log W) per
    /// value and no allocation after `init`.
    ///
    /// The values live in a ring (arrival order, to know which one leaves) and are indexed by two
    /// heaps, a max-heap of the lower half and a min-heap of the upper half, as in Härdle & Steiger
    /// ("Optimal median smoothing", *Applied Statistics* 44:258–264, 1995), the idea behind R's
    /// `runmed` (Turlach's double heap). A new value overwrites the
    /// leaving one in place and is sifted within its heap; if it crossed the median the two heap tops
    /// swap. The median is the lower half's top (odd count) or the mean of both tops (even count, only
    /// while the window is filling), as R's `median`.
    package struct MedianWindow: Sendable {
        let capacity: Int
        private var values: [Double]
        /// Three arrays of `capacity` in one (one uniqueness check per push instead of three):
        /// per ring slot its heap position (index in the lower heap when ≥ 0, index `-(i + 1)` in
        /// the upper heap when negative), then the lower heap, then the upper heap (ring slots).
        private var indices: [Int]
        private var lowCount = 0
        private var highCount = 0
        private var oldest = 0
        private(set) var count = 0

        package init(capacity: Int) {
            precondition(capacity >= 1)
            self.capacity = capacity
            values = [Double](repeating: 0, count: capacity)
            indices = [Int](repeating: 0, count: 3 * capacity)
        }

        mutating func reset() {
            oldest = 0
            count = 0
            lowCount = 0
            highCount = 0
        }

        /// Adds `value` (finite); when the window is full the oldest value leaves.
        package mutating func push(_ value: Double) {
            // One uniqueness check per array per value, then plain pointer work (three times per
            // sample in the full-rate variant; GGIR's 51-value window uses `SortedAxes` instead).
            let filling = count < capacity
            let slot = filling ? (oldest + count) % capacity : oldest
            var heaps = (low: lowCount, high: highCount)
            let c = capacity
            values.withUnsafeMutableBufferPointer { v in
                indices.withUnsafeMutableBufferPointer { ix in
                    let base = ix.baseAddress!
                    var core = Heaps(v: v.baseAddress!, pos: base, low: base + c, high: base + 2 * c,
                                     lowCount: heaps.low, highCount: heaps.high)
                    if filling { core.insert(slot: slot, value: value) } else { core.replace(slot: slot, value: value) }
                    heaps = (core.lowCount, core.highCount)
                }
            }
            lowCount = heaps.low
            highCount = heaps.high
            if filling { count += 1 } else { oldest = oldest + 1 == capacity ? 0 : oldest + 1 }
        }

        package var median: Double {
            precondition(count > 0, "median of an empty window")
            let lowTop = indices[capacity]
            return count % 2 == 1 ? values[lowTop] : (values[lowTop] + values[indices[2 * capacity]]) / 2
        }

        /// The double heap over borrowed storage (valid only inside `push`).
        private struct Heaps {
            let v: UnsafeMutablePointer<Double>
            let pos: UnsafeMutablePointer<Int>
            let low: UnsafeMutablePointer<Int>
            let high: UnsafeMutablePointer<Int>
            var lowCount: Int
            var highCount: Int

            mutating func insert(slot: Int, value: Double) {
                v[slot] = value
                if lowCount == 0 || value <= v[low[0]] {
                    toLow(slot, lowCount); lowCount += 1
                    lowSiftUp(lowCount - 1)
                } else {
                    toHigh(slot, highCount); highCount += 1
                    highSiftUp(highCount - 1)
                }
                // Keep lowCount == highCount or highCount + 1.
                if lowCount > highCount + 1 {
                    let top = low[0]
                    lowCount -= 1
                    if lowCount > 0 { toLow(low[lowCount], 0); lowSiftDown(0) }
                    toHigh(top, highCount); highCount += 1
                    highSiftUp(highCount - 1)
                } else if highCount > lowCount {
                    let top = high[0]
                    highCount -= 1
                    if highCount > 0 { toHigh(high[highCount], 0); highSiftDown(0) }
                    toLow(top, lowCount); lowCount += 1
                    lowSiftUp(lowCount - 1)
                }
            }

            /// Overwrites the value in `slot` (the leaving one) and restores both heaps.
            mutating func replace(slot: Int, value: Double) {
                let leaving = v[slot]
                v[slot] = value
                // An equal value in the same place (stored all the same: 0 and −0 compare equal):
                // no sift would move anything, so both heaps stay as they are. Common in quantised
                // recordings at rest (a `.cwa` counts in 1/256 g).
                if value == leaving { return }
                let p = pos[slot]
                if p >= 0 {
                    if value > leaving { lowSiftUp(p) } else { lowSiftDown(p) }
                } else {
                    if value < leaving { highSiftUp(-p - 1) } else { highSiftDown(-p - 1) }
                }
                // A value that crossed the median: exchanging the two tops restores the order.
                if highCount > 0 && v[low[0]] > v[high[0]] {
                    let a = low[0], b = high[0]
                    toLow(b, 0)
                    toHigh(a, 0)
                    lowSiftDown(0)
                    highSiftDown(0)
                }
            }

            @inline(__always) func toLow(_ slot: Int, _ i: Int) { low[i] = slot; pos[slot] = i }
            @inline(__always) func toHigh(_ slot: Int, _ i: Int) { high[i] = slot; pos[slot] = -(i + 1) }

            func lowSiftUp(_ start: Int) {
                var i = start
                let slot = low[i], x = v[slot]
                while i > 0 {
                    let parent = (i - 1) >> 1
                    guard v[low[parent]] < x else { break }
                    toLow(low[parent], i)
                    i = parent
                }
                toLow(slot, i)
            }

            func lowSiftDown(_ start: Int) {
                var i = start
                let slot = low[i], x = v[slot]
                while true {
                    var child = 2 * i + 1
                    guard child < lowCount else { break }
                    if child + 1 < lowCount && v[low[child + 1]] > v[low[child]] { child += 1 }
                    guard v[low[child]] > x else { break }
                    toLow(low[child], i)
                    i = child
                }
                toLow(slot, i)
            }

            func highSiftUp(_ start: Int) {
                var i = start
                let slot = high[i], x = v[slot]
                while i > 0 {
                    let parent = (i - 1) >> 1
                    guard v[high[parent]] > x else { break }
                    toHigh(high[parent], i)
                    i = parent
                }
                toHigh(slot, i)
            }

            func highSiftDown(_ start: Int) {
                var i = start
                let slot = high[i], x = v[slot]
                while true {
                    var child = 2 * i + 1
                    guard child < highCount else { break }
                    if child + 1 < highCount && v[high[child + 1]] < v[high[child]] { child += 1 }
                    guard v[high[child]] < x else { break }
                    toHigh(high[child], i)
                    i = child
                }
                toHigh(slot, i)
            }
        }
    }

    /// The epoch indices of the samples waiting for their rolling median, in sample order, as runs
    /// (epoch, samples): consecutive samples share their epoch, so a push is usually one increment
    /// and a pop hands a whole run at once (a queue entry per sample was about a tenth of the
    /// metrics' time on a 7-day recording).
    package struct EpochRunQueue: Sendable {
        private var epochs: [Int32]
        private var counts: [Int]
        private var head = 0
        /// Runs held.
        private var runs = 0
        /// Samples held, over all runs.
        package private(set) var sampleCount = 0

        /// `capacity`: the most samples held at once (at most that many runs).
        package init(capacity: Int) {
            epochs = [Int32](repeating: 0, count: max(capacity, 1))
            counts = [Int](repeating: 0, count: max(capacity, 1))
        }

        @inline(__always)
        package mutating func push(_ epoch: Int32) {
            precondition(sampleCount < counts.count, "epoch run queue overflow")
            sampleCount += 1
            if runs > 0 {
                var last = head + runs - 1
                if last >= epochs.count { last -= epochs.count }
                if epochs[last] == epoch { counts[last] += 1; return }
            }
            var slot = head + runs
            if slot >= epochs.count { slot -= epochs.count }
            epochs[slot] = epoch
            counts[slot] = 1
            runs += 1
        }

        /// `n` samples of `epoch` at once: the same queue as `n` pushes of it.
        @inline(__always)
        mutating func push(_ epoch: Int32, count n: Int) {
            precondition(sampleCount + n <= counts.count, "epoch run queue overflow")
            guard n > 0 else { return }
            sampleCount += n
            if runs > 0 {
                var last = head + runs - 1
                if last >= epochs.count { last -= epochs.count }
                if epochs[last] == epoch { counts[last] += n; return }
            }
            var slot = head + runs
            if slot >= epochs.count { slot -= epochs.count }
            epochs[slot] = epoch
            counts[slot] = n
            runs += 1
        }

        /// Removes the first `samples` samples (at most ``sampleCount``), calling `body` once per
        /// run or part of a run, in order, with its epoch and how many of its samples leave.
        package mutating func pop(samples: Int, _ body: (Int32, Int) -> Void) {
            precondition(samples <= sampleCount, "popping more samples than held")
            var left = samples
            while left > 0 {
                let take = Swift.min(left, counts[head])
                body(epochs[head], take)
                left -= take
                sampleCount -= take
                counts[head] -= take
                if counts[head] == 0 {
                    head = head + 1 == epochs.count ? 0 : head + 1
                    runs -= 1
                }
            }
        }

        package mutating func reset() { head = 0; runs = 0; sampleCount = 0 }
    }
}
