import SleepCore

/// Reads a raw-sample file into the wearable 5-s milestone (``SplitWearableSink``) as well as the
/// recording.
///
/// Why a switch over the concrete readers: a call through `any RawSampleReader` runs the reader's
/// generic `read<Sink>` unspecialised, which looks up generic metadata per block and per sample
/// (`swift_getGenericMetadata` was a quarter of the CPU time of a `.cwa` run). Here each call names
/// its reader, so the optimiser specialises the whole read for this sink inside the module.
/// Readers not listed still work through the generic path.
enum SpecializedSampleRead {
    static func read(_ reader: any RawSampleReader, path: String, options: IngestOptions,
                            sink: inout SplitWearableSink) throws(IngestError) -> Recording {
        switch reader {
        case let r as AxivityCWAReader: return try r.read(path: path, options: options, samples: &sink)
        case let r as GENEActivBinReader: return try r.read(path: path, options: options, samples: &sink)
        case let r as GT3XReader: return try r.read(path: path, options: options, samples: &sink)
        case let r as ActiLifeRawCSVReader: return try r.read(path: path, options: options, samples: &sink)
        case let r as RawCSVReader: return try r.read(path: path, options: options, samples: &sink)
        case let r as SensorLogCSVReader: return try r.read(path: path, options: options, samples: &sink)
        case let r as SensorLoggerCSVReader: return try r.read(path: path, options: options, samples: &sink)
        default: return try reader.read(path: path, options: options, samples: &sink)
        }
    }

    /// ``RawCSVReader/replaySamples(path:samples:)`` for this sink, specialised here for the same
    /// reason as ``read(_:path:options:sink:)`` (through the generic entry the parser's per-row
    /// call went through a protocol witness).
    static func replay(_ reader: RawCSVReader, path: String, options: IngestOptions, sink: inout SplitWearableSink) throws(IngestError) -> Bool {
        try reader.replaySamples(path: path, options: options, samples: &sink)
    }
}
