import Foundation
import Testing
import SleepCore
import SleepIngest

/// The parallel raw-CSV path must give exactly what the serial reader gives: the same per-second
/// series bit for bit, the same quality facts and warnings, and for a bad file the same error
/// (file and line). Files are generated with a fixed seed and cut into many small chunks, so that
/// chunk boundaries fall inside seconds, inside 15-minute stillness blocks and next to every
/// oddity below.
@Suite("Parallel raw-CSV path equals the serial reader")
struct ParallelRawCSVReaderTests {
    let folder = TemporaryFolder()

    /// A `timestamp,x,y,z` file with the oddities a logger produces, deterministic for a seed.
    struct Generated {
        var rows = 40_000
        var rateHz = 5.0
        var start = 1_718_398_800.0
        var header = true
        var epochUnit = 1.0          // 1 s, 1e-3 (ms) …: the timestamp is written as t / unit
        var timestampDecimals = 3
        var gravity = false
        var still = true             // constant values from 1500 s to 6500 s (stillness blocks)
        var gaps = true              // gaps of 30 s and 5 min
        var duplicates = true        // repeated timestamps
        var jitterBack = true        // rows up to 0.6 s back in time (kept or dropped, never refused)
        var oddRows = true           // CRLF, blank lines, spaces, quotes, exponents, '+', long digit runs
        var seed: UInt64 = 1

        func text() -> String {
            var rng = seed &* 0x9E37_79B9_7F4A_7C15 | 1
            func next() -> Double {
                rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17
                return Double(rng >> 11) * 0x1.0p-53
            }
            var out = header ? "timestamp,x,y,z\n" : ""
            out.reserveCapacity(rows * 40)
            var t = start
            for i in 0..<rows {
                let elapsed = t - start
                let stillNow = still && elapsed > 1_500 && elapsed < 6_500
                var x = stillNow ? 0.0012 : (next() - 0.5) * 0.2
                var y = stillNow ? -0.0031 : (next() - 0.5) * 0.2
                var z = stillNow ? 0.0005 : (next() - 0.5) * 0.2
                if gravity { z += 1 }
                if gaps && i % 9_000 == 8_999 { t += next() < 0.5 ? 30 : 300 }
                var stamp = t
                if jitterBack && i % 997 == 500 { stamp -= 0.6 * next() }
                if !(duplicates && i % 613 == 7) { t += 1 / rateHz }
                let ts = String(format: "%.\(timestampDecimals)f", stamp / epochUnit)
                var line = "\(ts),\(String(format: "%.5f", x)),\(String(format: "%.5f", y)),\(String(format: "%.5f", z))"
                if oddRows {
                    switch i % 1_201 {
                    case 100: line = " \(ts) , \(String(format: "%.5f", x)),\"\(String(format: "%.5f", y))\",\t\(String(format: "%.5f", z))"
                    case 200: line += "\r"
                    case 300: line = "\(ts),\(String(format: "%.4e", x)),\(y >= 0 ? "+" : "")\(String(format: "%.5f", y)),\(String(format: "%.5f", z))"
                    case 400: line = "\(ts),0.12345678901234567890,\(String(format: "%.5f", y)),\(String(format: "%.5f", z))"
                    case 500: out += "\n"
                    case 600: x = -x; y = -y; z = -z
                        line = "\(ts),\(String(format: "%.5f", x)),\(String(format: "%.5f", y)),\(String(format: "%.5f", z))"
                    default: break
                    }
                }
                out += line + "\n"
            }
            return out
        }
    }

    func write(_ g: Generated, _ name: String = "night.csv") -> String {
        folder.write(name, g.text())
    }

    /// The same recording, NaN-aware (a gap's NaN equals NaN here, bit for bit).
    func expectSame(_ a: Recording, _ b: Recording, _ what: String) {
        #expect(a.segments.count == b.segments.count, "\(what)")
        for (sa, sb) in zip(a.segments, b.segments) {
            #expect(sa.series.startSecond == sb.series.startSecond, "\(what)")
            #expect(sa.series.movement.map(\.bitPattern) == sb.series.movement.map(\.bitPattern), "\(what): movement")
            #expect(sa.series.legacyMovement.map(\.bitPattern) == sb.series.legacyMovement.map(\.bitPattern), "\(what): legacy")
            #expect(sa.series.sampleCounts == sb.series.sampleCounts, "\(what): sample counts")
        }
        #expect(a.quality == b.quality, "\(what): quality")
        #expect(a.warnings == b.warnings, "\(what): warnings")
        #expect(a.gravity == b.gravity && a.timeline == b.timeline && a.timeZoneSource == b.timeZoneSource
                && a.timeZoneName == b.timeZoneName && a.format == b.format && a.compression == b.compression, "\(what)")
    }

    func compare(_ path: String, tz: String? = nil, expectParallel: Bool = true, _ what: String) throws {
        let options = IngestOptions(timeZoneIdentifier: tz)
        let serial = try RawCSVIngest.readSerially(path: path, options: options)
        for threads in [1, 2] {
            for chunkBytes in [4096, 65_536] {
                let run = try RawCSVIngest.read(path: path, options: options, threads: threads, chunkBytes: chunkBytes)
                #expect(run.usedParallelPath == expectParallel, "\(what): parallel path taken")
                if expectParallel && threads == 2 { #expect(run.threads == 2 && run.chunks >= 2, "\(what): really split") }
                expectSame(run.recording, serial, "\(what), \(threads) thread(s), \(chunkBytes)-byte chunks")
            }
        }
        // And through the reader's public entry point (what the batch calls).
        expectSame(try RawCSVReader().read(path: path, options: options), serial, "\(what), RawCSVReader()")
    }

    @Test("epoch seconds with every oddity: gaps, duplicates, steps back, CRLF, blank, quoted and exponent rows, stillness")
    func oddities() throws {
        let path = write(Generated())
        try compare(path, "oddities")
        let serial = try RawCSVIngest.readSerially(path: path)
        // The file does exercise what it claims (else the comparison proves little).
        #expect(serial.quality.duplicateTimestamps > 0)
        #expect((serial.quality.backwardSamplesDropped ?? 0) > 0 && (serial.quality.backwardTimestampsKept ?? 0) > 0)
        #expect(serial.quality.gapCount > 0)
        #expect((serial.quality.stillPeriods ?? 0) > 0)
        // Both ways into the in-order consumer are taken: whole seconds summed by the parser
        // threads, and chunks that go sample by sample (a step back in time inside them).
        for chunkBytes in [4096, 65_536] {
            let run = try RawCSVIngest.read(path: path, threads: 2, chunkBytes: chunkBytes)
            let seconds = run.recording.segments.first?.series.count ?? 0
            // (A step back every 997 rows sends most chunks sample by sample: both ways are used.)
            #expect(run.secondsSummedWhileParsing > 0, "\(chunkBytes): \(run.secondsSummedWhileParsing) of \(seconds)")
            #expect(run.secondsSummedWhileParsing < seconds, "\(chunkBytes): \(run.secondsSummedWhileParsing) of \(seconds)")
        }
    }

    @Test("units, headers, gravity and time zones", arguments: [
        ("ms, header, gravity", Generated(header: true, epochUnit: 1e-3, timestampDecimals: 0, gravity: true, seed: 2), nil as String?),
        ("µs, no header", Generated(header: false, epochUnit: 1e-6, timestampDecimals: 0, seed: 3), "Europe/Berlin"),
        ("ns (19-digit timestamps, general path)", Generated(epochUnit: 1e-9, timestampDecimals: 0, seed: 4), nil),
        ("plain 100 Hz seconds, no oddities", Generated(rows: 60_000, rateHz: 100, timestampDecimals: 2, still: false, gaps: false,
                                                   duplicates: false, jitterBack: false, oddRows: false, seed: 5), "America/New_York"),
    ])
    func variants(_ name: String, _ g: Generated, _ tz: String?) throws {
        try compare(write(g), tz: tz, name)
    }

    @Test("a file without a final newline, and one that ends in CRLF")
    func endings() throws {
        var text = Generated(rows: 5_000, seed: 6).text()
        text.removeLast()
        try compare(folder.write("a.csv", text), "no final newline")
        try compare(folder.write("b.csv", Generated(rows: 5_000, oddRows: false, seed: 7).text().replacingOccurrences(of: "\n", with: "\r\n")), "CRLF")
    }

    @Test("a file cut inside its last row: both paths drop that row with one warning and read the rows before it bit for bit as the file of them; a replay gives the same samples")
    func cutShort() throws {
        let text = Generated(rows: 20_000, jitterBack: false, oddRows: false, seed: 12).text()
        let bytes = Array(text.utf8)
        let lastRow = bytes[..<(bytes.count - 1)].lastIndex(of: 10)! + 1
        let complete = folder.write("complete-rows.csv", String(decoding: bytes[..<lastRow], as: UTF8.self))
        let reference = try RawCSVIngest.readSerially(path: complete)
        var referenceSamples = RawSampleBuffer()
        _ = try RawCSVReader(parallel: false).read(path: complete, options: IngestOptions(), samples: &referenceSamples)
        let timestampLength = bytes[lastRow...].firstIndex(of: 44)! - lastRow
        // Cut inside the x field, inside the timestamp and just after the last comma: each row
        // has too few fields or an empty one, and the fast path drops it itself.
        for (what, keep) in [("inside x", timestampLength + 4), ("inside the timestamp", 5), ("after the last comma", bytes[lastRow...].lastIndex(of: 44)! - lastRow + 1)] {
            let path = folder.write("cut.csv", String(decoding: bytes[..<(lastRow + keep)], as: UTF8.self))
            try compare(path, "cut \(what)")
            let r = try RawCSVReader().read(path: path, options: IngestOptions())
            let warning = "file ends inside its last row (the \(keep) bytes from offset \(lastRow) have no line end: cut short): that incomplete row was dropped; the rows before it are read"
            #expect(r.warnings == reference.warnings + [warning], "\(what): \(r.warnings)")
            var withoutWarning = r
            withoutWarning.warnings = reference.warnings
            expectSame(withoutWarning, reference, "cut \(what) vs the complete rows")
            // The calibrated pass's replay hands on exactly the first read's samples.
            var first = RawSampleBuffer(), again = RawSampleBuffer()
            _ = try RawCSVReader().read(path: path, options: IngestOptions(), samples: &first)
            #expect(try RawCSVReader().replaySamples(path: path, samples: &again))
            #expect(first.timestamps.map(\.bitPattern) == again.timestamps.map(\.bitPattern) && first.x == again.x && first.z == again.z)
            #expect(first.timestamps.map(\.bitPattern) == referenceSamples.timestamps.map(\.bitPattern) && first.y == referenceSamples.y)
        }
        // A last row read whole whose sample the intake refuses (an hour back) is damage, not a
        // cut: refused, without a line end as with one, on both paths.
        let back = String(decoding: bytes[..<lastRow], as: UTF8.self) + "1718395200.000,0.1,0.1,0.1"
        let path = folder.write("back.csv", back)
        let serialError = #expect(throws: IngestError.self) { try RawCSVIngest.readSerially(path: path) }
        let fastError = #expect(throws: IngestError.self) { try RawCSVReader().read(path: path, options: IngestOptions()) }
        #expect(serialError == fastError && serialError?.line == bytes.filter { $0 == 10 }.count && serialError?.sampleRefused == true,
                "\(String(describing: serialError))")
        // A file whose only line has no line end and does not parse says why, as before.
        let header = #expect(throws: IngestError.self) { try RawCSVIngest.readSerially(path: folder.write("h.csv", "timestamp,x,")) }
        #expect(header?.message.contains("header has 3 columns") == true, "\(String(describing: header))")
        // A last row that is whole but has no line end is kept, without a warning (as before).
        let unterminated = try RawCSVIngest.readSerially(path: folder.write("whole.csv", String(text.dropLast())))
        #expect(unterminated.warnings == reference.warnings && unterminated.quality.sampleCount == reference.quality.sampleCount + 1,
                "\(unterminated.warnings), \(unterminated.quality.sampleCount) vs \(reference.quality.sampleCount)")
    }

    @Test("bad input: the same error, file and line, as the serial reader")
    func errors() throws {
        let good = Generated(rows: 20_000, oddRows: false, seed: 8).text().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let cases: [(String, (inout [String]) -> Void)] = [
            ("NaN late in the file", { $0[15_000] = "1718399400.000,nan,0.1,0.1" }),
            ("five fields", { $0[9_999] += ",0.2" }),
            ("implausible g", { $0[12_345] = "1718399400.000,0.1,75.0,0.1" }),
            ("time jumps back 10 minutes", { $0[17_000] = "1718398900.000,0.1,0.1,0.1" }),
            ("not a number", { $0[3] = "1718398800.500,abc,0.1,0.1" }),
            ("m/s² instead of g", { lines in
                for i in 1..<1_100 { lines[i] = lines[i].split(separator: ",").prefix(3).joined(separator: ",") + ",9.81" }
            }),
        ]
        for (what, damage) in cases {
            var lines = good
            damage(&lines)
            let path = folder.write("bad.csv", lines.joined(separator: "\n"))
            let serialError = #expect(throws: IngestError.self) { try RawCSVIngest.readSerially(path: path) }
            for threads in [1, 2] {
                let parallelError = #expect(throws: IngestError.self, "\(what)") {
                    try RawCSVIngest.read(path: path, threads: threads, chunkBytes: 4096)
                }
                #expect(parallelError == serialError, "\(what): \(String(describing: parallelError)) vs \(String(describing: serialError))")
            }
        }
    }

    @Test("files the fast path leaves to the serial reader: ISO timestamps, gzip, byte-order mark before data")
    func handedBack() throws {
        let iso = (0..<3_000).map { i in "2024-06-14T23:\(String(format: "%02d", i / 60 % 60)):\(String(format: "%02d", i % 60))+02:00,0.01,0.02,0.03" }
        try compare(folder.write("iso.csv", "timestamp,x,y,z\n" + iso.joined(separator: "\n")), expectParallel: false, "ISO")
        let bom = "\u{FEFF}" + Generated(rows: 3_000, header: false, oddRows: false, seed: 9).text()
        try compare(folder.write("bom.csv", bom), expectParallel: false, "BOM on a data row")
        let bomHeader = "\u{FEFF}" + Generated(rows: 3_000, header: true, oddRows: false, seed: 9).text()
        try compare(folder.write("bomh.csv", bomHeader), "BOM on the header")
    }

    @Test("a lean first pass (calibration features only) takes whole seconds on both cores: the features equal the serial reader's, bit for bit, with gaps, repeats and steps back")
    func chunkFeatures() throws {
        for (what, g) in [("oddities", Generated(rows: 60_000, rateHz: 25, gravity: true, seed: 13)),
                          ("in order", Generated(rows: 60_000, rateHz: 25, gravity: true, jitterBack: false, oddRows: false, seed: 14))] {
            let path = write(g, "features.csv")
            var serial = AutoCalibration.FeatureCollector()
            _ = try RawCSVReader(parallel: false).read(path: path, options: IngestOptions(), samples: &serial)
            for chunkBytes in [4096, 65_536] {
                var parallel = AutoCalibration.FeatureCollector()
                var stats = ParallelRawCSVReader.Statistics()
                let r = try #require(try ParallelRawCSVReader(chunkBytes: chunkBytes, threads: 2)
                    .read(path: path, options: IngestOptions(), samples: &parallel, statistics: &stats))
                #expect(stats.threadsUsed == 2 && r.quality.sampleCount > 50_000, "\(what)")
                if what == "in order" { #expect(stats.secondsSummedWhileParsing > 1000, "\(what): \(stats.secondsSummedWhileParsing)") }
                #expect(parallel.windows.map(\.index) == serial.windows.map(\.index) && parallel.ignoredSamples == serial.ignoredSamples, "\(what)")
                #expect(parallel.windows.map { [$0.mean.x, $0.mean.z, $0.sd.y].map(\.bitPattern) } == serial.windows.map { [$0.mean.x, $0.mean.z, $0.sd.y].map(\.bitPattern) }, "\(what)")
                #expect(parallel.finish() == serial.finish(), "\(what)")
            }
        }
    }

    @Test("a sample sink gets the same samples, in the same order")
    func sink() throws {
        let path = write(Generated(rows: 20_000, seed: 10))
        var serial = RawSampleBuffer()
        _ = try RawCSVReader(parallel: false).read(path: path, options: IngestOptions(), samples: &serial)
        var parallel = RawSampleBuffer()
        _ = try RawCSVReader().read(path: path, options: IngestOptions(), samples: &parallel)
        #expect(serial.timestamps.map(\.bitPattern) == parallel.timestamps.map(\.bitPattern))
        #expect(serial.x == parallel.x && serial.y == parallel.y && serial.z == parallel.z)
    }

    @Test("memory does not grow with the file: the reader's buffers are the same for a file twice as long")
    func constantMemory() throws {
        let short = write(Generated(rows: 40_000, oddRows: false, seed: 11), "short.csv")
        let long = write(Generated(rows: 80_000, oddRows: false, seed: 11), "long.csv")
        let a = try RawCSVIngest.read(path: short, threads: 2, chunkBytes: 65_536)
        let b = try RawCSVIngest.read(path: long, threads: 2, chunkBytes: 65_536)
        #expect(a.usedParallelPath && b.usedParallelPath)
        #expect(b.chunks >= 2 * a.chunks - 1)
        // At most `window` (4) blocks, each sized for one chunk (a row is at least 8 bytes), however
        // many chunks the file has: the bound is the same for both files.
        let bound = 4 * ((65_536 + 200) / 8 + 1) * MemoryLayout<ParsedSample>.stride
        #expect(a.peakBlockBytes > 0 && a.peakBlockBytes <= bound)
        #expect(b.peakBlockBytes > 0 && b.peakBlockBytes <= bound)
    }
}
