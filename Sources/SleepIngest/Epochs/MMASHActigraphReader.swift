import SleepCore

/// Reads MMASH `Actigraph.csv` (Rossi et al. 2020, PhysioNet doi:10.13026/cerq-fc86): ActiGraph
/// wGT3X-BT data at 1-s epochs with an unnamed row-index column, `Axis1, Axis2, Axis3, Steps, HR,
/// Inclinometer Off/Standing/Sitting/Lying, Vector Magnitude`, then `day` (1, 2 …) and `time`
/// (`HH:MM:SS`).
///
/// The data set gives day numbers, not dates: day 1 is placed on 1970-01-01 (so printed dates are
/// `1970-01-01`, `1970-01-02` …; a warning says so). Seconds missing from the file (many, inside
/// the night) are missing epochs. Heart rate is a per-second mean.
public struct MMASHActigraphReader: EpochFileReader {
    public static let format = EpochFileFormat.mmashActigraphCSV
    public init() {}

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        guard fileName.lowercased().hasSuffix(".csv") else { return false }
        let text = String(decoding: head.prefix(1024), as: UTF8.self)
        guard let first = text.split(whereSeparator: \.isNewline).first else { return false }
        let titles = first.split(separator: ",", omittingEmptySubsequences: false).map { EpochColumnNaming.canonical(String($0)) }
        return titles.contains("axis1") && titles.contains("day") && titles.contains("time") && !titles.contains("date")
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> EpochRecording {
        let text = try DelimitedText(path: path, delimiter: 0x2C)
        guard let titleLine = text.lines.first(where: { !$0.isBlank }) else {
            throw IngestError(file: path, line: 1, message: "empty file: expected MMASH Actigraph.csv column titles")
        }
        let titles = titleLine.fields.map(EpochColumnNaming.canonical)
        guard let dayColumn = titles.firstIndex(of: "day"), let timeColumn = titles.firstIndex(of: "time"),
              titles.contains("axis1") else {
            throw IngestError(file: path, line: titleLine.number, message: "expected the columns Axis1 … day, time of MMASH Actigraph.csv")
        }
        // The first, untitled column is pandas' row index.
        let numeric = titles.indices.filter { $0 != dayColumn && $0 != timeColumn && !titles[$0].isEmpty }
        var table = EpochRowTable(path: path, numericColumns: numeric.map { .init(name: titles[$0], sourceName: titleLine[$0]) })
        var values = [Double](repeating: .nan, count: numeric.count)
        for row in text.lines where row.number > titleLine.number && !row.isBlank {
            guard row.fields.count == titles.count else {
                throw IngestError(file: path, line: row.number, message: "\(row.fields.count) fields: expected \(titles.count)")
            }
            guard let day = Int(row[dayColumn]), day >= 1, day <= 366 else {
                throw IngestError(file: path, line: row.number, message: "day '\(row[dayColumn].prefix(20))': expected a day number 1, 2 …")
            }
            guard let second = LocalClockText.secondOfDay(row[timeColumn]) else {
                throw IngestError(file: path, line: row.number, message: "time '\(row[timeColumn].prefix(20))': expected HH:MM:SS")
            }
            for (k, c) in numeric.enumerated() {
                switch EpochNumber.parse(row[c]) {
                case .value(let v): values[k] = v
                case .missing: values[k] = .nan
                case .invalid:
                    throw IngestError(file: path, line: row.number, message: "\(titleLine[c]) = '\(row[c].prefix(40))' is not a number")
                }
            }
            table.append(localSecond: Int64(day - 1) * 86_400 + Int64(second), position: row.number, values: values)
        }
        return try table.build(format: .mmashActigraphCSV, epochSeconds: 1, options: options, statedOffsetSeconds: nil,
                               metadata: ["dataset": "MMASH (Rossi et al. 2020)", "devicename": "ActiGraph wGT3X-BT"],
                               warnings: ["MMASH gives day numbers, not dates: day 1 is shown as 1970-01-01"])
    }
}
