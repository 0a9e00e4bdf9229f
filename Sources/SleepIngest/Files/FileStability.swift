#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a file stayed the same while it was hashed and read: its identity (device, inode),
/// size, modification and status-change times before the hash began and after the reader
/// finished. A file rewritten in place during ingest (a sync tool, an app exporting again) would
/// otherwise be stored as a mix of both versions under the hash of one of them; now it fails
/// like an unreadable file, nothing of it is stored, and the next run reads it again.
///
/// The status-change time (`ctime`) changes on every write and cannot be set back by `touch`, so
/// a rewrite that keeps the size and restores the modification time is still seen. The content
/// hash is taken between the two checks, so an unchanged identity means the hash is of the bytes read.
public struct FileStability: Equatable {
    public var device: UInt64
    public var inode: UInt64
    public var sizeBytes: Int64
    public var modifiedNanoseconds: Int64
    public var statusChangedNanoseconds: Int64

    /// The file's state now.
    public static func snapshot(path: String) throws(IngestError) -> FileStability {
        var st = stat()
        guard stat(path, &st) == 0 else { throw IngestError(file: path, message: "cannot stat: \(String(cString: strerror(errno)))") }
        return FileStability(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), sizeBytes: Int64(st.st_size),
                             modifiedNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec),
                             statusChangedNanoseconds: Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec))
    }

    /// A reader's error for a file that changed meanwhile is a symptom (a row cut where the file was
    /// truncated): the file's change is the error to report, so that it reads as "retry", not "broken".
    public func explaining(_ readerError: IngestError, path: String) -> IngestError {
        do { try requireUnchanged(path: path) } catch { return error }
        return readerError
    }

    /// Throws "changed while it was read" unless the file at `path` is still as it was.
    public func requireUnchanged(path: String) throws(IngestError) {
        let now: FileStability
        do { now = try Self.snapshot(path: path) } catch {
            throw IngestError.changedWhileRead(path: path, detail: "it disappeared")
        }
        guard now != self else { return }
        var what: [String] = []
        if now.device != device || now.inode != inode { what.append("replaced by another file") }
        if now.sizeBytes != sizeBytes { what.append("size \(sizeBytes) -> \(now.sizeBytes) bytes") }
        if now.modifiedNanoseconds != modifiedNanoseconds || now.statusChangedNanoseconds != statusChangedNanoseconds {
            what.append("written to")
        }
        throw IngestError.changedWhileRead(path: path, detail: what.joined(separator: ", "))
    }

    package init(device: UInt64, inode: UInt64, sizeBytes: Int64, modifiedNanoseconds: Int64, statusChangedNanoseconds: Int64) {
        self.device = device; self.inode = inode; self.sizeBytes = sizeBytes
        self.modifiedNanoseconds = modifiedNanoseconds; self.statusChangedNanoseconds = statusChangedNanoseconds
    }
}
