/// How a `timestamp,x,y,z` file separates its fields: commas, or, as a spreadsheet in a
/// European locale saves it, semicolons with decimal commas (`2024-03-30 23:10:00;0,012;-0,981;0,104`),
/// or tabs (a tab-separated copy, with decimal points or commas).
///
/// Told from the first non-blank line: exactly three `;` make it `;`-separated; else exactly three
/// tabs whose four fields are none empty nor ending in a comma (`1,\t2,\t3,\t4` is a comma file
/// padded with tabs) make it tab-separated; else it is the comma format. In the other two a comma
/// can only be a decimal mark: a 4-column file of a time and three accelerations has no thousands
/// separators. Such a line is rewritten in place before it is parsed (each `,` to `.`, the
/// delimiter to `,`), so one parser reads all three; the rewritten line has the same length and
/// line number, and an error names the dialect so that a value it quotes can be found in the file.
package enum RawCSVDialect: Equatable {
    case comma, semicolon, tab

    /// The dialect of the first non-blank line of `head`.
    package static func of(head: [UInt8]) -> RawCSVDialect {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let first = bytes.split(separator: 0x0A).first { line in line.contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D } } ?? []
        if first.count(where: { $0 == 0x3B }) == 3 { return .semicolon }
        if first.count(where: { $0 == 0x09 }) == 3 {
            let fields = first.split(separator: 0x09, omittingEmptySubsequences: false).map { f in f.filter { $0 != 0x20 && $0 != 0x0D } }
            if fields.allSatisfy({ !$0.isEmpty && $0.last != 0x2C }) { return .tab }
        }
        return .comma
    }

    /// The dialect of the file at `path`, from its first 4 KiB (decompressed when gzip).
    static func of(path: String) throws(IngestError) -> RawCSVDialect {
        of(head: try FileBytes.head(path: path, count: 4096))
    }

    /// Whether the first line of `head` has four columns in its dialect (``RawCSVReader/accepts(fileName:head:)``).
    package static func fourColumns(_ head: [UInt8]) -> Bool {
        switch of(head: head) {
        case .semicolon, .tab: return true
        case .comma:
            guard let firstLine = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).first else { return true }
            return firstLine.count(where: { $0 == UInt8(ascii: ",") }) == 3
        }
    }

    /// Rewrites `p[start..<end]` as the comma format: decimal commas to points, the delimiter to commas.
    @inline(__always)
    func normalise(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int) {
        let delimiter: UInt8 = self == .semicolon ? 0x3B : 0x09
        var i = start
        while i < end {
            if p[i] == 0x2C { p[i] = 0x2E } else if p[i] == delimiter { p[i] = 0x2C }
            i += 1
        }
    }

    /// `error`, saying how a line of this dialect was read (its quoted values have `.` for `,`).
    func explaining(_ error: IngestError) -> IngestError {
        guard self != .comma, error.line != nil, error.notRecording == nil else { return error }
        var e = error
        e.message += self == .semicolon
            ? " (the file is read as ';'-separated, with ',' as the decimal mark: a quoted value shows it as '.')"
            : " (the file is read as tab-separated, with ',' as the decimal mark: a quoted value shows it as '.')"
        return e
    }
}
