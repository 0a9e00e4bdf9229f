import CZlib

/// A gzip stream (RFC 1952) written in pieces: the exports' `--output FILE.gz`. A long export
/// repeats what every row shares (the parameters key, the recording, the units), which deflate
/// removes: a per-epoch export shrinks by a factor of 20 to 50, and pandas, R and gzip read the
/// file as it is. zlib, the Debian package every system has.
final class GzipCompressor {
    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 1 << 16)
    private var ended = false

    init() throws {
        // 15 + 16: a 32 KiB window with a gzip header and trailer; level 6, zlib's default.
        guard sleepsta_deflateInit2(&stream, 6, 15 + 16) == Z_OK else { throw CSVOutput.Failure("cannot start gzip compression (zlib)") }
    }

    deinit { if !ended { deflateEnd(&stream) } }

    /// `bytes` compressed, as far as deflate has output for them; with `finish`, the rest and the trailer.
    func compress(_ bytes: [UInt8], finish: Bool = false) throws -> [UInt8] {
        var result: [UInt8] = []
        try bytes.withUnsafeBufferPointer { inBuffer in
            // zlib reads next_in without writing it (z_const); its C type is not const.
            stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
            stream.avail_in = uInt(inBuffer.count)
            var status: Int32 = Z_OK
            repeat {
                status = output.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return deflate(&stream, finish ? Z_FINISH : Z_NO_FLUSH)
                }
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    throw CSVOutput.Failure("gzip compression failed (zlib status \(status))")
                }
                result.append(contentsOf: output[0..<(output.count - Int(stream.avail_out))])
            } while stream.avail_out == 0 || (finish && status != Z_STREAM_END)
        }
        stream.next_in = nil
        if finish { deflateEnd(&stream); ended = true }
        return result
    }
}
