#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Crypto
import Foundation
import SleepIngest

/// SHA-256 of a file's bytes, in windows of 8 MiB (constant memory): the recording's identity,
/// so a renamed file is not ingested twice and a changed file is.
///
/// The windows are memory-mapped, not read into a buffer: hashing (SHA-NI, about 1.4 GB/s here)
/// is a large part of ingesting a multi-gigabyte file, and copying every byte out of the page
/// cache first cost another 15 % of it.
enum FileHashing {
    static let windowBytes = 8 << 20

    static func sha256(path: String) throws -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw IngestError(file: path, message: "cannot open for reading")   // this file's problem, not the run's
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw IngestError(file: path, message: "cannot stat: \(String(cString: strerror(errno)))") }
        let size = Int(st.st_size)
        var hasher = SHA256()
        var offset = 0
        while offset < size {
            let length = min(windowBytes, size - offset)
            guard let window = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, off_t(offset)), window != MAP_FAILED else {
                throw IngestError(file: path, byteOffset: offset, message: "cannot map for hashing: \(String(cString: strerror(errno)))")
            }
            _ = madvise(window, length, 22 /* MADV_POPULATE_READ: map the window in one call */)
            hasher.update(bufferPointer: UnsafeRawBufferPointer(start: window, count: length))
            munmap(window, length)
            offset += length
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
