/// One reader per format, behind this one small protocol.
///
/// A reader streams its file into a ``Recording`` (per-second base series plus what the file
/// says about time zone, units and quality). It either returns the whole recording or throws an
/// ``IngestError``; it never hands on part of a file, so nothing from a bad file reaches the store.
public protocol RecordingReader: Sendable {
    static var format: RecordingFormat { get }
    init()
    /// Whether a file with this name and these first bytes is in this reader's format.
    static func accepts(fileName: String, head: [UInt8]) -> Bool
    func read(path: String, options: IngestOptions) throws(IngestError) -> Recording
}

/// What a file is, from one look at its name and head: raw samples or epochs, with its reader.
public enum DetectedFormat: Sendable {
    /// Raw samples or interval totals (phones, apps, wearables), read into per-second series.
    case samples(any RecordingReader)
    /// Activity already reduced to epochs by device software (Actiware, ActiLife, `.agd` …).
    case epochs(any EpochFileReader)

    public var isSamples: Bool {
        if case .samples = self { return true }
        return false
    }
}

/// Picks the reader for a file: the one detector of every format, raw and epoch alike.
public enum FormatDetector {
    public static let readers: [any RecordingReader.Type] = [AppJSONReader.self] + rawSampleReaders + [RawCSVReader.self]

    /// The format of `path`, judged from its name and first 4 KiB (read once). Epoch files are
    /// recognised first: none of their readers accepts a raw-sample file, while the generic 4-column
    /// CSV reader would misread `timestamp,axis1,axis2,axis3`. A table that is no recording
    /// (``NonRecordingFile``) is told by its header where only the generic reader, or none, would
    /// take the file; it throws an error marked ``IngestError/notRecording``, and a file in no
    /// format at all one that names its first line and every format read (``UnrecognisedFile``).
    public static func detect(path: String) throws(IngestError) -> DetectedFormat {
        let headBytes = 4096
        let head = try FileBytes.head(path: path, count: headBytes)
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        if let epoch = epochReaders.first(where: { $0.accepts(fileName: fileName, head: head) }) { return .epochs(epoch.init()) }
        let name = Self.nameWithoutGzipSuffix(fileName)
        if let encoding = TextEncodingCheck.utf16(fileName: name, head: head) {
            throw IngestError(file: path, byteOffset: 0, message: "the text is \(encoding), not UTF-8: save it as UTF-8 "
                + "(e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8) and run again")
        }
        if let epoch = epochReaders.first(where: { $0.accepts(fileName: name, head: head) }) { return .epochs(epoch.init()) }
        let cut = head.count == headBytes
        for r in readers where r.accepts(fileName: name, head: head) {
            if r == RawCSVReader.self, let side = NonRecordingFile.identify(head: head, cut: cut) { throw side.error(path: path) }
            return .samples(r.init())
        }
        if let side = NonRecordingFile.identify(head: head, cut: cut) { throw side.error(path: path) }
        throw UnrecognisedFile.error(path: path, fileName: name, head: head, cut: cut)
    }

    /// The reader of a raw-sample file (`inspect`, the epoch commands' raw input); an epoch file is
    /// refused with what to do instead.
    public static func reader(forPath path: String) throws(IngestError) -> any RecordingReader {
        switch try detect(path: path) {
        case .samples(let reader): return reader
        case .epochs(let epoch):
            throw IngestError(file: path, byteOffset: 0, message: "an epoch file (\(type(of: epoch).format.rawValue)), not raw samples: this needs raw acceleration samples (`run` and `nightly` analyse epoch files with the epoch-file method; `score` and `periods` score them)")
        }
    }

    /// File names the batch considers at all (others are skipped without error).
    public static func isCandidate(fileName: String) -> Bool {
        let n = fileName.lowercased()
        // Epoch files with their own extensions: ActiLife .agd, Actiwatch .awd, MotionWatch .mtn.
        return !n.hasPrefix(".") && (n.hasSuffix(".csv") || n.hasSuffix(".json") || isRawSampleCandidate(fileName: n)
            || n.hasSuffix(".agd") || n.hasSuffix(".awd") || n.hasSuffix(".mtn"))
    }
}

