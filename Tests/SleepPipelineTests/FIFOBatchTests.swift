#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import SleepPipeline
import SleepStore

/// A FIFO where a side file belongs (an `.agdc` beside an ActiLife LSB export) is that
/// recording's failure: the batch stores the other files, and the run lock is released, so the
/// next run (a later cron run) runs instead of exiting 3.
@Suite("A FIFO as a side file fails its recording, not the batch", .serialized)
struct FIFOBatchTests {
    /// `Tests/SleepIngestTests/Fixtures/<name>`.
    static func fixture(_ name: String) -> String {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent(); url.deleteLastPathComponent()
        return url.path + "/SleepIngestTests/Fixtures/" + name
    }

    @Test("an .agdc FIFO beside an LSB CSV: that file fails naming the FIFO within seconds, the phone night is stored, the next run takes the lock")
    func agdcFIFO() throws {
        let w = Workspace()
        try FileManager.default.createDirectory(atPath: w.data + "/wrist", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixture("spec_actilife_raw_lsb.csv"), toPath: w.data + "/wrist/spec_actilife_raw_lsb.csv")
        let fifo = w.data + "/wrist/spec_actilife_raw_lsb.agdc"
        #expect(mkfifo(fifo, 0o644) == 0)
        // Should a read block on it, a writer 30 s later gives it end of file: the time check fails instead of the suite hanging.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 30)
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        w.write("night.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start))
        let start = Date()
        let first = try w.run { _ in }
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(first.failures.count == 1 && first.failures.first?.path == "wrist/spec_actilife_raw_lsb.csv", "\(first.failures)")
        #expect(first.failures.first?.error.contains("FIFO") == true, "\(first.failures)")
        #expect(try SleepDatabase(path: w.db).recordingPaths() == ["night.csv"])
        // The lock was released: the next run runs instead of exiting 3.
        let second = try w.run { _ in }
        #expect(second.filesUnchanged == 1 && second.failures.allSatisfy { $0.path == "wrist/spec_actilife_raw_lsb.csv" })
    }
}
