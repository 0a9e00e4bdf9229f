import SleepCore

/// A file that cannot be ingested, with where and what was expected.
///
/// Printed as `file:line: message` (text formats) or `file@offset: message` (binary/structured),
/// the convention compilers use, so editors and `grep` can jump to it.
public struct IngestError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    /// 1-based line number for text formats.
    public var line: Int?
    /// Byte offset from the start of the file, where no line applies.
    public var byteOffset: Int?
    /// A position inside a structured document (e.g. `nights[2].motionData[5].timestamp`).
    public var path: String?
    public var message: String
    /// The row was read whole and its sample refused (a time far back, a span too long): damage
    /// of the data, never a row cut short (``LineScanner/takeLastLine(_:isFirstLine:streamCut:_:)``).
    public var sampleRefused = false
    /// The file is no recording but a table a study keeps beside them (``NonRecordingFile``): a
    /// batch skips it with a line in its summary instead of counting it as failed.
    public var notRecording: NonRecordingFile? = nil

    public init(file: String, line: Int? = nil, byteOffset: Int? = nil, path: String? = nil, message: String) {
        self.file = file; self.line = line; self.byteOffset = byteOffset; self.path = path; self.message = message
    }

    /// One line of printable text: control characters from the file name or quoted from the file
    /// (a newline, a NUL of UTF-16 text) are escaped, see ``PrintableText``.
    public var description: String {
        var where_ = PrintableText.escaped(file)
        if let line { where_ += ":\(line)" }
        else if let byteOffset { where_ += "@\(byteOffset)" }
        if let path { where_ += " (\(PrintableText.escaped(path)))" }
        return "\(where_): \(PrintableText.escaped(message))"
    }

    /// The file changed (shrank, or was rewritten) while it was read: what was read is a mix of
    /// versions or cut short, so it is refused; nothing of it is stored and the next run reads it again.
    public static func changedWhileRead(path: String, detail: String) -> IngestError {
        IngestError(file: path, message: "the file changed while it was read (\(detail)); nothing of it was stored, "
            + "and the next run reads it again (is it still being written or copied?)")
    }
}
