import ArgumentParser
import Logging
import SleepPipeline

@main
struct Sleepsta: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleepsta",
        abstract: "Turn overnight motion recordings into sleep analysis: SQLite database, PNG charts and HTML reports.",
        discussion: """
        Typical use:
          sleepsta run --data Data --db Data/sleepsta.sqlite --reports Reports
          sleepsta run --data Data --tz Europe/Berlin --interval 15m
          sleepsta nightly --data Data --db Data/sleepsta.sqlite --reports Reports
          sleepsta compare --intervals 10m,15m
          sleepsta export --what nights --output nights.csv
          sleepsta inspect FILE
          sleepsta run --shard 3/8 --data Data --db shard-3.sqlite
          sleepsta merge --db all.sqlite --expect 8 shard-*.sqlite
          sleepsta render --db all.sqlite --reports Reports

        run analyses every recording in a folder (database, charts, HTML reports); nightly does the same for cron, rendering only what changed; compare compares interval lengths over the stored nights; export writes tidy CSV for pandas or R; score, periods and counts work on one epoch or raw-sample file (sleep/wake per epoch, Tudor-Locke sleep periods, ActiGraph counts); inspect describes a file and writes nothing. `sleepsta help <command>` explains each.

        Exit codes: 0 all files fine; 1 some files failed (listed); 2 usage or environment error; 3 another run holds the database lock.
        """,
        version: SleepstaVersion.current,
        subcommands: [Run.self, Nightly.self, Compare.self, Export.self, Score.self, Periods.self, Counts.self, Inspect.self,
                      Merge.self, Render.self, Digest.self, Slurm.self],
        defaultSubcommand: nil)
}
