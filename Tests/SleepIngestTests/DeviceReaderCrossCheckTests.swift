import Foundation
import Testing
import SleepCore
import SleepIngest

/// Spec-built device files (make_raw_fixtures.py) read by sleepsta, compared sample by sample with
/// what independent readers from PyPI decode from the same bytes (crosscheck_references.py) and
/// with the values the generator encoded.
@Suite("Device readers vs independent readers")
struct DeviceReaderCrossCheckTests {
    /// A spec `.gt3x` read by sleepsta beside pygt3x 0.7.1's decode of it (`<fixture>.pygt3x.csv.gz`,
    /// on the device clock = UTC + `clockOffset`; pygt3x keeps float32): as many samples, each within
    /// 1e-6 s and 1e-6 g. Returns what sleepsta read.
    static func expectSameAsPygt3x(_ fixture: String, clockOffset: Double, label: String) throws -> (Recording, RawSampleBuffer) {
        let (r, ours) = try Fixture.samples(GT3XReader(), fixture)
        let reference = try Fixture.reference(fixture + ".pygt3x.csv.gz")
        let a = SampleAgreement(ours, reference, clockOffset: clockOffset, timeTolerance: 1e-6, valueTolerance: 1e-6)
        ReferenceReport.record("\(fixture) vs pygt3x 0.7.1\(label)", matched: a.matched, total: a.total, note: a.note)
        #expect(ours.count == reference.count)
        #expect(a.matched == a.total, "\(a.note)")
        return (r, ours)
    }

    // MARK: ActiGraph .gt3x, ACTIVITY (12-bit) records, idle sleep

    @Test("spec .gt3x (12-bit ACTIVITY, idle sleep, deflate) = pygt3x 0.7.1, sample by sample")
    func gt3xVsPygt3x() throws {
        // pygt3x reports the device clock (info.txt: TimeZone 02:00:00).
        let (r, _) = try Self.expectSameAsPygt3x("spec_activity12.gt3x", clockOffset: 7200, label: " (incl. 30 s idle-sleep fill)")
        #expect(r.quality.idleSleepSecondsFilled == 30)
        #expect(r.quality.nominalSampleRateHz == 30)
        #expect(r.timeline.offset(atUTC: 1_718_398_200) == 7200)
        // x = 9 g for 0.5 s saturates a ±6 g GT3X+: 15 samples at 30 Hz.
        #expect(r.quality.deviceRangeG == 6)
        #expect(r.quality.clippedSamples == 15)
    }

    @Test("spec .gt3x = actfast 1.3.0 on every sample actfast reads (it does not fill idle sleep)")
    func gt3xVsActfast() throws {
        let (_, ours) = try Fixture.samples(GT3XReader(), "spec_activity12.gt3x")
        let reference = try Fixture.reference("spec_activity12.gt3x.actfast.csv.gz")
        // actfast keeps float32: compare to 1e-6 g.
        let a = SampleAgreement(ours, reference, clockOffset: 7200, timeTolerance: 1e-6, valueTolerance: 1e-6, byIndex: false)
        ReferenceReport.record("spec_activity12.gt3x vs actfast 1.3.0", matched: a.matched, total: a.total, note: a.note)
        #expect(reference.count == 6300 && a.matched == a.total)
    }

    @Test("zero bytes between records are skipped, and a stored (uncompressed) archive reads the same")
    func gt3xPaddingAndStored() throws {
        let (_, deflated) = try Fixture.samples(GT3XReader(), "spec_activity12.gt3x")
        let (r, stored) = try Fixture.samples(GT3XReader(), "spec_activity12_padded_stored.gt3x")
        #expect(stored.timestamps == deflated.timestamps && stored.x == deflated.x && stored.y == deflated.y && stored.z == deflated.z)
        #expect(r.compression == nil)
    }

    @Test("idle sleep until the device stopped: filled to the log's last record, as pygt3x 0.7.1 fills it, sample by sample")
    func gt3xIdleToTheEnd() throws {
        let (r, ours) = try Self.expectSameAsPygt3x("spec_idle_to_end.gt3x", clockOffset: 7200, label: " (30 s + 30 s idle-sleep fill)")
        #expect(ours.count == 6900)
        // 120–150 s between records, 200–230 s after the last activity record up to the last record.
        #expect(r.quality.idleSleepSecondsFilled == 60)
    }

    // MARK: ActiGraph .gt3x, older format (activity.bin, firmware ≤ 2.5)

    @Test("older .gt3x (activity.bin): the format description's worked example, value for value, odd sample count")
    func activityBinWorkedExample() throws {
        let (r, ours) = try Fixture.samples(GT3XReader(), "spec_nhanes_example.gt3x")
        // activity.bin.md: Y, X, Z = (0.018, 0.023, −0.947), (0.021, 0.026, −0.941), (0.021, 0.023, −0.941).
        #expect(ours.count == 3)
        #expect(ours.x == [0.023, 0.026, 0.023] && ours.y == [0.018, 0.021, 0.021] && ours.z == [-0.947, -0.941, -0.941])
        #expect(ours.timestamps.first == 1_206_792_000 && abs(ours.timestamps[2] - (1_206_792_000 + 2.0 / 30)) < 1e-9)
        #expect(r.format == .actiGraphGT3X && r.device?.contains("activity.bin") == true)
    }

    @Test("older .gt3x (activity.bin, 30 Hz, 1,832 samples) = pygt3x 0.7.1, sample by sample; its time from info.txt")
    func activityBinVsPygt3x() throws {
        // pygt3x rounds to 3 decimals as we do; its times are rebased (crosscheck_references.py).
        let (r, ours) = try Self.expectSameAsPygt3x("spec_nhanes_activity.gt3x", clockOffset: -21_600, label: "")
        #expect(ours.count == 1832)
        #expect(r.timeline.offset(atUTC: 1_718_427_000) == -21_600)
        #expect(r.quality.nominalSampleRateHz == 30 && r.quality.deviceRangeG == 6)
    }

    // MARK: ActiLife raw CSV: LSB with its .agdc, gt3x2csv

    @Test("ActiLife LSB export + the device's .agdc = pygt3x 0.7.1's CalibrationV2Service on the same counts")
    func actiLifeLSBWithCalibration() throws {
        let (r, ours) = try Fixture.samples(ActiLifeRawCSVReader(), "spec_actilife_raw_lsb.csv")
        let reference = try Fixture.reference("spec_actilife_raw_lsb.csv.pygt3x.csv.gz")
        // The reference prints 9 significant digits (a few 1e-9 g on values of several g).
        let a = SampleAgreement(ours, reference, timeTolerance: 1e-6, valueTolerance: 1e-8)
        ReferenceReport.record("spec_actilife_raw_lsb.csv (+ .agdc) vs pygt3x 0.7.1 CalibrationV2Service", matched: a.matched, total: a.total, note: a.note)
        #expect(ours.count == 1920 && a.matched == a.total, "\(a.note)")
        #expect(r.warnings.contains { $0.contains("LSB export") && $0.contains("spec_actilife_raw_lsb.agdc") })
    }

    @Test("an LSB export without its .agdc is refused: the error names the LSB export, the serial and what is needed")
    func actiLifeLSBWithoutCalibration() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sleepsta-lsb-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: Fixture.path("spec_actilife_raw_lsb.csv"), toPath: folder + "/alone.csv")
        var sink = RawSampleBuffer()
        do {
            _ = try ActiLifeRawCSVReader().read(path: folder + "/alone.csv", options: IngestOptions(), samples: &sink)
            Issue.record("an LSB export was read without a calibration")
        } catch {
            #expect(error.message.contains("exported in LSB") && error.message.contains("TAS1F99999999") && error.message.contains(".agdc"), "\(error.message)")
            #expect(error.line == 12)
        }
    }

    @Test("gt3x2csv output: the header found by its closing dashes (two more lines), its Sample Rate line, rows of 0,0,0 filled and counted")
    func gt3x2csv() throws {
        let (r, ours) = try Fixture.samples(ActiLifeRawCSVReader(), "spec_gt3x2csv.csv")
        #expect(ours.count == 3600)
        #expect(r.quality.nominalSampleRateHz == 60)
        // 30–40 s and 55–60 s were 0,0,0: 15 s, each filled with the sample before it.
        #expect(r.quality.idleSleepSecondsFilled == 15)
        let k = 30 * 60
        #expect(ours.x[k] == ours.x[k - 1] && ours.y[k + 599] == ours.y[k - 1] && ours.z[k + 300] == ours.z[k - 1])
        #expect(ours.x[k - 1] != 0 || ours.y[k - 1] != 0 || ours.z[k - 1] != 0)
        #expect(r.warnings.contains { $0.contains("900 rows of exactly 0, 0, 0") })
        #expect(r.timeline.offset(atUTC: 1_718_406_000) == 0)
        #expect(ours.timestamps.first == 1_718_406_000)
    }

    @Test("calibration.json: parameters of exactly 0 or 1 are read (JSON numbers that bridge to Bool); implausible sensitivities are refused by name")
    func calibrationParameters() throws {
        var p: [String: Any] = ["offsetX_32": 0, "offsetY_32": 1, "offsetZ_32": 33, "sensitivityXX_32": 25100, "sensitivityYY_32": 25900,
                                "sensitivityZZ_32": 24700, "sensitivityXY_32": 0, "sensitivityXZ_32": 1, "sensitivityYZ_32": -55,
                                "isCalibrated": false, "calibrationMethod": 2]
        func parse() throws(ActiGraphCalibrationV2.CalibrationProblem) -> ActiGraphCalibrationV2? {
            try ActiGraphCalibrationV2.parse(json: Array(try! JSONSerialization.data(withJSONObject: p)), rateHz: 32)
        }
        let c = try #require(try parse())
        #expect(c.offset.0 == 0 && c.offset.1 == 1 && abs(c.matrix[0][1] - (1.0 / 250 - 0.004)) < 1e-18)
        p["sensitivityXY_32"] = -25000   // 1 / 0: a division by zero
        #expect(throws: ActiGraphCalibrationV2.CalibrationProblem.self) { try parse() }
        p["sensitivityXY_32"] = 0; p["sensitivityZZ_32"] = -24700   // a negative diagonal flips an axis
        #expect(throws: ActiGraphCalibrationV2.CalibrationProblem.self) { try parse() }
    }

    @Test("info.txt with a sample rate of nan, inf or 1e30 is refused, not a crash")
    func gt3xHostileSampleRate() {
        for rate in ["nan", "inf", "1e30", "-30"] {
            #expect(throws: IngestError.self) { try GT3XReader.Info(bytes: Array("Sample Rate: \(rate)\r\n".utf8), path: "x.gt3x") }
        }
    }

    @Test("an LSB export that starts with rows of 0, 0, 0: still told from g, the leading zero rows left out (nothing to fill them with), the rest calibrated")
    func actiLifeLSBLeadingZeroRows() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sleepsta-lsb0-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lines = try String(contentsOfFile: Fixture.path("spec_actilife_raw_lsb.csv"), encoding: .utf8).components(separatedBy: "\r\n")
        // 300 rows of zeros in place of the first 300 samples (more than the detection looks at).
        let rows = Array(lines.prefix(11)) + Array(repeating: "0.0,0.0,0.0", count: 300) + Array(lines.dropFirst(311))
        try rows.joined(separator: "\r\n").write(toFile: folder + "/spec_actilife_raw_lsb.csv", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Fixture.path("spec_actilife_raw_lsb.agdc"), toPath: folder + "/spec_actilife_raw_lsb.agdc")
        var ours = RawSampleBuffer()
        let r = try ActiLifeRawCSVReader().read(path: folder + "/spec_actilife_raw_lsb.csv", options: IngestOptions(), samples: &ours)
        let reference = try Fixture.reference("spec_actilife_raw_lsb.csv.pygt3x.csv.gz")
        #expect(ours.count == 1620)
        let a = SampleAgreement(ours, Array(reference.dropFirst(300)), timeTolerance: 1e-6, valueTolerance: 1e-8)
        #expect(a.matched == a.total && a.total == 1620, "\(a.note)")
        #expect(r.warnings.contains { $0.contains("300 rows of exactly 0, 0, 0 before the first measured row left out") })
    }

    // MARK: Axivity .cwa

    /// Values only: openmovement 0.0.1 (the PyPI release) multiplies the 16-bit fraction by the rate
    /// in uint16 when it undoes the timestamp shim, which overflows, so its times are off by up to
    /// one block (its GitHub source casts to int32 first). Times are checked against actfast and
    /// against the generator's true clock below.
    @Test("spec .cwa sample values = openmovement 0.0.1 (packed 10-bit AX3 and 16-bit AX6 layouts)",
          arguments: ["spec_ax3_packed.cwa", "spec_ax6_16bit.cwa"])
    func cwaVsOpenMovement(name: String) throws {
        let (_, ours) = try Fixture.samples(AxivityCWAReader(), name)
        let reference = try Fixture.reference(name + ".openmovement.csv.gz")
        // Values are k / 256 or k / 4096 g; the reference prints 9 significant digits.
        let values = SampleAgreement(ours, reference, timeTolerance: .infinity, valueTolerance: 1e-8)
        ReferenceReport.record("\(name) vs openmovement 0.0.1 (values)", matched: values.matched, total: values.total, note: values.note)
        #expect(ours.count == reference.count)
        #expect(values.matched == values.total)
    }

    @Test("spec .cwa = actfast 1.3.0 (values exact; actfast times each block at the nominal rate, so within 1 ms)",
          arguments: ["spec_ax3_packed.cwa", "spec_ax6_16bit.cwa"])
    func cwaVsActfast(name: String) throws {
        let (_, ours) = try Fixture.samples(AxivityCWAReader(), name)
        let reference = try Fixture.reference(name + ".actfast.csv.gz")
        let a = SampleAgreement(ours, reference, timeTolerance: 1e-3, valueTolerance: 1e-8)
        ReferenceReport.record("\(name) vs actfast 1.3.0", matched: a.matched, total: a.total, note: a.note)
        #expect(a.matched == a.total)
    }

    @Test("CWA sample times follow the device's true rate (100.05 Hz written as 100 Hz) to the timestamp resolution")
    func cwaTrueRate() throws {
        let (r, ours) = try Fixture.samples(AxivityCWAReader(), "spec_ax3_packed.cwa")
        // make_raw_fixtures.py: sample i at 1718405400 + i / 100.05 on the device clock (no --tz: UTC).
        // From the first block timestamp on, samples are interpolated between timestamps: exact to
        // their resolution. Before it they are placed at the configured 100 Hz (as GGIRread, actfast
        // and Open Movement's block start do), which here is off by up to 125 × (1/100 − 1/100.05) s.
        var worst = 0.0, worstBeforeFirstTimestamp = 0.0
        for i in 0..<ours.count {
            let e = abs(ours.timestamps[i] - (1_718_405_400 + Double(i) / 100.05))
            if i < 240 { worstBeforeFirstTimestamp = max(worstBeforeFirstTimestamp, e) } else { worst = max(worst, e) }
        }
        #expect(worst < 1e-4, "worst \(worst) s")
        #expect(worstBeforeFirstTimestamp < 1e-3, "worst in the first two blocks \(worstBeforeFirstTimestamp) s")
        #expect(r.quality.nominalSampleRateHz == 100)
        // 2 minutes are too short to measure drift (QualitySummary.minimumDriftSeconds): not reported.
        #expect(r.quality.sampleRateDriftPercent == nil)
        #expect(r.quality.deviceRangeG == 8)
        #expect(r.quality.clippedSamples == 50)   // x = 9 g for 0.5 s at 100 Hz
        #expect(r.timeZoneSource == .assumedUTC)
        #expect(r.device?.contains("AX3 #12345") == true)
    }

    @Test(".cwa.gz reads exactly like the .cwa")
    func cwaGzip() throws {
        let (_, plain) = try Fixture.samples(AxivityCWAReader(), "spec_ax3_packed.cwa")
        let (r, zipped) = try Fixture.samples(AxivityCWAReader(), "spec_ax3_packed.cwa.gz")
        #expect(zipped.timestamps == plain.timestamps && zipped.x == plain.x && zipped.z == plain.z)
        #expect(r.compression == "gzip")
        let detected = try FormatDetector.reader(forPath: Fixture.path("spec_ax3_packed.cwa.gz"))
        #expect(type(of: detected).format == .axivityCWA)
    }

    // MARK: GENEActiv .bin

    @Test("spec GENEActiv .bin = actfast 1.3.0 (calibrated g, page times)")
    func geneActivVsActfast() throws {
        let (r, ours) = try Fixture.samples(GENEActivBinReader(), "spec_geneactiv.bin")
        let reference = try Fixture.reference("spec_geneactiv.bin.actfast.csv.gz")
        // actfast reports the device clock (Time Zone: GMT +02:00) and calibrates in float32.
        let a = SampleAgreement(ours, reference, clockOffset: 7200, timeTolerance: 1e-6, valueTolerance: 2e-6)
        ReferenceReport.record("spec_geneactiv.bin vs actfast 1.3.0", matched: a.matched, total: a.total, note: a.note)
        #expect(ours.count == reference.count && a.matched == a.total)
        #expect(r.quality.nominalSampleRateHz == 10)
        #expect(r.quality.deviceRangeG == 8)
        #expect(r.quality.clippedSamples == 5)   // 9 g saturates at raw 2047 = 7.99 g
        #expect(r.timeZoneSource == .data)
        #expect(r.device == "GENEActiv 1.2 #099999, firmware Ver06.17 15June23")
    }
}
