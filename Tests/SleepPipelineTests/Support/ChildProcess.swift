#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The built `sleepsta` command, run as a real child process (kill tests need a process to kill).
enum SleepstaBinary {
    /// `sleepsta` next to the test runner (`<scratch>/<configuration>/`, where `swift build` and
    /// `swift test` put every product), else `SLEEPSTA_BINARY`, else `<repo>/.build/{release,debug}/`.
    static let path: String? = {
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["SLEEPSTA_BINARY"], !env.isEmpty { candidates.append(env) }
        #if os(Linux)
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append((exe as NSString).deletingLastPathComponent + "/sleepsta")
        }
        #endif
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append((bundle.bundlePath as NSString).deletingLastPathComponent + "/sleepsta")
        }
        // #filePath = <repo>/Tests/SleepPipelineTests/Support/ChildProcess.swift
        var repo = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { repo.deleteLastPathComponent() }
        candidates += [repo.path + "/.build/release/sleepsta", repo.path + "/.build/debug/sleepsta"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let missingMessage = "the sleepsta executable was not found next to the test runner; build it (swift build --product sleepsta) or set SLEEPSTA_BINARY"

    /// `'text'` for /bin/sh.
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

/// A child process started through `/bin/sh -c` (so a test can set `ulimit`s or drop privileges)
/// whose script ends in `exec`, so the pid is that of the program itself; stdout and stderr go to files.
final class ChildProcess {
    struct Outcome {
        /// Exit status, nil when a signal ended the process.
        var exitCode: Int32?
        var signal: Int32?
        var stdout: String
        var stderr: String
        /// The child's peak resident memory in bytes (`wait4`'s `ru_maxrss`: KiB on Linux, bytes on
        /// Darwin). The script's shell before its `exec` is a few hundred KiB of it at most.
        var peakResidentBytes: Int
        var killed: Bool { signal == SIGKILL }
    }

    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String

    init(shell script: String, outputPrefix: String) throws {
        stdoutPath = outputPrefix + ".stdout"
        stderrPath = outputPrefix + ".stderr"
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t? = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let arguments = ["/bin/sh", "-c", script]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var child = pid_t()
        let rc = posix_spawn(&child, "/bin/sh", &actions, nil, &argv, environ)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EINVAL) }
        pid = child
    }

    /// Starts `sleepsta <arguments>` in `directory`, with optional shell lines run before it.
    static func sleepsta(_ arguments: [String], in directory: String, prelude: String = "", wrapper: String = "",
                         outputPrefix: String) throws -> ChildProcess {
        guard let binary = SleepstaBinary.path else { throw POSIXError(.ENOENT) }
        let command = ([binary] + arguments).map(SleepstaBinary.quoted).joined(separator: " ")
        let script = "cd \(SleepstaBinary.quoted(directory)) || exit 97\n\(prelude)\nexec \(wrapper) \(command)"
        return try ChildProcess(shell: script, outputPrefix: outputPrefix)
    }

    func kill() {
        #if canImport(Glibc)
        _ = Glibc.kill(pid, SIGKILL)
        #else
        _ = Darwin.kill(pid, SIGKILL)
        #endif
    }

    private var ended: Outcome?

    /// Whether the process is still running (reaps it when it has ended; ``wait()`` then returns at once).
    var isRunning: Bool {
        if ended == nil { ended = poll() }
        return ended == nil
    }

    /// Waits for the process to end.
    func wait() -> Outcome {
        if let ended { return ended }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        return outcome(status, usage)
    }

    /// The outcome if the process has ended, else nil (does not block).
    func poll() -> Outcome? {
        var status: Int32 = 0
        var usage = rusage()
        let r = wait4(pid, &status, WNOHANG, &usage)
        return r == pid ? outcome(status, usage) : nil
    }

    private func outcome(_ status: Int32, _ usage: rusage) -> Outcome {
        let signal = status & 0x7f
        let read = { (p: String) in (try? String(contentsOfFile: p, encoding: .utf8)) ?? "" }
        #if os(Linux)
        let peak = Int(usage.ru_maxrss) * 1024
        #else
        let peak = Int(usage.ru_maxrss)   // bytes on Darwin
        #endif
        return Outcome(exitCode: signal == 0 ? (status >> 8) & 0xff : nil, signal: signal == 0 ? nil : signal,
                       stdout: read(stdoutPath), stderr: read(stderrPath), peakResidentBytes: peak)
    }
}
