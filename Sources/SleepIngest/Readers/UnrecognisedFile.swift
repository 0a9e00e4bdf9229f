import SleepCore

/// The error for a file no reader takes and that is no known side file (``NonRecordingFile``):
/// the line where detection gave up (the header, or the first row), what is visibly wrong with it
/// when something is (`;` or tabs between fields, decimal commas, a header without a time column,
/// binary content, fields separated by spaces), and every format sleepsta reads.
enum UnrecognisedFile {
    static func error(path: String, fileName: String, head: [UInt8], cut: Bool) -> IngestError {
        let list = "sleepsta reads \(FormatDetector.formatList)"
        let text = TextHead(head, cut: cut)
        guard text.isText else {
            return IngestError(file: path, byteOffset: 0, message: "unrecognised format: not text (\(binaryKind(head))) and no binary format sleepsta reads; \(list)")
        }
        guard let first = text.first else {
            return IngestError(file: path, line: 1, message: "unrecognised format: the file holds only blank lines; \(list)")
        }
        let hint = self.hint(first, next: text.lines.dropFirst().first, fileName: fileName)
        return IngestError(file: path, line: first.number, message: "unrecognised format: \(hint); \(list)")
    }

    /// What the first line shows, and what to change when that is clear.
    static func hint(_ line: TextHead.Line, next: TextHead.Line?, fileName: String) -> String {
        let d = TextHead.delimiter(of: line.text)
        let fields = TextHead.fields(of: line.text, delimiter: d)
        if fields.count == 4 && !fileName.lowercased().hasSuffix(".csv") {
            return "line \(line.number) has the 4 fields of a timestamp,x,y,z file, whose name must end in .csv (or .csv.gz): rename it"
        }
        let isHeader = fields.contains { $0.first?.isLetter == true }
        let named = fields.filter { !$0.isEmpty }   // a banner line's trailing commas name nothing
        let shown = named.prefix(6).map { "'\($0.prefix(24))'" }.joined(separator: ", ") + (named.count > 6 ? ", …" : "")
        if d != 0x2C {
            var said = "line \(line.number) separates its \(fields.count) fields with \(TextHead.name(ofDelimiter: d))"
            if let next, let decimal = decimalComma(in: TextHead.fields(of: next.text, delimiter: d)) {
                said += " and line \(next.number) writes decimals with a comma ('\(decimal)')"
            }
            return said + ": sleepsta reads \(d == 0x09 ? "tab" : "';'")-separated text only as a raw-sample file of 4 columns "
                + "(timestamp;x;y;z, the header naming x, y and z); save any other table with ',' between fields and '.' as the decimal mark"
        }
        if fields.count == 1 {
            let words = line.text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if words.count >= 3 && words.dropFirst().allSatisfy({ Double($0) != nil }) {
                return "line \(line.number) separates its fields with spaces: save it with ',' between fields (timestamp,x,y,z)"
            }
            return "line \(line.number) is one column ('\(line.text.prefix(40))'), not a table of time and movement"
        }
        if isHeader {
            let names = fields.map(EpochColumnNaming.canonical)
            if !names.contains(where: isTimeColumn) {
                return "the header (line \(line.number): \(shown)) names no time column (timestamp, time, date or datetime): a recording needs the time of every row"
            }
            return "the header (line \(line.number): \(shown)) is none that sleepsta knows"
        }
        return "line \(line.number) has \(fields.count) comma-separated fields (\(shown)); a raw CSV without a header has 4 "
            + "(timestamp,x,y,z) or a formatted local time, x, y, z and further values"
    }

    /// The first field that is a number written with a decimal comma (`-0,981`), or nil.
    static func decimalComma(in fields: [String]) -> String? {
        fields.first { f in
            let parts = f.split(separator: ",", omittingEmptySubsequences: false)
            return parts.count == 2 && !parts[1].isEmpty && parts[1].allSatisfy(\.isNumber)
                && parts[0].drop(while: { $0 == "-" || $0 == "+" }).allSatisfy(\.isNumber) && !parts[0].isEmpty
        }
    }

    static func isTimeColumn(_ name: String) -> Bool {
        ["t", "ts", "time", "date", "datetime", "timestamp", "zeit", "datum", "heure"].contains(name)
            || name.contains("time") || name.contains("date") || name.hasPrefix("epoch")
    }

    /// What binary content a head shows, for the message.
    static func binaryKind(_ head: [UInt8]) -> String {
        if ZipArchive.isZip(head: head) { return "a zip archive: an .xlsx, .docx or .gt3x under another name?" }
        if head.starts(with: Array("%PDF".utf8)) { return "a PDF document" }
        if head.starts(with: Array("SQLite format 3".utf8)) { return "an SQLite database: an ActiLife .agd under another name?" }
        if head.starts(with: [0xD0, 0xCF, 0x11, 0xE0]) { return "an old Office document (.xls, .doc)" }
        return "NUL bytes or invalid UTF-8 in its first \(head.count) bytes"
    }
}

extension FormatDetector {
    /// Every format sleepsta reads, raw and epoch, named for people: the list an unrecognised
    /// file's error gives. Built from ``readers`` and ``epochReaders``, so a reader added there is
    /// listed too.
    public static var formatList: String {
        let raw = [RecordingFormat.rawCSV] + readers.map { $0.format }.filter { $0 != .rawCSV }
        return "raw samples (" + raw.map(name(of:)).joined(separator: ", ") + "), epoch files (" + epochFormatList
            + "), also gzip-compressed (docs/formats.md)"
    }

    /// The epoch-file formats, named for people.
    static var epochFormatList: String {
        epochReaders.compactMap { name(of: $0.format) }.joined(separator: ", ")
    }

    package static func name(of format: RecordingFormat) -> String {
        switch format {
        case .rawCSV: return "timestamp,x,y,z CSV, also ';'- or tab-separated with decimal commas"
        case .appJSON: return "the Sleepsta app's JSON export"
        case .sensorLogCSV: return "SensorLog CSV"
        case .sensorLoggerCSV: return "Sensor Logger Accelerometer.csv"
        case .sleepAsAndroidCSV: return "Sleep as Android export"
        case .wideRawCSV: return "raw CSV of local time, x, y, z and further columns"
        case .actiGraphGT3X: return "ActiGraph .gt3x"
        case .actiLifeRawCSV: return "ActiLife raw CSV"
        case .axivityCWA: return "Axivity .cwa"
        case .geneActivBin: return "GENEActiv .bin"
        }
    }

    package static func name(of format: EpochFileFormat) -> String? {
        switch format {
        case .actiGraphAGD: return "ActiGraph .agd"
        case .actiLifeCSV: return "ActiLife epoch CSV"
        case .actiwareCSV: return "Actiware export"
        case .qutEpochCSV: return "QUT epoch CSV"
        case .mmashActigraphCSV: return "MMASH Actigraph.csv"
        case .actiwatchAWD: return "Actiwatch .AWD"
        case .motionWatchMTN: return "MotionWatch .mtn"
        case .ukBiobankEpochCSV: return "UK Biobank epoch CSV"
        case .bbaTimeSeries: return "biobankAccelerometerAnalysis time series"
        case .actTrust: return "Condor ActTrust export"
        case .derivedFromRawSamples: return nil   // made by sleepsta, not a file it reads
        }
    }
}
