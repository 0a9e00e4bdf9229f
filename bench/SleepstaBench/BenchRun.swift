#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import SleepstaWorkloads
import SleepStore

/// `sleepsta-bench all`: the whole benchmark. Every stage runs in its own child process (so each
/// has its own peak resident memory), sleepsta's outputs are checked against each other and the
/// peers' before their times are compared, and the table goes to stdout and `--json`.
struct All: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate the workloads, measure every stage and the peers, print the table, write the JSON.")

    @Option(help: "Folder for workloads and outputs (removed at the end unless --keep).") var work = "bench-work"
    @Option(help: "The sleepsta binary for the end-to-end, report and compare stages.") var sleepsta = ".build/release/sleepsta"
    @Option(help: "Python of the peers' virtual environment; peers are skipped without it.") var python: String?
    @Option(help: "The peers script.") var peersScript = "bench/peers.py"
    @Option(help: "Where to write the results as JSON.") var json = "Reports/bench.json"
    @Option(help: "Days of the 100 Hz wearable CSV.") var days: Double = 7
    @Option(help: "Timed runs per stage (after one warm-up run).") var repeats = 3
    @Flag(help: "Keep the generated workloads.") var keep = false

    func run() throws {
        let runner = try BenchRunner(work: work, sleepsta: sleepsta, python: python, peersScript: peersScript,
                                     days: days, repeats: repeats)
        let report = try runner.runAll()
        print(report.table())
        try FileManager.default.createDirectory(atPath: (json as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try report.jsonData().write(to: URL(fileURLWithPath: json))
        print("\nwritten: \(json)")
        if !keep { runner.removeLargeFiles() }
    }
}

/// Runs the stages and peers in order and collects their results.
final class BenchRunner {
    let work: String
    let sleepsta: String
    let python: String?
    let peersScript: String
    let days: Double
    let repeats: Int
    let bench: String
    var report = BenchReport()

    /// `sleepsta` nil: a run of this program's own stages and the peers only (`cwa-decoder`).
    init(work: String, sleepsta: String?, python: String?, peersScript: String, days: Double, repeats: Int) throws {
        self.work = (work as NSString).standardizingPath
        self.sleepsta = sleepsta ?? ""
        self.python = python.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
        self.peersScript = peersScript
        self.days = days
        self.repeats = repeats
        bench = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        guard sleepsta == nil || FileManager.default.isExecutableFile(atPath: self.sleepsta) else {
            throw BenchError.failed("\(self.sleepsta) not found: build it first (swift build -c release --product sleepsta)")
        }
    }

    func log(_ message: String) {
        FileHandle.standardError.write(Data("[bench] \(message)\n".utf8))
    }

    var outputs: String { work + "/out" }

    func runAll() throws -> BenchReport {
        report.machine = Machine.describe()
        report.loadAtStart = Machine.loadAverage()
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
        let files = try Workloads.prepare(work: work, days: days, log: log)
        report.workloads = files.descriptions

        // Ingest: serial reference first, then the parallel path, checked against it byte for byte.
        let serial = try stage("ingest-serial", file: files.wearable, repeats: 1, warmUp: 0, output: "ingest-serial")
        for threads in [1, 2] {
            try stage("parse", file: files.wearable, threads: threads)
            let r = try stage("ingest", file: files.wearable, threads: threads, output: "ingest-\(threads)")
            report.checks.append(Check(what: "ingest on \(threads) core(s) equals the serial reader (per-second series, quality facts, warnings)",
                                       passed: sameOutput("ingest-\(threads)", "ingest-serial"), detail: r.notes["parallel path"] ?? ""))
        }
        _ = serial
        // The same warm-up, repeats and output as the full-length run, so the two peaks compare like with like.
        let half = try stage("ingest", file: files.wearableHalf, threads: 2, output: "ingest-half", label: "half length (memory check)")
        if let full = report.stages.first(where: { $0.name == "ingest-2" && $0.bytes == fileSize(files.wearable) }) {
            // The reader's own memory is constant; what it returns is not: the per-second series
            // (float32 movement and legacy, uint16 count: 10 bytes a second) grows with the
            // recording, and arrays grow by doubling. So the longer file may use up to 4 × 10 bytes
            // per extra second more, plus 8 MB of allocator noise, and never 200 MB.
            let extraSeconds = Double(Int(days * 86_400) - Int(days * 86_400) / 2)
            let allowed = 40 * extraSeconds + 8 * 1_048_576
            let growth = Double(full.peakResidentBytes - half.peakResidentBytes)
            report.checks.append(Check(what: "peak memory does not grow with file length beyond the per-second output (7 d vs 3.5 d file, same reader)",
                                       passed: growth <= allowed && full.peakResidentBytes < 200 << 20,
                                       detail: String(format: "%.0f MB vs %.0f MB (+%.0f MB; the output series allows +%.0f MB); limit 200 MB",
                                                      Double(full.peakResidentBytes) / 1048576, Double(half.peakResidentBytes) / 1048576,
                                                      growth / 1048576, allowed / 1048576)))
        }
        try stage("ingest", file: files.wearableGzip, threads: 2, repeats: 1, warmUp: 0, label: "gzip")
        try stage("ingest", file: files.phone50Hz, threads: 2, timeZone: "Europe/Berlin", label: "phone 50 Hz")
        try stage("ingest", file: files.phone1Hz, threads: 2, timeZone: "Europe/Berlin", label: "phone 1 Hz ISO")
        // (d) the binary wearable file of the same length: the same signal as .cwa, checked against the CSV.
        try stage("ingest-file", file: files.wearableCWA, output: "ingest-cwa", timeZone: "Europe/Berlin", label: "binary .cwa, same signal")
        report.checks.append(cwaAgreesWithCSV())
        // The .cwa decoder alone, and actfast (Rust) reading the same file.
        try cwaDecoderPeer(cwa: files.wearableCWA)
        try stage("accumulate", file: files.wearableDay, repeats: repeats)

        // Counts and scorers (the peers' own stages).
        try stage("counts", file: files.wearableDay, output: "counts-1d")
        try stage("counts", file: files.wearable, repeats: 1, warmUp: 0, output: "counts-7d", label: "7 days")
        try stage("score", file: outputs + "/counts-7d", output: "states-7d")

        // A year of nights: analysis, store, reports, comparison.
        let yearDB = work + "/year.sqlite"
        try stage("store", file: "", repeats: 2, db: yearDB)
        try reportAndCompare(database: yearDB)

        // End to end: `sleepsta run` on the 7-day file, process start to exit: the wearable method
        // (auto-calibration, non-wear, HDCZA, van Hees 2015), on the CSV and on the same signal as .cwa.
        try endToEnd(file: files.wearable, name: "end-to-end",
                     label: "sleepsta run on the 7-day CSV, wearable method: hash, read, calibrate, 5-s epochs, nights, analyse, store, render (process start to exit)")
        try endToEnd(file: files.wearableCWA, name: "end-to-end-cwa",
                     label: "sleepsta run on the 7-day .cwa (same signal), wearable method, process start to exit")

        // sleepsta end to end vs polars and DuckDB, plain and gzip, on the 24 h file.
        try columnarPeers(day: files.wearableDay)

        // Peers, on the same inputs, checked against sleepsta's outputs.
        if let python {
            // pandas reads the file from the page cache, as sleepsta's stages did: no warm-up run.
            try peer("pandas", python: python, ["--csv", files.wearable, "--compare", outputs + "/ingest-serial"],
                     against: "ingest-2", repeats: repeats, warmUp: 0)
            // agcounts takes about a minute per day of 100 Hz data here: one run.
            try peer("agcounts", python: python, ["--csv", files.wearableDay, "--rate", "100", "--compare", outputs + "/counts-1d"],
                     against: "counts", repeats: 1, warmUp: 0)
            try peer("pyactigraphy", python: python, ["--counts", outputs + "/counts-7d", "--compare", outputs + "/states-7d"],
                     against: "score-counts", repeats: max(repeats, 5), warmUp: 1)
        } else {
            report.notes.append("peers skipped: no Python environment (make bench creates .venv-peers)")
        }
        // Accuracy, not speed: the wearable method over the family of generated sleepers, last, so
        // that no child's peak memory inherits this process's.
        log("generated sleepers: every sleep model through sleepsta's method and GGIR's chain")
        report.sleepers = try SleeperTable.make(seeds: [1, 2, 3], verbose: false).rows
        report.loadAtEnd = Machine.loadAverage()
        // Linux records the spawning process's peak in each child's ru_maxrss (execve keeps the old
        // address space's high-water mark), so children's figures are floored at the bench's own.
        report.notes.append(String(format: "peak RSS is each child's own (wait4); it cannot read below the bench process's own peak, %.0f MB",
                                   Double(Stopwatch.peakResidentBytes()) / 1048576))
        report.evaluateTargets()
        return report
    }

    /// The .cwa holds the CSV's signal quantized to 1/256 g, so each second's movement (a mean of
    /// |axis| values) differs from the CSV's by at most half a unit, 1/512 g.
    func cwaAgreesWithCSV() -> Check {
        let what = "binary .cwa read equals the CSV's per-second movement within its 1/256 g quantization (same seconds, |Δ| ≤ 1/512 g)"
        guard let a = try? SeriesDump.movement(at: outputs + "/ingest-cwa"), let b = try? SeriesDump.movement(at: outputs + "/ingest-serial") else {
            return Check(what: what, passed: false, detail: "outputs missing")
        }
        let worst = zip(a.movement, b.movement).map { abs(Double($0) - Double($1)) }.max() ?? .infinity
        let passed = a.start == b.start && a.movement.count == b.movement.count && worst <= 1.0 / 512 + 1e-6
        return Check(what: what, passed: passed,
                     detail: String(format: "%d vs %d seconds from %lld / %lld; max |Δ| %.5f g", a.movement.count, b.movement.count, a.start, b.start, worst))
    }

    func fileSize(_ path: String) -> Int { IngestStages.fileSize(path) }

    @discardableResult
    func stage(_ name: String, file: String, threads: Int = 1, repeats r: Int? = nil, warmUp: Int = 1, output: String? = nil,
               timeZone: String? = nil, db: String? = nil, label: String? = nil) throws -> StageResult {
        var args = [bench, "stage", name, "--file", file, "--threads", String(threads), "--repeats", String(r ?? repeats),
                    "--warm-up", String(warmUp)]
        if let output { args += ["--output", outputs + "/" + output] }
        if let timeZone { args += ["--tz", timeZone] }
        if let db { args += ["--db", db] }
        log("\(name) \(label ?? "") \((file as NSString).lastPathComponent) threads=\(threads)")
        let outcome = try ChildProcess.run(args)
        guard outcome.status == 0 else { throw BenchError.failed("stage \(name) on \(file) failed (exit \(outcome.status))") }
        var results = try outcome.stdout.split(separator: "\n").map { try JSONDecoder().decode(StageResult.self, from: Data($0.utf8)) }
        for i in results.indices {
            results[i].peakResidentBytes = outcome.peakResidentBytes
            if let label { results[i].label += " (\(label))" }
            results[i].notes["input"] = (file as NSString).lastPathComponent
        }
        report.stages += results
        return results.last!
    }

    func sameOutput(_ a: String, _ b: String) -> Bool {
        let fm = FileManager.default
        return [".series", ".json"].allSatisfy { ext in
            fm.contentsEqual(atPath: outputs + "/" + a + ext, andPath: outputs + "/" + b + ext)
        }
    }

    /// `sleepsta run` over an empty data folder renders every stored night; `sleepsta compare`
    /// derives the 15-minute analyses and the comparison. Each timed run starts from a copy of the
    /// year database and an empty reports folder, so it does the whole job.
    func reportAndCompare(database: String) throws {
        let empty = work + "/empty-data"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let nights = 365
        for (name, label, arguments) in [
            ("report", "sleepsta run: render \(nights) nights' reports and the index (process start to exit)",
             ["run", "--data", empty, "--quiet"]),
            ("compare", "sleepsta compare --intervals 10m,15m over \(nights) nights (process start to exit)",
             ["compare", "--intervals", "10m,15m", "--quiet"]),
        ] {
            var times: [Double] = []
            var peak = 0
            // One run each: rendering a year of nights takes tens of seconds, and the first run is
            // the real case (a new database, an empty reports folder).
            for run in 0..<1 {
                let copy = work + "/year-copy.sqlite"
                let reports = work + "/year-reports"
                try? FileManager.default.removeItem(atPath: reports)
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
                try FileManager.default.copyItem(atPath: database, toPath: copy)
                try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
                log("\(name) run \(run)")
                let o = try ChildProcess.run([sleepsta] + arguments + ["--db", copy, "--reports", reports], quiet: false)
                guard o.status == 0 else { throw BenchError.failed("sleepsta \(arguments[0]) failed (exit \(o.status))") }
                times.append(o.wallSeconds)
                _ = run
                peak = max(peak, o.peakResidentBytes)
            }
            report.stages.append(StageResult(name: name, label: label, seconds: times, bytes: 0, items: nights, unit: "nights",
                                             peakResidentBytes: peak))
        }
    }

    /// `sleepsta run --tz Europe/Berlin` on a folder holding only the 7-day file (a hard link),
    /// into a fresh database and reports folder each time: hash, read, split nights, analyse, store,
    /// render.
    func endToEnd(file: String, name: String, label: String) throws {
        let e2e = try timedRuns(of: file, folder: "e2e", options: [], runs: repeats)
        report.stages.append(StageResult(
            name: name, label: label,
            seconds: e2e.seconds, bytes: fileSize(file), items: Int(days * 86_400 * 100), peakResidentBytes: e2e.peak, threads: 2))
        report.checks.append(try scriptedNights(database: e2e.db, file: (file as NSString).lastPathComponent))
    }

    /// `sleepsta run --tz Europe/Berlin OPTIONS` `runs + 1` times over a folder (`<work>/<folder>-data`)
    /// holding only `file` (a hard link), each into a fresh database and reports folder; the first
    /// run warms the caches and is not timed. Returns the paths of the last run and the timings.
    func timedRuns(of file: String, folder: String, options: [String], runs: Int) throws
        -> (data: String, db: String, reports: String, seconds: [Double], peak: Int) {
        let data = work + "/\(folder)-data"
        try? FileManager.default.removeItem(atPath: data)
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let linked = data + "/" + (file as NSString).lastPathComponent
        if link(file, linked) != 0 { try FileManager.default.copyItem(atPath: file, toPath: linked) }
        let db = work + "/\(folder).sqlite", reports = work + "/\(folder)-reports"
        var times: [Double] = []
        var peak = 0
        for run in 0...runs {
            for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: db + suffix) }
            try? FileManager.default.removeItem(atPath: reports)
            log("\(folder) run \(run)")
            let o = try ChildProcess.run([sleepsta, "run", "--data", data, "--db", db, "--reports", reports,
                                          "--tz", "Europe/Berlin", "--quiet"] + options)
            guard o.status == 0 else { throw BenchError.failed("sleepsta run failed (exit \(o.status))") }
            if run > 0 { times.append(o.wallSeconds) }
            peak = max(peak, o.peakResidentBytes)
        }
        return (data, db, reports, times, peak)
    }

    /// The wearable method's nights against the signal's own script (sleep onset and wake within
    /// 20 min, TST within 30 min), with the table of every full night.
    func scriptedNights(database: String, file: String) throws -> Check {
        let truth = WearableCSVGenerator(days: days).truth()
        let sql = "SELECT a.night_id, a.status, m.sleep_onset_utc, m.wake_time_utc, m.total_sleep_time_min FROM analyses a "
            + "LEFT JOIN night_metrics m ON m.analysis_id = a.id ORDER BY a.night_id"
        let rows = try SleepDatabase(path: database).query(sql)
        var lines: [String] = [], within = 0, scored = 0
        for r in rows where r["status"] == "scored" {
            let row = ["night_id", "status", "sleep_onset_utc", "wake_time_utc", "total_sleep_time_min"].map { r[$0] ?? "" }
            guard let onset = Int64(row[2]), let wake = Int64(row[3]), let tst = Double(row[4]),
                  let night = truth.first(where: { abs($0.onsetUTC - onset) < 4 * 3600 }) else { continue }
            scored += 1
            let dOn = Double(onset - night.onsetUTC) / 60, dWake = Double(wake - night.wakeUTC) / 60, dTST = tst - Double(night.sleepMinutes)
            if abs(dOn) <= 20 && abs(dWake) <= 20 && abs(dTST) <= 30 { within += 1 }
            lines.append(String(format: "%@: onset %+.1f min, wake %+.1f min, TST %.0f vs %d min (%+.1f)", row[0], dOn, dWake, tst, night.sleepMinutes, dTST))
        }
        let full = truth.filter { $0.wakeUTC < truth.last!.wakeUTC }.count
        return Check(what: "wearable method on \(file): every full night within 20 min of the script (onset, wake) and 30 min (TST)",
                     passed: scored >= full && within == scored && scored > 0,
                     detail: "\(within) of \(scored) scored nights (\(full) full nights scripted): " + lines.joined(separator: "; "))
    }

    func peer(_ name: String, python: String, _ arguments: [String], against: String, repeats: Int, warmUp: Int,
              label: String? = nil) throws {
        log("peer \(name)")
        let o = try ChildProcess.run([python, peersScript, name, "--repeats", String(repeats), "--warm-up", String(warmUp)] + arguments)
        guard o.status == 0, let line = o.stdout.split(separator: "\n").last,
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            report.notes.append("peer \(name) failed (exit \(o.status))")
            return
        }
        if let reason = object["skipped"] as? String {
            report.notes.append("peer \(name) skipped: \(reason)")
            return
        }
        let times = (object["times"] as? [Double]) ?? []
        let agreement = (object["agreement"] as? [String: Any]) ?? [:]
        var result = PeerResult(peer: label ?? name, comparedWith: against, seconds: times,
                                rows: (object["rows"] as? Int) ?? 0, peakResidentBytes: o.peakResidentBytes,
                                agrees: (agreement["agree"] as? Bool) ?? false, agreement: [:])
        for (k, v) in agreement { result.agreement[k] = "\(v)" }
        result.userSeconds = (object["user_seconds"] as? [Double]) ?? []
        result.systemSeconds = (object["system_seconds"] as? [Double]) ?? []
        result.version = object["version"] as? String
        report.peers.append(result)
    }

    func removeLargeFiles() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: work)) ?? [] {
            try? FileManager.default.removeItem(atPath: work + "/" + name)
        }
        try? FileManager.default.removeItem(atPath: work)
    }
}
