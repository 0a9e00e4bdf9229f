#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import SleepIngest

/// A FIFO (named pipe) where a file is expected: opened for reading it would wait for a writer
/// forever. Every way in (a recording, the diary, the participants table, an `.agdc` beside an
/// LSB CSV, the preflight and the content hash) refuses it at once, naming it.
@Suite("FIFOs and other non-regular files are refused, never waited on")
struct FIFOInputTests {
    /// A FIFO in a fresh folder, and a watchdog that opens it for writing after `seconds`: a reader
    /// blocked on it then sees end of file, so a regression fails the time check instead of
    /// hanging the suite.
    static func fifo(_ name: String = "stuck.csv", watchdogSeconds: Double = 20) -> (path: String, folder: String) {
        let folder = NSTemporaryDirectory() + "sleepsta-fifo-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        #expect(mkfifo(path, 0o644) == 0)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: watchdogSeconds)
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        return (path, folder)
    }

    static func refused(_ body: () throws -> Void) -> (message: String, seconds: Double) {
        let start = Date()
        var message = "no error"
        do { try body() } catch let e as IngestError { message = e.description } catch { message = "\(error)" }
        return (message, Date().timeIntervalSince(start))
    }

    @Test("every reader's way in refuses a FIFO within a second, naming it and saying why")
    func everyWayIn() {
        let (path, folder) = Self.fifo()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [(String, () throws -> Void)] = [
            ("diary", { _ = try SleepDiary.read(path: path) }),
            ("participants", { _ = try ParticipantsTable.read(path: path) }),
            ("agdc", { _ = try ActiGraphCalibrationV2.agdc(path: path, rateHz: 30) }),
            ("preflight", { try InputPreflight.check(path: path) }),
            ("hash", { _ = try FileHashing.contentHash(path: path) }),
            ("epoch file", { _ = try FormatDetector.readEpochs(path: path, options: IngestOptions()) }),
        ]
        for (what, body) in cases {
            let r = Self.refused(body)
            #expect(r.seconds < 1, "\(what): took \(r.seconds) s")
            #expect(r.message.contains(path) && r.message.contains("FIFO"), "\(what): \(r.message)")
        }
        // A device is refused the same way; a directory keeps its own words.
        #expect(Self.refused { _ = try SleepDiary.read(path: "/dev/null") }.message.contains("is a device, not a regular file"))
        #expect(Self.refused { _ = try SleepDiary.read(path: folder) }.message.contains("is a directory"))
    }

    @Test("an LSB CSV's folder holding a FIFO named .agdc: the FIFO is a problem of that file, not a hang")
    func agdcBesideTheCSV() {
        let (path, folder) = Self.fifo("WRIST_rawLSB_032Hz.agdc")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let r = Self.refused { _ = try ActiGraphCalibrationV2.agdc(path: path, rateHz: 32) }
        #expect(r.seconds < 1 && r.message.contains("FIFO"), "\(r)")
    }
}
