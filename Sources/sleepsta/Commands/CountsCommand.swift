import ArgumentParser
import SleepCore
import SleepPipeline
import SleepReport

package struct Counts: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "ActiGraph activity counts per epoch from raw acceleration (bit-exact with ActiLife).",
        discussion: """
        Prints one CSV row per epoch: start, axis1, axis2, axis3 (ActiLife's order: axis1 is the device Y axis, axis2 X, axis3 Z) and vm = √(axis1² + axis2² + axis3²), unrounded.

        FILE: raw samples (timestamp,x,y,z in g, evenly sampled at 30–100 Hz by 10 or 32/64/128/256 Hz); epochs start at the first sample and a trailing partial epoch is dropped, as in ActiLife. An epoch file with axis counts (.agd, ActiLife CSV) prints its own counts, collapsed to --epoch.

        Examples:
          sleepsta counts raw_100hz.csv --epoch 5s --format csv
          sleepsta counts night.csv --epoch 60s --filter lfe --format csv
          sleepsta counts example5sec.agd --epoch 5s --format csv

        Exit codes: 0 done; 1 the file cannot be read or has no usable samples; 2 usage error.
        """)

    @Argument(help: ArgumentHelp("Raw-sample CSV (or an epoch file with axis counts).", valueName: "file"))
    var file: String

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Epoch length, e.g. 5s, 10s, 60s.", valueName: "length"))
    var epoch: IntervalLength = IntervalLength(seconds: 60)!

    @Option(name: .long, help: ArgumentHelp("ActiLife filter: normal or lfe (low-frequency extension).", valueName: "filter"))
    var filter: CountsFilterOption = .normal

    @OptionGroup var out: EpochOutputOptions

    package func run() throws {
        let request = CountsRequest(path: file, epochSeconds: epoch.seconds, trimming: filter.trimming, timeZoneIdentifier: out.zone)
        try EpochCommandSupport.run {
            let result = try ActivityCountsRun.run(request)
            EpochCommandSupport.note(result.notes, quiet: out.quiet)
            try result.writeCSV(toPath: out.output)
        }
    }
}
