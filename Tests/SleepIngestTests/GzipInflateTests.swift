import Foundation
import Testing
import SleepCore
import SleepIngest

/// Issue 18, item 2: gzip inflated by ISA-L (and, for `*.csv.gz`, overlapped with parsing) gives
/// exactly what zlib gives: the same bytes, the same recordings bit for bit, and for a truncated or
/// corrupt stream the same error (zlib takes over where ISA-L fails).
@Suite("gzip through ISA-L equals zlib")
struct GzipInflateTests {
    let folder = TemporaryFolder()
    typealias Generated = ParallelRawCSVReaderTests.Generated

    func gzip(_ path: String, level: Int = 1, to gz: String, append: Bool = false) {
        #expect(system("gzip -\(level) -c '\(path)' \(append ? ">>" : ">") '\(gz)'") == 0)
    }

    /// Every byte of the stream, or its error.
    func inflateAll(_ path: String, _ inflater: GzipInflater, chunk: Int = 7_777) -> Result<[UInt8], IngestError> {
        do throws(IngestError) {
            let stream = try ByteStreams.open(path: path, inflater: inflater)
            return .success(try stream.readAll(limit: 1 << 30, path: path))
        } catch { return .failure(error) }
    }

    /// A single-member file (level 1 and 9, the name in the header) and multi-member files (`cat a.gz b.gz`,
    /// with an empty member between) holding `text`; returns their paths.
    func gzipVariants(_ text: String, name: String) -> [String] {
        let plain = folder.write(name, text)
        let half = text.utf8.count / 2
        let a = folder.write(name + ".a", String(decoding: Array(text.utf8)[..<half], as: UTF8.self))
        let b = folder.write(name + ".b", String(decoding: Array(text.utf8)[half...], as: UTF8.self))
        let empty = folder.write(name + ".empty", "")
        let one = folder.path + "/" + name + ".gz", nine = folder.path + "/" + name + ".9.gz", multi = folder.path + "/" + name + ".multi.gz"
        gzip(plain, to: one)
        gzip(plain, level: 9, to: nine)
        gzip(a, to: multi); gzip(empty, to: multi, append: true); gzip(b, level: 6, to: multi, append: true)
        return [one, nine, multi]
    }

    @Test("the same bytes as zlib and as the plain file: one member, level 9, several members with an empty one")
    func sameBytes() throws {
        let text = Generated(rows: 60_000, seed: 21).text()
        for path in gzipVariants(text, name: "bytes.csv") {
            let isal = inflateAll(path, .isal), zlib = inflateAll(path, .zlib)
            #expect(try isal.get() == Array(text.utf8), "\(path)")
            #expect(try zlib.get() == Array(text.utf8), "\(path)")
        }
    }

    @Test("truncated and corrupt streams: the same error as zlib's, naming truncation or corruption")
    func badStreams() throws {
        let text = Generated(rows: 30_000, seed: 22).text()
        let paths = gzipVariants(text, name: "bad.csv")
        let good = try Data(contentsOf: URL(fileURLWithPath: paths[2]))   // multi-member
        var cases: [(String, Data)] = [("cut.csv.gz", good.prefix(good.count / 3)), ("cut-late.csv.gz", good.prefix(good.count - 5))]
        var corrupt = good
        for k in 2_000..<2_060 { corrupt[k] = 0xA5 }
        cases.append(("corrupt.csv.gz", corrupt))
        var trailing = good
        trailing.append(contentsOf: [0x1F, 0x8B, 0x08, 0x00, 0x00])   // a member cut inside its header
        cases.append(("trailing.csv.gz", trailing))
        for (name, bytes) in cases {
            let path = folder.path + "/" + name
            _ = FileManager.default.createFile(atPath: path, contents: bytes)
            let isal = inflateAll(path, .isal), zlib = inflateAll(path, .zlib)
            guard case .failure(let e) = zlib, case .failure(let f) = isal else {
                Issue.record("\(name): accepted"); continue
            }
            #expect(e == f, "\(name): \(e) vs \(f)")
            #expect(e.message.contains("truncated") || e.message.contains("corrupt"), "\(name): \(e)")
            // The reader's result is the serial zlib reader's, whichever path it took first: a
            // stream cut short is read up to its last complete row, with a warning (the file as
            // far as it goes); a corrupt one is refused with zlib's error.
            var zlibReader = RawCSVReader(parallel: false)
            zlibReader.inflater = .zlib
            let expected = Result { () throws(IngestError) in try zlibReader.read(path: path, options: IngestOptions()) }
            let got = Result { () throws(IngestError) in try RawCSVReader().read(path: path, options: IngestOptions()) }
            switch (expected, got) {
            case (.failure(let ee), .failure(let gg)):
                #expect(name == "corrupt.csv.gz", "\(name): refused: \(ee)")
                #expect(ee == gg, "\(name): \(ee) vs \(gg)")
            case (.success(let a), .success(let b)):
                #expect(name != "corrupt.csv.gz", "\(name): accepted")
                #expect(Self.sameSeries(a, b) && a.warnings == b.warnings, "\(name): the two paths differ")
                #expect(a.warnings.contains { $0.contains("without its end-of-stream marker (cut short)") }, "\(name): \(a.warnings)")
            default:
                Issue.record("\(name): one path read it, the other refused it: \(expected) vs \(got)")
            }
        }
    }

    /// The same per-second series (bit for bit, NaN included) and quality facts.
    static func sameSeries(_ a: Recording, _ b: Recording) -> Bool {
        a.segments.count == b.segments.count && a.quality == b.quality
            && zip(a.segments, b.segments).allSatisfy {
                $0.series.startSecond == $1.series.startSecond && $0.series.sampleCounts == $1.series.sampleCounts
                    && $0.series.movement.map(\.bitPattern) == $1.series.movement.map(\.bitPattern)
                    && $0.series.legacyMovement.map(\.bitPattern) == $1.series.legacyMovement.map(\.bitPattern)
            }
    }

    @Test("a gzip CSV cut short reads as the plain file of its complete rows, with a warning; on both inflaters, serial and fast")
    func cutShortSalvage() throws {
        let text = Generated(rows: 30_000, seed: 23).text()
        let path = gzipVariants(text, name: "salvage.csv")[0]
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = folder.path + "/salvage-cut.csv.gz"
        _ = FileManager.default.createFile(atPath: cut, contents: good.prefix(good.count * 2 / 3))
        // What was inflated up to the cut, and the plain file of its complete rows.
        var inflated: [UInt8] = []
        let stream = try GzipByteStream(file: try FileByteStream(path: cut), path: cut)
        stream.salvageCutShort()
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
        defer { buffer.deallocate() }
        while case let n = try stream.read(into: buffer, count: 1 << 16), n > 0 { inflated.append(contentsOf: UnsafeBufferPointer(start: buffer, count: n)) }
        #expect(stream.cutShort?.contains("ends after \(inflated.count) decompressed bytes") == true)
        #expect(inflated.count > 0 && inflated.count < text.utf8.count && inflated == Array(text.utf8.prefix(inflated.count)))
        let lastRow = (inflated.lastIndex(of: 10) ?? -1) + 1
        let plain = folder.path + "/salvage-complete-rows.csv"
        _ = FileManager.default.createFile(atPath: plain, contents: Data(inflated[..<lastRow]))
        let reference = try RawCSVReader().read(path: plain, options: IngestOptions())
        var zlibReader = RawCSVReader(parallel: false)
        zlibReader.inflater = .zlib
        for reader in [RawCSVReader(), RawCSVReader(parallel: false), zlibReader] {
            let r = try reader.read(path: cut, options: IngestOptions())
            #expect(Self.sameSeries(r, reference), "the rows before the cut, as the plain file of them reads")
            let warning = "its incomplete last row (the \(inflated.count - lastRow) decompressed bytes from offset \(lastRow)) was dropped"
            #expect(r.warnings.contains { $0.contains(warning) } || (lastRow == inflated.count && r.warnings.contains { $0.contains("just after a row's end") }), "\(r.warnings)")
        }
    }

    @Test("*.csv.gz through the overlapped ISA-L path equals the serial zlib reader bit for bit, across block boundaries")
    func csvGzipEqualsSerialZlib() throws {
        for (seed, gravity) in [(23 as UInt64, false), (24, true)] {
            let text = Generated(rows: 50_000, gravity: gravity, seed: seed).text()
            for path in gzipVariants(text, name: "night\(seed).csv") {
                var zlibReader = RawCSVReader(parallel: false)
                zlibReader.inflater = .zlib
                let serial = try zlibReader.read(path: path, options: IngestOptions(timeZoneIdentifier: "Europe/Berlin"))
                #expect(serial.compression == "gzip")
                for blockBytes in [4096, 65_536, 4 << 20] {
                    var discard = DiscardingSampleSink()
                    let fast = GzipRawCSVReader(blockBytes: blockBytes, blocks: 3)
                        .read(path: path, options: IngestOptions(timeZoneIdentifier: "Europe/Berlin"), samples: &discard)
                    #expect(fast != nil, "\(path): fast path taken")
                    if let fast { ParallelRawCSVReaderTests().expectSame(fast, serial, "\(path), \(blockBytes)-byte blocks") }
                }
                // The samples a sink gets (the wearable milestone's input): the same, in the same order.
                var a = RawSampleBuffer(), b = RawSampleBuffer()
                _ = try zlibReader.read(path: path, options: IngestOptions(), samples: &a)
                _ = try RawCSVReader().read(path: path, options: IngestOptions(), samples: &b)
                #expect(a.timestamps.map(\.bitPattern) == b.timestamps.map(\.bitPattern) && a.x == b.x && a.y == b.y && a.z == b.z)
            }
        }
    }

    @Test("what the fast path leaves to the serial reader (ISO timestamps, a line too long) reads as before")
    func handedBack() throws {
        let iso = (0..<3_000).map { i in "2024-06-14T23:\(String(format: "%02d", i / 60 % 60)):\(String(format: "%02d", i % 60))+02:00,0.01,0.02,0.03" }
        let plain = folder.write("iso.csv", "timestamp,x,y,z\n" + iso.joined(separator: "\n") + "\n")
        let gz = folder.path + "/iso.csv.gz"
        gzip(plain, to: gz)
        var discard = DiscardingSampleSink()
        #expect(GzipRawCSVReader().read(path: gz, options: IngestOptions(), samples: &discard) == nil)
        var zlibReader = RawCSVReader(parallel: false)
        zlibReader.inflater = .zlib
        ParallelRawCSVReaderTests().expectSame(try RawCSVReader().read(path: gz, options: IngestOptions()),
                                               try zlibReader.read(path: gz, options: IngestOptions()), "ISO gzip")
    }
}
