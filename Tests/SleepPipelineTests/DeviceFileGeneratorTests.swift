import Foundation
import Testing
import SleepCore
import SleepIngest
import SleepstaWorkloads

/// The GENEActiv `.bin` and ActiGraph `.gt3x` writers read back through sleepsta's own readers:
/// every sample where the signal put it and as the signal gave it, within the 12-bit codes of the
/// devices. GGIR's comparison (`make validate-ggir`) runs on these writers' files, so a writer
/// that drifted from its format would show there as a difference between the methods.
@Suite("GENEActiv .bin and ActiGraph .gt3x generators read back")
struct DeviceFileGeneratorTests {
    /// 90 min from 10:00 local (an active morning: bursts up to 0.6 g and turns of the wrist).
    static func signal(rateHz: Int) -> WearableCSVGenerator {
        var g = WearableCSVGenerator(days: 0.0625, rateHz: rateHz)
        g.startEpochSecond += 8 * 3600
        return g
    }

    /// Reads `path` with `reader` and compares every sample with `signal`: count, time and value.
    /// `step`: the device's quantisation step in g (a value is within half of it).
    static func check<R: RawSampleReader>(_ reader: R, format: RecordingFormat, path: String, signal: WearableCSVGenerator,
                                          written: Int, step: Double) throws {
        let detected = try FormatDetector.reader(forPath: path)
        #expect(type(of: detected).format == format)
        var samples = RawSampleBuffer()
        let recording = try reader.read(path: path, options: IngestOptions(timeZoneIdentifier: "Europe/Berlin"), samples: &samples)
        let seconds = Int(signal.days * 86_400)
        #expect(written == seconds * signal.rateHz)
        #expect(samples.count == written)
        #expect(recording.quality.nominalSampleRateHz == Double(signal.rateHz))
        #expect(abs(recording.quality.effectiveSampleRateHz - Double(signal.rateHz)) < 0.01)
        #expect(recording.segments.first?.series.startSecond == signal.startEpochSecond)
        #expect(recording.segments.first?.series.count == seconds)
        #expect(recording.warnings.isEmpty, "\(recording.warnings)")
        guard samples.count == written else { return }
        var i = 0, worstTime = 0.0, worstValue = 0.0
        signal.forEachSample { second, k, x, y, z in
            worstTime = max(worstTime, abs(samples.timestamps[i] - (Double(second) + Double(k) / Double(signal.rateHz))))
            worstValue = max(worstValue, abs(samples.x[i] - x), abs(samples.y[i] - y), abs(samples.z[i] - z))
            i += 1
        }
        #expect(worstTime < 1e-6)
        #expect(worstValue <= step / 2 + 1e-9, "worst |Δ| \(worstValue) g for a step of \(step) g")
    }

    @Test("GENEActiv .bin at 50 Hz: 300-sample pages on the device clock, calibrated back within half a 12-bit step")
    func geneActiv() throws {
        let path = NSTemporaryDirectory() + "sleepsta-gen-\(UUID().uuidString).bin"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try WearableGENEActivGenerator(signal: Self.signal(rateHz: 100)).write(to: path)
        // The smallest gain (25,418 LSB·100/g) has the widest step.
        try Self.check(GENEActivBinReader(), format: .geneActivBin, path: path, signal: Self.signal(rateHz: 50), written: written,
                       step: 100 / 25_418)
    }

    @Test("ActiGraph .gt3x at 30 Hz: one ACTIVITY2 record a second, 256 per g, within half a step")
    func gt3x() throws {
        let path = NSTemporaryDirectory() + "sleepsta-gen-\(UUID().uuidString).gt3x"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try WearableGT3XGenerator(signal: Self.signal(rateHz: 100)).write(to: path)
        try Self.check(GT3XReader(), format: .actiGraphGT3X, path: path, signal: Self.signal(rateHz: 30), written: written, step: 1.0 / 256)
    }
}
