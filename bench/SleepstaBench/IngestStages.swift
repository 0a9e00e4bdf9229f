#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SleepCore
import SleepstaWorkloads
import SleepIngest

/// What every stage gets from the command line.
struct StageOptions {
    var file: String
    var threads: Int
    var warmUp: Int
    var repeats: Int
    /// Where a stage writes what it computed, for the agreement checks (`<out>.series`, `.json` …).
    var output: String?
    var timeZone: String?
}

/// Parse and ingest of raw-sample CSV, each path on its own.
enum IngestStages {
    static func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    /// Bytes of CSV text a stage reads: for a gzip file its uncompressed size (the gzip trailer's
    /// ISIZE, exact below 4 GiB), so that MB/s compares with the plain file.
    static func textBytes(_ path: String) -> Int {
        guard path.hasSuffix(".gz"), let h = FileHandle(forReadingAtPath: path) else { return fileSize(path) }
        defer { try? h.close() }
        let size = fileSize(path)
        guard size >= 4, (try? h.seek(toOffset: UInt64(size - 4))) != nil, let tail = try? h.read(upToCount: 4), tail.count == 4 else { return size }
        return Int(tail[0]) | Int(tail[1]) << 8 | Int(tail[2]) << 16 | Int(tail[3]) << 24
    }

    /// Text to numbers only (no accumulation): the parser's own speed.
    static func parse(_ o: StageOptions) throws -> StageResult {
        var rows = 0
        var checksum = 0.0
        let times = try Stopwatch.measure(warmUp: o.warmUp, repeats: o.repeats) {
            guard let r = RawCSVIngest.parseOnly(path: o.file, threads: o.threads) else {
                throw BenchError.failed("\(o.file): not a file the parallel parser takes")
            }
            rows = r.rows; checksum = r.checksum
        }
        return StageResult(name: "parse-\(o.threads)", label: "parse CSV to numbers, \(o.threads) core\(o.threads > 1 ? "s" : "")",
                           seconds: times, bytes: fileSize(o.file), items: rows, peakResidentBytes: Stopwatch.peakResidentBytes(),
                           threads: o.threads, notes: ["checksum": String(checksum)])
    }

    /// The serial reader (`read(2)` in 1 MiB chunks, one row at a time): the reference.
    static func ingestSerial(_ o: StageOptions) throws -> StageResult {
        var recording: Recording? = nil
        let times = try Stopwatch.measure(warmUp: o.warmUp, repeats: o.repeats) {
            recording = try RawCSVIngest.readSerially(path: o.file, options: IngestOptions(timeZoneIdentifier: o.timeZone))
        }
        guard let recording else { throw BenchError.failed("no recording") }
        if let out = o.output { try SeriesDump.write(recording, to: out) }
        return StageResult(name: "ingest-serial", label: "ingest: parse + per-second accumulator + QC, serial reader",
                           seconds: times, bytes: fileSize(o.file), items: recording.quality.sampleCount,
                           peakResidentBytes: Stopwatch.peakResidentBytes(), threads: 1)
    }

    /// The parallel path (1 thread = parse fused with the accumulator).
    static func ingestParallel(_ o: StageOptions) throws -> StageResult {
        var run: RawCSVIngest.Run? = nil
        let times = try Stopwatch.measure(warmUp: o.warmUp, repeats: o.repeats) {
            // The previous repeat's recording goes first: the peak is one run's, not two outputs side by side.
            run = nil
            run = try RawCSVIngest.read(path: o.file, options: IngestOptions(timeZoneIdentifier: o.timeZone), threads: o.threads)
        }
        guard let run else { throw BenchError.failed("no recording") }
        if let out = o.output { try SeriesDump.write(run.recording, to: out) }
        let label = !run.usedParallelPath ? "ingest: serial reader (the parallel path hands this file back)"
            : o.threads == 1 ? "ingest: parse fused with accumulator + QC, 1 core"
            : "ingest: parse on \(o.threads) cores, accumulator + QC in order"
        return StageResult(name: "ingest-\(o.threads)", label: label, seconds: times, bytes: textBytes(o.file),
                           items: run.recording.quality.sampleCount, peakResidentBytes: Stopwatch.peakResidentBytes(),
                           threads: run.threads,
                           notes: ["parallel path": run.usedParallelPath ? "yes" : "no (serial fallback)",
                                   "chunks": String(run.chunks), "peak block bytes": String(run.peakBlockBytes),
                                   "seconds summed while parsing": String(run.secondsSummedWhileParsing),
                                   "seconds": String(run.recording.segments.first?.series.count ?? 0)])
    }

    /// Any format through the reader the batch would choose (``FormatDetector``): the binary
    /// wearable workload (.cwa) goes through here.
    static func ingestFile(_ o: StageOptions) throws -> StageResult {
        let reader = try FormatDetector.reader(forPath: o.file)
        var recording: Recording? = nil
        let times = try Stopwatch.measure(warmUp: o.warmUp, repeats: o.repeats) {
            recording = try reader.read(path: o.file, options: IngestOptions(timeZoneIdentifier: o.timeZone))
        }
        guard let recording else { throw BenchError.failed("no recording") }
        if let out = o.output { try SeriesDump.write(recording, to: out) }
        let format = type(of: reader).format.rawValue
        return StageResult(name: "ingest-file", label: "ingest: \(format) reader, decode + per-second accumulator + QC, 1 core",
                           seconds: times, bytes: fileSize(o.file), items: recording.quality.sampleCount,
                           peakResidentBytes: Stopwatch.peakResidentBytes(), threads: 1, notes: ["format": format])
    }

    /// The accumulator on samples already in memory, and a plain copy of the same bytes (the
    /// memory-bandwidth reference): SecondAccumulator alone, then the whole intake (QC included).
    static func accumulate(_ o: StageOptions) throws -> [StageResult] {
        var buffer = RawSampleBuffer()
        _ = try RawCSVReader().read(path: o.file, options: IngestOptions(), samples: &buffer)
        let n = buffer.count
        let bytes = n * 4 * MemoryLayout<Double>.stride
        var results: [StageResult] = []

        // memcpy of the four arrays into one destination of the same size.
        let destination = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        defer { destination.deallocate() }
        memset(destination, 0, bytes)   // fault the pages in before timing
        let copyTimes = Stopwatch.measure(warmUp: o.warmUp, repeats: o.repeats) {
            var offset = 0
            for array in [buffer.timestamps, buffer.x, buffer.y, buffer.z] {
                _ = array.withUnsafeBytes { memcpy(destination + offset, $0.baseAddress!, $0.count) }
                offset += array.count * MemoryLayout<Double>.stride
            }
        }
        results.append(StageResult(name: "copy", label: "memcpy of the same samples (bandwidth reference)", seconds: copyTimes,
                                   bytes: bytes, items: n, peakResidentBytes: 0))

        var series = SecondSeries.empty()
        let accumulatorTimes = Stopwatch.measure(warmUp: o.warmUp, repeats: o.repeats) {
            var a = SecondAccumulator(reservingSeconds: 0)
            buffer.timestamps.withUnsafeBufferPointer { t in
                buffer.x.withUnsafeBufferPointer { x in
                    buffer.y.withUnsafeBufferPointer { y in
                        buffer.z.withUnsafeBufferPointer { z in
                            for i in 0..<n { try? a.add(timestamp: t[i], x: x[i], y: y[i], z: z[i]) }
                        }
                    }
                }
            }
            series = a.finish()
        }
        results.append(StageResult(name: "accumulate", label: "per-second accumulator alone (SecondAccumulator)",
                                   seconds: accumulatorTimes, bytes: bytes, items: n, peakResidentBytes: 0,
                                   notes: ["seconds": String(series.count)]))

        let intakeTimes = Stopwatch.measure(warmUp: o.warmUp, repeats: o.repeats) {
            _ = RawCSVIngest.accumulate(timestamps: buffer.timestamps, x: buffer.x, y: buffer.y, z: buffer.z)
        }
        let peak = Stopwatch.peakResidentBytes()
        results.append(StageResult(name: "intake", label: "accumulator + QC (SampleIntake), as the readers feed it",
                                   seconds: intakeTimes, bytes: bytes, items: n, peakResidentBytes: peak))
        for i in results.indices { results[i].peakResidentBytes = peak }
        return results
    }
}

/// The per-second series of a recording as flat little-endian arrays (what the agreement checks
/// compare, byte for byte between sleepsta's paths and numerically with the peers):
/// `<out>.series`: int64 start second, int64 count, float32 movement[count], float32 legacy[count],
/// uint16 sample counts[count]; `<out>.json`: quality facts and warnings.
enum SeriesDump {
    /// Start second and per-second movement of a `.series` dump.
    static func movement(at path: String) throws -> (start: Int64, movement: [Float]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path + ".series"))
        guard data.count >= 16 else { throw BenchError.io("\(path).series: too short") }
        return data.withUnsafeBytes { raw in
            let start = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: Int64.self))
            let count = Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: Int64.self)))
            let values = (0..<min(count, (raw.count - 16) / 4)).map { raw.loadUnaligned(fromByteOffset: 16 + 4 * $0, as: Float.self) }
            return (start, values)
        }
    }

    static func write(_ recording: Recording, to path: String) throws {
        guard let series = recording.segments.first?.series else { return }
        var data = Data()
        withUnsafeBytes(of: series.startSecond.littleEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: Int64(series.count).littleEndian) { data.append(contentsOf: $0) }
        series.movement.withUnsafeBytes { data.append(contentsOf: $0) }
        series.legacyMovement.withUnsafeBytes { data.append(contentsOf: $0) }
        series.sampleCounts.withUnsafeBytes { data.append(contentsOf: $0) }
        try data.write(to: URL(fileURLWithPath: path + ".series"))
        struct Facts: Encodable { var quality: QualitySummary; var warnings: [String]; var gravity: String }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        try e.encode(Facts(quality: recording.quality, warnings: recording.warnings, gravity: recording.gravity.rawValue))
            .write(to: URL(fileURLWithPath: path + ".json"))
    }
}
