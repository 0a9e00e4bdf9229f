import CZlib

/// The entries of a zip archive (PKWARE APPNOTE 6.3: end of central directory, central directory,
/// local headers), opened as streams. Enough for ActiGraph `.gt3x` files: stored and deflated
/// entries, no encryption, no zip64 (a `.gt3x` log of a week at 100 Hz is about 360 MB).
///
/// Hand-written over zlib rather than ZIPFoundation: zlib is needed anyway for gzip, this is
/// about 150 lines, and entries stream with constant memory straight from the file.
package final class ZipArchive {
    package struct Entry {
        var name: String
        /// 0 = stored, 8 = deflate.
        var method: UInt16
        var crc32: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
    }

    let path: String
    let file: FileByteStream
    let entries: [Entry]
    /// Where the central directory starts (the position to name when an entry is missing).
    let directoryOffset: Int

    static func isZip(head: [UInt8]) -> Bool {
        head.count >= 4 && head[0] == 0x50 && head[1] == 0x4B && head[2] == 0x03 && head[3] == 0x04
    }

    package init(path: String) throws(IngestError) {
        self.path = path
        file = try FileByteStream(path: path)
        let record = try Self.endOfCentralDirectory(file, path: path)
        directoryOffset = record.directoryOffset
        entries = try Self.centralDirectory(file, record: record, path: path)
    }

    /// What the end-of-central-directory record says: where the directory is, and how many entries it holds.
    struct DirectoryRecord {
        var entryCount: Int
        var directorySize: Int
        var directoryOffset: Int
    }

    /// The end-of-central-directory record, found from the end of the file; zip64 refused.
    static func endOfCentralDirectory(_ file: FileByteStream, path: String) throws(IngestError) -> DirectoryRecord {
        let size = file.size
        guard size >= 22 else {
            throw IngestError(file: path, byteOffset: 0, message: size == 0 ? "empty file: expected a zip archive (.gt3x)" : "file is \(size) bytes, too short for a zip archive (.gt3x)")
        }
        // The end-of-central-directory record is in the last 22 + 65535 bytes (its comment is at most 64 KiB).
        let tailLength = min(size, 22 + 65_535)
        let tail = try file.bytes(at: size - tailLength, count: tailLength, what: "the zip directory")
        var eocd = -1
        var i = tailLength - 22
        while i >= 0 {
            if tail[i] == 0x50 && tail[i + 1] == 0x4B && tail[i + 2] == 0x05 && tail[i + 3] == 0x06 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0 else {
            throw IngestError(file: path, byteOffset: size, message: "no zip end-of-central-directory record: not a zip archive, or truncated")
        }
        let record = DirectoryRecord(entryCount: Int(u16(tail, eocd + 10)), directorySize: Int(u32(tail, eocd + 12)),
                                     directoryOffset: Int(u32(tail, eocd + 16)))
        // zip64: the record's fields say "see the zip64 record" (0xFFFF…), or a zip64 locator precedes it.
        let zip64Locator = eocd >= 20 && u32(tail, eocd - 20) == 0x0706_4B50
        if record.entryCount == 0xFFFF || record.directoryOffset == 0xFFFF_FFFF || record.directorySize == 0xFFFF_FFFF || zip64Locator {
            throw IngestError(file: path, byteOffset: size - tailLength + eocd, message: "zip64 archive: not supported for .gt3x")
        }
        guard record.directoryOffset + record.directorySize <= size else {
            throw IngestError(file: path, byteOffset: size - tailLength + eocd,
                              message: "zip directory at \(record.directoryOffset) (+\(record.directorySize) bytes) lies beyond the end of the file (\(size) bytes): truncated")
        }
        return record
    }

    /// The central directory's entries; encrypted entries and zip64 sizes refused.
    static func centralDirectory(_ file: FileByteStream, record: DirectoryRecord, path: String) throws(IngestError) -> [Entry] {
        let directoryOffset = record.directoryOffset, entryCount = record.entryCount
        let directory = try file.bytes(at: directoryOffset, count: record.directorySize, what: "the zip central directory")
        var found: [Entry] = []
        var p = 0
        for k in 0..<entryCount {
            guard p + 46 <= directory.count, u32(directory, p) == 0x0201_4B50 else {
                throw IngestError(file: path, byteOffset: directoryOffset + p, message: "zip central directory entry \(k + 1) of \(entryCount) is damaged")
            }
            let flags = u16(directory, p + 8)
            let nameLength = Int(u16(directory, p + 28))
            let extraLength = Int(u16(directory, p + 30))
            let commentLength = Int(u16(directory, p + 32))
            guard p + 46 + nameLength <= directory.count else {
                throw IngestError(file: path, byteOffset: directoryOffset + p, message: "zip central directory entry \(k + 1) is truncated")
            }
            let entry = Entry(name: String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self),
                              method: u16(directory, p + 10), crc32: u32(directory, p + 16),
                              compressedSize: Int(u32(directory, p + 20)), uncompressedSize: Int(u32(directory, p + 24)),
                              localHeaderOffset: Int(u32(directory, p + 42)))
            if entry.compressedSize == 0xFFFF_FFFF || entry.uncompressedSize == 0xFFFF_FFFF || entry.localHeaderOffset == 0xFFFF_FFFF {
                // Its real sizes are in a zip64 extra field: read as they stand, they claimed 4 GiB and "truncated".
                throw IngestError(file: path, byteOffset: directoryOffset + p,
                                  message: "zip64 archive (entry '\(entry.name)' keeps its sizes in a zip64 field): not supported for .gt3x")
            }
            if flags & 1 != 0 {
                throw IngestError(file: path, byteOffset: directoryOffset + p, message: "zip entry '\(entry.name)' is encrypted")
            }
            found.append(entry)
            p += 46 + nameLength + extraLength + commentLength
        }
        return found
    }

    package func entry(named name: String) -> Entry? { entries.first { $0.name == name } }

    /// Refuses an archive holding two entries of a name a reader takes content from: which one
    /// the device or program wrote cannot be told, so none is taken.
    func requireAtMostOne(of names: [String], kind: String) throws(IngestError) {
        for name in names {
            let count = entries.filter { $0.name == name }.count
            if count > 1 {
                throw IngestError(file: path, byteOffset: directoryOffset,
                                  message: "the archive holds \(count) entries named \(name): expected one (a damaged or rewritten \(kind))")
            }
        }
    }

    /// A stream of the entry's uncompressed bytes; the CRC-32 is checked when the stream ends.
    package func open(_ entry: Entry) throws(IngestError) -> ZipEntryStream {
        let header = try file.bytes(at: entry.localHeaderOffset, count: 30, what: "the local header of '\(entry.name)'")
        guard Self.u32(header, 0) == 0x0403_4B50 else {
            throw IngestError(file: path, byteOffset: entry.localHeaderOffset, message: "zip local header of '\(entry.name)' is missing (damaged archive)")
        }
        let dataOffset = entry.localHeaderOffset + 30 + Int(Self.u16(header, 26)) + Int(Self.u16(header, 28))
        guard dataOffset + entry.compressedSize <= file.size else {
            throw IngestError(file: path, byteOffset: file.size,
                              message: "zip entry '\(entry.name)' needs \(entry.compressedSize) bytes from offset \(dataOffset) but the file ends at \(file.size): truncated")
        }
        guard entry.method == 0 || entry.method == 8 else {
            throw IngestError(file: path, byteOffset: entry.localHeaderOffset, message: "zip entry '\(entry.name)' uses compression method \(entry.method); expected stored (0) or deflate (8)")
        }
        return try ZipEntryStream(archive: self, entry: entry, dataOffset: dataOffset)
    }

    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
}

/// One zip entry's bytes, read with `pread` from the archive and inflated when deflated.
package final class ZipEntryStream: ByteStream {
    private let archive: ZipArchive
    let entry: ZipArchive.Entry
    private let dataOffset: Int
    private var consumed = 0                  // compressed bytes taken from the file
    private var stream = z_stream()
    private var input: UnsafeMutablePointer<UInt8>?
    private let inputCapacity = 1 << 16
    private var ended = false
    private var crc: UInt = 0
    package private(set) var position = 0
    package var compression: String? { entry.method == 8 ? "deflate" : nil }

    init(archive: ZipArchive, entry: ZipArchive.Entry, dataOffset: Int) throws(IngestError) {
        self.archive = archive; self.entry = entry; self.dataOffset = dataOffset
        crc = crc32(0, nil, 0)
        if entry.method == 8 {
            input = UnsafeMutablePointer<UInt8>.allocate(capacity: inputCapacity)
            // Negative window bits: raw deflate, as zip stores it (no zlib header).
            guard sleepsta_inflateInit2(&stream, -15) == Z_OK else {
                input?.deallocate()
                throw IngestError(file: archive.path, byteOffset: dataOffset, message: "cannot start deflate decompression")
            }
        }
    }

    deinit {
        if let input { inflateEnd(&stream); input.deallocate() }
    }

    package func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(IngestError) -> Int {
        guard count > 0, !ended else { return 0 }
        let produced: Int
        if entry.method == 0 {
            let want = min(count, entry.compressedSize - consumed)
            if want == 0 { produced = 0 } else {
                let n = pread(archive.file.fd, buffer, want, off_t(dataOffset + consumed))
                guard n > 0 else {
                    throw IngestError(file: archive.path, byteOffset: position, path: entry.name, message: "entry data ends early: truncated archive")
                }
                consumed += n
                produced = n
            }
        } else {
            stream.next_out = buffer
            stream.avail_out = UInt32(min(count, Int(UInt32.max)))
            var finished = false
            while stream.avail_out > 0 && !finished {
                if stream.avail_in == 0 {
                    let want = min(inputCapacity, entry.compressedSize - consumed)
                    if want > 0 {
                        let n = pread(archive.file.fd, input!, want, off_t(dataOffset + consumed))
                        guard n > 0 else {
                            throw IngestError(file: archive.path, byteOffset: position, path: entry.name, message: "entry data ends early: truncated archive")
                        }
                        consumed += n
                        stream.next_in = input
                        stream.avail_in = UInt32(n)
                    }
                }
                let status = inflate(&stream, Z_NO_FLUSH)
                switch status {
                case Z_STREAM_END: finished = true
                case Z_OK: continue
                case Z_BUF_ERROR:
                    if stream.avail_in == 0 && consumed >= entry.compressedSize {
                        throw IngestError(file: archive.path, byteOffset: position, path: entry.name, message: "deflate data is truncated (\(position + count - Int(stream.avail_out)) of \(entry.uncompressedSize) bytes)")
                    }
                default:
                    let detail = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                    throw IngestError(file: archive.path, byteOffset: position, path: entry.name, message: "corrupt deflate data: \(detail)")
                }
            }
            produced = min(count, Int(UInt32.max)) - Int(stream.avail_out)
        }
        if produced > 0 { crc = crc32(crc, buffer, UInt32(produced)) }
        position += produced
        if produced == 0 || position >= entry.uncompressedSize {
            if position != entry.uncompressedSize {
                throw IngestError(file: archive.path, byteOffset: position, path: entry.name, message: "entry holds \(position) bytes; the zip directory says \(entry.uncompressedSize)")
            }
            if UInt32(truncatingIfNeeded: crc) != entry.crc32 {
                throw IngestError(file: archive.path, byteOffset: position, path: entry.name, message: "CRC-32 mismatch: the entry's data is damaged")
            }
            ended = true
        }
        return produced
    }
}
