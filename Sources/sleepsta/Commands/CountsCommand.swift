import ArgumentParser
import SleepCore
import SleepPipeline
import SleepReport

struct Counts: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Option(name: .long, help: ArgumentHelp("Epoch length, e.g. 5s, 10s, 60s.", valueName: "length"))
    var epoch: String = "60s"

    @Option(name: .long, help: ArgumentHelp("ActiLife filter: normal or lfe (low-frequency extension).", valueName: "filter"))
    var filter: String = "normal"

    @Option(name: .long, help: ArgumentHelp("IANA time zone of the file's clock, e.g. Europe/Berlin.", valueName: "zone"))
    var tz: String?

    @Option(name: .long, help: ArgumentHelp("Output format (only csv).", valueName: "format"))
    var format: String = "csv"

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (whole or not at all) instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(name: .shortAndLong, help: "Do not print notes on stderr.")
    var quiet = false

    func validate() throws {
        try EpochCommandSupport.checkFormat(format)
        _ = try EpochCommandSupport.epochSeconds(epoch)
        guard ["normal", "lfe"].contains(filter.lowercased()) else {
            throw ValidationError("--filter '\(filter)': use normal or lfe")
        }
    }

    func run() throws {
        let request = CountsRequest(path: file, epochSeconds: try EpochCommandSupport.epochSeconds(epoch)!,
                                    trimming: filter.lowercased() == "lfe" ? .lowFrequencyExtension : .normal,
                                    timeZoneIdentifier: tz)
        try EpochCommandSupport.run {
            let result = try ActivityCountsRun.run(request)
            EpochCommandSupport.note(result.notes, quiet: quiet)
            try result.writeCSV(toPath: output)
        }
    }
}
