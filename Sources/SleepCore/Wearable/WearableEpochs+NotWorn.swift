extension WearableEpochs {
    /// Flags the epochs that start in each `[from, to)` span (UTC seconds) as not worn: spans a
    /// sleep diary's `nonwear` rows give, which outrank what the data suggest (a device taken off
    /// and laid on a moving surface, or left on a still sleeper's bedside, fools any rule).
    public mutating func markNotWorn(_ spans: [[Int64]]) {
        let step = Int64(WearableEpochs.epochSeconds)
        for span in spans where span.count == 2 && span[1] > span[0] {
            let from = max(0, Int(max(-1, LocalClock.floorDiv(span[0] - startUTC + step - 1, step))))
            let to = min(count, Int(min(Int64(count), max(0, LocalClock.floorDiv(span[1] - startUTC + step - 1, step)))))
            for k in from..<max(from, to) { nonWear[k] = true }
        }
    }
}
