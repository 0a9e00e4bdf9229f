import ArgumentParser
import Foundation
import SleepstaWorkloads

/// `sleepsta-bench`: the performance benchmark behind `make bench` (docs/performance.md).
@main
struct SleepstaBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleepsta-bench",
        abstract: "Benchmark sleepsta stage by stage and side by side with the Python peers.",
        discussion: """
        make bench runs `sleepsta-bench all`. The other subcommands are its parts:
          sleepsta-bench generate --work bench-work        (the workloads, deterministic)
          sleepsta-bench scenarios --work hard-cases       (still sleepers, nightstand, table, shower; CSV and .cwa; .bin, .gt3x)
          sleepsta-bench stage ingest --file F --threads 2  (one stage, in this process; prints JSON)
          sleepsta-bench columnar --python .venv-peers/bin/python  (only sleepsta vs polars and DuckDB, 24 h file)
          sleepsta-bench cwa-decoder --python .venv-peers/bin/python --file F.cwa  (only the .cwa decoder vs actfast)
          sleepsta-bench shiftworker --schedule night --seed 1 --write shift  (a shift worker's week and the truth of every sleep)
          sleepsta-bench fuzz --target agd|diary --runs 1000000  (hostile input for the .agd reader and the diary; make fuzz)
        """,
        subcommands: [All.self, Generate.self, Scenarios.self, Sleepers.self, ShiftWorkerCommand.self, Stage.self, Columnar.self, CWADecoder.self, Fuzz.self])
}

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write the benchmark workloads (fixed seeds) into --work.")

    @Option(help: "Folder for the workloads.") var work = "bench-work"
    @Option(help: "Days of the 100 Hz wearable CSV.") var days: Double = 7
    @Flag(help: "Also write the gzip copy.") var gzip = false
    @Flag(help: "Also write the same signal as an Axivity .cwa (binary).") var cwa = false
    @Flag(help: "Write only the .cwa, no CSV (the Slurm test's cohort).") var onlyCwa = false

    func run() throws {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let name = Workloads.wearableName(days: days)
        let start = Stopwatch.now()
        if !onlyCwa {
            let rows = try WearableCSVGenerator(days: days).write(to: "\(work)/\(name).csv", gzipPath: gzip ? "\(work)/\(name).csv.gz" : nil)
            print("\(work)/\(name).csv: \(rows) rows in \(String(format: "%.1f", Stopwatch.now() - start)) s")
        }
        if cwa || onlyCwa {
            let samples = try WearableCWAGenerator(signal: WearableCSVGenerator(days: days)).write(to: "\(work)/\(name).cwa")
            print("\(work)/\(name).cwa: \(samples) samples")
        }
    }
}

struct Scenarios: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the wearable method's hard cases: still sleepers, a nightstand, a table, a shower, a day sleeper, DST nights.",
        discussion: """
        Five days of a wrist worn day and night from 2024-06-14 (Europe/Berlin: read the files with \
        --tz Europe/Berlin), the benchmark's script with these events: a sleeper who does not turn \
        for 3 h at the start of the first night and in the middle of the second, the device laid on \
        a nightstand on its side from 02:00 to 07:30 of the third, a table afternoon, a 20-min \
        shower, a day sleeper (up all the fourth night, asleep 04:30-12:30), a short last day. Four \
        files: CSV (10 Hz) and .cwa (100 Hz), each without and with a temperature channel (the CSV \
        then in a device export's layout, local time and a temperature column). Prints each \
        event's local times and each night's scripted onset, wake and sleep minutes. Also two .cwa \
        files of 4 days over a change of the clocks (dst-autumn: a 25-h night from 2024-10-26; \
        dst-spring: a 23-h night from 2024-03-30). And the benchmark's plain wrist signal over 4 \
        days as a GENEActiv .bin (50 Hz) and an ActiGraph .gt3x (30 Hz): wrist-3day.bin, wrist-3day.gt3x.
        """)

    @Option(help: "Folder for the files.") var work = "hard-cases"
    @Option(help: "Rate of the CSVs (Hz; divides 100).") var rate = 10
    @Option(help: "Seed of the script.") var seed: UInt64 = 29

    func run() throws {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        for temperature in [false, true] {
            var g = WearableCSVGenerator(days: WearableEvent.hardCaseDays, rateHz: rate, events: WearableEvent.hardCases, temperature: temperature)
            g.seed = seed
            let suffix = temperature ? "-temperature" : ""
            let rows = try g.write(to: "\(work)/hard-cases\(suffix).csv")
            var c = g
            c.rateHz = 100
            let samples = try WearableCWAGenerator(signal: c).write(to: "\(work)/hard-cases\(suffix).cwa")
            print("\(work)/hard-cases\(suffix).csv: \(rows) rows; \(work)/hard-cases\(suffix).cwa: \(samples) samples")
        }
        for (name, clocks) in [("dst-autumn", WearableCSVGenerator.autumnClockChange(rateHz: 100)),
                               ("dst-spring", WearableCSVGenerator.springClockChange(rateHz: 100))] {
            let samples = try WearableCWAGenerator(signal: clocks).write(to: "\(work)/\(name).cwa")
            print("\(work)/\(name).cwa: \(samples) samples (4 days over a change of the clocks, Europe/Berlin)")
        }
        // The benchmark's plain wrist signal (as in its 7-day file) as the other devices GGIR reads.
        let plain = WearableCSVGenerator(days: 4)
        let bin = try WearableGENEActivGenerator(signal: plain).write(to: "\(work)/wrist-3day.bin")
        print("\(work)/wrist-3day.bin: \(bin) samples (GENEActiv, 50 Hz, 4 days)")
        let gt3x = try WearableGT3XGenerator(signal: plain).write(to: "\(work)/wrist-3day.gt3x")
        print("\(work)/wrist-3day.gt3x: \(gt3x) samples (ActiGraph wGT3X-BT, 30 Hz, 4 days)")
        var g = WearableCSVGenerator(days: WearableEvent.hardCaseDays, events: WearableEvent.hardCases)
        g.seed = seed
        func local(_ utc: Int64) -> String { String(WearableCSVGenerator.localTime(utc + g.scriptOffsetSeconds).map { Character(UnicodeScalar($0)) }.prefix(16)) }
        for (event, span) in zip(g.events, g.eventSpansUTC()) { print("event: \(local(span.from)) to \(local(span.to)): \(event.label)") }
        for n in g.truth() { print("night: onset \(local(n.onsetUTC)), wake \(local(n.wakeUTC)), \(n.sleepMinutes) min asleep (the script)") }
    }
}

struct Stage: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run one stage in this process and print its result as JSON (one object per line).")

    @Argument(help: "parse | ingest | ingest-serial | ingest-file | decode-cwa | accumulate | counts | score | store")
    var name: String
    @Option(help: "Input file.") var file = ""
    @Option(help: "Cores to use.") var threads = 1
    @Option(help: "Untimed runs first.") var warmUp = 1
    @Option(help: "Timed runs.") var repeats = 3
    @Option(help: "Write what the stage computed here (prefix), for agreement checks.") var output: String?
    @Option(help: "IANA time zone for the readers.") var tz: String?
    @Option(help: "Database path (store stage).") var db: String?

    func run() throws {
        let o = StageOptions(file: file, threads: threads, warmUp: warmUp, repeats: repeats, output: output, timeZone: tz)
        let results: [StageResult]
        switch name {
        case "parse": results = [try IngestStages.parse(o)]
        case "ingest": results = [try IngestStages.ingestParallel(o)]
        case "ingest-serial": results = [try IngestStages.ingestSerial(o)]
        case "ingest-file": results = [try IngestStages.ingestFile(o)]
        case "decode-cwa": results = [try CWADecodeStage.run(o)]
        case "accumulate": results = try IngestStages.accumulate(o)
        case "counts": results = [try EpochStages.counts(o)]
        case "score": results = [try EpochStages.score(o)]
        case "store":
            guard let db else { throw ValidationError("store needs --db") }
            results = try NightLibrary.stages(o, database: db)
        default: throw ValidationError("unknown stage \(name)")
        }
        for r in results { print(r.json()) }
    }
}

struct Sleepers: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The wearable method over the family of generated sleepers (SleeperFamily), beside GGIR's chain with its 2013 rule and GGIR's defaults.",
        discussion: """
        Every sleep model (script, wander, turns, hourly-turns, breathing) with --seeds seeds, and \
        the first seed again with a temperature channel; each recording has devices laid down at \
        night and in the day. Prints per model and method how many nights lie within 15/15/30 min \
        and 30/30/45 min of the truth (onset/wake/TST) and the minutes scored asleep while laid down.
        """)
    @Option(help: "Seeds per model.") var seeds = 3
    @Flag(help: "Print every night.") var verbose = false
    @Option(help: "Also write each recording as a CSV (10 Hz; read with --tz Europe/Berlin) into this folder, for GGIR or sleepsta's pipeline.")
    var write: String?

    func run() throws {
        if let write {
            try FileManager.default.createDirectory(atPath: write, withIntermediateDirectories: true)
            for m in SleeperFamily.members(seeds: Array(1...UInt64(max(1, seeds)))) {
                let name = "\(write)/sleeper-\(m.model)-seed\(m.seed)\(m.temperature ? "-temperature" : "").csv"
                try m.generator.write(to: name)
                print("\(name): \(m)")
            }
        }
        let table = try SleeperTable.make(seeds: Array(1...UInt64(max(1, seeds))), verbose: verbose)
        print(table.text)
    }
}
