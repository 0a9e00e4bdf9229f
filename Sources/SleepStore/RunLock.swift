#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An exclusive advisory lock (flock) on the database, so two runs never write at once. The lock
/// dies with the process, so a killed run never leaves a stale lock behind.
///
/// Two locks, taken in this order: `FILE.lock` next to the database as spelled on the command
/// line (what older versions lock, and what the message names), then the database file itself,
/// opened through its real path. The second is the one every spelling meets: a symbolic link to
/// the database, `dir/../db.sqlite`, or a `.lock` file someone deleted while a run held it all
/// lead to the same file, and so to the same lock.
public final class RunLock {
    /// Why a run cannot have the lock.
    public enum Refusal: Error, Sendable {
        /// Another run holds it.
        case held(String)
        /// The lock file or the database cannot be opened.
        case unavailable(String)
    }

    public let path: String
    private let fd: Int32
    private let database: DatabaseFileLock

    public init(databasePath: String) throws(Refusal) {
        path = databasePath + ".lock"
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .unavailable("cannot create lock file \(path): \(String(cString: strerror(errno)))")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            close(fd)
            throw .held("another sleepsta run holds \(path); exiting")
        }
        do {
            database = try DatabaseFileLock.lock(databasePath: databasePath, lockName: path)
        } catch {
            flock(fd, LOCK_UN)
            close(fd)
            throw error
        }
    }

    deinit {
        database.unlock()
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// Whether a live process holds the lock of the database at `databasePath` (its real file):
    /// a `runs` row still `running` without one was left by a killed run.
    public static func isHeld(databasePath: String) -> Bool {
        DatabaseFileLock.isHeld(databasePath: databasePath)
    }
}

/// The flock on the database file itself (see ``RunLock``), through its real path.
///
/// One descriptor per file (device and inode), opened once and kept for the process's lifetime:
/// closing any descriptor of a file drops every POSIX (`fcntl`) lock this process holds on it,
/// and SQLite's locks on the database (a WAL-mode connection holds one as long as it is open)
/// are such locks. Because the descriptor is shared, a second run in the same process is told
/// apart by the set of files held.
final class DatabaseFileLock {
    private struct FileID: Hashable { var device: UInt64; var inode: UInt64 }
    private nonisolated(unsafe) static var descriptors: [FileID: Int32] = [:]
    private nonisolated(unsafe) static var held = Set<FileID>()
    private static let mutex = NSLock()

    private let id: FileID
    private let fd: Int32

    private init(id: FileID, fd: Int32) { self.id = id; self.fd = fd }

    /// Opens the database file's real path (creating an empty file, which SQLite takes as a new
    /// database) and locks it; throws ``RunLock/Refusal/held(_:)`` naming `lockName` when another
    /// run holds it.
    static func lock(databasePath: String, lockName: String) throws(RunLock.Refusal) -> DatabaseFileLock {
        mutex.lock(); defer { mutex.unlock() }
        guard let (id, fd) = descriptor(databasePath: databasePath, create: true) else {
            throw .unavailable("cannot open database \(databasePath) to lock it: \(String(cString: strerror(errno)))")
        }
        guard !held.contains(id), flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            throw .held("another sleepsta run holds \(lockName); exiting")
        }
        held.insert(id)
        return DatabaseFileLock(id: id, fd: fd)
    }

    func unlock() {
        Self.mutex.lock(); defer { Self.mutex.unlock() }
        flock(fd, LOCK_UN)
        Self.held.remove(id)
    }

    static func isHeld(databasePath: String) -> Bool {
        mutex.lock(); defer { mutex.unlock() }
        guard let (id, fd) = descriptor(databasePath: databasePath, create: false) else { return false }
        if held.contains(id) { return true }
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else { return true }
        flock(fd, LOCK_UN)
        return false
    }

    /// The process's descriptor of the file at `databasePath`'s real path (called under `mutex`).
    private static func descriptor(databasePath: String, create: Bool) -> (FileID, Int32)? {
        if create, access(databasePath, F_OK) != 0 {
            let made = open(databasePath, O_RDONLY | O_CREAT | O_CLOEXEC, 0o644)
            guard made >= 0 else { return nil }
            close(made)   // a file created just now: nobody holds a lock on it
        }
        guard let real = realpath(databasePath, nil) else { return nil }
        defer { free(real) }
        var st = stat()
        guard stat(real, &st) == 0 else { return nil }
        let id = FileID(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
        if let fd = descriptors[id] { return (id, fd) }
        let fd = open(real, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        descriptors[id] = fd
        return (id, fd)
    }
}
