import Foundation

/// Another program holding a database: the `sqlite3` shell in a child process with a write
/// transaction open (`BEGIN IMMEDIATE`) until ``release()``. nil binary: tests that need it skip.
final class SQLiteHolder {
    static let binary = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let missingMessage = "the sqlite3 shell was not found (apt-get install sqlite3); the test of a database another program holds is skipped"

    private let process = Process()
    private let input = Pipe()

    /// Starts `sqlite3 path`, runs `sql` and returns once it ran (the shell touches a file then).
    init(path: String, sql: String = "BEGIN IMMEDIATE;") throws {
        guard let binary = Self.binary else { throw POSIXError(.ENOENT) }
        let ready = path + ".held-\(UUID().uuidString)"
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [path]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("\(sql)\n.shell touch '\(ready)'\n".utf8))
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: ready) {
            guard process.isRunning, Date() < deadline else { release(); throw POSIXError(.ETIMEDOUT) }
            usleep(10_000)
        }
        try? FileManager.default.removeItem(atPath: ready)
    }

    var pid: Int32 { process.processIdentifier }

    /// Ends the shell (its transaction rolls back) and waits for it.
    func release() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit { release() }
}
