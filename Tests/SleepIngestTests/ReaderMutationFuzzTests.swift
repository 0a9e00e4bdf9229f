import Foundation
import Testing
import SleepCore
import SleepIngest

/// Deterministic mutation fuzzing of every binary reader (and the gzip layer), run by `make test`:
/// seeded byte flips, truncations, insertions, duplications and zeroed ranges of the spec-built
/// files. Each mutant must either read (with finite values) or fail with an ``IngestError`` that
/// names the file and a line or byte offset; a crash or a hang fails the run.
///
/// Longer runs by hand (the totals are printed as `MUTATION …` lines):
/// `SLEEPSTA_MUTATION_SECONDS=300 swift test -c release --filter ReaderMutationFuzzTests`
/// (per target), or `SLEEPSTA_MUTATION_ITERATIONS=…`; `SLEEPSTA_MUTATION_TARGETS=a.gt3x,g.csv` runs only
/// the targets of those mutant names (the second column of ``targets``), e.g. a million mutants of
/// one reader's new path.
@Suite("Readers under mutation")
struct ReaderMutationFuzzTests {
    static let defaultMutantsPerFile = 400

    struct Mutator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 17
        }
        mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }

        mutating func mutate(_ input: [UInt8]) -> [UInt8] {
            var b = input
            guard !b.isEmpty else { return [UInt8(below(256))] }
            switch below(6) {
            case 0:   // flip a few bytes
                for _ in 0...below(8) { b[below(b.count)] ^= UInt8(1 + below(255)) }
            case 1:   // truncate
                b = Array(b.prefix(below(b.count)))
            case 2:   // insert random bytes
                let at = below(b.count)
                b.insert(contentsOf: (0..<(1 + below(16))).map { _ in UInt8(below(256)) }, at: at)
            case 3:   // duplicate a chunk
                let from = below(b.count), length = min(b.count - from, 1 + below(600))
                b.insert(contentsOf: b[from..<(from + length)], at: below(b.count))
            case 4:   // zero a range
                let from = below(b.count)
                for k in from..<min(b.count, from + 1 + below(64)) { b[k] = 0 }
            default:  // set bytes to extreme values
                for _ in 0...below(4) { b[below(b.count)] = [0x00, 0xFF, 0x7F, 0x80][below(4)] }
            }
            return b
        }
    }

    /// What is mutated: the file's bytes, or (for containers with checksums, which would refuse
    /// nearly every mutant before the reader proper sees it) the inner bytes, re-wrapped with
    /// correct checksums.
    enum Wrapping { case none, gt3xLog, gt3xInfo, gt3xActivityBin, gt3xActivityInfo, gzip }

    static let targets: [(fixture: String, name: String, reader: any RecordingReader, wrapping: Wrapping)] = [
        ("spec_activity12_padded_stored.gt3x", "m.gt3x", GT3XReader(), .gt3xLog),
        ("spec_activity12_padded_stored.gt3x", "i.gt3x", GT3XReader(), .gt3xInfo),
        ("spec_activity12.gt3x", "d.gt3x", GT3XReader(), .none),
        ("spec_idle_to_end.gt3x", "e.gt3x", GT3XReader(), .none),
        ("spec_nhanes_activity.gt3x", "a.gt3x", GT3XReader(), .gt3xActivityBin),
        ("spec_nhanes_activity.gt3x", "ai.gt3x", GT3XReader(), .gt3xActivityInfo),
        ("spec_nhanes_activity.gt3x", "ad.gt3x", GT3XReader(), .none),
        ("spec_ax3_packed.cwa", "m.cwa", AxivityCWAReader(), .none),
        ("spec_ax6_16bit.cwa", "m6.cwa", AxivityCWAReader(), .none),
        ("spec_ax3_packed.cwa", "w.cwa.gz", AxivityCWAReader(), .gzip),
        ("spec_ax3_packed.cwa.gz", "m.cwa.gz", AxivityCWAReader(), .none),
        ("spec_geneactiv.bin", "m.bin", GENEActivBinReader(), .none),
        ("spec_sleep-export.csv", "sleep-export.csv", SleepAsAndroidReader(), .none),
        ("spec_actilife_raw_timestamps.csv", "m.csv", ActiLifeRawCSVReader(), .none),
        ("spec_actilife_raw_lsb.csv", "spec_actilife_raw_lsb.csv", ActiLifeRawCSVReader(), .none),   // its .agdc beside it
        ("spec_gt3x2csv.csv", "g.csv", ActiLifeRawCSVReader(), .none),
        ("spec_sensorlog.csv", "s.csv", SensorLogCSVReader(), .none),
        ("sensor_logger/TotalAcceleration.csv", "TotalAcceleration.csv", SensorLoggerCSVReader(), .none),
    ]

    /// The entries of a .gt3x fixture: info.txt and log.bin (or activity.bin).
    static func entries(_ path: String) throws -> (info: [UInt8], log: [UInt8]) {
        let zip = try ZipArchive(path: path)
        let info = try zip.open(zip.entry(named: "info.txt")!).readAll(limit: 1 << 20, path: path)
        let log = try zip.open((zip.entry(named: "log.bin") ?? zip.entry(named: "activity.bin"))!).readAll(limit: 1 << 24, path: path)
        return (info, log)
    }

    @Test("every mutant reads or fails with file and position", arguments: 0..<targets.count)
    func mutants(target: Int) throws {
        let t = Self.targets[target]
        let env = ProcessInfo.processInfo.environment
        if let only = env["SLEEPSTA_MUTATION_TARGETS"], !only.split(separator: ",").contains(Substring(t.name)) { return }
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: Fixture.path(t.fixture))))
        let gt3x = [.gt3xLog, .gt3xInfo, .gt3xActivityBin, .gt3xActivityInfo].contains(t.wrapping) ? try Self.entries(Fixture.path(t.fixture)) : nil
        let folder = TemporaryFolder()
        if t.fixture == "spec_actilife_raw_lsb.csv" {   // the LSB export's calibration, found beside it
            _ = folder.write("spec_actilife_raw_lsb.agdc", bytes: Array(try Data(contentsOf: URL(fileURLWithPath: Fixture.path("spec_actilife_raw_lsb.agdc")))))
        }
        var mutator = Mutator(state: 0x5EED_0000 + UInt64(target))
        var read = 0, refused = 0
        let seconds = env["SLEEPSTA_MUTATION_SECONDS"].flatMap(Double.init)
        let iterations = env["SLEEPSTA_MUTATION_ITERATIONS"].flatMap(Int.init) ?? (seconds == nil ? Self.defaultMutantsPerFile : Int.max)
        let started = ContinuousClock.now
        let deadline = seconds.map { started + .milliseconds(Int($0 * 1000)) }
        var runs = 0
        while runs < iterations {
            if let deadline, runs % 16 == 0, ContinuousClock.now >= deadline { break }
            runs += 1
            let mutant: [UInt8]
            switch t.wrapping {
            case .none: mutant = mutator.mutate(original)
            case .gt3xLog: mutant = ZipBuilder.stored([("info.txt", gt3x!.info), ("log.bin", mutator.mutate(gt3x!.log))])
            case .gt3xInfo: mutant = ZipBuilder.stored([("info.txt", mutator.mutate(gt3x!.info)), ("log.bin", gt3x!.log)])
            case .gt3xActivityBin: mutant = ZipBuilder.stored([("info.txt", gt3x!.info), ("activity.bin", mutator.mutate(gt3x!.log))])
            case .gt3xActivityInfo: mutant = ZipBuilder.stored([("info.txt", mutator.mutate(gt3x!.info)), ("activity.bin", gt3x!.log)])
            case .gzip: mutant = GzipBuilder.stored(mutator.mutate(original))
            }
            let path = folder.write(t.name, bytes: mutant)
            do {
                let r = try t.reader.read(path: path, options: IngestOptions())
                read += 1
                for s in r.segments {
                    #expect(s.series.movement.allSatisfy { $0.isFinite || $0.isNaN })
                    #expect(s.series.movement.count == s.series.sampleCounts.count)
                }
            } catch {
                refused += 1
                #expect(error.file == path)
                #expect(error.line != nil || error.byteOffset != nil || error.path != nil, "no position: \(error)")
                #expect(!error.message.isEmpty)
            }
        }
        print("MUTATION \(t.fixture) (\(t.wrapping)): \(runs) mutants in \(ContinuousClock.now - started), \(read) read, \(refused) refused with a positioned error")
        #expect(read + refused == runs)
    }
}

/// A gzip stream (RFC 1952) of stored deflate blocks (RFC 1951 §3.2.4), for tests.
enum GzipBuilder {
    static func stored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
        var k = 0
        repeat {
            let n = min(65_535, data.count - k)
            let final: UInt8 = k + n >= data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[k..<(k + n)]
            k += n
        } while k < data.count
        let crc = CRC32.of(data)
        let size = UInt32(truncatingIfNeeded: data.count)
        for v in [crc, size] { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        return out
    }
}
