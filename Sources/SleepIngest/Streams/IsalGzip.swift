#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CIsal

/// Which library inflates gzip streams. ISA-L by default; zlib is the reference (and the fallback).
public enum GzipInflater: String, Sendable, CaseIterable {
    /// Intel ISA-L igzip (Debian libisal-dev), about twice zlib's speed (docs/ingest-performance.md).
    case isal
    /// zlib: the reference implementation.
    case zlib
}

/// Inflates a gzip file (one or more members, as `cat a.gz b.gz`, pigz and bgzip make them) with
/// ISA-L. It does not phrase errors: corrupt or truncated data is reported as ``Failure``, and the
/// caller then lets zlib inflate the same stream, which reports it exactly as before (same offsets,
/// same words) — or reads on, should zlib accept what ISA-L refused.
final class IsalInflater {
    struct Failure: Error {}

    private let fd: Int32
    private let state: UnsafeMutablePointer<sleepsta_isal_state>
    private let input: UnsafeMutablePointer<UInt8>
    private let inputCapacity = 1 << 18
    private var inStart = 0
    private var inAvail = 0
    private var inputEnded = false
    private var memberEnded = false
    /// Decompressed bytes handed out so far.
    private(set) var position = 0

    /// Opens `path` for reading; nil when it cannot be opened or ISA-L cannot start.
    init?(path: String) {
        guard let fd = try? FileBytes.open(path: path) else { return nil }
        guard let state = sleepsta_isal_new() else { close(fd); return nil }
        self.fd = fd
        self.state = state
        input = .allocate(capacity: inputCapacity)
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
    }

    deinit {
        sleepsta_isal_free(state)
        input.deallocate()
        close(fd)
    }

    /// Moves unconsumed input to the front and reads more behind it.
    private func refill() throws(Failure) {
        if inAvail > 0 && inStart > 0 { memmove(input, input + inStart, inAvail) }
        inStart = 0
        while inAvail < inputCapacity {
            let n = Glibc.read(fd, input + inAvail, inputCapacity - inAvail)
            if n < 0 { if errno == EINTR { continue }; throw Failure() }
            if n == 0 { inputEnded = true; break }
            inAvail += n
            break
        }
    }

    /// Up to `count` decompressed bytes into `out`; 0 only at the end of the last member.
    func read(into out: UnsafeMutablePointer<UInt8>, count: Int) throws(Failure) -> Int {
        guard count > 0 else { return 0 }
        let room = UInt32(min(count, Int(UInt32.max)))
        while true {
            if memberEnded {
                if inAvail == 0 && !inputEnded { try refill() }
                if inAvail == 0 && inputEnded { return 0 }
                // Another member follows (sleepsta_isal_next_member keeps no input: it is passed again below).
                sleepsta_isal_next_member(state)
                memberEnded = false
            }
            if inAvail == 0 {
                if inputEnded { throw Failure() }   // truncated (zlib says so in its words)
                try refill()
                continue
            }
            var used: UInt32 = 0, produced: UInt32 = 0
            let status = sleepsta_isal_inflate(state, input + inStart, UInt32(inAvail), &used, out, room, &produced)
            inStart += Int(used); inAvail -= Int(used)
            if status < 0 { throw Failure() }
            if status == 1 { memberEnded = true }
            if produced > 0 {
                position += Int(produced)
                return Int(produced)
            }
            if status == 0 && used == 0 {
                // No progress: ISA-L needs more input than is buffered.
                if inputEnded { throw Failure() }
                try refill()
            }
        }
    }
}

/// A gzip file as a ``ByteStream`` through ISA-L, falling back to zlib (``GzipByteStream``) from the
/// point where ISA-L fails: zlib then reports the corrupt or truncated data exactly as it always
/// did. The bytes handed out are the same either way (checked against zlib in the tests).
public final class IsalGzipByteStream: ByteStream {
    private var isal: IsalInflater?
    private var zlib: GzipByteStream?
    private let path: String
    public private(set) var position = 0
    public var compression: String? { "gzip" }
    private var salvage = false
    /// ISA-L fails on a stream cut short; zlib, taking over there, ends it (``GzipByteStream``).
    public var cutShort: String? { zlib?.cutShort }
    public func salvageCutShort() { salvage = true; zlib?.salvageCutShort() }

    init?(path: String) {
        guard let isal = IsalInflater(path: path) else { return nil }
        self.isal = isal
        self.path = path
    }

    public func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(IngestError) -> Int {
        if let isal {
            do throws(IsalInflater.Failure) {
                let n = try isal.read(into: buffer, count: count)
                position += n
                return n
            } catch {
                self.isal = nil
                zlib = try Self.zlib(path: path, skipping: position, salvage: salvage)
            }
        }
        let n = try zlib!.read(into: buffer, count: count)
        position += n
        return n
    }

    /// zlib's stream over the same file, past the first `skip` decompressed bytes.
    static func zlib(path: String, skipping skip: Int, salvage: Bool = false) throws(IngestError) -> GzipByteStream {
        let stream = try GzipByteStream(file: try FileByteStream(path: path), path: path)
        if salvage { stream.salvageCutShort() }
        let chunk = 1 << 20
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        defer { scratch.deallocate() }
        var left = skip
        while left > 0 {
            let n = try stream.read(into: scratch, count: min(chunk, left))
            if n == 0 { break }
            left -= n
        }
        return stream
    }
}
