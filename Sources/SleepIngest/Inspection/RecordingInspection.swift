import Foundation
import SleepCore

/// What `sleepsta inspect FILE` reports about one file, from any reader's result: the detected
/// format, the device, the sample rate, the time span, the time zone, the units and the quality
/// facts. Nothing is written anywhere.
public struct RecordingInspection: Sendable, Codable, Equatable {
    public var path: String
    public var format: String
    /// `raw-samples` (per-second series from samples), `interval-totals`, or `epochs`.
    public var content: String
    public var device: String?
    public var compression: String?
    /// Samples (raw formats), bins or epochs.
    public var valueCount: Int
    /// "100 Hz", "30-s epochs", "300-s bins".
    public var resolution: String
    public var effectiveSampleRateHz: Double?
    public var firstUTC: Int64?
    public var endUTC: Int64?
    public var firstLocal: String?
    public var endLocal: String?
    public var timeZone: String
    public var timeZoneSource: String
    public var units: String
    public var gravity: String?
    public var segments: Int
    /// Quality facts as label → value, in display order.
    public var quality: [Fact]
    public var warnings: [String]
    /// Raw-sample formats: the number of samples (nil for epoch files and interval totals).
    public var samples: Int? = nil
    /// Epoch files: the number of epochs and their length in seconds.
    public var epochs: Int? = nil
    public var epochSeconds: Int? = nil
    /// The quality facts as numbers for scripts (`--json`), named like ``QualitySummary``'s fields:
    /// seconds, counts, Hz and % as the names say; facts a format does not measure are absent.
    public var qualityNumbers: [String: Double] = [:]

    public struct Fact: Sendable, Codable, Equatable {
        public var label: String
        public var value: String
        public init(_ label: String, _ value: String) { self.label = label; self.value = value }
    }
}

/// Reads a file with whichever reader takes it and describes the result.
public enum RecordingInspector {
    /// Inspects `path`: an epoch file (ActiLife/Actiware/… epoch readers) or any raw-sample format.
    public static func inspect(path: String, options: IngestOptions) throws(IngestError) -> RecordingInspection {
        switch try FormatDetector.detect(path: path) {
        case .epochs(let reader): return inspection(of: try reader.read(path: path, options: options), path: path)
        case .samples(let reader): return inspection(of: try reader.read(path: path, options: options), path: path)
        }
    }

    /// Describes a recording of per-second series (raw samples or interval totals).
    public static func inspection(of r: Recording, path: String) -> RecordingInspection {
        let q = r.quality
        let spans = r.segments.compactMap(\.series.dataSpan)
        let first = spans.map(\.first).min(), end = spans.map(\.end).max()
        let resolutionSeconds = r.segments.map(\.series.sourceResolutionSeconds).max() ?? 1
        let isSamples = resolutionSeconds == 1
        var facts: [RecordingInspection.Fact] = [
            .init("covered", "\(q.coveredSeconds) s of \(q.spanSeconds) s (\(percent(q.coveredSeconds, q.spanSeconds)))"),
            .init("gaps ≥ \(QualitySummary.gapThresholdSeconds) s", "\(q.gapCount), \(q.gapTotalSeconds) s in total, longest \(q.longestGapSeconds) s"),
        ]
        if isSamples { facts += sampleFacts(q) }
        let events = r.segments.flatMap(\.events)
        if !events.isEmpty {
            let counts = Dictionary(grouping: events, by: \.label).map { ($0.key, $0.value.count) }.sorted { $0.0 < $1.0 }
            facts.append(.init("events", counts.map { "\($0.0) ×\($0.1)" }.joined(separator: ", ")))
        }
        var inspection = RecordingInspection(
            path: path, format: r.format.rawValue, content: isSamples ? "raw-samples" : "interval-totals", device: r.device,
            compression: r.compression, valueCount: q.sampleCount,
            resolution: isSamples ? (q.nominalSampleRateHz.map { "\(format($0)) Hz" } ?? "samples") : "\(resolutionSeconds)-s totals",
            effectiveSampleRateHz: isSamples ? q.effectiveSampleRateHz : nil, firstUTC: first, endUTC: end,
            firstLocal: first.map { LocalClock.iso8601(utcSecond: $0, timeline: r.timeline) },
            endLocal: end.map { LocalClock.iso8601(utcSecond: $0, timeline: r.timeline) },
            timeZone: zoneText(name: r.timeZoneName, timeline: r.timeline, at: first), timeZoneSource: r.timeZoneSource.rawValue,
            units: r.units, gravity: r.gravity.rawValue, segments: r.segments.count, quality: facts, warnings: r.warnings)
        if isSamples { inspection.samples = q.sampleCount }
        inspection.qualityNumbers = qualityNumbers(q, isSamples: isSamples)
        return inspection
    }

    /// The facts only raw samples have: sample rate, repeated and backward timestamps, clipping,
    /// idle sleep, damaged blocks and still periods.
    static func sampleFacts(_ q: QualitySummary) -> [RecordingInspection.Fact] {
        var facts: [RecordingInspection.Fact] = []
        if let n = q.nominalSampleRateHz {
            var rate = "nominal \(format(n)) Hz, effective \(format(q.effectiveSampleRateHz)) Hz"
            if let d = q.sampleRateDriftPercent { rate += String(format: ", drift %+.3f %%", d) }
            if let lo = q.hourlyRateMinHz, let hi = q.hourlyRateMaxHz { rate += ", hourly \(format(lo))–\(format(hi)) Hz" }
            facts.append(.init("sample rate", rate))
        }
        facts.append(.init("repeated timestamps", "\(q.duplicateTimestamps) (kept)"))
        if q.backwardTimestampsKept != nil || q.backwardSamplesDropped != nil {
            facts.append(.init("backward timestamps", "\(q.backwardTimestampsKept ?? 0) kept (same second), \(q.backwardSamplesDropped ?? 0) dropped (≤ 1 s back)"))
        }
        if let c = q.clippedSamples, let range = q.deviceRangeG {
            facts.append(.init("clipped samples", "\(c) of \(q.sampleCount) (\(percent(c, q.sampleCount))) within 0.5 g of ±\(format(range)) g"))
        } else {
            facts.append(.init("clipped samples", "not assessed (the file states no measuring range)"))
        }
        if let idle = q.idleSleepSecondsFilled { facts.append(.init("idle sleep filled", "\(idle) s")) }
        if let skipped = q.skippedBlocks { facts.append(.init("damaged blocks skipped", "\(skipped)")) }
        if let periods = q.stillPeriods {
            facts.append(.init("still periods (possible non-wear)", "\(periods), \(q.stillSeconds ?? 0) s in total, longest \(q.longestStillSeconds ?? 0) s"))
        }
        return facts
    }

    /// The quality facts as numbers for scripts, named like ``QualitySummary``'s fields.
    static func qualityNumbers(_ q: QualitySummary, isSamples: Bool) -> [String: Double] {
        var numbers: [String: Double] = [
            "coveredSeconds": Double(q.coveredSeconds), "spanSeconds": Double(q.spanSeconds), "gapCount": Double(q.gapCount),
            "gapTotalSeconds": Double(q.gapTotalSeconds), "longestGapSeconds": Double(q.longestGapSeconds),
        ]
        if isSamples {
            numbers["sampleCount"] = Double(q.sampleCount)
            numbers["effectiveSampleRateHz"] = q.effectiveSampleRateHz
            numbers["duplicateTimestamps"] = Double(q.duplicateTimestamps)
            let optional: [(String, Double?)] = [
                ("nominalSampleRateHz", q.nominalSampleRateHz), ("sampleRateDriftPercent", q.sampleRateDriftPercent),
                ("hourlyRateMinHz", q.hourlyRateMinHz), ("hourlyRateMaxHz", q.hourlyRateMaxHz),
                ("backwardTimestampsKept", q.backwardTimestampsKept.map(Double.init)), ("backwardSamplesDropped", q.backwardSamplesDropped.map(Double.init)),
                ("deviceRangeG", q.deviceRangeG), ("clippedSamples", q.clippedSamples.map(Double.init)),
                ("idleSleepSecondsFilled", q.idleSleepSecondsFilled.map(Double.init)), ("skippedBlocks", q.skippedBlocks.map(Double.init)),
                ("stillPeriods", q.stillPeriods.map(Double.init)), ("stillSeconds", q.stillSeconds.map(Double.init)),
                ("longestStillSeconds", q.longestStillSeconds.map(Double.init)),
            ]
            for (key, value) in optional { if let value, value.isFinite { numbers[key] = value } }
        }
        return numbers
    }

    /// Describes an epoch file.
    public static func inspection(of e: EpochRecording, path: String) -> RecordingInspection {
        let first = e.count > 0 ? e.startUTC(ofEpoch: 0) : nil
        let end = e.count > 0 ? e.startUTC(ofEpoch: e.count - 1) + Int64(e.epochSeconds) : nil
        var facts: [RecordingInspection.Fact] = [
            .init("epochs", "\(e.count) of \(e.epochSeconds) s"),
            .init("epochs without a row", "\(e.absentEpochs)"),
        ]
        for c in e.columns {
            let missing = c.values.filter(\.isNaN).count
            facts.append(.init("column \(c.name)", "\(c.sourceName) [\(c.unit)], \(missing) missing"))
        }
        for l in e.labelColumns {
            facts.append(.init("labels \(l.name)", "\(l.sourceName), \(l.labels.compactMap { $0 }.count) labelled"))
        }
        // The device as the reader named it, else the device fields; never an unrelated header line.
        var device = e.metadata["device"] ?? e.metadata["devicename"] ?? e.metadata["Device"]
        if let serial = e.metadata["deviceserial"] ?? e.metadata["serial"] {
            if let d = device { if !d.contains(serial) { device = "\(d) #\(serial)" } } else { device = serial }
        }
        let units = Array(Set(e.columns.map(\.unit).filter { !$0.isEmpty })).sorted().joined(separator: ", ")
        var inspection = RecordingInspection(
            path: path, format: e.format.rawValue, content: "epochs", device: device,
            compression: nil, valueCount: e.count, resolution: "\(e.epochSeconds)-s epochs", effectiveSampleRateHz: nil,
            firstUTC: first, endUTC: end,
            firstLocal: first.map { LocalClock.iso8601(utcSecond: $0, timeline: e.timeline) },
            endLocal: end.map { LocalClock.iso8601(utcSecond: $0, timeline: e.timeline) },
            timeZone: zoneText(name: e.timeZoneName, timeline: e.timeline, at: first), timeZoneSource: e.timeZoneSource.rawValue,
            units: units.isEmpty ? "none" : units, gravity: nil, segments: 1, quality: facts, warnings: e.warnings)
        inspection.epochs = e.count
        inspection.epochSeconds = e.epochSeconds
        var numbers: [String: Double] = ["epochs": Double(e.count), "epochSeconds": Double(e.epochSeconds), "absentEpochs": Double(e.absentEpochs)]
        for c in e.columns { numbers["missing.\(c.name)"] = Double(c.values.filter(\.isNaN).count) }
        inspection.qualityNumbers = numbers
        return inspection
    }

    /// The report as aligned text lines.
    public static func text(_ i: RecordingInspection) -> String {
        var rows: [(String, String)] = [
            ("file", i.path),
            ("format", "\(i.format) (\(i.content))" + (i.compression.map { ", \($0)-compressed" } ?? "")),
            ("device", i.device ?? "not stated"),
            ("resolution", "\(i.resolution), \(i.valueCount) \(i.content == "raw-samples" ? "samples" : i.content == "epochs" ? "epochs" : "values")"
                + (i.segments > 1 ? " in \(i.segments) segments" : "")),
        ]
        if let a = i.firstLocal, let b = i.endLocal, let f = i.firstUTC, let e = i.endUTC {
            rows.append(("time span", "\(a) to \(b) (\(duration(e - f)))"))
        } else {
            rows.append(("time span", "no data"))
        }
        rows.append(("time zone", "\(i.timeZone) (\(i.timeZoneSource))"))
        rows.append(("units", i.units + (i.gravity.map { ", gravity \($0)" } ?? "")))
        for f in i.quality { rows.append(("QC: " + f.label, f.value)) }
        for w in i.warnings { rows.append(("warning", w)) }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n")
    }

    /// The report as JSON (sorted keys, for scripts).
    public static func json(_ i: RecordingInspection) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(i)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func zoneText(name: String?, timeline: UTCOffsetTimeline, at utc: Int64?) -> String {
        let offset = UTCOffsetTimeline.formatOffset(timeline.offset(atUTC: utc ?? 0))
        // A name that is itself the offsets (`UTC+02:00`) says it all.
        if let name, !name.hasPrefix("UTC") { return "\(name) (UTC\(offset) at the start)" }
        return "UTC\(offset)" + (timeline.transitions.isEmpty ? "" : " (\(timeline.transitions.count) offset changes)")
    }

    static func duration(_ seconds: Int64) -> String {
        let h = seconds / 3600, m = seconds % 3600 / 60, s = seconds % 60
        if h > 0 { return "\(h) h \(m) min" }
        if m > 0 { return "\(m) min \(s) s" }
        return "\(s) s"
    }

    static func percent(_ a: Int, _ b: Int) -> String { b > 0 ? String(format: "%.1f %%", 100 * Double(a) / Double(b)) : "–" }

    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%.3f", v)
    }
}
