import SleepCore

/// Reads the epoch time series of biobankAccelerometerAnalysis (OxWearables `accelerometer`,
/// `…-timeSeries.csv.gz`), as pyActigraphy's `io/bba` reads it:
///
/// ```
/// time,acc,light,moderate-vigorous,sedentary,sleep,MET
/// 2014-05-07 13:29:50.439000+0100 [Europe/London],63.146,0.0,0.0,1.0,0.0,1.563
/// ```
///
/// * `time`: the epoch start, local time with its UTC offset and the zone in brackets (kept as the
///   `timezone` fact; times are placed by the offsets, or by `--tz`); epochs
///   start at the same fraction of a second throughout (kept as ``EpochRecording/startFractionSeconds``);
///   the offset of each row places it (a DST change inside the file does not break the grid), the
///   first row's offset and the bracketed zone are the file's statement of the time zone;
/// * `acc`: mean acceleration of the epoch in mg (ENMO) → `acc_mg`;
/// * the activity-model columns (`light`, `moderate-vigorous`, `sedentary`, `sleep`, 1 for the
///   predicted state) → `state_light` … (named apart from light in lux), `MET`, and `imputed` when present.
public struct BBATimeSeriesReader: EpochFileReader {
    public static let format = EpochFileFormat.bbaTimeSeries
    public init() {}

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        let text = String(decoding: head.prefix(200), as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline)
        guard lines.count >= 2, lines[0].hasPrefix("time,acc") else { return false }
        return lines[1].contains("[") && lines[1].contains("]")
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> EpochRecording {
        let text = try DelimitedText(path: path, delimiter: 0x2C)
        guard let titleLine = text.lines.first(where: { !$0.isBlank }), titleLine[0] == "time", titleLine[1] == "acc" else {
            throw IngestError(file: path, line: 1, message: "expected the titles 'time,acc,…' of a biobankAccelerometerAnalysis time series")
        }
        let titles = titleLine.fields
        let names: [String] = titles.enumerated().map { c, t in
            let n = EpochColumnNaming.canonical(t)
            if c == 1 { return "acc_mg" }
            return ["met", "imputed"].contains(n) || n.isEmpty ? n : "state_\(n)"
        }
        let numeric = Array(1..<titles.count).filter { !names[$0].isEmpty }
        var table = EpochRowTable(path: path, numericColumns: numeric.map { .init(name: names[$0], sourceName: titles[$0]) })
        var firstOffset: Int32? = nil
        var fraction: Double? = nil
        var zone: String? = nil
        var values = [Double](repeating: .nan, count: numeric.count)
        for row in text.lines.dropFirst(titleLine.number) where !row.isBlank {
            guard row.fields.count == titles.count else {
                throw IngestError(file: path, line: row.number, message: "\(row.fields.count) fields: expected \(titles.count) as in the titles")
            }
            // "2014-05-07 13:29:50.439000+0100 [Europe/London]"
            let timeText = row[0]
            // Empty pieces are kept: an empty time or one that starts with " [" has no stamp to read.
            let stamp = timeText.split(separator: " [", maxSplits: 1, omittingEmptySubsequences: false)
            var bytes = Array((stamp.first ?? "").utf8)
            guard let ts = bytes.withUnsafeMutableBufferPointer({ b -> ISOTimestamp? in
                b.count >= 19 ? ISOTimestamp.parse(b.baseAddress!, 0, b.count) : nil
            }), let offset = ts.offsetSeconds else {
                throw IngestError(file: path, line: row.number, message: "time '\(timeText.prefix(60))': expected yyyy-MM-dd HH:MM:SS.ffffff+hhmm [Zone]")
            }
            if firstOffset == nil {
                firstOffset = offset; fraction = ts.fraction
                if stamp.count == 2, stamp[1].hasSuffix("]") { zone = String(stamp[1].dropLast()) }
            } else if abs(ts.fraction - fraction!) > 1e-3 {
                throw IngestError(file: path, line: row.number, message: "time '\(timeText.prefix(60))' starts at another fraction of a second than the first epoch (\(fraction!)): expected a regular grid")
            }
            // One clock for the whole file: UTC plus the first row's offset.
            let local = ts.localSeconds - Int64(offset) + Int64(firstOffset!)
            for (k, c) in numeric.enumerated() {
                switch EpochNumber.parse(row[c]) {
                case .value(let v): values[k] = v
                case .missing: values[k] = .nan
                case .invalid: throw IngestError(file: path, line: row.number, message: "\(titles[c]) = '\(row[c].prefix(40))' is not a number")
                }
            }
            table.append(localSecond: local, position: row.number, values: values)
        }
        var metadata: [String: String] = [:]
        if let zone { metadata["timezone"] = zone }
        var r = try table.build(format: .bbaTimeSeries, epochSeconds: nil, options: options, statedOffsetSeconds: firstOffset, metadata: metadata)
        r.startFractionSeconds = fraction ?? 0
        return r
    }
}
