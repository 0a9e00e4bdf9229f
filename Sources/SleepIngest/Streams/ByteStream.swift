#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A forward-only source of bytes: a plain file, a gzip stream, or an entry inside a zip archive.
///
/// Readers pull bounded chunks from it, so memory stays constant in the length of the input and a
/// reader never needs to know whether its file was compressed.
public protocol ByteStream: AnyObject {
    /// Copies up to `count` bytes into `buffer`; returns how many, 0 at the end of the stream.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(IngestError) -> Int
    /// Offset of the next byte in the (decompressed) stream.
    var position: Int { get }
    /// `"gzip"`, `"deflate"` or nil for bytes as stored.
    var compression: String? { get }
    /// Asks the stream to end where its data ends, when that is before the format's own end (a
    /// gzip file cut short: no end-of-stream marker), instead of throwing; ``cutShort`` then says
    /// so. Only a reader that drops its incomplete last unit and warns may ask (the text readers
    /// of raw samples, through ``LineScanner/scan(_:path:formatName:into:cutShort:chunkSize:)``).
    func salvageCutShort()
    /// Set once the stream has ended early after ``salvageCutShort()``: what happened, for the
    /// reader's warning ("the gzip stream ends after N decompressed bytes, …").
    var cutShort: String? { get }
}

extension ByteStream {
    /// Bytes as stored end where the file ends: there is no end marker to miss.
    public func salvageCutShort() {}
    public var cutShort: String? { nil }
}

extension ByteStream {
    /// Reads until `buffer` is full or the stream ends; returns the bytes read.
    func readFully(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(IngestError) -> Int {
        var filled = 0
        while filled < count {
            let n = try read(into: buffer + filled, count: count - filled)
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    /// The rest of the stream as an array, refusing more than `limit` bytes (for small structured formats).
    package func readAll(limit: Int, path: String) throws(IngestError) -> [UInt8] {
        var result: [UInt8] = []
        let chunk = 1 << 16
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        defer { buffer.deallocate() }
        while true {
            let n = try read(into: buffer, count: chunk)
            if n == 0 { break }
            if result.count + n > limit {
                throw IngestError(file: path, byteOffset: limit,
                                  message: "more than \(limit) bytes; this format is read whole and is limited to \(limit) bytes")
            }
            result.append(contentsOf: UnsafeBufferPointer(start: buffer, count: n))
        }
        return result
    }
}

/// Opens files as byte streams, decompressing gzip transparently (told by the magic bytes
/// `1f 8b`, not by the name, so a renamed file still reads).
public enum ByteStreams {
    public static func open(path: String) throws(IngestError) -> any ByteStream {
        try open(path: path, inflater: .isal)
    }

    /// As ``open(path:)``, with gzip inflated by `inflater` (ISA-L falls back to zlib where it fails).
    public static func open(path: String, inflater: GzipInflater) throws(IngestError) -> any ByteStream {
        let file = try FileByteStream(path: path)
        var magic: (UInt8, UInt8) = (0, 0)
        let n = withUnsafeMutableBytes(of: &magic) { pread(file.fd, $0.baseAddress, 2, 0) }
        if n == 2 && magic.0 == 0x1F && magic.1 == 0x8B {
            if inflater == .isal, let stream = IsalGzipByteStream(path: path) { return stream }
            return try GzipByteStream(file: file, path: path)
        }
        return file
    }

    /// Whether the file starts with the gzip magic bytes.
    static func isGzip(head: [UInt8]) -> Bool { head.count >= 2 && head[0] == 0x1F && head[1] == 0x8B }
}

/// A plain file read with `read(2)`.
public final class FileByteStream: ByteStream {
    let fd: Int32
    let path: String
    public private(set) var position = 0
    public var compression: String? { nil }

    public init(path: String) throws(IngestError) {
        self.path = path
        fd = try FileBytes.open(path: path)
    }

    deinit { close(fd) }

    public func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(IngestError) -> Int {
        while true {
            let n = Glibc.read(fd, buffer, count)
            if n < 0 {
                if errno == EINTR { continue }
                throw IngestError(file: path, byteOffset: position, message: "read failed: \(String(cString: strerror(errno)))")
            }
            position += n
            return n
        }
    }

    /// Size of the file in bytes.
    var size: Int {
        var st = stat()
        return fstat(fd, &st) == 0 ? Int(st.st_size) : 0
    }

    /// Exactly `count` bytes at `offset` (for random access in zip archives), or an error naming the offset.
    func bytes(at offset: Int, count: Int, what: String) throws(IngestError) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = result.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
            if n < 0 { throw IngestError(file: path, byteOffset: offset + filled, message: "read failed: \(String(cString: strerror(errno)))") }
            if n == 0 { throw IngestError(file: path, byteOffset: offset + filled, message: "file ends inside \(what): truncated") }
            filled += n
        }
        return result
    }
}
