import Foundation
import Testing
import SleepIngest

/// The text formats read whole, on 30 MB hostile shapes, as `sleepsta` reads them in a child
/// process: its peak resident memory (`wait4`'s `ru_maxrss`) stays within the stated bound,
/// 13 × the file size + 16 MiB over the process's baseline (``ReadWholeBudget``), and a shape
/// beyond the budget is refused naming the file.
@Suite("Read-whole text files: peak memory within 13 × the file size + 16 MiB", .serialized,
       .enabled(if: SleepstaBinary.path != nil, Comment(rawValue: SleepstaBinary.missingMessage)))
struct ReadWholeMemoryTests {
    /// Large enough that each refused shape's cost (16 bytes or more of slots per byte) is well
    /// past its budget (12 per byte) with the 16 MiB allowance, and that the bound is mostly the
    /// file's share, not the process's baseline.
    static let size = 30_000_000

    /// Runs `sleepsta arguments` (``ChildProcess``), returning its exit status, peak resident bytes and stderr.
    static func peak(_ arguments: [String], in folder: String) throws -> (status: Int32, peak: Int, stderr: String) {
        let r = try ChildProcess.sleepsta(arguments, in: folder, outputPrefix: folder + "/child").wait()
        return (r.exitCode ?? 128 + (r.signal ?? 0), r.peakResidentBytes, r.stderr)
    }

    static func write(_ path: String, head: String, repeating unit: String, tail: String = "") throws {
        let count = (size - head.utf8.count - tail.utf8.count) / unit.utf8.count
        try Data((head + String(repeating: unit, count: count) + tail).utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("participants tables, Actiware-style exports and .AWD files of empty lines, line ends, commas and short rows")
    func hostileShapes() throws {
        let folder = NSTemporaryDirectory() + "sleepsta-readwhole-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tiny = folder + "/tiny.csv"
        try Data("Actiware Export File (Version 05.00)\r\n\r\n".utf8).write(to: URL(fileURLWithPath: tiny))
        let baseline = try Self.peak(["inspect", tiny], in: folder).peak
        let bound = baseline + 13 * Self.size + (16 << 20)
        let banner = "Actiware Export File (Version 05.00)\r\n"
        let awdHeader = "P1\n01-Oct-2009\n12:00\n4\n30\nSN1\nM\n"
        // (name, header, repeated unit, refused by the budget)
        let shapes: [(String, String, String, Bool)] = [
            ("participants.csv", "id,path\n", "\n", true),
            ("participants.csv", "id,path\n", ",", true),
            ("participants.csv", "id,path\n", "  ,  \n", false),
            ("actiware.csv", banner, "\r\n", false),
            ("actiware.csv", banner, ",", true),
            ("actiware.csv", banner, "abcdefgh,ijklmnop\r\n", false),
            ("empty.awd", awdHeader, "\n", true),
        ]
        for (name, head, unit, refused) in shapes {
            let path = folder + "/" + name
            try Self.write(path, head: head, repeating: unit)
            let arguments = name == "participants.csv"
                ? ["run", "--data", folder + "/data", "--db", folder + "/db.sqlite", "--reports", folder + "/reports", "--participants", path]
                : ["inspect", path]
            let r = try Self.peak(arguments, in: folder)
            let shape = "\(name) of \(unit.debugDescription)"
            #expect(r.peak <= bound, "\(shape): peak \(r.peak >> 20) MiB, bound \(bound >> 20) MiB (baseline \(baseline >> 20) MiB)")
            if refused {
                // A participants table's endless line meets its 4 KiB row limit first.
                let why = r.stderr.contains("more than 12 bytes per byte") || r.stderr.contains("is at most 4096")
                #expect(r.status != 0 && r.stderr.contains(path) && why, "\(shape): \(r.status) \(r.stderr)")
            }
        }
    }

    @Test("a sleep diary at its 8 MiB limit of empty lines is refused within the bound, naming it")
    func diary() throws {
        let folder = NSTemporaryDirectory() + "sleepsta-readwhole-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/diary.csv"
        let size = SleepDiary.maximumBytes
        try Data(Array("id,night,in_bed,out_of_bed\n".utf8) + [UInt8](repeating: 0x0A, count: size - 27)).write(to: URL(fileURLWithPath: path))
        let tiny = folder + "/tiny.csv"
        try Data("id,night,in_bed,out_of_bed\n".utf8).write(to: URL(fileURLWithPath: tiny))
        let arguments = ["run", "--data", folder + "/data", "--db", folder + "/db.sqlite", "--reports", folder + "/reports", "--diary"]
        let baseline = try Self.peak(arguments + [tiny], in: folder).peak
        let r = try Self.peak(arguments + [path], in: folder)
        #expect(r.peak <= baseline + 14 * size + (16 << 20), "peak \(r.peak >> 20) MiB, baseline \(baseline >> 20) MiB")
        #expect(r.status != 0 && r.stderr.contains(path) && r.stderr.contains("lines"), "\(r.status) \(r.stderr)")
    }
}
