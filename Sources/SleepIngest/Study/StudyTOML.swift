/// The TOML (v1.0, toml.io) that a study file needs, read strictly, every refusal naming its line:
/// comments, `key = value` at the top level with bare keys, basic ("…", with TOML's escapes) and
/// literal ('…') strings, integers and floats, booleans, and arrays of strings (across lines,
/// trailing comma allowed). Tables, dotted keys, inline tables, multi-line strings and dates have
/// no use in a protocol of a dozen keys and are refused as such, never misread.
///
/// Hand-written because the packaged Swift TOML parser (TOMLKit) compiles toml++, four C++17 units
/// that would add more to every fresh build than the rest of sleepsta's dependencies, to read a
/// page of text; JSON's parser in Foundation costs nothing but reports no line for an error.
package enum StudyTOML {
    package struct Entry: Equatable {
        var key: String
        var value: StudyFile.Value
        var line: Int

        package init(key: String, value: StudyFile.Value, line: Int) {
            self.key = key; self.value = value; self.line = line
        }
    }

    package static func parse(_ text: String, path: String) throws(IngestError) -> [Entry] {
        var p = Parser(chars: Array(text.unicodeScalars), path: path)
        var entries: [Entry] = []
        while true {
            p.skipBlankLinesAndComments()
            guard let c = p.peek else { break }
            if c == "[" {
                throw p.error("a study file's keys stand at the top level, without [tables]")
            }
            let line = p.line
            let key = try p.bareKey()
            p.skipSpaces()
            guard p.peek == "=" else {
                throw p.error(p.peek == "." ? "dotted keys are not used in a study file ('\(key).…')" : "expected '=' after the key '\(key)'")
            }
            p.advance()
            p.skipSpaces()
            let value = try p.value(for: key)
            p.skipSpaces()
            p.skipComment()
            guard p.peek == nil || p.peek == "\n" || p.peek == "\r" else {
                throw p.error("unexpected text after the value of '\(key)' (one key = value a line; a comment starts with #)")
            }
            entries.append(Entry(key: key, value: value, line: line))
        }
        return entries
    }

    struct Parser {
        var chars: [Unicode.Scalar]
        var path: String
        var index = 0
        var line = 1

        var peek: Unicode.Scalar? { index < chars.count ? chars[index] : nil }

        mutating func advance() {
            if peek == "\n" { line += 1 }
            index += 1
        }

        func error(_ message: String) -> IngestError { IngestError(file: path, line: line, message: message) }

        mutating func skipSpaces() { while peek == " " || peek == "\t" { advance() } }

        mutating func skipComment() {
            guard peek == "#" else { return }
            while let c = peek, c != "\n" { advance() }
        }

        mutating func skipBlankLinesAndComments() {
            while let c = peek {
                if c == " " || c == "\t" || c == "\n" || c == "\r" { advance() } else if c == "#" { skipComment() } else { return }
            }
        }

        mutating func bareKey() throws(IngestError) -> String {
            var key = ""
            while let c = peek, ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" || c == "-" || ("0"..."9").contains(c) {
                key.unicodeScalars.append(c); advance()
            }
            guard !key.isEmpty else {
                throw error(peek == "\"" || peek == "'" ? "quoted keys are not used in a study file: write the key bare (tz = \"Europe/Berlin\")"
                                                        : "expected a key = value line, e.g. tz = \"Europe/Berlin\"")
            }
            return key
        }

        mutating func value(for key: String) throws(IngestError) -> StudyFile.Value {
            switch peek {
            case "\"", "'": return .string(try string())
            case "[": return .strings(try array(for: key))
            case "{": throw error("inline tables are not used in a study file ('\(key)')")
            case nil, "\n", "\r", "#": throw error("'\(key)' has no value")
            default: return try scalar(for: key)
            }
        }

        mutating func string() throws(IngestError) -> String {
            let quote = peek!
            advance()
            if peek == quote, index + 1 < chars.count, chars[index + 1] == quote {
                throw error("multi-line strings are not used in a study file")
            }
            var out = ""
            while true {
                guard let c = peek, c != "\n" else { throw error("a string is not closed on its line (a \(quote) is missing)") }
                advance()
                if c == quote { return out }
                if c == "\\" && quote == "\"" { out.unicodeScalars.append(try escape()) } else { out.unicodeScalars.append(c) }
            }
        }

        mutating func escape() throws(IngestError) -> Unicode.Scalar {
            guard let c = peek else { throw error("a string ends in a lone backslash") }
            advance()
            switch c {
            case "\"": return "\""
            case "\\": return "\\"
            case "n": return "\n"
            case "t": return "\t"
            case "r": return "\r"
            case "b": return "\u{08}"
            case "f": return "\u{0C}"
            case "u", "U":
                let count = c == "u" ? 4 : 8
                var hex = ""
                for _ in 0..<count { guard let h = peek, h.properties.isASCIIHexDigit else { break }; hex.unicodeScalars.append(h); advance() }
                guard hex.count == count, let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) else {
                    throw error("\\\(c) needs \(count) hex digits of a Unicode scalar")
                }
                return s
            default:
                throw error("unknown escape \\\(c) (in a basic string a backslash starts an escape: write \\\\, or use 'single quotes' for a Windows path)")
            }
        }

        mutating func array(for key: String) throws(IngestError) -> [String] {
            advance()   // [
            var items: [String] = []
            while true {
                skipBlankLinesAndComments()
                guard let c = peek else { throw error("the list of '\(key)' is not closed (a ] is missing)") }
                if c == "]" { advance(); return items }
                guard c == "\"" || c == "'" else { throw error("the list of '\(key)' holds strings in quotes only") }
                items.append(try string())
                skipBlankLinesAndComments()
                if peek == "," { advance() } else if peek != "]" { throw error("expected ',' or ']' in the list of '\(key)'") }
            }
        }

        mutating func scalar(for key: String) throws(IngestError) -> StudyFile.Value {
            var word = ""
            while let c = peek, c != " ", c != "\t", c != "\n", c != "\r", c != "#", c != "," { word.unicodeScalars.append(c); advance() }
            if word == "true" { return .bool(true) }
            if word == "false" { return .bool(false) }
            let digits = word.replacingOccurrences(of: "_", with: "")
            if let n = Double(digits), n.isFinite, digits.allSatisfy({ "0123456789+-.eE".contains($0) }) { return .number(n) }
            if word.count >= 8, word.contains("-"), word.first?.isNumber == true { throw error("dates are not used in a study file ('\(key)')") }
            throw error("'\(key) = \(word.prefix(40))': a text value needs quotes (\(key) = \"\(word.prefix(40))\")")
        }
    }
}
