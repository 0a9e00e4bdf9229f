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
/// The sample rate and date format come from the first line; without a Timestamp column, row k is
/// at the header's start + k / rate. Times are the device's local clock (``DeviceClock``). Epoch
/// exports of the same header (epoch period ≠ 00:00:00) are left to the epoch readers.
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

    /// The ten header lines and the optional column line.
    struct Header {
        var rateHz: Double
        var order: NumericDateOrder
        var startLocal: Double
        var device: String
        var rangeG: Double?
        var lines: Int           // header lines before the first data row
        var timestampColumn: Int?
        var axes: (Int, Int, Int)

        init(path: String, options: IngestOptions) throws(IngestError) {
            let head = try FileBytes.head(path: path, count: 8192)
            // "\r\n" is one Character in Swift: split on both spellings of a line end.
            var lines = String(decoding: head, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map {
                String($0).trimmedASCII()
            }
            if let f = lines.first, f.hasPrefix("\u{FEFF}") { lines[0] = String(f.dropFirst()) }
            guard lines.count >= 11, lines[0].hasPrefix(ActiLifeRawCSVReader.signature) else {
                throw IngestError(file: path, line: 1, message: "expected the ActiLife header '\(ActiLifeRawCSVReader.signature) …' and 10 header lines")
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
            guard let epochLine = lines.firstIndex(where: { $0.hasPrefix("Epoch Period (hh:mm:ss)") }), lines[epochLine].hasSuffix("00:00:00") else {
                throw IngestError(file: path, line: 5, message: "expected 'Epoch Period (hh:mm:ss) 00:00:00' (raw data); this is an epoch export")
            }
            let startTime = lines.first { $0.hasPrefix("Start Time ") }.map { String($0.dropFirst(11)) } ?? ""
            let startDate = lines.first { $0.hasPrefix("Start Date ") }.map { String($0.dropFirst(11)) } ?? ""
            let stamp = Array((startDate + " " + startTime).utf8)
            guard let start = stamp.withUnsafeBufferPointer({ b -> Double? in
                ActiLifeTimeText.localSeconds(b.baseAddress!, 0, b.count, order: o)
            }) else {
                throw IngestError(file: path, line: 3, message: "header 'Start Date \(startDate)' / 'Start Time \(startTime)' is not a valid date and time in the format \(formatText)")
            }
            startLocal = start
            // "… Data File Created By ActiGraph GT3X+ ActiLife v6.13.3 Firmware v3.2.1 date format …"
            let model = first.dropFirst(ActiLifeRawCSVReader.signature.count).trimmingASCIIWhitespaceSubstring()
            let deviceName = model.range(of: " ActiLife").map { String(model[..<$0.lowerBound]) } ?? ""
            let firmware = first.range(of: "Firmware ").map { String(first[$0.upperBound...].split(separator: " ").first ?? "") }
            let serial = lines.first { $0.hasPrefix("Serial Number:") }.map { $0.dropFirst(14).trimmingASCIIWhitespaceSubstring() }.map(String.init) ?? ""
            device = (["ActiGraph", deviceName, serial].filter { !$0.isEmpty }.joined(separator: " ")) + (firmware.map { ", firmware \($0.hasPrefix("v") ? String($0.dropFirst()) : $0)" } ?? "")
            let s = serial.uppercased()
            rangeG = (s.hasPrefix("NEO") || s.hasPrefix("CLE") || s.hasPrefix("MRA")) ? 6 : (s.hasPrefix("MOS") || s.hasPrefix("TAS")) ? 8 : nil
            // Line 11: column names, or already data.
            let columnLine = lines[10]
            let names = columnLine.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingASCIIWhitespaceSubstring().lowercased() }
            if names.first.map({ $0.first?.isNumber == true || $0.first == "-" }) ?? false {
                lines = Array(lines.prefix(10)); self.lines = 10
                timestampColumn = nil; axes = (0, 1, 2)
            } else {
                self.lines = 11
                func column(_ spellings: Set<String>) -> Int? { names.firstIndex { spellings.contains(String($0)) } }
                let ts = column(["timestamp", "date time"])
                let x = column(["accelerometer x", "axis1", "axis 1", "x"])
                let y = column(["accelerometer y", "axis2", "axis 2", "y"])
                let z = column(["accelerometer z", "axis3", "axis 3", "z"])
                guard let x, let y, let z else {
                    throw IngestError(file: path, line: 11, message: "column line '\(columnLine.prefix(80))' does not name Accelerometer X, Y and Z")
                }
                timestampColumn = ts; axes = (x, y, z)
            }
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
        let stream = try ByteStreams.open(path: path)
        var cutShort: String? = nil
        try LineScanner.scan(stream, path: path, formatName: "an ActiLife raw CSV export", into: &table, cutShort: &cutShort)
        try table.checkUnits(expectedUnit: "g")
        let (series, quality) = table.intake.finish(nominalSampleRateHz: header.rateHz, deviceRangeG: header.rangeG)
        let zone = try clock.zone(for: series)
        var recording = Recording(format: Self.format, segments: [RecordingSegment(series: series)], timeline: zone.timeline,
                                  timeZoneName: zone.name, timeZoneSource: zone.source, units: "g",
                                  gravity: table.intake.gravity == .removed ? .removed : .included, quality: quality,
                                  warnings: (zone.warning.map { [$0] } ?? []) + table.intake.warnings(quality) + (cutShort.map { [$0] } ?? []))
        recording.device = header.device
        recording.compression = stream.compression
        return recording
    }
}
