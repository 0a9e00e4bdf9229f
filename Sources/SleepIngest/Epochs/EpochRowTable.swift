import SleepCore

/// Rows as a reader finds them (time on the local clock + values), turned into a regular
/// ``EpochRecording``: rows must advance by whole epochs, rows a file leaves out become NaN epochs.
struct EpochRowTable {
    struct ColumnSpec { var name: String; var sourceName: String }

    let path: String
    /// How an error names a row: nil = by line number (text files); else a table name (`data row 12`).
    let rowTableName: String?
    let numericColumns: [ColumnSpec]
    let labelColumns: [ColumnSpec]
    private(set) var localSeconds: [Int64] = []
    private(set) var positions: [Int] = []
    private var values: [[Double]]
    private var labels: [[SleepWake?]]

    /// Longest recording accepted (a corrupt timestamp must not allocate years of epochs).
    static let maximumSpanSeconds: Int64 = 400 * 86_400
    /// Most epochs accepted (100 days of 1-s epochs), so that memory stays bounded.
    static let maximumEpochs = 10_000_000
    /// Most cells (epochs × columns) the recording may fill, about 400 MB: a small file with many
    /// columns and a gap between two rows must not ask for gigabytes.
    static let maximumCells = 50_000_000

    init(path: String, rowTableName: String? = nil, numericColumns: [ColumnSpec], labelColumns: [ColumnSpec] = []) {
        self.path = path; self.rowTableName = rowTableName
        self.numericColumns = numericColumns; self.labelColumns = labelColumns
        values = Array(repeating: [], count: numericColumns.count)
        labels = Array(repeating: [], count: labelColumns.count)
    }

    var rowCount: Int { localSeconds.count }

    func error(position: Int, _ message: String) -> IngestError {
        if let rowTableName { return IngestError(file: path, path: "\(rowTableName) row \(position)", message: message) }
        return IngestError(file: path, line: position, message: message)
    }

    mutating func append(localSecond: Int64, position: Int, values rowValues: [Double], labels rowLabels: [SleepWake?] = []) {
        localSeconds.append(localSecond)
        positions.append(position)
        for c in 0..<values.count { values[c].append(rowValues[c]) }
        for c in 0..<labels.count { labels[c].append(rowLabels[c]) }
    }

    /// The smallest positive step between consecutive rows (the epoch length of a file that does
    /// not state it), or nil with fewer than two distinct times.
    var smallestStepSeconds: Int64? {
        var best: Int64? = nil
        for i in localSeconds.indices.dropFirst() {
            let d = localSeconds[i] - localSeconds[i - 1]
            if d > 0 && d < (best ?? .max) { best = d }
        }
        return best
    }

    /// The regular grid. `epochSeconds` nil: the smallest step between rows.
    func build(format: EpochFileFormat, epochSeconds stated: Int?, options: IngestOptions, statedOffsetSeconds: Int32?,
               metadata: [String: String], warnings initialWarnings: [String] = []) throws(IngestError) -> EpochRecording {
        guard let first = localSeconds.first else {
            throw IngestError(file: path, line: rowTableName == nil ? max(1, positions.last ?? 1) : nil,
                              path: rowTableName.map { "\($0) table" }, message: "no epoch rows: expected at least one row of epoch data")
        }
        // Order first, so that a file going back in time is named as such, not as a bad epoch length.
        try checkTimeOrder()
        let epoch = try epochLength(stated: stated)
        let index = try epochIndices(first: first, epochSeconds: epoch)
        let count = (index.last ?? 0) + 1
        let (columns, labelResult) = gridColumns(index: index, count: count)
        let clock = try EpochClock.resolve(path: path, options: options, statedOffsetSeconds: statedOffsetSeconds,
                                           localSpan: count > 0 ? (first, first + Int64(count * epoch) - 1) : nil)
        var warnings = initialWarnings
        if let w = clock.warning { warnings.append(w) }
        let absent = count - localSeconds.count
        if absent > 0 { warnings.append("\(absent) of \(count) epochs have no row in the file (kept as missing)") }
        return EpochRecording(path: path, format: format, epochSeconds: epoch, firstEpochLocalSecond: first, count: count,
                              timeline: clock.timeline, timeZoneName: clock.source == .assumedUTC ? nil : clock.name, timeZoneSource: clock.source,
                              columns: columns, labelColumns: labelResult, metadata: metadata, absentEpochs: absent,
                              warnings: warnings)
    }

    /// Refuses a row at or before the time of the row before it.
    func checkTimeOrder() throws(IngestError) {
        for i in localSeconds.indices.dropFirst() where localSeconds[i] <= localSeconds[i - 1] {
            let d = localSeconds[i] - localSeconds[i - 1]
            throw error(position: positions[i], d == 0 ? "repeats the time of the previous row: expected one row per epoch"
                                                       : "time goes back \(-d) s: rows must be in time order")
        }
    }

    /// The stated epoch length, else the smallest step between rows.
    func epochLength(stated: Int?) throws(IngestError) -> Int {
        let epoch: Int
        if let stated {
            epoch = stated
        } else if let step = smallestStepSeconds {
            epoch = Int(step)
        } else {
            throw error(position: positions[0], "only one epoch and no stated epoch length: cannot tell the epoch length")
        }
        guard epoch > 0 else { throw error(position: positions[0], "epoch length \(epoch) s: expected a positive number of seconds") }
        return epoch
    }

    /// Each row's epoch on the grid from the first row, refusing rows off the grid and
    /// recordings longer or larger than the limits (a corrupt time must not allocate years).
    func epochIndices(first: Int64, epochSeconds epoch: Int) throws(IngestError) -> [Int] {
        let step = Int64(epoch)
        var index = [Int](repeating: 0, count: localSeconds.count)
        for i in localSeconds.indices.dropFirst() {
            let d = localSeconds[i] - localSeconds[i - 1]
            if d % step != 0 {
                throw error(position: positions[i], "starts \(d) s after the previous row: expected whole \(epoch)-s epochs")
            }
            if localSeconds[i] - first > Self.maximumSpanSeconds {
                throw error(position: positions[i], "lies \((localSeconds[i] - first) / 86_400) days after the first epoch; at most \(Self.maximumSpanSeconds / 86_400) days are accepted (corrupt time?)")
            }
            index[i] = Int((localSeconds[i] - first) / step)
            if index[i] >= Self.maximumEpochs {
                throw error(position: positions[i], "is epoch \(index[i] + 1) of the recording; at most \(Self.maximumEpochs) epochs are accepted (corrupt time?)")
            }
            let columns = max(1, numericColumns.count + labelColumns.count)
            if (index[i] + 1) * columns > Self.maximumCells {
                throw error(position: positions[i], "is epoch \(index[i] + 1) of the recording, with \(columns) columns: "
                            + "more than \(Self.maximumCells) values (epochs × columns) are not accepted (corrupt time, or too many columns?)")
            }
        }
        return index
    }

    /// The columns on the grid of `count` epochs; epochs without a row are NaN (values) or nil (labels).
    func gridColumns(index: [Int], count: Int) -> ([EpochColumn], [EpochLabelColumn]) {
        var columns: [EpochColumn] = []
        for (c, spec) in numericColumns.enumerated() {
            var v = [Double](repeating: .nan, count: count)
            for (i, e) in index.enumerated() { v[e] = values[c][i] }
            let properties = EpochColumnCatalog.properties(of: spec.name)
            columns.append(EpochColumn(name: spec.name, sourceName: spec.sourceName, unit: properties.unit,
                                       reduction: properties.reduction, values: v))
        }
        var labelResult: [EpochLabelColumn] = []
        for (c, spec) in labelColumns.enumerated() {
            var l = [SleepWake?](repeating: nil, count: count)
            for (i, e) in index.enumerated() { l[e] = labels[c][i] }
            labelResult.append(EpochLabelColumn(name: spec.name, sourceName: spec.sourceName, labels: l))
        }
        return (columns, labelResult)
    }
}

/// Units and collapse rules of the columns epoch files carry, by canonical name.
enum EpochColumnCatalog {
    static func properties(of name: String) -> (unit: String, reduction: EpochColumn.Reduction) {
        switch name {
        case "axis1", "axis2", "axis3", "activity": return ("counts", .sum)
        case "vm": return ("counts", .vectorMagnitude)
        case "steps": return ("steps", .sum)
        case "lux": return ("lux", .floorMean)
        case "white_light", "red_light", "green_light", "blue_light": return ("lux", .mean)
        case "inclineoff", "inclinestanding", "inclinesitting", "inclinelying": return ("s", .sum)
        case "enmo": return ("g", .mean)
        case "anglez": return ("degrees", .mean)
        case "hr": return ("bpm", .mean)
        case "marker", "mobility", "off_wrist": return ("epochs", .sum)
        case "light": return ("lux", .mean)
        case "pim", "tat", "zcm": return ("counts", .sum)
        case "pimn", "tatn", "zcmn": return ("counts/s", .mean)
        case "event": return ("events", .sum)
        case "orientation", "state": return ("code", .mean)
        case "temperature", "ext_temperature": return ("°C", .mean)
        case "acc_mg": return ("mg", .mean)
        case "imputed": return ("epochs", .sum)
        // Actiware's interval status: 1 = rest interval (REST, REST-S), 0 = active.
        case "rest_interval": return ("flag", .mean)
        case "met": return ("MET", .mean)
        case let n where n.hasPrefix("state_"): return ("epochs", .sum)
        default: return ("", .sum)
        }
    }
}
