import Crypto
import Foundation
import SleepIngest

/// SHA-256 of a file's bytes, read in 1 MiB chunks (constant memory): the recording's identity,
/// so a renamed file is not ingested twice and a changed file is.
enum FileHashing {
    static func sha256(path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw IngestError(file: path, message: "cannot open for reading")   // this file's problem, not the run's
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
