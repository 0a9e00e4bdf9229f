import ArgumentParser
import SleepCore
import SleepPipeline
import SleepReport

package struct Score: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "Score sleep/wake per epoch (Cole–Kripke, Sadeh, Oakley/Actiware, Scripps, van Hees 2015).",
        discussion: """
        Prints one CSV row per epoch: start (ISO 8601 on the recording's local clock, with the UTC offset when the file states it or --tz is given), activity (the scored column), score (Cole–Kripke D, Sadeh PS or Oakley's activity score; empty for Scripps and van Hees), state (S, W, or empty where not scored), and file_state when the file carries its own scoring (ActiLife, Actiware, QUT).

        FILE: an ActiGraph .agd, ActiLife epoch CSV, Actiware export (English, French, German), QUT epoch CSV or MMASH Actigraph.csv; or raw samples (timestamp,x,y,z in g), scored on ActiGraph counts computed from them (on GGIR's angle-z for van-hees-2015).

        Variants (first = default, the device software's):
          cole-kripke    actilife, mean-activity-1992, max-overlapping-10s-1992,
                         max-non-overlapping-10s-1992, max-non-overlapping-30s-1992,
                         pyactigraphy-mean; --rescore webster|pyactigraphy
          sadeh          actilife, pyactigraphy
          oakley         actiware, zero-padded, pyactigraphy
                         (--wake-threshold 40 = medium)
          scripps        zero-padded, pyactigraphy
          van-hees-2015  ggir

        Examples:
          sleepsta score day.agd --algorithm sadeh --epoch 60s --format csv
          sleepsta score day.agd --algorithm cole-kripke --column axis1 --format csv
          sleepsta score rpx_eng.csv --algorithm oakley --wake-threshold 40
          sleepsta score p02_n01.csv --algorithm oakley --variant zero-padded
          sleepsta score night.csv --algorithm van-hees-2015 --tz Europe/Berlin

        Exit codes: 0 scored; 1 the file cannot be read or scored as asked; 2 usage error.
        """)

    @Argument(help: ArgumentHelp("Epoch file or raw-sample CSV.", valueName: "file"))
    var file: String

    @Option(name: .long, help: ArgumentHelp("cole-kripke, sadeh, oakley, scripps or van-hees-2015.", valueName: "name"))
    var algorithm: ScoringAlgorithm

    @Option(name: .long, help: ArgumentHelp("Algorithm variant (see below); default: the device software's.", valueName: "v"))
    var variant: String?

    @Option(name: .long, help: ArgumentHelp("Cole–Kripke only: apply Webster's rescoring (webster or pyactigraphy).", valueName: "rules"))
    var rescore: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Epoch length to score, e.g. 60s; finer epochs are collapsed as ActiLife does. Default: 60s for cole-kripke/sadeh, else the file's.", valueName: "length"))
    var epoch: IntervalLength?

    /// `--wake-threshold`, as `run` and `compare` name their wake threshold; `--threshold` (the old name) still works.
    @Option(name: [.customLong("wake-threshold"), .customLong("threshold")], parsing: .unconditional,
            help: ArgumentHelp("Oakley only: wake threshold in counts, or low (20), medium (40), high (80), auto (also --threshold).", valueName: "t"))
    package var threshold: String?

    @Option(name: .long, help: ArgumentHelp("Activity column of a multi-column epoch file (axis1, axis2, axis3, vm, activity, enmo …).", valueName: "name"))
    var column: String?

    @OptionGroup package var out: EpochOutputOptions

    package func run() throws {
        let request = ScoreRequest(path: file, algorithm: algorithm, variant: variant, rescore: rescore,
                                   epochSeconds: epoch?.seconds, threshold: threshold, column: column, timeZoneIdentifier: out.zone)
        try EpochCommandSupport.run {
            let result = try EpochScoring.run(request)
            EpochCommandSupport.note(result.notes, quiet: out.quiet)
            try result.writeCSV(toPath: out.output)
        }
    }
}
