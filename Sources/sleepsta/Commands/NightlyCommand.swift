import ArgumentParser
import SleepPipeline

struct Nightly: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The cron job: ingest new or changed recordings, analyse and re-render only what they affect.",
        discussion: """
        Like `run`, but made for cron: only nights ingested or analysed in this run (and nights whose report files are missing) are rendered again, plus the index and the neighbouring nights' pages; every night is rendered when the previous run did not finish or used other parameters, folders or another sleepsta version. The reports folder must exist. Logs only errors when stderr is not a terminal (--verbose for more); a progress bar shows on a terminal. Prints a one-screen summary; the run is recorded in `runs`.

        Parameters are remembered: every analysis option that neither the command line nor the study file gives (interval, metric, wake threshold, sleep algorithm, kind, units, tz, diary, participants, ignore) takes the value of the last finished run or nightly on this database, so a crontab line without options keeps the researcher's last choice; without --study, the study file the last run read is read again (or sleepsta.toml at the data folder's root); the summary and the runs row name any parameter that changed.

        Exit codes: 0 all files fine; 1 some files failed (listed); 2 usage or environment error (missing folder, read-only or newer database, disk full); 3 another run holds the lock.

        Example crontab line:
          15 4 * * * cd /srv/sleep && sleepsta nightly --data Data --reports Reports
        """)

    @OptionGroup var options: PipelineOptions
    @OptionGroup var inclusion: InclusionOptions

    func run() throws {
        // Options not given take the study file's keys, then the parameters of the last finished run.
        var prepared = try StudyRun.prepare(options, inclusion: inclusion, command: "nightly")
        prepared.configuration.reportScope = .affected
        prepared.configuration.createsReportsDirectory = false
        try PipelineInvocation.execute(prepared, quietUnlessTerminal: true)
    }
}
