import Foundation
import Testing
@testable import sleepsta

/// The job scripts `sleepsta slurm` writes (the real Slurm runs them in `make test-slurm`).
@Suite("Slurm job scripts")
struct SlurmScriptTests {
    @Test("the Slurm scripts: an array of N tasks each running its shard, per-task logs, merge and render chained with afterok")
    func slurmScripts() throws {
        let s = SlurmScript(sleepsta: "/opt/bin/sleepsta", dataDirectory: "/cohort/Data", workDirectory: "/scratch/w", shards: 8,
                            runOptions: ["--tz", "Europe/Berlin"], partition: "short", cpusPerTask: 2, memory: "4G", timeLimit: "02:00:00")
        #expect(s.shardsScript.contains("#SBATCH --array=1-8"))
        #expect(s.shardsScript.contains("#SBATCH --output=/scratch/w/logs/shard-%A_%a.out"))
        #expect(s.shardsScript.contains("run --shard \"$K/8\" --data '/cohort/Data'"))
        #expect(s.shardsScript.contains("--db '/scratch/w/shards'/shard-\"$K\".sqlite"))
        #expect(s.shardsScript.contains("'--tz' 'Europe/Berlin'"))
        #expect(s.shardsScript.contains("#SBATCH --partition=short") && s.shardsScript.contains("#SBATCH --mem=4G"))
        #expect(s.mergeScript.contains("merge --db '/scratch/w/all.sqlite' --expect 8"))
        #expect(s.mergeScript.contains("'/scratch/w/shards'/shard-8.sqlite"))
        #expect(s.mergeScript.contains("render --db '/scratch/w/all.sqlite' --reports '/scratch/w/Reports'"))
        #expect(s.submitScript.contains("--dependency=afterok:\"$array\""))
        for script in [s.shardsScript, s.mergeScript, s.submitScript] {
            let file = NSTemporaryDirectory() + "sleepsta-slurm-\(UUID().uuidString).sh"
            try script.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let bash = Process()
            bash.executableURL = URL(fileURLWithPath: "/bin/bash")
            bash.arguments = ["-n", file]
            let errors = Pipe()
            bash.standardError = errors
            try bash.run()
            bash.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(bash.terminationStatus == 0, "bash -n: \(stderr)")
        }
    }
}
