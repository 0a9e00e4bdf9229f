#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The benchmark's in-process timer: `CLOCK_MONOTONIC` around the work, `warmUp` untimed runs
/// first (page cache, allocator, branch predictors), then `repeats` timed runs; the median is
/// what the table shows and all runs go to the JSON.
///
/// Used instead of ordo-one/benchmark, whose harness takes about 100 s to build here and measures
/// micro-benchmarks, while these stages run for 0.1–10 s each and need the peak resident memory of
/// a whole process, which the bench gets by running each stage as a child process (``ChildProcess``).
enum Stopwatch {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    static func measure(warmUp: Int, repeats: Int, _ body: () throws -> Void) rethrows -> [Double] {
        for _ in 0..<warmUp { try body() }
        var times: [Double] = []
        for _ in 0..<max(1, repeats) {
            let start = now()
            try body()
            times.append(now() - start)
        }
        return times
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// Peak resident memory of this process so far, in bytes (`ru_maxrss`).
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
    }
}
