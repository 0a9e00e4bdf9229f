import SleepCore

/// A reader of raw acceleration samples that can also hand every sample, in g and UTC seconds,
/// to a ``SampleSink`` (for computations at the native rate, such as ActiGraph counts), while it
/// builds the per-second base series.
public protocol RawSampleReader: RecordingReader {
    func read<Sink: SampleSink>(path: String, options: IngestOptions, samples: inout Sink) throws(IngestError) -> Recording
}
