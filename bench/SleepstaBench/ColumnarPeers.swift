import ArgumentParser
import Foundation
import SleepstaWorkloads

/// Issue 18: sleepsta end to end against the fastest columnar engines, polars and DuckDB, doing
/// the same work — the per-second aggregation (mean (|x|+|y|+|z|)/3, the legacy formula, the
/// sample count) and the 10-minute totals of it — on the same 24 h 100 Hz file, plain and gzip.
/// Their outputs are checked against sleepsta's base series before any time is taken (bench/peers.py).
///
/// sleepsta's side is `sleepsta run --kind phone-in-bed` from process start to exit: content hash,
/// read, per-second series, nights, intervals, analysis, SQLite, report pages. The peers' side is
/// their aggregation alone, in-process, after the interpreter and the library are loaded.
extension BenchRunner {
    func columnarPeers(day: String) throws {
        let gz = day + ".gz"
        if !FileManager.default.fileExists(atPath: gz) {
            log("gzip -1 \(day)")
            let o = try ChildProcess.run(["/bin/sh", "-c", "gzip -1 -c '\(day)' > '\(gz)'"])
            guard o.status == 0 else { throw BenchError.failed("gzip -1 \(day) failed") }
        }
        // sleepsta's per-second series of the file: what the peers' outputs are checked against.
        try stage("ingest", file: day, threads: 2, repeats: 1, warmUp: 0, output: "ingest-day", label: "24 h file (columnar peers' reference)")
        for (file, name) in [(day, "columnar-plain"), (gz, "columnar-gzip")] {
            try phoneEndToEnd(file: file, name: name)
        }
        guard let python else { return }
        for engine in ["polars", "duckdb"] {
            for (file, against) in [(day, "columnar-plain"), (gz, "columnar-gzip")] {
                try peer(engine, python: python, ["--csv", file, "--compare", outputs + "/ingest-day"],
                         against: against, repeats: max(repeats, 3), warmUp: 0,
                         label: against.hasSuffix("gzip") ? "\(engine) gzip" : engine)
            }
        }
    }

    /// `sleepsta run --kind phone-in-bed` over a folder holding only `file`, fresh database and reports each run.
    func phoneEndToEnd(file: String, name: String) throws {
        let timed = try timedRuns(of: file, folder: name, options: ["--kind", "phone-in-bed"], runs: max(repeats, 3))
        let (data, db, reports) = (timed.data, timed.db, timed.reports)
        var result = StageResult(name: name, label: "sleepsta run --kind phone-in-bed, \(name.hasSuffix("gzip") ? ".csv.gz" : "CSV"), 24 h 100 Hz: hash, read, per-second, intervals, store, render (process start to exit)",
                                 seconds: timed.seconds, bytes: fileSize(file), items: 8_640_000, peakResidentBytes: timed.peak, threads: 2)
        result.notes["input"] = (file as NSString).lastPathComponent
        report.stages.append(result)

        // The nightly re-run over the same, unchanged file: the stat fast path, no hash.
        var nightly: [Double] = []
        sleep(3)   // past FileStatFastPath's 2-s racily-clean margin, so that the stat is trusted
        for run in 0...3 {
            let o = try ChildProcess.run([sleepsta, "nightly", "--data", data, "--db", db, "--reports", reports,
                                          "--tz", "Europe/Berlin", "--kind", "phone-in-bed", "--quiet"])
            guard o.status == 0 else { throw BenchError.failed("sleepsta nightly failed (exit \(o.status))") }
            if run > 0 { nightly.append(o.wallSeconds) }
        }
        var n = StageResult(name: name + "-nightly-unchanged", label: "sleepsta nightly over the same unchanged file (stat fast path, first hash already stored), process start to exit",
                            seconds: nightly, bytes: 0, items: 1, unit: "recordings", peakResidentBytes: 0, threads: 2)
        n.notes["input"] = (file as NSString).lastPathComponent
        report.stages.append(n)
    }
}

/// `sleepsta-bench columnar`: only the polars/DuckDB comparison (and the nightly re-run), on a 24 h file.
struct Columnar: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "sleepsta end to end vs polars and DuckDB on a 24 h file, plain and gzip.")
    @Option(help: "Folder for workloads and outputs.") var work = "bench-work"
    @Option(help: "The sleepsta binary.") var sleepsta = ".build/release/sleepsta"
    @Option(help: "Python of the peers' virtual environment.") var python: String?
    @Option(help: "The peers script.") var peersScript = "bench/peers.py"
    @Option(help: "Where to write the results as JSON.") var json = "Reports/bench-columnar.json"
    @Option(help: "Timed runs (at least 3).") var repeats = 3

    func run() throws {
        let runner = try BenchRunner(work: work, sleepsta: sleepsta, python: python, peersScript: peersScript, days: 1, repeats: repeats)
        try runner.runAlone(command: "sleepsta-bench columnar", json: json) {
            let files = try Workloads.prepare(work: work, days: 1, log: runner.log)
            runner.report.workloads = files.descriptions
            try runner.columnarPeers(day: files.wearableDay)
        }
    }
}

extension BenchRunner {
    /// A subcommand's part of the bench on its own: the report's header, `body`, the targets, the
    /// table printed and the JSON written to `json`.
    func runAlone(command: String, json: String, _ body: () throws -> Void) throws {
        report.command = command
        report.machine = Machine.describe()
        report.loadAtStart = Machine.loadAverage()
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
        try body()
        report.loadAtEnd = Machine.loadAverage()
        report.evaluateTargets()
        print(report.table())
        try FileManager.default.createDirectory(atPath: (json as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try report.jsonData().write(to: URL(fileURLWithPath: json))
        print("\nwritten: \(json)")
    }
}
