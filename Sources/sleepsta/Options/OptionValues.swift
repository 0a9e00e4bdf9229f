import ArgumentParser
import SleepCore
import SleepIngest
import SleepPipeline

// Option values as types: argument-parser checks them while parsing (a bad value is a usage error,
// exit 2, naming the option and the values it takes) and `--help` lists the values of every
// closed set. The spellings are the public contract of cron scripts and researchers' notebooks.

extension IntervalLength: ExpressibleByArgument {
    /// `10m`, `15m`, `900s`, `1h`, `90s` (a number with a unit).
    public init?(argument: String) { self.init(parsing: argument) }
}

extension MovementMetric: ExpressibleByArgument {}
extension AccelerationUnits: ExpressibleByArgument {}
extension ScoringAlgorithm: ExpressibleByArgument {}
extension ExportTable: ExpressibleByArgument {}

/// `--kind`: the recording kind for every raw file, or `auto` to decide per file from the data
/// (epoch files are always `epoch-file`).
enum KindOption: String, CaseIterable, ExpressibleByArgument {
    case auto
    case phoneInBed = "phone-in-bed"
    case wearable24h = "wearable-24h"

    var kind: RecordingKind? { RecordingKind(rawValue: rawValue) }
}

/// `--sleep-algorithm` of `run` and `nightly`: `auto` (each method's default) or a
/// ``SleepAlgorithmChoice``.
struct SleepAlgorithmOption: ExpressibleByArgument, Equatable {
    var choice: SleepAlgorithmChoice?

    init(_ choice: SleepAlgorithmChoice?) { self.choice = choice }

    init?(argument: String) {
        if argument == "auto" { choice = nil; return }
        guard let c = SleepAlgorithmChoice(rawValue: argument) else { return nil }
        choice = c
    }

    var defaultValueDescription: String { choice?.rawValue ?? "auto" }
    static var allValueStrings: [String] { ["auto"] + SleepAlgorithmChoice.allCases.map(\.rawValue) }
}

/// `--format` of the commands that write CSV (only csv, in any case).
enum CSVFormatOption: String, CaseIterable, ExpressibleByArgument {
    case csv
    init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

/// `counts --filter`: ActiLife's band-pass filter.
enum CountsFilterOption: String, CaseIterable, ExpressibleByArgument {
    case normal
    /// Low-frequency extension.
    case lfe
    init?(argument: String) { self.init(rawValue: argument.lowercased()) }

    var trimming: ActiGraphCounts.Trimming { self == .lfe ? .lowFrequencyExtension : .normal }
}

/// What `score`, `periods` and `counts` share: the file's clock, where the CSV goes, and notes.
package struct EpochOutputOptions: ParsableArguments {
    package init() {}

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Time zone of the file's local clock: an IANA name (Europe/Berlin, with its DST rules) or a fixed UTC offset (+01:00, -05:30, UTC+1: no DST). Times then carry offsets.", valueName: "zone"))
    var tz: String?

    @Option(name: .long, help: ArgumentHelp("Output format (only csv).", valueName: "format"))
    var format: CSVFormatOption = .csv

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (whole or not at all) instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(name: .shortAndLong, help: "Do not print notes on stderr.")
    var quiet = false

    package func validate() throws { _ = try ZoneOption.zone(tz) }

    /// `--tz` as the readers take it (a fixed offset in its one spelling, `UTC+01:00`).
    package var zone: String? { try? ZoneOption.zone(tz) }
}

/// `--tz`: an IANA zone name or a fixed UTC offset, in the spelling a run stores
/// (``ZoneTimeline/optionZone(_:)``); anything else is a usage error naming the nearest real zones.
enum ZoneOption {
    static func zone(_ text: String?, option: String = "--tz") throws -> String? {
        guard let text else { return nil }
        do { return try ZoneTimeline.optionZone(text) } catch { throw ValidationError("\(option): \(error)") }
    }

    /// The help of every `--tz` that places recordings stating no zone.
    static let help = "Time zone of recordings that do not state one: an IANA name (Europe/Berlin, with its DST rules) or a fixed UTC offset (+01:00, -05:30, +0100, UTC+1, GMT-3: one offset, no DST)"
}

extension Shard: ExpressibleByArgument {
    /// `K/N` with 1 ≤ K ≤ N, e.g. `3/8`.
    public init?(argument: String) { self.init(parsing: argument) }
}

/// `--method`: the wearable night method (sleepsta or ggir).
extension NightMethodChoice: ExpressibleByArgument {}

/// The checks of numeric options. Their values are parsed unconditionally (`parsing:
/// .unconditional`), so `-1` reaches the check and gets its reason instead of argument-parser's
/// "Missing value" (it would take `-1` for an option).
enum NumberOption {
    /// `--wake-threshold` of `run`, `nightly` and `compare`: a positive multiple of the night's
    /// median epoch movement.
    static func checkWakeThreshold(_ value: Double) throws {
        guard value > 0, value.isFinite else {
            throw ValidationError("--wake-threshold \(text(value)): must be a number above 0: the multiple of the night's median epoch movement above which an epoch is awake (default \(text(AnalysisParameters().wakeThresholdFactor)))")
        }
    }

    /// `-1` rather than `-1.0`.
    static func text(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
