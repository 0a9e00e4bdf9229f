import ArgumentParser
import Foundation
import SleepstaWorkloads

/// Issue 12: sleepsta's `.cwa` decoder against actfast 1.3.0 (PyPI, a reader written in Rust) on
/// the same file in the same run. The two sides do different amounts of work, and the labels say
/// so: actfast.read materialises the whole recording as numpy arrays (int64 ns times, float32
/// acceleration, about 1.2 GB for 7 days at 100 Hz); sleepsta's reader streams every sample
/// through the per-second accumulator and QC and keeps none (``CWADecodeStage``). Both outputs are
/// checked equal (bench/peers.py, `actfast`) before a ratio is printed.
extension BenchRunner {
    func cwaDecoderPeer(cwa: String) throws {
        // UTC: sleepsta's times are then the device clock, which actfast reports without a zone.
        try stage("decode-cwa", file: cwa, output: "decode-cwa", timeZone: "UTC", label: "device clock, --tz UTC")
        guard let python else {
            report.notes.append("actfast skipped: no Python environment (make bench creates .venv-peers)")
            return
        }
        try peer("actfast", python: python, ["--cwa", cwa, "--compare", outputs + "/decode-cwa"],
                 // Its time varies 1–3× from run to run with the kernel's page faults: 5 runs at least.
                 against: "decode-cwa", repeats: max(repeats, 5), warmUp: 0,
                 label: "actfast 1.3.0 (actfast.read: whole file into numpy arrays)")
    }
}

/// `sleepsta-bench cwa-decoder`: only the decoder comparison, on a given `.cwa` or the bench's 7-day one.
struct CWADecoder: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cwa-decoder",
        abstract: "sleepsta's .cwa decoder vs actfast 1.3.0 on the same file.")
    @Option(help: "The .cwa to read; without it the 7-day workload is generated into --work.") var file: String?
    @Option(help: "Folder for outputs (and the generated workload).") var work = "bench-work"
    @Option(help: "Python of the peers' virtual environment (with actfast).") var python: String?
    @Option(help: "The peers script.") var peersScript = "bench/peers.py"
    @Option(help: "Where to write the results as JSON.") var json = "Reports/bench-cwa-decoder.json"
    @Option(help: "Timed runs (at least 3).") var repeats = 3

    func run() throws {
        // Only stages of this program and the peer run: no sleepsta binary is needed.
        let runner = try BenchRunner(work: work, sleepsta: nil, python: python, peersScript: peersScript, days: 7, repeats: repeats)
        try runner.runAlone(command: "sleepsta-bench cwa-decoder", json: json) {
            let cwa = file ?? "\(runner.work)/\(Workloads.wearableName(days: 7)).cwa"
            if file == nil && !FileManager.default.fileExists(atPath: cwa) {
                runner.log("generating \(cwa) (the bench's 7-day signal, Axivity packed 10-bit)")
                try WearableCWAGenerator(signal: WearableCSVGenerator(days: 7)).write(to: cwa)
            }
            runner.report.workloads["wearable cwa"] = "\((cwa as NSString).lastPathComponent): \(IngestStages.fileSize(cwa)) bytes"
            try runner.cwaDecoderPeer(cwa: cwa)
        }
    }
}
