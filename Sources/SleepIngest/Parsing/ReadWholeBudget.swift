/// What a text format read whole may cost once split into lines and fields.
///
/// The readers of the small text formats (epoch exports, the participants table, the sleep diary,
/// Actiwatch `.AWD`) hold the file's bytes and its lines at once. A line or a field costs memory
/// whatever its length (a slot in an array, an array header, a string header), so a file of empty
/// lines or of commas costs 16–80 bytes per byte when split. These readers therefore count first
/// and allocate after: the lines and fields of a file may take at most ``bytesPerByte`` bytes per
/// byte of the file, plus ``allowance`` (a small table of short rows); a file that would take more
/// is refused before a single line is allocated, naming the count that makes it so.
///
/// Peak memory of such a read is then bounded: the file's bytes (1×) and its split text
/// (at most 12×), so at most 13 × the file size + 16 MiB before the reader's own tables
/// (a text epoch export is limited to 64 MiB: at most about 850 MiB). No real export comes near
/// the bound: a 1-s ActiLife export's rows cost about 6 bytes per byte, an Actiware export's 4.
package enum ReadWholeBudget {
    /// Bytes of lines and fields allowed per byte of the file.
    static let bytesPerByte = 12
    /// Bytes allowed on top, whatever the file's size.
    static let allowance = 16 << 20

    /// A slot in an array of lines (or of fields): a pointer-sized value and a pointer.
    static let slotBytes = 16
    /// An array's heap header with malloc's rounding.
    static let arrayBytes = 48
    /// A string longer than 15 UTF-8 bytes lives on the heap: its header with malloc's rounding, plus its bytes.
    static let stringHeaderBytes = 48
    /// The longest string kept inline (no heap allocation).
    static let inlineStringBytes = 15

    /// The heap cost of a string of `bytes` UTF-8 bytes (0 when it is stored inline).
    static func stringCost(_ bytes: Int) -> Int {
        bytes > inlineStringBytes ? stringHeaderBytes + bytes : 0
    }

    /// The most the split text of `fileBytes` bytes may cost.
    static func limit(fileBytes: Int) -> Int {
        let (product, overflow) = fileBytes.multipliedReportingOverflow(by: bytesPerByte)
        return overflow ? Int.max : product.addingReportingOverflow(allowance).overflow ? Int.max : product + allowance
    }

    /// Refuses a file whose split text would cost `projected` bytes, more than its budget.
    /// `shape` says what makes it so (`60000000 lines`, `a line of 60000000 fields`).
    static func check(projected: Int, fileBytes: Int, shape: String, path: String, expected: String) throws(IngestError) {
        let limit = limit(fileBytes: fileBytes)
        guard projected > limit else { return }
        throw IngestError(file: path, byteOffset: 0, message:
            "\(shape) in \(fileBytes) bytes: split into lines and fields it would take \(projected >> 20) MiB, "
            + "more than \(bytesPerByte) bytes per byte of the file (\(limit >> 20) MiB); \(expected), so it is refused without reading it further")
    }

    /// What one counting pass over a text finds, before anything is allocated.
    package struct Measure {
        /// Lines, counting a last line without a line end.
        package var lines = 0
        /// What the lines and fields would cost split (see the type's comment).
        package var projected = 0
        /// The longest line (1-based number, bytes without its line end and trailing CRs).
        var longest = (number: 0, bytes: 0)
        /// The line with most fields (1-based number, fields), when measured with a delimiter.
        package var widest = (number: 0, fields: 0)
        /// The first line longer than the line limit measured against (1-based number, bytes).
        var tooLong: (number: Int, bytes: Int)? = nil

        /// `60000000 lines` or `a line of 60000000 fields`: what makes the text costly.
        package var shape: String {
            widest.fields > 1 && widest.fields * 4 > lines ? "line \(widest.number) of \(widest.fields) fields" : "\(lines) lines"
        }
    }

    /// Counts the lines of `text` (split at LF; trailing CRs are the line end's) and what they
    /// cost split: as strings when `delimiter` is nil, else as fields the way ``DelimitedText``
    /// splits them. A line whose bytes are all delimiters, spaces and tabs is blank (its fields
    /// share one array); every delimiter counts as a field slot, quoted or not, and every run
    /// between delimiters longer than 15 bytes as a string on the heap, so the projection never
    /// falls short of what the split allocates.
    package static func measure(_ text: UnsafeBufferPointer<UInt8>, from start: Int = 0, delimiter: UInt8? = nil, lineLimit: Int = .max) -> Measure {
        var m = Measure()
        var i = start
        let n = text.count
        while i < n {
            var end = i
            var delimiters = 0, run = 0, longRuns = 0, content = false
            var firstCR = Int.max
            while end < n && text[end] != 0x0A {
                let c = text[end]
                if let delimiter, c == delimiter {
                    delimiters += 1; longRuns += stringCost(run); run = 0
                } else {
                    run += 1
                    if c == 0x0D { firstCR = min(firstCR, end) } else if c != 0x20 && c != 0x09 { content = true }
                }
                end += 1
            }
            var lineEnd = end
            while lineEnd > i && text[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            m.lines += 1
            let length = lineEnd - i
            if length > m.longest.bytes { m.longest = (m.lines, length) }
            if length > lineLimit && m.tooLong == nil { m.tooLong = (m.lines, length) }
            if delimiter == nil {
                m.projected += slotBytes + stringCost(length)
            } else {
                let fields = delimiters + 1
                if fields > m.widest.fields { m.widest = (m.lines, fields) }
                // Trailing CRs are the line end's; one before them is content.
                let blank = !content && firstCR >= lineEnd
                let shared = blank && fields <= DelimitedText.sharedBlankFields
                m.projected += slotBytes + (shared ? 0 : arrayBytes + slotBytes * fields) + longRuns + stringCost(run)
            }
            i = end + 1
        }
        return m
    }

    /// The pieces of `bytes` between LFs (as `split(separator: 10, omittingEmptySubsequences: false)`
    /// makes them, without its array of slices), each passed to `body`.
    static func forEachLine(_ bytes: [UInt8], _ body: (ArraySlice<UInt8>) -> Void) {
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
            body(bytes[start..<i])
            start = i + 1
        }
    }
}
