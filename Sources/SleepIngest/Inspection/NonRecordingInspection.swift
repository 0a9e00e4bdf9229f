import Foundation

/// What `sleepsta inspect` says about a file that is no recording but a table beside the
/// recordings (``NonRecordingFile``): what it is and which header columns told it, not an error.
extension RecordingInspector {
    /// The JSON form (`--format json`): `format` is `not-a-recording`, `kind` the kind's name.
    struct NotRecordingJSON: Encodable {
        var path: String
        var format = "not-a-recording"
        var kind: String
        var description: String
        var headerLine: Int
        var columns: [String]
    }

    /// The report as aligned text lines, as ``text(_:)`` gives a recording's.
    public static func text(notRecording f: NonRecordingFile, path: String) -> String {
        let rows = [
            ("file", path),
            ("format", "not a recording: \(f.kind.label)"),
            ("told by", "the header (line \(f.line)) names \(f.columns.joined(separator: ", "))"),
            ("batch", "run and nightly skip it, with a line in their summary; it does not fail them"),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n")
    }

    /// The report as JSON (sorted keys, for scripts).
    public static func json(notRecording f: NonRecordingFile, path: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let value = NotRecordingJSON(path: path, kind: f.kind.rawValue, description: f.kind.label, headerLine: f.line, columns: f.columns)
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
