import Foundation

/// Where an export goes: standard output (streamed in 64 KiB blocks), or a file that appears
/// whole or not at all (written to a temporary name beside it, renamed when complete).
public final class CSVOutput {
    private let handle: FileHandle
    private let finalPath: String?
    private let temporaryPath: String?
    private var buffer: [UInt8] = []
    /// For a path ending in `.gz`: the file is written gzip-compressed (``GzipCompressor``).
    private var gzip: GzipCompressor?

    /// - Parameter path: nil for standard output.
    public init(path: String?) throws {
        guard let path else {
            handle = FileHandle.standardOutput; finalPath = nil; temporaryPath = nil
            return
        }
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: nil), let h = FileHandle(forWritingAtPath: temporary) else {
            throw Failure("cannot write \(path): cannot create \(temporary)")
        }
        handle = h; finalPath = path; temporaryPath = temporary
        buffer.reserveCapacity(1 << 16)
        if path.hasSuffix(".gz") { gzip = try GzipCompressor() }
    }

    /// An output on `handle` (a test's `/dev/full`), named `name` in errors.
    package init(handle: FileHandle, name: String) {
        self.handle = handle; finalPath = nil; temporaryPath = nil; displayName = name
    }

    /// What errors call the output: its path, or standard output.
    private var displayName: String?
    private var name: String { displayName ?? finalPath ?? "standard output" }

    public func write(_ line: String) throws {
        buffer.append(contentsOf: line.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    private func flush(finish: Bool = false) throws {
        guard !buffer.isEmpty || (finish && gzip != nil) else { return }
        let bytes = try gzip?.compress(buffer, finish: finish) ?? buffer
        do { try handle.write(contentsOf: bytes) } catch { throw Failure("cannot write \(name): \(Self.reason(error))") }
        buffer.removeAll(keepingCapacity: true)
    }

    /// A write error in plain words: the system's reason (`No space left on device`), not
    /// Foundation's `NSCocoaErrorDomain` text.
    static func reason(_ error: any Error) -> String {
        let e = error as NSError
        if e.domain == NSPOSIXErrorDomain, let code = Int32(exactly: e.code) { return String(cString: strerror(code)) }
        if let underlying = e.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = Int32(exactly: underlying.code) {
            return String(cString: strerror(code))
        }
        switch e.code {
        case CocoaError.Code.fileWriteOutOfSpace.rawValue: return String(cString: strerror(ENOSPC))
        case CocoaError.Code.fileWriteNoPermission.rawValue: return String(cString: strerror(EACCES))
        default: return e.localizedDescription
        }
    }

    /// Flushes and, for a file, moves it into place.
    public func finish() throws {
        try flush(finish: true)
        guard let finalPath, let temporaryPath else { return }
        do { try handle.close() } catch { throw Failure("cannot write \(finalPath): \(Self.reason(error))") }
        guard rename(temporaryPath, finalPath) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw Failure("cannot write \(finalPath): \(reason)")
        }
    }

    /// The output file cannot be created or moved into place (a folder that is missing or not
    /// writable, a full disk): an environment error, not the data's.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs `body`, which writes the rows, then moves the file into place (``finish()``); on any
    /// error, the body's or the move's, removes the partly written file (``abandon()``) and
    /// rethrows. Every export goes through this, so none leaves half a file behind.
    public func whole<T>(_ body: () throws -> T) throws -> T {
        do {
            let result = try body()
            try finish()
            return result
        } catch {
            abandon()
            throw error
        }
    }

    /// Removes a partly written file after an error.
    public func abandon() {
        guard let temporaryPath else { return }
        try? handle.close()
        try? FileManager.default.removeItem(atPath: temporaryPath)
    }
}
