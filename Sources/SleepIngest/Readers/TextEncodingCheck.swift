/// Recognises UTF-16 text (as Excel's "Unicode text" and some Windows tools save CSV), which the
/// text readers would otherwise read as bytes: every other byte a NUL, echoed into errors and
/// cutting stored text short at the first NUL.
enum TextEncodingCheck {
    /// "UTF-16 little-endian" or "UTF-16 big-endian" when a text file (`.csv`, `.json`) starts with a
    /// UTF-16 byte-order mark, or without one has NUL bytes at every other position of its first
    /// line (ASCII in UTF-16); nil otherwise. Binary formats, which hold NUL bytes, are not judged.
    static func utf16(fileName: String, head: [UInt8]) -> String? {
        let n = fileName.lowercased()
        guard n.hasSuffix(".csv") || n.hasSuffix(".json"), head.count >= 2 else { return nil }
        if head[0] == 0xFF && head[1] == 0xFE { return "UTF-16 little-endian (byte-order mark FF FE)" }
        if head[0] == 0xFE && head[1] == 0xFF { return "UTF-16 big-endian (byte-order mark FE FF)" }
        let sample = head.prefix(256)
        guard sample.count >= 8 else { return nil }
        var evenNUL = 0, oddNUL = 0
        for (i, b) in sample.enumerated() where b == 0 { if i % 2 == 0 { evenNUL += 1 } else { oddNUL += 1 } }
        let pairs = sample.count / 2
        if oddNUL * 10 >= pairs * 9 && evenNUL == 0 { return "UTF-16 little-endian (no byte-order mark)" }
        if evenNUL * 10 >= pairs * 9 && oddNUL == 0 { return "UTF-16 big-endian (no byte-order mark)" }
        return nil
    }
}
