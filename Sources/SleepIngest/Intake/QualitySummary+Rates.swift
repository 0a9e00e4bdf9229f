import SleepCore

extension QualitySummary {
    /// The shortest recording (interior whole seconds, 10 min) whose sample-rate drift is reported.
    public static let minimumDriftSeconds = 600
    /// Fills the sample-rate facts from per-second sample counts.
    ///
    /// Only *interior* seconds count (covered, with covered neighbours on both sides): the first and
    /// last second of a run are partial and would bias the rate low. `nominalHz` is the rate the
    /// header states; without one, the median samples per interior second stands in.
    mutating func measureRates(series: [SecondSeries], nominalHz: Double?) {
        var interiorSeconds = 0
        var interiorSamples = 0
        var histogram: [Int: Int] = [:]
        var hours: [Int64: (seconds: Int, samples: Int)] = [:]
        for s in series {
            s.sampleCounts.withUnsafeBufferPointer { c in
                guard c.count >= 3 else { return }
                for i in 1..<(c.count - 1) where c[i] > 0 && c[i - 1] > 0 && c[i + 1] > 0 {
                    let n = Int(c[i])
                    interiorSeconds += 1
                    interiorSamples += n
                    histogram[n, default: 0] += 1
                    let hour = LocalClock.floorDiv(s.startSecond + Int64(i), 3600)
                    hours[hour, default: (0, 0)].seconds += 1
                    hours[hour, default: (0, 0)].samples += n
                }
            }
        }
        guard interiorSeconds > 0 else {
            nominalSampleRateHz = nominalHz
            return
        }
        var nominal = nominalHz
        if nominal == nil {
            var seen = 0
            for (value, count) in histogram.sorted(by: { $0.key < $1.key }) {
                seen += count
                if seen * 2 >= interiorSeconds { nominal = Double(value); break }
            }
        }
        nominalSampleRateHz = nominal
        let effective = Double(interiorSamples) / Double(interiorSeconds)
        // Drift is measured only over whole seconds worth measuring: in a few minutes of samples,
        // one dropped or added second already reads as percents, which is noise, not drift.
        if let nominal, nominal > 0, interiorSeconds >= Self.minimumDriftSeconds {
            sampleRateDriftPercent = (effective - nominal) / nominal * 100
        }
        let rates = hours.values.filter { $0.seconds >= 1800 }.map { Double($0.samples) / Double($0.seconds) }
        hourlyRateMinHz = rates.min()
        hourlyRateMaxHz = rates.max()
    }
}
