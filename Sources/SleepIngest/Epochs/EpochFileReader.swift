import SleepCore
/// One reader per epoch-file format, behind this small protocol (the epoch counterpart of
/// ``RecordingReader``, which reads raw samples into per-second series).
///
/// A reader returns the whole file as an ``EpochRecording`` or throws an ``IngestError`` naming
/// the file, the line (or the table row) and what was expected.
public protocol EpochFileReader: Sendable {
    static var format: EpochFileFormat { get }
    init()
    /// Whether a file with this name and these first bytes is in this reader's format.
    static func accepts(fileName: String, head: [UInt8]) -> Bool
    func read(path: String, options: IngestOptions) throws(IngestError) -> EpochRecording
}

extension FormatDetector {
    /// Epoch-file readers, most specific first. Checked before the raw-sample readers by
    /// ``detect(path:)``; none of them accepts a raw-sample file (ActiLife raw exports,
    /// whose header says `Epoch Period (hh:mm:ss) 00:00:00`, are left to the raw readers).
    public static let epochReaders: [any EpochFileReader.Type] = [
        AGDReader.self, ActiwatchAWDReader.self, ActTrustReader.self, MotionWatchMTNReader.self, UKBiobankEpochCSVReader.self, BBATimeSeriesReader.self, ActiwareCSVReader.self, QUTEpochCSVReader.self, MMASHActigraphReader.self, ActiLifeCSVReader.self,
    ]

    /// Reads any epoch file (format told by name and content).
    public static func readEpochs(path: String, options: IngestOptions) throws(IngestError) -> EpochRecording {
        _ = try FileBytes.head(path: path, count: 1)   // an unreadable file says so, not "not an epoch file"
        let detected: DetectedFormat?
        do throws(IngestError) { detected = try detect(path: path) } catch where error.notRecording != nil { throw error } catch { detected = nil }
        guard case .epochs(let reader)? = detected else {
            throw IngestError(file: path, byteOffset: 0, message: "not an epoch file: expected one of \(epochFormatList)")
        }
        return try reader.read(path: path, options: options)
    }
}
