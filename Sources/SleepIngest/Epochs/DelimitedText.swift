/// A delimited text file (CSV and relatives) split into lines of fields, with 1-based line numbers.
///
/// Epoch files are small (a week of 15-s epochs is about 40 000 lines) and several of them are
/// section-structured (Actiware) or start with a free-text header block (ActiLife), so they are read
/// whole and split by hand here rather than streamed through a CSV library: the readers need to
/// look at lines before the table and to name the line of every error.
///
/// Handles a UTF-8 byte-order mark, `\n`, `\r\n` and `\r\r\n` line ends, fields in double quotes
/// (with `""` for a quote inside; a quoted field may hold the delimiter), and blank lines.
package struct DelimitedText {
    package struct Line {
        /// 1-based line number in the file.
        package let number: Int
        package let fields: [String]
        package var isBlank: Bool { fields.allSatisfy { $0.isEmpty } }
        /// The field at `index`, or "" when the line is shorter.
        subscript(_ index: Int) -> String { index < fields.count ? fields[index] : "" }
    }

    let path: String
    package let lines: [Line]
    package let delimiter: UInt8

    /// Files larger than this are refused: a text epoch export is read whole and split into
    /// fields (at most 13 × its size + 16 MiB with its bytes, ``ReadWholeBudget``), so 64 MB keeps a
    /// read under 1 GB. That is three months of 15-s Actiware epochs with every column (a month is
    /// under 20 MB) or two weeks of 1-s ActiLife epochs; `run` reads one epoch file at a time.
    package static let sizeLimit = 64 << 20

    /// Lines of at most this many fields, all of them empty, share one array of fields.
    static let sharedBlankFields = 64

    /// The longest row a format allows, and what its rows are (for the error).
    package struct RowLimit {
        var bytes: Int
        /// `a participants row (id,group,path)`.
        var row: String
    }

    /// Reads and splits `path`. `delimiter` nil: `,`, or `;` when the first non-blank line has
    /// more semicolons than commas (European spreadsheet exports).
    package init(path: String, delimiter: UInt8? = nil, rowLimit: RowLimit? = nil) throws(IngestError) {
        let bytes = try FileBytes.readAll(path: path, limit: Self.sizeLimit)
        try self.init(path: path, bytes: bytes, delimiter: delimiter, rowLimit: rowLimit)
    }

    /// Splits `bytes` after counting its lines and fields: what they cost is held to
    /// ``ReadWholeBudget`` (and each line to `rowLimit`) before any line is allocated.
    package init(path: String, bytes: [UInt8], delimiter: UInt8? = nil, rowLimit: RowLimit? = nil) throws(IngestError) {
        self.path = path
        var start = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        if let bad = Self.firstNonUTF8Offset(bytes, from: start) {
            throw IngestError(file: path, byteOffset: bad, message: "not UTF-8 text: expected a text (CSV) file")
        }
        let d = delimiter ?? Self.guessDelimiter(bytes, from: start)
        self.delimiter = d
        let measure = bytes.withUnsafeBufferPointer { ReadWholeBudget.measure($0, from: start, delimiter: d, lineLimit: rowLimit?.bytes ?? .max) }
        if let rowLimit, let long = measure.tooLong {
            throw IngestError(file: path, line: long.number, message: "row is \(long.bytes) bytes long: \(rowLimit.row) is at most \(rowLimit.bytes)")
        }
        try ReadWholeBudget.check(projected: measure.projected, fileBytes: bytes.count, shape: measure.shape, path: path,
                                  expected: "a text export or table has rows of several fields, not mostly empty lines or fields")
        var result: [Line] = []
        result.reserveCapacity(measure.lines)
        // Blank lines share their (empty) fields: a file of many blank lines costs a slot per line.
        var blanks: [Int: [String]] = [:]
        var number = 0
        var i = start
        while i < bytes.count {
            number += 1
            var end = i
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var lineEnd = end
            while lineEnd > i && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            var fields = Self.split(bytes, i, lineEnd, delimiter: d)
            if fields.count <= Self.sharedBlankFields && fields.allSatisfy(\.isEmpty) {
                if let shared = blanks[fields.count] { fields = shared } else { blanks[fields.count] = fields }
            }
            result.append(Line(number: number, fields: fields))
            i = end + 1
        }
        lines = result
    }

    /// Fields of `bytes[start..<end]`, quotes removed, surrounding spaces of unquoted fields trimmed.
    static func split(_ bytes: [UInt8], _ start: Int, _ end: Int, delimiter: UInt8) -> [String] {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var wasQuoted = false
        var i = start
        while i < end {
            let c = bytes[i]
            if quoted {
                if c == 0x22 {
                    if i + 1 < end && bytes[i + 1] == 0x22 { field.append(0x22); i += 1 } else { quoted = false }
                } else {
                    field.append(c)
                }
            } else if c == 0x22 && field.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                quoted = true; wasQuoted = true; field.removeAll()
            } else if c == delimiter {
                fields.append(finish(field, wasQuoted: wasQuoted))
                field.removeAll(); wasQuoted = false
            } else if !(wasQuoted && !quoted && (c == 0x20 || c == 0x09)) {
                field.append(c)
            }
            i += 1
        }
        fields.append(finish(field, wasQuoted: wasQuoted))
        return fields
    }

    private static func finish(_ field: [UInt8], wasQuoted: Bool) -> String {
        let text = String(decoding: field, as: UTF8.self)
        return wasQuoted ? text : text.trimmingSpaces
    }

    /// `;` when the first 200 lines hold more semicolons than commas outside quotes, else `,`.
    private static func guessDelimiter(_ bytes: [UInt8], from start: Int) -> UInt8 {
        var commas = 0, semicolons = 0, lines = 0, i = start
        var quoted = false
        while i < bytes.count && lines < 200 {
            switch bytes[i] {
            case 0x22: quoted.toggle()
            case 0x0A: lines += 1; quoted = false
            case 0x2C where !quoted: commas += 1
            case 0x3B where !quoted: semicolons += 1
            default: break
            }
            i += 1
        }
        return semicolons > commas ? 0x3B : 0x2C
    }

    /// Offset of the first byte sequence that is not valid UTF-8, or nil.
    static func firstNonUTF8Offset(_ bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let length: Int
            if b & 0xE0 == 0xC0 && b >= 0xC2 { length = 2 }
            else if b & 0xF0 == 0xE0 { length = 3 }
            else if b & 0xF8 == 0xF0 && b <= 0xF4 { length = 4 }
            else { return i }
            guard i + length <= bytes.count else { return i }
            for k in 1..<length where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }
}

/// Numbers as epoch files write them.
package enum EpochNumber {
    package enum Parsed: Equatable {
        case value(Double)
        /// Empty or a missing-value marker (`NaN`, `NAN`, `NA`, Actiware German `kZ`).
        case missing
        case invalid
    }

    static let missingMarkers: Set<String> = ["", "nan", "na", "n/a", "kz", "-", "null"]

    /// Parses a decimal number; a decimal comma (`12,5`) is accepted when the field holds no point.
    package static func parse(_ text: String) -> Parsed {
        if missingMarkers.contains(text.lowercased()) { return .missing }
        if let v = Double(text), v.isFinite {
            return Self.isPlainNumber(text) ? .value(v) : .invalid
        }
        if text.contains(","), !text.contains("."), text.filter({ $0 == "," }).count == 1 {
            let dotted = text.replacingOccurrences(of: ",", with: ".")
            if let v = Double(dotted), v.isFinite, Self.isPlainNumber(dotted) { return .value(v) }
        }
        return .invalid
    }

    /// Digits with an optional sign, point and exponent: what Swift's `Double(String)` also accepts
    /// as hex floats or `inf` is not a number in a CSV file.
    private static func isPlainNumber(_ text: String) -> Bool {
        text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "e" || $0 == "E") }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\u{FEFF}" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
