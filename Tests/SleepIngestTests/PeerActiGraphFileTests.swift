import Foundation
import Testing
import SleepCore
import SleepIngest

/// The real ActiGraph files of other projects' test suites (pygt3x, read.gt3x, wristpy: GPL, LGPL
/// and EUPL, so they are not committed and not in `../shared`), read by sleepsta and compared
/// sample by sample with what pygt3x 0.7.1 decodes from them (and, where the suite has it, with
/// ActiLife's own export of the same file). Opt-in: put the files and the references
/// (docs/validation.md, "ActiGraph files of peers' test suites") in a folder and set
/// `SLEEPSTA_PEER_FILES` to it.
enum PeerActiGraphFiles {
    static let folder: String? = ProcessInfo.processInfo.environment["SLEEPSTA_PEER_FILES"].flatMap {
        FileManager.default.fileExists(atPath: $0) ? $0 : nil
    }
}

@Suite("ActiGraph files of peers' test suites",
       .enabled(if: PeerActiGraphFiles.folder != nil, "set SLEEPSTA_PEER_FILES to a folder of pygt3x's, read.gt3x's and wristpy's test files (docs/validation.md)"))
struct PeerActiGraphFileTests {

    static let cases: [(file: String, reference: String, samples: Int, idleFilled: Int?)] = [
        ("neo.gt3x", "neo.gt3x.pygt3x.csv.gz", 18_004, nil),                    // pygt3x: activity.bin, firmware 2.5.0
        ("neo.gt3x", "neo.gt3x.actilife.csv.gz", 18_004, nil),                  // ActiLife 6.13.4's own CSV of it
        ("ISM_Enabled.gt3x", "ISM_Enabled.gt3x.pygt3x.csv.gz", 9_000, 227),    // pygt3x: idle sleep on …
        ("ISM_Disabled.gt3x", "ISM_Disabled.gt3x.pygt3x.csv.gz", 9_000, 0),    // … and off: the same 9,000 samples
        ("TAS1H30182785_2019-09-17.gt3x", "TAS1H30182785_2019-09-17.gt3x.pygt3x.csv.gz", 215_200, 1_822),   // read.gt3x's test file
        ("example_actigraph_idle_sleep_mode.gt3x", "example_actigraph_idle_sleep_mode.gt3x.pygt3x.csv.gz", 4_590, 24),   // wristpy
        ("example_actigraph.gt3x", "example_actigraph.gt3x.pygt3x.csv.gz", 4_860, 0),
        ("WRIST_rawLSB_032Hz.csv", "WRIST_rawLSB_032Hz.csv.actilife.csv.gz", 1_920, nil),   // LSB + .agdc = ActiLife's g export
    ]

    @Test("each file: as many samples as pygt3x (or ActiLife), values within 1e-6 g, sample times the same", arguments: 0..<cases.count)
    func file(k: Int) throws {
        let c = Self.cases[k], folder = try #require(PeerActiGraphFiles.folder)
        let path = folder + "/" + c.file
        var ours = RawSampleBuffer()
        let reader: any RawSampleReader = c.file.hasSuffix(".csv") ? ActiLifeRawCSVReader() : GT3XReader()
        let r = try reader.read(path: path, options: IngestOptions(), samples: &ours)
        let reference = try Fixture.reference(folder + "/" + c.reference)
        #expect(ours.count == c.samples && reference.count == c.samples, "\(c.file): ours \(ours.count), reference \(reference.count)")
        var worst = 0.0, worstTime = 0.0
        for (i, s) in reference.enumerated() where i < ours.count {
            worst = max(worst, abs(ours.x[i] - s.x), abs(ours.y[i] - s.y), abs(ours.z[i] - s.z))
            worstTime = max(worstTime, abs(ours.timestamps[i] - ours.timestamps[0] - s.t))
        }
        ReferenceReport.record("\(c.file) vs \(c.reference)", matched: worst <= 1e-6 ? reference.count : 0, total: reference.count,
                               note: "max |Δa| \(worst) g, max |Δt| \(worstTime) s")
        #expect(worst <= 1e-6, "\(c.file): max |Δa| \(worst) g")
        #expect(worstTime <= 1e-6, "\(c.file): max |Δt| \(worstTime) s")
        if let idle = c.idleFilled { #expect(r.quality.idleSleepSecondsFilled == idle) }
    }
}
