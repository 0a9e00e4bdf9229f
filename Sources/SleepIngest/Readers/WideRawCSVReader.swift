import SleepCore

/// Reads raw-sample CSVs whose rows hold a formatted local time, x, y, z in g and further value
/// columns, the layout GGIR reads as `dataFormat = "raw"` CSV and exports from AX6 files
/// (GGIR's `ax6_testfile_formatted_timestamps.csv`):
///
/// ```
/// 2019-12-23 21:04:06.690,0.007324,0.071289,0.008789,0.274658,-0.503540,15.769958
/// ```
///
/// * time: `yyyy-MM-dd HH:MM:SS[.fff]` (also `T` between date and time) on the device's local clock,
///   placed with `--tz` (else UTC, with a warning), like the device formats;
/// * columns 2–4: acceleration x, y, z in g; every further column (the AX6's gyroscope in °/s,
///   light, temperature …) is not acceleration and is not read;
/// * an optional title row (`time,x,y,z,gx,gy,gz`) is skipped.
///
/// Files of exactly four columns are the `timestamp,x,y,z` format of ``RawCSVReader``.
public struct WideRawCSVReader: RawSampleReader {
    public static let format = RecordingFormat.wideRawCSV
    public init() {}

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        guard fileName.lowercased().hasSuffix(".csv") else { return false }
        var lines = head.split(separator: 10, maxSplits: 3, omittingEmptySubsequences: true).map { Array($0) }
        guard !lines.isEmpty else { return false }
        if let f = lines.first, f.first.map({ !(48...57).contains($0) }) ?? true { lines.removeFirst() }   // a title row
        guard let row = lines.first else { return false }
        let fields = row.split(separator: 44, omittingEmptySubsequences: false)
        guard fields.count >= 5, isLocalTime(Array(fields[0])) else { return false }
        return fields[1...3].allSatisfy { f in
            var t = Array(f)
            if t.last == 13 { t.removeLast() }
            return !t.isEmpty && Double(String(decoding: t, as: UTF8.self)) != nil
        }
    }

    /// `2019-12-23 21:04:06.690`: a year-first date, a space or `T`, a time.
    static func isLocalTime(_ b: [UInt8]) -> Bool {
        guard b.count >= 19 else { return false }
        let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        return digits.allSatisfy { (48...57).contains(b[$0]) } && b[4] == 45 && b[7] == 45 && (b[10] == 32 || b[10] == 84)
            && b[13] == 58 && b[16] == 58
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> Recording {
        var discard = DiscardingSampleSink()
        return try read(path: path, options: options, samples: &discard)
    }

    public func read<Sink: SampleSink>(path: String, options: IngestOptions, samples: inout Sink) throws(IngestError) -> Recording {
        let head = try FileBytes.head(path: path, count: 4096)
        let titled = head.first.map { !(48...57).contains($0) } ?? false
        let clock = try DeviceClock(path: path, options: options, statedOffsetSeconds: nil)
        let formatName = "a raw CSV of local time, x, y, z (g) and further columns"
        var table = ColumnSampleCSV(path: path, formatName: formatName, headerLines: titled ? 1 : 0,
                                    time: .actiLife(column: 0, order: NumericDateOrder(format: "yyyy-MM-dd")!), x: 1, y: 2, z: 3, toG: 1,
                                    intake: SampleIntake(sink: samples, deviceRangeG: nil), clock: clock)
        defer { samples = table.intake.sink }
        let stream = try ByteStreams.open(path: path)
        var cutShort: String? = nil
        try LineScanner.scan(stream, path: path, formatName: formatName, into: &table, cutShort: &cutShort)
        try table.checkUnits(expectedUnit: "g")
        let (series, quality) = table.intake.finish(nominalSampleRateHz: nil, deviceRangeG: nil)
        let zone = try clock.zone(for: series)
        var recording = Recording(format: Self.format, segments: [RecordingSegment(series: series)], timeline: zone.timeline,
                                  timeZoneName: zone.name, timeZoneSource: zone.source, units: "g",
                                  gravity: table.intake.gravity == .removed ? .removed : .included,
                                  quality: quality, warnings: (zone.warning.map { [$0] } ?? []) + table.intake.warnings(quality) + (cutShort.map { [$0] } ?? []))
        recording.compression = stream.compression
        return recording
    }
}
