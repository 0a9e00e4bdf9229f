import ArgumentParser
import SleepCore
import SleepPipeline
import SleepReport

package struct Periods: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "Find sleep periods (Tudor-Locke 2014, as ActiLife) in 60-s epochs scored by Sadeh or Cole–Kripke.",
        discussion: """
        Prints one CSV row per sleep period with ActiLife's statistics: in_bed_time, out_bed_time, onset, latency, efficiency, duration, total_sleep_time, wake_after_onset, nb_awakenings, ave_awakening, total_counts, movement_index, fragmentation_index, sleep_fragmentation_index. Times are ISO 8601 on the recording's local clock (out_bed_time is the first minute after the period); durations in minutes; efficiency and indices in percent, with ActiLife's decimals. Finer epochs are collapsed to 60 s first (ActiLife's rules). A period still open at the end of the recording is dropped, as ActiLife does.

        Examples:
          sleepsta periods day.agd --algorithm tudor-locke --sleep-algorithm sadeh \\
            --bedtime-start 5 --wake-time-end 10 --min-sleep-period 160 \\
            --max-sleep-period 1440 --min-nonzero-epochs 0 --format csv
          sleepsta periods day.agd --sleep-algorithm cole-kripke --min-sleep-period 60

        Exit codes: 0 done (also when no period is found); 1 the file cannot be read; 2 usage error.
        """)

    @Argument(help: ArgumentHelp("Epoch file (.agd, ActiLife CSV …) or raw-sample CSV.", valueName: "file"))
    var file: String

    @Option(name: .long, help: ArgumentHelp("Sleep-period algorithm (only tudor-locke).", valueName: "name"))
    var algorithm: String = "tudor-locke"

    @Option(name: .customLong("sleep-algorithm"), help: ArgumentHelp("Scoring of the minutes: sadeh or cole-kripke.", valueName: "name"))
    var sleepAlgorithm: ScoringAlgorithm = .sadeh

    @Option(name: .long, help: ArgumentHelp("Variant of the sleep algorithm (see `sleepsta score --help`).", valueName: "v"))
    var variant: String?

    @Option(name: .long, help: ArgumentHelp("Cole–Kripke only: Webster's rescoring (webster or pyactigraphy).", valueName: "rules"))
    var rescore: String?

    @Option(name: .customLong("bedtime-start"), parsing: .unconditional, help: ArgumentHelp("Consecutive asleep minutes that start a period.", valueName: "n"))
    package var bedtimeStart: Int = 5

    @Option(name: .customLong("wake-time-end"), parsing: .unconditional, help: ArgumentHelp("Consecutive awake minutes that end a period.", valueName: "n"))
    var wakeTimeEnd: Int = 10

    @Option(name: .customLong("min-sleep-period"), parsing: .unconditional, help: ArgumentHelp("Shortest sleep period in minutes.", valueName: "n"))
    package var minSleepPeriod: Int = 160

    @Option(name: .customLong("max-sleep-period"), parsing: .unconditional, help: ArgumentHelp("Longest sleep period in minutes.", valueName: "n"))
    var maxSleepPeriod: Int = 1440

    @Option(name: .customLong("min-nonzero-epochs"), parsing: .unconditional, help: ArgumentHelp("Fewest minutes with counts > 0 in a period.", valueName: "n"))
    var minNonzeroEpochs: Int = 0

    @Option(name: .long, help: ArgumentHelp("Activity column (default axis1).", valueName: "name"))
    var column: String?

    @OptionGroup var out: EpochOutputOptions

    package func validate() throws {
        guard algorithm.lowercased() == "tudor-locke" else {
            throw ValidationError("--algorithm '\(algorithm)': only tudor-locke is available")
        }
        guard sleepAlgorithm == .sadeh || sleepAlgorithm == .coleKripke else {
            throw ValidationError("--sleep-algorithm '\(sleepAlgorithm)': use sadeh or cole-kripke")
        }
    }

    package func run() throws {
        try EpochCommandSupport.run {
            let parameters = try SleepPeriodsRun.parameters(
                bedtimeStart: bedtimeStart, wakeTimeEnd: wakeTimeEnd, minSleepPeriod: minSleepPeriod,
                maxSleepPeriod: maxSleepPeriod, minNonzeroEpochs: minNonzeroEpochs)
            let result = try SleepPeriodsRun.run(SleepPeriodsRequest(
                path: file, sleepAlgorithm: sleepAlgorithm, variant: variant, rescore: rescore,
                column: column, timeZoneIdentifier: out.zone, parameters: parameters))
            EpochCommandSupport.note(result.notes, quiet: out.quiet)
            try result.writeCSV(toPath: out.output)
        }
    }
}
