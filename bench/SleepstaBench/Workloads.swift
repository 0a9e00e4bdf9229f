#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SleepstaWorkloads

/// The benchmark's inputs, generated at run time with fixed seeds (nothing large is committed):
/// - the wearable CSV: `days` × 24 h at 100 Hz with gravity (``WearableCSVGenerator``), its gzip
///   copy, two prefixes of it: the first 24 h (counts, agcounts) and the first half (the
///   memory check: the full file is twice as long), and the same signal as a binary Axivity `.cwa`
///   (``WearableCWAGenerator``);
/// - one night of a phone log at 50 Hz (epoch ms) and at 1 Hz (ISO 8601 with offsets): the sample
///   nights of `Data/`, the 50 Hz one made by `Data/generate_samples.py` as `make report` makes it;
/// - the 365-night database is made by the store stage (``NightLibrary``).
enum Workloads {
    struct Files {
        var wearable: String
        var wearableGzip: String
        var wearableHalf: String
        var wearableDay: String
        /// The same signal as an Axivity .cwa (binary, packed 10-bit).
        var wearableCWA: String
        var phone50Hz: String
        var phone1Hz: String
        var descriptions: [String: String] = [:]
    }

    static func wearableName(days: Double) -> String {
        let d = days == days.rounded() ? String(Int(days)) : String(days)
        return "wearable-\(d)d-100hz"
    }

    static func prepare(work: String, days: Double, log: (String) -> Void) throws -> Files {
        let fm = FileManager.default
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        let name = wearableName(days: days)
        let full = "\(work)/\(name).csv"
        let gz = full + ".gz"
        let generator = WearableCSVGenerator(days: days)
        if !fm.fileExists(atPath: full) || !fm.fileExists(atPath: gz) {
            log("generating \(full) and \(gz) (seed \(generator.seed))")
            try generator.write(to: full, gzipPath: gz)
        }
        let rows = Int(days * 86_400) * generator.rateHz
        let half = "\(work)/\(wearableName(days: days / 2)).csv"
        let day = "\(work)/\(wearableName(days: 1)).csv"
        if !fm.fileExists(atPath: half) { try copyPrefix(of: full, rows: rows / 2, to: half) }
        if !fm.fileExists(atPath: day) { try copyPrefix(of: full, rows: 86_400 * generator.rateHz, to: day) }
        let cwa = "\(work)/\(name).cwa"
        if !fm.fileExists(atPath: cwa) {
            log("generating \(cwa) (the same signal, Axivity packed 10-bit)")
            try WearableCWAGenerator(signal: generator).write(to: cwa)
        }

        let phone50 = "\(work)/phone-50hz-sam.csv"
        if !fm.fileExists(atPath: phone50) {
            if fm.fileExists(atPath: "Data/phone-50hz-sam.csv") {
                try fm.copyItem(atPath: "Data/phone-50hz-sam.csv", toPath: phone50)
            } else {
                log("generating \(phone50) with Data/generate_samples.py")
                let o = try ChildProcess.run(["python3", "Data/generate_samples.py", "--only", "50hz", "--out", work])
                guard o.status == 0 else { throw BenchError.failed("Data/generate_samples.py failed") }
            }
        }
        let phone1 = "\(work)/phone-1hz-alex.csv"
        if !fm.fileExists(atPath: phone1) { try fm.copyItem(atPath: "Data/phone-1hz-alex.csv", toPath: phone1) }

        var files = Files(wearable: full, wearableGzip: gz, wearableHalf: half, wearableDay: day, wearableCWA: cwa,
                          phone50Hz: phone50, phone1Hz: phone1)
        for (key, path, what) in [
            ("wearable", full, "\(days) days × 24 h at 100 Hz, epoch seconds, g with gravity (seed \(generator.seed))"),
            ("wearable gzip", gz, "the same, gzip level 1"),
            ("wearable half", half, "its first half (memory check)"),
            ("wearable day", day, "its first 24 h (counts, agcounts)"),
            ("wearable cwa", cwa, "the same signal as an Axivity AX3 .cwa, packed 10-bit, 1/256 g, device local time"),
            ("phone 50 Hz", phone50, "one night, epoch ms, user acceleration (Data/generate_samples.py)"),
            ("phone 1 Hz", phone1, "one night, ISO 8601 with offsets (Data/phone-1hz-alex.csv)"),
        ] {
            files.descriptions[key] = "\((path as NSString).lastPathComponent): \(IngestStages.fileSize(path)) bytes; \(what)"
        }
        return files
    }

    /// The header and the first `rows` data rows of `source` (a prefix: the generator is sequential,
    /// so it equals generating fewer days). Copied through a 4 MiB buffer, not a mapping: Linux
    /// hands this process's peak resident memory on to every child it spawns (`execve` records the
    /// old address space's high-water mark in `ru_maxrss`), so the bench itself must stay small.
    static func copyPrefix(of source: String, rows: Int, to destination: String) throws {
        let fd = open(source, O_RDONLY)
        guard fd >= 0 else { throw BenchError.io("cannot open \(source)") }
        defer { close(fd) }
        guard let out = fopen(destination, "wb") else { throw BenchError.io("cannot create \(destination)") }
        defer { fclose(out) }
        let capacity = 1 << 22
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var linesLeft = rows + 1   // + the header line
        while linesLeft > 0 {
            let n = read(fd, buffer, capacity)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            var keep = 0
            while keep < n && linesLeft > 0 {
                guard let nl = memchr(buffer + keep, 10, n - keep) else { keep = n; break }
                keep = buffer.distance(to: nl.assumingMemoryBound(to: UInt8.self)) + 1
                linesLeft -= 1
            }
            guard fwrite(buffer, 1, keep, out) == keep else { throw BenchError.io("write failed on \(destination)") }
        }
    }
}

/// What the table says about the machine.
enum Machine {
    static func describe() -> [String: String] {
        var facts: [String: String] = [:]
        facts["cores"] = String(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        if let mem = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
           let line = mem.split(separator: "\n").first(where: { $0.hasPrefix("MemTotal") }) {
            let kb = Double(line.split(separator: " ").dropFirst().first.map(String.init) ?? "0") ?? 0
            facts["memory"] = String(format: "%.1f GiB", kb / 1048576)
        }
        if let cpu = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = cpu.split(separator: "\n").first(where: { $0.hasPrefix("model name") }) {
            facts["cpu"] = line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        var u = utsname()
        uname(&u)
        facts["kernel"] = withUnsafeBytes(of: &u.release) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        return facts
    }

    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    }
}
