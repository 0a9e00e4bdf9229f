/// The hypnogram of a scored night: one stage per interval, where an interval counts as sleep
/// only when its state is sleep and it lies inside the sleep period (light or deep by its
/// movement phase), and as wake otherwise (before sleep onset, after the wake time, wake
/// intervals, intervals without data). For phones this is exactly the labelling
/// ``NightAnalyzer`` hands to ``NightMetrics``; awakenings skip intervals without data as the
/// analyzer does, so counts taken here agree with the metrics.
///
/// Wearables and epoch files score sleep/wake per epoch, and their metrics are computed on the
/// epochs: ``metricsLabelling(_:)`` gives their hypnogram of epochs (one "interval" per scored
/// epoch), the one their metrics and awakenings come from. Their interval hypnogram (each
/// interval the majority of its epochs) is only what the chart and the phases show.
public struct IntervalHypnogram: Sendable, Equatable {
    /// UTC second of the first interval's start.
    public var startUTC: Int64
    public var intervalSeconds: Int
    /// `.wake`, `.light` or `.deep` per interval.
    public var stages: [SleepStage]
    /// Sleep/wake state per interval as scored (majority of epochs), nil where no epoch was scored.
    public var states: [SleepWake?]

    /// A wake run inside the sleep period that sleep follows (an awakening), `[startUTC, endUTC)`.
    public struct Bout: Sendable, Equatable, Codable {
        public var startUTC: Int64
        public var endUTC: Int64
        public var minutes: Double { Double(endUTC - startUTC) / 60 }

        package init(startUTC: Int64, endUTC: Int64) { self.startUTC = startUTC; self.endUTC = endUTC }
    }

    public init(startUTC: Int64, intervalSeconds: Int, stages: [SleepStage], states: [SleepWake?]) {
        precondition(stages.count == states.count, "one stage and one state per interval")
        self.startUTC = startUTC; self.intervalSeconds = intervalSeconds; self.stages = stages; self.states = states
    }

    /// nil unless the analysis is scored (only scored nights have a sleep period).
    public init?(_ analysis: NightAnalysis) {
        guard analysis.status == .scored, let m = analysis.metrics, let onset = m.sleepOnsetUTC, let wake = m.wakeTimeUTC,
              let first = analysis.intervals.first else { return nil }
        startUTC = first.movement.startUTC
        intervalSeconds = analysis.parameters.interval.seconds
        states = analysis.intervals.map(\.state)
        stages = analysis.intervals.map { iv in
            guard iv.state == .sleep, iv.movement.endUTC > onset, iv.movement.startUTC < wake else { return .wake }
            return iv.phase == .deep ? .deep : .light
        }
    }

    /// The labels a scored night's sleep/wake metrics were computed on: the intervals for a
    /// method whose metrics depend on the interval length (phones), else the scored epochs.
    /// Comparing two lengths on these labels compares what the metrics saw: identical epochs,
    /// κ = 1 and no hidden awakenings, where only the intervals' majority votes differ.
    public static func metricsLabelling(_ analysis: NightAnalysis) -> IntervalHypnogram? {
        analysis.labels().metricsDependOnInterval ? IntervalHypnogram(analysis) : IntervalHypnogram(epochsOf: analysis)
    }

    /// The hypnogram of a scored night's epochs (at the metrics' resolution): sleep epochs inside
    /// the sleep period are `light` (phases belong to intervals), the rest wake; nil unless
    /// scored with evenly spaced epochs.
    public init?(epochsOf analysis: NightAnalysis) {
        guard analysis.status == .scored, let m = analysis.metrics, let onset = m.sleepOnsetUTC, let wake = m.wakeTimeUTC,
              let first = analysis.epochs.first, m.resolutionSeconds > 0 else { return nil }
        let E = m.resolutionSeconds
        for (k, e) in analysis.epochs.enumerated() where e.startUTC != first.startUTC + Int64(k * E) { return nil }
        startUTC = first.startUTC
        intervalSeconds = E
        states = analysis.epochs.map(\.state)
        stages = analysis.epochs.map { e in
            guard e.state == .sleep, e.startUTC + Int64(E) > onset, e.startUTC < wake else { return .wake }
            return .light
        }
    }

    public var endUTC: Int64 { startUTC + Int64(stages.count * intervalSeconds) }

    /// Index of the interval holding a UTC second, nil outside the hypnogram.
    public func index(atUTC second: Int64) -> Int? {
        guard second >= startUTC, second < endUTC else { return nil }
        return Int((second - startUTC) / Int64(intervalSeconds))
    }

    /// The awakenings: maximal wake runs between the first and the last sleep interval. Intervals
    /// without data (no state) are neither sleep nor wake, as in the night metrics: they neither
    /// make an awakening nor split one, and a bout ends with its last wake interval.
    public var awakenings: [Bout] {
        guard let first = stages.firstIndex(where: \.isSleep), let last = stages.lastIndex(where: \.isSleep) else { return [] }
        var bouts: [Bout] = []
        var runStart: Int? = nil, runEnd = 0
        for i in first...last where states[i] != nil || stages[i].isSleep {
            if stages[i] == .wake {
                if runStart == nil { runStart = i }
                runEnd = i + 1
            } else if let s = runStart {
                bouts.append(Bout(startUTC: startUTC + Int64(s * intervalSeconds), endUTC: startUTC + Int64(runEnd * intervalSeconds)))
                runStart = nil
            }
        }
        return bouts
    }
}
