import Foundation
import SleepCore

/// The Slurm side of a sharded cohort (`sleepsta slurm`): an array job of N tasks, task K running
/// `sleepsta run --shard K/N` into its own database, and a merge-and-render job that starts only
/// when every task exited 0 (`--dependency=afterok`). Texts only; the command writes and submits them.
///
/// Layout under the work folder W (every path absolute, since jobs start in Slurm's spool folder):
/// `W/slurm/shards.sbatch`, `W/slurm/merge.sbatch`, `W/slurm/submit.sh`, `W/slurm/protocol.toml`, `W/shards/shard-K.sqlite`
/// (one database per task, never shared), `W/shards/reports-K/` (the shard's own pages),
/// `W/logs/shard-<job>_<K>.out` (one log per task), `W/logs/merge-<job>.out`, and the merged
/// database and reports where `--db` and `--reports` say (default `W/all.sqlite`, `W/Reports`).
public struct SlurmScript: Sendable {
    public var sleepsta: String
    public var dataDirectory: String
    public var workDirectory: String
    public var shards: Int
    public var databasePath: String
    public var reportsDirectory: String
    /// Options passed on to every `run --shard` (`--interval 15m`, `--tz Europe/Berlin` …), already split.
    public var runOptions: [String]
    public var partition: String?
    public var cpusPerTask: Int
    public var memory: String?
    public var timeLimit: String?

    public init(sleepsta: String, dataDirectory: String, workDirectory: String, shards: Int, databasePath: String? = nil,
                reportsDirectory: String? = nil, runOptions: [String] = [], partition: String? = nil, cpusPerTask: Int = 1,
                memory: String? = nil, timeLimit: String? = nil) {
        self.sleepsta = sleepsta; self.dataDirectory = dataDirectory; self.workDirectory = workDirectory; self.shards = shards
        self.databasePath = databasePath ?? workDirectory + "/all.sqlite"
        self.reportsDirectory = reportsDirectory ?? workDirectory + "/Reports"
        self.runOptions = runOptions; self.partition = partition; self.cpusPerTask = cpusPerTask
        self.memory = memory; self.timeLimit = timeLimit
    }

    public var scriptDirectory: String { workDirectory + "/slurm" }
    public var shardsScriptPath: String { scriptDirectory + "/shards.sbatch" }
    public var mergeScriptPath: String { scriptDirectory + "/merge.sbatch" }
    public var submitScriptPath: String { scriptDirectory + "/submit.sh" }
    /// The cohort's `protocol.toml`, resolved when the scripts are written (the study file and options
    /// every shard reads), with the merged database and reports as its paths; the merge job puts it
    /// beside the merged reports, as a single run puts its own.
    public var protocolPath: String { scriptDirectory + "/" + ProtocolFile.fileName }
    public var shardDirectory: String { workDirectory + "/shards" }
    public var logDirectory: String { workDirectory + "/logs" }

    /// Every value the scripts hold, by the option that set it: `--work` for the work folder …
    public var namedValues: [(option: String, value: String)] {
        var values: [(String, String)] = [("--sleepsta", sleepsta), ("--data", dataDirectory), ("--work", workDirectory),
                                          ("--db", databasePath), ("--reports", reportsDirectory)]
        for (option, value) in [("--partition", partition), ("--mem", memory), ("--time", timeLimit)] {
            if let value { values.append((option, value)) }
        }
        var option = "run option"
        for item in runOptions {
            if item.hasPrefix("--") { option = item }
            values.append((option, item))
        }
        return values
    }

    /// Why these values cannot be written into a job script, or nil. A line break in one would
    /// end its `#SBATCH` line or comment and start a shell command of its own; any control or
    /// bidirectional character is refused the same way (``PrintableText``), naming the option.
    public static func unwritable(_ values: [(option: String, value: String)]) -> String? {
        for (option, value) in values {
            guard let (scalar, position) = PrintableText.firstControl(in: value) else { continue }
            let shown = PrintableText.escaped(String(Character(scalar)))
            return "\(option) '\(PrintableText.escaped(value))' holds the control character \(shown) (character \(position)): every value is written into the Slurm job scripts, where it could start a command of its own; expected printable text"
        }
        return nil
    }

    /// Single-quoted for the shell.
    static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    func common(jobName: String, output: String) -> [String] {
        var lines = ["#!/bin/bash", "#SBATCH --job-name=\(jobName)", "#SBATCH --output=\(output)", "#SBATCH --cpus-per-task=\(cpusPerTask)"]
        if let partition { lines.append("#SBATCH --partition=\(partition)") }
        if let memory { lines.append("#SBATCH --mem=\(memory)") }
        if let timeLimit { lines.append("#SBATCH --time=\(timeLimit)") }
        return lines
    }

    /// The array job: task K processes shard K of N. Its exit code is sleepsta's (0 fine, 1 some
    /// files failed, 2 environment, 3 locked), so `afterok` holds the merge when any task is not 0.
    public var shardsScript: String {
        (common(jobName: "sleepsta-shards", output: logDirectory + "/shard-%A_%a.out") + [
            "#SBATCH --array=1-\(shards)",
            "# Generated by `sleepsta slurm`. Task K runs shard K of \(shards) into its own database.",
            "# A task that failed or was killed: rerun only it (runs are idempotent: files already stored are",
            "# skipped), then run the merge again:",
            "#   sbatch --array=K \(Self.quoted(shardsScriptPath)) && sbatch \(Self.quoted(mergeScriptPath))",
            "set -u",
            "K=${SLURM_ARRAY_TASK_ID:?run this script with sbatch --array}",
            "mkdir -p \(Self.quoted(shardDirectory))",
            "exec \(Self.quoted(sleepsta)) run --shard \"$K/\(shards)\" --data \(Self.quoted(dataDirectory)) \\",
            "    --db \(Self.quoted(shardDirectory))/shard-\"$K\".sqlite --reports \(Self.quoted(shardDirectory))/reports-\"$K\" \\",
            "    " + (runOptions.map(Self.quoted) + ["--quiet"]).joined(separator: " "),
        ]).joined(separator: "\n") + "\n"
    }

    /// The merge-and-render job: every shard database into one, then every report from it.
    public var mergeScript: String {
        let shardList = (1...max(1, shards)).map { Self.quoted(shardDirectory) + "/shard-\($0).sqlite" }.joined(separator: " ")
        let reportsProtocol = reportsDirectory + "/" + ProtocolFile.fileName
        return (common(jobName: "sleepsta-merge", output: logDirectory + "/merge-%j.out") + [
            "# Generated by `sleepsta slurm`: merge the \(shards) shard databases, then render every report.",
            "# Exit 1: shards missing (listed in the log); 2: a shard refused (named in the log), nothing merged.",
            "set -u",
            "\(Self.quoted(sleepsta)) merge --db \(Self.quoted(databasePath)) --expect \(shards) \\",
            "    \(shardList) || exit $?",
            "\(Self.quoted(sleepsta)) render --db \(Self.quoted(databasePath)) --reports \(Self.quoted(reportsDirectory)) || exit $?",
            "# The protocol beside the reports, replaced whole (a reader never sees half of it).",
            "cp \(Self.quoted(protocolPath)) \(Self.quoted(reportsProtocol + ".part")) \\",
            "    && exec mv -f \(Self.quoted(reportsProtocol + ".part")) \(Self.quoted(reportsProtocol))",
            "echo 'sleepsta: cannot copy the protocol beside the reports:' \(Self.quoted(protocolPath)) >&2",
            "exit 2",
        ]).joined(separator: "\n") + "\n"
    }

    /// Submits both, chained: prints the two job ids.
    public var submitScript: String {
        [
            "#!/bin/bash",
            "# Generated by `sleepsta slurm`: submit the array, then the merge-and-render job after it.",
            "set -euo pipefail",
            "mkdir -p \(Self.quoted(logDirectory)) \(Self.quoted(shardDirectory))",
            "array=$(sbatch --parsable \(Self.quoted(shardsScriptPath)))",
            "array=${array%%;*}",
            "merge=$(sbatch --parsable --dependency=afterok:\"$array\" \(Self.quoted(mergeScriptPath)))",
            "merge=${merge%%;*}",
            "echo \"array $array merge $merge\"",
        ].joined(separator: "\n") + "\n"
    }
}
