extension EpochFileNightMethod {
    /// Per scoring epoch of `scored`: whether the not-worn rule blanked it.
    ///
    /// ``markNonWear(_:column:family:parameters:summary:)`` turns the epochs it takes as the device
    /// off the wrist into missing values of the column it scores, so after scoring they look like
    /// epochs the file has no value for. Comparing the column as the file gives it (`original`)
    /// with the column scored (`blanked`) recovers them: a file epoch with a value in the one and
    /// none in the other was blanked. A scoring epoch (the file's own, or 60 s summed from shorter
    /// ones) is not worn when any of its file epochs was blanked; the method reports those minutes
    /// of the sleep period apart from the minutes the file has no value for.
    static func notWornEpochs(_ s: EpochNightSeries, original: [Double], blanked: [Double], scored: Scored) -> [Bool] {
        let n = scored.states.count, E = Int64(scored.epochSeconds)
        var result = [Bool](repeating: false, count: n)
        guard original.count == s.count, blanked.count == s.count, E > 0 else { return result }
        for i in 0..<s.count where !original[i].isNaN && blanked[i].isNaN {
            let k = LocalClock.floorDiv(s.epochStartUTC(i) - scored.startUTC, E)
            if k >= 0 && k < Int64(n) { result[Int(k)] = true }
        }
        return result
    }
}
