import Foundation
import GRDB
import Testing
import SleepCore
import SleepIngest

/// Epoch-file readers: the reference files in ../shared/external read as their sources describe
/// them (cross-checked against each other where two files hold the same data), hand-made files for
/// the layouts no reference file has, and bad input for every reader.
@Suite("Epoch file readers")
struct EpochReaderTests {
    static let external = Comment(rawValue: ExternalData.skipMessage)

    /// The epoch reader the one detector picks for `path`, nil when it is not an epoch file.
    static func epochReader(forPath path: String) throws -> (any EpochFileReader)? {
        guard case .epochs(let reader) = try? FormatDetector.detect(path: path) else { return nil }
        return reader
    }

    static func read(_ relative: String, tz: String? = nil) throws -> EpochRecording {
        let path = try #require(ExternalData.url(relative)).path
        return try FormatDetector.readEpochs(path: path, options: IngestOptions(timeZoneIdentifier: tz))
    }

    /// ISO local time of a local second, for comparing with the files' own text.
    static func local(_ r: EpochRecording, _ i: Int) -> String {
        LocalClock.isoLocal(localSecond: r.firstEpochLocalSecond + Int64(i * r.epochSeconds))
    }

    // MARK: Reference files

    @Test("ActiGraph .agd equals ActiLife's CSV export of the same data, cell for cell",
          .enabled(if: ExternalData.available, external))
    func agdMatchesItsCSVExport() throws {
        for device in ["GT3XPlus", "ActiSleepPlus"] {
            let agd = try Self.read("actigraph_sleepr_actilife/\(device)-RawData-Day01.agd")
            let csv = try Self.read("actigraph_sleepr_actilife/\(device)-RawData-Day01.csv")
            #expect(agd.format == .actiGraphAGD)
            #expect(csv.format == .actiLifeCSV)
            #expect(agd.epochSeconds == 10 && csv.epochSeconds == 10)
            #expect(agd.metadata["devicename"] != nil)
            #expect(agd.metadata["subjectname"] == nil, "subject details are not copied")
            #expect(agd.count == csv.count)
            #expect(agd.firstEpochLocalSecond == csv.firstEpochLocalSecond)
            var matched = 0, total = 0
            for column in csv.columns {
                let ours = try #require(agd.column(named: column.name), "agd lacks \(column.name)")
                for i in 0..<min(ours.values.count, column.values.count) {
                    total += 1
                    if ours.values[i] == column.values[i] { matched += 1 }
                }
            }
            ReferenceReport.record("AGD reader vs ActiLife CSV export, \(device) 10-s cells", matched: matched, total: total,
                                   note: "\(agd.count) epochs × \(csv.columns.count) columns")
            #expect(matched == total && total == agd.count * 9)
        }
    }

    @Test("GT3X+ .agd: settings, clock and first rows as the database holds them", .enabled(if: ExternalData.available, external))
    func agdSettingsAndClock() throws {
        let r = try Self.read("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01.agd")
        #expect(r.count == 8999)
        #expect(r.absentEpochs == 0)
        #expect(Self.local(r, 0) == "2012-06-27T10:54:00")
        #expect(Self.local(r, 8998) == "2012-06-28T11:53:40")
        #expect(r.timeZoneSource == .assumedUTC && !r.hasKnownOffset)
        #expect(r.metadata["filter"] == "Normal")
        #expect(r.metadata["softwareversion"] == "6.13.3")
        #expect(r.columns.map(\.name) == ["axis1", "axis2", "axis3", "steps", "lux", "inclineoff", "inclinestanding",
                                         "inclinesitting", "inclinelying"])
        #expect(r.column(named: "axis1")!.values.prefix(3) == [377, 465, 505])
        #expect(r.column(named: "Axis 1")!.name == "axis1")
        #expect(r.column(named: "lux")!.reduction == .floorMean)
        // --tz makes the local clock an instant: 10:54 in Berlin (CEST) is 08:54 UTC.
        let berlin = try Self.read("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01.agd", tz: "Europe/Berlin")
        #expect(berlin.firstEpochStartUTC == r.firstEpochLocalSecond - 7200)
        #expect(berlin.timeZoneSource == .option)
    }

    @Test("ActiLife Date/Time exports: 60-s epochs, VM and the S/W column as labels", .enabled(if: ExternalData.available, external))
    func actiLifeScoringExport() throws {
        let r = try Self.read("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01-Sadeh.csv")
        #expect(r.format == .actiLifeCSV)
        #expect(r.epochSeconds == 60 && r.count == 1500)
        #expect(Self.local(r, 0) == "2012-06-27T10:54:00")
        #expect(r.metadata["dateformat"] == "M/d/yyyy")
        #expect(r.column(named: "vm")!.values[0] == 3460)
        let labels = try #require(r.labelColumn(named: "Sleep or Awake?"))
        #expect(labels.labels.prefix(7).map { $0?.letter } == ["W", "W", "W", "W", "W", "W", "S"])
        #expect(labels.labels.allSatisfy { $0 != nil })

        let both = try Self.read("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01-sleep-awake.csv")
        #expect(both.labelColumns.map(\.name) == ["sadeh", "cole_kripke"])
        #expect(both.labelColumn(named: "sadeh")!.labels == labels.labels, "the two ActiLife files agree")
        #expect(both.timeZoneSource == .data, "the Z suffix is the file's statement of the offset")
    }

    @Test("ActiLife counts CSV with timestamp_local: 36 epochs of 5 s", .enabled(if: ExternalData.available, external))
    func plainTimestampCSV() throws {
        let r = try Self.read("agcounts_link_100hz/example5sec_actilife_counts.csv")
        let agd = try Self.read("agcounts_link_100hz/example5sec.agd")
        #expect(r.epochSeconds == 5 && r.count == 36 && agd.count == 36)
        #expect(r.firstEpochLocalSecond == agd.firstEpochLocalSecond)
        for name in ["axis1", "axis2", "axis3", "steps"] {
            #expect(r.column(named: name)!.values == agd.column(named: name)!.values)
        }
        #expect(r.column(named: "vector_magnitude")!.name == "vm")
    }

    @Test("Actiware exports in English (30 s) and French (60 s)", .enabled(if: ExternalData.available, external))
    func actiwareExports() throws {
        let eng = try Self.read("actiware_rpx/test_sample_rpx_eng.csv")
        #expect(eng.format == .actiwareCSV)
        #expect(eng.epochSeconds == 30 && eng.count == 20160 && eng.absentEpochs == 0)
        #expect(Self.local(eng, 0) == "2015-07-04T09:45:00")
        #expect(Self.local(eng, 20159) == "2015-07-11T09:44:30")
        #expect(eng.timeline == .fixed(3600) && eng.timeZoneSource == .data)
        #expect(eng.metadata["Actiwatch Type"] == "Actiwatch 2")
        #expect(eng.metadata["Identity"] == nil, "subject properties are not kept")
        #expect(eng.metadata["dateformat"] == "d/M/yyyy")
        #expect(eng.column(named: "activity")!.values[9] == 9)
        #expect(eng.column(named: "white_light")!.values[0] == 0.01)
        let engLabels = eng.labelColumn(named: "sleep_wake")!.labels
        #expect(engLabels.prefix(5).map { $0 == nil } == [true, true, true, true, false])

        let fr = try Self.read("actiware_rpx/test_sample_rpx_fr.csv")
        #expect(fr.epochSeconds == 60 && fr.count == 11581)
        #expect(Self.local(fr, 0) == "2015-02-04T11:45:00")
        #expect(fr.timeline == .fixed(3600))
        #expect(fr.columns.map(\.name).contains("mobility"))
        #expect(fr.column(named: "Activité")!.name == "activity")
        #expect(fr.column(named: "activity")!.values.last!.isNaN, "NAN is missing")
        #expect(fr.labelColumn(named: "sleep_wake")!.labels[2] == .sleep)
    }

    @Test("QUT epoch files: 15 s, NA missing, Actiware classification as labels", .enabled(if: ExternalData.available, external))
    func qutFiles() throws {
        for night in ["p02_n01", "p02_n02", "p03_n01", "p03_n02"] {
            let r = try Self.read("qut_applewatch_actiwatch/\(night)_ready.csv")
            let rows = try #require(try ExternalData.text("qut_applewatch_actiwatch/\(night)_ready.csv"))
                .split(whereSeparator: \.isNewline).count - 1
            #expect(r.format == .qutEpochCSV)
            #expect(r.epochSeconds == 15)
            #expect(r.count == rows && r.absentEpochs == 0)
            #expect(r.column(named: "activity")!.values[0].isNaN)
            #expect(r.column(named: "enmo") != nil)
            #expect(r.labelColumn(named: "actiware_classification")!.labels.contains(.sleep))
        }
        let r = try Self.read("qut_applewatch_actiwatch/p02_n01_ready.csv")
        #expect(Self.local(r, 0) == "2000-01-01T01:17:00")
        #expect(r.column(named: "activity")!.values[11] == 129)
    }

    @Test("MMASH Actigraph.csv: 1-s epochs, missing seconds kept missing", .enabled(if: ExternalData.available, external))
    func mmash() throws {
        let r = try Self.read("mmash/user_1/Actigraph.csv")
        #expect(r.format == .mmashActigraphCSV && r.epochSeconds == 1)
        #expect(r.count - r.absentEpochs == 67936, "one epoch per data row")
        #expect(Self.local(r, 0) == "1970-01-01T10:10:22")
        #expect(r.column(named: "axis1")!.values[1] == 11)
        // Rows 10:10:22 … 10:10:32, then 10:11:01: the 28 seconds between are missing epochs.
        #expect(r.column(named: "axis1")!.values[11].isNaN && r.column(named: "axis1")!.values[38].isNaN)
        #expect(r.column(named: "axis1")!.values[39] == 89)
        #expect(r.column(named: "hr")!.reduction == .mean)
        #expect(r.warnings.contains { $0.contains("day numbers") })
    }

    @Test("Every reference file goes to its reader; raw-sample files to none", .enabled(if: ExternalData.available, external))
    func detection() throws {
        let expected: [(String, EpochFileFormat?)] = [
            ("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01.agd", .actiGraphAGD),
            ("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01.csv", .actiLifeCSV),
            ("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01-10sec60sec.csv", .actiLifeCSV),
            ("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01-ColeKripke.csv", .actiLifeCSV),
            ("actiware_rpx/test_sample_rpx_fr.csv", .actiwareCSV),
            ("qut_applewatch_actiwatch/p03_n02_ready.csv", .qutEpochCSV),
            ("mmash/user_2/Actigraph.csv", .mmashActigraphCSV),
            ("agcounts_link_100hz/example_raw_100hz_pygt3x.csv", nil),
            ("mmash/user_1/sleep.csv", nil),
        ]
        for (file, format) in expected {
            let reader = try Self.epochReader(forPath: ExternalData.url(file)!.path)
            #expect(reader.map { type(of: $0).format } == format, "\(file)")
        }
        // The batch refuses epoch files with a message that says what they are.
        let path = ExternalData.url("actigraph_sleepr_actilife/GT3XPlus-RawData-Day01-sleep-awake.csv")!.path
        let error = #expect(throws: IngestError.self) { try FormatDetector.reader(forPath: path) }
        #expect(error?.message.contains("epoch file") == true)
    }

    // MARK: Layouts without a reference file

    static let headerBlock = """
    ------------ Data File Created By ActiGraph GT3X+ ActiLife v6.13.3 Firmware v2.5.0 date format d/M/yyyy at 30 Hz  Filter Normal -----------
    Serial Number: NEO1DXXXXXXXX
    Start Time 23:59:00
    Start Date 31/12/2023
    Epoch Period (hh:mm:ss) 00:01:00
    Download Time 10:00:00
    Download Date 2/1/2024
    Current Memory Address: 0
    Current Battery Voltage: 4.22     Mode = 61
    --------------------------------------------------

    """

    @Test func actiLifeHeaderBlockWithTitles() throws {
        let folder = TemporaryFolder()
        let path = folder.write("titled.csv", Self.headerBlock + """
        Date,Time,Axis1,Axis2,Axis3,Steps,Lux,Inclinometer Off,Inclinometer Standing,Inclinometer Sitting,Inclinometer Lying,Vector Magnitude\r
        31/12/2023,23:59:00,10,20,30,1,5,0,60,0,0,37.42\r
        1/1/2024,00:00:00,0,0,0,0,5,0,0,0,60,0\r
        1/1/2024,00:02:00,7,0,0,0,5,0,0,0,60,7\r

        """)
        let reader = try #require(try Self.epochReader(forPath: path))
        #expect(reader is ActiLifeCSVReader)
        let r = try reader.read(path: path, options: IngestOptions())
        #expect(r.epochSeconds == 60 && r.count == 4 && r.absentEpochs == 1)
        #expect(Self.local(r, 0) == "2023-12-31T23:59:00")
        #expect(r.metadata["deviceserial"] == "NEO1DXXXXXXXX")
        #expect(r.metadata["devicename"] == "GT3X+")
        #expect(r.metadata["filter"] == "Normal")
        #expect(r.metadata["modenumber"] == "61")
        #expect(r.column(named: "axis1")!.values[0] == 10)
        #expect(r.column(named: "axis1")!.values[2].isNaN)
        #expect(r.column(named: "inclinelying")!.values[3] == 60)
    }

    @Test func actiLifeHeaderBlockWithoutTitles() throws {
        let folder = TemporaryFolder()
        let path = folder.write("bare.csv", Self.headerBlock + "10,20,30,1\n0,0,0,0\n5,6,7,0\n")
        let r = try ActiLifeCSVReader().read(path: path, options: IngestOptions())
        #expect(r.columns.map(\.name) == ["axis1", "axis2", "axis3", "steps"])
        #expect(r.count == 3)
        #expect(Self.local(r, 2) == "2024-01-01T00:01:00", "times run from the header's start at the epoch period")
        #expect(r.column(named: "axis3")!.values == [30, 0, 7])
    }

    @Test func actiLifeRawExportIsLeftToTheRawReaders() throws {
        let raw = Self.headerBlock.replacingOccurrences(of: "00:01:00", with: "00:00:00")
            + "Accelerometer X,Accelerometer Y,Accelerometer Z\n-0.182,-0.182,0.962\n"
        let folder = TemporaryFolder()
        let path = folder.write("raw.csv", raw)
        #expect(try Self.epochReader(forPath: path) == nil)
        // A plain timestamp,axis1,… file with acceleration in g is raw too.
        let g = folder.write("g.csv", "timestamp,axis1,axis2,axis3\n2024-01-01T00:00:00,0.012,0.5,0.9\n")
        #expect(try Self.epochReader(forPath: g) == nil)
    }

    @Test("Actiware export in German with decimal commas and semicolons")
    func actiwareGermanDecimalCommas() throws {
        let text = """
        "Actiware-Exportdatei (Version 05.00)"
        "-------------------- Probandeneigenschaften --------------------"
        "Identität:";"X"
        "----------------- Actiwatch-Dateneigenschaften ----------------"
        "Actiwatch-Typ:";"Actiwatch 2"
        "Epochenlänge:";"15";"Sekunden"
        "Zeitzonenverschiebung:";"+02:00";"Stunden:Minuten"
        "-------------------- Daten nach Epochen -------------------"
        "Zeile";"Datum";"Zeit";"Aktivität";"Markierung";"Weißes Licht";"Schlaf/Wach";"Intervallstatus"
        "1";"28.03.2021";"23:59:30";"12";"0";"1,5";"kZ";"AKTIV"
        "2";"28.03.2021";"23:59:45";"kZ";"0";"2,25";"1";"AKTIV"
        "3";"29.03.2021";"00:00:00";"0";"0";"0,5";"0";"RUHE"

        """
        let folder = TemporaryFolder()
        let path = folder.write("de.csv", text.replacingOccurrences(of: "\n", with: "\r\n"))
        let r = try FormatDetector.readEpochs(path: path, options: IngestOptions())
        #expect(r.format == .actiwareCSV)
        #expect(r.epochSeconds == 15 && r.count == 3)
        #expect(r.timeline == .fixed(7200))
        #expect(r.metadata["dateformat"] == "d/M/yyyy")
        #expect(Self.local(r, 2) == "2021-03-29T00:00:00")
        #expect(r.column(named: "activity")!.values[0] == 12)
        #expect(r.column(named: "activity")!.values[1].isNaN)
        #expect(r.column(named: "white_light")!.values == [1.5, 2.25, 0.5])
        #expect(r.labelColumn(named: "sleep_wake")!.labels == [nil, .wake, .sleep])
    }

    @Test("Actiware US dates (days ≤ 12): the day-to-day step tells month first; 12-h times")
    func actiwareUSDates() throws {
        let text = """
        "Actiware Export File  (Version 05.00 )"
        "Epoch Length:","60","seconds",""
        "Line","Date","Time","Activity","Sleep/Wake",
        "1","3/1/2020","11:59:00 PM","3","0",
        "2","3/2/2020","12:00:00 AM","4","1",

        """
        let folder = TemporaryFolder()
        let r = try ActiwareCSVReader().read(path: folder.write("us.csv", text), options: IngestOptions())
        #expect(Self.local(r, 0) == "2020-03-01T23:59:00")
        #expect(r.count == 2)
        #expect(r.timeZoneSource == .assumedUTC)
    }

    // MARK: Bad input, one or more per reader

    @Test func badActiLifeInput() throws {
        let folder = TemporaryFolder()
        func error(_ name: String, _ text: String) throws -> IngestError? {
            let path = folder.write(name, text)
            return #expect(throws: IngestError.self) { try ActiLifeCSVReader().read(path: path, options: IngestOptions()) }
        }
        let header = "timestamp,axis1,axis2,axis3\n"
        var e = try error("num.csv", header + "2024-01-01T00:00:00,1,2,3\n2024-01-01T00:01:00,x,2,3\n")
        #expect(e?.line == 3 && e?.message.contains("axis1 = 'x' is not a number") == true)
        e = try error("back.csv", header + "2024-01-01T00:01:00,1,2,3\n2024-01-01T00:00:00,1,2,3\n")
        #expect(e?.line == 3 && e?.message.contains("time goes back") == true)
        e = try error("dup.csv", header + "2024-01-01T00:01:00,1,2,3\n2024-01-01T00:01:00,1,2,3\n")
        #expect(e?.line == 3 && e?.message.contains("repeats") == true)
        e = try error("grid.csv", header + "2024-01-01T00:00:00,1,2,3\n2024-01-01T00:01:00,1,2,3\n2024-01-01T00:02:30,1,2,3\n")
        #expect(e?.line == 4 && e?.message.contains("whole 60-s epochs") == true)
        e = try error("date.csv", "Date,Time,Axis1\n6/27/2012,10:54 AM,1\n6/32/2012,10:55 AM,1\n")
        #expect(e?.line == 3 && e?.message.contains("date '6/32/2012'") == true)
        e = try error("time.csv", "Date,Time,Axis1\n6/27/2012,25:54,1\n")
        #expect(e?.line == 2 && e?.message.contains("time '25:54'") == true)
        e = try error("width.csv", "Date,Time,Axis1,Axis2\n6/27/2012,10:54,1\n")
        #expect(e?.line == 2 && e?.message.contains("expected 4") == true)
        e = try error("nostart.csv", Self.headerBlock.replacingOccurrences(of: "Start Date 31/12/2023\n", with: "") + "1,2,3\n")
        #expect(e?.message.contains("Start Date") == true)
        e = try error("empty.csv", "")
        #expect(e?.message.contains("empty") == true)
        let bytes = Array("Date,Time,Axis1\n6/27/2012,10:54,1\n".utf8) + [0xE9, 0x0A]
        let path = folder.write("bytes.csv", bytes: bytes)
        let u = #expect(throws: IngestError.self) { try ActiLifeCSVReader().read(path: path, options: IngestOptions()) }
        #expect(u?.byteOffset == bytes.count - 2 && u?.message.contains("UTF-8") == true)
    }

    @Test func badActiwareInput() throws {
        let folder = TemporaryFolder()
        let top = "\"Actiware Export File  (Version 05.00 )\"\n\"Epoch Length:\",\"30\",\"seconds\"\n"
        func error(_ name: String, _ text: String) -> IngestError? {
            let path = folder.write(name, text)
            return #expect(throws: IngestError.self) { try ActiwareCSVReader().read(path: path, options: IngestOptions()) }
        }
        var e = error("notable.csv", top + "\"Line\",\"Date\",\"Time\",\"Marker\"\n")
        #expect(e?.message.contains("no epoch-by-epoch table") == true)
        let titles = "\"Line\",\"Date\",\"Time\",\"Activity\",\"Sleep/Wake\",\n"
        e = error("date.csv", top + titles + "\"1\",\"31/02/2015\",\"09:45:00\",\"0\",\"0\",\n")
        #expect(e?.line == 4 && e?.message.contains("date '31/02/2015'") == true)
        e = error("sw.csv", top + titles + "\"1\",\"04/07/2015\",\"09:45:00\",\"0\",\"2\",\n")
        #expect(e?.line == 4 && e?.message.contains("expected 0 (sleep), 1 (wake) or NaN") == true)
        e = error("act.csv", top + titles + "\"1\",\"04/07/2015\",\"09:45:00\",\"lots\",\"0\",\n")
        #expect(e?.line == 4 && e?.message.contains("Activity = 'lots'") == true)
        e = error("epoch.csv", "\"Actiware Export File\"\n\"Epoch Length:\",\"thirty\"\n" + titles + "\"1\",\"04/07/2015\",\"09:45:00\",\"0\",\"0\",\n")
        #expect(e?.line == 2 && e?.message.contains("epoch length") == true)
        e = error("grid.csv", top + titles + "\"1\",\"04/07/2015\",\"09:45:00\",\"0\",\"0\",\n\"2\",\"04/07/2015\",\"09:45:10\",\"0\",\"0\",\n")
        #expect(e?.line == 5 && e?.message.contains("whole 30-s epochs") == true)
    }

    @Test func badQUTInput() throws {
        let folder = TemporaryFolder()
        let titles = "timestamp,Actiwatch activity counts,Actiware classification,Apple Watch ENMO\n"
        func error(_ name: String, _ text: String) -> IngestError? {
            let path = folder.write(name, text)
            return #expect(throws: IngestError.self) { try QUTEpochCSVReader().read(path: path, options: IngestOptions()) }
        }
        var e = error("ts2.csv", titles + "2000-01-01,NA,NA,0.003\n")
        #expect(e?.line == 2 && e?.message.contains("expected dd/mm/yyyy HH:MM:SS") == true)
        e = error("cls.csv", titles + "01/01/2000 01:17:00,3,S,0.003\n")
        #expect(e?.line == 2 && e?.message.contains("Actiware classification 'S'") == true)
        e = error("enmo.csv", titles + "01/01/2000 01:17:00,3,0,abc\n")
        #expect(e?.line == 2 && e?.message.contains("Apple Watch ENMO = 'abc'") == true)
        e = error("cols.csv", "timestamp,Actiwatch activity counts\n")
        #expect(e?.line == 1 && e?.message.contains("no column") == true)
    }

    @Test func badMMASHInput() throws {
        let folder = TemporaryFolder()
        let titles = ",Axis1,Axis2,Axis3,Steps,HR,Vector Magnitude,day,time\n"
        func error(_ name: String, _ text: String) -> IngestError? {
            let path = folder.write(name, text)
            return #expect(throws: IngestError.self) { try MMASHActigraphReader().read(path: path, options: IngestOptions()) }
        }
        var e = error("day.csv", titles + "0,1,2,3,0,60,3.7,x,10:00:00\n")
        #expect(e?.line == 2 && e?.message.contains("day 'x'") == true)
        e = error("time.csv", titles + "0,1,2,3,0,60,3.7,1,10:00\n1,1,2,3,0,60,3.7,1,9:99:00\n")
        #expect(e?.line == 3 && e?.message.contains("time '9:99:00'") == true)
        e = error("back.csv", titles + "0,1,2,3,0,60,3.7,2,10:00:00\n1,1,2,3,0,60,3.7,1,10:00:01\n")
        #expect(e?.line == 3 && e?.message.contains("time goes back") == true)
    }

    /// Builds an .agd-like SQLite file with the given rows (ticks, axis1).
    static func makeAGD(_ path: String, settings: [(String, String)], rows: [(Int64?, Double?)], dataTable: Bool = true) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE settings (settingID INTEGER PRIMARY KEY, settingName VARCHAR(64), settingValue VARCHAR(8192))")
            for (name, value) in settings {
                try db.execute(sql: "INSERT INTO settings (settingName, settingValue) VALUES (?, ?)", arguments: [name, value])
            }
            guard dataTable else { return }
            try db.execute(sql: "CREATE TABLE data (dataTimestamp INTEGER, axis1 REAL)")
            for (ticks, axis1) in rows {
                try db.execute(sql: "INSERT INTO data (dataTimestamp, axis1) VALUES (?, ?)", arguments: [ticks, axis1])
            }
        }
    }

    @Test func badAGDInput() throws {
        let folder = TemporaryFolder()
        let t0: Int64 = 634_763_912_400_000_000   // 2012-06-27T10:54:00 local
        let s: Int64 = 10_000_000
        func error(_ name: String, settings: [(String, String)] = [("epochlength", "10")], rows: [(Int64?, Double?)] = [],
                   dataTable: Bool = true) throws -> IngestError? {
            let path = folder.path + "/" + name
            try Self.makeAGD(path, settings: settings, rows: rows, dataTable: dataTable)
            return #expect(throws: IngestError.self) { try AGDReader().read(path: path, options: IngestOptions()) }
        }
        var e = try error("nodata.agd", dataTable: false)
        #expect(e?.path == "data" && e?.message.contains("no table 'data'") == true)
        e = try error("noepoch.agd", settings: [], rows: [(t0, 1)])
        #expect(e?.message.contains("epochlength") == true)
        e = try error("zeroepoch.agd", settings: [("epochlength", "0")], rows: [(t0, 1)])
        #expect(e?.path == "settings.epochlength")
        e = try error("back.agd", rows: [(t0, 1), (t0 + 10 * s, 2), (t0, 3)])
        #expect(e?.path == "data row 3" && e?.message.contains("time goes back") == true)
        e = try error("frac.agd", rows: [(t0, 1), (t0 + 5 * s / 2, 2)])
        #expect(e?.path == "data row 2" && e?.message.contains("whole second") == true)
        e = try error("grid.agd", rows: [(t0, 1), (t0 + 15 * s, 2)])
        #expect(e?.path == "data row 2" && e?.message.contains("whole 10-s epochs") == true)
        e = try error("null.agd", rows: [(t0, 1), (nil, 2)])
        #expect(e?.path == "data row 2" && e?.message.contains("dataTimestamp is empty") == true)
        e = try error("empty.agd", rows: [])
        #expect(e?.message.contains("no epoch rows") == true)

        let text = folder.write("text.agd", "timestamp,axis1\n")
        let t = #expect(throws: IngestError.self) { try AGDReader().read(path: text, options: IngestOptions()) }
        #expect(t?.byteOffset == 0 && t?.message.contains("not an SQLite database") == true)

        // A good hand-made file: a missing row is a missing epoch; the file is not modified.
        let good = folder.path + "/good.agd"
        try Self.makeAGD(good, settings: [("epochlength", "10"), ("sex", "x")], rows: [(t0, 1), (t0 + 30 * s, 4)])
        let before = try Data(contentsOf: URL(fileURLWithPath: good))
        let r = try AGDReader().read(path: good, options: IngestOptions())
        #expect(r.count == 4 && r.absentEpochs == 2)
        #expect(r.column(named: "axis1")!.values[3] == 4 && r.column(named: "axis1")!.values[1].isNaN)
        #expect(r.metadata["sex"] == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: good)) == before, "read-only")
    }

    @Test func delimitedTextSplitsQuotedFields() throws {
        let bytes = Array("\u{FEFF}\"a, b\",\"say \"\"hi\"\"\", c ,\r\r\n\n1;2\n".utf8)
        let text = try DelimitedText(path: "x", bytes: bytes, delimiter: 0x2C)
        #expect(text.lines.count == 3)
        #expect(text.lines[0].fields == ["a, b", "say \"hi\"", "c", ""])
        #expect(text.lines[1].isBlank && text.lines[1].number == 2)
        #expect(EpochNumber.parse("12,5") == .value(12.5))
        #expect(EpochNumber.parse("NAN") == .missing && EpochNumber.parse("kZ") == .missing)
        #expect(EpochNumber.parse("inf") == .invalid && EpochNumber.parse("0x10") == .invalid)
    }
}
