import SleepCore

/// Reads the UK Biobank accelerometer epoch files (the `…_90001_0_0.csv` 5-s epochs the cohort
/// releases, written by biobankAccelerometerAnalysis; GGIR's `ukbiobank.csv` test file):
///
/// ```
/// acceleration (mg) - 2014-12-08 10:00:00 - 2014-12-15 09:59:55 - sampleRate = 5 seconds,imputed
/// 0.2,0
/// 12.5,1
/// ```
///
/// The title line states the first and last epoch start and the epoch length; each row is the
/// epoch's mean acceleration in mg (ENMO, gravity removed) and whether it was imputed (1: the
/// device was not worn or the data were unusable, the value filled in by the cohort's pipeline).
/// Epochs run from the stated start; the times are the recording's local clock (no offset stated).
/// Columns: `acc_mg` (mg, mean) and `imputed` (1 = imputed).
public struct UKBiobankEpochCSVReader: EpochFileReader {
    public static let format = EpochFileFormat.ukBiobankEpochCSV
    public init() {}

    static let titlePrefix = "acceleration (mg) - "

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        var start = 0
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        return String(decoding: head.dropFirst(start).prefix(titlePrefix.utf8.count), as: UTF8.self) == titlePrefix
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> EpochRecording {
        let text = try DelimitedText(path: path)
        guard let title = text.lines.first(where: { !$0.isBlank }), title[0].hasPrefix(Self.titlePrefix) else {
            throw IngestError(file: path, line: 1, message: "expected the title 'acceleration (mg) - START - END - sampleRate = N seconds,imputed'")
        }
        // "acceleration (mg) - 2014-12-08 10:00:00 - 2014-12-15 09:59:55 - sampleRate = 5 seconds"
        let parts = title[0].dropFirst(Self.titlePrefix.count).components(separatedBy: " - ")
        guard parts.count == 3, let start = Self.localSecond(parts[0]), let end = Self.localSecond(parts[1]) else {
            throw IngestError(file: path, line: title.number, message: "title '\(title[0].prefix(100))': expected 'acceleration (mg) - yyyy-MM-dd HH:MM:SS - yyyy-MM-dd HH:MM:SS - sampleRate = N seconds'")
        }
        let rateWords = parts[2].split(separator: " ")
        guard rateWords.count == 4, rateWords[0] == "sampleRate", let epochSeconds = Int(rateWords[2]), epochSeconds > 0, epochSeconds <= 86_400 else {
            throw IngestError(file: path, line: title.number, message: "'\(parts[2].prefix(40))': expected 'sampleRate = N seconds' (the epoch length)")
        }
        guard end >= start else {
            throw IngestError(file: path, line: title.number, message: "the stated end \(parts[1]) is before the start \(parts[0])")
        }
        let hasImputed = title.fields.count > 1 && title[1].lowercased() == "imputed"
        var specs: [EpochRowTable.ColumnSpec] = [.init(name: "acc_mg", sourceName: "acceleration (mg)")]
        if hasImputed { specs.append(.init(name: "imputed", sourceName: "imputed")) }
        var table = EpochRowTable(path: path, numericColumns: specs)
        var values = [Double](repeating: .nan, count: specs.count)
        var epoch: Int64 = 0
        for row in text.lines.dropFirst(title.number) where !row.isBlank {
            guard row.fields.count == specs.count else {
                throw IngestError(file: path, line: row.number, message: "\(row.fields.count) fields: expected \(specs.count) (acceleration in mg\(hasImputed ? ", imputed" : ""))")
            }
            for c in specs.indices {
                switch EpochNumber.parse(row[c]) {
                case .value(let v): values[c] = v
                case .missing: values[c] = .nan
                case .invalid: throw IngestError(file: path, line: row.number, message: "\(specs[c].sourceName) = '\(row[c].prefix(40))' is not a number")
                }
            }
            if hasImputed && !(values[1] == 0 || values[1] == 1) {
                throw IngestError(file: path, line: row.number, message: "imputed = '\(row[1])': expected 0 or 1")
            }
            let local = start + epoch * Int64(epochSeconds)
            if local > end {
                throw IngestError(file: path, line: row.number, message: "more rows than the title's span (\(parts[0]) to \(parts[1]) at \(epochSeconds) s)")
            }
            table.append(localSecond: local, position: row.number, values: values)
            epoch += 1
        }
        var warnings: [String] = []
        let stated = (end - start) / Int64(epochSeconds) + 1
        if epoch > 0 && epoch < stated {
            warnings.append("the title states \(stated) epochs (\(parts[0]) to \(parts[1])); the file holds the first \(epoch)")
        }
        return try table.build(format: .ukBiobankEpochCSV, epochSeconds: epochSeconds, options: options, statedOffsetSeconds: nil,
                               metadata: ["statedstart": parts[0], "statedend": parts[1]], warnings: warnings)
    }

    /// `2014-12-08 10:00:00` → local seconds.
    static func localSecond(_ text: String) -> Int64? {
        let p = text.split(separator: " ")
        guard p.count == 2, let date = LocalClockText.date(String(p[0]), order: .yearFirst),
              let second = LocalClockText.secondOfDay(String(p[1])) else { return nil }
        return LocalClockText.localSecond(date, secondOfDay: second)
    }
}
