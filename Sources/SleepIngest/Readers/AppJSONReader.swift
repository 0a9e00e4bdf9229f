import Foundation
import SleepCore

/// Reads the Sleepsta app's JSON export: nights of interval motion totals plus survey answers.
///
/// Schema (docs/formats.md):
/// ```json
/// { "timeZone": "Europe/Berlin",
///   "nights": [ { "id": "2019-04-02", "intervalSeconds": 600,
///                 "motionData": [ { "motion": 3.21, "timestamp": 1554240600 }, ... ],
///                 "preBedSurvey":  { "caffeine": "none", ... },
///                 "postBedSurvey": { "rested": 4, ... } } ] }
/// ```
/// A bare array of nights is accepted too. `timestamp` is the end of the interval (the app wrote
/// `Date()` when it closed the interval), in epoch seconds (milliseconds are recognised). `motion`
/// is the app's accumulator: the sum over the interval's seconds of the per-second average, which
/// the app computed with its legacy formula (``MovementMetric/legacyApp``).
///
/// The export holds interval totals, not samples: each total is spread evenly over the seconds of
/// its interval, and the series records its source resolution so reports can say so.
/// Foundation's `JSONDecoder` is used because exports are small (a year of nights is < 2 MB).
public struct AppJSONReader: RecordingReader {
    public static let format = RecordingFormat.appJSON
    public init() {}

    static let maximumBytes = 64 << 20

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        guard fileName.lowercased().hasSuffix(".json") else { return false }
        return head.first(where: { !($0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) })
            .map { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") } ?? true
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> Recording {
        let bytes = try FileBytes.readAll(path: path, limit: Self.maximumBytes)
        let export = try Self.decodeExport(bytes, path: path)
        var warnings: [String] = []
        var segments: [RecordingSegment] = []
        var sampleCount = 0
        var span = CoveredSpan()
        for (n, night) in export.nights.enumerated() {
            segments += try Self.segments(of: night, at: "nights[\(n)]", path: path, span: &span)
            sampleCount += night.motionData.count
        }
        var quality = QualitySummary(series: segments.lazy.map(\.series), sampleCount: sampleCount, duplicateTimestamps: 0)
        quality.effectiveSampleRateHz = 1.0 // the app sampled once a second
        warnings.append("app export: interval totals (legacy formula) spread evenly over their seconds; intervals finer than the export's are not real resolution")
        let zone = try ZoneChoice(path: path, option: options.timeZoneIdentifier, statedName: export.timeZone, statedNameField: "timeZone",
                                  span: span.first.map { ($0, span.last) },
                                  noneWarning: "the export states no timeZone and no --tz was given: nights are assigned on the UTC clock")
        if let w = zone.warning { warnings.insert(w, at: 0) }
        return Recording(format: .appJSON, segments: segments, timeline: zone.timeline, timeZoneName: zone.name,
                         timeZoneSource: zone.source, gravity: .removed, quality: quality, warnings: warnings)
    }

    /// The export as decoded (an object with `nights`, or a bare array of nights), with at least one night.
    static func decodeExport(_ bytes: [UInt8], path: String) throws(IngestError) -> AppExport {
        guard bytes.contains(where: { !($0 == 32 || $0 == 9 || $0 == 10 || $0 == 13) }) else {
            throw IngestError(file: path, byteOffset: 0, message: "empty file: expected a JSON export ({\"nights\": [...]})")
        }
        let export: AppExport
        do {
            let data = Data(bytes)
            let first = bytes.first { !($0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
            if first == UInt8(ascii: "[") {
                export = AppExport(timeZone: nil, nights: try JSONDecoder().decode([AppNight].self, from: data))
            } else {
                export = try JSONDecoder().decode(AppExport.self, from: data)
            }
        } catch let error as DecodingError {
            throw describe(error, path: path, bytes: bytes)
        } catch {
            throw IngestError(file: path, message: "not valid JSON: \(error)")
        }
        guard !export.nights.isEmpty else {
            throw IngestError(file: path, path: "nights", message: "no nights: expected at least one night with motionData")
        }
        return export
    }

    /// The first and last second (UTC) the nights cover, for the choice of time zone.
    struct CoveredSpan {
        var first: Int64? = nil
        var last: Int64 = 0
    }

    /// One night's intervals as segments: one per run of intervals without a gap of more than a
    /// night window (25 h) between them; parts that far apart cannot share a night, and a "night"
    /// whose values lie weeks apart no longer becomes one per-second series across the weeks between.
    static func segments(of night: AppNight, at where_: String, path: String, span covered: inout CoveredSpan) throws(IngestError) -> [RecordingSegment] {
        guard !night.motionData.isEmpty else {
            throw IngestError(file: path, path: "\(where_).motionData", message: "empty: expected at least one {\"motion\", \"timestamp\"} value")
        }
        let stamps = try intervalEnds(night, at: where_, path: path)
        let interval = night.intervalSeconds ?? inferInterval(stamps)
        guard interval >= 1 && interval <= 86_400 else {
            throw IngestError(file: path, path: "\(where_).intervalSeconds", message: "\(interval) is not valid; expected 1 to 86400 seconds")
        }
        let first = stamps[0] - Int64(interval)
        covered.first = min(covered.first ?? first, first); covered.last = max(covered.last, stamps[stamps.count - 1] - 1)
        let span = stamps[stamps.count - 1] - first
        guard span <= SecondAccumulator.maximumSpanSeconds else {
            throw IngestError(file: path, path: "\(where_).motionData", message: "the night spans \(span / 86_400) days; expected one night")
        }
        var segments: [RecordingSegment] = []
        var runStart = 0
        for k in 1...stamps.count where k == stamps.count || stamps[k] - Int64(interval) - stamps[k - 1] > segmentGapSeconds {
            let runTotals = try totals(night, stamps: stamps, entries: runStart..<k, interval: interval, path: path, where_: where_)
            runStart = k
            segments.append(RecordingSegment(totals: runTotals, label: night.id,
                                             preBedSurvey: night.preBedSurvey?.answers ?? [],
                                             postBedSurvey: night.postBedSurvey?.answers ?? []))
        }
        return segments
    }

    /// The night's interval ends in epoch seconds (milliseconds converted), checked: times the
    /// app can have written, increasing, with finite motion totals ≥ 0.
    static func intervalEnds(_ night: AppNight, at where_: String, path: String) throws(IngestError) -> [Int64] {
        let stamps = night.motionData.map { $0.timestamp >= 100_000_000_000 ? $0.timestamp / 1000 : $0.timestamp }
        for k in stamps.indices {
            // Found while fuzzing: Int64.min overflowed the interval arithmetic (a trap), and
            // year-292-million timestamps were stored. The app wrote Date() of its own time.
            guard stamps[k] >= 0 && stamps[k] <= latestTimestamp else {
                throw IngestError(file: path, path: "\(where_).motionData[\(k)].timestamp",
                                  message: "\(night.motionData[k].timestamp) is not a time between 1970 and 9999; expected epoch seconds or milliseconds")
            }
            let m = night.motionData[k].motion
            guard m.isFinite, m >= 0 else {
                throw IngestError(file: path, path: "\(where_).motionData[\(k)].motion", message: "\(m) is not valid; expected a finite number ≥ 0")
            }
            if k > 0 && stamps[k] <= stamps[k - 1] {
                throw IngestError(file: path, path: "\(where_).motionData[\(k)].timestamp",
                                  message: "time goes backwards or repeats (\(stamps[k]) after \(stamps[k - 1])); timestamps must increase")
            }
        }
        return stamps
    }

    /// Uncovered seconds between two intervals of a night beyond which they become separate
    /// segments: longer than any night window (25 h on the day clocks go back).
    static let segmentGapSeconds: Int64 = 25 * 3600

    /// The intervals `entries` (ends `stamps`, in order) as per-second values, each total divided
    /// by its interval's seconds (an interval starts no earlier than the one before ends); spread
    /// over the seconds only when the segment's series is read (see ``IntervalTotals``).
    static func totals(_ night: AppNight, stamps: [Int64], entries: Range<Int>, interval: Int, path: String,
                       where_: String) throws(IngestError) -> IntervalTotals {
        var previousEnd = stamps[entries.lowerBound] - Int64(interval)
        var perSecond: [Float] = []
        perSecond.reserveCapacity(entries.count)
        for k in entries {
            let end = stamps[k]
            let seconds = Int(end - max(end - Int64(interval), previousEnd))
            // Found by mutation fuzzing: 1e300 passed as finite, became an infinite Float and
            // crashed the chart. The per-second value is a movement in g, as a raw sample's is.
            let perSecondG = night.motionData[k].motion / Double(seconds)
            guard perSecondG <= RawCSVReader.implausibleG else {
                throw IngestError(file: path, path: "\(where_).motionData[\(k)].motion",
                                  message: "\(night.motionData[k].motion) over \(seconds) s is \(perSecondG) g per second; expected at most \(Int(RawCSVReader.implausibleG)) g (the app's total of per-second movement in g)")
            }
            // The app's values are legacy-formula totals; sleepsta's own metric cannot be recovered
            // from them, so both channels carry the same numbers (documented in docs/formats.md).
            perSecond.append(Float(perSecondG))
            previousEnd = end
        }
        return IntervalTotals(ends: Array(stamps[entries]), perSecond: perSecond, intervalSeconds: interval)
    }

    /// The median spacing of the timestamps, rounded to whole minutes (the app's timer drifts by a
    /// second or two), or 600 s for a single value.
    static func inferInterval(_ stamps: [Int64]) -> Int {
        guard stamps.count > 1 else { return 600 }
        let diffs = zip(stamps.dropFirst(), stamps).map { $0 - $1 }.sorted()
        let median = diffs[diffs.count / 2]
        return max(60, Int((Double(median) / 60).rounded()) * 60)
    }

    static func describe(_ error: DecodingError, path: String, bytes: [UInt8]) -> IngestError {
        func render(_ codingPath: [CodingKey]) -> String {
            var s = ""
            for key in codingPath {
                if let i = key.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + key.stringValue }
            }
            return s.isEmpty ? "top level" : s
        }
        switch error {
        case .typeMismatch(let type, let ctx):
            return IngestError(file: path, path: render(ctx.codingPath), message: "expected \(Self.typeName(type))")
        case .valueNotFound(let type, let ctx):
            return IngestError(file: path, path: render(ctx.codingPath), message: "missing value: expected \(Self.typeName(type))")
        case .keyNotFound(let key, let ctx):
            return IngestError(file: path, path: render(ctx.codingPath), message: "missing key '\(key.stringValue)'")
        case .dataCorrupted(let ctx):
            if ctx.codingPath.isEmpty, let syntax = syntaxError(bytes: bytes, path: path) { return syntax }
            // JSONSerialization reports the character index in its underlying error.
            let detail = (ctx.underlyingError as NSError?)?.userInfo["NSDebugDescription"] as? String ?? ctx.debugDescription
            return IngestError(file: path, path: ctx.codingPath.isEmpty ? nil : render(ctx.codingPath), message: "not valid JSON: \(detail)")
        @unknown default:
            return IngestError(file: path, message: "not a Sleepsta export: \(error)")
        }
    }

    /// Epoch seconds of 9999-12-31T23:59:59Z.
    static let latestTimestamp: Int64 = 253_402_300_799

    /// Where a document stops being JSON, as `file:line` with the column, when JSONDecoder gives no
    /// position (it does not on Linux): JSONSerialization's "around character N" is a byte offset.
    static func syntaxError(bytes: [UInt8], path: String) -> IngestError? {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            return nil
        } catch {
            let detail = (error as NSError).userInfo["NSDebugDescription"] as? String ?? "\(error)"
            var offset = bytes.count   // "Unexpected end of file": the document is cut short
            if let r = detail.range(of: #"character \d+"#, options: .regularExpression),
               let n = Int(detail[r].dropFirst("character ".count)) { offset = min(n, bytes.count) }
            let before = bytes.prefix(offset)
            let line = before.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
            let column = offset - (before.lastIndex(of: 10).map { $0 + 1 } ?? 0) + 1
            let what = offset >= bytes.count ? "the file ends inside the JSON document (truncated?)" : detail
            return IngestError(file: path, line: line, message: "not valid JSON at column \(column): \(what)")
        }
    }

    static func typeName(_ t: Any.Type) -> String {
        switch t {
        case is Double.Type, is Int.Type, is Int64.Type: return "a number"
        case is String.Type: return "a string"
        default: return "\(t)"
        }
    }
}

// MARK: - Export schema

struct AppExport: Decodable {
    var timeZone: String?
    var nights: [AppNight]
}

struct AppNight: Decodable {
    var id: String?
    var intervalSeconds: Int?
    var motionData: [AppMotionSample]
    var preBedSurvey: AppSurvey?
    var postBedSurvey: AppSurvey?
}

/// The app's `MotionData(motion:timestamp:)`.
struct AppMotionSample: Decodable {
    var motion: Double
    var timestamp: Int64
}

/// Survey answers: an object of question → answer (string, number or bool), or a list of
/// `{"question": ..., "answer": ...}`. Kept as text; reports escape them.
struct AppSurvey: Decodable {
    var answers: [SurveyAnswer]

    init(from decoder: Decoder) throws {
        if let list = try? [QA].init(from: decoder) {
            answers = list.map { SurveyAnswer(question: $0.question, answer: $0.answer.text) }
            return
        }
        let container = try decoder.container(keyedBy: AnyKey.self)
        answers = try container.allKeys.sorted { $0.stringValue < $1.stringValue }.map { key in
            SurveyAnswer(question: key.stringValue, answer: try container.decode(Scalar.self, forKey: key).text)
        }
    }

    struct QA: Decodable { var question: String; var answer: Scalar }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    /// A JSON scalar rendered as text.
    struct Scalar: Decodable {
        var text: String
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { text = "" }
            else if let b = try? c.decode(Bool.self) { text = b ? "yes" : "no" }
            else if let i = try? c.decode(Int64.self) { text = String(i) }
            else if let d = try? c.decode(Double.self) { text = String(d) }
            else { text = try c.decode(String.self) }
        }
    }
}
