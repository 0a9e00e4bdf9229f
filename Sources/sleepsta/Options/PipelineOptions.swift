import ArgumentParser
import Logging
import SleepCore
import SleepPipeline
import SleepIngest

/// The options `run` and `nightly` share: folders, analysis parameters, log level.
struct PipelineOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Folder of recordings (searched recursively).", valueName: "dir"))
    var data: String = "Data"

    @Option(name: .long, help: ArgumentHelp("SQLite database to create or update.", valueName: "file"))
    var db: String = "Data/sleepsta.sqlite"

    @Option(name: .long, help: ArgumentHelp("Folder for index.html and one folder per night.", valueName: "dir"))
    var reports: String = "Reports"

    @Option(name: .long, help: ArgumentHelp("Interval length for movement totals, states and metrics: 10m, 15m, 5m, 30m, 1h, 90s.", valueName: "length"))
    var interval: IntervalLength = .tenMinutes

    @Option(name: .long, help: ArgumentHelp("IANA time zone of recordings that do not state one, e.g. Europe/Berlin. Nights run noon to noon on this clock.", valueName: "zone"))
    var tz: String?

    @Option(name: .long, help: ArgumentHelp("Per-sample movement formula: mean-abs-axis ((|x|+|y|+|z|)/3, default) or legacy-app (the original app's |x|+|y|+|z|/3).", valueName: "metric"))
    var metric: MovementMetric = .meanAbsoluteAxis

    @Option(name: .long, help: ArgumentHelp("Wake threshold as a multiple of the night's median epoch movement.", valueName: "factor"))
    var wakeThreshold: Double = AnalysisParameters().wakeThresholdFactor

    @Option(name: .long, help: ArgumentHelp("Recording kind, which picks the night method: auto (decide per file from the data), phone-in-bed (a phone on the mattress) or wearable-24h (a device with gravity worn day and night).", valueName: "kind"))
    var kind: KindOption = .auto

    @Option(name: .long, help: ArgumentHelp("Sleep/wake inside the sleep period: auto (each method's default: vanhees2015 for wearables, cole-kripke for ActiGraph-count epoch files), vanhees2015 (angle-z, 5° / 5 min), cole-kripke or sadeh (ActiLife's, on axis-1 counts per minute; for wearables the counts are computed from the raw samples as ActiLife does). Phones and Actiwatch counts keep their own scorer.", valueName: "name"))
    var sleepAlgorithm = SleepAlgorithmOption(nil)

    @Option(name: .long, help: ArgumentHelp("Acceleration unit of raw timestamp,x,y,z CSVs, which state none: auto (from the data: gravity, else the noise floor), g or m/s2.", valueName: "unit"))
    var units: AccelerationUnits = .auto

    @Option(name: .long, help: ArgumentHelp("Sleep diary CSV (header id,night,in_bed,out_of_bed[,type]; local clock times): its rows set time in bed of their nights, as GGIR's sleeplog does. Rows that cannot be used are reported by row; the rest apply.", valueName: "file"))
    var diary: String?

    @Flag(name: .long, help: "Remove stored recordings whose file is no longer in the data folder, with their nights and report pages (without it they are kept, and the summary lists them).")
    var prune = false

    @Flag(name: .long, help: "Hash every file's content, even one whose size, times and inode match the stored recording (without it such a file is taken for unchanged without reading it; docs/operations.md).")
    var rehash = false

    @Option(name: .long, help: ArgumentHelp("Process only shard K of N of the data folder's files (1 ≤ K ≤ N), each shard into its own --db; files are dealt to shards by size, deterministically (docs/scale-out.md). Merge the shards with sleepsta merge.", valueName: "K/N"))
    var shard: Shard?

    @Flag(name: .shortAndLong, help: "Log every file and night (debug level) to stderr.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Log nothing but errors (the default for nightly when stderr is not a terminal, as under cron).")
    var quiet = false

    func validate() throws {
        guard wakeThreshold > 0, wakeThreshold.isFinite else { throw ValidationError("--wake-threshold must be a positive number") }
        guard !(verbose && quiet) else { throw ValidationError("--verbose and --quiet exclude each other") }
    }

    var parameters: AnalysisParameters {
        var p = AnalysisParameters()
        p.interval = interval
        p.metric = metric
        p.wakeThresholdFactor = wakeThreshold
        p.sleepAlgorithm = sleepAlgorithm.choice
        return p
    }

    func configuration(command: String) throws -> PipelineConfiguration {
        var c = PipelineConfiguration(dataDirectory: data, databasePath: db, reportsDirectory: reports,
                                      parameters: parameters, timeZoneIdentifier: tz, command: command)
        c.kindOverride = kind.kind
        c.units = units
        c.prune = prune
        c.rehash = rehash
        if let diary {
            do { c.diary = try SleepDiary.read(path: diary) } catch { throw ValidationError("--diary: \(error)") }
        }
        c.shard = shard
        return c
    }

    /// `--verbose`: debug; `--quiet`: errors; otherwise notices, or errors when `quietByDefault`.
    func logLevel(quietByDefault: Bool) -> Logger.Level {
        verbose ? .debug : (quiet || quietByDefault ? .error : .notice)
    }
}
