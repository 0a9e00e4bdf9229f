import SleepCore

/// Reads ActiLife epoch CSV exports in their three layouts:
///
/// 1. ActiLife's "Export to CSV" with its ten-line header block:
///    ```
///    ------------ Data File Created By ActiGraph GT3X+ ActiLife v6.13.3 Firmware v2.5.0 date format M/d/yyyy at 30 Hz  Filter Normal -----------
///    Serial Number: NEO1DXXXXXXXX
///    Start Time 10:54:00
///    Start Date 6/27/2012
///    Epoch Period (hh:mm:ss) 00:00:10
///    …
///    --------------------------------------------------
///    Date,Time,Axis1,Axis2,Axis3,Steps,Lux,…          (optional column titles)
///    ```
///    The date format named in the first line is used for every date. Without a `Date`/`Time`
///    pair the epochs run from the start date and time at the epoch period. Without column titles
///    the columns are ActiLife's in its order: Axis1, Axis2, Axis3, Steps, Lux, Inclinometer Off,
///    Standing, Sitting, Lying. A header with `Epoch Period (hh:mm:ss) 00:00:00` is a *raw*
///    export (acceleration in g, not epochs) and is left to the raw-sample readers.
/// 2. The export with `Date,Time,Axis1,…` titles and no header block (e.g. ActiLife's scoring
///    export with a `Sleep or Awake?` column), dates `M/d/yyyy` unless they show otherwise,
///    times `10:54 AM` or `10:54:00`.
/// 3. Plain `timestamp,axis1,axis2,axis3,…` (ISO 8601 timestamps, as actigraph.sleepr writes
///    ActiLife data). The digits are the device's local clock; an offset written after them
///    (`Z`, `+02:00`) is taken as the file's statement of the offset.
///
/// Columns whose values are all `S`/`W` (or `Sleep`/`Wake`) are kept as the file's sleep/wake labels.
///
/// Variants seen in the field (GGIRread's test files): header lines that end in a run of commas
/// (`Start Time 21:35:00,,,,,,,,`, a spreadsheet re-saving the export as a table), and ActiGraph
/// Link's `------------ Data Table File Created By Actigraph Link …` banner with a `TimeStamp`
/// column. The header's dates of the Link export do not always follow its stated date format
/// (`date format dd/MM/yyyy` above `Start Date 09-12-2017` for 12 September); when the rows carry
/// their own timestamps, those place the epochs.
public struct ActiLifeCSVReader: EpochFileReader {
    public static let format = EpochFileFormat.actiLifeCSV
    public init() {}

    /// The banners ActiLife and ActiGraph Link write (compared lowercased: Link spells `Actigraph`).
    static let bannerPrefixes = ["------------ data file created by actigraph", "------------ data table file created by actigraph"]

    static func isBanner(_ line: String) -> Bool {
        let l = line.trimmingSpaces.lowercased()
        return bannerPrefixes.contains { l.hasPrefix($0) }
    }

    /// A header line without the empty fields a spreadsheet appends (`Start Time 09:00:00,,,`).
    static func headerText(_ line: DelimitedText.Line) -> String {
        var fields = line.fields[...]
        while fields.count > 1, fields.last!.isEmpty { fields = fields.dropLast() }
        return fields.joined(separator: ",").trimmingSpaces
    }
    /// ActiLife's column order for exports without column titles.
    static let headerlessColumns = ["axis1", "axis2", "axis3", "steps", "lux", "inclineoff", "inclinestanding",
                                    "inclinesitting", "inclinelying"]
    static let timestampTitles: Set<String> = ["timestamp", "timestamp_local", "datetime", "date_time", "time_stamp"]

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        let text = String(decoding: head, as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { line -> String in
            var l = Substring(line)
            while l.last == "," { l = l.dropLast() }   // the commas a spreadsheet appends
            return String(l).trimmingSpaces
        }
        guard let first = lines.first else { return false }
        if isBanner(first) {
            // An epoch period of 00:00:00 marks a raw (sub-second) export, left to the raw readers;
            // without the line the block cannot tell, and epochs are not assumed.
            guard let period = lines.first(where: { $0.hasPrefix("Epoch Period") }) else { return false }
            return !period.hasSuffix("00:00:00")
        }
        guard fileName.lowercased().hasSuffix(".csv") else { return false }
        let titles = DelimitedText.split(Array(first.utf8), 0, first.utf8.count, delimiter: 0x2C).map(EpochColumnNaming.canonical)
        guard let axis1 = titles.firstIndex(of: "axis1") else { return false }
        if titles.count >= 2 && titles[0] == "date" && titles[1] == "time" { return true }
        guard timestampTitles.contains(titles[0]) else { return false }
        // Plain timestamp CSV: counts are whole numbers; acceleration in g is not (raw export).
        guard lines.count > 1 else { return true }
        let row = DelimitedText.split(Array(lines[1].utf8), 0, lines[1].utf8.count, delimiter: 0x2C)
        guard axis1 < row.count, case .value(let v) = EpochNumber.parse(row[axis1]) else { return true }
        return v == v.rounded()
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> EpochRecording {
        let text = try DelimitedText(path: path)
        guard let firstLine = text.lines.first(where: { !$0.isBlank }) else {
            throw IngestError(file: path, line: 1, message: "empty file: expected an ActiLife epoch export")
        }
        if Self.isBanner(firstLine[0]) || text.lines.first.map({ Self.isBanner($0.fields.joined(separator: ",")) }) == true {
            return try readWithHeaderBlock(text, options: options)
        }
        return try readTitled(text, lines: text.lines[...], header: nil, options: options)
    }

    // MARK: Layout 1: ActiLife header block

    struct HeaderBlock {
        var dateOrder: LocalClockText.DateOrder = .monthFirst
        var startLocalSecond: Int64
        var epochSeconds: Int
        var metadata: [String: String]
        /// Index of the first line after the dashed line.
        var bodyStart: Int
    }

    /// The banner's facts: the date format every date of the file follows, and the device,
    /// software, firmware, sample rate and filter it names.
    static func bannerFacts(_ banner: String, path: String) throws(IngestError) -> (order: LocalClockText.DateOrder, metadata: [String: String]) {
        var metadata: [String: String] = [:]
        var order = LocalClockText.DateOrder.monthFirst
        if let range = banner.range(of: "date format ") {
            let format = banner[range.upperBound...].prefix(while: { $0 != " " })
            metadata["dateformat"] = String(format)
            if format.lowercased().hasPrefix("d") { order = .dayFirst }
            else if format.lowercased().hasPrefix("y") { order = .yearFirst }
            else if !format.hasPrefix("M") {
                throw IngestError(file: path, line: 1, message: "date format '\(format)': expected M/d/yyyy, d/M/yyyy or yyyy-MM-dd")
            }
        }
        if let r = banner.range(of: "Created By ") {
            let rest = banner[r.upperBound...]
            if let a = rest.range(of: " ActiLife") {
                var device = String(rest[..<a.lowerBound])
                if device.hasPrefix("ActiGraph ") { device.removeFirst("ActiGraph ".count) }
                metadata["devicename"] = device
            }
        }
        func word(after key: String) -> String? {
            guard let r = banner.range(of: key) else { return nil }
            return banner[r.upperBound...].split(separator: " ").first.map(String.init)
        }
        metadata["softwareversion"] = word(after: "ActiLife ")
        metadata["firmware"] = word(after: "Firmware ")
        metadata["original sample rate"] = word(after: " at ")
        metadata["filter"] = word(after: "Filter ")
        return (order, metadata)
    }

    func parseHeaderBlock(_ text: DelimitedText) throws(IngestError) -> HeaderBlock {
        let path = text.path
        let (order, bannerMetadata) = try Self.bannerFacts(Self.headerText(text.lines[0]), path: path)
        var metadata = bannerMetadata
        var startTime: Int? = nil, startDate: CivilDate? = nil, epochSeconds: Int? = nil
        var index = 1
        while index < text.lines.count {
            let line = text.lines[index]
            let joined = Self.headerText(line)
            index += 1
            if joined.hasPrefix("-----") { break }
            if let v = joined.value(after: "Serial Number:") { metadata["deviceserial"] = v }
            else if let v = joined.value(after: "Start Time") {
                guard let s = LocalClockText.secondOfDay(v) else {
                    throw IngestError(file: path, line: line.number, message: "start time '\(v)': expected HH:MM:SS")
                }
                startTime = s
            } else if let v = joined.value(after: "Start Date") {
                guard let d = LocalClockText.date(v, order: order) ?? LocalClockText.date(v, order: order == .dayFirst ? .monthFirst : .dayFirst) else {
                    throw IngestError(file: path, line: line.number, message: "start date '\(v)': expected a date in the header's format \(order.rawValue)")
                }
                startDate = d
            } else if let v = joined.value(after: "Epoch Period (hh:mm:ss)") {
                guard let s = LocalClockText.secondOfDay(v), s > 0 else {
                    throw IngestError(file: path, line: line.number, message: "epoch period '\(v)': expected a positive hh:mm:ss (00:00:00 marks a raw export, not epochs)")
                }
                epochSeconds = s
            } else if let v = joined.value(after: "Download Date") { metadata["downloaddate"] = v }
            else if let v = joined.value(after: "Download Time") { metadata["downloadtime"] = v }
            else if joined.hasPrefix("Current Battery Voltage:"), let m = joined.range(of: "Mode = ") {
                metadata["modenumber"] = String(joined[m.upperBound...]).trimmingSpaces
            }
        }
        guard index <= text.lines.count, text.lines[index - 1].fields.joined(separator: ",").trimmingSpaces.hasPrefix("-----") else {
            throw IngestError(file: path, line: text.lines.count, message: "the ActiLife header block does not end with a dashed line")
        }
        guard let startTime, let startDate else {
            throw IngestError(file: path, line: index - 1, message: "the ActiLife header block lacks 'Start Time' or 'Start Date'")
        }
        guard let epochSeconds else {
            throw IngestError(file: path, line: index - 1, message: "the ActiLife header block lacks 'Epoch Period (hh:mm:ss)'")
        }
        metadata["epochlength"] = String(epochSeconds)
        return HeaderBlock(dateOrder: order, startLocalSecond: LocalClockText.localSecond(startDate, secondOfDay: startTime),
                           epochSeconds: epochSeconds, metadata: metadata, bodyStart: index)
    }

    func readWithHeaderBlock(_ text: DelimitedText, options: IngestOptions) throws(IngestError) -> EpochRecording {
        let header = try parseHeaderBlock(text)
        let body = text.lines[header.bodyStart...].drop(while: \.isBlank)
        guard let titles = body.first else {
            throw IngestError(file: text.path, line: text.lines.count, message: "no epoch rows after the ActiLife header block")
        }
        // Column titles if the first field is not a number (a headerless export starts with counts).
        if case .value = EpochNumber.parse(titles[0]) {
            return try readHeaderless(text, body: body, header: header, options: options)
        }
        return try readTitled(text, lines: body, header: header, options: options)
    }

    func readHeaderless(_ text: DelimitedText, body: ArraySlice<DelimitedText.Line>, header: HeaderBlock,
                        options: IngestOptions) throws(IngestError) -> EpochRecording {
        let width = body.first!.fields.count
        guard width <= Self.headerlessColumns.count else {
            throw IngestError(file: text.path, line: body.first!.number,
                              message: "\(width) columns without titles: expected at most ActiLife's \(Self.headerlessColumns.count) (Axis1, Axis2, Axis3, Steps, Lux, Inclinometer Off, Standing, Sitting, Lying)")
        }
        let names = Array(Self.headerlessColumns.prefix(width))
        var table = EpochRowTable(path: text.path, numericColumns: names.map { .init(name: $0, sourceName: $0) })
        var epoch: Int64 = 0
        var values = [Double](repeating: .nan, count: width)
        for line in body where !line.isBlank {
            guard line.fields.count == width else {
                throw IngestError(file: text.path, line: line.number, message: "\(line.fields.count) fields: expected \(width) like the first row")
            }
            for c in 0..<width { values[c] = try Self.number(line[c], column: names[c], path: text.path, line: line.number) }
            table.append(localSecond: header.startLocalSecond + epoch * Int64(header.epochSeconds), position: line.number, values: values)
            epoch += 1
        }
        return try table.build(format: .actiLifeCSV, epochSeconds: header.epochSeconds, options: options, statedOffsetSeconds: nil,
                               metadata: header.metadata)
    }

    // MARK: Layouts 1–3 with column titles

    /// Where a titled export keeps the time of its rows.
    enum TimeLayout {
        case dateAndTime(Int, Int), timestamp(Int), fromHeader

        var columns: Set<Int> {
            switch self {
            case .dateAndTime(let d, let t): return [d, t]
            case .timestamp(let t): return [t]
            case .fromHeader: return []
            }
        }
    }

    func readTitled(_ text: DelimitedText, lines: ArraySlice<DelimitedText.Line>, header: HeaderBlock?,
                    options: IngestOptions) throws(IngestError) -> EpochRecording {
        let path = text.path
        guard let titleLine = lines.first(where: { !$0.isBlank }) else {
            throw IngestError(file: path, line: 1, message: "empty file: expected column titles")
        }
        let titles = titleLine.fields
        let canonical = titles.map(EpochColumnNaming.canonical)
        let rows = lines.drop(while: { $0.number <= titleLine.number }).filter { !$0.isBlank }
        let timeLayout = try Self.timeLayout(canonical, header: header, path: path, titleLine: titleLine.number)
        guard canonical.contains("axis1") || canonical.contains("activity") else {
            throw IngestError(file: path, line: titleLine.number, message: "no Axis1 column: expected ActiLife's Axis1 (and usually Axis2, Axis3 …)")
        }
        var order = header?.dateOrder ?? .monthFirst
        if header == nil, case .dateAndTime(let d, _) = timeLayout {
            order = LocalClockText.resolveOrder(dates: rows.map { $0[d] }, fallback: .monthFirst)
        }
        var clock = RowClock(layout: timeLayout, order: order, header: header, path: path)
        let table = try Self.readRows(rows, titles: titles, canonical: canonical, clock: &clock, path: path)
        var warnings: [String] = []
        if clock.offsetChanged { warnings.append("the timestamps state more than one UTC offset; the first row's is used for the whole recording (device clocks do not change at DST)") }
        var metadata = header?.metadata ?? [:]
        if header == nil, case .dateAndTime = timeLayout { metadata["dateformat"] = order.rawValue }
        return try table.build(format: .actiLifeCSV, epochSeconds: header?.epochSeconds, options: options,
                               statedOffsetSeconds: clock.statedOffset, metadata: metadata, warnings: warnings)
    }

    /// Date and Time columns, else a timestamp column, else the header's start and epoch period.
    static func timeLayout(_ canonical: [String], header: HeaderBlock?, path: String, titleLine: Int) throws(IngestError) -> TimeLayout {
        if let d = canonical.firstIndex(of: "date"), let t = canonical.firstIndex(of: "time") {
            return .dateAndTime(d, t)
        } else if let t = canonical.firstIndex(where: { timestampTitles.contains($0) }) {
            return .timestamp(t)
        } else if header != nil {
            return .fromHeader
        }
        throw IngestError(file: path, line: titleLine, message: "no time column: expected Date and Time, or timestamp")
    }

    /// Which columns are labels (S/W) and which are numbers: decided by the values.
    static func labelColumnFlags(titleCount: Int, timeColumns: Set<Int>, rows: [DelimitedText.Line]) -> [Bool] {
        var isLabel = [Bool](repeating: false, count: titleCount)
        for c in 0..<titleCount where !timeColumns.contains(c) {
            var sawLabel = false, allLabels = true
            for row in rows {
                let v = row[c]
                if v.isEmpty { continue }
                if label(v) != nil { sawLabel = true } else { allLabels = false; break }
            }
            isLabel[c] = sawLabel && allLabels
        }
        return isLabel
    }

    /// The rows' values and labels, each at its time on the local clock.
    static func readRows(_ rows: [DelimitedText.Line], titles: [String], canonical: [String], clock: inout RowClock,
                         path: String) throws(IngestError) -> EpochRowTable {
        let timeColumns = clock.layout.columns
        let isLabel = labelColumnFlags(titleCount: titles.count, timeColumns: timeColumns, rows: rows)
        let numericIndices = titles.indices.filter { !timeColumns.contains($0) && !isLabel[$0] && !titles[$0].isEmpty }
        let labelIndices = titles.indices.filter { isLabel[$0] }
        var table = EpochRowTable(path: path,
                                  numericColumns: numericIndices.map { .init(name: canonical[$0], sourceName: titles[$0]) },
                                  labelColumns: labelIndices.map { .init(name: canonical[$0], sourceName: titles[$0]) })
        var values = [Double](repeating: .nan, count: numericIndices.count)
        var labels = [SleepWake?](repeating: nil, count: labelIndices.count)
        var epoch: Int64 = 0
        for row in rows {
            // A trailing delimiter (an empty last field) is tolerated on either line.
            let width = row.fields.last == "" && row.fields.count == titles.count + 1 ? titles.count : row.fields.count
            guard width == titles.count || (titles.last == "" && width == titles.count - 1) else {
                throw IngestError(file: path, line: row.number, message: "\(row.fields.count) fields: expected \(titles.count) as in the titles")
            }
            let local = try clock.localSecond(of: row, epoch: epoch)
            for (k, c) in numericIndices.enumerated() {
                values[k] = try number(row[c], column: titles[c], path: path, line: row.number)
            }
            for (k, c) in labelIndices.enumerated() { labels[k] = label(row[c]) }
            table.append(localSecond: local, position: row.number, values: values, labels: labels)
            epoch += 1
        }
        return table
    }

    /// A row's time on the local clock, and the UTC offsets its timestamps state.
    struct RowClock {
        let layout: TimeLayout
        let order: LocalClockText.DateOrder
        let header: HeaderBlock?
        let path: String
        /// The first row's offset (`Z`, `+02:00`), if its timestamp states one.
        private(set) var statedOffset: Int32? = nil
        /// Whether a later row states another offset.
        private(set) var offsetChanged = false

        init(layout: TimeLayout, order: LocalClockText.DateOrder, header: HeaderBlock?, path: String) {
            self.layout = layout; self.order = order; self.header = header; self.path = path
        }

        /// `epoch`: the row's index among the rows (the epoch count of a file timed by its header).
        mutating func localSecond(of row: DelimitedText.Line, epoch: Int64) throws(IngestError) -> Int64 {
            switch layout {
            case .dateAndTime(let d, let t):
                guard let date = LocalClockText.date(row[d], order: order) else {
                    throw IngestError(file: path, line: row.number, message: "date '\(row[d])' is not valid: expected \(order.rawValue)")
                }
                guard let second = LocalClockText.secondOfDay(row[t]) else {
                    throw IngestError(file: path, line: row.number, message: "time '\(row[t])' is not valid: expected HH:MM[:SS] or h:mm AM/PM")
                }
                return LocalClockText.localSecond(date, secondOfDay: second)
            case .timestamp(let t):
                let bytes = Array(row[t].utf8)
                guard let ts = bytes.withUnsafeBufferPointer({ ISOTimestamp.parse($0.baseAddress!, 0, $0.count) }), !bytes.isEmpty else {
                    throw IngestError(file: path, line: row.number, message: "timestamp '\(row[t])' is not valid: expected ISO 8601 (2012-06-27T10:54:00)")
                }
                guard ts.fraction == 0 else {
                    throw IngestError(file: path, line: row.number, message: "timestamp '\(row[t])' has a fraction of a second: expected epoch starts in whole seconds")
                }
                if let o = ts.offsetSeconds {
                    if statedOffset == nil && epoch == 0 { statedOffset = o } else if statedOffset != o { offsetChanged = true }
                }
                return ts.localSeconds
            case .fromHeader:
                return header!.startLocalSecond + epoch * Int64(header!.epochSeconds)
            }
        }
    }

    static func number(_ text: String, column: String, path: String, line: Int) throws(IngestError) -> Double {
        switch EpochNumber.parse(text) {
        case .value(let v): return v
        case .missing: return .nan
        case .invalid:
            throw IngestError(file: path, line: line, message: "\(column) = '\(text.prefix(40))' is not a number")
        }
    }

    /// ActiLife's `S`/`W` (also `Sleep`/`Wake`, `Asleep`/`Awake`).
    static func label(_ text: String) -> SleepWake? {
        switch text.lowercased() {
        case "s", "sleep", "asleep": return .sleep
        case "w", "wake", "awake": return .wake
        default: return nil
        }
    }
}

extension String {
    /// The trimmed text after `prefix`, if the string starts with it.
    func value(after prefix: String) -> String? {
        guard hasPrefix(prefix) else { return nil }
        return String(dropFirst(prefix.count)).trimmingSpaces
    }
}
