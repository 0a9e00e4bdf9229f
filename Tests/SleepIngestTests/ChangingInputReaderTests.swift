#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import SleepCore
import SleepIngest

/// Issue 15, the readers' part: files that shrink while mapped, lines without an end, `.gt3x`
/// idle-sleep events that claim weeks, UTF-16 text and zip64 archives.
@Suite("Readers: files that change, lie or explode", .serialized)
struct ChangingInputReaderTests {
    let folder = TemporaryFolder()

    /// `seconds` rows of 1 Hz epoch-second samples from 2024-06-14T23:00:00Z.
    static func rows(_ seconds: Int) -> String {
        var out = "timestamp,x,y,z\n"
        for s in 0..<seconds { out += "\(1_718_406_000 + s),0.0\(s % 10)12,-0.0021,0.0015\n" }
        return out
    }

    @Test("a raw CSV truncated after it is mapped: 'changed while it was read', not SIGBUS")
    func mappedFileTruncated() throws {
        let path = folder.write("shrinking.csv", Self.rows(40_000))   // about 1.1 MB
        ParallelRawCSVReader.afterMappingForTesting = { p in if p == path { _ = truncate(p, 100) } }
        defer { ParallelRawCSVReader.afterMappingForTesting = nil }
        for threads in [1, 2] {
            _ = truncate(path, 0)
            _ = FileManager.default.createFile(atPath: path, contents: Data(Self.rows(40_000).utf8))
            do {
                let run = try RawCSVIngest.read(path: path, threads: threads, chunkBytes: 64 << 10)
                Issue.record("threads \(threads): read \(run.recording.quality.sampleCount) samples of a file cut to 100 bytes")
            } catch {
                #expect(error.file == path)
                #expect(error.message.contains("changed while it was read"), "\(error)")
                #expect(error.message.contains("shrank from"), "\(error)")
            }
        }
    }

    @Test("a line of 40 MiB without a line end: refused naming the line on every path, with bounded memory")
    func longLineLimit() throws {
        // 6 MiB of rows, then one 40 MiB line, then rows again: a chunk boundary falls inside the line.
        let head = Self.rows(180_000)
        let line = String(repeating: "7", count: 40 << 20)
        let text = head + line + "\n" + "1718600000,0.1,0.1,0.1\n"
        let path = folder.write("long-line.csv", text)
        let lineNumber = head.split(separator: "\n").count + 1
        let plain: IngestError
        do {
            let run = try RawCSVIngest.read(path: path, threads: 2)
            Issue.record("accepted a 40 MiB line (\(run.recording.quality.sampleCount) samples)")
            return
        } catch { plain = error }
        #expect(plain.line == lineNumber, "\(plain)")
        #expect(plain.message.contains("line longer than \(LineScanner.maximumLineBytes) bytes"), "\(plain)")

        // The parallel path reserved 4 bytes of parsed samples per byte of such a line (160 MB
        // here, 8 GB for a 2 GiB line); now it stops at the line limit.
        var discard = DiscardingSampleSink()
        var stats = ParallelRawCSVReader.Statistics()
        let parallel = try ParallelRawCSVReader(chunkBytes: 4 << 20, threads: 2).read(path: path, options: IngestOptions(),
                                                                                       samples: &discard, statistics: &stats)
        #expect(parallel == nil)
        #expect(stats.peakReservedBytes <= 4 * ((4 << 20) + LineScanner.maximumLineBytes) + 4096, "reserved \(stats.peakReservedBytes) bytes")

        // The same bytes gzipped: the same error.
        let gz = folder.path + "/long-line.csv.gz"
        let status = system("gzip -1 -c '\(path)' > '\(gz)'")
        try #require(status == 0)
        do {
            _ = try RawCSVReader().read(path: gz, options: IngestOptions())
            Issue.record("gzip: accepted")
        } catch {
            #expect(error.line == plain.line && error.message == plain.message, "\(error) vs \(plain)")
        }
    }

    /// A `.gt3x` log record: separator, type, local second, size, payload, checksum.
    static func record(_ type: UInt8, _ second: UInt32, _ payload: [UInt8]) -> [UInt8] {
        var r: [UInt8] = [0x1E, type, UInt8(second & 0xFF), UInt8(second >> 8 & 0xFF), UInt8(second >> 16 & 0xFF), UInt8(second >> 24),
                          UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)]
        r += payload
        r.append(~r.reduce(0, ^))
        return r
    }

    /// One second of ACTIVITY2 samples (Int16 x, y, z) at `rate`, lying still (1 g on z).
    static func activitySecond(_ second: UInt32, rate: Int) -> [UInt8] {
        var p: [UInt8] = []
        for _ in 0..<rate { p += [0, 0, 0, 0, 0x55, 0x01] }   // z = 341 LSB = 1 g
        return record(0x1A, second, p)
    }

    static func gt3x(rate: Int, log: [UInt8], stated: (start: UInt32, end: UInt32)? = nil) -> [UInt8] {
        var info = "Serial Number: NEO1F99999999\r\nSample Rate: \(rate)\r\nAcceleration Scale: 341.0\r\nTimeZone: 00:00:00\r\n"
        if let stated {
            let ticks = { (s: UInt32) in (Int64(s) + 62_135_596_800) * 10_000_000 }
            info += "Start Date: \(ticks(stated.start))\r\nLast Sample Time: \(ticks(stated.end))\r\n"
        }
        return ZipBuilder.stored([("info.txt", Array(info.utf8)), ("log.bin", log)])
    }

    @Test(".gt3x idle sleep: filled only between real records and inside the stated span; events alone invent nothing")
    func gt3xIdleFill() throws {
        let t0: UInt32 = 1_718_406_000
        let options = IngestOptions(timeZoneIdentifier: "UTC")
        // One real second, then idle sleep announced for 61 days with nothing after it: a file of a
        // few hundred bytes that once filled 61 days at 10 kHz (minutes of work, 62 nights).
        let lying = Self.gt3x(rate: 10_000, log: Self.activitySecond(t0, rate: 10) + Self.record(0x03, t0 + 1, [0x08])
                              + Self.record(0x03, t0 + 61 * 86_400, [0x09]))
        let clock = ContinuousClock.now
        let r = try GT3XReader().read(path: folder.write("lying.gt3x", bytes: lying), options: options)
        #expect(ContinuousClock.now - clock < .seconds(5))
        #expect(r.quality.idleSleepSecondsFilled == 0)
        #expect(r.segments.map(\.series.count) == [1])

        // Samples again after the idle period: the gap between the two real records is filled.
        let real = Self.gt3x(rate: 30, log: Self.activitySecond(t0, rate: 30) + Self.record(0x03, t0 + 1, [0x08])
                             + Self.record(0x03, t0 + 600, [0x09]) + Self.activitySecond(t0 + 600, rate: 30),
                             stated: (t0, t0 + 601))
        let filled = try GT3XReader().read(path: folder.write("real.gt3x", bytes: real), options: options)
        #expect(filled.quality.idleSleepSecondsFilled == 599)
        #expect(filled.quality.sampleCount == 601 * 30)
        #expect(filled.segments[0].series.coveredSeconds == 601)

        // Two real records 20 days apart at 10 kHz, but info.txt states a 10-minute recording: only
        // the stated span is filled, and quickly (seconds, not samples, are the work).
        let beyond = Self.gt3x(rate: 10_000, log: Self.activitySecond(t0, rate: 10_000) + Self.record(0x03, t0 + 1, [0x08])
                               + Self.record(0x03, t0 + 20 * 86_400, [0x09]) + Self.activitySecond(t0 + 20 * 86_400, rate: 10_000),
                               stated: (t0, t0 + 600))
        let clock2 = ContinuousClock.now
        let bounded = try GT3XReader().read(path: folder.write("beyond.gt3x", bytes: beyond), options: options)
        #expect(ContinuousClock.now - clock2 < .seconds(5))
        #expect(bounded.quality.idleSleepSecondsFilled == 600)

        // Two real records 20 days apart and no stated span: nothing to bound the fill, so no fill.
        let unstated = Self.gt3x(rate: 30, log: Self.activitySecond(t0, rate: 30) + Self.record(0x03, t0 + 1, [0x08])
                                 + Self.record(0x03, t0 + 20 * 86_400, [0x09]) + Self.activitySecond(t0 + 20 * 86_400, rate: 30))
        let gaps = try GT3XReader().read(path: folder.write("unstated.gt3x", bytes: unstated), options: options)
        #expect(gaps.quality.idleSleepSecondsFilled == 0)
        #expect(gaps.quality.sampleCount == 60)
        #expect(gaps.warnings.contains { $0.hasPrefix("\(20 * 86_400 - 1) s of idle-sleep mode not filled") }, "\(gaps.warnings)")
    }

    @Test("UTF-16 text is refused by name, with no NUL byte in the error")
    func utf16() throws {
        let text = Self.rows(100)
        var le: [UInt8] = [0xFF, 0xFE]
        for u in text.utf16 { le += [UInt8(u & 0xFF), UInt8(u >> 8)] }
        var be: [UInt8] = []
        for u in text.utf16 { be += [UInt8(u >> 8), UInt8(u & 0xFF)] }
        for (name, bytes, fragment) in [("le.csv", le, "UTF-16 little-endian"), ("be-no-bom.csv", be, "UTF-16 big-endian"),
                                        ("le.json", le, "UTF-16 little-endian")] {
            let path = folder.write(name, bytes: bytes)
            do {
                _ = try FormatDetector.reader(forPath: path).read(path: path, options: IngestOptions())
                Issue.record("\(name): accepted")
            } catch {
                #expect(error.message.contains(fragment), "\(name): \(error)")
                #expect(!error.description.utf8.contains(0), "\(name): NUL in \(error.description.debugDescription)")
            }
        }
    }

    @Test("control characters from a file (NUL, newline, escape) never reach an error's text")
    func errorsArePrintable() {
        let e = IngestError(file: "/data/evil\nname.csv", line: 3, message: "expected a number, found 'a\u{0}b\u{1B}[2J'")
        #expect(e.description == "/data/evil\\nname.csv:3: expected a number, found 'a\\0b\\u{1B}[2J'")
        #expect(PrintableText.escaped("Zürich night\u{2028}.csv") == "Zürich night\\u{2028}.csv")
    }

    @Test("a zip64 archive is refused as zip64, not as truncated")
    func zip64() throws {
        var archive = ZipBuilder.stored([("info.txt", Array("Sample Rate: 30\r\n".utf8)), ("log.bin", [1, 2, 3])])
        // Mark the log entry's sizes as stored in a zip64 extra field (0xFFFFFFFF), as zip64 writers do.
        let directory = archive.count - 22 - (46 + 8) - (46 + 7)
        let logEntry = directory + 46 + 8
        for k in 0..<8 { archive[logEntry + 20 + k] = 0xFF }
        let path = folder.write("zip64.gt3x", bytes: archive)
        do {
            _ = try GT3XReader().read(path: path, options: IngestOptions())
            Issue.record("accepted")
        } catch {
            #expect(error.message.contains("zip64"), "\(error)")
            #expect(!error.message.contains("truncated"), "\(error)")
        }
    }

    @Test("an app export night whose values lie 40 days apart: two short series, not one across the 40 days")
    func appExportGap() throws {
        let json = """
            {"nights": [{"id": "n", "intervalSeconds": 600, "motionData": [
              {"motion": 3, "timestamp": 1718399400}, {"motion": 2, "timestamp": 1718400000},
              {"motion": 4, "timestamp": 1721855400}, {"motion": 1, "timestamp": 1721856000}]}]}
            """
        let r = try AppJSONReader().read(path: folder.write("gap.json", json), options: IngestOptions(timeZoneIdentifier: "UTC"))
        #expect(r.segments.map(\.series.count) == [1200, 1200])
        #expect(r.segments.map(\.series.startSecond) == [1_718_398_800, 1_721_854_800])
        #expect(r.segments.allSatisfy { $0.label == "n" })
        #expect(r.segments[0].series.movement[0] == Float(3.0 / 600))
        // Both channels are one array, and so is a slice of them.
        let slice = r.segments[0].series.slice(from: 1_718_398_700, to: 1_718_399_000)
        #expect(slice.channelsShareStorage && r.segments[0].series.channelsShareStorage)
        #expect(slice.movement.prefix(100).allSatisfy(\.isNaN) && slice.movement[100] == Float(3.0 / 600))
    }

    @Test("more than 65,535 samples in one second: the stored count is capped, and a warning says so")
    func sampleCountCap() throws {
        var intake = SampleIntake(sink: DiscardingSampleSink())
        for k in 0..<70_000 { try intake.add(timestamp: 1_718_398_800 + Double(k) / 70_000, x: 0.01, y: 0, z: 0) }
        try intake.add(timestamp: 1_718_398_801, x: 0.01, y: 0, z: 0)
        let (series, quality) = intake.finish()
        #expect(series.sampleCounts == [65_535, 1])
        #expect(intake.warnings(quality).contains { $0.hasPrefix("1 second(s) hold more than 65535 samples") }, "\(intake.warnings(quality))")
    }
}
