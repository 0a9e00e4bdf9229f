import SleepCore
import SleepIngest

/// One file as the batch reads it: the recording (per-second base series and quality facts) and,
/// for readers of raw acceleration, the wearable 5-s milestone summed in the same pass
/// (``WearableEpochSink``), so that the kind can be decided after reading without a second read.
struct IngestRead: Sendable {
    var recording: Recording
    /// The milestone's sink after the pass; nil for formats without raw samples (interval totals).
    var sink: WearableEpochSink?

    /// Raw wearable device formats: worn for days, acceleration with gravity.
    static let wearableDeviceFormats: Set<RecordingFormat> = [.axivityCWA, .geneActivBin, .actiGraphGT3X, .actiLifeRawCSV]

    static func read(reader: any RecordingReader, path: String, options: IngestOptions) throws(IngestError) -> IngestRead {
        guard let raw = reader as? any RawSampleReader else {
            return IngestRead(recording: try reader.read(path: path, options: options), sink: nil)
        }
        var sink = WearableEpochSink()
        let recording = try raw.read(path: path, options: options, samples: &sink)
        return IngestRead(recording: recording, sink: sink)
    }

    /// The wearable milestone of a recording analysed as `wearable-24h`, with its facts added to the
    /// recording's quality record; nil, with a warning saying why, when the data cannot give one
    /// (no raw samples, or acceleration without gravity: ENMO and angle-z would mean nothing).
    static func wearableEpochs(_ file: IngestRead, path: String, recording: inout Recording) throws(IngestError) -> WearableEpochs? {
        guard let sink = file.sink else {
            recording.warnings.append("the wearable method needs raw acceleration samples; this \(recording.format.rawValue) file holds none, so its nights are not scored")
            return nil
        }
        if recording.gravity == .removed {
            recording.warnings.append("the wearable method needs acceleration with gravity (angle-z, ENMO), but this recording's gravity was removed (mean |a| ≈ 0): its nights are not scored; analyse it as --kind phone-in-bed")
            return nil
        }
        let epochs: WearableEpochs
        do { epochs = try sink.finish().epochs } catch {
            throw IngestError(file: path, byteOffset: 0, message: "wearable epochs: \(error)")
        }
        var q = recording.quality
        q.calibration = "skipped: not yet applied by this version"
        q.wearableEpochs = (0..<epochs.count).reduce(0) { $0 + (epochs.hasData($1) ? 1 : 0) }
        q.nonWearSeconds = epochs.nonWearSeconds
        var periods = 0
        for i in 0..<epochs.count where epochs.nonWear[i] && (i == 0 || !epochs.nonWear[i - 1]) { periods += 1 }
        q.nonWearPeriods = periods
        recording.quality = q
        if sink.outOfOrderSamples > 0 {
            recording.warnings.append("\(sink.outOfOrderSamples) sample(s) earlier than the sample before were left out of the 5-s epochs (ENMO, angle-z need time order)")
        }
        return epochs
    }
}
