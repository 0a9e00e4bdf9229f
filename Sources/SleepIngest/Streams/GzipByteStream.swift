import CZlib

/// A gzip file (RFC 1952) decompressed as a stream with zlib, so `night.csv.gz` or
/// `participant.cwa.gz` (how UK Biobank ships Axivity files) read like the plain file.
///
/// zlib from Debian rather than a Swift package: it is the reference implementation, it is
/// already on every machine, and the same library inflates the deflate entries of `.gt3x`
/// archives (``ZipArchive``). Concatenated gzip members (what `cat a.gz b.gz` or `pigz` make)
/// are read one after another, as `gunzip` does.
public final class GzipByteStream: ByteStream {
    private let file: FileByteStream
    private let path: String
    private var stream = z_stream()
    private let input: UnsafeMutablePointer<UInt8>
    private let inputCapacity = 1 << 16
    private var inputEnded = false
    private var memberEnded = false
    private var sawAnyMember = false
    public private(set) var position = 0
    public var compression: String? { "gzip" }
    private var salvage = false
    public private(set) var cutShort: String? = nil
    public func salvageCutShort() { salvage = true }

    package init(file: FileByteStream, path: String) throws(IngestError) {
        self.file = file
        self.path = path
        input = UnsafeMutablePointer<UInt8>.allocate(capacity: inputCapacity)
        // 15 + 16: a 32 KiB window and a gzip (not zlib) wrapper.
        let status = sleepsta_inflateInit2(&stream, 15 + 16)
        guard status == Z_OK else {
            input.deallocate()
            throw IngestError(file: path, byteOffset: 0, message: "cannot start gzip decompression (zlib status \(status))")
        }
    }

    deinit {
        inflateEnd(&stream)
        input.deallocate()
    }

    /// Offset in the compressed file of the next unread input byte (for error messages).
    private var compressedOffset: Int { file.position - Int(stream.avail_in) }

    public func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(IngestError) -> Int {
        guard count > 0 else { return 0 }
        stream.next_out = buffer
        stream.avail_out = UInt32(min(count, Int(UInt32.max)))
        while stream.avail_out == UInt32(min(count, Int(UInt32.max))) {
            if stream.avail_in == 0 && !inputEnded {
                let n = try file.read(into: input, count: inputCapacity)
                if n == 0 { inputEnded = true } else {
                    stream.next_in = input
                    stream.avail_in = UInt32(n)
                }
            }
            if memberEnded {
                // Another member follows, or the file is done.
                if stream.avail_in == 0 && inputEnded { break }
                if stream.avail_in == 0 { continue }
                inflateReset(&stream)
                memberEnded = false
            }
            if stream.avail_in == 0 && inputEnded {
                // Cut short inside a member (a copy or download interrupted): what was inflated
                // is the file as far as it goes, when the reader can drop its incomplete end.
                if salvage && (sawAnyMember || position > 0) {
                    let total = position + min(count, Int(UInt32.max)) - Int(stream.avail_out)
                    if cutShort == nil { cutShort = "the gzip stream ends after \(total) decompressed bytes, without its end-of-stream marker (cut short)" }
                    break
                }
                throw IngestError(file: path, byteOffset: file.position,
                                  message: sawAnyMember || position > 0
                                      ? "gzip stream is truncated (ends after \(position) decompressed bytes)"
                                      : "empty gzip stream")
            }
            let status = inflate(&stream, Z_NO_FLUSH)
            sawAnyMember = true
            switch status {
            case Z_OK, Z_BUF_ERROR:
                continue
            case Z_STREAM_END:
                memberEnded = true
            default:
                let detail = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                throw IngestError(file: path, byteOffset: compressedOffset,
                                  message: "corrupt gzip data after \(position) decompressed bytes: \(detail)")
            }
        }
        let produced = min(count, Int(UInt32.max)) - Int(stream.avail_out)
        position += produced
        return produced
    }
}
