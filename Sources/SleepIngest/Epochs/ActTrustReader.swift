import SleepCore

/// Reads Condor Instruments ActTrust exports (ActStudio's `.txt`), as pyActigraphy's `io/atr` reads
/// them:
///
/// ```
/// +-------------+ Condor Instruments Report +-------------+
/// DEVICE_ID : myUUID
/// DEVICE_MODEL : ActTrust1
/// MODE : PIM/TAT/ZCM
/// INTERVAL : 60                                   epoch length in seconds
/// …
/// +-------------------------------------------------------+
/// DATE/TIME;MS;EVENT;TEMPERATURE;EXT TEMPERATURE;ORIENTATION;PIM;PIMn;TAT;TATn;ZCM;ZCMn;LIGHT;…;STATE
/// 01/01/1918 09:00:00;0;0;29.38;28.19;0;1851;30.85;109;1.81667;41;0.683333;384.44;…;0
/// ```
///
/// `DATE/TIME` is the device's local clock, day first (`dd/MM/yyyy HH:MM:SS`; the order is taken
/// from the dates when they can tell); the file states no UTC offset. A row written when the event
/// button was pressed carries the time of the press (`01:54:26` among whole minutes, `EVENT` = 1):
/// rows are placed in the epoch their time falls in, on the `INTERVAL` grid of the first row (as
/// pyActigraphy places them, by position). Every numeric column is kept
/// under its canonical title (`pim`, `tat`, `zcm` counts; `pimn` … per-second means; light
/// channels in lux; temperatures in °C; `event`, `orientation`, `state` as the device codes them).
/// The subject lines of the header (`SUBJECT_*`) are not kept.
public struct ActTrustReader: EpochFileReader {
    public static let format = EpochFileFormat.actTrust
    public init() {}

    static let banner = "condor instruments report"

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        let text = String(decoding: head.prefix(512), as: UTF8.self)
        guard let first = text.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return false }
        return first.hasPrefix("+") && first.lowercased().contains(banner)
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> EpochRecording {
        let text = try DelimitedText(path: path)
        let lines = text.lines
        guard let bannerIndex = lines.firstIndex(where: { !$0.isBlank }),
              lines[bannerIndex].fields.joined(separator: ";").lowercased().contains(Self.banner) else {
            throw IngestError(file: path, line: 1, message: "no '+--- Condor Instruments Report ---+' banner: expected an ActTrust export")
        }
        var header = try Self.headerBlock(lines, bannerIndex: bannerIndex, path: path)
        guard let titleLine = lines[(header.closingIndex + 1)...].first(where: { !$0.isBlank }) else {
            throw IngestError(file: path, line: lines[header.closingIndex].number, message: "no data table after the header block")
        }
        let titles = titleLine.fields
        let canonical = titles.map(EpochColumnNaming.canonical)
        guard let timeColumn = canonical.firstIndex(of: "date_time") else {
            throw IngestError(file: path, line: titleLine.number, message: "no DATE/TIME column: expected ActTrust's DATE/TIME;MS;EVENT;…;PIM;…")
        }
        guard canonical.contains("pim") || canonical.contains("zcm") || canonical.contains("tat") else {
            throw IngestError(file: path, line: titleLine.number, message: "no PIM, TAT or ZCM column: expected ActTrust's activity columns")
        }
        let rows = lines.drop(while: { $0.number <= titleLine.number }).filter { !$0.isBlank }
        let dates = rows.map { String($0[timeColumn].split(separator: " ").first ?? "") }
        let order = LocalClockText.resolveOrder(dates: dates, fallback: .dayFirst)
        let table = try Self.readRows(rows, titles: titles, canonical: canonical, timeColumn: timeColumn, order: order,
                                      epochSeconds: header.epochSeconds, path: path)
        header.metadata["dateformat"] = order.rawValue
        header.metadata["device"] = Self.deviceName(header.metadata)
        return try table.build(format: .actTrust, epochSeconds: header.epochSeconds, options: options, statedOffsetSeconds: nil,
                               metadata: header.metadata)
    }

    /// What the header block states, and the index of its closing `+-----+` line.
    struct HeaderBlock {
        var metadata: [String: String] = [:]
        var epochSeconds: Int? = nil
        var closingIndex = 0
    }

    /// Header: `KEY : value` lines up to the closing `+-----+` line (the subject's are not kept).
    static func headerBlock(_ lines: [DelimitedText.Line], bannerIndex: Int, path: String) throws(IngestError) -> HeaderBlock {
        var header = HeaderBlock()
        var index = bannerIndex + 1
        while index < lines.count && !lines[index].fields.joined(separator: ";").trimmingSpaces.hasPrefix("+") {
            let line = lines[index].fields.joined(separator: ";")
            index += 1
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(), value = line[line.index(after: colon)...].trimmingCharacters()
            if key.hasPrefix("SUBJECT") { continue }
            if key == "INTERVAL" {
                guard let s = Int(value), s > 0, s <= 86_400 else {
                    throw IngestError(file: path, line: lines[index - 1].number, message: "INTERVAL '\(value.prefix(20))': expected the epoch length in whole seconds")
                }
                header.epochSeconds = s
            }
            header.metadata[key.lowercased()] = value
        }
        guard index < lines.count else {
            throw IngestError(file: path, line: lines.last?.number ?? 1, message: "the header block never ends: expected a closing '+-----+' line and the data table")
        }
        header.closingIndex = index
        return header
    }

    /// The table's rows: every numeric column, each row in the epoch its time falls in.
    static func readRows(_ rows: [DelimitedText.Line], titles: [String], canonical: [String], timeColumn: Int,
                         order: LocalClockText.DateOrder, epochSeconds: Int?, path: String) throws(IngestError) -> EpochRowTable {
        let skipped: Set<String> = ["date_time", "ms"]
        let numeric = titles.indices.filter { !skipped.contains(canonical[$0]) && !canonical[$0].isEmpty }
        var table = EpochRowTable(path: path, numericColumns: numeric.map { .init(name: canonical[$0], sourceName: titles[$0]) })
        var values = [Double](repeating: .nan, count: numeric.count)
        var firstLocal: Int64? = nil
        for row in rows {
            guard row.fields.count == titles.count else {
                throw IngestError(file: path, line: row.number, message: "\(row.fields.count) fields: expected \(titles.count) as in the titles")
            }
            let parts = row[timeColumn].split(separator: " ")
            guard parts.count == 2, let date = LocalClockText.date(String(parts[0]), order: order),
                  let second = LocalClockText.secondOfDay(String(parts[1])) else {
                throw IngestError(file: path, line: row.number, message: "DATE/TIME '\(row[timeColumn].prefix(40))': expected \(order.rawValue) HH:MM:SS")
            }
            for (j, c) in numeric.enumerated() {
                switch EpochNumber.parse(row[c]) {
                case .value(let v): values[j] = v
                case .missing: values[j] = .nan
                case .invalid: throw IngestError(file: path, line: row.number, message: "\(titles[c]) = '\(row[c].prefix(40))' is not a number")
                }
            }
            // A row written at a button press carries the press's time (01:54:26 in a 60-s file):
            // it belongs to the epoch it falls in, on the grid of the first row.
            var local = LocalClockText.localSecond(date, secondOfDay: second)
            if let first = firstLocal, let step = epochSeconds.map(Int64.init), local > first {
                local -= (local - first) % step
            }
            if firstLocal == nil { firstLocal = local }
            table.append(localSecond: local, position: row.number, values: values)
        }
        return table
    }

    /// `Condor ActTrust1 #myUUID, firmware 1.0`.
    static func deviceName(_ metadata: [String: String]) -> String {
        var device = metadata["device_model"].map { "Condor \($0)" } ?? "Condor ActTrust"
        if let id = metadata["device_id"], !id.isEmpty { device += " #\(id)" }
        if let f = metadata["firmware_version"], !f.isEmpty { device += ", firmware \(f)" }
        return device
    }
}
