import Foundation
import SleepstaWorkloads

/// The generated wrist recordings that several tests read, made once per test process and copied
/// into each test's workspace. The generators are seeded and deterministic, so the copy is byte
/// for byte the file the test would have written itself; making it is not: days of 100 Hz samples
/// with three Gaussian draws each were about a tenth of the whole suite's CPU time, spent again by
/// every test that reads the same signal (the 3-day wrist, the spring and autumn clock changes).
/// Only `.cwa` files are kept (about 110 MB for 3 days): a 100 Hz CSV of the same days is ten times that.
enum SharedRecordings {
    /// Writes `generator`'s signal as a `.cwa` file at `path`, what
    /// `WearableCWAGenerator(signal: generator).write(to: path)` writes.
    static func writeCWA(_ generator: WearableCSVGenerator, to path: String) throws {
        try FileManager.default.copyItem(atPath: try made(generator), toPath: path)
    }

    /// The folder of this process's files; removed when the process exits.
    private static let folder: String = {
        let path = NSTemporaryDirectory() + "sleepsta-shared-recordings-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: SharedRecordings.folder) }
        return path
    }()

    /// One lock per file, so that tests asking for the same signal wait for one making of it while
    /// tests asking for others go on; `registry` guards the table of them.
    private static let registry = NSLock()
    nonisolated(unsafe) private static var files: [String: (lock: NSLock, path: String)] = [:]

    private static func made(_ generator: WearableCSVGenerator) throws -> String {
        // Every stored property of the generator (days, rate, seed, events, clock change, model ...)
        // is in its reflection, so equal keys are equal signals.
        let key = String(reflecting: generator)
        let entry: (lock: NSLock, path: String) = registry.withLock {
            if let e = files[key] { return e }
            let e = (lock: NSLock(), path: folder + "/\(files.count).cwa")
            files[key] = e
            return e
        }
        try entry.lock.withLock {
            guard !FileManager.default.fileExists(atPath: entry.path) else { return }
            let partial = entry.path + ".partial"
            try WearableCWAGenerator(signal: generator).write(to: partial)
            guard rename(partial, entry.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        return entry.path
    }
}
