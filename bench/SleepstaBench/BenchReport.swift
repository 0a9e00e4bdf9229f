import Foundation

/// A yes/no fact the bench establishes (outputs agree, memory stays flat, a target is met).
struct Check: Codable, Sendable {
    var what: String
    var passed: Bool
    var detail: String
}

/// One Python peer's run, next to the sleepsta stage that does the same work.
struct PeerResult: Codable, Sendable {
    var peer: String
    /// The sleepsta stage it is compared with.
    var comparedWith: String
    var seconds: [Double]
    var rows: Int
    var peakResidentBytes: Int
    /// Whether its output agreed with sleepsta's (checked before any time is compared).
    var agrees: Bool
    var agreement: [String: String]
    /// User and system CPU seconds of each timed run, where the peer reports them.
    var userSeconds: [Double] = []
    var systemSeconds: [Double] = []
    var version: String?
    var medianSeconds: Double { Stopwatch.median(seconds) }
}

/// Everything one `sleepsta-bench all` measured: printed as a table, kept as `Reports/bench.json`.
struct BenchReport: Codable, Sendable {
    var command = "make bench"
    var machine: [String: String] = [:]
    var loadAtStart = ""
    var loadAtEnd = ""
    var workloads: [String: String] = [:]
    var stages: [StageResult] = []
    var peers: [PeerResult] = []
    var checks: [Check] = []
    var targets: [Check] = []
    var notes: [String] = []
    /// The wearable method over the generated sleepers, beside GGIR's chain (``SleeperTable``).
    var sleepers: [SleeperTable.Row] = []

    func stage(_ name: String, input: String? = nil) -> StageResult? {
        stages.first { $0.name == name && (input == nil || $0.notes["input"] == input) }
    }

    /// The issue's targets, each with the measured value.
    mutating func evaluateTargets() {
        targets = []
        let wearable = workloads["wearable"]?.split(separator: ":").first.map(String.init)
        func mbps(_ s: StageResult?) -> Double { s?.megabytesPerSecond ?? 0 }
        let one = stage("ingest-1", input: wearable), two = stage("ingest-2", input: wearable)
        // `sleepsta-bench columnar` measures only the issue-18 rows: no ingest stages, no ingest targets.
        if one != nil || two != nil {
        targets.append(Check(what: "CSV ingest (parse + per-second accumulator + QC) ≥ 1000 MB/s on one core",
                             passed: mbps(one) >= 1000, detail: String(format: "%.0f MB/s", mbps(one))))
        targets.append(Check(what: "CSV ingest ≥ 1800 MB/s on both cores, identical to the serial run",
                             passed: mbps(two) >= 1800 && checks.contains { $0.what.contains("2 core") && $0.passed },
                             detail: String(format: "%.0f MB/s", mbps(two))))
        }
        if let copy = stage("copy"), let acc = stage("accumulate"), let intake = stage("intake") {
            let r = mbps(acc) / max(mbps(copy), 1), q = mbps(intake) / max(mbps(copy), 1)
            // On 2 cores the parser threads sum whole seconds as they parse; only each chunk's first
            // and last second go through the in-order consumer sample by sample.
            let summed = Double(two?.notes["seconds summed while parsing"] ?? "") ?? 0
            let seconds = Double(two?.notes["seconds"] ?? "") ?? 0
            let fusedShare = seconds > 0 ? summed / seconds : 0
            targets.append(Check(
                what: "per-second accumulator fused into parsing, or ≥ 80 % of memory bandwidth where it runs on its own",
                passed: fusedShare >= 0.95 || r >= 0.8,
                detail: String(format: "fused: 1 core in the parse loop; 2 cores %.1f %% of seconds summed by the parser threads. On its own (for reference): accumulator %.0f MB/s = %.0f %% of memcpy %.0f MB/s; with QC %.0f MB/s = %.0f %%",
                               fusedShare * 100, mbps(acc), r * 100, mbps(copy), mbps(intake), q * 100)))
        }
        if let e2e = stage("end-to-end") {
            targets.append(Check(what: "7-day 100 Hz CSV end to end, wearable method (sleepsta run, process start to exit) ≥ 900 MB/s",
                                 passed: mbps(e2e) >= 900,
                                 detail: String(format: "%.0f MB/s, %.2f s, %.1f M samples/s, peak %.0f MB; GGIR's documented 3–10 min per 7-day file is %.0f–%.0f× this",
                                                mbps(e2e), e2e.medianSeconds, Double(e2e.items) / e2e.medianSeconds / 1e6,
                                                Double(e2e.peakResidentBytes) / 1048576, 180 / e2e.medianSeconds, 600 / e2e.medianSeconds)))
        }
        if let cwa = stage("end-to-end-cwa") {
            targets.append(Check(what: "7-day 100 Hz .cwa end to end, wearable method, ≤ 2.0 s, peak memory < 200 MB",
                                 passed: cwa.medianSeconds <= 2.0 && cwa.peakResidentBytes < 200 << 20,
                                 detail: String(format: "%.2f s, %.0f MB/s, %.1f M samples/s, peak %.0f MB; GGIR's 3–10 min is %.0f–%.0f× this",
                                                cwa.medianSeconds, mbps(cwa), Double(cwa.items) / cwa.medianSeconds / 1e6,
                                                Double(cwa.peakResidentBytes) / 1048576, 180 / cwa.medianSeconds, 600 / cwa.medianSeconds)))
        }
        for n in stages where n.name.hasSuffix("-nightly-unchanged") {
            targets.append(Check(what: "nightly re-run over an unchanged recording ≤ 50 ms (whole run, process start to exit, \(n.notes["input"] ?? ""))",
                                 passed: n.medianSeconds <= 0.05,
                                 detail: String(format: "%.1f ms (%.1f–%.1f)", n.medianSeconds * 1000,
                                                (n.seconds.min() ?? 0) * 1000, (n.seconds.max() ?? 0) * 1000)))
        }
        if let memory = checks.first(where: { $0.what.hasPrefix("peak memory") }) {
            targets.append(Check(what: "peak memory < 200 MB whatever the file length", passed: memory.passed, detail: memory.detail))
        }
        for p in peers {
            guard let ours = stage(p.comparedWith, input: p.peer == "pandas" ? wearable : nil) ?? stage(p.comparedWith) else { continue }
            let speed = p.medianSeconds / ours.medianSeconds
            let memory = Double(p.peakResidentBytes) / Double(max(1, ours.peakResidentBytes))
            switch p.peer {
            case let name where name.hasPrefix("polars") || name.hasPrefix("duckdb"):
                // Spread: the slowest of ours against the fastest of theirs, and the other way round.
                let low = (p.seconds.min() ?? 0) / max(ours.seconds.max() ?? 1, 1e-9)
                let high = (p.seconds.max() ?? 0) / max(ours.seconds.min() ?? 1, 1e-9)
                targets.append(Check(what: "\(ours.label.contains(".gz") ? "gzip" : "plain") CSV end to end ≥ 2× \(name)'s aggregation alone, same output, sleepsta peak < 200 MB",
                                     passed: p.agrees && speed >= 2 && ours.peakResidentBytes < 200 << 20,
                                     detail: String(format: "%.2f× (spread %.2f–%.2f×): sleepsta %.3f s, %@ %.3f s; peak %.0f MB vs %.0f MB; agree: %@",
                                                    speed, low, high, ours.medianSeconds, name, p.medianSeconds,
                                                    Double(ours.peakResidentBytes) / 1048576, Double(p.peakResidentBytes) / 1048576,
                                                    p.agrees ? "yes" : "NO")))
            case let name where name.hasPrefix("actfast"):
                // Issue 12 asks for the ratio, not a threshold: the check is that both read the same samples.
                targets.append(Check(what: "the .cwa decoder vs actfast 1.3.0 (Rust) on the same file: same samples, ratio measured",
                                     passed: p.agrees,
                                     detail: String(format: "%.2f× (spread %.2f–%.2f×): sleepsta %.3f s (user %@ s, system %@ s), every sample through the per-second accumulator + QC, none kept; actfast %.3f s (user %.3f s, system %.3f s: the kernel faulting in its arrays), all into numpy arrays; peak %.0f MB vs %.0f MB; agree: %@",
                                                    speed, (p.seconds.min() ?? 0) / max(ours.seconds.max() ?? 1, 1e-9),
                                                    (p.seconds.max() ?? 0) / max(ours.seconds.min() ?? 1, 1e-9),
                                                    ours.medianSeconds, ours.notes["user s"] ?? "?", ours.notes["system s"] ?? "?",
                                                    p.medianSeconds, Stopwatch.median(p.userSeconds), Stopwatch.median(p.systemSeconds),
                                                    Double(ours.peakResidentBytes) / 1048576, Double(p.peakResidentBytes) / 1048576,
                                                    p.agrees ? "yes" : "NO")))
            case "pandas":
                targets.append(Check(what: "vs pandas read_csv + numpy per-second aggregation: ≥ 4× faster, ≤ 1/3 of its peak memory, same output",
                                     passed: p.agrees && speed >= 4 && memory >= 3,
                                     detail: String(format: "%.1f× faster, %.1f× less memory, agree: %@", speed, memory, p.agrees ? "yes" : "NO")))
            default:
                targets.append(Check(what: "vs \(p.peer): ≥ 10× faster, same output",
                                     passed: p.agrees && speed >= 10,
                                     detail: String(format: "%.1f× faster, agree: %@", speed, p.agrees ? "yes" : "NO")))
            }
        }
    }

    func table() -> String {
        var out: [String] = []
        let cores = machine["cores"] ?? "?", memory = machine["memory"] ?? "?"
        out.append("sleepsta benchmark — \(machine["cpu"] ?? "CPU?"), \(cores) cores, \(memory); load average \(loadAtStart) at start, \(loadAtEnd) at end")
        out.append("")
        out.append("| stage | input | cores | median s | MB/s | M samples/s | peak RSS MB |")
        out.append("|---|---|---:|---:|---:|---:|---:|")
        for s in stages {
            let rate = s.itemsPerSecond.map { s.unit == "samples" ? String(format: "%.1f", $0 / 1e6) : String(format: "%.0f %@/s", $0, s.unit) } ?? ""
            out.append("| \(s.label) | \(s.notes["input"] ?? "") | \(s.threads) | \(String(format: "%.3f", s.medianSeconds)) | "
                       + "\(s.megabytesPerSecond.map { String(format: "%.0f", $0) } ?? "") | \(rate) | "
                       + "\(String(format: "%.0f", Double(s.peakResidentBytes) / 1048576)) |")
        }
        if !peers.isEmpty {
            out.append("")
            out.append("| peer (same input, same work) | peer median s | sleepsta median s | sleepsta/peer time | speed-up | peer RSS MB | sleepsta RSS MB | outputs agree |")
            out.append("|---|---:|---:|---:|---:|---:|---:|---|")
            let wearable = workloads["wearable"]?.split(separator: ":").first.map(String.init)
            for p in peers {
                guard let ours = stage(p.comparedWith, input: p.peer == "pandas" ? wearable : nil) ?? stage(p.comparedWith) else { continue }
                let agree = p.agreement.sorted { $0.key < $1.key }.filter { $0.key != "agree" }.map { "\($0.key) \($0.value)" }.joined(separator: "; ")
                out.append("| \(p.peer) vs \(ours.name) | \(String(format: "%.3f", p.medianSeconds)) | \(String(format: "%.4f", ours.medianSeconds)) | "
                           + "\(String(format: "%.3f", ours.medianSeconds / p.medianSeconds)) | \(String(format: "%.1f×", p.medianSeconds / ours.medianSeconds)) | "
                           + "\(String(format: "%.0f", Double(p.peakResidentBytes) / 1048576)) | \(String(format: "%.0f", Double(ours.peakResidentBytes) / 1048576)) | "
                           + "\(p.agrees ? "yes" : "NO") (\(agree)) |")
            }
        }
        if !sleepers.isEmpty {
            out.append("")
            out.append("Generated sleepers (sleepsta-bench sleepers): nights within 15/15/30 and 30/30/45 min of the truth (onset/wake/TST)")
            out.append("| sleep model | method | nights | within 15/15/30 | within 30/30/45 | asleep while laid down (min) |")
            out.append("|---|---|---:|---:|---:|---:|")
            for r in sleepers {
                out.append("| \(r.model) | \(r.method) | \(r.nights) | \(r.within15) | \(r.within30) | \(Int(r.laidDownSleepMinutes)) |")
            }
        }
        out.append("")
        out.append("Checks:")
        for c in checks { out.append("- [\(c.passed ? "x" : " ")] \(c.what): \(c.detail)") }
        out.append("")
        out.append("Targets:")
        for t in targets { out.append("- [\(t.passed ? "x" : " ")] \(t.what): \(t.detail)") }
        for n in notes { out.append("Note: \(n)") }
        return out.joined(separator: "\n")
    }

    func jsonData() throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try e.encode(self)
    }
}
