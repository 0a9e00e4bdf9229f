import Foundation
import GRDB
import Testing
import SleepCore
import SleepIngest

/// What a file states about itself is checked against what it holds: an older `.gt3x`'s rate
/// against its times, the entries a `.gt3x` reader takes, Actiware's statistics against their
/// intervals, and an Actiware table a reader cannot understand; and an `.agd` is read without
/// writing beside it.
@Suite("Readers check what files state")
struct StatedFactsTests {
    // MARK: Older .gt3x (activity.bin): the rate is the samples' only clock

    /// The older-format fixture: 30 Hz, 1,832 samples (61.07 s), Stop Date +60 s, Download Date +120 s.
    static func nhanes() throws -> (info: String, activity: [UInt8]) {
        let (info, activity) = try ReaderMutationFuzzTests.entries(Fixture.path("spec_nhanes_activity.gt3x"))
        return (String(decoding: info, as: UTF8.self), activity)
    }

    /// info.txt with `key`'s line set to `value` (appended when missing; removed for nil).
    static func setting(_ info: String, _ key: String, _ value: String?) -> String {
        var lines = info.components(separatedBy: "\r\n").filter { !$0.hasPrefix(key + ":") && !$0.isEmpty }
        if let value { lines.append("\(key): \(value)") }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func ticks(_ info: String, _ key: String) throws -> Int64 {
        let line = try #require(info.components(separatedBy: "\r\n").first { $0.hasPrefix(key + ":") })
        return try #require(Int64(line.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)))
    }

    static func read(_ entries: [(String, [UInt8])], in folder: TemporaryFolder, name: String = "old.gt3x") throws -> Recording {
        try GT3XReader().read(path: folder.write(name, bytes: ZipBuilder.stored(entries)), options: IngestOptions(timeZoneIdentifier: "UTC"))
    }

    static func refusal(_ entries: [(String, [UInt8])], in folder: TemporaryFolder) -> IngestError? {
        #expect(throws: IngestError.self) { try read(entries, in: folder) }
    }

    @Test("activity.bin: a Sample Rate these devices do not record at, or a fractional one, is refused, never truncated; 30.0 is 30")
    func activityBinRateValues() throws {
        let folder = TemporaryFolder()
        let (info, activity) = try Self.nhanes()
        for bad in ["1", "29.97", "30.5", "0", "-30", "1e400", "thirty"] {
            let e = Self.refusal([("info.txt", Array(Self.setting(info, "Sample Rate", bad).utf8)), ("activity.bin", activity)], in: folder)
            #expect(e?.path == "info.txt" && e?.message.contains("Sample Rate") == true, "\(bad): \(String(describing: e))")
        }
        let fractional = Self.refusal([("info.txt", Array(Self.setting(info, "Sample Rate", "29.97").utf8)), ("activity.bin", activity)], in: folder)
        #expect(fractional?.message.contains("not a whole number of Hz") == true, "\(String(describing: fractional))")
        let one = Self.refusal([("info.txt", Array(Self.setting(info, "Sample Rate", "1").utf8)), ("activity.bin", activity)], in: folder)
        #expect(one?.message.contains("30, 40, 50, 60, 70, 80, 90, 100 Hz") == true, "\(String(describing: one))")
        let r = try Self.read([("info.txt", Array(Self.setting(info, "Sample Rate", "30.0").utf8)), ("activity.bin", activity)], in: folder)
        #expect(r.quality.sampleCount == 1832 && r.quality.nominalSampleRateHz == 30)
        #expect(!r.warnings.contains { $0.contains("Stop Date") }, "\(r.warnings)")
    }

    @Test("activity.bin: samples ÷ rate must end at Last Sample Time and by Download Date (refused, with the numbers); far from Stop Date warns")
    func activityBinSpan() throws {
        let folder = TemporaryFolder()
        let (info, activity) = try Self.nhanes()
        let start = try Self.ticks(info, "Start Date")
        func at(_ seconds: Int64) -> String { String(start + seconds * 10_000_000) }
        // 1,832 samples at 60 Hz end after 30.5 s; the file says its last sample was at 61 s.
        let lying = Self.setting(Self.setting(info, "Sample Rate", "60"), "Last Sample Time", at(61))
        let e = Self.refusal([("info.txt", Array(lying.utf8)), ("activity.bin", activity)], in: folder)
        #expect(e?.path == "info.txt" && e?.message.contains("Last Sample Time") == true, "\(String(describing: e))")
        #expect(e?.message.contains("1832 samples") == true && e?.message.contains("fit 30.03 Hz") == true, "\(String(describing: e))")
        // The true rate agrees with the same Last Sample Time.
        let truthful = Self.setting(info, "Last Sample Time", at(61))
        let r = try Self.read([("info.txt", Array(truthful.utf8)), ("activity.bin", activity)], in: folder)
        #expect(r.quality.sampleCount == 1832)
        // Samples after the device was downloaded cannot be.
        let early = Self.setting(info, "Download Date", at(30))
        let d = Self.refusal([("info.txt", Array(early.utf8)), ("activity.bin", activity)], in: folder)
        #expect(d?.message.contains("Download Date") == true && d?.message.contains("samples nothing after it is downloaded") == true, "\(String(describing: d))")
        // Only a Stop Date: a late download or a flat battery can explain a difference, so it is a warning with the numbers.
        let short = try Self.read([("info.txt", Array(Self.setting(info, "Sample Rate", "60").utf8)), ("activity.bin", activity)], in: folder)
        let warning = try #require(short.warnings.first { $0.contains("Stop Date") }, "\(short.warnings)")
        #expect(warning.contains("before info.txt's Stop Date") && warning.contains("30.5 s") && warning.contains("30.53 Hz"), "\(warning)")
    }

    @Test("the issue's shape: a day of 30 Hz samples stated as 40 Hz with its Last Sample Time is refused before a sample is read")
    func activityBinDayAtWrongRate() throws {
        let folder = TemporaryFolder()
        let (info, _) = try Self.nhanes()
        let start = try Self.ticks(info, "Start Date")
        // 26 h at 30 Hz: 2,808,000 samples of 36 bits (zeros: the check happens before decoding).
        let activity = [UInt8](repeating: 0, count: 2_808_000 / 2 * 9)
        var stated = Self.setting(info, "Sample Rate", "40")
        stated = Self.setting(stated, "Last Sample Time", String(start + 26 * 3600 * 10_000_000))
        stated = Self.setting(stated, "Stop Date", String(start + 26 * 3600 * 10_000_000))
        stated = Self.setting(stated, "Download Date", String(start + 27 * 3600 * 10_000_000))
        var sink = RawSampleBuffer()
        let path = folder.write("day.gt3x", bytes: ZipBuilder.stored([("info.txt", Array(stated.utf8)), ("activity.bin", activity)]))
        var e: IngestError? = nil
        do { _ = try GT3XReader().read(path: path, options: IngestOptions(), samples: &sink) } catch { e = error }
        #expect(e?.message.contains("19.50 h") == true && e?.message.contains("26.00 h") == true && e?.message.contains("30.00 Hz") == true,
                "\(String(describing: e))")
        #expect(sink.count == 0, "refused before any sample reached the sink")
    }

    @Test("log.bin: an activity record holding more samples than Sample Rate (one second) is refused naming its byte; a fractional rate too")
    func logBinRate() throws {
        let folder = TemporaryFolder()
        let (infoBytes, log) = try ReaderMutationFuzzTests.entries(Fixture.path("spec_activity12_padded_stored.gt3x"))
        let info = String(decoding: infoBytes, as: UTF8.self)
        let slow = Self.setting(info, "Sample Rate", "10")
        let e = Self.refusal([("info.txt", Array(slow.utf8)), ("log.bin", log)], in: folder)
        #expect(e?.path == "log.bin" && e?.byteOffset != nil && e?.message.contains("holds 30 samples") == true, "\(String(describing: e))")
        let fractional = Self.setting(info, "Sample Rate", "29.97")
        let f = Self.refusal([("info.txt", Array(fractional.utf8)), ("log.bin", log)], in: folder)
        #expect(f?.message.contains("not a whole number of Hz") == true, "\(String(describing: f))")
        #expect(try Self.read([("info.txt", infoBytes), ("log.bin", log)], in: folder).quality.sampleCount > 0)
    }

    @Test("the peers' real .gt3x files (SLEEPSTA_PEER_FILES) are read as before: rates, times and entries agree",
          .enabled(if: PeerActiGraphFiles.folder != nil, "set SLEEPSTA_PEER_FILES to a folder of pygt3x's, read.gt3x's and wristpy's test files (docs/validation.md)"))
    func peerFilesStillRead() throws {
        let folder = try #require(PeerActiGraphFiles.folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".gt3x") }.sorted()
        #expect(!files.isEmpty)
        for name in files {
            let r = try GT3XReader().read(path: folder + "/" + name, options: IngestOptions())
            #expect(r.quality.sampleCount > 0 && !r.warnings.contains { $0.contains("Stop Date") || $0.contains("Sample Rate") }, "\(name): \(r.warnings)")
        }
    }

    // MARK: .gt3x entries: each one read is there once

    @Test(".gt3x: two activity.bin, two calibration.json, or log.bin beside activity.bin are refused; entries not read may repeat")
    func gt3xEntriesOnce() throws {
        let folder = TemporaryFolder()
        let (info, activity) = try Self.nhanes()
        let (newInfo, log) = try ReaderMutationFuzzTests.entries(Fixture.path("spec_activity12_padded_stored.gt3x"))
        let infoBytes = Array(info.utf8)
        let twice = Self.refusal([("info.txt", infoBytes), ("activity.bin", Array(activity.prefix(90))), ("activity.bin", activity)], in: folder)
        #expect(twice?.message.contains("2 entries named activity.bin") == true && twice?.byteOffset != nil, "\(String(describing: twice))")
        let both = Self.refusal([("info.txt", newInfo), ("log.bin", log), ("activity.bin", activity)], in: folder)
        #expect(both?.message.contains("both log.bin") == true && both?.message.contains("activity.bin") == true, "\(String(describing: both))")
        let calibration = Array("{\"isCalibrated\":true}".utf8)
        let calibrations = Self.refusal([("info.txt", newInfo), ("log.bin", log), ("calibration.json", calibration), ("calibration.json", calibration)], in: folder)
        #expect(calibrations?.message.contains("2 entries named calibration.json") == true, "\(String(describing: calibrations))")
        // ActiLife's .agdc (the calibration of an LSB export) is held to the same rule.
        let agdc = folder.write("twice.agdc", bytes: ZipBuilder.stored([("calibration.json", calibration), ("calibration.json", calibration), ("info.txt", newInfo)]))
        let a = #expect(throws: IngestError.self) { try ActiGraphCalibrationV2.agdc(path: agdc, rateHz: 30) }
        #expect(a?.message.contains("2 entries named calibration.json") == true && a?.message.contains(".agdc") == true, "\(String(describing: a))")
        // lux.bin and log.txt are not read: repeats of them change nothing.
        let r = try Self.read([("info.txt", infoBytes), ("activity.bin", activity), ("lux.bin", [0, 0]), ("lux.bin", [0, 0]), ("log.txt", [])], in: folder)
        #expect(r.quality.sampleCount == 1832)
    }

    // MARK: Actiware: statistics in their range, each interval once, a table that can be analysed

    static func actiware(statistics: [String], titles: String = "\"Line\",\"Date\",\"Time\",\"Activity\",\"Marker\",\"Sleep/Wake\",\"Interval Status\",") -> String {
        var t = "\"Actiware Export File  (Version 05.00 )\"\n\n"
        t += "\"-------------------- Subject Properties--------------------\"\n\"Identity:\",\"X\"\n"
        t += "\"----------------- Actiwatch Data Properties ----------------\"\n\"Actiwatch Type:\",\"Actiwatch 2\"\n\"Epoch Length:\",\"30\",\"seconds\"\n"
        t += "\"--------------------- Analysis Inputs ----------------------\"\n\"Wake Threshold Value:\",\"40.00\",\"activity counts\"\n"
        t += "\"------------------------ Statistics ------------------------\"\n"
        t += "\"Interval Type\",\"Interval#\",\"Start Date\",\"Start Time\",\"End Date\",\"End Time\",\"Duration\",\"%Invalid SW\",\"Efficiency\",\"Wake Time\",\"%Wake\",\"Sleep Time\",\"%Sleep\",\n"
        t += statistics.joined(separator: "\n") + "\n"
        t += "\"-------------------- Epoch-by-Epoch Data -------------------\"\n" + titles + "\n"
        for i in 0..<240 {
            let s = 22 * 3600 + i * 30
            let clock = String(format: "%02d:%02d:%02d", s / 3600 % 24, s / 60 % 60, s % 60)
            let day = s >= 86_400 ? "05/07/2015" : "04/07/2015"
            t += "\"\(i + 1)\",\"\(day)\",\"\(clock)\",\"\(i % 7 == 0 ? 30 : 0)\",\"0\",\"\(i % 7 == 0 ? 1 : 0)\",\"\(i >= 20 && i < 220 ? "REST" : "ACTIVE")\",\n"
        }
        return t
    }

    static func row(_ kind: String, _ number: Int, from: String, to: String, duration: String, efficiency: String, wake: String, sleep: String) -> String {
        "\"\(kind)\",\"\(number)\",\"04/07/2015\",\"\(from)\",\"04/07/2015\",\"\(to)\",\"\(duration)\",\"0.00\",\"\(efficiency)\",\"\(wake)\",\"0\",\"\(sleep)\",\"0\","
    }

    @Test("Actiware statistics outside their range are refused with a warning naming the interval; an interval number stated three times is reported, none kept")
    func actiwareStatisticsInRange() throws {
        let folder = TemporaryFolder()
        let text = Self.actiware(statistics: [
            Self.row("REST", 1, from: "22:10:00", to: "23:50:00", duration: "100.00", efficiency: "NaN", wake: "10.00", sleep: "90.00"),
            Self.row("SLEEP", 1, from: "22:15:00", to: "23:45:00", duration: "90.00", efficiency: "1e300", wake: "5.00", sleep: "85.00"),
            Self.row("SLEEP", 2, from: "22:15:00", to: "23:45:00", duration: "90.00", efficiency: "80.00", wake: "-5.00", sleep: "1e300"),
            Self.row("SLEEP", 3, from: "22:15:00", to: "23:45:00", duration: "90.00", efficiency: "150.00", wake: "5.00", sleep: "95.00"),
            Self.row("REST", 4, from: "22:10:00", to: "23:50:00", duration: "100.00", efficiency: "NaN", wake: "10.00", sleep: "90.00"),
            Self.row("REST", 4, from: "22:11:00", to: "23:50:00", duration: "99.00", efficiency: "NaN", wake: "10.00", sleep: "89.00"),
            Self.row("REST", 4, from: "22:12:00", to: "23:50:00", duration: "98.00", efficiency: "NaN", wake: "10.00", sleep: "88.00"),
        ])
        let r = try ActiwareCSVReader().read(path: folder.write("stats.csv", text), options: IngestOptions())
        let intervals = try #require(r.actiware?.intervals)
        func interval(_ kind: ActiwareStatedInterval.Kind, _ n: Int) -> ActiwareStatedInterval? { intervals.first { $0.kind == kind && $0.number == n } }
        // In range: kept as stated.
        #expect(interval(.rest, 1)?.statistics?.sleepMinutes == 90)
        // Efficiency 1e300 %: that value is refused, the minutes are kept.
        #expect(interval(.sleep, 1)?.statistics?.efficiencyPercent == nil && interval(.sleep, 1)?.statistics?.sleepMinutes == 85)
        // Sleep time beyond the interval's 90 min and negative wake time: no statistics for the interval.
        #expect(interval(.sleep, 2) != nil && interval(.sleep, 2)?.statistics == nil)
        // 95 min of sleep in 90 min (beyond one epoch of slack) and an efficiency of 150 %.
        #expect(interval(.sleep, 3)?.statistics == nil)
        #expect(interval(.rest, 4) == nil, "stated three times: none is compared")
        for shown in intervals.compactMap(\.statistics) {
            #expect(shown.sleepMinutes <= shown.durationMinutes && shown.wakeMinutes >= 0 && (shown.efficiencyPercent ?? 0) <= 100)
        }
        func warning(_ words: String...) -> String? { r.warnings.first { w in words.allSatisfy { w.contains($0) } } }
        #expect(warning("SLEEP interval 1", "efficiency 1e+300 %") != nil, "\(r.warnings)")
        #expect(warning("SLEEP interval 2", "sleep time 1e+300 min", "wake time -5.0 min", "statistics are not shown") != nil, "\(r.warnings)")
        #expect(warning("SLEEP interval 3", "sleep time 95.0 min", "efficiency 150.0 %") != nil, "\(r.warnings)")
        #expect(warning("REST interval 4 is stated 3 times", "none is compared") != nil, "\(r.warnings)")
        #expect(!r.warnings.contains { $0.contains("interval 1 is stated") || $0.contains("REST interval 1 (") }, "\(r.warnings)")
    }

    @Test("the real Actiware exports (English, French): their statistics are in range, no interval is refused or repeated",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func actiwareRealExportsInRange() throws {
        for name in ["actiware_rpx/test_sample_rpx_eng.csv", "actiware_rpx/test_sample_rpx_fr.csv"] {
            let path = try #require(ExternalData.url(name)).path
            let r = try ActiwareCSVReader().read(path: path, options: IngestOptions())
            let intervals = try #require(r.actiware?.intervals)
            // The French export lists its intervals with their duration only.
            #expect(intervals.contains { $0.kind == .sleep && ($0.statistics != nil || name.hasSuffix("_fr.csv")) }, "\(name)")
            #expect(!r.warnings.contains { $0.contains("interval") }, "\(name): \(r.warnings)")
        }
    }

    @Test("an Actiware export in a language the reader does not know fails, naming the file, the line and the titles not understood")
    func actiwareUnknownLanguage() throws {
        let folder = TemporaryFolder()
        let spanish = Self.actiware(statistics: [], titles: "\"Línea\",\"Fecha\",\"Hora\",\"Actividad\",\"Marcador\",\"Sueño/Vigilia\",\"Estado del intervalo\",")
        let path = folder.write("es.csv", spanish)
        let e = #expect(throws: IngestError.self) { try ActiwareCSVReader().read(path: path, options: IngestOptions()) }
        #expect(e?.file == path && e?.line != nil, "\(String(describing: e))")
        #expect(e?.message.contains("no activity column") == true && e?.message.contains("'Actividad'") == true
                && e?.message.contains("nothing can be analysed") == true, "\(String(describing: e))")
        // Through the format detector, as a run reads it: the same failure, not a recording without nights.
        #expect(throws: IngestError.self) { try FormatDetector.readEpochs(path: path, options: IngestOptions()) }
        // The same export in English is read.
        let english = try ActiwareCSVReader().read(path: folder.write("en.csv", Self.actiware(statistics: [])), options: IngestOptions())
        #expect(english.column(named: "activity") != nil && english.count == 240)
    }

    // MARK: .agd in WAL mode: nothing written beside it

    static func folderListing(_ path: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))
        }
        return files
    }

    /// A small .agd (60-s epochs): `before` rows written in rollback mode, then WAL mode and `after`
    /// rows more, left in the -wal while the returned connection is open (no automatic checkpoint).
    static func walAGD(at path: String, before: Int, after: Int) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        func insert(_ rows: Range<Int>, _ db: Database) throws {
            for i in rows {
                let ticks = (Int64(1_718_398_800 + i * 60) + 62_135_596_800) * 10_000_000
                try db.execute(sql: "INSERT INTO data VALUES (?, ?, 0, 0)", arguments: [ticks, i % 5 * 10])
            }
        }
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE settings (settingName TEXT, settingValue TEXT)")
            try db.execute(sql: "INSERT INTO settings VALUES ('epochlength', '60'), ('devicename', 'wGT3X-BT')")
            try db.execute(sql: "CREATE TABLE data (dataTimestamp INTEGER, axis1 REAL, axis2 REAL, axis3 REAL)")
            try insert(0..<before, db)
        }
        _ = try queue.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
        try queue.write { db in try insert(before..<(before + after), db) }
        return queue
    }

    @Test(".agd in WAL mode: read with nothing written beside it (no -wal, no -shm left), the -wal's rows included")
    func agdWALLeavesFolderAlone() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/wal.agd"
        try Self.walAGD(at: path, before: 20, after: 10).close()
        let header = try FileBytes.head(path: path, count: 20, decompress: false)
        #expect(header[18] == 2 && header[19] == 2, "the file is in WAL mode")
        let before = try Self.folderListing(folder.path)
        #expect(before.keys.sorted() == ["wal.agd"], "\(before.keys)")
        let r = try AGDReader().read(path: path, options: IngestOptions())
        #expect(r.count == 30 && r.column(named: "axis1")?.values[1] == 10)
        #expect(try Self.folderListing(folder.path) == before, "the data folder is as it was")

        // A -wal beside the file holding rows not yet in it (a copy taken while ActiLife wrote):
        // read from a private copy, the -wal's rows included, and nothing added or changed here.
        let other = TemporaryFolder()
        let live = try Self.walAGD(at: folder.path + "/live.agd", before: 30, after: 15)
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: folder.path + "/live.agd" + suffix, toPath: other.path + "/copied.agd" + suffix)
        }
        try live.close()
        let copiedBefore = try Self.folderListing(other.path)
        #expect(copiedBefore.keys.sorted() == ["copied.agd", "copied.agd-wal"], "\(copiedBefore.keys)")
        let c = try AGDReader().read(path: other.path + "/copied.agd", options: IngestOptions())
        #expect(c.count == 45, "the rows still in the -wal are read")
        #expect(try Self.folderListing(other.path) == copiedBefore)
    }

    @Test(".agd: a dataTimestamp near Int64.min is refused naming the row, never trapped")
    func agdTicksOverflow() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/min.agd"
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE settings (settingName TEXT, settingValue TEXT)")
            try db.execute(sql: "INSERT INTO settings VALUES ('epochlength', '60')")
            try db.execute(sql: "CREATE TABLE data (dataTimestamp INTEGER, axis1 REAL)")
            try db.execute(sql: "INSERT INTO data VALUES (?, 1)", arguments: [Int64.min / 10_000_000 * 10_000_000])
        }
        try queue.close()
        let e = #expect(throws: IngestError.self) { try AGDReader().read(path: path, options: IngestOptions()) }
        #expect(e?.message.contains("before year 1") == true, "\(String(describing: e))")
    }
}
