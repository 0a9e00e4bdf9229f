import ArgumentParser
import Logging
import SleepCore
import SleepPipeline
import SleepIngest

/// The options `run` and `nightly` share: folders, analysis parameters, log level.
package struct PipelineOptions: ParsableArguments {
    package init() {}

    @Option(name: .long, help: ArgumentHelp("Study file (TOML) holding the protocol: data folder, zone, participants, diary, method, interval, files to ignore; options given here override its keys. Without it, sleepsta.toml at the data folder's root is read when present (docs/study-file.md).", valueName: "file"))
    var study: String?

    @Option(name: .customLong("data"), help: ArgumentHelp("Folder of recordings (searched recursively; default: Data).", valueName: "dir"))
    var dataOption: String?

    @Option(name: .customLong("db"), help: ArgumentHelp("SQLite database to create or update (default: Data/sleepsta.sqlite).", valueName: "file"))
    var dbOption: String?

    @Option(name: .customLong("reports"), help: ArgumentHelp("Folder for index.html and one folder per night (default: Reports).", valueName: "dir"))
    var reportsOption: String?

    @Option(name: .long, help: ArgumentHelp("A glob of files under the data folder that are not recordings, e.g. '*.pdf' or 'old/*' (repeatable; a pattern without / matches a file or folder name anywhere).", valueName: "glob"))
    var ignore: [String] = []

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Interval length for movement totals, states and metrics: 10m, 15m, 5m, 30m, 1h, 90s (default: 10m; nightly: the last run's).", valueName: "length"))
    var interval: IntervalLength?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(ZoneOption.help + "; a zone a file states wins (a warning names both when they disagree). Nights run noon to noon on this clock.", valueName: "zone"))
    var tz: String?

    @Option(name: .long, help: ArgumentHelp("Per-sample movement formula of phone recordings: mean-abs-axis ((|x|+|y|+|z|)/3, default) or legacy-app (the original app's |x|+|y|+|z|/3).", valueName: "metric"))
    var metric: MovementMetric?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Wake threshold of phone nights as a multiple of the night's median epoch movement (default: \(AnalysisParameters().wakeThresholdFactor)).", valueName: "factor"))
    package var wakeThreshold: Double?

    @Option(name: .long, help: ArgumentHelp("Recording kind, which picks the night method: auto (decide per file from the data), phone-in-bed (a phone on the mattress) or wearable-24h (a device with gravity worn day and night). Default: auto.", valueName: "kind"))
    var kind: KindOption?

    @Option(name: .long, help: ArgumentHelp("Sleep/wake inside the sleep period: auto (each method's default: vanhees2015 for wearables, cole-kripke for ActiGraph-count epoch files), vanhees2015 (angle-z, 5° / 5 min), cole-kripke or sadeh (ActiLife's, on axis-1 counts per minute; for wearables the counts are computed from the raw samples as ActiLife does). Phones and Actiwatch counts keep their own scorer. Default: auto.", valueName: "name"))
    var sleepAlgorithm: SleepAlgorithmOption?

    @Option(name: .long, help: ArgumentHelp("Wrist (wearable-24h) night method: sleepsta (the default: GGIR's chain, but still sleep on a worn wrist is kept as sleep and a device laid down is told apart by its angle) or ggir (GGIR 3.3-6's defaults reproduced for numbers a paper must match: its 2023 non-wear rule, invalid epochs imputed from the other days, its night inclusion; docs/methods.md lists what differs). Other kinds keep their method. Default: sleepsta.", valueName: "name"))
    var method: NightMethodChoice?

    @Option(name: .long, help: ArgumentHelp("Acceleration unit of raw timestamp,x,y,z CSVs, which state none: auto (from the data: gravity, else the noise floor; default), g or m/s2.", valueName: "unit"))
    var units: AccelerationUnits?

    @Option(name: .long, help: ArgumentHelp("Sleep diary CSV (header id,night,in_bed,out_of_bed[,type]; local clock times): its rows set time in bed of their nights, as GGIR's sleeplog does. Rows that cannot be used are reported by row; the rest apply. nightly reuses the last run's diary unless given --no-diary.", valueName: "file"))
    var diary: String?

    @Flag(name: .long, help: "No sleep diary, also where the last run had one (nightly reuses the remembered parameters otherwise).")
    var noDiary = false

    @Option(name: .long, help: ArgumentHelp("Who each recording belongs to, for the index's participant table, the participant pages and export --what participants: file (each recording file, default), folder (the first folder under --data: p07/night1.cwa is participant p07), folder:N, or a CSV with the header id,group,path (group optional; path a file or folder under --data). nightly and render reuse the last run's.", valueName: "rule|file"))
    var participants: String?

    @Flag(name: .long, help: "Remove stored recordings whose file is no longer in the data folder, with their nights and report pages (without it they are kept, and the summary lists them).")
    var prune = false

    @Flag(name: .long, help: "Hash every file's content, even one whose size, times and inode match the stored recording (without it such a file is taken for unchanged without reading it; docs/operations.md).")
    var rehash = false

    @Option(name: .long, help: ArgumentHelp("Process only shard K of N of the data folder's files (1 ≤ K ≤ N ≤ 10000), each shard into its own --db; files are dealt to shards by size, deterministically (docs/scale-out.md). Merge the shards with sleepsta merge.", valueName: "K/N"))
    package var shard: Shard?

    @Flag(name: .shortAndLong, help: "Log every file and night (debug level) to stderr.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Log nothing but errors (the default for nightly when stderr is not a terminal, as under cron).")
    var quiet = false

    var data: String { dataOption ?? "Data" }
    var db: String { dbOption ?? "Data/sleepsta.sqlite" }
    var reports: String { reportsOption ?? "Reports" }

    package func validate() throws {
        if let wakeThreshold { try NumberOption.checkWakeThreshold(wakeThreshold) }
        _ = try ZoneOption.zone(tz)
        guard !(noDiary && diary != nil) else { throw ValidationError("--diary and --no-diary exclude each other") }
        guard !(verbose && quiet) else { throw ValidationError("--verbose and --quiet exclude each other") }
    }

    /// The remembered parameters the command line gives (``RememberedParameter/key``): nightly
    /// does not read them from the last run's row, so giving an option overrides a remembered
    /// value that cannot be used.
    package var givenParameters: Set<String> {
        let given: [(String, Bool)] = [
            ("interval", interval != nil), ("metric", metric != nil), ("wake-threshold", wakeThreshold != nil),
            ("sleep-algorithm", sleepAlgorithm != nil), ("method", method != nil), ("kind", kind != nil), ("units", units != nil),
            ("tz", tz != nil), ("diary", diary != nil || noDiary), ("participants", participants != nil),
        ]
        return Set(given.filter { $0.1 }.map { $0.0 })
    }

    /// The run's configuration. An option not given takes its default, or under `nightly`
    /// (`remembered`) the value of the last finished run (``RunParameters``): a cron line without
    /// options keeps analysing as the researcher last ran it, the diary included.
    package func configuration(command: String, remembered: RunParameters? = nil) throws -> PipelineConfiguration {
        let r = remembered
        var p = AnalysisParameters()
        p.interval = interval ?? r?.analysis.interval ?? p.interval
        p.metric = metric ?? r?.analysis.metric ?? p.metric
        p.wakeThresholdFactor = wakeThreshold ?? r?.analysis.wakeThresholdFactor ?? p.wakeThresholdFactor
        p.sleepAlgorithm = sleepAlgorithm.map(\.choice) ?? r?.analysis.sleepAlgorithm
        p.nightMethod = (method ?? r?.analysis.nightMethod).flatMap { $0 == .sleepsta ? nil : $0 }
        var c = PipelineConfiguration(dataDirectory: data, databasePath: db, reportsDirectory: reports,
                                      parameters: p, timeZoneIdentifier: try ZoneOption.zone(tz) ?? r?.timeZone, command: command)
        c.kindOverride = kind.map(\.kind) ?? r?.kind.flatMap(RecordingKind.init(rawValue:))
        c.units = units ?? r.flatMap { AccelerationUnits(rawValue: $0.units) } ?? .auto
        c.prune = prune
        c.rehash = rehash
        if let path = noDiary ? nil : (diary ?? r?.diary) {
            do { c.diary = try SleepDiary.read(path: path) } catch {
                throw ValidationError(diary == nil
                    ? "the last run's sleep diary cannot be read (\(error)); give --diary FILE, or --no-diary to run without one"
                    : "--diary: \(error)")
            }
        }
        if let spec = participants ?? r?.participants {
            do { c.participants = try ParticipantOption.rule(spec) } catch {
                throw ValidationError(participants == nil
                    ? "the last run's participants (\(spec)) cannot be used (\(error)); give --participants again"
                    : "--participants: \(error)")
            }
            c.participantsOption = spec
        }
        c.shard = shard
        // The study's own files sit among the recordings in many folders: they are not recordings.
        let own = [study, noDiary ? nil : (diary ?? r?.diary), participants ?? r?.participants].compactMap { $0 }
        c.ignored = IgnorePatterns(globs: ignore.isEmpty ? (r?.ignore ?? []) : ignore,
                                   paths: Set(own.compactMap { IgnorePatterns.relativePath(of: $0, inside: data) }))
        return c
    }

    /// `--verbose`: debug; `--quiet`: errors; otherwise notices, or errors when `quietByDefault`.
    func logLevel(quietByDefault: Bool) -> Logger.Level {
        verbose ? .debug : (quiet || quietByDefault ? .error : .notice)
    }
}
