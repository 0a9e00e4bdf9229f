import Foundation
import Testing
import SleepCore
import SleepPipeline
import sleepsta

/// `nightly` without options analyses as the researcher last ran: the remembered parameters fill
/// every option it is not given; given options and `--no-diary` win.
@Suite("nightly's remembered options")
struct RememberedOptionsTests {
    static func remembered(diary: String?) -> RunParameters {
        var c = PipelineConfiguration(dataDirectory: "Data", databasePath: "db.sqlite", reportsDirectory: "Reports",
                                      parameters: AnalysisParameters(interval: IntervalLength(seconds: 900)!), timeZoneIdentifier: "Europe/Berlin")
        c.parameters.sleepAlgorithm = .coleKripke
        c.units = .metresPerSecondSquared
        var p = RunParameters(c)
        p.diary = diary
        return p
    }

    @Test("options not given take the remembered values (diary included); given ones and --no-diary win")
    func rememberedFillsTheGaps() throws {
        let dir = NSTemporaryDirectory() + "sleepsta-remembered-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let diary = dir + "/diary.csv"
        try "id,night,in_bed,out_of_bed\nalex,2024-06-14,22:50,07:10\n".write(toFile: diary, atomically: true, encoding: .utf8)
        let r = Self.remembered(diary: diary)

        let plain = try PipelineOptions.parse([]).configuration(command: "nightly", remembered: r)
        #expect(plain.parameters.interval.seconds == 900 && plain.parameters.sleepAlgorithm == .coleKripke)
        #expect(plain.timeZoneIdentifier == "Europe/Berlin" && plain.units == .metresPerSecondSquared)
        #expect(plain.diary?.path == diary && plain.parameters.diaryDigest != nil)

        let given = try PipelineOptions.parse(["--interval", "10m", "--no-diary", "--sleep-algorithm", "auto"]).configuration(command: "nightly", remembered: r)
        #expect(given.parameters.interval.seconds == 600 && given.diary == nil && given.parameters.sleepAlgorithm == nil)

        // `run` is given nothing remembered: the defaults.
        let run = try PipelineOptions.parse([]).configuration(command: "run")
        #expect(run.parameters.interval.seconds == 600 && run.diary == nil && run.timeZoneIdentifier == nil)

        // A remembered diary that is gone: a clear error naming both ways out.
        #expect { try PipelineOptions.parse([]).configuration(command: "nightly", remembered: Self.remembered(diary: dir + "/gone.csv")) } throws: { error in
            "\(error)".contains("--no-diary") && "\(error)".contains("--diary FILE")
        }
        #expect(throws: (any Error).self) { try PipelineOptions.parse(["--diary", diary, "--no-diary"]) }
    }

    @Test("the options given are the remembered parameters nightly does not read from the last run")
    func givenParameters() throws {
        #expect(try PipelineOptions.parse([]).givenParameters.isEmpty)
        #expect(try PipelineOptions.parse(["--interval", "15m", "--no-diary", "--tz", "UTC", "--wake-threshold", "3"]).givenParameters
                == ["interval", "diary", "tz", "wake-threshold"])
        #expect(Set(RememberedParameter.all.map(\.key)) == ["interval", "metric", "wake-threshold", "sleep-algorithm", "method", "kind", "units", "tz", "diary", "participants"])
    }
}

/// Counts from the command line are bounded: a shard count or `--expect` of 10^12 is a usage
/// error, not an allocation of terabytes.
@Suite("Bounded counts")
struct BoundedCountTests {
    @Test("--shard K/N and merge --expect take at most 10 000")
    func bounds() throws {
        #expect(throws: (any Error).self) { try PipelineOptions.parse(["--shard", "1/1000000000000"]) }
        #expect(try PipelineOptions.parse(["--shard", "3/8"]).shard?.count == 8)
        #expect(throws: (any Error).self) { try Merge.parse(["--db", "all.sqlite", "--expect", "1000000000000", "a.sqlite"]) }
        #expect(try Merge.parse(["--db", "all.sqlite", "--expect", "8", "a.sqlite"]).expect == 8)
    }
}
