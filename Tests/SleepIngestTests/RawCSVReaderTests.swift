import Foundation
import Testing
import SleepCore
import SleepIngest

@Suite("Raw-sample CSV reader")
struct RawCSVReaderTests {
    let folder = TemporaryFolder()

    func read(_ text: String, tz: String? = nil, name: String = "night.csv") throws(IngestError) -> Recording {
        let path = folder.write(name, text)
        return try RawCSVReader().read(path: path, options: IngestOptions(timeZoneIdentifier: tz))
    }

    @Test("epoch seconds without header, 2 Hz")
    func epochSeconds() throws {
        let r = try read("1718400000.0,0.3,0.6,0.9\n1718400000.5,0.0,0.0,0.3\n1718400001.0,0.03,0.03,0.03\n")
        let s = r.segments[0].series
        #expect(s.startSecond == 1_718_400_000)
        #expect(s.sampleCounts == [2, 1])
        #expect(abs(Double(s.movement[0]) - 0.35) < 1e-6)
        #expect(r.timeZoneSource == .assumedUTC)
        #expect(r.warnings.contains { $0.contains("no time zone") })
        #expect(r.quality.sampleCount == 3)
    }

    @Test("epoch milliseconds with header and CRLF")
    func epochMilliseconds() throws {
        let r = try read("timestamp,x,y,z\r\n1718400000000,0.1,0.1,0.1\r\n1718400000020,0.1,0.1,0.1\r\n1718400001000,0.1,0.1,0.1\r\n")
        #expect(r.segments[0].series.startSecond == 1_718_400_000)
        #expect(r.segments[0].series.sampleCounts == [2, 1])
    }

    @Test("ISO 8601 with offsets: UTC instants are exact and the offsets become the timeline, DST change included")
    func isoOffsets() throws {
        let r = try read("""
            time,acc_x,acc_y,acc_z
            2024-03-31T01:59:59+01:00,0.01,0.01,0.01
            2024-03-31T03:00:00.500+02:00,0.01,0.01,0.01
            """)
        let s = r.segments[0].series
        #expect(s.startSecond == 1_711_846_799)
        #expect(s.count == 2)
        #expect(r.timeZoneSource == .data)
        #expect(r.timeline.offset(atUTC: 1_711_846_799) == 3600)
        #expect(r.timeline.offset(atUTC: 1_711_846_800) == 7200)
    }

    @Test("ISO 8601 without offset uses --tz")
    func isoWithZone() throws {
        let r = try read("2024-06-14 23:00:00,0.01,0.01,0.01\n2024-06-14 23:00:01,0.01,0.01,0.01\n", tz: "Europe/Berlin")
        #expect(r.segments[0].series.startSecond == 1_718_398_800) // 21:00Z
        #expect(r.timeZoneSource == .option)
        #expect(r.timeZoneName == "Europe/Berlin")
    }

    @Test("gravity is detected from the norm of the first samples")
    func gravity() throws {
        #expect(try read("1,0.0,0.0,1.0\n2,0.0,0.1,0.99\n").gravity == .included)
        #expect(try read("1,0.001,0.002,0.0\n2,0.0,0.001,0.002\n").gravity == .removed)
    }

    /// Every malformed input names the file, the line and what was expected.
    @Test("bad input gives file, line and expectation", arguments: [
        ("", 1, "empty file"),
        ("timestamp,x,y,z\n", 1, "no sample rows"),
        ("1,0.1,0.2\n", 1, "expected 4 comma-separated fields"),
        ("1,0.1,0.2,0.3\n2,0.1,0.2,0.3,0.4\n", 2, "expected 4 comma-separated fields"),
        ("1,0.1,abc,0.3\n", 1, "y = 'abc' is not a number"),
        ("1,0.1,0.2,0.3\n2,0.1,NaN,0.3\n", 2, "NaN or infinite"),
        ("1,0.1,0.2,0.3\n2,0.1,0.2,inf\n", 2, "NaN or infinite"),
        ("10,0.1,0.2,0.3\n11,0.1,0.2,0.3\n9,0.1,0.2,0.3\n", 3, "time goes backwards"),
        ("1,0.1,0.2,0.3\nyesterday,0.1,0.2,0.3\n", 2, "timestamp 'yesterday' is not valid"),
        ("time,a,b,c\n1,0.1,0.2,0.3\n", 1, "should name the x axis"),
        ("1,0.1,0.2,120\n", 1, "not a plausible acceleration in g"),
        ("1,0.0,0.0,9.81\n2,0.0,0.1,9.79\n", 1, "gravity in m/s²"),
        ("1718400000,0.1,0.2,0.3\n4102444800,0.1,0.2,0.3\n", 2, "days after the first sample"),
        ("2024-03-31T01:59:59+01:00,0.1,0.1,0.1\n2024-03-31T03:00:00,0.1,0.1,0.1\n", 2, "no UTC offset"),
    ])
    func badInput(text: String, line: Int, message: String) {
        do {
            _ = try read(text, name: "bad.csv")
            Issue.record("expected an error for \(text.debugDescription)")
        } catch {
            #expect(error.file.hasSuffix("bad.csv"))
            #expect(error.line == line)
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.description.hasPrefix(error.file + ":\(line): "))
        }
    }

    @Test("raw samples reach a sink unchanged, next to the per-second series")
    func rawSamples() throws {
        var buffer = RawSampleBuffer()
        let path = folder.write("raw.csv", "timestamp,x,y,z\n1718400000.00,0.5,-0.25,1\n1718400000.02,0.125,0,-1\n1718400000.04,0,0,0\n")
        let r = try RawCSVReader().read(path: path, options: IngestOptions(), samples: &buffer)
        #expect(buffer.timestamps == [1_718_400_000.00, 1_718_400_000.02, 1_718_400_000.04])
        #expect(buffer.x == [0.5, 0.125, 0] && buffer.y == [-0.25, 0, 0] && buffer.z == [1, -1, 0])
        #expect(buffer.nominalSampleRateHz == 50)
        #expect(r.segments[0].series.sampleCounts == [3])
    }

    @Test("an unknown --tz is refused")
    func unknownZone() {
        #expect(throws: IngestError.self) { _ = try read("1,0,0,0\n", tz: "Mars/Olympus_Mons") }
    }

    @Test("a file larger than the read chunk streams correctly (lines across chunk boundaries)")
    func acrossChunks() throws {
        var text = "timestamp,x,y,z\n"
        let n = 60_000  // ~2 MB at 50 Hz: crosses two 1 MiB chunk boundaries
        for i in 0..<n { text += "\(1_718_400_000_000 + i * 20),0.0\(i % 10)1,-0.002,0.003\n" }
        let r = try read(text)
        let s = r.segments[0].series
        #expect(r.quality.sampleCount == n)
        #expect(s.count == n / 50)
        #expect(s.sampleCounts.allSatisfy { $0 == 50 })
        // Second 0 holds samples i = 0..<50: x cycles 0.001, 0.011, ..., 0.091.
        var expected = 0.0
        for i in 0..<50 {
            let x: Double = Double("0.0\(i % 10)1")!
            expected += (x + 0.002 + 0.003) / 3
        }
        expected /= 50
        #expect(abs(Double(s.movement[0]) - expected) < 1e-6)
    }
}

@Suite("Number parsing")
struct FastNumberTests {
    @Test("correctly rounded like Double(String) for many decimal forms")
    func matchesFoundation() {
        var state: UInt64 = 99
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 20 }
        var texts = ["0", "-0", "1", "-1.5", "0.1", "1e3", "1E-3", "-2.5e+2", "123456789.123456789", ".5", "5.", "+3.25",
                     "0.000000000000000000001", "1e300", "9007199254740993", "1718400000000"]
        for _ in 0..<20_000 {
            let digits = String(next() % 100_000_000)
            let scale = Int(next() % 12)
            var t = digits
            if scale < t.count { t.insert(".", at: t.index(t.endIndex, offsetBy: -scale)) }
            if next() % 2 == 0 { t = "-" + t }
            texts.append(t)
        }
        for t in texts {
            let bytes = Array(t.utf8)
            let r = bytes.withUnsafeBufferPointer { FastNumber.parse($0.baseAddress!, 0, $0.count) }
            #expect(r == .number(Double(t)!), "\(t)")
        }
    }

    @Test("rejects what is not a number", arguments: ["", "-", ".", "e5", "1e", "1.2.3", "0x10", "1,5", "12a"])
    func rejects(text: String) {
        let bytes = Array(text.utf8) + [0]
        let r = bytes.withUnsafeBufferPointer { FastNumber.parse($0.baseAddress!, 0, $0.count - 1) }
        #expect(r == .invalid)
    }
}
