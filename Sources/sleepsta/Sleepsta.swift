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
          sleepsta nightly --data Data --db Data/sleepsta.sqlite --reports Reports   (for cron: only new work)
          sleepsta compare --intervals 10m,15m            (compare interval lengths over the stored nights)
          sleepsta export --format csv --what intervals  (tidy CSV for pandas or R)
          sleepsta score FILE --algorithm sadeh --format csv     (sleep/wake per epoch of an .agd, ActiLife or Actiware file)
          sleepsta periods FILE --sleep-algorithm sadeh --format csv   (Tudor-Locke sleep periods, ActiLife's statistics)
          sleepsta counts FILE --epoch 5s --format csv        (ActiGraph counts from raw samples)
          sleepsta inspect FILE                                (format, device, rate, time span, zone, units, QC; writes nothing)
          sleepsta run --shard 3/8 --data Data --db shard-3.sqlite --reports R3   (one of 8 shards of a cohort)
          sleepsta merge --db all.sqlite --expect 8 shard-*.sqlite   (shard databases into one)
          sleepsta render --db all.sqlite --reports Reports    (every report from the database alone)
          sleepsta slurm --data Data --work W --shards 8 --submit   (the Slurm array job, merge and render)

        Exit codes: 0 all files fine; 1 some files failed (listed); 2 usage or environment error;
        3 another run holds the database lock.
        """,
        version: SleepstaVersion.current,
        subcommands: [Run.self, Nightly.self, Compare.self, Export.self, Score.self, Periods.self, Counts.self, Inspect.self,
                      Merge.self, Render.self, Digest.self, Slurm.self],
        defaultSubcommand: nil)
}
