import Foundation
import Testing
import SleepCore
import SleepIngest

/// The real device files other projects test their readers on (`../shared/external/peer_test_files`,
/// SOURCES.md section 8), checked against the numbers those projects' tests assert. Skipped when
/// `../shared` is absent.
@Suite("Peer projects' test files")
struct PeerTestFileTests {
    static let external = Comment(rawValue: ExternalData.skipMessage)

    static func path(_ relative: String) throws -> String {
        try #require(ExternalData.url("peer_test_files/" + relative)).path
    }

    /// Every sample of a raw file, in g and UTC seconds.
    static func samples<R: RawSampleReader>(_ reader: R, _ relative: String, tz: String? = nil) throws -> (Recording, RawSampleBuffer) {
        var buffer = RawSampleBuffer()
        let r = try reader.read(path: try path(relative), options: IngestOptions(timeZoneIdentifier: tz), samples: &buffer)
        return (r, buffer)
    }

    // MARK: Salvage of files cut short

    @Test("GENEActiv_testfile.bin (cut inside page 17): the 16 complete pages, GGIRread's numbers, a warning",
          .enabled(if: ExternalData.available, external))
    func geneActivCutShort() throws {
        let (r, s) = try Self.samples(GENEActivBinReader(), "ggirread/GENEActiv_testfile.bin", tz: "Europe/London")
        #expect(s.timestamps.count == 16 * 300, "16 complete pages of 300 samples; nothing of page 17")
        #expect(r.quality.nominalSampleRateHz == 85.7)
        // GGIRread: first time 2013-05-30 10:12:54.5 Europe/London (BST, +01:00).
        #expect(abs(s.timestamps[0] - 1_369_905_174.5) < 1e-6)
        // GGIRread's z[300] is R's 1-based index: the 300th sample, the last of page 1.
        #expect(abs(s.z[299] - -0.808364) < 5e-7)
        // Page 2 starts 300 samples at 85.7 Hz after page 1.
        #expect(abs(s.timestamps[300] - (1_369_905_174.5 + 300 / 85.7)) < 1e-3)
        let warning = try #require(r.warnings.first { $0.hasPrefix("file ends inside page 17") })
        #expect(warning.contains("at byte 65536"))
        #expect(warning.contains("231 complete samples"))
        #expect(warning.contains("16 complete pages"))
    }

    @Test("a .bin cut inside any page keeps only the complete pages; damage before the end still refuses",
          .enabled(if: ExternalData.available, external))
    func geneActivCutAnywhere() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try Self.path("ggirread/GENEActiv_testfile.bin"))))
        let folder = TemporaryFolder()
        // Cut inside the header of page 5, inside the sample line of page 5, and right after it.
        let page5 = Self.offsets(of: "Recorded Data", in: bytes)[4]
        let line5 = Self.offsets(of: "Measurement Frequency:85.7\r\n", in: bytes).filter { $0 > page5 }[0] + 28
        for (cut, pages) in [(page5 + 40, 4), (line5 + 1000, 4), (line5 + 3600, 5)] {
            let path = folder.write("cut.bin", bytes: Array(bytes.prefix(cut)))
            let r = try GENEActivBinReader().read(path: path, options: IngestOptions(timeZoneIdentifier: "UTC"))
            #expect(r.quality.sampleCount == pages * 300, "cut at \(cut)")
            if pages == 4 { #expect(r.warnings.contains { $0.hasPrefix("file ends inside page 5") && $0.contains("at byte \(cut)") }) }
        }
        // A short sample line followed by more lines is damage, not a cut: refused with its line.
        var damaged = bytes
        damaged.remove(at: line5 + 100)
        let path = folder.write("damaged.bin", bytes: damaged)
        #expect(throws: IngestError.self) { _ = try GENEActivBinReader().read(path: path, options: IngestOptions()) }
        do { _ = try GENEActivBinReader().read(path: path, options: IngestOptions()) } catch {
            #expect(error.line == 109 && error.message.contains("3599 hexadecimal digits"), "\(error)")
        }
        // A last page whose samples the intake refuses (time going back an hour) is an error, not a
        // cut: none of its samples may be kept, so the file is refused.
        var back = bytes
        let lastTime = Self.offsets(of: "Page Time:", in: bytes)[15]   // page 16, the last complete one
        back.replaceSubrange((lastTime + 10)..<(lastTime + 29), with: Array("2013-05-30 09:13:00".utf8))
        let cutBack = folder.write("cutback.bin", bytes: back)
        #expect(throws: IngestError.self) { _ = try GENEActivBinReader().read(path: cutBack, options: IngestOptions(timeZoneIdentifier: "UTC")) }
        // Cut inside the first page: nothing usable, refused.
        let first = folder.write("first.bin", bytes: Array(bytes.prefix(Self.offsets(of: "Recorded Data", in: bytes)[0] + 500)))
        #expect(throws: IngestError.self) { _ = try GENEActivBinReader().read(path: first, options: IngestOptions()) }
    }

    @Test(".cwa cut inside a block: the blocks before it, a warning; cut inside the first block: refused",
          .enabled(if: ExternalData.available, external))
    func cwaCutShort() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try Self.path("ggirread/ax3_testfile.cwa"))))
        #expect(bytes.count == 1024 + 145 * 512)
        let folder = TemporaryFolder()
        let path = folder.write("cut.cwa", bytes: Array(bytes.prefix(1024 + 100 * 512 + 300)))
        let r = try AxivityCWAReader().read(path: path, options: IngestOptions())
        #expect(r.quality.sampleCount == 100 * 120)
        #expect(r.warnings.contains { $0.hasPrefix("file ends inside data block 100 at byte \(1024 + 100 * 512 + 300)") })
        let whole = try AxivityCWAReader().read(path: try Self.path("ggirread/ax3_testfile.cwa"), options: IngestOptions())
        #expect(whole.quality.sampleCount == 145 * 120)
        #expect(!whole.warnings.contains { $0.contains("file ends inside") })
        let early = folder.write("early.cwa", bytes: Array(bytes.prefix(1024 + 200)))
        #expect(throws: IngestError.self) { _ = try AxivityCWAReader().read(path: early, options: IngestOptions()) }
    }

    @Test(".gt3x whose log.bin is cut inside a record: the records before it, a warning",
          .enabled(if: ExternalData.available, external))
    func gt3xLogCutShort() throws {
        let source = try Self.path("ggir/actigraph_testfile.gt3x")
        let zip = try ZipArchive(path: source)
        let info = try zip.open(zip.entry(named: "info.txt")!).readAll(limit: 1 << 20, path: source)
        let log = try zip.open(zip.entry(named: "log.bin")!).readAll(limit: 1 << 26, path: source)
        let whole = try GT3XReader().read(path: source, options: IngestOptions())
        let folder = TemporaryFolder()
        let path = folder.write("cut.gt3x", bytes: ZipBuilder.stored([("info.txt", info), ("log.bin", Array(log.prefix(log.count * 2 / 3)))]))
        let r = try GT3XReader().read(path: path, options: IngestOptions())
        #expect(r.quality.sampleCount > 0 && r.quality.sampleCount < whole.quality.sampleCount)
        #expect(r.warnings.contains { $0.hasPrefix("log.bin ends inside") && $0.contains("the records before it are read") })
        // Cut before the first activity record: nothing usable, refused.
        let early = folder.write("early.gt3x", bytes: ZipBuilder.stored([("info.txt", info), ("log.bin", Array(log.prefix(20)))]))
        #expect(throws: IngestError.self) { _ = try GT3XReader().read(path: early, options: IngestOptions()) }
    }

    // MARK: .cwa sample times

    @Test("first sample time of every .cwa: the first block's timestamp less timestampOffset at the configured rate",
          .enabled(if: ExternalData.available, external))
    func cwaFirstSampleTimes() throws {
        // ax3_testfile.cwa: block 0 says 10:55:07 + 0x2010/32768 s at sample 100 + ⌊0.2505 × 100⌋ = 125:
        // 10:55:06.000488, where GGIRread, actfast, scikit-digital-health and GGIR's CSV put it.
        let (ax3, s3) = try Self.samples(AxivityCWAReader(), "ggirread/ax3_testfile.cwa")
        #expect(abs(s3.timestamps[0] - 1_551_178_506.000488) < 1e-5)
        #expect(ax3.quality.skippedBlocks == 0)
        // GGIR's CSV export of the same file (first sample 10:55:06.000, same values).
        let csv = try #require(try ExternalData.text("peer_test_files/ggir/ax3_testfile_unix_timestamps.csv"))
        let rows = TestCSV.rows(csv).compactMap { r in r.count == 4 ? r.compactMap(Double.init) : nil }.filter { $0.count == 4 }
        #expect(rows.count == 210)
        #expect(abs(s3.timestamps[0] - rows[0][0]) < 0.001)
        // GGIR resamples onto a 100-Hz grid from the first sample (the device ran at 98.86 Hz):
        // each row's values are those of our sample nearest in time to the row's time.
        var matched = 0, j = 0
        for row in rows {
            while j + 1 < s3.timestamps.count && abs(s3.timestamps[j + 1] - row[0]) < abs(s3.timestamps[j] - row[0]) { j += 1 }
            if abs(s3.x[j] - row[1]) < 1e-9 && abs(s3.y[j] - row[2]) < 1e-9 && abs(s3.z[j] - row[3]) < 1e-9 { matched += 1 }
        }
        ReferenceReport.record("AX3 samples vs GGIR's CSV export of ax3_testfile.cwa (nearest sample in time)", matched: matched, total: rows.count,
                               note: "first sample \(String(format: "%.4f", s3.timestamps[0])) vs \(rows[0][0])")
        #expect(matched >= rows.count * 9 / 10)
        #expect(s3.x[0] == rows[0][1] && s3.y[0] == rows[0][2] && s3.z[0] == rows[0][3])

        // The same file with blocks 0, 13, 14, 142, 143, 144 damaged: 6 skipped; the first sample is
        // block 1's first (10:55:08.515 at sample 130 of block 1 → 10:55:07.215).
        let (bad, sb) = try Self.samples(AxivityCWAReader(), "ggirread/ax3_testfile_corrupt_blocks_0_13_14_142_143_144.cwa")
        #expect(bad.quality.skippedBlocks == 6)
        #expect(bad.quality.sampleCount == (145 - 6) * 120)
        #expect(abs(sb.timestamps[0] - 1_551_178_507.215137) < 1e-5)
        // Blocks 1–12 are the intact file's samples 120–1559, values equal.
        #expect(sb.x[0] == s3.x[120] && sb.z[1439] == s3.z[1559])

        // ax6_testfile.cwa: 16-bit AX6 with gyroscope, 21:04:06.700.
        let (ax6, s6) = try Self.samples(AxivityCWAReader(), "ggirread/ax6_testfile.cwa")
        #expect(abs(s6.timestamps[0] - 1_577_135_046.699792) < 1e-5)
        #expect(ax6.device?.hasPrefix("Axivity AX6 #6011834") == true)
    }

    // MARK: ActiLife epoch CSVs re-saved by a spreadsheet, and ActiGraph Link's variant

    /// GGIRread's sum over the rows of y, x, z (axis1, axis2, axis3) and their vector magnitude.
    static func sumWithVM(_ r: EpochRecording) throws -> Double {
        let a = try #require(r.column(named: "axis1")).values, b = try #require(r.column(named: "axis2")).values
        let c = try #require(r.column(named: "axis3")).values
        return a.indices.reduce(0.0) { $0 + a[$1] + b[$1] + c[$1] + (a[$1] * a[$1] + b[$1] * b[$1] + c[$1] * c[$1]).squareRoot() }
    }

    @Test("ActiGraph61.csv, ActiGraph13.csv (header lines ending in commas) and the Link export: GGIRread's numbers",
          .enabled(if: ExternalData.available, external))
    func actiLifeTrailingCommas() throws {
        let cases: [(file: String, serial: String?, epoch: Int, start: String, rows: Int, sum: Double, steps: Double)] = [
            ("ActiGraph61.csv", "MOS2D16160581", 5, "2016-08-15T21:35:00", 990, 63952.33, 253),
            ("ActiGraph13.csv", "CLE2A2123456", 15, "2013-08-26T09:00:00", 990, 272870.6, 1118),
            ("ActiGraph13_timestamps_headers.csv", "TAS1D48140206", 1, "2017-09-12T15:00:00", 1000, 255707.4, 442),
        ]
        for c in cases {
            let r = try FormatDetector.readEpochs(path: try Self.path("ggirread/" + c.file), options: IngestOptions())
            #expect(r.format == .actiLifeCSV)
            #expect(r.metadata["deviceserial"] == c.serial, "\(c.file)")
            #expect(r.epochSeconds == c.epoch, "\(c.file)")
            #expect(LocalClock.isoLocal(localSecond: r.firstEpochLocalSecond) == c.start, "\(c.file)")
            #expect(r.count == c.rows && r.absentEpochs == 0, "\(c.file)")
            let sum = try Self.sumWithVM(r)
            #expect(abs(sum - c.sum) < 0.06, "\(c.file): \(sum)")
            #expect(r.column(named: "steps")?.values.reduce(0, +) == c.steps, "\(c.file)")
            ReferenceReport.record("ActiLife CSV \(c.file) vs GGIRread's asserted numbers", matched: abs(sum - c.sum) < 0.06 ? 1 : 0, total: 1,
                                   note: "sum y,x,z,vm \(String(format: "%.2f", sum)) vs \(c.sum)")
        }
    }

    // MARK: Actiware export in Dutch

    @Test("Actiwatch.csv (Actiware 5, Dutch): GGIRread's numbers and the device line",
          .enabled(if: ExternalData.available, external))
    func actiwareDutch() throws {
        let r = try FormatDetector.readEpochs(path: try Self.path("ggirread/Actiwatch.csv"), options: IngestOptions())
        #expect(r.format == .actiwareCSV)
        #expect(r.epochSeconds == 15 && r.count == 860)
        #expect(LocalClock.isoLocal(localSecond: r.firstEpochLocalSecond) == "2019-11-23T06:00:00")
        #expect(r.timeZoneSource == .data && r.timeline.offset(atUTC: r.firstEpochStartUTC) == 3600)
        let activity = try #require(r.column(named: "activity"))
        #expect(activity.sourceName == "Activiteit")
        let activitySum = activity.values.filter { !$0.isNaN }.reduce(0, +)
        #expect(activitySum == 4589)
        #expect(try #require(r.column(named: "off_wrist")).values.reduce(0, +) == 797)
        let labels = try #require(r.labelColumn(named: "sleep_wake")).labels
        #expect(labels.filter { $0 == .wake }.count == 55, "Actiware's wake = 1: the sum of the column is 55")
        #expect(r.metadata["device"] == "Actiwatch Spectrum Plus #P66732, firmware 01.00.0012")
        let inspection = RecordingInspector.inspection(of: r, path: "Actiwatch.csv")
        #expect(inspection.device == "Actiwatch Spectrum Plus #P66732, firmware 01.00.0012")
    }

    // MARK: Formats new to sleepsta, against the peers' numbers

    static func sum(_ r: EpochRecording, _ column: String) throws -> Double {
        try #require(r.column(named: column)).values.filter { !$0.isNaN }.reduce(0, +)
    }

    @Test("Actiwatch .AWD: GGIRread's Actiwatch.AWD and pyActigraphy's test_sample.AWD",
          .enabled(if: ExternalData.available, external))
    func actiwatchAWD() throws {
        let g = try FormatDetector.readEpochs(path: try Self.path("ggirread/Actiwatch.AWD"), options: IngestOptions())
        #expect(g.format == .actiwatchAWD)
        // GGIRread: 329 rows, counts sum 108864, 2 markers, start 2009-10-01 17:00 (60-s epochs).
        #expect(g.count == 329 && g.epochSeconds == 60)
        #expect(LocalClock.isoLocal(localSecond: g.firstEpochLocalSecond) == "2009-10-01T17:00:00")
        #expect(try Self.sum(g, "activity") == 108_864)
        #expect(try Self.sum(g, "marker") == 2)
        #expect(g.column(named: "light") != nil, "the Actiwatch-7 lines carry light (\"498 , 0,00 M\")")
        // pyActigraphy 1.2.2 read_raw_awd: 11718 epochs of 60 s from 2018-01-01 08:30, sum 1741455.
        let p = try FormatDetector.readEpochs(path: try Self.path("pyactigraphy/test_sample.AWD"), options: IngestOptions())
        #expect(p.count == 11_718 && p.epochSeconds == 60)
        #expect(LocalClock.isoLocal(localSecond: p.firstEpochLocalSecond) == "2018-01-01T08:30:00")
        #expect(try Self.sum(p, "activity") == 1_741_455)
        #expect(p.column(named: "light") == nil)
    }

    @Test("MotionWatch .mtn: pyActigraphy's test_sample.mtn", .enabled(if: ExternalData.available, external))
    func motionWatchMTN() throws {
        // pyActigraphy 1.2.2 read_raw_mtn: 5978 epochs of 5 s from 2018-05-23 17:30, sum 109065; light (log10(1 + lux)) sum 4037.942.
        let r = try FormatDetector.readEpochs(path: try Self.path("pyactigraphy/test_sample.mtn"), options: IngestOptions())
        #expect(r.format == .motionWatchMTN)
        #expect(r.count == 5978 && r.epochSeconds == 5 && r.absentEpochs == 0)
        #expect(LocalClock.isoLocal(localSecond: r.firstEpochLocalSecond) == "2018-05-23T17:30:00")
        #expect(try Self.sum(r, "activity") == 109_065)
        // pyActigraphy's light recording holds log10(1 + lux): its sum 4037.942; the lux sum is 921185.428.
        let light = try #require(r.column(named: "light")).values
        let luxSum = light.reduce(0, +), logSum = light.reduce(0) { $0 + log10(1 + $1) }
        #expect(abs(luxSum - 921_185.428007) < 1e-5)
        #expect(abs(logSum - 4037.9424798407936) < 1e-6)
        #expect(r.metadata["device"] == "CamNtech MotionWatch MW8 #007565, firmware 20")
    }

    @Test("Condor ActTrust: pyActigraphy's test_sample_atr.txt", .enabled(if: ExternalData.available, external))
    func actTrust() throws {
        // pyActigraphy 1.2.2 read_raw_atr: 5760 epochs of 60 s from 1918-01-01 09:00; sums PIM 14166918,
        // TAT 852449, ZCM 336623 (mode=PIM/TAT/ZCM).
        let r = try FormatDetector.readEpochs(path: try Self.path("pyactigraphy/test_sample_atr.txt"), options: IngestOptions())
        #expect(r.format == .actTrust)
        #expect(r.count == 5760 && r.epochSeconds == 60 && r.absentEpochs == 0)
        #expect(LocalClock.isoLocal(localSecond: r.firstEpochLocalSecond) == "1918-01-01T09:00:00")
        #expect(try Self.sum(r, "pim") == 14_166_918)
        #expect(try Self.sum(r, "tat") == 852_449)
        #expect(try Self.sum(r, "zcm") == 336_623)
        #expect(r.metadata["device"] == "Condor ActTrust1 #myUUID, firmware 3.8")
        #expect(r.metadata["subject_name"] == nil, "subject lines are not kept")
    }

    @Test("UK Biobank 5-s epoch CSV: GGIR's ukbiobank.csv (502 epochs of a 7-day title)", .enabled(if: ExternalData.available, external))
    func ukBiobank() throws {
        // No peer asserts numbers for this file; these are its rows as Python's csv module sums them.
        let r = try FormatDetector.readEpochs(path: try Self.path("ggir/ukbiobank.csv"), options: IngestOptions())
        #expect(r.format == .ukBiobankEpochCSV)
        #expect(r.count == 502 && r.epochSeconds == 5)
        #expect(LocalClock.isoLocal(localSecond: r.firstEpochLocalSecond) == "2014-12-08T10:00:00")
        #expect(abs(try Self.sum(r, "acc_mg") - 851.9) < 1e-9)
        #expect(try Self.sum(r, "imputed") == 0)
        #expect(r.warnings.contains { $0.contains("the title states 120960 epochs") && $0.contains("the first 502") })
    }

    @Test("raw CSV with formatted times and gyroscope columns: GGIR's export of ax6_testfile.cwa equals the .cwa",
          .enabled(if: ExternalData.available, external))
    func wideRawCSV() throws {
        let (r, csv) = try Self.samples(WideRawCSVReader(), "ggir/ax6_testfile_formatted_timestamps.csv", tz: "UTC")
        #expect(r.format == .wideRawCSV)
        #expect(csv.timestamps.count == 210)
        #expect(abs(csv.timestamps[0] - 1_577_135_046.690) < 1e-6)
        #expect(csv.x[0] == 0.007324 && csv.y[0] == 0.071289 && csv.z[0] == 0.008789, "x, y, z are columns 2-4; the gyroscope is left out")
        // The same samples in the .cwa (GGIR prints 6 decimals, rounding k/4096 g halves up).
        let (_, cwa) = try Self.samples(AxivityCWAReader(), "ggirread/ax6_testfile.cwa")
        var matched = 0
        for k in 0..<csv.timestamps.count where abs(csv.x[k] - cwa.x[k]) <= 5.01e-7 && abs(csv.y[k] - cwa.y[k]) <= 5.01e-7 && abs(csv.z[k] - cwa.z[k]) <= 5.01e-7 { matched += 1 }
        ReferenceReport.record("GGIR's AX6 CSV export vs sleepsta's read of ax6_testfile.cwa (values, sample by sample)", matched: matched, total: csv.timestamps.count)
        #expect(matched == csv.timestamps.count)
        #expect(abs(csv.timestamps[0] - cwa.timestamps[0]) < 0.011)
        #expect(try FormatDetector.reader(forPath: try Self.path("ggir/ax6_testfile_formatted_timestamps.csv")) is WideRawCSVReader)
    }

    @Test("biobankAccelerometerAnalysis time series: pyActigraphy's sample-timeSeries.csv.gz", .enabled(if: ExternalData.available, external))
    func bbaTimeSeries() throws {
        // pyActigraphy 1.2.2 read_raw_bba (use_metadata_json=False): 16841 epochs of 30 s from
        // 2014-05-07 13:29:50.439+01:00, acc sum 552196.098 mg, 125 missing.
        let r = try FormatDetector.readEpochs(path: try Self.path("pyactigraphy/sample-timeSeries.csv.gz"), options: IngestOptions())
        #expect(r.format == .bbaTimeSeries)
        #expect(r.count == 16_841 && r.epochSeconds == 30 && r.absentEpochs == 0)
        #expect(LocalClock.isoLocal(localSecond: r.firstEpochLocalSecond) == "2014-05-07T13:29:50")
        #expect(abs(r.startFractionSeconds - 0.439) < 1e-9)
        #expect(r.timeZoneSource == .data && r.timeline.offset(atUTC: r.firstEpochStartUTC) == 3600)
        let acc = try #require(r.column(named: "acc_mg")).values
        #expect(acc.filter(\.isNaN).count == 125)
        let total = acc.filter { !$0.isNaN }.reduce(0, +)
        #expect(abs(total - 552_196.098) < 1e-6)
        #expect(try Self.sum(r, "state_sleep") == 6180)
        #expect(r.metadata["timezone"] == "Europe/London")
    }

    static func offsets(of text: String, in bytes: [UInt8]) -> [Int] {
        let needle = Array(text.utf8)
        var result: [Int] = []
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle { result.append(i) }
            i += 1
        }
        return result
    }
}
