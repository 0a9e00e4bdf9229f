import SleepCore

/// Reads CamNtech / Philips Actiwatch `.AWD` files (Actiwatch 4, 7, AW-64, Spectrum exported by
/// CamNtech's Sleep Analysis or Philips' Actiware as `.AWD`). The layout, as GGIRread's
/// `readActiwatchAWD` and pyActigraphy's `io/awd` read it:
///
/// ```
/// 0123456701102009        subject / identifier
/// 01-Oct-2009             start date (dd-MMM-yyyy, English month abbreviations)
/// 17:00                   start time (HH:MM, the watch's local clock)
///  4                      epoch code: 1 = 15 s, 2 = 30 s, 4 = 1 min, 8 = 2 min, 20 = 5 min, 81 = 2 s, C1 = 5 s, C2 = 10 s
/// 0                       age
/// D012345                 watch serial number
/// M                       sex
/// 498 , 0,00 M            one line per epoch: activity counts [, light (decimal comma)] [M = event marker]
/// ```
///
/// Epochs run from the start at the epoch length; the file states no UTC offset. Kept columns:
/// `activity` (counts), `light` when the lines carry it, `marker` (1 on epochs flagged `M`, else 0).
public struct ActiwatchAWDReader: EpochFileReader {
    public static let format = EpochFileFormat.actiwatchAWD
    public init() {}

    /// Epoch codes of line 4 → seconds.
    static let epochCodes: [String: Int] = ["1": 15, "2": 30, "4": 60, "8": 120, "20": 300, "81": 2, "C1": 5, "C2": 10]
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        guard fileName.lowercased().hasSuffix(".awd") else { return false }
        let lines = head.split(separator: 10, omittingEmptySubsequences: false)
        return lines.count > 3 && startDate(String(decoding: lines[1], as: UTF8.self).trimmingCR.trimmingSpaces) != nil
    }

    /// `01-Oct-2009` → the date.
    static func startDate(_ text: String) -> CivilDate? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let day = Int(parts[0]), let year = Int(parts[2]), year >= 1980, year < 2200,
              let m = months.firstIndex(of: parts[1].lowercased()), (1...LocalClockText.daysIn(month: m + 1, year: year)).contains(day)
        else { return nil }
        return CivilDate(year: year, month: m + 1, day: day)
    }

    /// Largest file read (it is read whole, ``ReadWholeBudget``): over 10 million epochs, four years of 15-s epochs.
    static let maximumBytes = 64 << 20

    public func read(path: String, options: IngestOptions) throws(IngestError) -> EpochRecording {
        let bytes = try FileBytes.readAll(path: path, limit: Self.maximumBytes)
        // Counted before allocated (``ReadWholeBudget``): a file of empty lines is no .AWD.
        let measure = bytes.withUnsafeBufferPointer { ReadWholeBudget.measure($0) }
        try ReadWholeBudget.check(projected: measure.projected, fileBytes: bytes.count, shape: measure.shape, path: path,
                                  expected: "an Actiwatch .AWD has a line of counts per epoch, not mostly empty lines")
        // Split on the bytes: in a Swift String, CR LF is one character.
        var lines: [String] = []
        lines.reserveCapacity(measure.lines + 1)
        ReadWholeBudget.forEachLine(bytes) { lines.append(String(decoding: $0, as: UTF8.self).trimmingCR.trimmingSpaces) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard lines.count >= 7 else {
            throw IngestError(file: path, line: max(1, lines.count), message: "\(lines.count) lines: an Actiwatch .AWD has 7 header lines (identifier, start date, start time, epoch code, age, serial, sex) before its epochs")
        }
        guard let date = Self.startDate(lines[1]) else {
            throw IngestError(file: path, line: 2, message: "start date '\(lines[1].prefix(40))': expected dd-MMM-yyyy (01-Oct-2009)")
        }
        guard let time = LocalClockText.secondOfDay(lines[2]) else {
            throw IngestError(file: path, line: 3, message: "start time '\(lines[2].prefix(40))': expected HH:MM")
        }
        guard let epochSeconds = Self.epochCodes[lines[3].uppercased()] else {
            throw IngestError(file: path, line: 4, message: "epoch code '\(lines[3].prefix(20))': expected one of 1 (15 s), 2 (30 s), 4 (1 min), 8 (2 min), 20 (5 min), 81 (2 s), C1 (5 s), C2 (10 s)")
        }
        let start = LocalClockText.localSecond(date, secondOfDay: time)
        var activity: [Double] = [], light: [Double] = [], marker: [Double] = []
        var lightSeen = false
        for (k, raw) in lines.enumerated().dropFirst(7) {
            var line = Substring(raw)
            var flagged = false
            if line.last == "M" || line.last == "m" { flagged = true; line = line.dropLast() }
            let fields = line.split(separator: ",", maxSplits: 1).map { String($0).trimmingSpaces }
            guard let first = fields.first, let counts = Double(first), counts.isFinite, counts >= 0 else {
                if raw.isEmpty { throw IngestError(file: path, line: k + 1, message: "empty line among the epochs: expected activity counts") }
                throw IngestError(file: path, line: k + 1, message: "'\(raw.prefix(40))': expected activity counts [, light] [M]")
            }
            var lux = Double.nan
            if fields.count > 1 {
                guard let v = Double(fields[1].replacingOccurrences(of: ",", with: ".")), v.isFinite else {
                    throw IngestError(file: path, line: k + 1, message: "light '\(fields[1].prefix(20))' is not a number")
                }
                lux = v; lightSeen = true
            }
            activity.append(counts); light.append(lux); marker.append(flagged ? 1 : 0)
            guard activity.count <= EpochRowTable.maximumEpochs else {
                throw IngestError(file: path, line: k + 1, message: "more than \(EpochRowTable.maximumEpochs) epochs: not an Actiwatch recording")
            }
        }
        var specs: [EpochRowTable.ColumnSpec] = [.init(name: "activity", sourceName: "activity"), .init(name: "marker", sourceName: "M")]
        if lightSeen { specs.append(.init(name: "light", sourceName: "light")) }
        var table = EpochRowTable(path: path, numericColumns: specs)
        for i in activity.indices {
            let values = lightSeen ? [activity[i], marker[i], light[i]] : [activity[i], marker[i]]
            table.append(localSecond: start + Int64(i) * Int64(epochSeconds), position: i + 8, values: values)
        }
        // The identifier, age and sex of lines 1, 5 and 7 are the subject's and are not kept.
        var metadata = ["deviceserial": lines[5], "epochcode": lines[3]]
        metadata["device"] = "Actiwatch" + (lines[5].isEmpty ? "" : " #\(lines[5])")
        return try table.build(format: .actiwatchAWD, epochSeconds: epochSeconds, options: options, statedOffsetSeconds: nil,
                               metadata: metadata)
    }
}

extension String {
    /// Without a trailing carriage return (CRLF files read by lines of `\n`).
    var trimmingCR: String { hasSuffix("\r") ? String(dropLast()) : self }
}
