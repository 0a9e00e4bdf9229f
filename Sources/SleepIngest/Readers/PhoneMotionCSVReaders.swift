import SleepCore

/// Column names of a phone logger's CSV header, matched case-sensitively as the apps write them.
struct CSVHeaderColumns {
    let names: [String]

    init(line: Substring) {
        var n = line
        if n.hasPrefix("\u{FEFF}") { n = n.dropFirst() }
        names = n.split(separator: ",", omittingEmptySubsequences: false).map {
            var s = $0.trimmingCharacters()
            if s.hasPrefix("\"") && s.hasSuffix("\"") && s.count >= 2 { s = String(s.dropFirst().dropLast()) }
            return s
        }
    }

    func index(_ name: String) -> Int? { names.firstIndex(of: name) }

    static func firstLine(_ head: [UInt8]) -> Substring {
        let text = String(decoding: head, as: UTF8.self)
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).first ?? ""
    }
}

/// Reads the CSV export of **SensorLog** (iOS, Bernd Thomas), which writes CoreMotion's fields
/// under names such as `loggingTime(txt)`, `motionUserAccelerationX(G)`,
/// `accelerometerAccelerationX(G)`.
///
/// * Time: `loggingTime(txt)`, e.g. `2024-06-15 00:50:00.123 +0200` (the offset becomes the
///   recording's clock).
/// * Acceleration in g: `motionUserAcceleration{X,Y,Z}(G)` (CoreMotion's user acceleration,
///   gravity removed: what the Sleepsta app read) when present, else the raw
///   `accelerometerAcceleration{X,Y,Z}(G)` (gravity included).
public struct SensorLogCSVReader: RawSampleReader {
    public static let format = RecordingFormat.sensorLogCSV
    public init() {}

    static let userAcceleration = ["motionUserAccelerationX(G)", "motionUserAccelerationY(G)", "motionUserAccelerationZ(G)"]
    static let totalAcceleration = ["accelerometerAccelerationX(G)", "accelerometerAccelerationY(G)", "accelerometerAccelerationZ(G)"]

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        let columns = CSVHeaderColumns(line: CSVHeaderColumns.firstLine(head))
        return columns.index("loggingTime(txt)") != nil
            && (userAcceleration.allSatisfy { columns.index($0) != nil } || totalAcceleration.allSatisfy { columns.index($0) != nil })
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> Recording {
        var discard = DiscardingSampleSink()
        return try read(path: path, options: options, samples: &discard)
    }

    public func read<Sink: SampleSink>(path: String, options: IngestOptions, samples: inout Sink) throws(IngestError) -> Recording {
        let columns = CSVHeaderColumns(line: CSVHeaderColumns.firstLine(try FileBytes.head(path: path, count: 65_536)))
        guard let time = columns.index("loggingTime(txt)") else {
            throw IngestError(file: path, line: 1, message: "no 'loggingTime(txt)' column: expected a SensorLog CSV export")
        }
        let user = Self.userAcceleration.compactMap { columns.index($0) }
        let total = Self.totalAcceleration.compactMap { columns.index($0) }
        let axes = user.count == 3 ? user : total
        guard axes.count == 3 else {
            throw IngestError(file: path, line: 1, message: "no acceleration columns: expected motionUserAccelerationX(G)… or accelerometerAccelerationX(G)…")
        }
        var table = ColumnSampleCSV(path: path, formatName: "a SensorLog CSV export", headerLines: 1, time: .isoWithOffset(column: time),
                                    x: axes[0], y: axes[1], z: axes[2], toG: 1, intake: SampleIntake(sink: samples), clock: nil)
        defer { samples = table.intake.sink }
        let stream = try ByteStreams.open(path: path)
        var cutShort: String? = nil
        try LineScanner.scan(stream, path: path, formatName: "a SensorLog CSV export", into: &table, cutShort: &cutShort)
        try table.checkUnits(expectedUnit: "g")
        var recording = try PhoneRecording.make(format: Self.format, path: path, options: options, table: table,
                                                gravity: user.count == 3 ? .removed : .included, compression: stream.compression,
                                                device: "SensorLog (iOS), \(user.count == 3 ? "CoreMotion user acceleration" : "accelerometer")")
        if let cutShort { recording.warnings.append(cutShort) }
        return recording
    }
}

/// Reads **Sensor Logger** (Kelvin Choi; iOS and Android) exports: one CSV per sensor with the
/// header `time,seconds_elapsed,z,y,x`; `time` in integer nanoseconds since 1970 (UTC), axes in
/// m/s² (converted to g with 9.80665 m/s² per g). `Accelerometer.csv` is acceleration without
/// gravity (the phone's user/linear acceleration); `TotalAcceleration.csv` includes gravity;
/// `Gravity.csv` is gravity alone and is refused.
public struct SensorLoggerCSVReader: RawSampleReader {
    public static let format = RecordingFormat.sensorLoggerCSV
    public init() {}

    static let standardGravity = 9.80665

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        let columns = CSVHeaderColumns(line: CSVHeaderColumns.firstLine(head))
        return columns.index("time") != nil && columns.index("seconds_elapsed") != nil
            && ["x", "y", "z"].allSatisfy { columns.index($0) != nil }
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> Recording {
        var discard = DiscardingSampleSink()
        return try read(path: path, options: options, samples: &discard)
    }

    public func read<Sink: SampleSink>(path: String, options: IngestOptions, samples: inout Sink) throws(IngestError) -> Recording {
        let name = FormatDetector.nameWithoutGzipSuffix(path.split(separator: "/").last.map(String.init) ?? path).lowercased()
        if name.hasPrefix("gravity") {
            throw IngestError(file: path, line: 1, message: "Sensor Logger's Gravity.csv holds gravity only, not movement: use Accelerometer.csv or TotalAcceleration.csv")
        }
        let columns = CSVHeaderColumns(line: CSVHeaderColumns.firstLine(try FileBytes.head(path: path, count: 4096)))
        guard let time = columns.index("time"), let x = columns.index("x"), let y = columns.index("y"), let z = columns.index("z") else {
            throw IngestError(file: path, line: 1, message: "expected the Sensor Logger header time,seconds_elapsed,z,y,x")
        }
        var table = ColumnSampleCSV(path: path, formatName: "a Sensor Logger CSV", headerLines: 1, time: .epochNanoseconds(column: time),
                                    x: x, y: y, z: z, toG: 1 / Self.standardGravity, intake: SampleIntake(sink: samples), clock: nil)
        defer { samples = table.intake.sink }
        let stream = try ByteStreams.open(path: path)
        var cutShort: String? = nil
        try LineScanner.scan(stream, path: path, formatName: "a Sensor Logger CSV", into: &table, cutShort: &cutShort)
        try table.checkUnits(expectedUnit: "m/s²")
        // The file name says which sensor; the data must agree (|a| ≈ 1 g with gravity).
        let expectsGravity = name.hasPrefix("totalacceleration")
        let measured = table.intake.gravity
        var recording = try PhoneRecording.make(format: Self.format, path: path, options: options, table: table,
                                                gravity: measured == .unknown ? (expectsGravity ? .included : .removed) : measured,
                                                compression: stream.compression,
                                                device: "Sensor Logger, \(expectsGravity ? "total acceleration" : "acceleration without gravity") (m/s² → g)")
        if measured == .included && !expectsGravity {
            recording.warnings.append("mean |a| is about 1 g: this file includes gravity although its name does not say TotalAcceleration")
        }
        if let cutShort { recording.warnings.append(cutShort) }
        return recording
    }
}

/// The recording of a phone log: UTC times, the zone from `--tz`, the offsets the file states, or UTC.
enum PhoneRecording {
    static func make<Sink: SampleSink>(format: RecordingFormat, path: String, options: IngestOptions, table: ColumnSampleCSV<Sink>,
                                       gravity: GravityContent, compression: String?, device: String) throws(IngestError) -> Recording {
        let (series, quality) = table.intake.finish()
        let zone = try ZoneChoice(path: path, option: options.timeZoneIdentifier, stated: table.statedTimeline,
                                  span: series.dataSpan.map { ($0.first, $0.end - 1) },
                                  noneWarning: "no time zone in the data and no --tz: nights are assigned on the UTC clock")
        let warnings = (zone.warning.map { [$0] } ?? []) + table.intake.warnings(quality)
        var recording = Recording(format: format, segments: [RecordingSegment(series: series)], timeline: zone.timeline,
                                  timeZoneName: zone.name, timeZoneSource: zone.source, units: "g", gravity: gravity,
                                  quality: quality, warnings: warnings)
        recording.device = device
        recording.compression = compression
        return recording
    }
}
