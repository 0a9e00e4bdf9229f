import SleepCore

/// Reads **Sleep as Android**'s `sleep-export.csv` (Urbandroid; docs.sleep.urbandroid.org/devs/csv.html,
/// with the details documented by sleepdiary/core's SleepAsAndroid notes):
///
/// * Every record starts with its own header line `Id,Tz,From,To,Sched,Hours,Rating,Comment,
///   Framerate,Snore,Noise,Cycles,DeepSleep,LenAdjust,Geo,"22:14","22:19",…,"Event","Event",…`,
///   then a line of values, then (for tracked records) a line of noise levels under the same
///   time columns. All fields are double-quoted; `""` is a quote inside a field.
/// * `Id` is the start in milliseconds since 1970 (UTC); the end is `Id + Hours`; `Tz` is an IANA
///   zone. The values under the time columns are the app's actigraphy, aggregated per time bin,
///   in the app's own unit; the bins divide the record evenly (the column titles are approximate).
/// * `Event` fields are `LABEL-milliseconds[-value]` (`DEEP_START`, `AWAKE_START`, `LUX` …).
///
/// Each tracked record becomes one segment: every second of a bin holds the bin's value (the
/// level, so per-minute movement stays in the app's unit whatever the bin length) and the series
/// records the bin length as its source resolution. Records added by hand (`Cycles` = -1, or no
/// more than one bin) carry no actigraphy and are skipped with a warning. The user's rating and
/// comment become the record's post-bed answers; the events are kept on the segment.
public struct SleepAsAndroidReader: RecordingReader {
    public static let format = RecordingFormat.sleepAsAndroidCSV
    public init() {}

    /// Largest actigraphy value accepted per bin.
    static let largestActigraphyValue = 1_000_000.0

    static let fixedColumns = ["Id", "Tz", "From", "To", "Sched", "Hours", "Rating", "Comment", "Framerate", "Snore",
                               "Noise", "Cycles", "DeepSleep", "LenAdjust", "Geo"]

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        var h = head[...]
        if h.starts(with: [0xEF, 0xBB, 0xBF]) { h = h.dropFirst(3) }
        return h.starts(with: Array("Id,Tz,From,To,Sched,Hours".utf8))
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> Recording {
        let stream = try ByteStreams.open(path: path)
        var parser = Parser(path: path)
        let lines = try LineScanner.scan(stream, path: path, formatName: "a Sleep as Android export", into: &parser)
        guard lines > 0 else { throw IngestError(file: path, line: 1, message: "empty file: expected a Sleep as Android sleep-export.csv") }
        if parser.expectingValues {
            throw IngestError(file: path, line: lines, message: "file ends after a record header without its line of values: truncated")
        }
        guard !parser.segments.isEmpty else {
            throw IngestError(file: path, line: lines, message: parser.records == 0
                ? "no records: expected a header line Id,Tz,From,… and a line of values"
                : "none of the \(parser.records) records holds actigraphy (all were added by hand)")
        }
        var warnings = parser.warnings
        let spans = parser.segments.compactMap { $0.series.dataSpan }
        let zone = try ZoneChoice(path: path, option: options.timeZoneIdentifier, statedName: parser.zones.first,
                                  statedNameLine: parser.firstValuesLine,
                                  span: spans.isEmpty ? nil : (spans.map(\.first).min()!, spans.map(\.end).max()! - 1),
                                  noneWarning: "the records state no time zone and no --tz was given: nights are assigned on the UTC clock")
        if let w = zone.warning { warnings.append(w) }
        if Set(parser.zones).count > 1 {
            warnings.append("records use several time zones (\(Array(Set(parser.zones)).sorted().joined(separator: ", "))); nights use \(zone.name)")
        }
        var quality = QualitySummary(series: parser.segments.map(\.series), sampleCount: parser.bins, duplicateTimestamps: 0)
        quality.effectiveSampleRateHz = 0   // bins, not samples: a rate would mislead
        var recording = Recording(format: Self.format, segments: parser.segments, timeline: zone.timeline, timeZoneName: zone.name,
                                  timeZoneSource: zone.source, units: "Sleep as Android actigraphy (app units)", gravity: .unknown,
                                  quality: quality, warnings: warnings)
        recording.device = "Sleep as Android (phone accelerometer, aggregated by the app)"
        recording.compression = stream.compression
        return recording
    }

    struct Parser: LineConsumer {
        let path: String
        var fields = CSVFields()
        var timeColumns: [Int] = []
        var eventColumns: [Int] = []
        var expectingValues = false
        var afterValues = false
        var records = 0
        var bins = 0
        var segments: [RecordingSegment] = []
        var zones: [String] = []
        var warnings: [String] = []
        var firstValuesLine = 1
        var lastSegmentEnd: Int64 = .min

        init(path: String) { self.path = path }

        mutating func line(_ p: UnsafeMutablePointer<UInt8>, _ startIn: Int, _ end: Int, number: Int) throws(IngestError) {
            var start = startIn
            if number == 1 && end - start >= 3 && p[start] == 0xEF && p[start + 1] == 0xBB && p[start + 2] == 0xBF { start += 3 }
            if start == end { return }
            fields.split(p, start, end)
            if fields.string(p, 0) == "Id" {
                if expectingValues {
                    throw IngestError(file: path, line: number, message: "a record header follows a record header: expected the previous record's line of values")
                }
                try header(p, line: number)
                return
            }
            if expectingValues {
                try values(p, line: number)
                expectingValues = false
                afterValues = true
                return
            }
            if afterValues && fields.bounds.prefix(SleepAsAndroidReader.fixedColumns.count).allSatisfy({ $0.0 == $0.1 }) {
                afterValues = false   // the record's noise line
                return
            }
            throw IngestError(file: path, line: number, message: number == 1
                ? "expected the Sleep as Android header Id,Tz,From,To,Sched,Hours,…"
                : "expected a record header (Id,Tz,From,…) or a noise line; found '\(String(decoding: UnsafeBufferPointer(start: p + start, count: min(40, end - start)), as: UTF8.self))'")
        }

        mutating func header(_ p: UnsafeMutablePointer<UInt8>, line: Int) throws(IngestError) {
            let fixed = SleepAsAndroidReader.fixedColumns
            for (k, name) in fixed.enumerated() where k < fields.count && fields.string(p, k) != name {
                throw IngestError(file: path, line: line, message: "header column \(k + 1) is '\(fields.string(p, k))'; expected '\(name)' (Id,Tz,From,To,Sched,Hours,…)")
            }
            guard fields.count >= fixed.count else {
                throw IngestError(file: path, line: line, message: "header has \(fields.count) columns; expected at least the \(fixed.count) of Id,Tz,…,Geo")
            }
            timeColumns = []; eventColumns = []
            for k in fixed.count..<fields.count {
                if fields.string(p, k) == "Event" { eventColumns.append(k) } else { timeColumns.append(k) }
            }
            expectingValues = true
            afterValues = false
            records += 1
        }

        mutating func values(_ p: UnsafeMutablePointer<UInt8>, line: Int) throws(IngestError) {
            if segments.isEmpty { firstValuesLine = line }
            func text(_ k: Int) -> String { k < fields.count ? fields.string(p, k) : "" }
            guard let idMillis = Int64(text(0)), idMillis > 0 else {
                throw IngestError(file: path, line: line, message: "Id '\(text(0).prefix(30))' is not a time in milliseconds since 1970")
            }
            guard let hours = Double(text(5)), hours.isFinite, hours >= 0, hours <= 48 else {
                throw IngestError(file: path, line: line, message: "Hours '\(text(5).prefix(30))' is not a duration in hours (0–48)")
            }
            let zone = text(1)
            let manual = text(11) == "-1" || timeColumns.count <= 1
            if manual {
                warnings.append("record \(idMillis) (line \(line)) was added by hand: no actigraphy, skipped")
                return
            }
            var values: [Float] = []
            values.reserveCapacity(timeColumns.count)
            for k in timeColumns {
                let (a, b) = k < fields.count ? fields.bounds[k] : (0, 0)
                // The app writes small activity levels (about 0–10); the bound keeps a corrupt value
                // from becoming an infinite Float (found by the mutation fuzzer: `1e39`).
                guard case .number(let v) = FastNumber.parse(p, a, b), v >= 0, v <= SleepAsAndroidReader.largestActigraphyValue else {
                    throw IngestError(file: path, line: line, message: "actigraphy value in column \(k + 1) is '\(text(k).prefix(30))'; expected a number from 0 to \(Int(SleepAsAndroidReader.largestActigraphyValue))")
                }
                values.append(Float(v))
            }
            let start = idMillis / 1000
            let seconds = Int((hours * 3600).rounded())
            guard seconds >= values.count else {
                throw IngestError(file: path, line: line, message: "record lasts \(seconds) s but holds \(values.count) actigraphy values: more than one per second")
            }
            if start < lastSegmentEnd {
                warnings.append("record \(idMillis) (line \(line)) overlaps the previous record")
            }
            lastSegmentEnd = start + Int64(seconds)
            var movement = [Float](repeating: 0, count: seconds)
            for i in 0..<seconds { movement[i] = values[min(values.count - 1, i * values.count / seconds)] }
            let series = SecondSeries(startSecond: start, movement: movement, legacyMovement: movement,
                                      sampleCounts: [UInt16](repeating: 1, count: seconds),
                                      sourceResolutionSeconds: max(1, Int((Double(seconds) / Double(values.count)).rounded())))
            var segment = RecordingSegment(series: series, label: String(idMillis))
            if let rating = Double(text(6)), rating > 0 { segment.postBedSurvey.append(SurveyAnswer(question: "rating (0–5)", answer: text(6))) }
            let comment = text(7).replacingOccurrences(of: " \\n ", with: "\n").trimmedASCII()
            if !comment.isEmpty { segment.postBedSurvey.append(SurveyAnswer(question: "comment", answer: comment)) }
            for k in eventColumns where k < fields.count {
                let parts = text(k).split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count >= 2, let ms = Double(parts[1]) else {
                    if !text(k).isEmpty { warnings.append("line \(line): event '\(text(k).prefix(40))' is not LABEL-milliseconds; ignored") }
                    continue
                }
                segment.events.append(RecordingEvent(label: String(parts[0]), utcSecond: ms / 1000, value: parts.count > 2 ? String(parts[2]) : nil))
            }
            if !zone.isEmpty { zones.append(zone) }
            bins += values.count
            segments.append(segment)
        }
    }
}
