import Foundation
import Testing
import SleepCore
import SleepIngest

/// Files of a study folder that are no recordings, told by their header (``NonRecordingFile``);
/// files in no format at all, with the line and the visible cause (``UnrecognisedFile``); and the
/// `;`- and tab-separated `timestamp,x,y,z` files with decimal commas, which are read.
@Suite("Files that are not recordings, and unrecognised files")
struct NonRecordingFileTests {
    let folder = TemporaryFolder()

    /// The error `FormatDetector.detect` gives for `text` saved as `name`; nil when a reader takes it.
    func detectionError(_ name: String, _ text: String) -> IngestError? {
        let path = folder.write(name, text)
        do { _ = try FormatDetector.detect(path: path); return nil } catch { return error }
    }

    static let sideFiles: [(String, String, NonRecordingFile.Kind)] = [
        // MMASH, per user (headers as the data set writes them, the first column its row index).
        ("sleep.csv", ",In Bed Date,In Bed Time,Out Bed Date,Out Bed Time,Onset Date,Onset Time,Latency,Efficiency,Total Minutes in Bed,Total Sleep Time (TST),Wake After Sleep Onset (WASO),Number of Awakenings,Average Awakening Length,Movement Index,Fragmentation Index,Sleep Fragmentation Index\n1,2,03:57,2,07:30,2,03:57,0,92.02,213,196,17,9,1.89,8.92,0,8.92\n", .actiLifeSleepSummary),
        ("user_info.csv", ",Gender,Weight,Height,Age\n0,M,65,169,29\n", .participantDetails),
        ("Activity.csv", ",Activity,Start,End,Day\n0,2,10:00,10:22,1\n", .activityDiary),
        ("RR.csv", ",ibi_s,day,time\n0,0.768,1,10:10:22\n", .heartBeatIntervals),
        ("questionnaire.csv", ",MEQ,STAI1,STAI2,Pittsburgh,Daily_stress,BISBAS_bis,BISBAS_reward,panas_pos_10\n0,47.0,41,35,7,20,18,15,30\n", .questionnaire),
        ("saliva.csv", ",SAMPLES,Cortisol NORM,Melatonin NORM\n0,before sleep,0.034,1.7e-05\n", .salivaSamples),
        // ActiLife's sleep scoring export, as saved by ActiLife and by a German-locale spreadsheet.
        ("actilife-sleep.csv", "\"Subject Name\",\"Serial Number\",\"Sleep Algorithm\",\"In Bed Time\",\"Out Bed Time\",\"Onset\",\"Latency\",\"Total Counts\",\"Efficiency\",\"Total Sleep Time (TST)\"\n\"p1\",\"MOS2\",\"Sadeh\",\"6/27/2012 11:00 PM\",\"6/28/2012 7:00 AM\",\"6/27/2012 11:10 PM\",\"10\",\"5000\",\"90.2\",\"433\"\n", .actiLifeSleepSummary),
        ("actilife-sleep-de.csv", "Sleep Algorithm;In Bed Time;Out Bed Time;Efficiency;Total Sleep Time (TST)\nSadeh;23:00;07:00;90,2;433\n", .actiLifeSleepSummary),
        // Per-night summary tables: GGIR's part 4, Fitbit's sleepDay, sleepsta's own nights export.
        ("part4_nightsummary_sleep_cl.csv", "ID,night,sleeponset,wakeup,SptDuration,sleepparam,WASO\np1,1,23.5,31.0,7.5,T5A5,20\n", .nightSummary),
        ("sleepDay_merged.csv", "Id,SleepDay,TotalSleepRecords,TotalMinutesAsleep,TotalTimeInBed\n1503960366,4/12/2016 12:00:00 AM,1,327,346\n", .nightSummary),
        ("nights.csv", "night,night_date,recording,total_sleep_time_min,parameters_key\nalex_2024-06-14,2024-06-14,alex.csv,410,interval=600s\n", .sleepstaExport),
        // sleepsta's own side inputs, and ActiLife's wear-time periods.
        ("diary.csv", "id,night,in_bed,out_of_bed\nalex,2024-06-14,23:10,06:50\n", .sleepDiary),
        ("participants.csv", "id,group,path\np1,control,alex.csv\n", .participantsTable),
        ("choi.csv", "period_start,period_end,wear,length,nonwear_algorithm\n2012-06-27T10:54:00Z,2012-06-28T00:00:00Z,TRUE,786,Choi Default\n", .wearPeriods),
    ]

    @Test("every kind of side file is told by its header, on line 1, with the columns that told it")
    func sideFileKinds() throws {
        for (name, text, kind) in Self.sideFiles {
            let error = try #require(detectionError(name, text), "\(name) was taken by a reader")
            let side = try #require(error.notRecording, "\(name): \(error)")
            #expect(side.kind == kind, "\(name): \(side.kind)")
            #expect(error.line == 1 && error.byteOffset == nil, "\(name)")
            #expect(error.message.hasPrefix("not a recording: \(kind.label) (its header names "), "\(error.message)")
            #expect(!side.columns.isEmpty)
        }
        let sleep = try #require(detectionError("sleep.csv", Self.sideFiles[0].1)?.notRecording)
        #expect(sleep.columns.prefix(2) == ["In Bed Date", "In Bed Time"])
        #expect(sleep.columns.contains("Efficiency"))
    }

    @Test("the header decides, not the name: blank lines first move the line; a recording named like a side file stays a recording")
    func headerDecides() throws {
        let error = try #require(detectionError("anything.csv", "\n\r\n,Gender,Weight,Height,Age\n0,M,65,169,29\n"))
        #expect(error.notRecording?.kind == .participantDetails)
        #expect(error.line == 3)
        #expect(error.description.contains("anything.csv:3: not a recording: a participant table"))
        let recording = folder.write("sleep.csv", "timestamp,x,y,z\n1718400000,0.1,0.2,0.9\n")
        #expect(try FormatDetector.detect(path: recording).isSamples)
        // MMASH's own recording, beside its tables, goes to its epoch reader.
        let actigraph = folder.write("Actigraph.csv", ",Axis1,Axis2,Axis3,Steps,HR,Inclinometer Off,Inclinometer Standing,Inclinometer Sitting,Inclinometer Lying,Vector Magnitude,day,time\n82,0,0,0,0,68.0,0,1,0,0,0.0,1,10:10:22\n")
        guard case .epochs(let reader) = try FormatDetector.detect(path: actigraph) else { Issue.record("Actigraph.csv not an epoch file"); return }
        #expect(type(of: reader).format == .mmashActigraphCSV)
    }

    @Test("a header with a movement column is never a side file, whatever else it names")
    func movementColumnsKeepAFileARecording() throws {
        let error = try #require(detectionError("scored.csv", "time,x,y,z,efficiency,tst\n1718400000,0.1,0.2,0.9,90,400\n"))
        #expect(error.notRecording == nil)
        #expect(error.message.hasPrefix("unrecognised format"))
        #expect(NonRecordingFile.identify(head: Array("Axis1,Axis2,Axis3,Efficiency,Latency\n".utf8), cut: false) == nil)
    }

    @Test("the epoch commands' reader says a side file is no recording, not 'not an epoch file'")
    func epochCommandsSaySideFile() throws {
        let path = folder.write("sleep.csv", Self.sideFiles[0].1)
        let error = #expect(throws: IngestError.self) { try FormatDetector.readEpochs(path: path, options: IngestOptions()) }
        #expect(error?.notRecording?.kind == .actiLifeSleepSummary)
        #expect(error?.message.hasPrefix("not a recording: an ActiLife sleep summary") == true)
    }

    @Test("inspect describes a side file: what it is and the columns that told it")
    func inspectText() throws {
        let side = try #require(detectionError("user_info.csv", Self.sideFiles[1].1)?.notRecording)
        let text = RecordingInspector.text(notRecording: side, path: "user_1/user_info.csv")
        #expect(text.contains("format   not a recording: a participant table"))
        #expect(text.contains("the header (line 1) names Gender, Weight, Height, Age"))
        let json = RecordingInspector.json(notRecording: side, path: "user_1/user_info.csv")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "not-a-recording")
        #expect(object["kind"] as? String == "participantDetails")
        #expect(object["columns"] as? [String] == ["Gender", "Weight", "Height", "Age"])
    }

    // MARK: Unrecognised files

    @Test("a ';' file with decimal commas and 6 columns: the line, the cause, what to change, and every format read")
    func semicolonHint() throws {
        let error = try #require(detectionError("export.csv", "Zeit;X;Y;Z;Temperatur;Taste\n2024-03-30 23:10:00;0,012;-0,981;0,104;21,5;0\n"))
        #expect(error.notRecording == nil)
        #expect(error.line == 1 && error.byteOffset == nil)
        #expect(error.description.hasPrefix("\(folder.path)/export.csv:1: unrecognised format: line 1 separates its 6 fields with ';' and line 2 writes decimals with a comma ('0,012'): "))
        #expect(error.message.contains("save any other table with ',' between fields and '.' as the decimal mark"))
        for format in ["timestamp,x,y,z CSV", "ActiGraph .gt3x", "Axivity .cwa", "GENEActiv .bin", "the Sleepsta app's JSON export",
                       "ActiGraph .agd", "ActiLife epoch CSV", "Actiware export", "Actiwatch .AWD", "MMASH Actigraph.csv", "UK Biobank epoch CSV"] {
            #expect(error.message.contains(format), "\(format) missing from: \(error.message)")
        }
    }

    @Test("the list of formats names every reader's format, raw and epoch")
    func formatListIsComplete() {
        let list = FormatDetector.formatList
        for r in FormatDetector.readers { #expect(list.contains(FormatDetector.name(of: r.format)), "\(r.format)") }
        for r in FormatDetector.epochReaders { #expect(list.contains(FormatDetector.name(of: r.format) ?? "?"), "\(r.format)") }
    }

    @Test("other visible causes: tabs, no time column, spaces, one column, binary content, a 4-column file not named .csv")
    func otherHints() throws {
        let tabs = try #require(detectionError("copy.csv", "time\tx\ty\tz\ttemp\n1718400000\t0,1\t0,2\t0,9\t21\n"))
        #expect(tabs.message.hasPrefix("unrecognised format: line 1 separates its 5 fields with tabs and line 2 writes decimals with a comma ('0,1'): sleepsta reads tab-separated text only"))
        let noTime = try #require(detectionError("counts.csv", "Axis1,Axis2,Axis3,Steps,Lux\n1,2,3,4,5\n"))
        #expect(noTime.line == 1)
        #expect(noTime.message.hasPrefix("unrecognised format: the header (line 1: 'Axis1', 'Axis2', 'Axis3', 'Steps', 'Lux') names no time column"))
        let spaces = try #require(detectionError("spaces.csv", "1718400000 0.1 0.2 0.9\n"))
        #expect(spaces.message.hasPrefix("unrecognised format: line 1 separates its fields with spaces"))
        let oneColumn = try #require(detectionError("vector.csv", "\n1.0589\n0.9461\n"))
        #expect(oneColumn.line == 2 && oneColumn.message.contains("line 2 is one column ('1.0589')"))
        let zip = try #require(detectionError("table.csv", "PK\u{03}\u{04}\u{14}\u{00}\u{06}\u{00}\u{08}\u{00}\u{00}\u{00}!\u{00}xl/workbook.xml"))
        #expect(zip.byteOffset == 0 && zip.message.hasPrefix("unrecognised format: not text (a zip archive: an .xlsx, .docx or .gt3x under another name?)"))
        // A header longer than the 4 KiB looked at, cut inside a character, is still text.
        let long = try #require(detectionError("wide.csv", "Zeit;" + Array(repeating: "Größe", count: 900).joined(separator: ";") + "\n1;2\n"))
        #expect(long.line == 1 && long.message.hasPrefix("unrecognised format: line 1 separates its "), "\(long.message.prefix(120))")
        let path = folder.write("night.txt", "timestamp,x,y,z\n1718400000,0.1,0.2,0.9\n")
        let named = #expect(throws: IngestError.self) { try FormatDetector.detect(path: path) }
        #expect(named?.message.hasPrefix("unrecognised format: line 1 has the 4 fields of a timestamp,x,y,z file, whose name must end in .csv") == true)
    }

    // MARK: `;` and tab dialects of timestamp,x,y,z

    static let commaNight = """
        timestamp,x,y,z
        1718400000.25,0.012,-0.981,0.104
        1718400000.75,0.020,-0.975,0.110
        1718400001.25,-0.300,0.500,0.800
        1718400002.5,0.1,0.2,0.3
        """

    @Test("timestamp;x;y;z with decimal commas, and a tab-separated copy, read as the comma file does")
    func dialectsRead() throws {
        let iso = Self.commaNight
        let reference = try RawCSVReader().read(path: folder.write("comma.csv", iso), options: IngestOptions())
        let semicolon = iso.replacingOccurrences(of: ",", with: ";").replacingOccurrences(of: ".", with: ",")
        let tab = iso.replacingOccurrences(of: ",", with: "\t").replacingOccurrences(of: ".", with: ",")
        let tabDots = iso.replacingOccurrences(of: ",", with: "\t")
        for (name, text) in [("semicolon.csv", semicolon), ("tab.csv", tab), ("tab-dots.csv", tabDots), ("semicolon.csv.gz", semicolon)] {
            let path = name.hasSuffix(".gz") ? try gzip(text, name) : folder.write(name, text)
            #expect(RawCSVReader.accepts(fileName: name.replacingOccurrences(of: ".gz", with: ""), head: try FileBytes.head(path: path, count: 4096)))
            guard case .samples(let reader) = try FormatDetector.detect(path: path) else { Issue.record("\(name): not samples"); continue }
            #expect(reader is RawCSVReader, "\(name)")
            let r = try reader.read(path: path, options: IngestOptions())
            #expect(r.segments.map(\.series) == reference.segments.map(\.series), "\(name)")
            #expect(r.quality == reference.quality, "\(name)")
        }
        // Headerless, with an ISO timestamp whose fraction has a decimal comma.
        let headerless = "2024-06-14T21:20:00,250Z;0,012;-0,981;0,104\n2024-06-14T21:20:00,750Z;0,02;-0,975;0,11\n"
        let r = try RawCSVReader().read(path: folder.write("iso.csv", headerless), options: IngestOptions())
        #expect(r.quality.sampleCount == 2 && r.segments[0].series.startSecond == 1_718_400_000)
    }

    @Test("an error in a ';' file names its line and says how the file was read")
    func dialectErrors() throws {
        let path = folder.write("bad.csv", "timestamp;x;y;z\n1718400000;0,1;0,2;0,9\n1718400001;0,1;oops;0,9\n")
        let error = #expect(throws: IngestError.self) { try RawCSVReader().read(path: path, options: IngestOptions()) }
        #expect(error?.line == 3)
        #expect(error?.message == "y = 'oops' is not a number; expected acceleration in g (the file is read as ';'-separated, with ',' as the decimal mark: a quoted value shows it as '.')")
        let header = folder.write("header.csv", "zeit;a;b;c\n1718400000;0,1;0,2;0,9\n")
        let headerError = #expect(throws: IngestError.self) { try RawCSVReader().read(path: header, options: IngestOptions()) }
        #expect(headerError?.line == 1 && headerError?.message.hasPrefix("header column 'a' should name the x axis") == true)
    }

    @Test("dialects are told from the first line: commas padded with tabs stay the comma format")
    func dialectDetection() {
        #expect(RawCSVDialect.of(head: Array("timestamp;x;y;z\n".utf8)) == .semicolon)
        #expect(RawCSVDialect.of(head: Array("\u{FEFF}\n1718400000\t0,1\t0,2\t0,9\n".utf8)) == .tab)
        #expect(RawCSVDialect.of(head: Array("1718400000,\t0.1,\t0.2,\t0.9\n".utf8)) == .comma)
        #expect(RawCSVDialect.of(head: Array("timestamp,x,y,z\n".utf8)) == .comma)
        #expect(!RawCSVDialect.fourColumns(Array("a;b;c;d;e\n".utf8)))
    }

    func gzip(_ text: String, _ name: String) throws -> String {
        let plain = folder.write(String(name.dropLast(3)), text)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-kf", plain]
        try process.run()
        process.waitUntilExit()
        return plain + ".gz"
    }
}
