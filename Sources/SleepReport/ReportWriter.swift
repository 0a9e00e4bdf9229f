import Foundation

/// Writes report files atomically (temporary file, then rename) and only when their bytes
/// change, so a second identical run leaves every file — and its modification time — alone.
public enum ReportWriter {
    public enum Outcome: Sendable { case written, unchanged }

    @discardableResult
    public static func write(_ bytes: [UInt8], to path: String) throws -> Outcome {
        let fm = FileManager.default
        if let existing = fm.contents(atPath: path), existing.count == bytes.count, [UInt8](existing) == bytes {
            return .unchanged
        }
        let directory = (path as NSString).deletingLastPathComponent
        try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = temporaryPath(for: path)
        try writeTemporary(bytes, to: temporary, for: path)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? fm.removeItem(atPath: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "cannot write \(path): \(reason)"])
        }
        return .written
    }

    @discardableResult
    public static func write(_ text: String, to path: String) throws -> Outcome {
        try write(Array(text.utf8), to: path)
    }
}
