/// A window onto a ``ByteStream`` for record-structured binary formats: ask for `n` bytes at the
/// cursor, get a pointer to them (refilled from the stream in chunks), then advance. Memory is
/// bounded by the chunk size plus the largest record asked for.
final class ChunkedBytes {
    private let stream: any ByteStream
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var start = 0        // cursor within buffer
    private var filled = 0       // valid bytes in buffer
    private var ended = false
    /// Stream offset of `buffer[0]`.
    private var bufferOffset = 0

    init(_ stream: any ByteStream, chunkSize: Int = 1 << 20) {
        self.stream = stream
        capacity = chunkSize
        buffer = .allocate(capacity: chunkSize)
    }

    deinit { buffer.deallocate() }

    /// Stream offset of the cursor.
    var offset: Int { bufferOffset + start }

    /// A pointer to the next `count` bytes, or nil when the stream ends first (then
    /// ``available`` tells how many bytes were left).
    func peek(_ count: Int) throws(IngestError) -> UnsafeMutablePointer<UInt8>? {
        if filled - start >= count { return buffer + start }
        // Move the unread bytes to the front, grow if one record is larger than the buffer, refill.
        let unread = filled - start
        if start > 0 {
            buffer.update(from: buffer + start, count: unread)
            bufferOffset += start
            start = 0; filled = unread
        }
        if count > capacity {
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
            bigger.update(from: buffer, count: filled)
            buffer.deallocate()
            buffer = bigger; capacity = count
        }
        while filled < count && !ended {
            let n = try stream.read(into: buffer + filled, count: capacity - filled)
            if n == 0 { ended = true } else { filled += n }
        }
        return filled - start >= count ? buffer + start : nil
    }

    /// Bytes between the cursor and the end of what has been read (after a failed ``peek(_:)``: the rest of the stream).
    var available: Int { filled - start }

    /// Whether the stream has no byte left after the cursor.
    func atEnd() throws(IngestError) -> Bool { try peek(1) == nil }

    func advance(_ count: Int) { start += count }
}
