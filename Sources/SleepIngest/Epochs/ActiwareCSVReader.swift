import SleepCore

/// Reads Philips Respironics Actiware 5 export files (`.csv`), in English, French, German, Italian or Dutch.
///
/// The export is a series of sections separated by dashed titles: subject properties, Actiwatch
/// data properties (`Epoch Length:`, `Time Zone Offset:` …), analysis inputs, statistics, a marker
/// list and the **epoch-by-epoch table** (`Line, Date, Time, Activity, Marker, White Light,
/// Sleep/Wake, Interval Status`; the French export adds `Secondes` and `Mobilité`). Every field is
/// quoted, lines end in CRLF, missing values are `NaN`/`NAN` (German `kZ`); decimal commas (and
/// `;` as the delimiter) are accepted. Column titles per language follow pyActigraphy 1.2.2
/// (`io/rpx/multilang.py`); Dutch after GGIRread's test export (`Actiwatch.csv`, Actiware 5).
///
/// The epoch table is found by its structure, not by words of one language: the last title row
/// followed by rows that hold a line number, a date and a time (the marker list before it has
/// the same shape, so the last one wins). The date and time columns are those whose first row
/// holds a date and a time; the dictionary below only names the value columns, and columns it
/// does not know are kept under their own titles when every value is a number.
///
/// Dates: day/month order from the data (a number above 12 or the day-to-day steps decide),
/// otherwise day first, except English exports, which are month first (US) when the dates cannot
/// tell. Time: the export's `Time Zone Offset` (the offset when the watch was set up; the watch
/// clock does not follow DST) unless `--tz` is given.
///
/// Kept columns: `activity` (counts), light columns (lux), `marker`, `mobility`, `off_wrist`, and
/// Actiware's own sleep/wake score as the label column `sleep_wake` (0 = sleep, 1 = wake).
public struct ActiwareCSVReader: EpochFileReader {
    public static let format = EpochFileFormat.actiwareCSV
    public init() {}

    /// Column titles of the languages Actiware exports (canonical spelling) → sleepsta's names.
    static let columnAliases: [String: String] = [
        "date": "date", "datum": "date", "data": "date",
        "time": "time", "heure": "time", "zeit": "time", "ora": "time", "tijd": "time",
        "activity": "activity", "activite": "activity", "aktivitat": "activity", "attivita": "activity", "activiteit": "activity",
        "white_light": "white_light", "lumiere_blanche": "white_light", "weises_licht": "white_light", "luce_bianca": "white_light", "wit_licht": "white_light",
        "red_light": "red_light", "lumiere_rouge": "red_light", "rotes_licht": "red_light", "luce_rossa": "red_light", "rood_licht": "red_light",
        "green_light": "green_light", "lumiere_verte": "green_light", "grunes_licht": "green_light", "luce_verde": "green_light", "groen_licht": "green_light",
        "blue_light": "blue_light", "lumiere_bleue": "blue_light", "lumiere_bleu": "blue_light", "blaues_licht": "blue_light", "luce_blu": "blue_light", "blauw_licht": "blue_light",
        "sleep_wake": "sleep_wake", "sommeil_eveil": "sleep_wake", "schlaf_wach": "sleep_wake", "sonno_veglia": "sleep_wake", "slapen_waken": "sleep_wake",
        "mobility": "mobility", "mobilite": "mobility", "mobiliteit": "mobility",
        "marker": "marker", "marqueur": "marker", "markierung": "marker", "indicatore": "marker", "markering": "marker",
        "off_wrist_status": "off_wrist", "status_nicht_am_handgelenk": "off_wrist", "stato_fuori_polso": "off_wrist", "status_niet_om_pols": "off_wrist",
    ]
    /// Header keys for the epoch length and the UTC offset, per language.
    static let epochLengthKeys: Set<String> = ["epoch_length", "longueur_de_la_periode", "epochenlange", "lunghezza_periodo", "periodelengte"]
    static let offsetKeys: Set<String> = ["time_zone_offset", "decalage_du_fuseau_horaire", "zeitzonenverschiebung",
                                          "zeitzonenversatz", "differenza_fuso_orario", "scostamento_fuso_orario", "tijdzone_offset"]
    /// Words of the device keys of the data-properties section (`Actiwatch Type:`, `Type d'Actiwatch :`,
    /// `Serienummer Actiwatch:`, `Actiwatch-firmwareversie:` …), per language.
    static let deviceTypeWords: Set<String> = ["type", "typ", "tipo"]
    static let deviceSerialWords: Set<String> = ["serial", "serie", "serienummer", "seriennummer", "seriale"]
    static let deviceFirmwareWords: Set<String> = ["firmware", "micrologiciel", "firmwareversie", "firmwareversion"]

    /// Titles of the interval-status column (canonical spelling), per language.
    static let intervalStatusTitles: Set<String> = ["interval_status", "statut_de_l_intervalle", "intervallstatus",
                                                    "stato_intervallo", "stato_dell_intervallo", "intervalstatus", "interval_status_"]

    /// 1 inside a rest interval (`REST`, `REST-S`; `REPOS`, `S-REPOS`; `RUHE…`, `RIPOSO…`, `RUST…`),
    /// 0 for active, NaN for excluded or unknown.
    static func restFlag(_ text: String) -> Double {
        let t = text.trimmingSpaces.uppercased()
        if t.isEmpty || t.hasPrefix("EXCL") || t.hasPrefix("AUSG") || t.hasPrefix("ESCL") || t.hasPrefix("UITG") { return .nan }
        for rest in ["REST", "S-REST", "REPOS", "S-REPOS", "RUHE", "S-RUHE", "RIPOSO", "S-RIPOSO", "RUST", "S-RUST"] where t.hasPrefix(rest) {
            return 1
        }
        return 0
    }

    /// Whether a row opens the epoch table: the next non-blank row holds a line number, a date and a time.
    static func tableStart(_ lines: [DelimitedText.Line], titleIndex i: Int) -> (date: Int, time: Int)? {
        // A title row: not itself a row of values.
        guard i + 1 < lines.count, !lines[i].isBlank, Int(lines[i][0]) == nil, !lines[i][0].hasPrefix("---") else { return nil }
        var j = i + 1
        while j < lines.count && lines[j].isBlank { j += 1 }
        guard j < lines.count, let n = Int(lines[j][0]), n >= 0 else { return nil }
        let row = lines[j]
        guard let date = row.fields.indices.first(where: { $0 > 0 && LocalClockText.dateParts(row[$0]) != nil }),
              let time = row.fields.indices.first(where: { $0 > 0 && $0 != date && LocalClockText.secondOfDay(row[$0]) != nil && row[$0].contains(":") })
        else { return nil }
        return (date, time)
    }

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        let text = String(decoding: head.prefix(512), as: UTF8.self)
        guard let first = text.split(whereSeparator: \.isNewline).first else { return false }
        // The banner is a line of its own ("Actiware Export File (Version 05.00)", "Fichier
        // d'exportation Actiware …"); other files merely name Actiware in a column title.
        let fields = DelimitedText.split(Array(first.utf8), 0, first.utf8.count, delimiter: 0x2C).filter { !$0.isEmpty }
        return fields.count == 1 && fields[0].lowercased().contains("actiware")
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> EpochRecording {
        let text = try DelimitedText(path: path)
        let lines = text.lines
        guard let banner = lines.first(where: { !$0.isBlank }), banner[0].lowercased().contains("actiware") else {
            throw IngestError(file: path, line: 1, message: "no Actiware banner: expected an Actiware export file")
        }
        let english = banner[0].lowercased().contains("export file")
        let table = try Self.epochTable(lines, path: path)
        try Self.requireActivity(table, sourceTitles: lines[table.titleIndex].fields, path: path)
        var properties = try Self.headerProperties(lines[..<table.titleIndex], path: path)
        let rows = lines[(table.titleIndex + 1)...].filter { !$0.isBlank }
        let order = LocalClockText.resolveOrder(dates: rows.map { $0[table.dateColumn] }, fallback: english ? .monthFirst : .dayFirst)
        let rowTable = try Self.readRows(rows, of: table, sourceTitles: lines[table.titleIndex].fields, order: order, path: path)
        properties.metadata["dateformat"] = order.rawValue
        if let device = properties.device.name { properties.metadata["device"] = device }
        var recording = try rowTable.build(format: .actiwareCSV, epochSeconds: properties.epochSeconds, options: options,
                                           statedOffsetSeconds: properties.offset, metadata: properties.metadata)
        let analysis = Self.fileAnalysis(lines[..<table.titleIndex], order: order, recording: recording)
        recording.actiware = analysis?.analysis
        recording.warnings += analysis?.warnings ?? []
        return recording
    }

    /// Every night of an Actiware export is scored from its activity counts: a table without a
    /// column this reader knows as activity (an export in a language it does not know) leaves
    /// nothing to analyse, so the file fails, naming the titles it did not understand.
    static func requireActivity(_ layout: TableLayout, sourceTitles: [String], path: String) throws(IngestError) {
        guard !layout.titles.contains("activity") else { return }
        let unknown = layout.titles.indices.filter { c in
            c != layout.dateColumn && c != layout.timeColumn && c < sourceTitles.count && !sourceTitles[c].trimmingSpaces.isEmpty
                && !skippedTitles.contains(layout.titles[c]) && !columnAliases.values.contains(layout.titles[c])
        }.map { "'\(sourceTitles[$0].trimmingSpaces)'" }
        throw IngestError(file: path, line: layout.titleIndex + 1,
                          message: "the epoch table has no activity column in a language this reader knows (English, French, German, Italian, Dutch)"
                            + (unknown.isEmpty ? "" : "; titles not understood: \(unknown.prefix(12).joined(separator: ", "))")
                            + ": nothing can be analysed; expected a column such as 'Activity', 'Activité', 'Aktivität', 'Attività' or 'Activiteit'")
    }

    // MARK: The epoch table

    /// Where the epoch table starts and which of its columns hold the date and the time.
    struct TableLayout {
        var titleIndex: Int
        /// sleepsta's names of the columns (the date and time columns named `date` and `time`).
        var titles: [String]
        var dateColumn: Int
        var timeColumn: Int
    }

    /// The epoch table's title row, by structure (see the type's comment).
    static func epochTable(_ lines: [DelimitedText.Line], path: String) throws(IngestError) -> TableLayout {
        var found: TableLayout? = nil
        for i in lines.indices.reversed() {
            guard let (d, t) = tableStart(lines, titleIndex: i) else { continue }
            let titles = lines[i].fields.map { columnAliases[EpochColumnNaming.canonical($0)] ?? EpochColumnNaming.canonical($0) }
            found = TableLayout(titleIndex: i, titles: titles, dateColumn: d, timeColumn: t)
            break
        }
        guard var table = found else {
            throw IngestError(file: path, line: lines.count, message: "no epoch-by-epoch table: expected a row of column titles followed by rows of a line number, a date and a time")
        }
        guard table.dateColumn < table.titles.count, table.timeColumn < table.titles.count else {
            throw IngestError(file: path, line: table.titleIndex + 1, message: "the epoch table's date and time columns have no titles")
        }
        // Date and time are the structure's columns; "date"/"time" titles elsewhere are not data.
        table.titles[table.dateColumn] = "date"; table.titles[table.timeColumn] = "time"
        return table
    }

    /// Titles of columns that are neither data nor labels: the line number, the clock, and the
    /// French export's seconds.
    static let skippedTitles: Set<String> = ["line", "ligne", "zeile", "linea", "lijn", "date", "time",
                                             "seconds", "secondes", "sekunden", "secondi", "seconden"]

    /// Numeric columns: known ones always; other columns only if every value is a number or
    /// missing (text columns such as the interval status are not data).
    static func numericColumns(_ titles: [String], labelIndex: Int?, rows: [DelimitedText.Line]) -> [Int] {
        var numeric: [Int] = []
        for (c, title) in titles.enumerated() where c > 0 && !skippedTitles.contains(title) && c != labelIndex && !title.isEmpty {
            let known = columnAliases.values.contains(title)
            if known || rows.allSatisfy({ if case .invalid = EpochNumber.parse($0[c]) { return false } else { return true } }) {
                numeric.append(c)
            }
        }
        return numeric
    }

    /// The table's rows on the local clock: the numeric columns, the rest-interval flag and
    /// Actiware's sleep/wake label.
    static func readRows(_ rows: [DelimitedText.Line], of layout: TableLayout, sourceTitles: [String],
                         order: LocalClockText.DateOrder, path: String) throws(IngestError) -> EpochRowTable {
        let titles = layout.titles
        let labelIndex = titles.firstIndex(of: "sleep_wake")
        let numeric = numericColumns(titles, labelIndex: labelIndex, rows: rows)
        // Actiware's interval status (ACTIVE / REST / REST-S / EXCLUDED, French ACTIVITÉ / REPOS /
        // S-REPOS …) is kept as the flag column `rest_interval`: 1 inside a rest interval (REST or
        // REST-S), 0 outside, missing where excluded. The batch takes the night's rest interval from it.
        let statusIndex = titles.firstIndex { intervalStatusTitles.contains($0) }
        var specs = numeric.map { EpochRowTable.ColumnSpec(name: titles[$0], sourceName: sourceTitles[$0]) }
        if let statusIndex { specs.append(.init(name: "rest_interval", sourceName: sourceTitles[statusIndex])) }
        var table = EpochRowTable(path: path, numericColumns: specs,
                                  labelColumns: labelIndex.map { [.init(name: "sleep_wake", sourceName: sourceTitles[$0])] } ?? [])
        var values = [Double](repeating: .nan, count: specs.count)
        for row in rows {
            guard let date = LocalClockText.date(row[layout.dateColumn], order: order) else {
                throw IngestError(file: path, line: row.number, message: "date '\(row[layout.dateColumn])' is not valid: expected \(order.rawValue)")
            }
            guard let second = LocalClockText.secondOfDay(row[layout.timeColumn]) else {
                throw IngestError(file: path, line: row.number, message: "time '\(row[layout.timeColumn])' is not valid: expected HH:MM:SS")
            }
            for (k, c) in numeric.enumerated() {
                switch EpochNumber.parse(row[c]) {
                case .value(let v): values[k] = v
                case .missing: values[k] = .nan
                case .invalid:
                    throw IngestError(file: path, line: row.number, message: "\(sourceTitles[c]) = '\(row[c].prefix(40))' is not a number")
                }
            }
            if let statusIndex { values[numeric.count] = restFlag(row[statusIndex]) }
            var labels: [SleepWake?] = []
            if let labelIndex { labels = [try sleepWakeLabel(row, column: labelIndex, sourceTitles: sourceTitles, path: path)] }
            table.append(localSecond: LocalClockText.localSecond(date, secondOfDay: second), position: row.number,
                         values: values, labels: labels)
        }
        return table
    }

    /// Actiware's own score of a row: 0 = sleep, 1 = wake, NaN = none.
    static func sleepWakeLabel(_ row: DelimitedText.Line, column: Int, sourceTitles: [String], path: String) throws(IngestError) -> SleepWake? {
        switch EpochNumber.parse(row[column]) {
        case .value(0): return .sleep
        case .value(1): return .wake
        case .missing: return nil
        default:
            throw IngestError(file: path, line: row.number, message: "\(sourceTitles[column]) = '\(row[column])': expected 0 (sleep), 1 (wake) or NaN")
        }
    }

    // MARK: Header properties

    /// The watch named by the data-properties section.
    struct DeviceProperties {
        var type: String?
        var serial: String?
        var firmware: String?

        /// `Actiwatch Spectrum #A123, firmware 1.2`, or nil when neither type nor serial is stated.
        var name: String? {
            guard type != nil || serial != nil else { return nil }
            var name = type.map { $0.lowercased().hasPrefix("actiwatch") ? $0 : "Actiwatch \($0)" } ?? "Actiwatch"
            if let serial { name += " #\(serial)" }
            if let firmware { name += ", firmware \(firmware)" }
            return name
        }
    }

    /// What the sections before the epoch table state.
    struct HeaderProperties {
        var metadata: [String: String] = [:]
        var epochSeconds: Int? = nil
        var offset: Int32? = nil
        var device = DeviceProperties()
    }

    /// Header key/value pairs of the data-properties and analysis-inputs sections (the first
    /// section, subject properties, is personal and not kept).
    static func headerProperties(_ lines: ArraySlice<DelimitedText.Line>, path: String) throws(IngestError) -> HeaderProperties {
        var properties = HeaderProperties()
        var section = 0
        for line in lines {
            let first = line[0]
            if first.hasPrefix("---") { section += 1; continue }
            guard first.hasSuffix(":"), line.fields.count >= 2 else { continue }
            let keyText = String(first.dropLast()).trimmingSpaces
            let key = EpochColumnNaming.canonical(keyText)
            let value = line[1]
            if section == 2 && !value.isEmpty { noteDevice(key: key, value: value, in: &properties.device) }
            if epochLengthKeys.contains(key) {
                guard let seconds = Int(value), seconds > 0 else {
                    throw IngestError(file: path, line: line.number, message: "epoch length '\(value)': expected a positive whole number of seconds")
                }
                properties.epochSeconds = seconds
            }
            if offsetKeys.contains(key) || (properties.offset == nil && line[2].contains(":") && LocalClockText.offsetSeconds(value) != nil) {
                guard let o = LocalClockText.offsetSeconds(value) else {
                    throw IngestError(file: path, line: line.number, message: "time zone offset '\(value)': expected ±HH:MM")
                }
                properties.offset = o
            }
            if section >= 2 && section <= 3 { properties.metadata[keyText] = value }
        }
        return properties
    }

    /// Takes a data-properties key about the watch (its type, serial number or firmware) into `device`.
    static func noteDevice(key: String, value: String, in device: inout DeviceProperties) {
        let words = Set(key.split(separator: "_").map(String.init))
        guard words.contains("actiwatch") || key.hasPrefix("actiwatch") else { return }
        if device.type == nil && !words.isDisjoint(with: deviceTypeWords) { device.type = value }
        else if device.serial == nil && (!words.isDisjoint(with: deviceSerialWords) || key.contains("serie")) { device.serial = value }
        else if device.firmware == nil && (!words.isDisjoint(with: deviceFirmwareWords) || key.contains("firmware")) { device.firmware = value }
    }

    // MARK: Analysis inputs and statistics

    /// Interval types of the statistics section, per language.
    static let restWords: Set<String> = ["rest", "repos", "rust", "ruhe", "riposo"]
    static let sleepWords: Set<String> = ["sleep", "sommeil", "slaap", "schlaf", "sonno"]
    /// Statistics column titles (canonical) → the statistic, per language.
    static let statisticTitles: [String: String] = [
        "sleep_time": "sleep", "temps_de_sommeil": "sleep", "slaaptijd": "sleep", "schlafzeit": "sleep", "schlafdauer": "sleep",
        "tempo_di_sonno": "sleep",
        "wake_time": "wake", "temps_d_eveil": "wake", "temps_de_veille": "wake", "waaktijd": "wake", "wachzeit": "wake", "wachdauer": "wake",
        "tempo_di_veglia": "wake",
        "efficiency": "efficiency", "efficacite": "efficiency", "efficientie": "efficiency", "effizienz": "efficiency",
        "schlafeffizienz": "efficiency", "efficienza": "efficiency",
        "wake_bouts": "bouts", "waakvoorvallen": "bouts", "wachphasen": "bouts", "anzahl_wachphasen": "bouts", "episodes_d_eveil": "bouts",
        "ong_tijd_sw": "invalid",
    ]

    /// The analysis inputs (sleep onset / end setting, wake threshold value) and the REST and SLEEP
    /// rows of the statistics section, on the recording's epoch grid. The settings are read by
    /// their names (``AnalysisInput``), with a decimal comma where the export uses one (German and
    /// other `;`-separated exports write "10,00"); a row whose name is in no known language is read
    /// by shape (the first number is the wake threshold, then the onset and the end setting, the
    /// order of the Actiware 5 manual's "Analysis Inputs"). Reading the settings by position with
    /// whole numbers only dropped a German export's "10,00" for the defaults. Statistics rows are those whose
    /// first field names a rest or sleep interval and whose next fields are a number, dates and times.
    ///
    /// The statistics are the export's numbers, shown beside sleepsta's: a value outside its range
    /// (minutes below 0 or beyond the interval's length, an efficiency above 100 %, anything not
    /// finite) is refused with a warning naming the interval, and an interval number stated more
    /// than once is reported and none of its rows kept (which one Actiware meant cannot be told).
    static func fileAnalysis(_ lines: ArraySlice<DelimitedText.Line>, order: LocalClockText.DateOrder,
                             recording: EpochRecording) -> (analysis: ActiwareFileAnalysis, warnings: [String])? {
        var inputs = AnalysisInputs()
        var warnings: [String] = []
        var section = 0
        var titles: [String] = []
        var intervals: [ActiwareStatedInterval] = []
        for line in lines {
            let first = line[0].trimmingSpaces
            if first.hasPrefix("---") { section += 1; continue }
            guard !line.isBlank else { continue }
            if section == 3 { inputs.read(name: first, value: line[1], unit: line[2]) }
            guard section >= 4 else { continue }
            let word = first.lowercased()
            let kind: ActiwareStatedInterval.Kind? = restWords.contains(word) ? .rest : sleepWords.contains(word) ? .sleep : nil
            guard let kind, let number = Int(line[1]) else {
                // The section's column titles: its first row of many fields, before any interval row.
                if kind == nil && titles.isEmpty && !first.isEmpty && line.fields.count > 6 && intervals.isEmpty {
                    titles = line.fields.map { EpochColumnNaming.canonical($0) }
                }
                continue
            }
            // Start date and time, end date and time: the first four date / time fields in order.
            var dates: [CivilDate] = [], times: [Int] = [], lastUsed = 1
            for c in 2..<line.fields.count where dates.count + times.count < 4 {
                if dates.count == times.count, let d = LocalClockText.date(line[c], order: order) { dates.append(d); lastUsed = c }
                else if dates.count == times.count + 1, line[c].contains(":"), let t = LocalClockText.secondOfDay(line[c]) { times.append(t); lastUsed = c }
            }
            guard dates.count == 2, times.count == 2 else { continue }
            func utc(_ d: CivilDate, _ t: Int) -> Int64 {
                recording.firstEpochStartUTC + (LocalClockText.localSecond(d, secondOfDay: t) - recording.firstEpochLocalSecond)
            }
            var values: [String: Double] = [:]
            for c in (lastUsed + 1)..<max(lastUsed + 1, line.fields.count) where c < titles.count {
                if let key = statisticTitles[titles[c]], case .value(let v) = EpochNumber.parse(line[c]) { values[key] = v }
            }
            let start = utc(dates[0], times[0]), end = utc(dates[1], times[1])
            let name = "\(kind.rawValue.uppercased()) interval \(number) (line \(line.number))"
            guard end > start else {
                warnings.append("\(name) ends \(end == start ? "when it starts" : "before it starts"): not compared")
                continue
            }
            let (statistics, problem) = Self.statistics(values, minutes: Double(end - start) / 60, epochSeconds: recording.epochSeconds)
            if let problem { warnings.append("\(name): \(problem)") }
            intervals.append(ActiwareStatedInterval(kind: kind, number: number, startUTC: start, endUTC: end, statistics: statistics, line: line.number))
        }
        guard inputs.stated || !intervals.isEmpty else { return nil }
        let (unique, repeated) = Self.withoutRepeatedNumbers(intervals)
        return (ActiwareFileAnalysis(settings: inputs.settings, intervals: unique), warnings + repeated)
    }

    /// A statistics row's numbers, each in its range for an interval of `minutes`: sleep, wake and
    /// invalid time from 0 to the interval's length, efficiency from 0 to 100 %, wake bouts from 0
    /// to the interval's epochs. Sleep or wake time out of range drops the row's statistics; another
    /// value out of range drops that value. Returns what was refused, for the warning.
    static func statistics(_ values: [String: Double], minutes: Double, epochSeconds: Int)
        -> (ActiwareIntervalStatistics?, problem: String?) {
        var refused: [String] = []
        func shown(_ v: Double) -> String { v.isFinite && abs(v) < 1e9 ? String(format1: v) : "\(v)" }
        func minutesValue(_ key: String, _ label: String) -> Double? {
            guard let v = values[key] else { return nil }
            // An epoch of slack: Actiware rounds the interval's edges to its epochs.
            guard v.isFinite, v >= 0, v <= minutes + Double(epochSeconds) / 60 else {
                refused.append("\(label) \(shown(v)) min"); return nil
            }
            return v
        }
        let sleep = minutesValue("sleep", "sleep time"), wake = minutesValue("wake", "wake time")
        let invalid = minutesValue("invalid", "invalid time")
        var efficiency = values["efficiency"]
        if let e = efficiency, !(e.isFinite && e >= 0 && e <= 100) { refused.append("efficiency \(shown(e)) %"); efficiency = nil }
        var bouts: Int? = nil
        if let b = values["bouts"] {
            let most = minutes * 60 / Double(max(1, epochSeconds)) + 1
            if b.isFinite, b >= 0, b <= most, let whole = Int(exactly: b.rounded()) { bouts = whole } else { refused.append("wake bouts \(shown(b))") }
        }
        let problem = refused.isEmpty ? nil
            : "the export's \(refused.joined(separator: ", ")) cannot be true of an interval of \(shown(minutes)) min (expected minutes from 0 to its length, an efficiency from 0 to 100 %)"
            + (values["sleep"] != nil && values["wake"] != nil && (sleep == nil || wake == nil) ? "; its statistics are not shown" : "; that value is not shown")
        guard let sleep, let wake else { return (nil, problem) }
        return (ActiwareIntervalStatistics(durationMinutes: minutes, sleepMinutes: sleep, wakeMinutes: wake, invalidMinutes: invalid ?? 0,
                                           efficiencyPercent: efficiency, wakeBouts: bouts), problem)
    }

    /// The intervals whose kind and number the statistics state once; a warning for each stated more often.
    static func withoutRepeatedNumbers(_ intervals: [ActiwareStatedInterval]) -> ([ActiwareStatedInterval], [String]) {
        var lines: [String: [Int]] = [:]
        func key(_ i: ActiwareStatedInterval) -> String { "\(i.kind.rawValue.uppercased()) interval \(i.number)" }
        for i in intervals { lines[key(i), default: []].append(i.line) }
        let repeated = Set(lines.filter { $0.value.count > 1 }.keys)
        let warnings = repeated.sorted { lines[$0]![0] < lines[$1]![0] }.map { k in
            "\(k) is stated \(lines[k]!.count) times (lines \(lines[k]!.map(String.init).joined(separator: ", "))): Actiware lists each interval once, and which row is right cannot be told, so none is compared"
        }
        return (intervals.filter { !repeated.contains(key($0)) }, warnings)
    }

    /// One row of the "Analysis Inputs" section, by its name.
    package enum AnalysisInput: Equatable {
        case wakeThreshold, sleepOnset, sleepEnd, detectionAlgorithm

        /// The input a row's name names, or nil (matched on its canonical form, lowercase ASCII
        /// words joined by `_`, with Spanish "ñ" read as "n").
        /// Words as Actiware 5 writes them: English "Wake Threshold Value", "Sleep Interval
        /// Detection Algorithm", "Sleep Onset Setting", "Sleep End Setting" (the manual's "Analysis
        /// Inputs"; pyActigraphy's English test export); French "Valeur du seuil d'éveil",
        /// "Algorithme de détection de l'intervalle de sommeil", "Paramètre de début / de fin de
        /// sommeil" (pyActigraphy's French test export). German, Spanish and Dutch exports were
        /// not available: their words for onset / end / threshold (`beginn`, `einschlaf`, `ende`,
        /// `schwelle`, `inicio`, `fin`, `umbral`, `begin`, `eind`, `drempel`) are matched as
        /// stems, and an unknown language falls back to the rows' order.
        package static func named(_ rowName: String) -> AnalysisInput? {
            let canonical = EpochColumnNaming.canonical(String(rowName.map { $0 == "ñ" || $0 == "Ñ" ? "n" : $0 }))
            let words = canonical.split(separator: "_").map(String.init)
            // Stems inside words: German compounds ("Schlafbeginn", "Weckschwelle") hold them mid-word.
            func has(_ stems: [String]) -> Bool { stems.contains { stem in words.contains { $0.contains(stem) } } }
            if has(["algorithm", "algoritm"]) { return .detectionAlgorithm }
            if has(["threshold", "seuil", "schwelle", "umbral", "drempel", "soglia"]) {
                // The wake threshold's value, not its selection ("Medium") nor a light threshold.
                let wake = has(["wake", "eveil", "wach", "weck", "vigilia", "despert", "waak"])
                return wake && !has(["selection", "auswahl", "seleccion", "selectie", "selezione"]) ? .wakeThreshold : nil
            }
            guard has(["sleep", "sommeil", "schlaf", "sueno", "slaap", "sonno"]) else { return nil }
            if has(["onset", "debut", "beginn", "einschlaf", "inicio", "begin", "inizio", "aanvang"]) { return .sleepOnset }
            if has(["end", "fin", "aufwach", "eind"]) { return .sleepEnd }
            return nil
        }
    }

    /// The analysis inputs as they are read, row by row.
    package struct AnalysisInputs {
        package var settings = ActiwareSettings()
        var stated = false
        private var sawThreshold = false, minuteRows = 0, namedOnset = false, namedEnd = false

        /// Reads one row of the section. Values out of range (a damaged or hostile file) keep
        /// Actiware's defaults; a whole number of minutes may be written with decimals ("10,00").
        package mutating func read(name: String, value: String, unit: String) {
            let input = AnalysisInput.named(name)
            var number: Double? = nil
            if case .value(let v) = EpochNumber.parse(value) { number = v }
            let minutes = number.flatMap { $0 == $0.rounded() && $0 > 0 && $0 <= 24 * 60 ? Int($0) : nil }
            let isMinutes = unit.lowercased().hasPrefix("min")
            switch input {
            case .wakeThreshold?:
                if let v = number, v > 0, v <= 100_000 { settings.wakeThreshold = v; stated = true }
                sawThreshold = true
            case .sleepOnset?:
                if let m = minutes { settings.sleepOnsetMinutes = m; namedOnset = true; stated = true }
            case .sleepEnd?:
                if let m = minutes { settings.sleepEndMinutes = m; namedEnd = true; stated = true }
            case .detectionAlgorithm?:
                if !value.isEmpty, number == nil { settings.detectionAlgorithm = value }
            case nil:
                readByShape(value: value, number: number, minutes: minutes, isMinutes: isMinutes)
            }
        }

        /// A row of a language whose words are unknown: the first number is the wake threshold,
        /// the first two rows in minutes are the onset and end settings.
        private mutating func readByShape(value: String, number: Double?, minutes: Int?, isMinutes: Bool) {
            if !sawThreshold, let v = number {
                if v > 0 && v <= 100_000 { settings.wakeThreshold = v; stated = true }
                sawThreshold = true
            } else if isMinutes, let m = minutes {
                if minuteRows == 0, !namedOnset { settings.sleepOnsetMinutes = m; stated = true }
                else if minuteRows == 1, !namedEnd { settings.sleepEndMinutes = m; stated = true }
                minuteRows += 1
            } else if settings.detectionAlgorithm == nil, minuteRows == 0, sawThreshold, !value.isEmpty, number == nil {
                settings.detectionAlgorithm = value
            }
        }

        package init() {}
    }
}
