#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CBLAKE3
import Foundation

/// A file's content identity, stored as `recordings.content_hash` ("blake3:<64 hex>"): a renamed
/// file is not ingested twice and a changed file is.
///
/// **Why BLAKE3, and why it is safe here**. The identity must never take a changed
/// file for an unchanged one, nor one recording for another: that needs a collision-resistant
/// hash, not a checksum. BLAKE3 is a cryptographic hash with a 256-bit output and 128-bit
/// collision resistance, the same security level as SHA-256 (O'Connor, Aumasson, Neves,
/// Wilcox-O'Hearn, "BLAKE3: one function, fast everywhere", 2020; its compression function is
/// BLAKE2s's with fewer rounds, 7 instead of 10, and no attack comes near it). It is faster because
/// its input is a tree of 1 KiB chunks that SIMD hashes side by side: about three times SHA-256
/// with the CPU's SHA instructions here (measured in docs/ingest-performance.md), and the hash
/// shares two cores with the parser. A non-cryptographic hash (xxHash, CRC) would be faster still but would let a crafted
/// file pass for another, so it was not used.
///
/// **Stores from before v8-content-hash-blake3** hold SHA-256 identities ("sha256:<hex>"). A file
/// is hashed with both algorithms in the same pass (``contentHash(path:legacySHA256:)``) only when
/// a recording of exactly its size still has one (equal content needs equal size), and a
/// recording found by its SHA-256 gets its BLAKE3 then (`Pipeline.identify`). So an old store
/// costs one SHA-256 more per file that could be an old recording, and nothing for the others;
/// untouched old files keep the stat fast path and their old identity.
///
/// Read with `pread` into one reusable buffer (constant memory), not memory-mapped: a mapped
/// window of a file that another process truncates kills the reader with SIGBUS (exit 135, with
/// the run's row left `running`), while `pread` just returns fewer bytes. A file that ends before
/// the size it had when the hash began is refused as changed while it was read. Measured on a
/// 2 GB file in the page cache, `pread` into a 1 MiB buffer hashes as fast as the mapped windows
/// did (docs/operations.md).
public enum FileHashing {
    public static let bufferBytes = 1 << 20

    /// The identities of one file's bytes: BLAKE3 always, SHA-256 when asked (old stores).
    public struct ContentHashes: Equatable, Sendable {
        /// "blake3:<64 lowercase hex>"
        public var blake3: String
        /// "sha256:<64 lowercase hex>", only when ``contentHash(path:legacySHA256:)`` was asked for it.
        public var sha256: String?
    }

    /// The prefixes of `recordings.content_hash`.
    public static let blake3Prefix = "blake3:", sha256Prefix = "sha256:"

    /// BLAKE3 (and SHA-256 if `legacySHA256`) of the file's bytes, in one pass.
    public static func contentHash(path: String, legacySHA256: Bool = false) throws -> ContentHashes {
        let fd = try FileBytes.open(path: path)   // this file's problem, not the run's; a FIFO is refused, not waited on
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw IngestError(file: path, message: "cannot stat: \(String(cString: strerror(errno)))") }
        let size = Int(st.st_size)
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferBytes, alignment: 4096)
        defer { buffer.deallocate() }
        var blake3 = blake3_hasher()
        blake3_hasher_init(&blake3)
        let sha256 = legacySHA256 ? SHA256Digest() : nil
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
            blake3_hasher_update(&blake3, buffer, n)
            sha256?.update(UnsafeRawBufferPointer(start: buffer, count: n))
            offset += n
        }
        return ContentHashes(blake3: blake3Prefix + hex(finalizing: &blake3),
                             sha256: sha256.map { sha256Prefix + $0.hexDigest() })
    }

    /// "blake3:<hex>" of bytes in memory (the tests' reference for the file path).
    public static func blake3(of bytes: UnsafeRawBufferPointer) -> String {
        var hasher = blake3_hasher()
        blake3_hasher_init(&hasher)
        blake3_hasher_update(&hasher, bytes.baseAddress, bytes.count)
        return blake3Prefix + hex(finalizing: &hasher)
    }

    private static func hex(finalizing hasher: inout blake3_hasher) -> String {
        var out = [UInt8](repeating: 0, count: Int(BLAKE3_OUT_LEN))
        blake3_hasher_finalize(&hasher, &out, out.count)
        return hex(out)
    }

    private static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for b in bytes { text.append(digits[Int(b >> 4)]); text.append(digits[Int(b & 15)]) }
        return String(decoding: text, as: UTF8.self)
    }
}
