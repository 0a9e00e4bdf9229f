#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain POSIX file access for the readers: bounded chunks, so memory stays constant in file size.
package enum FileBytes {
    static let chunkSize = 1 << 20

    /// `path` opened read-only, refusing anything but a regular file before a read can block: a
    /// FIFO opened for reading waits for a writer forever (a cron run would hang and hold its lock),
    /// and a device or a socket is no recording, diary or table. The file is opened non-blocking
    /// (which returns at once for a FIFO), checked with `fstat`, then switched back to blocking
    /// reads. Every reader, the diary, the participants table and ActiLife's `.agdc` open through here.
    static func open(path: String) throws(IngestError) -> Int32 {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw IngestError(file: path, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        if let refusal = notRegular(fd) {
            close(fd)
            throw IngestError(file: path, message: refusal)
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return fd
    }

    /// Why the open file `fd` is not a regular file, or nil when it is.
    static func notRegular(_ fd: Int32) -> String? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return "cannot stat: \(String(cString: strerror(errno)))" }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "is a directory, expected a file"
        case S_IFIFO: return "is a FIFO (named pipe), not a regular file: refused, since reading it would wait for a writer"
        case S_IFSOCK: return "is a socket, not a regular file: refused"
        case S_IFCHR, S_IFBLK: return "is a device, not a regular file: refused"
        default: return "is not a regular file: refused"
        }
    }

    /// Up to `count` bytes from the start of the file; of the decompressed data when the file is gzip.
    package static func head(path: String, count: Int, decompress: Bool = true) throws(IngestError) -> [UInt8] {
        let fd = try open(path: path)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count) }
        guard n >= 0 else { throw IngestError(file: path, byteOffset: 0, message: "read failed: \(String(cString: strerror(errno)))") }
        let raw = Array(buffer.prefix(n))
        guard decompress, ByteStreams.isGzip(head: raw) else { return raw }
        let stream = try ByteStreams.open(path: path)
        var inflated = [UInt8](repeating: 0, count: count)
        // A damaged gzip file still gets a head (possibly empty) here; its reader reports the damage.
        let m = (try? inflated.withUnsafeMutableBufferPointer { b throws(IngestError) in try stream.readFully(into: b.baseAddress!, count: count) }) ?? 0
        return Array(inflated.prefix(m))
    }

    /// The whole file (for small structured formats such as the app's JSON export); decompressed
    /// when it is gzip.
    static func readAll(path: String, limit: Int) throws(IngestError) -> [UInt8] {
        if ByteStreams.isGzip(head: try head(path: path, count: 2, decompress: false)) {
            return try ByteStreams.open(path: path).readAll(limit: limit, path: path)
        }
        let fd = try open(path: path)
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw IngestError(file: path, message: "cannot stat") }
        guard Int(st.st_size) <= limit else {
            throw IngestError(file: path, byteOffset: limit, message: "file is \(st.st_size) bytes; this format is read whole and is limited to \(limit) bytes")
        }
        var result = [UInt8](repeating: 0, count: Int(st.st_size))
        var filled = 0
        while filled < result.count {
            let n = result.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 { throw IngestError(file: path, byteOffset: filled, message: "read failed: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            filled += n
        }
        // Shortened in place (a file that shrank while read): a copy would hold it twice at the peak.
        if filled < result.count { result.removeSubrange(filled...) }
        return result
    }
}
