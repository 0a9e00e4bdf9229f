import ArgumentParser
import Foundation
import Testing
import SleepCore
import SleepPipeline
import sleepsta

/// Numbers below zero reach the option's own check (argument-parser would take `-1` for an option
/// and answer "Missing value"), and `--tz` takes fixed offsets and suggests the zone a typo meant.
@Suite("Option values: negative numbers and time zones")
struct OptionValueTests {
    /// The message a command line gets from argument-parser (what `sleepsta` prints before exit 2).
    static func message<C: ParsableArguments>(_ type: C.Type, _ arguments: [String]) -> String {
        do { _ = try type.parse(arguments); return "parsed" } catch { return type.message(for: error) }
    }

    @Test("--wake-threshold -1 (and =-1) is refused with its reason, by run, nightly and compare")
    func negativeWakeThreshold() throws {
        for arguments in [["--wake-threshold", "-1"], ["--wake-threshold=-1"], ["--wake-threshold", "0"], ["--wake-threshold", "-0.5"]] {
            let text = Self.message(PipelineOptions.self, arguments)
            #expect(!text.contains("Missing value"), "\(arguments): \(text)")
            #expect(text.contains("must be a number above 0: the multiple of the night's median epoch movement"), "\(arguments): \(text)")
        }
        #expect(Self.message(PipelineOptions.self, ["--wake-threshold", "-1"]).hasPrefix("--wake-threshold -1: must be a number above 0"))
        #expect(Self.message(PipelineOptions.self, ["--wake-threshold", "-0.5"]).hasPrefix("--wake-threshold -0.5: "))
        #expect(try PipelineOptions.parse(["--wake-threshold", "2.5"]).wakeThreshold == 2.5)
        let compare = Self.message(sleepsta.Compare.self, ["--intervals", "10m,15m", "--wake-threshold", "-1"])
        #expect(compare.hasPrefix("--wake-threshold -1: must be a number above 0"), "\(compare)")
        // An option after it is taken as its value, and named as not a number.
        #expect(Self.message(PipelineOptions.self, ["--wake-threshold", "--verbose"]).contains("'--verbose' is invalid for '--wake-threshold"))
    }

    @Test("every numeric option takes a negative number to its check: periods, score, slurm, merge, lengths")
    func otherNegativeNumbers() throws {
        let periods = try Periods.parse(["day.agd", "--bedtime-start", "-1", "--min-sleep-period", "-5"])
        #expect(periods.bedtimeStart == -1 && periods.minSleepPeriod == -5)
        #expect { try SleepPeriodsRun.parameters(bedtimeStart: -1, wakeTimeEnd: 10, minSleepPeriod: 160, maxSleepPeriod: 1440, minNonzeroEpochs: 0) }
            throws: { "\($0)" == "--bedtime-start -1: must be at least 1 minute" }
        for option in ["--wake-time-end", "--max-sleep-period", "--min-nonzero-epochs"] {
            #expect(throws: Never.self, "\(option)") { _ = try Periods.parse(["day.agd", option, "-3"]) }
        }
        #expect { try SleepPeriodsRun.parameters(bedtimeStart: 5, wakeTimeEnd: 10, minSleepPeriod: 160, maxSleepPeriod: 1440, minNonzeroEpochs: -3) }
            throws: { "\($0)" == "--min-nonzero-epochs -3: must be 0 or more" }
        let score = try Score.parse(["rpx.csv", "--algorithm", "oakley", "--wake-threshold", "-1"])
        #expect(score.threshold == "-1")
        #expect { try EpochScoring.oakleyThreshold("-1") } throws: { "\($0)".contains("--wake-threshold '-1': expected counts of 0 or more") }
        let slurm = Self.message(Slurm.self, ["--data", "d", "--work", "w", "--shards", "-2"])
        #expect(slurm.hasPrefix("--shards -2: expected 1 to"), "\(slurm)")
        let cpus = Self.message(Slurm.self, ["--data", "d", "--work", "w", "--shards", "2", "--cpus-per-task", "-1"])
        #expect(cpus == "--cpus-per-task -1: must be at least 1", "\(cpus)")
        let merge = Self.message(Merge.self, ["--db", "all.sqlite", "--expect", "-4", "a.sqlite"])
        #expect(merge.hasPrefix("--expect -4: must be 1 to"), "\(merge)")
        // Lengths: a negative one is named as a value the option does not take.
        for (type, arguments): (any ParsableArguments.Type, [String]) in [(PipelineOptions.self, ["--interval", "-10m"]),
                                                                         (Score.self, ["f.csv", "--algorithm", "sadeh", "--epoch", "-60s"]),
                                                                         (Counts.self, ["f.csv", "--epoch", "-60s"])] {
            let text: String
            do { _ = try type.parse(arguments); text = "parsed" } catch { text = type.message(for: error) }
            #expect(text.contains("is invalid for '--") && !text.contains("Missing value"), "\(arguments): \(text)")
        }
    }

    @Test("--tz takes fixed offsets in one stored spelling; typos get the nearest zone")
    func timeZones() throws {
        for (given, stored) in [("+01:00", "UTC+01:00"), ("-05:30", "UTC-05:30"), ("+0100", "UTC+01:00"), ("UTC+1", "UTC+01:00"),
                                ("GMT-3", "UTC-03:00"), ("Europe/Berlin", "Europe/Berlin")] {
            #expect(try PipelineOptions.parse(["--tz", given]).configuration(command: "run").timeZoneIdentifier == stored, "\(given)")
            #expect(try Score.parse(["f.csv", "--algorithm", "sadeh", "--tz", given]).out.zone == stored, "\(given)")
            #expect(try Inspect.parse(["f.csv", "--tz", given]).tz == given, "\(given)")
        }
        for (typo, meant) in [("Europe/Berln", "Europe/Berlin"), ("europe/berlin", "Europe/Berlin"), ("Berlin", "Europe/Berlin")] {
            for text in [Self.message(PipelineOptions.self, ["--tz", typo]), Self.message(Score.self, ["f.csv", "--algorithm", "sadeh", "--tz", typo]),
                         Self.message(Inspect.self, ["f.csv", "--tz", typo]), Self.message(Slurm.self, ["--data", "d", "--work", "w", "--shards", "2", "--tz", typo])] {
                #expect(text.hasPrefix("--tz: unknown time zone '\(typo)' (did you mean \(meant)?): expected an IANA name"), "\(text)")
            }
        }
        #expect(Self.message(PipelineOptions.self, ["--tz", "+15:00"]).contains("fixed UTC offset such as +01:00"))
        // The help says what a fixed offset means.
        let help = PipelineOptions.helpMessage(columns: 200).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("fixed UTC offset (+01:00, -05:30, +0100, UTC+1, GMT-3: one offset, no DST)"))
        #expect(Self.message(PipelineOptions.self, ["--tz", "Europe/Berlin\n2024 forged line"]).contains("unknown time zone 'Europe/Berlin\\n2024 forged line'"))
        // Slurm passes the stored spelling on to every run.
        let slurm = try Slurm.parse(["--data", "d", "--work", "w", "--shards", "2", "--tz", "+0100"])
        #expect(slurm.script(binary: "sleepsta").runOptions.contains("UTC+01:00"))
    }
}
