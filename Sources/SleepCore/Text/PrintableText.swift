/// Text from input (file names, file content quoted in errors) made safe to print on one line.
///
/// A file name may hold any byte but `/` and NUL: a newline in one would start a forged line in
/// the log or the cron mail (`2024-06-16T04:15:02Z error : everything fine`), a carriage return or
/// an ANSI escape would overwrite what a terminal shows, and a NUL cut the stored error short.
/// Every control character (C0, DEL, C1), the Unicode line and paragraph separators, and the
/// bidirectional controls (U+200E/U+200F marks, U+202A–U+202E embeddings and overrides,
/// U+2066–U+2069 isolates: a name `U+202E gnp.csv` would show as `vsc.png`) are written as an
/// escape instead: `\n`, `\r`, `\t`, `\0`, else `\u{1B}`-style. Other text, non-ASCII letters
/// included, is kept as it is.
public enum PrintableText {
    public static func escaped(_ text: String) -> String { escaped(text, keepingLineBreaks: false) }

    /// - Parameter keepingLineBreaks: keep `\n` and `\t` as they are (for an HTML page, which shows
    ///   them as spaces and where they can forge nothing); everything else is escaped all the same.
    public static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
        func escapes(_ s: Unicode.Scalar) -> Bool { needsEscape(s) && !(keepingLineBreaks && (s == "\n" || s == "\t")) }
        guard text.unicodeScalars.contains(where: escapes) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for s in text.unicodeScalars {
            guard escapes(s) else { out.unicodeScalars.append(s); continue }
            switch s {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default: out += "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// The first character of `text` that ``escaped(_:)`` would escape, and its position
    /// (counted in Unicode scalars from 1); nil when the text prints as it is.
    public static func firstControl(in text: String) -> (scalar: Unicode.Scalar, position: Int)? {
        for (k, s) in text.unicodeScalars.enumerated() where needsEscape(s) { return (s, k + 1) }
        return nil
    }

    @inline(__always)
    static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (s.value >= 0x7F && s.value <= 0x9F) || s.value == 0x2028 || s.value == 0x2029
            || s.value == 0x200E || s.value == 0x200F || (s.value >= 0x202A && s.value <= 0x202E) || (s.value >= 0x2066 && s.value <= 0x2069)
    }
}
