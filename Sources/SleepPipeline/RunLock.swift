import Foundation

/// An exclusive advisory lock (flock) next to the database, so two runs never write at once.
/// The lock dies with the process, so a killed run never leaves a stale lock behind.
final class RunLock {
    let path: String
    private let fd: Int32

    init(databasePath: String) throws {
        path = databasePath + ".lock"
        fd = open(path, O_RDWR | O_CREAT, 0o644)
        guard fd >= 0 else {
            throw PipelineError.environment("cannot create lock file \(path): \(String(cString: strerror(errno)))")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            close(fd)
            throw PipelineError.locked("another sleepsta run holds \(path); exiting")
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
