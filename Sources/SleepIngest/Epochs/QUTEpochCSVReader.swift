import SleepCore

/// Reads the QUT "Sleep data" epoch files (Roomkham et al. 2019; dataset DOI 10.25912/5cc28f62e81ad16):
/// `timestamp,Actiwatch activity counts,Actiware classification,Apple Watch ENMO`, one row per
/// 15-s epoch, `dd/mm/yyyy HH:MM:SS` timestamps (dates shifted to January 2000 by the authors,
/// clock times real), `NA` for missing values.
///
/// Columns: `activity` (Actiwatch counts), `enmo` (Apple Watch ENMO, g, mean over the epoch) and
/// Actiware's classification as the label column `actiware_classification` (1 = wake, 0 = sleep).
/// The files state no UTC offset.
public struct QUTEpochCSVReader: EpochFileReader {
    public static let format = EpochFileFormat.qutEpochCSV
    public init() {}

    static let requiredTitles = ["timestamp", "actiwatch_activity_counts", "actiware_classification", "apple_watch_enmo"]

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        guard fileName.lowercased().hasSuffix(".csv") else { return false }
        let text = String(decoding: head.prefix(1024), as: UTF8.self)
        guard let first = text.split(whereSeparator: \.isNewline).first else { return false }
        return EpochColumnNaming.canonical(String(first)).contains("actiwatch_activity_counts")
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> EpochRecording {
        let text = try DelimitedText(path: path, delimiter: 0x2C)
        guard let titleLine = text.lines.first(where: { !$0.isBlank }) else {
            throw IngestError(file: path, line: 1, message: "empty file: expected the title row \(Self.requiredTitles.joined(separator: ","))")
        }
        let titles = titleLine.fields.map(EpochColumnNaming.canonical)
        var index: [String: Int] = [:]
        for name in Self.requiredTitles {
            guard let i = titles.firstIndex(of: name) else {
                throw IngestError(file: path, line: titleLine.number, message: "no column '\(name)': expected timestamp,Actiwatch activity counts,Actiware classification,Apple Watch ENMO")
            }
            index[name] = i
        }
        let rows = text.lines.filter { $0.number > titleLine.number && !$0.isBlank }
        var table = EpochRowTable(path: path,
                                  numericColumns: [.init(name: "activity", sourceName: titleLine[index["actiwatch_activity_counts"]!]),
                                                   .init(name: "enmo", sourceName: titleLine[index["apple_watch_enmo"]!])],
                                  labelColumns: [.init(name: "actiware_classification", sourceName: titleLine[index["actiware_classification"]!])])
        let order = LocalClockText.resolveOrder(dates: rows.map { String($0[index["timestamp"]!].split(separator: " ").first ?? "") },
                                                fallback: .dayFirst)
        for row in rows {
            guard row.fields.count == titles.count else {
                throw IngestError(file: path, line: row.number, message: "\(row.fields.count) fields: expected \(titles.count)")
            }
            let stamp = row[index["timestamp"]!]
            let parts = stamp.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2, let date = LocalClockText.date(String(parts[0]), order: order),
                  let second = LocalClockText.secondOfDay(String(parts[1])) else {
                throw IngestError(file: path, line: row.number, message: "timestamp '\(stamp.prefix(40))' is not valid: expected dd/mm/yyyy HH:MM:SS")
            }
            var values: [Double] = []
            for name in ["actiwatch_activity_counts", "apple_watch_enmo"] {
                let field = row[index[name]!]
                switch EpochNumber.parse(field) {
                case .value(let v): values.append(v)
                case .missing: values.append(.nan)
                case .invalid:
                    throw IngestError(file: path, line: row.number, message: "\(titleLine[index[name]!]) = '\(field.prefix(40))' is not a number or NA")
                }
            }
            let classification = row[index["actiware_classification"]!]
            let label: SleepWake?
            switch EpochNumber.parse(classification) {
            case .value(0): label = .sleep
            case .value(1): label = .wake
            case .missing: label = nil
            default:
                throw IngestError(file: path, line: row.number, message: "Actiware classification '\(classification.prefix(40))': expected 0 (sleep), 1 (wake) or NA")
            }
            table.append(localSecond: LocalClockText.localSecond(date, secondOfDay: second), position: row.number,
                         values: values, labels: [label])
        }
        return try table.build(format: .qutEpochCSV, epochSeconds: nil, options: options, statedOffsetSeconds: nil,
                               metadata: ["dataset": "QUT Sleep data (Apple Watch + Actiwatch)", "dateformat": order.rawValue])
    }
}
