#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Crypto
import Foundation
import SleepIngest

/// SHA-256 of a file's bytes: the recording's identity, so a renamed file is not ingested twice
/// and a changed file is.
///
/// Read with `pread` into one reusable buffer (constant memory), not memory-mapped: a mapped
/// window of a file that another process truncates kills the reader with SIGBUS (exit 135, with
/// the run's row left `running`), while `pread` just returns fewer bytes. A file that ends before
/// the size it had when the hash began is refused as changed while it was read. Measured on a
/// 2 GB file in the page cache, `pread` into a 1 MiB buffer hashes as fast as the mapped windows
/// did (README, "Crash safety").
enum FileHashing {
    static let bufferBytes = 1 << 20

    static func sha256(path: String) throws -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw IngestError(file: path, message: "cannot open for reading")   // this file's problem, not the run's
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw IngestError(file: path, message: "cannot stat: \(String(cString: strerror(errno)))") }
        let size = Int(st.st_size)
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferBytes, alignment: 4096)
        defer { buffer.deallocate() }
        var hasher = SHA256()
        var offset = 0
        while offset < size {
            let n = pread(fd, buffer, min(bufferBytes, size - offset), off_t(offset))
            if n < 0 {
                if errno == EINTR { continue }
                throw IngestError(file: path, byteOffset: offset, message: "read failed while hashing: \(String(cString: strerror(errno)))")
            }
            if n == 0 {
                throw IngestError.changedWhileRead(path: path, detail: "it shrank from \(size) to \(offset) bytes while its content hash was computed")
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(start: buffer, count: n))
            offset += n
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
