#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives the lines of a text stream, one call per line, without the line end (`\n` or `\r\n`).
protocol LineConsumer {
    /// `p[start..<end]` is line `number` (1-based); the bytes are valid only during the call.
    mutating func line(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int, number: Int) throws(IngestError)
}

/// Splits a ``ByteStream`` into lines in 1 MiB chunks with `memchr`, so text readers stream with
/// constant memory. A line longer than the chunk is refused (no text format here has one).
package enum LineScanner {
    /// The longest line any text reader takes, on every path (plain or gzip, serial or parallel):
    /// a line this long or longer is refused with its line number. No text format here has one;
    /// the limit keeps a file without line ends from being buffered (or reserved for) whole.
    package static let maximumLineBytes = 1 << 20
    static let chunkSize = maximumLineBytes

    /// Feeds every line to `consumer`; returns the number of lines. `formatName` is used in errors.
    @discardableResult
    static func scan<C: LineConsumer>(_ stream: any ByteStream, path: String, formatName: String,
                                      into consumer: inout C, chunkSize: Int = LineScanner.chunkSize) throws(IngestError) -> Int {
        var cutShort: String? = nil
        return try scan(stream, path: path, formatName: formatName, into: &consumer, salvage: false, cutShort: &cutShort, chunkSize: chunkSize)
    }

    /// As ``scan(_:path:formatName:into:chunkSize:)``, for a file that may have been cut short (a
    /// copy or download interrupted, a logger still writing): a last line without a line end that
    /// `consumer` refuses is dropped, as is any last line of a gzip stream that ends early, and
    /// `cutShort` says what was dropped (for the recording's warnings). The binary readers drop
    /// their incomplete last block in the same way. A bad line anywhere else, or one with its line
    /// end, is still refused: that is damage, not a cut.
    ///
    /// `consumer` must be a value whose `line` either takes the line whole or throws: a copy taken
    /// before the last line stands in for it when that line is dropped.
    @discardableResult
    static func scan<C: LineConsumer>(_ stream: any ByteStream, path: String, formatName: String,
                                      into consumer: inout C, cutShort: inout String?,
                                      chunkSize: Int = LineScanner.chunkSize) throws(IngestError) -> Int {
        try scan(stream, path: path, formatName: formatName, into: &consumer, salvage: true, cutShort: &cutShort, chunkSize: chunkSize)
    }

    private static func scan<C: LineConsumer>(_ stream: any ByteStream, path: String, formatName: String,
                                              into consumer: inout C, salvage: Bool, cutShort: inout String?,
                                              chunkSize: Int) throws(IngestError) -> Int {
        if salvage { stream.salvageCutShort() }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize + 1)
        defer { buffer.deallocate() }
        var carried = 0
        var lineNumber = 0
        var offset = 0   // stream offset of buffer[0]
        while true {
            if carried == chunkSize {
                throw IngestError(file: path, line: lineNumber + 1, message: "line longer than \(chunkSize) bytes: not \(formatName)")
            }
            let n = try stream.read(into: buffer + carried, count: chunkSize - carried)
            let filled = carried + n
            if n == 0 {
                if carried > 0 {
                    lineNumber += 1
                    var end = carried
                    if buffer[end - 1] == 13 { end -= 1 }
                    if salvage {
                        let streamCut = stream.cutShort
                        let number = lineNumber
                        let taken = try takeLastLine(&consumer, isFirstLine: number == 1, streamCut: streamCut) {
                            (c: inout C) throws(IngestError) in try c.line(buffer, 0, end, number: number)
                        }
                        if !taken {
                            cutShort = cutShortWarning(rowStart: offset, end: offset + carried, line: lineNumber, streamCut: streamCut)
                            return lineNumber - 1
                        }
                    } else {
                        try consumer.line(buffer, 0, end, number: lineNumber)
                    }
                } else if salvage, let streamCut = stream.cutShort {
                    cutShort = cutShortWarning(rowStart: nil, end: offset, line: nil, streamCut: streamCut)
                }
                return lineNumber
            }
            var start = 0
            while start < filled, let nl = memchr(buffer + start, 10, filled - start) {
                let lineEnd = buffer.distance(to: nl.assumingMemoryBound(to: UInt8.self))
                lineNumber += 1
                var end = lineEnd
                if end > start && buffer[end - 1] == 13 { end -= 1 }
                try consumer.line(buffer, start, end, number: lineNumber)
                start = lineEnd + 1
            }
            carried = filled - start
            if carried > 0 && start > 0 { memmove(buffer, buffer + start, carried) }
            offset += start
        }
    }

    /// A last line without its line end, which is complete (some writers leave it off) or cut
    /// short: cut for certain when the stream ended early (`streamCut`), else `take` decides by
    /// taking it or refusing to parse it. A line refused that way leaves `state` as it was
    /// before (`take` may have changed it on the way) and is dropped (false). Not dropped, but
    /// thrown as for any other line: a row read whole whose sample was refused
    /// (``IngestError/sampleRefused``: a time far back is damage, not a cut), and the file's first
    /// line (a file cut before its first complete row is refused, with the reason its line gives).
    static func takeLastLine<State>(_ state: inout State, isFirstLine: Bool, streamCut: String?,
                                    _ take: (inout State) throws(IngestError) -> Void) throws(IngestError) -> Bool {
        if isFirstLine { try take(&state); return true }
        guard streamCut == nil else { return false }
        let before = state
        do { try take(&state); return true } catch {
            if error.sampleRefused { throw error }
            state = before
            return false
        }
    }

    /// The warning for a text file cut short: its incomplete last row (bytes `rowStart..<end` of
    /// the file, or of the decompressed stream) dropped, or, with `rowStart` nil, a gzip stream
    /// that ended early just after a row's end. `line` when the reader counts lines.
    static func cutShortWarning(rowStart: Int?, end: Int, line: Int?, streamCut: String?) -> String {
        let lineText = line.map { "line \($0): " } ?? ""
        guard let rowStart else {
            return "\(streamCut ?? "the file ends early"), just after a row's end: nothing was dropped; the rows before it are read"
        }
        let count = end - rowStart
        if let streamCut {
            return "\(streamCut): its incomplete last row (\(lineText)the \(count) decompressed byte\(count == 1 ? "" : "s") from offset \(rowStart)) was dropped; the rows before it are read"
        }
        return "file ends inside its last row (\(lineText)the \(count) byte\(count == 1 ? "" : "s") from offset \(rowStart) \(count == 1 ? "has" : "have") no line end: cut short): that incomplete row was dropped; the rows before it are read"
    }
}

/// Splitting one CSV line into fields: commas, optional surrounding spaces, optional double
/// quotes around a field (with `""` inside quotes meaning one quote).
struct CSVFields {
    /// Field bounds as `(start, end)` pairs into the line's buffer, quotes stripped.
    var bounds: [(Int, Int)] = []
    /// Whether a quoted field held an escaped quote (`""`): its bytes then need unescaping.
    var hasEscapedQuote = false

    mutating func split(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int, separator: UInt8 = 44) {
        bounds.removeAll(keepingCapacity: true)
        hasEscapedQuote = false
        var i = start
        while true {
            while i < end && (p[i] == 32 || p[i] == 9) { i += 1 }
            if i < end && p[i] == 34 {
                // Quoted field: up to the closing quote not followed by another quote.
                let fieldStart = i + 1
                var j = fieldStart
                while j < end {
                    if p[j] == 34 {
                        if j + 1 < end && p[j + 1] == 34 { hasEscapedQuote = true; j += 2; continue }
                        break
                    }
                    j += 1
                }
                bounds.append((fieldStart, min(j, end)))
                i = j + 1
                while i < end && p[i] != separator { i += 1 }
            } else {
                let fieldStart = i
                while i < end && p[i] != separator { i += 1 }
                var b = i
                while b > fieldStart && (p[b - 1] == 32 || p[b - 1] == 9) { b -= 1 }
                bounds.append((fieldStart, b))
            }
            if i >= end { break }
            i += 1  // the separator
            if i == end { bounds.append((end, end)); break }
        }
    }

    var count: Int { bounds.count }

    func string(_ p: UnsafeMutablePointer<UInt8>, _ k: Int) -> String {
        let (a, b) = bounds[k]
        let s = String(decoding: UnsafeBufferPointer(start: p + a, count: max(0, b - a)), as: UTF8.self)
        return hasEscapedQuote ? s.replacingQuotePairs() : s
    }
}

extension String {
    func replacingQuotePairs() -> String {
        var out = ""
        var previousQuote = false
        for ch in self {
            if ch == "\"" {
                if previousQuote { previousQuote = false; continue }
                previousQuote = true
            } else { previousQuote = false }
            out.append(ch)
        }
        return out
    }
}
