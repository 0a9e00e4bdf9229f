/// The first lines of a file's head (the bytes ``FormatDetector`` looks at), for judging a text
/// file by its header row and first data rows without reading the file: what a side file is
/// (``NonRecordingFile``), and why a file is in no format sleepsta reads (``UnrecognisedFile``).
///
/// Lines are numbered from 1 as in the file; a UTF-8 byte-order mark and the line ends are removed
/// and blank lines skipped (their numbers still count). When the head is cut (`cut`: the file goes
/// on after it), its last line is incomplete and left out.
struct TextHead {
    struct Line: Equatable {
        let number: Int
        let text: String
    }

    let lines: [Line]
    /// Whether the head is text: no NUL byte and valid UTF-8.
    let isText: Bool

    init(_ head: [UInt8], cut: Bool) {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        // A cut head ends inside a line (and maybe inside a character): judge the complete lines only.
        if cut, let lastNewline = bytes.lastIndex(of: 0x0A) { bytes = bytes[..<lastNewline] }
        else if cut {   // one line longer than the head: drop a character cut at its end
            while let last = bytes.last, last & 0xC0 == 0x80 { bytes = bytes.dropLast() }
            if let last = bytes.last, last >= 0xC0 { bytes = bytes.dropLast() }
        }
        guard !bytes.contains(0), String(validating: bytes, as: UTF8.self) != nil else {
            lines = []; isText = false
            return
        }
        isText = true
        var result: [Line] = []
        // Split at the bytes: a `\r\n` is one Character in Swift, which a split at "\n" would not see.
        for (k, raw) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            var line = raw
            while line.last == 0x0D { line = line.dropLast() }
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { result.append(Line(number: k + 1, text: String(decoding: line, as: UTF8.self))) }
        }
        lines = result
    }

    /// The first non-blank line: a table's header row, or its first data row when it has none.
    var first: Line? { lines.first }

    /// The field delimiter of `line`: `;` or a tab when it holds more of them than commas (a
    /// European-locale spreadsheet export, a tab-separated copy), else `,`.
    static func delimiter(of line: String) -> UInt8 {
        let bytes = Array(line.utf8)
        let commas = bytes.count(where: { $0 == 0x2C }), semicolons = bytes.count(where: { $0 == 0x3B })
        let tabs = bytes.count(where: { $0 == 0x09 })
        if semicolons > commas && semicolons >= tabs { return 0x3B }
        if tabs > commas && tabs > semicolons { return 0x09 }
        return 0x2C
    }

    /// The fields of `line` split at `delimiter` (quotes removed, spaces around fields trimmed).
    static func fields(of line: String, delimiter: UInt8) -> [String] {
        let bytes = Array(line.utf8)
        return DelimitedText.split(bytes, 0, bytes.count, delimiter: delimiter)
    }

    /// How a delimiter is named in messages.
    static func name(ofDelimiter d: UInt8) -> String {
        switch d {
        case 0x3B: return "';'"
        case 0x09: return "tabs"
        default: return "','"
        }
    }
}
