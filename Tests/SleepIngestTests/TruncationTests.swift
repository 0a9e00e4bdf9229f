import Foundation
import Testing
import SleepCore
import SleepIngest

/// Every real device file of the peer projects, cut at 20 seeded random offsets: each cut file is
/// either read (salvaged up to its last whole page, block or record) or refused with an error that
/// names the file; never a crash, never a hang (each read is timed).
@Suite("Peer test files cut at random offsets")
struct TruncationTests {
    @Test("20 random cuts of every peer test file: a salvaged recording or a clear refusal",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func randomCuts() throws {
        let root = try #require(ExternalData.url("peer_test_files"))
        let walker = FileManager.default.enumerator(atPath: root.path)
        var files: [String] = []
        while let item = walker?.nextObject() as? String {
            guard !(item as NSString).lastPathComponent.hasPrefix(".") else { continue }
            var directory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(item).path, isDirectory: &directory), !directory.boolValue {
                files.append(item)
            }
        }
        #expect(files.count >= 20)
        let folder = NSTemporaryDirectory() + "sleepsta-cuts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var state: UInt64 = 20261124
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 11 }
        var read = 0, salvagedWithWarning = 0, refused = 0, slowest = 0.0
        for file in files.sorted() {
            let bytes = try Data(contentsOf: root.appendingPathComponent(file))
            let name = (file as NSString).lastPathComponent
            for _ in 0..<20 {
                let cut = Int(next() % UInt64(max(bytes.count, 1)))
                let path = folder + "/" + name
                _ = FileManager.default.createFile(atPath: path, contents: bytes.prefix(cut))
                let start = Date()
                do {
                    let i = try RecordingInspector.inspect(path: path, options: IngestOptions(timeZoneIdentifier: "UTC"))
                    read += 1
                    if !i.warnings.isEmpty { salvagedWithWarning += 1 }
                } catch {
                    refused += 1
                    #expect(error.file == path && !error.message.isEmpty, "\(file) cut at \(cut): \(error)")
                }
                let seconds = Date().timeIntervalSince(start)
                slowest = max(slowest, seconds)
                #expect(seconds < 10, "\(file) cut at \(cut) took \(seconds) s")
            }
        }
        print("TRUNCATION \(files.count) files × 20 cuts: \(read) read (\(salvagedWithWarning) with a warning), \(refused) refused with the file named; slowest \(String(format: "%.2f", slowest)) s")
        #expect(read + refused == files.count * 20)
    }
}
