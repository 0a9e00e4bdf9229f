import Foundation
import SleepCore

/// Stage 1's result: one file read for the store, whatever its kind. The base series (per second,
/// in segments), the kind's milestone (``RecordingMilestone``), the kind and why, the clock, the
/// quality facts and the warnings. The batch splits it into nights and picks the night method by
/// ``decision``; nothing here touches the store, so a new file is read whole beside its hash.
public struct RecordingRead: Sendable {
    /// What the batch asks of a read.
    public struct Options: Sendable {
        /// `--tz`: the zone for recordings that do not state one.
        public var timeZoneIdentifier: String?
        /// `--units`: the acceleration unit of raw CSVs, which state none.
        public var units: AccelerationUnits
        /// `--kind`: the kind for every raw recording, nil to decide from the data. Epoch files are
        /// always `epoch-file`.
        public var kindOverride: RecordingKind?
        /// A counts-based `--sleep-algorithm`: the wearable milestone also carries ActiGraph counts.
        public var activityCounts: Bool

        public init(timeZoneIdentifier: String? = nil, units: AccelerationUnits = .auto, kindOverride: RecordingKind? = nil,
                    activityCounts: Bool = false) {
            self.timeZoneIdentifier = timeZoneIdentifier; self.units = units; self.kindOverride = kindOverride
            self.activityCounts = activityCounts
        }

        /// Whether the wearable 5-s milestone is summed at all: not when `--kind phone-in-bed` rules
        /// the wearable method out before the file is read (the reader then runs alone, on every core).
        public var wearableMilestone: Bool { kindOverride != .phoneInBed }

        /// Whether the read sums ActiGraph counts: asked for, and a milestone to carry them.
        public var sumsActivityCounts: Bool { wearableMilestone && activityCounts }

        var ingest: IngestOptions {
            IngestOptions(timeZoneIdentifier: timeZoneIdentifier,
                          rawCSVAxisScale: units == .metresPerSecondSquared ? 1 / AccelerationUnits.standardGravity : 1)
        }
    }

    /// The file's format (a raw-sample or an epoch format).
    public var format: SourceFormat
    /// The base series in the source's continuous pieces (an app export's nights; one otherwise),
    /// with what the source said about each.
    public var segments: [RecordingSegment]
    public var milestone: RecordingMilestone
    public var decision: RecordingKindDecision
    public var timeline: UTCOffsetTimeline
    public var timeZoneName: String?
    public var timeZoneSource: TimeZoneSource
    /// Acceleration unit as read (`g`, `m/s2` converted), or an epoch file's activity unit.
    public var units: String
    public var gravity: GravityContent
    public var quality: QualitySummary
    /// Samples read (raw files) or epochs with data (epoch files).
    public var sampleCount: Int64
    public var effectiveSampleRateHz: Double
    public var warnings: [String]
    /// First and last second with data, nil when the file has none.
    public var span: (first: Int64, end: Int64)?
    /// One line for the log: the format, the kind and how much was read.
    public var logLine: String

    /// Held while an epoch file is read (see ``read(_:path:options:)``).
    static let epochFileReads = NSLock()

    /// Reads the file `detected` describes: a raw-sample file (both passes of a wearable included)
    /// or an epoch file.
    public static func read(_ detected: DetectedFormat, path: String, options: Options) throws(IngestError) -> RecordingRead {
        switch detected {
        case .samples(let reader): return try samples(reader, path: path, options: options)
        case .epochs(let reader):
            // Epoch files are read whole (a text export at about 13× its size at the peak): one at
            // a time, so that two workers never hold two of them (DelimitedText.sizeLimit).
            epochFileReads.lock()
            defer { epochFileReads.unlock() }
            return try epochs(reader.read(path: path, options: options.ingest))
        }
    }

    /// A raw-sample file: its recording with the units resolved, its kind and, for a wearable, the
    /// 5-s milestone (the second, calibrated pass of ``WearableMilestonePasses`` when GGIR's
    /// auto-calibration applies).
    static func samples(_ reader: any RecordingReader, path: String, options: Options) throws(IngestError) -> RecordingRead {
        let file = try WearableMilestonePasses.read(reader: reader, path: path, options: options.ingest, milestone: options.wearableMilestone,
                                                    activityCounts: options.sumsActivityCounts)
        var recording = file.recording
        AccelerationUnits.resolve(&recording, option: options.units)
        let spans = recording.segments.compactMap(\.series.dataSpan)
        let span = spans.isEmpty ? nil : (first: spans.map(\.first).min()!, end: spans.map(\.end).max()!)
        let decision = RecordingKindClassifier.decide(
            gravity: recording.gravity, isWearableDeviceFormat: WearableMilestonePasses.wearableDeviceFormats.contains(recording.format),
            format: .samples(recording.format), spanSeconds: Int(span.map { $0.end - $0.first } ?? 0), override: options.kindOverride)
        let wearable = decision.kind == .wearable24h ? try WearableMilestonePasses.wearableEpochs(file, path: path, recording: &recording) : nil
        if decision.kind == .phoneInBed && recording.gravity == .included {
            recording.warnings.append("the acceleration includes gravity (mean |a| ≈ 1 g), yet the recording is analysed as a phone on the mattress (\(decision.reason)); movement then includes gravity and sleep estimates are unreliable: use --kind wearable-24h for a device worn day and night")
        }
        return RecordingRead(
            format: .samples(recording.format), segments: recording.segments, milestone: wearable.map { .wearable($0) } ?? .none,
            decision: decision, timeline: recording.timeline, timeZoneName: recording.timeZoneName, timeZoneSource: recording.timeZoneSource,
            units: recording.units, gravity: recording.gravity, quality: recording.quality,
            sampleCount: Int64(recording.quality.sampleCount), effectiveSampleRateHz: recording.quality.effectiveSampleRateHz,
            warnings: recording.warnings, span: span,
            logLine: "\(recording.format.rawValue), \(decision.kind.rawValue) (\(decision.reason)), \(recording.quality.sampleCount) samples")
    }

    /// An epoch file (Actiware, ActiLife CSV, `.agd`, QUT, MMASH, AWD …): the file's epochs are the
    /// milestone (``EpochNightSeries``, analysed by ``EpochFileNightMethod``); the base series
    /// spreads the scored column over its seconds (``EpochNightSeries/secondSeries(column:isSum:)``).
    static func epochs(_ file: EpochRecording) -> RecordingRead {
        let whole = milestone(file)
        let column = EpochFileNightMethod().activityColumn(whole)
        let sourceColumn = column.flatMap { c in file.columns.first { $0.name == c.name } }
        let base = column.map { whole.secondSeries(column: $0, isSum: sourceColumn?.reduction != .mean) }
            ?? SecondSeries.empty(startSecond: whole.startUTC)
        var warnings = file.warnings
        if column == nil {
            warnings.append("no activity column the epoch-file method scores (\(EpochFileNightMethod.preferredColumns.joined(separator: ", "))): the file has \(file.columns.map(\.name).joined(separator: ", ")); its nights are stored, not scored")
        }
        var quality = QualitySummary(series: [base], sampleCount: base.coveredSeconds / max(1, file.epochSeconds), duplicateTimestamps: 0)
        quality.nominalSampleRateHz = 1 / Double(file.epochSeconds)
        let what = column.map { "\($0.name) (\($0.unit)) per \(file.epochSeconds)-s epoch" } ?? "no activity column"
        let reason = "an epoch file (\(file.format.rawValue)): \(what), already reduced by device software; scored with that software's defaults"
        return RecordingRead(
            format: .epochs(file.format), segments: [RecordingSegment(series: base)], milestone: .epochFile(whole),
            decision: RecordingKindDecision(kind: .epochFile, reason: reason), timeline: file.timeline,
            timeZoneName: file.timeZoneName, timeZoneSource: file.timeZoneSource, units: column?.unit ?? "", gravity: .unknown,
            quality: quality, sampleCount: Int64(file.count - file.absentEpochs), effectiveSampleRateHz: 1 / Double(file.epochSeconds),
            warnings: warnings, span: base.dataSpan,
            logLine: "\(file.format.rawValue), epoch-file (\(column?.name ?? "no activity column"), \(file.epochSeconds)-s epochs), \(file.count) epochs")
    }

    /// The whole epoch file as the `epoch-file` method's milestone: every numeric column, and the
    /// file's first label column as its own scoring.
    public static func milestone(_ file: EpochRecording) -> EpochNightSeries {
        let labels = file.labelColumns.first
        return EpochNightSeries(format: file.format.rawValue, startUTC: file.firstEpochStartUTC, epochSeconds: file.epochSeconds,
                                count: file.count,
                                columns: file.columns.map { .init(name: $0.name, sourceName: $0.sourceName, unit: $0.unit, values: $0.values) },
                                fileLabels: labels?.labels, fileLabelsName: labels?.sourceName, actiware: file.actiware)
    }
}
