import SleepCore
import SleepStore

/// The process exit codes, the contract with cron and scripts (docs/operations.md).
public enum ExitStatus {
    /// Every file was fine.
    public static let success: Int32 = 0
    /// Some files failed (listed on stdout and in `run_failures`); the rest were processed.
    public static let someFilesFailed: Int32 = 1
    /// Usage or environment error: bad option, missing folder, unusable or newer database, disk full.
    public static let environment: Int32 = 2
    /// Another run holds the database lock; this one did nothing.
    public static let locked: Int32 = 3
}

extension ExitStatus {
    /// The line `run` and `nightly` write to stderr before exiting 2 or 3: `sleepsta: …`, one line
    /// (a path in the message may hold control characters, see ``PrintableText``).
    public static func errorLine(_ error: any Error) -> String {
        "sleepsta: " + PrintableText.escaped("\(error)") + "\n"
    }
}

extension RunSummary {
    /// 1 when a file failed, when a stored row could not be read, or when a sleep diary was given and none of its rows applies (a typo
    /// in every id would otherwise pass unnoticed under cron).
    public var exitCode: Int32 {
        failures.isEmpty && unreadableRows.isEmpty && !(diary.map { $0.applied == 0 } ?? false) ? ExitStatus.success : ExitStatus.someFilesFailed
    }
}

extension PipelineError {
    public var exitCode: Int32 {
        switch self {
        case .locked: return ExitStatus.locked
        case .environment: return ExitStatus.environment
        }
    }
}

extension RunLock {
    /// The database's run lock, or the run's error: exit 3 when another run holds it, 2 when it
    /// cannot be taken.
    package static func forRun(databasePath: String) throws(PipelineError) -> RunLock {
        do { return try RunLock(databasePath: databasePath) } catch {
            switch error {
            case .held(let message): throw .locked(message)
            case .unavailable(let message): throw .environment(message)
            }
        }
    }
}
