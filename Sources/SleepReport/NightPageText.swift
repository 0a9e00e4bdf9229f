import Foundation
import SleepCore

/// The night page's sentences: the data and quality facts of a night and its recording, and the
/// night chart with its title. Every string from input is escaped here or by the page template.
public enum NightPageText {
    /// What the night page says of the recording a night came from (as stored).
    public struct Recording: Sendable {
        public var path: String
        public var format: SourceFormat
        public var sizeBytes: Int64
        public var contentHash: String
        public var sampleCount: Int64
        public var effectiveSampleRateHz: Double
        public var timeZone: String?
        public var timeZoneSource: TimeZoneSource
        public var gravity: GravityContent
        public var kind: RecordingKind
        public var kindReason: String
        public var quality: QualitySummary

        public init(path: String, format: SourceFormat, sizeBytes: Int64, contentHash: String, sampleCount: Int64,
                    effectiveSampleRateHz: Double, timeZone: String?, timeZoneSource: TimeZoneSource, gravity: GravityContent, kind: RecordingKind,
                    kindReason: String, quality: QualitySummary) {
            self.path = path; self.format = format; self.sizeBytes = sizeBytes; self.contentHash = contentHash
            self.sampleCount = sampleCount; self.effectiveSampleRateHz = effectiveSampleRateHz; self.timeZone = timeZone
            self.timeZoneSource = timeZoneSource; self.gravity = gravity; self.kind = kind; self.kindReason = kindReason
            self.quality = quality
        }
    }

    /// A stored content identity as pages show it: "blake3 0123456789abcdef…" (the algorithm, then
    /// the first 16 hex digits).
    public static func shortContentHash(_ identity: String) -> String {
        guard let colon = identity.firstIndex(of: ":") else { return "\(identity.prefix(16))…" }
        return "\(identity[..<colon]) \(identity[identity.index(after: colon)...].prefix(16))…"
    }

    /// The "Data and quality" facts of one night: its data, its window, its source, and the
    /// recording's facts.
    public static func facts(series: SecondSeries, window: NightWindow, timeline tl: UTCOffsetTimeline,
                             recording: Recording?) -> [(label: String, value: String)] {
        var facts: [(String, String)] = []
        if let span = series.dataSpan {
            facts.append(("Data in this night", "\(LocalClock.iso8601(utcSecond: span.first, timeline: tl)) to \(LocalClock.iso8601(utcSecond: span.end, timeline: tl))"))
        }
        facts.append(("Seconds with data", "\(series.coveredSeconds) of \(series.count)"))
        facts.append(("Night window", "\(LocalClock.iso8601(utcSecond: window.startUTC, timeline: tl)) to \(LocalClock.iso8601(utcSecond: window.endUTC, timeline: tl)) (\(window.durationSeconds / 3600) h)"))
        // What the file holds: raw samples, the app's interval totals, or a device's epochs.
        let fileEpoch = recording.flatMap { r in
            r.kind == .epochFile ? (r.quality.nominalSampleRateHz ?? r.effectiveSampleRateHz) : nil
        }.flatMap { $0 > 0 ? Int(exactly: (1 / $0).rounded()) : nil }
        let appTotals = recording?.format == HTMLPages.appExportFormat
        if let fileEpoch {
            facts.append(("Source resolution", "the device's epochs of \(fileEpoch) s, as the file stores them"))
        } else if appTotals {
            facts.append(("Source resolution", "the app's interval totals of \(series.sourceResolutionSeconds) s, spread evenly over their seconds"))
        } else {
            facts.append(("Source resolution", series.sourceResolutionSeconds == 1 ? "raw samples (1-s base series)" : "\(series.sourceResolutionSeconds) s totals"))
        }
        if let r = recording {
            facts.append(("Recording", "\(PrintableText.escaped(r.path)) (\(r.format.rawValue), \(r.sizeBytes) bytes, \(Self.shortContentHash(r.contentHash)))"))
            if let fileEpoch {
                facts.append(("Epochs", "\(r.sampleCount) of \(fileEpoch) s"))
            } else if appTotals {
                facts.append(("Interval totals", "\(r.sampleCount) (the app sampled once a second and stored one total per interval)"))
            } else {
                facts.append(("Samples", "\(r.sampleCount), effective rate \(String(format: "%.2f", r.effectiveSampleRateHz)) Hz"))
            }
            facts.append(("Time zone", "\(HTMLPages.timeZoneText(name: r.timeZone, source: r.timeZoneSource)); time_zone_source \(r.timeZoneSource.rawValue)"))
            // An epoch file holds the device software's activity, never acceleration: gravity and a
            // sample rate are words for raw samples (its epochs are named above).
            if fileEpoch == nil { facts.append(("Gravity", r.gravity.rawValue)) }
            facts.append(("Recording kind", "\(r.kind.rawValue): \(r.kindReason.isEmpty ? "stored before kinds existed (a phone)" : r.kindReason)"))
            let q = r.quality
            facts.append(("Gaps ≥ 60 s (recording)", "\(q.gapCount), \(q.gapTotalSeconds) s in total, longest \(q.longestGapSeconds) s"))
            facts.append(("Repeated timestamps", "\(q.duplicateTimestamps)"))
            var device = q
            if fileEpoch != nil { device.nominalSampleRateHz = nil }
            facts += Self.deviceQualityFacts(device)
        }
        return facts
    }

    /// The quality facts the raw-sample readers add (sample-rate drift, backward timestamps,
    /// clipping, idle sleep, damaged blocks, still periods), for the night page. Recordings stored
    /// before these facts existed simply show none of them.
    static func deviceQualityFacts(_ q: QualitySummary) -> [(label: String, value: String)] {
        var facts: [(String, String)] = []
        if let nominal = q.nominalSampleRateHz {
            var text = "nominal \(Self.number(nominal)) Hz"
            if let drift = q.sampleRateDriftPercent { text += String(format: ", effective vs nominal %+.3f %%", drift) }
            if let lo = q.hourlyRateMinHz, let hi = q.hourlyRateMaxHz { text += ", hourly \(Self.number(lo))–\(Self.number(hi)) Hz" }
            facts.append(("Sample rate (recording)", text))
        }
        if q.backwardTimestampsKept != nil || q.backwardSamplesDropped != nil {
            facts.append(("Backward timestamps", "\(q.backwardTimestampsKept ?? 0) kept within their second, \(q.backwardSamplesDropped ?? 0) dropped (≤ 1 s back)"))
        }
        if let clipped = q.clippedSamples, let range = q.deviceRangeG {
            facts.append(("Clipped samples", "\(clipped) within 0.5 g of the ±\(Self.number(range)) g range"))
        }
        if let idle = q.idleSleepSecondsFilled, idle > 0 { facts.append(("Idle sleep filled", "\(idle) s (device asleep; last sample repeated)")) }
        if let skipped = q.skippedBlocks, skipped > 0 { facts.append(("Damaged blocks skipped", "\(skipped)")) }
        if let periods = q.stillPeriods {
            facts.append(("Still periods ≥ 60 min (recording)", "\(periods), \(q.stillSeconds ?? 0) s in total, longest \(q.longestStillSeconds ?? 0) s (device not worn, or lying away from the sleeper)"))
        }
        if let calibration = q.calibration {
            var text = calibration
            if let before = q.calibrationErrorBeforeMilliG {
                text += String(format: "; error %.1f mg before", before)
                if let after = q.calibrationErrorAfterMilliG { text += String(format: ", %.1f mg after", after) }
            }
            if let o = q.calibrationOffsetG, let sc = q.calibrationScale, o.count == 3, sc.count == 3 {
                text += String(format: "; fit: offset %+.4f, %+.4f, %+.4f g, scale %.4f, %.4f, %.4f", o[0], o[1], o[2], sc[0], sc[1], sc[2])
            }
            facts.append(("Auto-calibration (van Hees 2014)", text))
        }
        if let counts = q.activityCounts { facts.append(("ActiGraph counts from raw (agcounts)", counts)) }
        if let nonWear = q.nonWearSeconds {
            facts.append(("Not worn (recording, GGIR 2013 rule)", "\(Plural.count(q.nonWearPeriods ?? 0, "period")), \(nonWear / 60) min in total, of \((q.wearableEpochs ?? 0) * 5 / 60) min with data"))
        }
        return facts
    }

    static func number(_ v: Double) -> String { Int(exactly: v).map { String($0) } ?? String(format: "%.3f", v) }

    /// The night chart of an analysis, by the kind of its recording, with its title.
    public static func chart(_ analysis: NightAnalysis, epochs: WearableEpochs?, timeline: UTCOffsetTimeline, date: CivilDate,
                             interval: IntervalLength) -> MovementChart {
        switch analysis.kind {
        case .epochFile:
            let e = analysis.epochFile
            let isMean = e?.isAveraged ?? false
            let scale = isMean ? (e?.unit == "g" ? 1000.0 / 60 : 1.0 / 60) : 1.0
            let unit = isMean ? (e?.unit == "g" ? "mg" : (e?.unit ?? "")) : "\(e?.unit ?? "counts") per minute"
            return MovementChart.night(analysis, timeline: timeline,
                                       title: "Night of \(date) · \(e?.column ?? "activity") per \(interval) interval",
                                       yAxisLabel: "\(e?.column ?? "activity") (\(unit)\(isMean ? ", mean" : ""))",
                                       value: { $0.map { $0 * scale } })
        case .wearable24h:
            return MovementChart.wearableNight(analysis, epochs: epochs, timeline: timeline,
                                               title: "Night of \(date) · ENMO per \(interval) interval, angle-z per minute")
        case .phoneInBed:
            return MovementChart.night(analysis, timeline: timeline,
                                       title: "Night of \(date) · \(MovementUnits.meanAccelerationLabel) per \(interval) interval")
        }
    }
}
