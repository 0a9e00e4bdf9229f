import Foundation
import SleepCore
import SleepstaWorkloads
import SleepIngest

/// ActiGraph counts from raw samples, and sleep/wake scoring on counts: the stages the Python
/// peers agcounts and pyActigraphy also do.
enum EpochStages {
    /// Counts per 60-s epoch from the samples in memory (reading the CSV is not timed: agcounts
    /// gets a NumPy array too). Writes `<out>.counts`: int32 x, y, z per epoch.
    static func counts(_ o: StageOptions) throws -> StageResult {
        var buffer = RawSampleBuffer()
        _ = try RawCSVReader().read(path: o.file, options: IngestOptions(), samples: &buffer)
        guard let rate = buffer.nominalSampleRateHz else { throw BenchError.failed("\(o.file): no sample rate") }
        var epochs: ActiGraphCountEpochs? = nil
        let times = try Stopwatch.measure(warmUp: o.warmUp, repeats: o.repeats) {
            epochs = try ActiGraphCounts.counts(x: buffer.x, y: buffer.y, z: buffer.z, sampleRateHz: rate, epochSeconds: 60)
        }
        guard let epochs else { throw BenchError.failed("no counts") }
        if let out = o.output {
            var values: [Int32] = []
            values.reserveCapacity(epochs.count * 3)
            for i in 0..<epochs.count { values += [Int32(epochs.x[i]), Int32(epochs.y[i]), Int32(epochs.z[i])] }
            try values.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: out + ".counts"))
        }
        return StageResult(name: "counts", label: "ActiGraph counts from raw (60-s epochs, \(rate) Hz), samples in memory",
                           seconds: times, bytes: 0, items: buffer.count, peakResidentBytes: Stopwatch.peakResidentBytes(),
                           notes: ["epochs": String(epochs.count)])
    }

    /// Cole–Kripke and Sadeh on the axis-1 counts of `<file>.counts`, in the variants that
    /// reproduce pyActigraphy 1.2.2 (CK `settings="mean"`, no rescoring; Sadeh as pyActigraphy
    /// computes it). Each timed run scores the series `inner` times (one scoring takes well
    /// under a millisecond). Writes `<out>.states`: one byte per epoch (1 sleep, 0 wake, 2 not
    /// scored), Cole–Kripke then Sadeh.
    static func score(_ o: StageOptions) throws -> StageResult {
        let raw = try Data(contentsOf: URL(fileURLWithPath: o.file + ".counts"))
        let values = raw.withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
        let axis1 = stride(from: 1, to: values.count, by: 3).map { Double(values[$0]) }
        let inner = 20
        var ck: [SleepWake?] = [], sadeh: [SleepWake?] = []
        let times = Stopwatch.measure(warmUp: o.warmUp, repeats: o.repeats) {
            for _ in 0..<inner {
                ck = ColeKripke.score(countsPerEpoch: axis1, variant: .pyActigraphyMean)
                sadeh = Sadeh.score(countsPerEpoch: axis1, variant: .pyActigraphy)
            }
        }.map { $0 / Double(inner) }
        if let out = o.output {
            func code(_ s: SleepWake?) -> UInt8 { s == nil ? 2 : (s == .sleep ? 1 : 0) }
            try Data(ck.map(code) + sadeh.map(code)).write(to: URL(fileURLWithPath: out + ".states"))
        }
        return StageResult(name: "score-counts", label: "Cole–Kripke + Sadeh on 60-s counts (pyActigraphy variants)",
                           seconds: times, bytes: 0, items: axis1.count, unit: "epochs",
                           peakResidentBytes: Stopwatch.peakResidentBytes())
    }
}
