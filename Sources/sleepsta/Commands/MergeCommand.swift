import ArgumentParser
import Foundation
import SleepPipeline

package struct Merge: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "Merge shard databases (written by run --shard K/N) into one database.",
        discussion: """
        One transaction: a merge killed at any point leaves --db as it was. Merging a shard again changes
        nothing, so after rerunning a failed shard, merge it (or all shards) again. Refuses (exit 2, naming
        the shard) a shard with another schema, another sleepsta version, other analysis parameters, zone,
        kind or units, another shard count or data-folder listing, or whose last run did not finish.
        Row ids are renumbered; the run log (runs, run_failures) is not merged: one `merge` row records it.

        Exit codes: 0 merged; 1 merged, but shards of --expect N are missing (listed); 2 refused or
        environment error (nothing changed); 3 another run holds the database lock.
        """)

    @Option(name: .long, help: ArgumentHelp("The merged database (created when missing).", valueName: "file"))
    var db: String

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The number of shards the cohort was split into: missing shards are listed and the exit code is 1.", valueName: "N"))
    package var expect: Int?

    @Argument(help: ArgumentHelp("Shard databases.", valueName: "shard.sqlite"))
    var shards: [String] = []

    package func validate() throws {
        if let expect, expect < 1 || expect > Shard.maximumCount { throw ValidationError("--expect \(expect): must be 1 to \(Shard.maximumCount) shards") }
        guard !shards.isEmpty else { throw ValidationError("give at least one shard database") }
    }

    package func run() throws {
        do {
            let summary = try ShardMergeRun(databasePath: db, shardPaths: shards, expectedShards: expect).run()
            print(summary.text)
            if summary.exitCode != ExitStatus.success { throw ExitCode(summary.exitCode) }
        } catch let error as PipelineError {
            FileHandle.standardError.write(Data(ExitStatus.errorLine(error).utf8))
            throw ExitCode(error.exitCode)
        }
    }
}
