import SleepCore

// The epoch commands' CSV output (`score`, `periods`, `counts`): the columns are a contract with
// researchers' scripts; times on the recording's local clock (``EpochCSVText``).

extension ScoreResult {
    /// `start,activity,score,state` and `file_state` when the file carries its own labels.
    public var header: [String] { ["start", "activity", "score", "state"] + (fileStateColumn == nil ? [] : ["file_state"]) }

    public func csvLines() -> [String] {
        var lines = [EpochCSVText.line(header)]
        lines.reserveCapacity(epochs.count + 1)
        let fraction = recording.startFractionSeconds
        for e in epochs {
            var fields = [EpochCSVText.time(utcSecond: e.startUTC, fraction: fraction, recording: recording),
                          EpochCSVText.number(e.activity), EpochCSVText.number(e.score), e.state.map { String($0.letter) } ?? ""]
            if fileStateColumn != nil { fields.append(e.fileState.map { String($0.letter) } ?? "") }
            lines.append(EpochCSVText.line(fields))
        }
        return lines
    }

    /// Writes the CSV to standard output (`path` nil) or to a file that appears whole or not at all.
    public func writeCSV(toPath path: String?) throws {
        try EpochCSVWriter.write(csvLines(), toPath: path)
    }
}

extension SleepPeriodsResult {
    public static let header = ["in_bed_time", "out_bed_time", "onset", "latency", "efficiency", "duration", "total_sleep_time",
                                "wake_after_onset", "nb_awakenings", "ave_awakening", "total_counts", "movement_index",
                                "fragmentation_index", "sleep_fragmentation_index"]

    /// Start times on the local clock; minutes; percent; decimals as ActiLife prints them
    /// (efficiency and average awakening 2, indices 3; the sleep fragmentation index is the sum of
    /// the two rounded indices, as ActiLife computes it).
    public func csvLines() -> [String] {
        let recording = scored.recording
        func time(_ epoch: Int) -> String { EpochCSVText.time(utcSecond: recording.startUTC(ofEpoch: epoch), recording: recording) }
        var lines = [EpochCSVText.line(Self.header)]
        for p in periods {
            lines.append(EpochCSVText.line([
                time(p.inBedEpoch), time(p.outBedEpoch), time(p.onsetEpoch),
                EpochCSVText.number(p.latencyMinutes),
                EpochCSVText.fixed(p.efficiencyPercent, decimals: 2),
                EpochCSVText.number(p.durationMinutes),
                EpochCSVText.number(p.totalSleepTimeMinutes),
                EpochCSVText.number(p.wakeAfterOnsetMinutes),
                String(p.awakenings),
                EpochCSVText.fixed(p.averageAwakeningMinutes, decimals: 2),
                EpochCSVText.number(p.totalCounts),
                EpochCSVText.fixed(p.movementIndexPercent, decimals: 3),
                EpochCSVText.fixed(p.fragmentationIndexPercent, decimals: 3),
                EpochCSVText.fixed(p.sleepFragmentationIndexActiLifePercent, decimals: 3),
            ]))
        }
        return lines
    }

    public func writeCSV(toPath path: String?) throws {
        try EpochCSVWriter.write(csvLines(), toPath: path)
    }
}

extension CountsResult {
    /// The public column contract of `sleepsta counts --format csv` (ActiLife's axis order).
    public static let header = ["start", "axis1", "axis2", "axis3", "vm"]

    public func csvLines() -> [String] {
        let axes = ["axis1", "axis2", "axis3", "vm"].map(values)
        let starts = recording.epochStartsUTC
        var lines = [EpochCSVText.line(Self.header)]
        lines.reserveCapacity(recording.count + 1)
        for i in 0..<recording.count {
            lines.append(EpochCSVText.line(
                [EpochCSVText.time(utcSecond: starts[i], fraction: recording.startFractionSeconds, recording: recording)]
                + axes.map { EpochCSVText.number($0[i]) }))
        }
        return lines
    }

    public func writeCSV(toPath path: String?) throws {
        try EpochCSVWriter.write(csvLines(), toPath: path)
    }
}
