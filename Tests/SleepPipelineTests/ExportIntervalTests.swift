import Foundation
import Testing
import SleepCore
import SleepPipeline
import SleepStore

/// Issue 14 item 14: `export --interval` of a length never analysed says so and fails.
@Suite("export --interval of a length not analysed", .serialized)
struct ExportIntervalTests {
    @Test("the exporter names the stored lengths and how to derive the missing one, and writes no file")
    func exporterRefuses() throws {
        let w = Workspace()
        w.write("alex.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start, hours: 7))
        _ = try w.run()
        _ = try w.run(interval: .fifteenMinutes)
        let out = w.root + "/x.csv"
        let twenty = try #require(IntervalLength(parsing: "20m"))
        do {
            try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .intervals, interval: twenty, outputPath: out)).run()
            Issue.record("export of a length never analysed succeeded")
        } catch let error as PipelineError {
            let text = error.description
            #expect(text.contains("no analysis with 20m intervals is stored (stored: 10m, 15m)"), "\(text)")
            #expect(text.contains("sleepsta run --interval 20m"))
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        // A stored length still exports.
        #expect(try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .nights, interval: .fifteenMinutes, outputPath: out)).run() == 1)
    }

    @Test("the command exits nonzero with one line on stderr and nothing on stdout", .enabled(if: SleepstaBinary.path != nil, "sleepsta binary not built"))
    func commandExitsNonzero() throws {
        let w = Workspace()
        w.write("alex.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start, hours: 7))
        _ = try w.run()
        let outcome = try ChildProcess.sleepsta(["export", "--what", "nights", "--interval", "20m", "--db", w.db], in: w.root,
                                                outputPrefix: w.root + "/export").wait()
        #expect(outcome.exitCode == 2)
        #expect(outcome.stdout.isEmpty, "no header without rows: \(outcome.stdout)")
        #expect(outcome.stderr.contains("no analysis with 20m intervals is stored (stored: 10m)"), "\(outcome.stderr)")
    }
}
