import Foundation
import SleepCore

/// Tidy CSV as pandas (`read_csv`) and R (`read.csv`, readr) read it without options: RFC 4180
/// quoting, `.` as decimal mark, real numbers in Swift's shortest round-trip form (`0.125`,
/// `473.0`, `1e-05`: a float column stays float), integers as integers, missing values as empty
/// fields, `\n` line ends, UTF-8 without BOM.
///
/// Text cells that a spreadsheet would run as a formula — starting with `=`, `+`, `-`, `@`, a tab
/// or a carriage return (CSV injection: a recording named `=HYPERLINK(…).csv`) — get a leading `'`
/// and are quoted; numbers (`-0.25`, `+3`) are left as they are, so the columns stay numeric.
public enum CSVFormat {
    public static func field(_ text: String) -> String {
        let cell = neutralised(text)
        guard cell != text || cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text`, prefixed with `'` when a spreadsheet would take it for a formula.
    public static func neutralised(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), Double(text) == nil else { return text }
        return "'" + text
    }

    public static func number(_ v: Double?) -> String {
        guard let v, v.isFinite else { return "" }
        return String(v)
    }

    /// An instant as every export writes it: ISO 8601 with the night's UTC offset then
    /// (`2024-03-31T03:10:00+02:00`), both the local clock and an exact instant; empty for none.
    public static func time(_ utc: Int64?, timeline: UTCOffsetTimeline) -> String {
        utc.map { LocalClock.iso8601(utcSecond: $0, timeline: timeline) } ?? ""
    }

    public static func number(_ v: Int?) -> String { v.map(String.init) ?? "" }
    public static func number(_ v: Int64?) -> String { v.map(String.init) ?? "" }

    public static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }
}
