#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SleepstaWorkloads

/// Runs a program and reports its wall time, exit status, output and peak resident memory
/// (`wait4`'s `ru_maxrss`: the child's own peak, not the bench's).
struct ChildProcess {
    struct Outcome {
        var status: Int32
        var wallSeconds: Double
        var peakResidentBytes: Int
        var stdout: String
    }

    /// `arguments[0]` is the program (a path, or a name looked up in `PATH`). Stderr goes to the
    /// bench's stderr unless `quiet`; stdout is captured.
    static func run(_ arguments: [String], environment: [String: String]? = nil, quiet: Bool = false) throws -> Outcome {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw BenchError.io("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment ?? [:] { env[k] = v }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid: pid_t = 0
        let start = Stopwatch.now()
        let rc = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        close(pipeFDs[1])
        guard rc == 0 else { close(pipeFDs[0]); throw BenchError.io("cannot run \(arguments[0]): \(String(cString: strerror(rc)))") }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(pipeFDs[0], $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            output.append(contentsOf: buffer[0..<n])
        }
        close(pipeFDs[0])
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = Stopwatch.now() - start
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Outcome(status: exit, wallSeconds: wall, peakResidentBytes: Int(usage.ru_maxrss) * 1024,
                       stdout: String(decoding: output, as: UTF8.self))
    }
}
