import Foundation
import Testing
import sleepsta

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
        // The protocol every shard used goes beside the merged reports, replaced whole, after the render succeeded.
        #expect(s.protocolPath == "/scratch/w/slurm/protocol.toml")
        #expect(s.mergeScript.contains("cp '/scratch/w/slurm/protocol.toml' '/scratch/w/Reports/protocol.toml.part'"))
        #expect(s.mergeScript.contains("mv -f '/scratch/w/Reports/protocol.toml.part' '/scratch/w/Reports/protocol.toml'"))
        #expect(s.mergeScript.contains("--reports '/scratch/w/Reports' || exit $?"), "a failed render is the job's exit code")
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

    @Test("a control character in any value written to a job script is refused naming its option; --shards is bounded like --shard")
    func slurmValuesAreWritable() throws {
        let base = ["--data", "/cohort/Data", "--work", "/scratch/w", "--shards", "4", "--sleepsta", "/opt/bin/sleepsta"]
        for (option, value) in [("--partition", "short\nrm -rf ~"), ("--mem", "4G\r"), ("--time", "02:00:00\u{1B}[2J"),
                                ("--work", "/scratch/w\nid"), ("--data", "/cohort/\u{202E}Data"), ("--db", "/x/all\n.sqlite"),
                                ("--reports", "/x/R\u{0}"), ("--tz", "Europe/Berlin\necho"), ("--sleepsta", "/opt/bin/sleepsta\nid")] {
            var arguments = base
            if let k = arguments.firstIndex(of: option) { arguments[k + 1] = value } else { arguments += [option, value] }
            let e = #expect(throws: (any Error).self) { _ = try Slurm.parse(arguments) }
            let message = e.map { Slurm.message(for: $0) } ?? ""
            #expect(message.contains(option) && message.contains("control character"), "\(option): \(message)")
            #expect(!message.contains("\u{1B}") && !message.contains("\u{202E}") && !message.contains("\u{0}"), "the message itself is printable: \(message)")
        }
        // The values that reach the scripts, checked again on the script itself (the binary's own path included).
        let s = SlurmScript(sleepsta: "/opt/bin/sleep\nsta", dataDirectory: "/d", workDirectory: "/w", shards: 2)
        #expect(SlurmScript.unwritable(s.namedValues)?.contains("--sleepsta") == true)
        #expect(SlurmScript.unwritable(SlurmScript(sleepsta: "/b", dataDirectory: "/d", workDirectory: "/w", shards: 2, partition: "gpu").namedValues) == nil)
        for shards in ["0", "10001", "200000000"] {
            var arguments = base
            arguments[arguments.firstIndex(of: "--shards")! + 1] = shards
            let e = #expect(throws: (any Error).self) { _ = try Slurm.parse(arguments) }
            #expect(e.map { Slurm.message(for: $0) }?.contains("10000") == true, "\(shards)")
        }
        _ = try Slurm.parse(base.map { $0 == "4" ? "10000" : $0 })
    }
}
