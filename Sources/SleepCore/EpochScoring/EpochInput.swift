
/// What the epoch commands (`score`, `periods`, `counts`) read: an epoch file as it is, or raw
/// samples from which epochs are computed (ActiGraph counts, GGIR angle-z).
public enum EpochInput {
    case epochs(EpochRecording)
    case raw(RawSamples)
}

/// A raw-sample recording held in memory, for the computations that need every sample.
public struct RawSamples: Sendable {
    public var path: String
    public var buffer: RawSampleBuffer
    /// The recording's clock, as its reader found it.
    public var timeline: UTCOffsetTimeline
    public var timeZoneName: String?
    public var timeZoneSource: TimeZoneSource
    /// The reader's warnings.
    public var warnings: [String]

    public init(path: String, buffer: RawSampleBuffer, timeline: UTCOffsetTimeline, timeZoneName: String?,
                timeZoneSource: TimeZoneSource, warnings: [String]) {
        self.path = path; self.buffer = buffer; self.timeline = timeline; self.timeZoneName = timeZoneName
        self.timeZoneSource = timeZoneSource; self.warnings = warnings
    }

    /// The sample rate (the median spacing, as a whole number of Hz), checked to be even enough for
    /// filters that assume a constant rate: the sample count must be within 1 % of span × rate.
    public func evenSampleRateHz() throws(EpochCommandError) -> Int {
        guard let rate = buffer.nominalSampleRateHz, rate > 0, let first = buffer.timestamps.first,
              let last = buffer.timestamps.last else {
            throw .input("\(path): fewer than two samples, no sample rate")
        }
        let expected = (last - first) * Double(rate) + 1
        let ratio = Double(buffer.count) / expected
        guard ratio > 0.99 && ratio < 1.01 else {
            throw .input("\(path): \(buffer.count) samples over \(Int(last - first)) s is not an even \(rate) Hz signal (expected about \(Int(expected))): gaps or an unsteady rate; these epochs need evenly sampled, gap-free data")
        }
        return rate
    }

    /// ActiGraph counts per epoch (``ActiGraphCounts``, bit-exact with ActiLife): columns `axis1`
    /// (device Y), `axis2` (X), `axis3` (Z) and `vm`. Epochs start at the first sample; a trailing
    /// partial epoch is dropped (as ActiLife and agcounts do).
    public func countEpochs(epochSeconds: Int, trimming: ActiGraphCounts.Trimming = .normal) throws(EpochCommandError) -> EpochRecording {
        let rate = try evenSampleRateHz()
        guard ActiGraphCounts.supportedSampleRatesHz.contains(rate) else {
            throw .input("\(path): \(rate) Hz: ActiGraph counts need 30, 40, … 100 Hz or 32, 64, 128, 256 Hz")
        }
        let epochs: ActiGraphCountEpochs
        do {
            epochs = try ActiGraphCounts.counts(x: buffer.x, y: buffer.y, z: buffer.z, sampleRateHz: rate,
                                                epochSeconds: epochSeconds, trimming: trimming)
        } catch {
            throw .input("\(path): ActiGraph counts: \(error)")
        }
        let columns = [
            EpochColumn(name: "axis1", sourceName: "axis1", unit: "counts", reduction: .sum, values: epochs.axis1.map(Double.init)),
            EpochColumn(name: "axis2", sourceName: "axis2", unit: "counts", reduction: .sum, values: epochs.axis2.map(Double.init)),
            EpochColumn(name: "axis3", sourceName: "axis3", unit: "counts", reduction: .sum, values: epochs.axis3.map(Double.init)),
            EpochColumn(name: "vm", sourceName: "vm", unit: "counts", reduction: .vectorMagnitude, values: epochs.vectorMagnitude),
        ]
        var metadata = ["original sample rate": String(rate), "filter": trimming == .normal ? "Normal" : "LFE",
                        "counts": "ActiGraph counts computed by sleepsta (Neishabouri et al. 2022)"]
        metadata["epochlength"] = String(epochSeconds)
        return epochRecording(startUTC: buffer.timestamps[0], epochSeconds: epochSeconds, count: epochs.count,
                              columns: columns, metadata: metadata)
    }

    /// GGIR's angle-z (and ENMO) per epoch (``RawMetrics``; GGIR's default rolling median), on
    /// epochs aligned to whole multiples of the epoch length. Columns `anglez` (degrees), `enmo` (g).
    public func angleZEpochs(epochSeconds: Int) throws(EpochCommandError) -> EpochRecording {
        let rate = try evenSampleRateHz()
        let metrics: RawMetricEpochs
        do {
            let configuration = try RawMetrics.Configuration(sampleRateHz: Double(rate), epochSeconds: epochSeconds)
            metrics = try RawMetrics.epochs(of: buffer, configuration: configuration)
        } catch {
            throw .input("\(path): angle-z: \(error)")
        }
        let columns = [
            EpochColumn(name: "anglez", sourceName: "anglez", unit: "degrees", reduction: .mean, values: metrics.angleZDegrees),
            EpochColumn(name: "enmo", sourceName: "ENMO", unit: "g", reduction: .mean, values: metrics.enmo),
        ]
        return epochRecording(startUTC: Double(metrics.startUTC), epochSeconds: epochSeconds, count: metrics.count,
                              columns: columns, metadata: ["original sample rate": String(rate)])
    }

    private func epochRecording(startUTC: Double, epochSeconds: Int, count: Int, columns: [EpochColumn],
                                metadata: [String: String]) -> EpochRecording {
        let whole = Int64(startUTC.rounded(.down))
        // The reader's own time-zone warning speaks of nights (the batch); this one of printed times.
        var warnings = self.warnings.filter { !$0.contains("--tz") }
        if timeZoneSource == .assumedUTC {
            warnings.append("times are the file's clock, printed without an offset (no offset in the data and no --tz)")
        }
        return EpochRecording(path: path, format: .derivedFromRawSamples, epochSeconds: epochSeconds,
                              firstEpochLocalSecond: timeline.localSecond(atUTC: whole), startFractionSeconds: startUTC - Double(whole),
                              count: count, timeline: timeline, timeZoneName: timeZoneName,
                              timeZoneSource: timeZoneSource, columns: columns, metadata: metadata,
                              absentEpochs: columns.first.map { $0.values.filter(\.isNaN).count } ?? 0, warnings: warnings)
    }
}
