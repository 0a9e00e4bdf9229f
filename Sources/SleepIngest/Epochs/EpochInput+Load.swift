import SleepCore

extension EpochInput {
    /// Reads `path` with the reader its name and content call for: the epoch readers first (.agd,
    /// ActiLife, Actiware, QUT, MMASH), then the raw-sample readers.
    public static func load(path: String, timeZoneIdentifier: String?) throws -> EpochInput {
        let options = IngestOptions(timeZoneIdentifier: timeZoneIdentifier)
        switch try FormatDetector.detect(path: path) {
        case .epochs(let reader): return .epochs(try reader.read(path: path, options: options))
        case .samples(let reader): return .raw(try RawSamples.read(reader, path: path, options: options))
        }
    }
}

extension RawSamples {
    /// Reads a raw-sample file into a ``RawSampleBuffer`` with whichever ``RawSampleReader`` takes
    /// it (raw CSV, .gt3x and the other device formats; the per-second series is built too, as for
    /// the batch, so the same checks apply).
    public static func read(_ reader: any RecordingReader, path: String, options: IngestOptions) throws -> RawSamples {
        var buffer = RawSampleBuffer()
        let recording: Recording
        if let rawReader = reader as? any RawSampleReader {
            recording = try rawReader.read(path: path, options: options, samples: &buffer)
        } else {
            throw EpochCommandError.input("\(path): a \(type(of: reader).format.rawValue) file holds no raw acceleration samples: expected raw samples (timestamp,x,y,z) or an epoch file")
        }
        return RawSamples(path: path, buffer: buffer, timeline: recording.timeline, timeZoneName: recording.timeZoneName,
                          timeZoneSource: recording.timeZoneSource, warnings: recording.warnings)
    }
}
