import ArgumentParser
import SleepPipeline

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ingest every recording under a folder, analyse each night, store it and render the reports.",
        discussion: """
        A study file (sleepsta.toml at the data folder's root, or --study FILE) holds the protocol: data folder, zone, participants, diary, method, interval, files to ignore. Options given here override its keys and the run says so; protocol.toml beside the reports records every value used and where it came from (docs/study-file.md). Without a study file, run uses only the options it is given and names what it drops of the last run's.

        Files are recognised by content (BLAKE3 hash): a file already in the database is skipped, a changed file replaces its earlier version, and nights are re-analysed from the stored per-second series when the parameters change. A new --tz splits the nights of the files it concerns again. Report files are rewritten only when their content changes.

        Formats, recognised by content (each also gzip-compressed):
          raw-sample CSV: timestamp,x,y,z (g or m/s², see --units)
          the Sleepsta app's JSON export (interval totals and surveys)
          ActiGraph .gt3x and ActiLife raw CSV export
          Axivity AX3/AX6 .cwa
          GENEActiv .bin
          Sleep as Android sleep-export.csv
          SensorLog (iOS) CSV and Sensor Logger Accelerometer.csv
          raw CSV of local time, x, y, z with further columns (GGIR, AX6 exports)
        Epoch files (.agd, .awd, .mtn, ActiLife, Actiware, QUT, MMASH, UK Biobank epoch CSVs) are analysed too, with their device software's rules (the epoch-file method); score, periods and counts work on one such file. Details: docs/formats.md.
        """)

    @OptionGroup var options: PipelineOptions
    @OptionGroup var inclusion: InclusionOptions

    func run() throws {
        let prepared = try StudyRun.prepare(options, inclusion: inclusion, command: "run")
        try PipelineInvocation.execute(prepared, quietUnlessTerminal: false)
    }
}
