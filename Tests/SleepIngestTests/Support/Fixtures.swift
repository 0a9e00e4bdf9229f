import Foundation
import SleepCore
import SleepIngest

/// The committed test files of this target (Tests/SleepIngestTests/Fixtures), made by
/// `make_raw_fixtures.py` (spec-built files) and `crosscheck_references.py` (what independent
/// readers decode from them).
enum Fixture {
    static let folder: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()   // Support
        url.deleteLastPathComponent()   // SleepIngestTests
        return url.appendingPathComponent("Fixtures").path
    }()

    static func path(_ name: String) -> String { folder + "/" + name }

    struct Sample { var t: Double; var x: Double; var y: Double; var z: Double }

    /// A `time_s,x,y,z` reference (gzip CSV), read with sleepsta's own gzip stream: a fixture's
    /// name, or an absolute path.
    static func reference(_ name: String) throws -> [Sample] {
        let bytes = try ByteStreams.open(path: name.hasPrefix("/") ? name : path(name)).readAll(limit: 64 << 20, path: name)
        var rows: [Sample] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").map { Double($0)! }
            rows.append(Sample(t: f[0], x: f[1], y: f[2], z: f[3]))
        }
        return rows
    }

    /// Reads a fixture with a raw-sample reader, keeping every sample.
    static func samples(_ reader: some RawSampleReader, _ name: String, tz: String? = nil) throws -> (Recording, RawSampleBuffer) {
        var buffer = RawSampleBuffer()
        let r = try reader.read(path: path(name), options: IngestOptions(timeZoneIdentifier: tz), samples: &buffer)
        return (r, buffer)
    }
}

/// Sample-by-sample agreement of a reader's output with a reference.
struct SampleAgreement {
    var matched = 0
    var total = 0
    var maxTimeDifference = 0.0
    var maxValueDifference = 0.0

    /// Compares `ours` (UTC) with `reference` (device clock = UTC + `clockOffset`), pairing samples
    /// by time (within `timeTolerance`) unless `byIndex`.
    init(_ ours: RawSampleBuffer, _ reference: [Fixture.Sample], clockOffset: Double = 0, timeTolerance: Double,
         valueTolerance: Double, byIndex: Bool = true, skip: (Int) -> Bool = { _ in false }) {
        var j = 0
        for (i, r) in reference.enumerated() where !skip(i) {
            total += 1
            var k = i
            if !byIndex {
                while j < ours.count && ours.timestamps[j] + clockOffset < r.t - timeTolerance { j += 1 }
                guard j < ours.count else { continue }
                k = j
            }
            guard k < ours.count else { continue }
            let dt = abs(ours.timestamps[k] + clockOffset - r.t)
            let dv = max(abs(ours.x[k] - r.x), abs(ours.y[k] - r.y), abs(ours.z[k] - r.z))
            maxTimeDifference = max(maxTimeDifference, dt)
            maxValueDifference = max(maxValueDifference, dv)
            if dt <= timeTolerance && dv <= valueTolerance { matched += 1 }
        }
    }

    var note: String { "max |Δt| \(String(format: "%.3g", maxTimeDifference)) s, max |Δa| \(String(format: "%.3g", maxValueDifference)) g" }
}
