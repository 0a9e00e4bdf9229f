import ArgumentParser
import Foundation
import SleepCore
import SleepIngest
import SleepPipeline

package struct Slurm: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "Write (and with --submit, submit) the Slurm array job for a cohort, with its merge and render.",
        discussion: """
        Writes WORK/slurm/shards.sbatch (an array of N tasks: task K runs `sleepsta run --shard K/N` into
        WORK/shards/shard-K.sqlite, log WORK/logs/shard-JOB_K.out), WORK/slurm/merge.sbatch (merge all shards
        into --db with --expect N, then render --reports) and WORK/slurm/submit.sh, which submits the array and
        the merge with --dependency=afterok. WORK/slurm/protocol.toml records the protocol every task uses (the study
        file at the data folder's root and these options); the merge job puts it beside the merged reports. A task that fails or is killed holds the merge: rerun that shard
        with `sbatch --array=K WORK/slurm/shards.sbatch`, then `sbatch WORK/slurm/merge.sbatch` (docs/scale-out.md).
        """)

    @Option(name: .long, help: ArgumentHelp("Folder of recordings, seen by every node at the same path.", valueName: "dir"))
    var data: String

    @Option(name: .long, help: ArgumentHelp("Work folder on a shared file system: scripts, shard databases, logs.", valueName: "dir"))
    var work: String

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Number of shards (array tasks).", valueName: "N"))
    var shards: Int

    @Option(name: .long, help: ArgumentHelp("The merged database (default WORK/all.sqlite).", valueName: "file"))
    var db: String?

    @Option(name: .long, help: ArgumentHelp("The merged reports (default WORK/Reports).", valueName: "dir"))
    var reports: String?

    @Option(name: .long, help: ArgumentHelp("The sleepsta binary the jobs run (default: this one).", valueName: "path"))
    var sleepsta: String?

    @Option(name: .long, help: ArgumentHelp("Slurm partition.", valueName: "name")) var partition: String?
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("CPUs per array task.", valueName: "n")) var cpusPerTask: Int = 1
    @Option(name: .long, help: ArgumentHelp("Memory per task, e.g. 4G.", valueName: "size")) var mem: String?
    @Option(name: .long, help: ArgumentHelp("Time limit per task, e.g. 12:00:00.", valueName: "time")) var time: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Interval length, passed to every run (see run --help).", valueName: "length")) var interval: IntervalLength?
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Time zone, passed to every run (see run --help).", valueName: "zone")) var tz: String?
    @Option(name: .long, help: ArgumentHelp("Recording kind, passed to every run.", valueName: "kind")) var kind: KindOption?
    @Option(name: .long, help: ArgumentHelp("Acceleration unit, passed to every run.", valueName: "unit")) var units: AccelerationUnits?
    @Option(name: .long, help: ArgumentHelp("Sleep algorithm, passed to every run (see run --help).", valueName: "name")) var sleepAlgorithm: SleepAlgorithmOption?
    @Option(name: .long, help: ArgumentHelp("Wrist night method (sleepsta or ggir), passed to every run (see run --help).", valueName: "name")) var method: NightMethodChoice?

    @Flag(name: .long, help: "Submit with sbatch after writing (prints the array and merge job ids).")
    var submit = false

    package func validate() throws {
        // Bounded as --shard K/N is: the scripts list every shard database by name.
        guard shards >= 1, shards <= Shard.maximumCount else {
            throw ValidationError("--shards \(shards): expected 1 to \(Shard.maximumCount) shards (the bound of --shard K/N)")
        }
        guard cpusPerTask >= 1 else { throw ValidationError("--cpus-per-task \(cpusPerTask): must be at least 1") }
        if let problem = SlurmScript.unwritable(script(binary: sleepsta.map(Self.absolute) ?? "sleepsta").namedValues) {
            throw ValidationError(problem)
        }
        _ = try ZoneOption.zone(tz)
    }

    /// The scripts' facts from the options, with every path made absolute.
    package func script(binary: String) -> SlurmScript {
        var options: [String] = []
        if let interval { options += ["--interval", interval.description] }
        if let tz { options += ["--tz", (try? ZoneOption.zone(tz)) ?? tz] }
        if let kind { options += ["--kind", kind.rawValue] }
        if let units { options += ["--units", units.rawValue] }
        if let sleepAlgorithm { options += ["--sleep-algorithm", sleepAlgorithm.defaultValueDescription] }
        if let method { options += ["--method", method.rawValue] }
        return SlurmScript(sleepsta: binary, dataDirectory: Self.absolute(data), workDirectory: Self.absolute(work), shards: shards,
                           databasePath: db.map(Self.absolute), reportsDirectory: reports.map(Self.absolute), runOptions: options,
                           partition: partition, cpusPerTask: cpusPerTask, memory: mem, timeLimit: time)
    }

    static func absolute(_ path: String) -> String {
        let p = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (p as NSString).standardizingPath
    }

    package func run() throws {
        let binary = sleepsta.map(Self.absolute)
            ?? ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? Self.absolute(CommandLine.arguments[0]))
        let script = script(binary: binary)
        // The binary's own path (not an option) is checked here, with everything else again.
        if let problem = SlurmScript.unwritable(script.namedValues) {
            FileHandle.standardError.write(Data("sleepsta: \(problem)\n".utf8))
            throw ExitCode(ExitStatus.environment)
        }
        // The protocol is resolved now, as every shard will resolve it (the study file at the data
        // folder's root, these options), so a bad study file stops here before any job is submitted.
        let shardRun = try Run.parse(
            ["--data", script.dataDirectory, "--db", script.databasePath, "--reports", script.reportsDirectory] + script.runOptions)
        let prepared = try StudyRun.prepare(shardRun.options, inclusion: shardRun.inclusion, command: "slurm")
        for note in prepared.notes { print(PrintableText.escaped(note)) }
        let fm = FileManager.default
        do {
            for dir in [script.scriptDirectory, script.shardDirectory, script.logDirectory] {
                try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
            }
            try script.shardsScript.write(toFile: script.shardsScriptPath, atomically: true, encoding: .utf8)
            try script.mergeScript.write(toFile: script.mergeScriptPath, atomically: true, encoding: .utf8)
            try script.submitScript.write(toFile: script.submitScriptPath, atomically: true, encoding: .utf8)
            try prepared.protocolText.write(toFile: script.protocolPath, atomically: true, encoding: .utf8)
            for path in [script.shardsScriptPath, script.mergeScriptPath, script.submitScriptPath] {
                try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            }
        } catch {
            FileHandle.standardError.write(Data("sleepsta: cannot write the Slurm scripts under \(work): \(error.localizedDescription)\n".utf8))
            throw ExitCode(ExitStatus.environment)
        }
        print("wrote \(script.shardsScriptPath) (array 1-\(shards)), \(script.mergeScriptPath), \(script.submitScriptPath)")
        guard submit else {
            print("submit with: \(script.submitScriptPath)")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.submitScriptPath]
        do { try process.run() } catch {
            FileHandle.standardError.write(Data("sleepsta: cannot run \(script.submitScriptPath): \(error.localizedDescription)\n".utf8))
            throw ExitCode(ExitStatus.environment)
        }
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            FileHandle.standardError.write(Data("sleepsta: sbatch failed (exit \(process.terminationStatus)); is Slurm reachable (SLURM_CONF, sinfo)?\n".utf8))
            throw ExitCode(ExitStatus.environment)
        }
    }
}
