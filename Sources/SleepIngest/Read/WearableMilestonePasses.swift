import SleepCore

/// The passes over a raw-sample file that give its recording and, for readers of raw acceleration,
/// the wearable 5-s milestone: the first pass sums the milestone beside the recording
/// (``WearableEpochSink``), so that the kind can be decided after reading without a second read;
/// when GGIR's auto-calibration applies, a second pass sums it again through the calibration.
/// ``RecordingRead`` is what the batch gets from them.
package struct WearableMilestonePasses: Sendable {
    package var recording: Recording
    /// The milestone's sink after the pass; nil for formats without raw samples (interval totals)
    /// and after a lean first pass.
    package var sink: WearableEpochSink?
    /// A raw CSV's lean first pass: the calibration features of its samples, and nothing else of
    /// the milestone, which its second pass computes (``wearableEpochs(_:path:recording:)``).
    package var features: AutoCalibration.Features? = nil
    /// For a second, calibrated pass over the same file.
    var reader: (any RawSampleReader)? = nil
    var options: IngestOptions

    /// Raw wearable device formats: worn for days, acceleration with gravity.
    static let wearableDeviceFormats: Set<RecordingFormat> = [.axivityCWA, .geneActivBin, .actiGraphGT3X, .actiLifeRawCSV]

    /// `milestone: false` when the recording cannot be analysed as `wearable-24h` (`--kind phone-in-bed`):
    /// the reader then runs alone, on every core, and the wearable sink's arithmetic (about a third
    /// of such a run) is not done for nothing. The recording is the same either way.
    /// `activityCounts`: also compute ActiGraph counts in the milestone (a counts-based `--sleep-algorithm`).
    package static func read(reader: any RecordingReader, path: String, options: IngestOptions,
                     milestone: Bool = true, activityCounts: Bool = false) throws(IngestError) -> WearableMilestonePasses {
        guard milestone, let raw = reader as? any RawSampleReader else {
            return WearableMilestonePasses(recording: try reader.read(path: path, options: options), sink: nil)
        }
        // A plain raw CSV with epoch timestamps (the mapped path, whose second pass replays the
        // samples): the first pass makes the recording and collects the calibration features on
        // both cores, without the metrics. GGIR cannot use the metrics of the samples as read once
        // its calibration applies, and the second pass costs what the first one's metrics did
        // (the parse is a third of it). Measured in docs/performance.md.
        if !activityCounts, let csv = raw as? RawCSVReader, csv.takesLeanFirstPass(path: path) {
            var collector = AutoCalibration.FeatureCollector()
            let recording = try csv.read(path: path, options: options, samples: &collector)
            return WearableMilestonePasses(recording: recording, sink: nil, features: collector.finish(), reader: raw, options: options)
        }
        // The milestone's metrics run on the other core (SplitWearableSink), its statistics beside the reader or with the metrics.
        let (recording, sink) = try milestonePass(raw, path: path, options: options,
                                                  sink: SplitWearableSink(collectCalibrationFeatures: true, activityCounts: activityCounts,
                                                                          statisticsOnWorker: statisticsOnWorker(raw)))
        return WearableMilestonePasses(recording: recording, sink: sink, reader: raw, options: options)
    }

    package static func milestonePass(_ raw: any RawSampleReader, path: String, options: IngestOptions,
                              sink: SplitWearableSink) throws(IngestError) -> (Recording, WearableEpochSink) {
        var sink = sink
        let recording: Recording
        do { recording = try SpecializedSampleRead.read(raw, path: path, options: options, sink: &sink) } catch {
            _ = sink.finish()
            throw error
        }
        return (recording, sink.finish())
    }

    /// The milestone again, through the calibration. A plain raw CSV whose first read handed every
    /// sample on (``RawCSVReader/passedEverySample(_:)``) has its samples replayed straight into the
    /// sink, without the per-second accumulator and quality checks whose results the first read
    /// already gave; anything else is read again in full. The sink gets the same samples either way.
    package static func calibratedPass(_ raw: any RawSampleReader, path: String, options: IngestOptions, firstRead: Recording,
                               calibration: LinearCalibration?) throws(IngestError) -> WearableEpochSink {
        if let csv = raw as? RawCSVReader, RawCSVReader.passedEverySample(firstRead) {
            var sink = SplitWearableSink(calibration: calibration, statisticsOnWorker: statisticsOnWorker(raw))
            let replayed: Bool
            do { replayed = try SpecializedSampleRead.replay(csv, path: path, options: options, sink: &sink) } catch {
                _ = sink.finish()
                throw error
            }
            let finished = sink.finish()
            if replayed { return finished }
        }
        return try milestonePass(raw, path: path, options: options,
                                 sink: SplitWearableSink(calibration: calibration, statisticsOnWorker: statisticsOnWorker(raw))).1
    }

    /// Where the non-wear rule's axis statistics run (``SplitWearableSink``): beside the raw-CSV
    /// and ActiLife raw CSV readers the reading core is the busier one, so they go to the worker
    /// with the metrics; beside a binary decoder the worker is, so they stay with the reader
    /// (measured on the 7-day CSV and `.cwa` and a 2-day ActiLife file). The phone apps' text
    /// readers (SensorLog, Sensor Logger) keep the default split: not measured, and their files
    /// are nights, not weeks.
    static func statisticsOnWorker(_ raw: any RawSampleReader) -> Bool { raw is RawCSVReader || raw is ActiLifeRawCSVReader }

    /// The wearable milestone of a recording analysed as `wearable-24h`, with its facts added to the
    /// recording's quality record; nil, with a warning saying why, when the data cannot give one
    /// (no raw samples, or acceleration without gravity: ENMO and angle-z would mean nothing).
    package static func wearableEpochs(_ file: WearableMilestonePasses, path: String, recording: inout Recording) throws(IngestError) -> WearableEpochs? {
        guard file.sink != nil || file.features != nil else {
            recording.warnings.append("the wearable method needs raw acceleration samples; this \(recording.format.rawValue) file holds none, so its nights are not scored")
            return nil
        }
        if recording.gravity == .removed {
            recording.warnings.append("the wearable method needs acceleration with gravity (angle-z, ENMO), but this recording's gravity was removed (mean |a| ≈ 0): its nights are not scored; analyse it as --kind phone-in-bed")
            return nil
        }
        var q = recording.quality
        let fitted = autoCalibration(file, quality: &q)
        // The first pass's milestone when it has one and no calibration applies; else the second
        // pass, through the calibration if one applies.
        let chosen: WearableEpochSink
        if let sink = file.sink, fitted == nil {
            chosen = sink
        } else if let raw = file.reader {
            chosen = try calibratedPass(raw, path: path, options: file.options, firstRead: recording, calibration: fitted)
        } else {
            throw IngestError(file: path, byteOffset: 0, message: "wearable epochs: no reader for the second pass")
        }
        var epochs = try finishedEpochs(chosen, recording: recording, path: path)
        addCountsAndNonWear(file, epochs: &epochs, quality: &q)
        recording.quality = q
        if chosen.outOfOrderSamples > 0 {
            recording.warnings.append("\(chosen.outOfOrderSamples) sample(s) earlier than the sample before were left out of the 5-s epochs (ENMO, angle-z need time order)")
        }
        return epochs
    }

    /// Auto-calibration (van Hees 2014, GGIR g.calibrate) from the first pass's features, its
    /// facts written to `quality`; the calibration when GGIR would use it, so that the file is
    /// read again through it (GGIR also reads twice).
    static func autoCalibration(_ file: WearableMilestonePasses, quality q: inout QualitySummary) -> LinearCalibration? {
        guard let features = file.sink?.calibrationFeatures ?? file.features else { return nil }
        var fitted: LinearCalibration? = nil
        let calibration = AutoCalibration.fit(features)
        q.calibrationErrorBeforeMilliG = calibration.errorBeforeMilliG
        q.calibrationErrorAfterMilliG = calibration.errorAfterMilliG
        if let o = calibration.fittedOffset, let s = calibration.fittedScale {
            q.calibrationOffsetG = [o.x, o.y, o.z]; q.calibrationScale = [s.x, s.y, s.z]
        }
        switch calibration.status {
        case .calibrated:
            q.calibration = "applied (\(calibration.stillWindows) still 10-s windows over \(Int(calibration.hoursUsed)) h; GGIR: \(calibration.ggirMessage))"
            if file.reader != nil { fitted = LinearCalibration(calibration) }
        case .skipped(let reason):
            q.calibration = "skipped: \(reason)"
        }
        return fitted
    }

    /// The chosen pass's epochs, with GGIR 3's default non-wear score for `--method ggir` (its
    /// read chunks depend on the format), on GGIR's rows where it reads a `.cwa`'s device clock
    /// across a change of the clocks.
    static func finishedEpochs(_ chosen: WearableEpochSink, recording: Recording, path: String) throws(IngestError) -> WearableEpochs {
        do {
            let finished = try chosen.finish()
            var epochs = finished.epochs
            let format = SourceFormat.samples(recording.format)
            let clock = format.readsDeviceClockAsWallClock
                ? GGIRClockView(timeline: recording.timeline, startUTC: finished.statistics.startUTC, count: finished.statistics.count) : nil
            let scores = GGIRNonWear2023.scores(finished.statistics, chunkSeconds: GGIRNonWear2023.chunkSeconds(format: format),
                                                clock: clock)
            epochs.ggirNonWearScore = Array(scores.prefix(epochs.count))
            return epochs
        } catch {
            throw IngestError(file: path, byteOffset: 0, message: "wearable epochs: \(error)")
        }
    }

    /// ActiGraph counts from the first pass, of the samples as read (ActiLife does not
    /// calibrate), and the wear and non-wear facts of the epochs.
    static func addCountsAndNonWear(_ file: WearableMilestonePasses, epochs: inout WearableEpochs, quality q: inout QualitySummary) {
        if let sink = file.sink, let counts = sink.activityCounts(startUTC: epochs.startUTC, count: epochs.count), let rate = sink.activityCountsRateHz {
            epochs.counts = counts
            q.activityCounts = "computed as ActiLife does (agcounts 0.2.6: \(rate) Hz → 30 Hz, band-pass, normal filter), uncalibrated samples; axis-1 total \(counts.axis1.reduce(0) { $0 + Int($1) })"
        } else if let reason = file.sink?.countsUnavailableReason {
            q.activityCounts = "not computed: \(reason)"
        }
        q.wearableEpochs = (0..<epochs.count).reduce(0) { $0 + (epochs.hasData($1) ? 1 : 0) }
        q.nonWearSeconds = epochs.nonWearSeconds
        var periods = 0
        for i in 0..<epochs.count where epochs.nonWear[i] && (i == 0 || !epochs.nonWear[i - 1]) { periods += 1 }
        q.nonWearPeriods = periods
    }

    package init(recording: Recording, sink: WearableEpochSink?, features: AutoCalibration.Features? = nil, reader: (any RawSampleReader)? = nil,
                 options: IngestOptions = IngestOptions()) {
        self.recording = recording; self.sink = sink; self.features = features; self.reader = reader; self.options = options
    }
}
