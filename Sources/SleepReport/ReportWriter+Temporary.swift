import Foundation
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// A report file that could not be written, with the system's reason (e.g. "No space left on device").
public struct ReportWriteError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "cannot write \(path): \(reason)" }
}

/// The temporary files behind `ReportWriter`'s atomic writes.
///
/// A report is first written in full to `.<name>.tmp-<pid>` next to it and then renamed over the
/// old file, so a reader (or a run killed half way) sees the old file or the new one, never part
/// of one. A run killed between the two steps leaves its temporary file behind; the next run
/// removes such leftovers before it writes, those whose writing process is gone.
extension ReportWriter {
    static func temporaryPath(for path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory + "/.\((path as NSString).lastPathComponent).tmp-\(getpid())"
    }

    /// Creates (or truncates) `path` and writes all of `bytes`, reporting errno's reason (for the
    /// report file it stands in for) on failure and removing the partial file. Plain POSIX calls, so no further temporary name is involved.
    static func writeTemporary(_ bytes: [UInt8], to path: String, for reportPath: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw ReportWriteError(path: reportPath, reason: String(cString: strerror(errno))) }
        var written = 0
        let failure: String? = bytes.withUnsafeBytes { raw -> String? in
            while written < raw.count {
                let n = systemWrite(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                if n == 0 { return "write returned 0 bytes" }
                written += n
            }
            return nil
        }
        let closeFailed = close(fd) != 0 ? String(cString: strerror(errno)) : nil
        if let reason = failure ?? closeFailed {
            unlink(path)
            throw ReportWriteError(path: reportPath, reason: reason)
        }
    }

    /// Whether `name` is one of the temporary files this writer creates (or Foundation's atomic
    /// write used to create, `.dat.nosync…`).
    public static func isTemporaryFileName(_ name: String) -> Bool {
        guard name.hasPrefix(".") else { return false }
        if name.hasPrefix(".dat.nosync") { return true }
        guard let range = name.range(of: ".tmp-", options: .backwards) else { return false }
        let pid = name[range.upperBound...]
        return !pid.isEmpty && pid.allSatisfy(\.isASCII) && pid.allSatisfy(\.isNumber)
    }

    /// Whether the process that named a temporary file (`….tmp-<pid>`) still runs: its file may
    /// be mid-write (a `render` beside a run on another database, say), so it is left alone. A
    /// reused pid only keeps a leftover a little longer.
    static func writerIsAlive(_ name: String) -> Bool {
        guard let range = name.range(of: ".tmp-", options: .backwards), let pid = Int32(name[range.upperBound...]) else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Removes temporary files left by killed runs in `directory` and its subfolders (up to
    /// `depth` levels). Returns how many were removed. Only call this while holding the run lock.
    @discardableResult
    public static func removeStaleTemporaryFiles(in directory: String, depth: Int = 3) -> Int {
        let fm = FileManager.default
        guard depth >= 0, let names = try? fm.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for name in names {
            let path = directory + "/" + name
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                if !name.hasPrefix(".") { removed += removeStaleTemporaryFiles(in: path, depth: depth - 1) }
            } else if isTemporaryFileName(name), !writerIsAlive(name), (try? fm.removeItem(atPath: path)) != nil {
                removed += 1
            }
        }
        return removed
    }
}
