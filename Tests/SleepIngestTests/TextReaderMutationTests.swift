import Foundation
import Testing
import SleepCore
import SleepIngest

/// Deterministic mutation fuzzing of the text readers, run by `make test`: valid seed files are
/// mutated (bit flips, truncations, deleted and duplicated ranges, swapped lines, and tokens that
/// break parsers: NaN, 1e999, Int64.min, lone quotes and braces, a BOM, offsets like +99:99 …).
/// Every mutant must read (with sane values) or fail with an ``IngestError`` naming the file; a
/// crash (trap on overflow, index out of range) or a hang fails the run.
///
/// A reader is one line in ``targets``. Longer runs by hand:
/// `SLEEPSTA_MUTATION_SECONDS=600 swift test -c release --filter TextReaderMutationTests`
/// (or `SLEEPSTA_MUTATION_ITERATIONS=…`); the totals are printed as `MUTATION …` lines.
@Suite("Text readers under mutation")
struct TextReaderMutationTests {
    struct Target: Sendable {
        var name: String
        var reader: any RecordingReader
        var fileName: String
        var seeds: @Sendable () -> [[UInt8]]
        /// Whether every refusal must carry a line, byte offset or document path.
        var positionRequired = true
    }

    static let targets: [Target] = [
        Target(name: "RawCSVReader", reader: RawCSVReader(), fileName: "m.csv", seeds: MutationSeeds.rawCSV),
        Target(name: "AppJSONReader", reader: AppJSONReader(), fileName: "m.json", seeds: MutationSeeds.appJSON, positionRequired: false),
        Target(name: "WideRawCSVReader", reader: WideRawCSVReader(), fileName: "m.csv", seeds: MutationSeeds.wideRawCSV),
    ]

    static let defaultIterations = 5000

    @Test("every mutant reads with sane values or fails with an error naming the file", arguments: 0..<targets.count)
    func mutants(target index: Int) throws {
        let target = Self.targets[index]
        let env = ProcessInfo.processInfo.environment
        let seconds = env["SLEEPSTA_MUTATION_SECONDS"].flatMap(Double.init)
        let iterations = env["SLEEPSTA_MUTATION_ITERATIONS"].flatMap(Int.init) ?? (seconds == nil ? Self.defaultIterations : Int.max)
        let seeds = target.seeds()
        #expect(!seeds.isEmpty)
        let folder = TemporaryFolder()
        let path = folder.path + "/" + target.fileName
        // Every seed must read as is, or the mutants would test nothing but the seed's own error.
        for seed in seeds {
            try Self.overwrite(path, with: seed)
            #expect(throws: Never.self, "\(target.name) seed") { _ = try target.reader.read(path: path, options: IngestOptions()) }
        }
        var mutator = TextMutator(seed: 0x5EED_7E47 &+ UInt64(index) &* 0x1_0000_0001)
        let started = ContinuousClock.now
        let deadline = seconds.map { started + .milliseconds(Int($0 * 1000)) }
        var runs = 0, read = 0, refused = 0, unpositioned = 0
        while runs < iterations {
            if let deadline, runs % 64 == 0, ContinuousClock.now >= deadline { break }
            let mutant = mutator.mutate(seeds[mutator.below(seeds.count)], rounds: 1 + mutator.below(3) / 2)
            try Self.overwrite(path, with: mutant)
            runs += 1
            do {
                let r = try target.reader.read(path: path, options: IngestOptions())
                read += 1
                Self.checkSane(r, target: target.name, mutant: mutant)
            } catch {
                refused += 1
                #expect(error.file == path, "\(target.name): error names another file: \(error)")
                #expect(!error.message.isEmpty)
                if error.line == nil && error.byteOffset == nil && error.path == nil {
                    unpositioned += 1
                    if target.positionRequired { Issue.record("\(target.name): no position in \(error) for mutant \(Self.shown(mutant))") }
                }
            }
        }
        let elapsed = ContinuousClock.now - started
        print("MUTATION \(target.name): \(runs) mutants of \(seeds.count) seeds in \(elapsed): \(read) read, \(refused) refused (\(unpositioned) without a position)")
        #expect(read + refused == runs)
        #expect(refused > 0 && read > 0, "mutations that change nothing or break everything test little")
    }

    /// Plain open/write/close: Foundation's atomic file writes cost milliseconds each (a temporary
    /// file, a rename), which would be most of the test's time.
    static func overwrite(_ path: String, with bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            guard n > 0 else { throw POSIXError(.EIO) }
            offset += n
        }
    }

    static func checkSane(_ r: Recording, target: String, mutant: [UInt8]) {
        #expect(!r.segments.isEmpty, "\(target): a recording without segments from \(shown(mutant))")
        for s in r.segments {
            let series = s.series
            #expect(series.movement.count == series.sampleCounts.count && series.legacyMovement.count == series.movement.count)
            #expect(series.movement.allSatisfy { $0.isNaN || ($0.isFinite && $0 >= 0) }, "\(target): movement not finite ≥ 0 from \(shown(mutant))")
            #expect(series.legacyMovement.allSatisfy { $0.isNaN || ($0.isFinite && $0 >= 0) })
            #expect(Int64(series.movement.count) <= SecondAccumulator.maximumSpanSeconds + 86_400)
        }
    }

    /// The first bytes of a mutant, printable, for failure messages.
    static func shown(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription
    }
}

/// Seeded mutations that keep much of a text file's structure, so parsers get past the first line.
struct TextMutator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }

    static let tokens: [[UInt8]] = ([
        "NaN", "nan", "inf", "-inf", "Infinity", "1e999", "-1e999", "1e-400", "-0", "0", "0.", ".5", "+", "-", "e", "E5",
        "9223372036854775807", "-9223372036854775808", "18446744073709551616", "99999999999999999999999",
        "\r\n", "\n", "\n\n", "\r", ",", ",,", "\"", "\"\"", "{", "}", "[", "]", ":", "null", "true", "false", "\u{FEFF}", "\\u0000",
        "\\ud800", "\\", "T", "Z", "+14:00", "-12:00", "+99:99", "+0200", "2038-01-19T03:14:08Z", "1970-01-01T00:00:00Z",
        "9999-12-31T23:59:59Z", "0000-00-00T00:00:00", "2024-02-30T25:61:61+02:00", "timestamp,x,y,z\n",
        "{\"motion\": 1, \"timestamp\": 1}", "\"intervalSeconds\": 0", "\"intervalSeconds\": -600", "\"intervalSeconds\": 86401",
        "\"timeZone\": \"Europe/Berlin\"", "\"timeZone\": \"\"", "\"nights\": []", "é", "\u{FFFD}",
    ].map { Array($0.utf8) }) + [[0x00], [0xFF], [0xC3], [0xE2, 0x82]]

    mutating func mutate(_ input: [UInt8], rounds: Int) -> [UInt8] {
        var b = input
        for _ in 0..<rounds { b = once(b) }
        return b
    }

    private mutating func once(_ input: [UInt8]) -> [UInt8] {
        var b = input
        guard !b.isEmpty else { return Self.tokens[below(Self.tokens.count)] }
        switch below(9) {
        case 0:   // flip bits in a few bytes
            for _ in 0...below(4) { b[below(b.count)] ^= UInt8(1 << below(8)) }
        case 1:   // truncate
            b.removeLast(below(b.count))
        case 2:   // delete a range
            let from = below(b.count)
            b.removeSubrange(from..<min(b.count, from + 1 + below(40)))
        case 3:   // duplicate a range (repeated rows, repeated keys)
            let from = below(b.count), length = min(b.count - from, 1 + below(200))
            b.insert(contentsOf: b[from..<(from + length)], at: below(b.count + 1))
        case 4, 5:   // insert a token
            b.insert(contentsOf: Self.tokens[below(Self.tokens.count)], at: below(b.count + 1))
        case 6:   // replace a run of digits by a token (a number where a number was)
            let at = below(b.count)
            guard let start = b[at...].firstIndex(where: { (48...57).contains($0) }) else { break }
            let end = b[start...].firstIndex(where: { !(48...57).contains($0) && $0 != 46 }) ?? b.count
            b.replaceSubrange(start..<end, with: Self.tokens[below(Self.tokens.count)])
        case 7:   // swap two lines (time going backwards, header in the middle)
            var lines = b.split(separator: 10, omittingEmptySubsequences: false)
            guard lines.count > 2 else { break }
            lines.swapAt(below(lines.count), below(lines.count))
            b = Array(lines.joined(separator: [10]))
        default:  // one byte set to a structural character
            b[below(b.count)] = Array(",\n\r\"{}[]:-.0e".utf8)[below(13)]
        }
        return b
    }
}

/// Small valid files in each text format (a few KB, so that mutations hit structure, not bulk).
enum MutationSeeds {
    @Sendable static func rawCSV() -> [[UInt8]] {
        var epochSeconds = "timestamp,x,y,z\n"
        for s in 0..<300 { epochSeconds += "\(1_718_398_800 + s),\(Double(s % 7) / 1000),-0.0020,\(Double(s % 11) / 2000)\n" }
        var isoAcrossDST = "time,accel_x,accel_y,accel_z\n"
        for s in stride(from: 0, to: 7200, by: 40) {
            let utc = 1_711_843_200 + s   // 2024-03-31T00:00Z; Berlin changes at 01:00Z
            let offset = utc >= 1_711_846_800 ? "+02:00" : "+01:00"
            let local = utc + (utc >= 1_711_846_800 ? 7200 : 3600) - 1_711_843_200
            isoAcrossDST += "2024-03-31T\(pad(local / 3600)):\(pad(local / 60 % 60)):\(pad(local % 60)).250\(offset),0.0010,0.0030,-0.0010\n"
        }
        var millis50Hz = ""
        for i in 0..<400 { millis50Hz += "\(1_718_398_800_000 + i * 20),\(i % 3 == 0 ? "0.01" : "-0.002"),0.0004,0.0012\r\n" }
        return [epochSeconds, isoAcrossDST, millis50Hz].map { Array($0.utf8) }
    }

    /// GGIR's raw CSV layout: local time, x, y, z in g, then gyroscope columns (with and without titles).
    @Sendable static func wideRawCSV() -> [[UInt8]] {
        var plain = ""
        for i in 0..<300 {
            let ms = i * 10
            plain += "2019-12-23 21:04:\(pad(6 + ms / 1000)).\(String(format: "%03d", ms % 1000)),\(Double(i % 9) / 100),-0.98\(i % 10),0.0\(i % 7),0.27,-0.50,15.7\(i % 10)\n"
        }
        var titled = "time,x,y,z,gx,gy,gz\r\n"
        for i in 0..<200 { titled += "2024-03-31T01:59:\(pad(50 + i / 25)).\(String(format: "%03d", i % 25 * 40)),0.01,0.02,1.0\(i % 10),1,2,3\r\n" }
        return [plain, titled].map { Array($0.utf8) }
    }

    @Sendable static func appJSON() -> [[UInt8]] {
        var seeds: [[UInt8]] = [
            Array("""
            {"timeZone": "Europe/Berlin", "nights": [{"id": "2024-03-30", "intervalSeconds": 600,
              "motionData": [{"motion": 34.42, "timestamp": 1711836000}, {"motion": 18.2, "timestamp": 1711836600},
                             {"motion": 2.59, "timestamp": 1711837200}, {"motion": 0, "timestamp": 1711837800},
                             {"motion": 1.7, "timestamp": 1711846800}, {"motion": 3.1, "timestamp": 1711847400}],
              "preBedSurvey": {"caffeine after 4 pm": "no", "stress (1-5)": 2, "alcohol": false},
              "postBedSurvey": [{"question": "rested (1-5)", "answer": 4}, {"question": "notes", "answer": null}]}]}
            """.utf8),
            Array("""
            [{"motionData": [{"motion": 5.5, "timestamp": 1718399400000}, {"motion": 4.25, "timestamp": 1718400000000},
                             {"motion": 1.0, "timestamp": 1718400600000}]},
             {"id": "second", "motionData": [{"motion": 2, "timestamp": 1718485800}, {"motion": 3, "timestamp": 1718486400}]}]
            """.utf8),
        ]
        // The bundled sample export (9 KB), when the repository's Data folder is there.
        var repo = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { repo.deleteLastPathComponent() }
        if let sample = FileManager.default.contents(atPath: repo.path + "/Data/sleepsta-app-export.json") { seeds.append(Array(sample)) }
        return seeds
    }

    static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
