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
          sleepsta run --data Data --interval 15m        (15-minute intervals instead of 10)

        Exit codes: 0 all files fine; 1 some files failed (listed); 2 usage or environment error;
        3 another run holds the database lock.
        """,
        version: SleepstaVersion.current,
        subcommands: [Run.self],
        defaultSubcommand: nil)
}
