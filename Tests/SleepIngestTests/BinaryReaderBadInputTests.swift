import CZlib
import Foundation
import Testing
import SleepCore
import SleepIngest

/// Truncated files, wrong headers, garbage bytes, wrong units and empty files: every reader
/// throws an ``IngestError`` naming the file and the offset or line, and returns nothing.
@Suite("Device readers: bad input")
struct BinaryReaderBadInputTests {
    let folder = TemporaryFolder()

    func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: Fixture.path(name)))) }

    /// Reads `content` as `name` with `reader`; returns the error (and records an issue if there is none).
    func failure(_ reader: some RecordingReader, _ name: String, _ content: [UInt8]) -> IngestError? {
        let path = folder.write(name, bytes: content)
        do {
            _ = try reader.read(path: path, options: IngestOptions())
            Issue.record("\(name): accepted bad input")
            return nil
        } catch {
            #expect(error.file == path)
            #expect(error.description.hasPrefix(path))
            return error
        }
    }

    @Test(".gt3x: empty, not a zip, truncated archive, no log.bin, damaged log, missing sample rate")
    func gt3x() throws {
        let good = try bytes("spec_activity12.gt3x")
        #expect(failure(GT3XReader(), "empty.gt3x", [])?.message.contains("empty file") == true)
        #expect(failure(GT3XReader(), "text.gt3x", Array("hello, this is not a zip archive at all".utf8))?.message.contains("not a zip archive") == true)
        let truncated = failure(GT3XReader(), "cut.gt3x", Array(good.prefix(good.count / 2)))
        #expect(truncated?.byteOffset != nil)

        // A stored archive lets the test reach into log.bin.
        let stored = try bytes("spec_activity12_padded_stored.gt3x")
        let logStart = 30 + "log.bin".utf8.count
        var damaged = stored
        damaged[logStart + 4000] = 0x55; damaged[logStart + 4001] = 0x55
        let error = failure(GT3XReader(), "damaged.gt3x", damaged)
        // The zip CRC-32 catches it before the log parser does.
        #expect(error?.message.contains("CRC-32") == true, "\(String(describing: error))")

        let noLog = ZipBuilder.stored([("info.txt", Array("Sample Rate: 30\r\n".utf8))])
        #expect(failure(GT3XReader(), "nolog.gt3x", noLog)?.message.contains("no log.bin") == true)
        let noRate = ZipBuilder.stored([("info.txt", Array("Serial Number: NEO1\r\n".utf8)), ("log.bin", [])])
        #expect(failure(GT3XReader(), "norate.gt3x", noRate)?.message.contains("Sample Rate") == true)
        let badSeparator = ZipBuilder.stored([("info.txt", Array("Sample Rate: 30\r\n".utf8)), ("log.bin", [0x1E, 0, 0, 0, 0, 0, 0, 0, 0xFF] + [UInt8](repeating: 0x42, count: 12))])
        let sep = failure(GT3XReader(), "sep.gt3x", badSeparator)
        #expect(sep?.message.contains("record separator") == true && sep?.byteOffset == 9, "\(String(describing: sep))")
        let cutRecord = ZipBuilder.stored([("info.txt", Array("Sample Rate: 30\r\n".utf8)), ("log.bin", [0x1E, 0x1A, 0, 0, 0, 0, 100, 0, 1, 2, 3])])
        #expect(failure(GT3XReader(), "cutrecord.gt3x", cutRecord)?.message.contains("truncated") == true)
        let noSamples = ZipBuilder.stored([("info.txt", Array("Sample Rate: 30\r\n".utf8)), ("log.bin", [])])
        #expect(failure(GT3XReader(), "nosamples.gt3x", noSamples)?.message.contains("no activity records") == true)
    }

    @Test(".cwa: empty, wrong header, truncated block, only damaged blocks")
    func cwa() throws {
        let good = try bytes("spec_ax3_packed.cwa")
        #expect(failure(AxivityCWAReader(), "empty.cwa", [])?.message.contains("empty file") == true)
        var wrong = good; wrong[0] = 0x58
        let header = failure(AxivityCWAReader(), "wrong.cwa", wrong)
        #expect(header?.byteOffset == 0 && header?.message.contains("'MD'") == true)
        // Cut inside the fourth data block: the three before it are read, with a warning.
        let folder = TemporaryFolder()
        let cut = try AxivityCWAReader().read(path: folder.write("cut.cwa", bytes: Array(good.prefix(1024 + 512 * 3 + 100))), options: IngestOptions())
        #expect(cut.quality.sampleCount == 3 * 120)
        #expect(cut.warnings.contains { $0.hasPrefix("file ends inside data block 3 at byte \(1024 + 512 * 3 + 100)") }, "\(cut.warnings)")
        // Cut inside the first data block: nothing complete, refused.
        let early = failure(AxivityCWAReader(), "early.cwa", Array(good.prefix(1024 + 100)))
        #expect(early?.byteOffset == 1024 && early?.message.contains("truncated") == true, "\(String(describing: early))")
        var garbage = Array(good.prefix(1024))
        var state: UInt32 = 5
        for _ in 0..<(512 * 4) { state = state &* 1_664_525 &+ 1_013_904_223; garbage.append(UInt8(state >> 24)) }
        #expect(failure(AxivityCWAReader(), "garbage.cwa", garbage)?.message.contains("no valid data blocks") == true)
    }

    @Test("damaged .cwa blocks are skipped and counted, the rest still reads")
    func cwaDamagedBlock() throws {
        var data = try bytes("spec_ax3_packed.cwa")
        data[1024 + 512 * 10 + 100] ^= 0xFF   // breaks block 10's checksum
        let path = folder.write("one-bad-block.cwa", bytes: data)
        let r = try AxivityCWAReader().read(path: path, options: IngestOptions())
        #expect(r.quality.skippedBlocks == 1)
        #expect(r.quality.sampleCount == 12_000 - 120)
        #expect(r.warnings.contains { $0.contains("1 damaged") })
    }

    @Test("GENEActiv .bin: empty, wrong first line, no calibration, bad hex digit, truncated page")
    func geneActiv() throws {
        let text = String(decoding: try bytes("spec_geneactiv.bin"), as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        #expect(failure(GENEActivBinReader(), "empty.bin", [])?.message.contains("empty file") == true)
        #expect(failure(GENEActivBinReader(), "wrong.bin", Array("Device Entity\r\n".utf8))?.line == 1)
        var noGain = lines; noGain[47] = "x gain:0"
        #expect(failure(GENEActivBinReader(), "nogain.bin", Array(noGain.joined(separator: "\r\n").utf8))?.message.contains("x gain") == true)
        // Line 69 is the first page's samples (59 header lines, then 9 page lines and the samples).
        var badHex = lines
        badHex[68] = String(badHex[68].prefix(30)) + "G" + String(badHex[68].dropFirst(31))
        let hex = failure(GENEActivBinReader(), "badhex.bin", Array(badHex.joined(separator: "\r\n").utf8))
        #expect(hex?.line == 69 && hex?.message.contains("character 31") == true, "\(String(describing: hex))")
        // Cut inside the fourth page's header: the three complete pages are read, with a warning.
        let folder = TemporaryFolder()
        let cutPath = folder.write("cut.bin", bytes: Array(Array(lines.prefix(59 + 10 * 3 + 5)).joined(separator: "\r\n").utf8))
        let cut = try GENEActivBinReader().read(path: cutPath, options: IngestOptions())
        #expect(cut.quality.sampleCount == 3 * 300)
        #expect(cut.warnings.contains { $0.hasPrefix("file ends inside page 4") }, "\(cut.warnings)")
        // Cut inside the first page: nothing complete, refused.
        let first = failure(GENEActivBinReader(), "first.bin", Array(Array(lines.prefix(59 + 5)).joined(separator: "\r\n").utf8))
        #expect(first?.message.contains("truncated") == true, "\(String(describing: first))")
    }

    @Test("ActiLife raw CSV: epoch export, m/s² values, a damaged last row refused (cut short, it is read)")
    func actiLife() throws {
        let text = String(decoding: try bytes("spec_actilife_raw_timestamps.csv"), as: UTF8.self)
        let epoch = text.replacingOccurrences(of: "Epoch Period (hh:mm:ss) 00:00:00", with: "Epoch Period (hh:mm:ss) 00:00:10")
        #expect(failure(ActiLifeRawCSVReader(), "epoch.csv", Array(epoch.utf8))?.message.contains("epoch export") == true)
        var lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let metres = lines.prefix(11) + lines.dropFirst(11).map { row -> String in
            let f = row.split(separator: ",")
            return ([String(f[0])] + f.dropFirst().map { String(Double($0)! * 9.80665) }).joined(separator: ",")
        }
        let units = failure(ActiLifeRawCSVReader(), "ms2.csv", Array(metres.joined(separator: "\r\n").utf8))
        // The burst (9 g → 88 m/s²) is refused on its row; a file of small values would be refused by its mean |a|.
        #expect(units?.message.contains("wrong units") == true && units?.line != nil, "\(String(describing: units))")
        lines[lines.count - 1] = "6/15/2024 00:00:59.966,0.00"
        // Cut inside the last row (no line end): read up to the row before it, with a warning.
        let cutPath = folder.write("cut.csv", bytes: Array(lines.joined(separator: "\r\n").utf8))
        let cut = try ActiLifeRawCSVReader().read(path: cutPath, options: IngestOptions())
        #expect(cut.warnings.contains { $0.contains("(line \(lines.count): the 27 bytes") && $0.contains("cut short") }, "\(cut.warnings)")
        // The same row with its line end is damage, not a cut: refused on its line.
        let damaged = failure(ActiLifeRawCSVReader(), "damaged.csv", Array((lines.joined(separator: "\r\n") + "\r\n").utf8))
        #expect(damaged?.line == lines.count && damaged?.message.contains("fields") == true, "\(String(describing: damaged))")
    }

    @Test("gzip: a truncated or corrupt stream is an error naming the compressed offset")
    func gzip() throws {
        let good = try bytes("spec_ax3_packed.cwa.gz")
        let cut = failure(AxivityCWAReader(), "cut.cwa.gz", Array(good.prefix(good.count / 2)))
        #expect(cut?.message.contains("truncated") == true, "\(String(describing: cut))")
        var corrupt = good
        for k in 200..<260 { corrupt[k] = 0xA5 }
        let bad = failure(AxivityCWAReader(), "corrupt.cwa.gz", corrupt)
        #expect(bad?.message.contains("gzip") == true && bad?.byteOffset != nil, "\(String(describing: bad))")
    }
}

/// A stored (uncompressed) zip archive, by PKWARE APPNOTE 4.3, for tests.
enum ZipBuilder {
    static func stored(_ entries: [(String, [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        for (name, data) in entries {
            let crc = CRC32.of(data)
            let offset = out.count
            let nameBytes = Array(name.utf8)
            out += u32(0x0403_4B50) + u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(crc) + u32(UInt32(data.count)) + u32(UInt32(data.count))
                + u16(nameBytes.count) + u16(0) + nameBytes + data
            directory += u32(0x0201_4B50) + u16(20) + u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(crc)
                + u32(UInt32(data.count)) + u32(UInt32(data.count)) + u16(nameBytes.count) + u16(0) + u16(0) + u16(0) + u16(0)
                + u32(0) + u32(UInt32(offset)) + nameBytes
        }
        let directoryOffset = out.count
        out += directory
        out += u32(0x0605_4B50) + u16(0) + u16(0) + u16(entries.count) + u16(entries.count) + u32(UInt32(directory.count))
            + u32(UInt32(directoryOffset)) + u16(0)
        return out
    }
}

/// CRC-32 (ISO 3309, as zip and gzip use it): zlib's.
enum CRC32 {
    static func of(_ data: [UInt8]) -> UInt32 {
        UInt32(data.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
    }
}
