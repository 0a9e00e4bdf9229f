import Foundation

/// One measured stage, as a child process reports it (one JSON object on stdout) and as
/// `Reports/bench.json` keeps it.
struct StageResult: Codable, Sendable {
    /// Stage id, e.g. `ingest-parallel-2`.
    var name: String
    /// What was measured, for the table.
    var label: String
    /// Wall seconds of each timed run (after the warm-up runs).
    var seconds: [Double]
    /// Input bytes per run (0 when the stage has no byte input).
    var bytes: Int
    /// Samples (rows) per run, or the stage's natural unit (nights, epochs); see `unit`.
    var items: Int
    var unit: String = "samples"
    /// Peak resident memory of the process that ran the stage (`ru_maxrss`), bytes.
    var peakResidentBytes: Int
    /// Cores the stage was allowed to use.
    var threads: Int = 1
    /// Free-form facts (checksums, agreement, notes) shown under the table.
    var notes: [String: String] = [:]

    var medianSeconds: Double { Stopwatch.median(seconds) }
    var megabytesPerSecond: Double? { bytes > 0 ? Double(bytes) / medianSeconds / 1e6 : nil }
    var itemsPerSecond: Double? { items > 0 ? Double(items) / medianSeconds : nil }

    func json() -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: (try? e.encode(self)) ?? Data(), as: UTF8.self)
    }
}
