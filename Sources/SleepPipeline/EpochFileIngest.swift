import Foundation
import SleepCore
import SleepIngest
import SleepStore

/// Epoch files (Actiware, ActiLife CSV, `.agd`, QUT, MMASH, AWD …) in the batch: stored with the
/// file's epochs as the night milestone (``EpochNightSeries``), split into noon-to-noon nights on
/// the recording's local clock, analysed by ``EpochFileNightMethod``, like raw recordings.
///
/// The base series (per second, for charts, the interval table and `compare`) spreads each epoch's
/// value of the scored column over its seconds: counts per second for count columns (an
/// interval's movement is then its counts), the value itself for averaged columns such as ENMO (an
/// interval's movement is then g·s, as for wearables). Its source resolution is the epoch length.
enum EpochFileIngest {
    /// The whole file as one epoch series (all numeric columns, the file's first label column).
    static func series(_ file: EpochRecording) -> EpochNightSeries {
        let labels = file.labelColumns.first
        return EpochNightSeries(format: file.format.rawValue, startUTC: file.firstEpochStartUTC, epochSeconds: file.epochSeconds,
                                count: file.count,
                                columns: file.columns.map { .init(name: $0.name, sourceName: $0.sourceName, unit: $0.unit, values: $0.values) },
                                fileLabels: labels?.labels, fileLabelsName: labels?.sourceName)
    }

    /// The per-second base series of `column`.
    static func secondSeries(_ s: EpochNightSeries, column: EpochNightSeries.Column, isSum: Bool) -> SecondSeries {
        let E = s.epochSeconds
        var movement = [Float](repeating: .nan, count: s.count * E)
        var counts = [UInt16](repeating: 0, count: s.count * E)
        for i in 0..<s.count where !column.values[i].isNaN {
            let v = Float(isSum ? column.values[i] / Double(E) : column.values[i])
            for k in (i * E)..<((i + 1) * E) { movement[k] = v; counts[k] = 1 }
        }
        return SecondSeries(startSecond: s.startUTC, movement: movement, legacyMovement: movement, sampleCounts: counts,
                            sourceResolutionSeconds: E)
    }

    /// The recording's kind reason, in one sentence.
    static func reason(_ file: EpochRecording, column: EpochNightSeries.Column?) -> String {
        let what = column.map { "\($0.name) (\($0.unit)) per \(file.epochSeconds)-s epoch" } ?? "no activity column"
        return "an epoch file (\(file.format.rawValue)): \(what), already reduced by device software; scored with that software's defaults"
    }
}

extension Pipeline {
    /// One epoch file, all or nothing (the counterpart of ``ingest(path:relativePath:db:runID:)``
    /// after the content hash said the file is new or changed).
    func ingestEpochFile(reader: any EpochFileReader, path: String, relativePath: String, contentHash: String,
                         before: FileStability, db: SleepDatabase, runID: Int64?) throws -> IngestOutcome {
        let options = IngestOptions(timeZoneIdentifier: configuration.timeZoneIdentifier)
        let file = try reader.read(path: path, options: options)
        let whole = EpochFileIngest.series(file)
        let method = EpochFileNightMethod()
        let column = method.activityColumn(whole)
        let sourceColumn = column.flatMap { c in file.columns.first { $0.name == c.name } }
        let base = column.map { EpochFileIngest.secondSeries(whole, column: $0, isSum: sourceColumn?.reduction != .mean) }
            ?? SecondSeries.empty(startSecond: whole.startUTC)
        var warnings = file.warnings
        if column == nil {
            warnings.append("no activity column the epoch-file method scores (\(EpochFileNightMethod.preferredColumns.joined(separator: ", "))): the file has \(file.columns.map(\.name).joined(separator: ", ")); its nights are stored, not scored")
        }
        let rhythm = column.map { c in
            let counts = EpochActivityFamily.of(column: c.name) != .acceleration
            // Not worn as the nights see it (runs of zero counts), for the actogram; the metrics
            // themselves follow pyActigraphy's defaults, which mask nothing.
            return RecordingRhythm.compute(source: "\(c.name) (\(c.unit)) per \(whole.epochSeconds)-s epoch" + (counts ? ", binarized at > 4 (pyActigraphy's default)" : ""),
                                           activity: c.values, epochSeconds: whole.epochSeconds, startUTC: whole.startUTC, timeline: file.timeline,
                                           states: method.recordingStates(whole, parameters: configuration.parameters), binarize: counts,
                                           nonWear: counts ? EpochFileNightMethod.zeroRunNonWear(c.values, epochSeconds: whole.epochSeconds) : nil)
        }
        var quality = QualitySummary(series: [base], sampleCount: base.coveredSeconds / max(1, file.epochSeconds), duplicateTimestamps: 0)
        quality.nominalSampleRateHz = 1 / Double(file.epochSeconds)
        let span = base.dataSpan
        let stored = StoredRecording(
            path: relativePath, contentHash: contentHash, format: file.format.rawValue,
            sizeBytes: before.sizeBytes, sampleCount: Int64(file.count - file.absentEpochs),
            effectiveSampleRateHz: 1 / Double(file.epochSeconds), firstUTC: span?.first, endUTC: span?.end,
            timeZone: file.timeZoneName, timeZoneSource: file.timeZoneSource.rawValue, units: column?.unit ?? "",
            gravity: GravityContent.unknown.rawValue, qualityJSON: try Self.json(quality), warningsJSON: try Self.json(warnings),
            kind: RecordingKind.epochFile.rawValue, kindReason: EpochFileIngest.reason(file, column: column))
        try before.requireUnchanged(path: path)
        let stem = NightNaming.recordingStem(relativePath)
        let taken = try storing { try db.nightIDs(excludingPath: relativePath) }
        var nightIDs: [String] = []
        try storing { try db.replaceRecording(stored, runID: runID, rhythm: rhythm) { store in
            var ids = NightIDSequence(stem: stem, taken: taken)
            for window in NightSplitter.nights(in: base, timeline: file.timeline) {
                let id = ids.next(window.date)
                var night = StoredNight(id: id, window: window, timeline: file.timeline, timeZone: file.timeZoneName, label: nil,
                                        preBedSurvey: [], postBedSurvey: [],
                                        series: base.slice(from: window.startUTC, to: window.endUTC).trimmedToData(),
                                        epochFile: whole.slice(from: window.startUTC, to: window.endUTC), kind: .epochFile)
                night.guide = configuration.diary?.guide(recordingPath: relativePath, night: window, timeline: file.timeline)
                try store(night, method.analyze(night.data, parameters: configuration.parameters))
                nightIDs.append(id)
            }
        } }
        logger.info("\(relativePath): \(file.format.rawValue), epoch-file (\(column?.name ?? "no activity column"), \(file.epochSeconds)-s epochs), \(file.count) epochs, \(nightIDs.count) night(s)")
        for w in warnings { logger.notice("\(relativePath): \(w)") }
        return .ingested(nightIDs: nightIDs, warnings: warnings)
    }
}

extension Pipeline {
    /// The diary's unusable rows (each names its row) and rows whose id matches no stored recording:
    /// logged and listed as warnings; the diary's other rows still apply.
    func reportDiaryProblems(_ diary: SleepDiary, db: SleepDatabase, summary: inout RunSummary) throws {
        let paths = try storing { try db.recordingPaths() }
        var problems = diary.problems
        for e in diary.unmatchedRows(recordingPaths: paths) {
            problems.append("\(diary.path) row \(e.row): id '\(e.id)' matches no recording (ids match a path, a file name with or without its extension, or a folder name)")
        }
        for p in problems {
            logger.error("\(p)")
            summary.warnings.append(p)
        }
    }
}
