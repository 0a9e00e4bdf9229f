#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks a file costs nothing to make before anything reads it whole (the content hash reads
/// every byte), so that a file which cannot be a recording fails at once, however large it is.
///
/// A sparse file — one with regions never written, which read back as zero bytes, as left by a
/// copy still in progress, a preallocating sync tool or `truncate -s 10G` — is refused from its
/// allocation map (`lseek(SEEK_HOLE)`), without reading it: no recording format sleepsta reads
/// has runs of NUL bytes. A file of zero bytes that is not sparse fails format detection on its
/// first 4 KiB, which also happens before hashing.
public enum InputPreflight {
    public static func check(path: String) throws(IngestError) {
        let fd = try FileBytes.open(path: path)   // refuses a FIFO before it can block
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw IngestError(file: path, message: "cannot stat: \(String(cString: strerror(errno)))") }
        let size = Int64(st.st_size)
        guard size > 0 else { return }   // the reader says "empty file"
        let hole = Int64(lseek(fd, 0, seekHole))
        if hole >= 0 && hole < size {
            throw IngestError(file: path, byteOffset: Int(hole), message:
                "the file is sparse: its \(size) bytes include regions never written (from byte \(hole)), which read as zero bytes; "
                + "a recording has data throughout (is the file still being copied?), so it is refused without reading it")
        }
    }

    /// `SEEK_HOLE`: the offset of the first hole at or after the given offset (the file's size when
    /// it has none). Not exported by every libc module map, so spelled out.
    #if os(Linux)
    public static let seekHole: Int32 = 4
    #else
    public static let seekHole: Int32 = 3
    #endif
}
