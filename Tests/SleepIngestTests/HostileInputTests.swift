import Foundation
import GRDB
import Testing
import SleepCore
import SleepIngest

/// Nothing from a file is trusted: names never become SQL, every reader bounds what it
/// allocates, units and clocks are checked over the whole file.
@Suite("Hostile input")
struct HostileInputTests {
    static let t0: Int64 = 634_763_912_400_000_000   // 2012-06-27T10:54:00 local, .NET ticks
    static let tick: Int64 = 10_000_000

    @Test("an .agd column name holding a quote never becomes SQL; text and blob cells are missing values, 1e308 is refused")
    func agdNamesAndCells() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/hostile.agd"
        let evil = #"axis1" , (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r) SELECT max(n) FROM r) AS "z"#
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE settings (settingID INTEGER PRIMARY KEY, settingName VARCHAR(64), settingValue VARCHAR(8192))")
            try db.execute(sql: "INSERT INTO settings (settingName, settingValue) VALUES ('epochlength', '60')")
            try db.execute(sql: "CREATE TABLE data (dataTimestamp INTEGER, \(evil.quotedForTest) REAL, axis2 REAL)")
            for k in 0..<4 {
                let cell: DatabaseValue = k == 1 ? "text".databaseValue : (k == 2 ? Data([1, 2]).databaseValue : Double(10 * k).databaseValue)
                try db.execute(sql: "INSERT INTO data VALUES (?, ?, ?)", arguments: [Self.t0 + Int64(k) * 60 * Self.tick, cell, 5.0])
            }
        }
        try queue.close()
        let r = try AGDReader().read(path: path, options: IngestOptions())
        #expect(r.count == 4)
        let column = try #require(r.columns.first { $0.sourceName == evil })
        #expect(column.values[0] == 0 && column.values[1].isNaN && column.values[2].isNaN && column.values[3] == 30)

        let huge = folder.path + "/huge.agd"
        try EpochReaderTests.makeAGD(huge, settings: [("epochlength", "60")], rows: [(Self.t0, 1), (Self.t0 + 60 * Self.tick, 1e308)])
        let e = #expect(throws: IngestError.self) { try AGDReader().read(path: huge, options: IngestOptions()) }
        #expect(e?.message.contains("1e+308") == true && e?.path == "data row 2", "\(String(describing: e))")
    }

    @Test("a tiny epoch file with many columns and a gap is refused by its epochs × columns, naming the row")
    func cellBudget() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/wide.agd"
        let queue = try DatabaseQueue(path: path)
        let columns = 1990
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE settings (settingID INTEGER PRIMARY KEY, settingName VARCHAR(64), settingValue VARCHAR(8192))")
            try db.execute(sql: "INSERT INTO settings (settingName, settingValue) VALUES ('epochlength', '60')")
            try db.execute(sql: "CREATE TABLE data (dataTimestamp INTEGER, " + (0..<columns).map { "c\($0) REAL" }.joined(separator: ", ") + ")")
            for k in 0..<2 {
                try db.execute(sql: "INSERT INTO data (dataTimestamp, c0) VALUES (?, 1)", arguments: [Self.t0 + Int64(k) * 100 * 86_400 * Self.tick])
            }
        }
        try queue.close()
        let e = #expect(throws: IngestError.self) { try AGDReader().read(path: path, options: IngestOptions()) }
        #expect(e?.path == "data row 2" && e?.message.contains("epochs × columns") == true, "\(String(describing: e))")
    }

    @Test("the diary: RFC 4180 quoting, a row length limit, explicit dates on their night, unmatched ids summarised")
    func diary() throws {
        let d = try SleepDiary.parse("""
            id,night,in_bed,out_of_bed
            "smith, john",2024-06-14,22:30,07:00
            alex,2024-06-14,2024-06-20 22:30,2024-06-21 07:00
            nobody,2024-06-14,22:30,07:00
            nobody,2024-06-15,22:30,07:00
            """, path: "diary.csv")
        #expect(d.entries.map(\.id) == ["smith, john", "nobody", "nobody"])
        #expect(d.problems.count == 1 && d.problems[0].contains("row 3") && d.problems[0].contains("not on the night of 2024-06-14"))
        let use = d.use(nightDates: ["smith, john.csv": ["2024-06-14"]])
        #expect(use.applied == 1)
        #expect(use.problems.filter { $0.contains("nobody") } == ["diary.csv rows 4, 5: id 'nobody' matches no recording (ids match a path, a file name with or without its extension, or a folder name; if it is a participant id, --participants FILE with a table id,group,path maps ids to files)"])
        // In bed at 02:30 on the night summer time starts in Berlin: that time does not exist.
        let spring = try SleepDiary.parse("id,night,in_bed,out_of_bed\nalex,2024-03-30,02:30,09:00\n", path: "spring.csv")
        let berlin = try #require(ZoneTimeline.timeline(identifier: "Europe/Berlin"))
        let springUse = spring.use(nightDates: ["alex.csv": ["2024-03-30"]], timelines: ["alex.csv": berlin])
        #expect(springUse.applied == 1 && springUse.problems.count == 1 && springUse.problems[0].contains("in bed 02:30 does not exist"), "\(springUse.problems)")
        let long = "id,night,in_bed,out_of_bed\n" + String(repeating: "x", count: 5000) + ",2024-06-14,22:30,07:00\n"
        let e = #expect(throws: IngestError.self) { try SleepDiary.parse(long, path: "long.csv") }
        #expect(e?.line == 2 && e?.message.contains("at most 4096") == true)

        let folder = TemporaryFolder()
        let big = folder.path + "/big.csv"
        _ = FileManager.default.createFile(atPath: big, contents: Data(repeating: UInt8(ascii: "a"), count: SleepDiary.maximumBytes + 1))
        #expect(throws: IngestError.self) { try SleepDiary.read(path: big) }
    }

    @Test("a raw CSV whose unit changes from g to m/s² halfway is refused at the line where it changes")
    func unitChangeMidFile() throws {
        let folder = TemporaryFolder()
        var lines = ["timestamp,x,y,z"]
        let n = 60_000
        for k in 0..<n {
            let f = k < n / 2 ? 1.0 : 9.80665
            lines.append("\(1_718_398_800 + Double(k) / 10),\(String(format: "%.4f", 0.01 * f)),\(String(format: "%.4f", -0.99 * f)),\(String(format: "%.4f", 0.05 * f))")
        }
        let path = folder.path + "/switch.csv"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let e = #expect(throws: IngestError.self) { try RawCSVReader().read(path: path, options: IngestOptions()) }
        #expect(e?.message.contains("unit changes within the file") == true, "\(String(describing: e))")
        let line = try #require(e?.line)
        // Within two of the watch's blocks (8192 samples each) after the change, not at the end.
        #expect(line > n / 2 && line <= n / 2 + 2 * 8192 + 1, "the line of the change, not the last: \(line)")
    }

    @Test("GENEActiv: a UTC offset beyond ±14 h is refused naming its header line; a gain of 1e-310 is refused")
    func geneactivHeader() throws {
        let folder = TemporaryFolder()
        let text = try String(contentsOfFile: Fixture.path("spec_geneactiv.bin"), encoding: .utf8)
        let offset = folder.path + "/offset.bin"
        try text.replacingOccurrences(of: "Time Zone:GMT +02:00", with: "Time Zone:GMT +99:00").write(toFile: offset, atomically: true, encoding: .utf8)
        let e = #expect(throws: IngestError.self) { try GENEActivBinReader().read(path: offset, options: IngestOptions()) }
        #expect(e?.message.contains("+99:00") == true && e?.line != nil, "\(String(describing: e))")
        let gain = folder.path + "/gain.bin"
        try text.replacingOccurrences(of: "x gain:25548", with: "x gain:1e-310").write(toFile: gain, atomically: true, encoding: .utf8)
        let g = #expect(throws: IngestError.self) { try GENEActivBinReader().read(path: gain, options: IngestOptions()) }
        #expect(g?.message.contains("x gain") == true)
    }

    @Test(".gt3x: a TimeZone beyond ±14 h (or beyond Int32) is refused naming info.txt; two log.bin entries are refused")
    func gt3xHeader() throws {
        let folder = TemporaryFolder()
        let (info, log) = try ReaderMutationFuzzTests.entries(Fixture.path("spec_activity12_padded_stored.gt3x"))
        let infoText = String(decoding: info, as: UTF8.self).replacingOccurrences(of: "TimeZone: 02:00:00", with: "TimeZone: 99:00:00")
        #expect(infoText.contains("TimeZone: 99:00:00"))
        let offset = folder.path + "/offset.gt3x"
        _ = FileManager.default.createFile(atPath: offset, contents: Data(ZipBuilder.stored([("info.txt", Array(infoText.utf8)), ("log.bin", log)])))
        let e = #expect(throws: IngestError.self) { try GT3XReader().read(path: offset, options: IngestOptions()) }
        #expect(e?.message.contains("+99:00") == true && e?.path == "info.txt TimeZone", "\(String(describing: e))")
        // An offset beyond Int32 (clamped to Int32.min) is refused the same way, never trapped.
        let hugeText = infoText.replacingOccurrences(of: "TimeZone: 99:00:00", with: "TimeZone: -999999999:00:00")
        let huge = folder.path + "/huge.gt3x"
        _ = FileManager.default.createFile(atPath: huge, contents: Data(ZipBuilder.stored([("info.txt", Array(hugeText.utf8)), ("log.bin", log)])))
        let h = #expect(throws: IngestError.self) { try GT3XReader().read(path: huge, options: IngestOptions()) }
        #expect(h?.message.contains("beyond ±14:00") == true && h?.path == "info.txt TimeZone", "\(String(describing: h))")
        let twice = folder.path + "/twice.gt3x"
        _ = FileManager.default.createFile(atPath: twice, contents: Data(ZipBuilder.stored([("info.txt", info), ("log.bin", Array(log.prefix(64))), ("log.bin", log)])))
        let d = #expect(throws: IngestError.self) { try GT3XReader().read(path: twice, options: IngestOptions()) }
        #expect(d?.message.contains("2 entries named log.bin") == true, "\(String(describing: d))")
    }

    @Test("a text epoch export larger than the 64 MB cap is refused before it is read")
    func textExportCap() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/huge.csv"
        _ = FileManager.default.createFile(atPath: path, contents: Data("Epoch,Date,Time,Activity\n".utf8))
        let h = try #require(FileHandle(forWritingAtPath: path))
        try h.truncate(atOffset: UInt64(DelimitedText.sizeLimit) + 1)   // sparse: no disk used
        try h.close()
        let e = #expect(throws: IngestError.self) { try DelimitedText(path: path) }
        #expect(e?.message.contains("limited to \(DelimitedText.sizeLimit) bytes") == true)
    }

    @Test("bidirectional controls in names are escaped like control characters")
    func bidiControls() {
        #expect(PrintableText.escaped("\u{202E}gnp.csv") == "\\u{202E}gnp.csv")
        #expect(PrintableText.escaped("a\u{200F}b\u{2066}c") == "a\\u{200F}b\\u{2066}c")
        #expect(PrintableText.escaped("Müller") == "Müller")
    }
}

private extension String {
    /// SQL's own quoting (a quote doubled), to create the hostile column in the test file.
    var quotedForTest: String { "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
