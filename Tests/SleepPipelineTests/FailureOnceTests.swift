import Foundation
import Testing
import SleepPipeline

/// Issue 14 item 15: a failed file's error is printed once (the summary), not also in the log.
@Suite("Each failed file's error is printed once", .serialized)
struct FailureOnceTests {
    @Test("run and nightly, with and without --quiet: stdout and stderr together hold the error once",
          .enabled(if: SleepstaBinary.path != nil, "sleepsta binary not built"))
    func once() throws {
        for arguments in [["run"], ["run", "--quiet"], ["nightly"], ["nightly", "--quiet"]] {
            let w = Workspace()
            try FileManager.default.createDirectory(atPath: w.reports, withIntermediateDirectories: true)
            w.write("broken.csv", "timestamp,x,y,z\n1718398800,0.1,0.1,0.1\n1718398801,0.1,oops,0.1\n")
            w.write("alex.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start, hours: 7))
            let outcome = try ChildProcess.sleepsta(arguments + ["--data", "Data", "--db", "db.sqlite", "--reports", "Reports", "--tz", "Europe/Berlin"],
                                                    in: w.root, outputPrefix: w.root + "/out").wait()
            #expect(outcome.exitCode == 1, "\(arguments)")
            let both = outcome.stdout + outcome.stderr
            let mentions = both.components(separatedBy: "oops").count - 1
            #expect(mentions == 1, "\(arguments): stdout \(outcome.stdout)\nstderr \(outcome.stderr)")
            #expect(outcome.stdout.contains("failed:") && outcome.stdout.contains("broken.csv"))
        }
    }
}
