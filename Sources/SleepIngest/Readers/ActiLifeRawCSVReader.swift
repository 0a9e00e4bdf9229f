import Foundation
import SleepCore

/// Reads ActiLife's raw CSV export ("RAW" data, epoch period 00:00:00), the form most ActiGraph
/// raw data sets are shared in:
///
/// ```text
/// ------------ Data File Created By ActiGraph GT3X+ ActiLife v6.13.3 Firmware v3.2.1 date format M/d/yyyy at 30 Hz  Filter Normal -----------
/// Serial Number: NEO1F18120387
/// Start Time 00:00:00
/// Start Date 5/7/2014
/// Epoch Period (hh:mm:ss) 00:00:00
/// …
/// --------------------------------------------------
/// Timestamp,Accelerometer X,Accelerometer Y,Accelerometer Z      (optional; or Axis1,Axis2,Axis3)
/// 5/7/2014 00:00:00.000,-0.182,-0.182,0.962                      (the Timestamp column is optional)
/// ```
///
/// Header lines are found by what they say, not counted: the header runs to its closing line of
/// dashes, whatever lines come between (gt3x2csv, the converter wristpy and the Healthy Brain
/// Network release use, adds `Idle Sleep Mode: True` and `Sample Rate: 60`). The sample rate comes
/// from a `Sample Rate:` line or else the first line ("… at 30 Hz …"), the date format from the
/// first line; without a Timestamp column, row k is at the header's start + k / rate. Times are
/// the device's local clock (``DeviceClock``). Epoch exports of the same header (epoch period ≠
/// 00:00:00) are left to the epoch readers.
///
/// Two ways the samples are not plain g:
/// - **LSB exports** (ActiLife's "raw counts" option: `342.0,47.0,84.0`), told from g by their
///   magnitude (a still device reads about 256 or 341, not 1): converted with the device's own
///   calibration from an ActiLife `.agdc` file beside the CSV (``ActiGraphCalibrationV2``) — the
///   one whose `info.txt` names the CSV's serial number, else the one whose name starts with the
///   CSV's — and refused, with what is needed, without one.
/// - **Rows of exactly 0, 0, 0**: not measured (idle-sleep mode left unfilled, or padding to the
///   download time): given the previous sample, as ActiLife's own export and GGIR fill them, and
///   counted in the QC as seconds of idle sleep filled.
public struct ActiLifeRawCSVReader: RawSampleReader {
    public static let format = RecordingFormat.actiLifeRawCSV
    public init() {}

    static let signature = "------------ Data File Created By ActiGraph"

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        let text = String(decoding: head.prefix(2048), as: UTF8.self)
        return text.hasPrefix(signature) || text.hasPrefix("\u{FEFF}" + signature)
            ? text.contains("Epoch Period (hh:mm:ss) 00:00:00") : false
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> Recording {
        var discard = DiscardingSampleSink()
        return try read(path: path, options: options, samples: &discard)
    }

    /// The header (up to its closing line of dashes) and the optional column line.
    struct Header {
        var rateHz: Double
        var order: NumericDateOrder
        var startLocal: Double
        var device: String
        var rangeG: Double?
        var lines: Int           // header lines before the first data row
        var timestampColumn: Int?
        var axes: (Int, Int, Int)
        var serial: String
        /// `Idle Sleep Mode: True/False` where the header states it (gt3x2csv).
        var idleSleepModeStated: Bool?
        /// The samples are raw counts (ActiLife's LSB export), not g.
        var inLSB = false

        init(path: String, options: IngestOptions) throws(IngestError) {
            let lines = try Self.headLines(path: path)
            guard lines.count >= 3, lines[0].hasPrefix(ActiLifeRawCSVReader.signature) else {
                throw IngestError(file: path, line: 1, message: "expected the ActiLife header '\(ActiLifeRawCSVReader.signature) …', header lines and a closing line of dashes")
            }
            let first = lines[0]
            guard let at = first.range(of: " at "), let rate = Double(first[at.upperBound...].split(separator: " ").first ?? ""), rate > 0, rate <= 10_000 else {
                throw IngestError(file: path, line: 1, message: "no sample rate in the header ('… at 30 Hz …')")
            }
            rateHz = rate
            let formatText = first.range(of: "date format ").map { String(first[$0.upperBound...].split(separator: " ").first ?? "") } ?? "M/d/yyyy"
            guard let o = NumericDateOrder(format: formatText) else {
                throw IngestError(file: path, line: 1, message: "date format '\(formatText)' in the header is not a day/month/year format")
            }
            order = o
            let epochLine = lines.firstIndex { $0.hasPrefix("Epoch Period (hh:mm:ss)") }
            guard let epochLine, lines[epochLine].hasSuffix("00:00:00") else {
                throw IngestError(file: path, line: (epochLine ?? 4) + 1, message: "expected 'Epoch Period (hh:mm:ss) 00:00:00' (raw data); this is an epoch export")
            }
            startLocal = try Self.startLocal(lines, order: o, formatText: formatText, path: path)
            serial = lines.first { $0.hasPrefix("Serial Number:") }.map { $0.dropFirst(14).trimmingASCIIWhitespaceSubstring() }.map(String.init) ?? ""
            device = Self.deviceName(bannerLine: first, serial: serial)
            let s = serial.uppercased()
            rangeG = (s.hasPrefix("NEO") || s.hasPrefix("CLE") || s.hasPrefix("MRA")) ? 6 : (s.hasPrefix("MOS") || s.hasPrefix("TAS")) ? 8 : nil
            if let stated = lines.first(where: { $0.hasPrefix("Sample Rate:") }) {
                guard let r = Double(stated.dropFirst(12).trimmingASCIIWhitespaceSubstring()), r > 0, r <= 10_000 else {
                    throw IngestError(file: path, line: (lines.firstIndex(of: stated) ?? 0) + 1, message: "'\(stated.prefix(60))' is not a sample rate in Hz")
                }
                rateHz = r
            }
            idleSleepModeStated = lines.prefix(40).first { $0.hasPrefix("Idle Sleep Mode:") }.map { $0.lowercased().hasSuffix("true") }
            (self.lines, timestampColumn, axes) = try Self.columnLayout(lines, path: path)
            inLSB = Self.rowsLookLikeLSB(lines.dropFirst(self.lines), axes: axes)
        }

        /// The first 8 KB of the file as trimmed lines, without a byte-order mark.
        static func headLines(path: String) throws(IngestError) -> [String] {
            let head = try FileBytes.head(path: path, count: 8192)
            // "\r\n" is one Character in Swift: split on both spellings of a line end.
            var lines = String(decoding: head, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map {
                String($0).trimmedASCII()
            }
            if let f = lines.first, f.hasPrefix("\u{FEFF}") { lines[0] = String(f.dropFirst()) }
            return lines
        }

        /// The header's `Start Date` and `Start Time`, seconds on the local clock.
        static func startLocal(_ lines: [String], order: NumericDateOrder, formatText: String, path: String) throws(IngestError) -> Double {
            let startTime = lines.first { $0.hasPrefix("Start Time ") }.map { String($0.dropFirst(11)) } ?? ""
            let startDate = lines.first { $0.hasPrefix("Start Date ") }.map { String($0.dropFirst(11)) } ?? ""
            let stamp = Array((startDate + " " + startTime).utf8)
            guard let start = stamp.withUnsafeBufferPointer({ b -> Double? in
                ActiLifeTimeText.localSeconds(b.baseAddress!, 0, b.count, order: order)
            }) else {
                throw IngestError(file: path, line: 3, message: "header 'Start Date \(startDate)' / 'Start Time \(startTime)' is not a valid date and time in the format \(formatText)")
            }
            return start
        }

        /// `ActiGraph GT3X+ NEO1F18120387, firmware 3.2.1`, from
        /// "… Data File Created By ActiGraph GT3X+ ActiLife v6.13.3 Firmware v3.2.1 date format …".
        static func deviceName(bannerLine first: String, serial: String) -> String {
            let model = first.dropFirst(ActiLifeRawCSVReader.signature.count).trimmingASCIIWhitespaceSubstring()
            let deviceName = model.range(of: " ActiLife").map { String(model[..<$0.lowerBound]) } ?? ""
            let firmware = first.range(of: "Firmware ").map { String(first[$0.upperBound...].split(separator: " ").first ?? "") }
            return (["ActiGraph", deviceName, serial].filter { !$0.isEmpty }.joined(separator: " ")) + (firmware.map { ", firmware \($0.hasPrefix("v") ? String($0.dropFirst()) : $0)" } ?? "")
        }

        /// The header ends at its line of dashes; the column names (or already data) follow.
        /// Returns the lines before the first data row, the timestamp column and the axes' columns.
        static func columnLayout(_ lines: [String], path: String) throws(IngestError) -> (lines: Int, timestampColumn: Int?, axes: (Int, Int, Int)) {
            guard let dashes = lines.indices.dropFirst().prefix(40).first(where: { k in lines[k].count >= 10 && lines[k].allSatisfy { $0 == "-" } }),
                  dashes + 1 < lines.count else {
                throw IngestError(file: path, line: 1, message: "no closing line of dashes ('-----…') within the first 40 lines: expected an ActiLife header")
            }
            let columnLine = lines[dashes + 1]
            let names = columnLine.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingASCIIWhitespaceSubstring().lowercased() }
            if names.first.map({ $0.first?.isNumber == true || $0.first == "-" }) ?? false {
                return (dashes + 1, nil, (0, 1, 2))
            }
            func column(_ spellings: Set<String>) -> Int? { names.firstIndex { spellings.contains(String($0)) } }
            let ts = column(["timestamp", "date time"])
            let x = column(["accelerometer x", "axis1", "axis 1", "x"])
            let y = column(["accelerometer y", "axis2", "axis 2", "y"])
            let z = column(["accelerometer z", "axis3", "axis 3", "z"])
            guard let x, let y, let z else {
                throw IngestError(file: path, line: dashes + 2, message: "column line '\(columnLine.prefix(80))' does not name Accelerometer X, Y and Z")
            }
            return (dashes + 2, ts, (x, y, z))
        }

        /// LSB or g: the median |a| of the rows in the head (gravity alone is 1 g, or 256 or 341
        /// counts; no body moves at more than 16 g for long). Rows of 0, 0, 0 are not measured
        /// and say nothing.
        static func rowsLookLikeLSB(_ rows: ArraySlice<String>, axes: (Int, Int, Int)) -> Bool {
            var norms: [Double] = []
            for line in rows {   // the rows within the 8 KB head
                let f = line.split(separator: ",", omittingEmptySubsequences: false)
                guard max(axes.0, axes.1, axes.2) < f.count,
                      let x = Double(f[axes.0].trimmingASCIIWhitespaceSubstring()), let y = Double(f[axes.1].trimmingASCIIWhitespaceSubstring()),
                      let z = Double(f[axes.2].trimmingASCIIWhitespaceSubstring()) else { continue }
                if x != 0 || y != 0 || z != 0 { norms.append((x * x + y * y + z * z).squareRoot()) }
            }
            norms.sort()
            return norms.count >= 3 && norms[norms.count / 2] > 16
        }
    }

    public func read<Sink: SampleSink>(path: String, options: IngestOptions, samples: inout Sink) throws(IngestError) -> Recording {
        let header = try Header(path: path, options: options)
        let clock = try DeviceClock(path: path, options: options, statedOffsetSeconds: nil)
        let time: ColumnSampleCSV<Sink>.TimeColumn = header.timestampColumn.map { .actiLife(column: $0, order: header.order) }
            ?? .implicit(startLocal: header.startLocal, rateHz: header.rateHz)
        var table = ColumnSampleCSV(path: path, formatName: "an ActiLife raw CSV export", headerLines: header.lines, time: time,
                                    x: header.axes.0, y: header.axes.1, z: header.axes.2, toG: 1,
                                    intake: SampleIntake(sink: samples, deviceRangeG: header.rangeG), clock: clock)
        defer { samples = table.intake.sink }
        table.fillZeroRows = true
        var notes: [String] = []
        if header.inLSB {
            let found = try Self.calibrationFile(for: path, serial: header.serial, rateHz: Int(header.rateHz.rounded()), firstRow: header.lines + 1)
            table.calibration = found.calibration
            notes.append("an LSB export (raw counts): converted to g with the device's calibration in \(found.file)" + found.note)
        }
        let stream = try ByteStreams.open(path: path)
        var cutShort: String? = nil
        try LineScanner.scan(stream, path: path, formatName: "an ActiLife raw CSV export", into: &table, cutShort: &cutShort)
        try table.checkUnits(expectedUnit: "g")
        let finished = table.intake.finish(nominalSampleRateHz: header.rateHz, deviceRangeG: header.rangeG)
        let series = finished.0
        var quality = finished.1
        if table.zeroRowsFilled > 0 || header.idleSleepModeStated == true {
            quality.idleSleepSecondsFilled = Int((Double(table.zeroRowsFilled) / header.rateHz).rounded())
        }
        if table.zeroRowsFilled > 0 {
            notes.append("\(table.zeroRowsFilled) rows of exactly 0, 0, 0 (not measured: idle-sleep mode or padding) filled with the previous sample, as ActiLife and GGIR fill them")
        }
        if table.zeroRowsDropped > 0 {
            notes.append("\(table.zeroRowsDropped) rows of exactly 0, 0, 0 before the first measured row left out (not measured, and no sample before them to fill with)")
        }
        let zone = try clock.zone(for: series)
        var recording = Recording(format: Self.format, segments: [RecordingSegment(series: series)], timeline: zone.timeline,
                                  timeZoneName: zone.name, timeZoneSource: zone.source, units: "g",
                                  gravity: table.intake.gravity == .removed ? .removed : .included, quality: quality,
                                  warnings: (zone.warning.map { [$0] } ?? []) + notes + table.intake.warnings(quality) + (cutShort.map { [$0] } ?? []))
        recording.device = header.device
        recording.compression = stream.compression
        return recording
    }

    /// The `.agdc` calibration of an LSB export: in the CSV's folder, the one whose `info.txt`
    /// names the CSV's serial number, else the one whose file name starts with the CSV's (then a
    /// note says the serials differ); refused without one.
    static func calibrationFile(for path: String, serial: String, rateHz: Int, firstRow: Int) throws(IngestError)
        -> (calibration: ActiGraphCalibrationV2, file: String, note: String) {
        let folder = (path as NSString).deletingLastPathComponent
        var stem = (path as NSString).lastPathComponent.lowercased()
        if stem.hasSuffix(".gz") { stem.removeLast(3) }
        stem = (stem as NSString).deletingPathExtension
        // `<stem>.agdc`, or `<stem>` followed by a separator (`WRIST_rawLSB_032Hz_test.agdc`).
        func named(_ name: String) -> Bool {
            let n = name.lowercased()
            guard n.hasPrefix(stem), let next = n.dropFirst(stem.count).first else { return false }
            return "._- ".contains(next)
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? [])
            .filter { $0.lowercased().hasSuffix(".agdc") }.sorted()
        var byName: (ActiGraphCalibrationV2, String, String)? = nil
        var problems: [String] = []
        for name in names {
            let file = folder.isEmpty ? name : folder + "/" + name
            do {
                let c = try ActiGraphCalibrationV2.agdc(path: file, rateHz: rateHz)
                if !serial.isEmpty && c.serial.caseInsensitiveCompare(serial) == .orderedSame { return (c.calibration, name, "") }
                if byName == nil && named(name) {
                    let theirs = c.serial.isEmpty ? "states no serial number" : "is of serial \(c.serial)"
                    byName = (c.calibration, name, serial.isEmpty ? " (the CSV states no serial number; chosen by its name)"
                              : " (it \(theirs), the CSV of \(serial); chosen by its name)")
                }
            } catch {
                problems.append("\(name): \(error.message)")
            }
        }
        if let byName { return byName }
        throw IngestError(file: path, line: firstRow, message: "an ActiLife raw CSV exported in LSB (raw accelerometer counts, not g): converting it needs the device's calibration, an ActiLife .agdc file of serial \(serial.isEmpty ? "(not stated)" : serial) beside it (or a name starting with '\(stem)'); "
            + (names.isEmpty ? "none is in its folder" : "none of \(names.count) .agdc file(s) there fits" + (problems.isEmpty ? "" : " (\(problems.prefix(3).joined(separator: "; ")))"))
            + ". Or export the file from ActiLife in g")
    }
}
