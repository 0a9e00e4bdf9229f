
extension EpochRecording {
    /// The recording on longer epochs, as ActiLife re-integrates them (``EpochCollapse``): output
    /// epochs aligned on the local clock (whole minutes for 60 s), each input epoch in the output
    /// epoch containing its start, incomplete first and last output epochs kept.
    ///
    /// Per column: sums for counts, steps and inclinometer seconds; `floor(mean)` for ActiLife lux;
    /// the mean of the present epochs for averages (ENMO, angle-z, heart rate, Actiware light);
    /// vector magnitude recomputed from the collapsed axes. The file's own sleep/wake labels belong
    /// to the original epochs and are dropped.
    public func collapsed(toEpochSeconds output: Int) throws(EpochCollapseError) -> EpochRecording {
        if output == epochSeconds { return self }
        guard output > epochSeconds, output % epochSeconds == 0 else {
            throw EpochCollapseError(inputEpochSeconds: epochSeconds, outputEpochSeconds: output)
        }
        func run(_ values: [Double], _ reduction: EpochCollapse.Reduction) -> EpochCollapse.Result {
            EpochCollapse.collapse(columns: [values], reductions: [reduction], inputEpochSeconds: epochSeconds,
                                   outputEpochSeconds: output, firstEpochStartSeconds: firstEpochLocalSecond)!
        }
        // Inputs present per output epoch (any column with a value marks the input epoch present).
        let presence = (0..<count).map { i in columns.contains { !$0.values[i].isNaN } ? 1.0 : Double.nan }
        let frame = run(presence, .sum)
        var result: [EpochColumn] = []
        for column in columns {
            var collapsed = column
            switch column.reduction {
            case .sum:
                collapsed.values = run(column.values, .sum).columns[0]
            case .floorMean:
                collapsed.values = run(column.values, .floorMean).columns[0]
            case .mean:
                let sums = run(column.values, .sum).columns[0]
                let present = run(column.values.map { $0.isNaN ? .nan : 1 }, .sum).columns[0]
                collapsed.values = zip(sums, present).map { $1 > 0 ? $0 / $1 : .nan }
            case .vectorMagnitude:
                collapsed.values = []   // filled below from the collapsed axes
            }
            result.append(collapsed)
        }
        let axes = ["axis1", "axis2", "axis3"].compactMap { name in result.first { $0.name == name }?.values }
        for c in result.indices where result[c].reduction == .vectorMagnitude {
            result[c].values = axes.count == 3 ? EpochRecording.vectorMagnitude(axes[0], axes[1], axes[2])
                : [Double](repeating: .nan, count: frame.columns[0].count)
        }
        var copy = self
        copy.epochSeconds = output
        copy.firstEpochLocalSecond = frame.firstOutputStartSeconds
        copy.count = frame.columns[0].count
        copy.columns = result
        copy.absentEpochs = frame.columns[0].filter(\.isNaN).count
        if !labelColumns.isEmpty {
            copy.warnings.append("the file's own sleep/wake labels (\(labelColumns.map(\.sourceName).joined(separator: ", "))) belong to its \(epochSeconds)-s epochs and are not carried to \(output)-s epochs")
        }
        copy.labelColumns = []
        return copy
    }

    /// √(a² + b² + c²) per epoch (ActiLife's vector magnitude); NaN where an axis is missing.
    public static func vectorMagnitude(_ a: [Double], _ b: [Double], _ c: [Double]) -> [Double] {
        var out = [Double](repeating: .nan, count: a.count)
        for i in 0..<a.count {
            let sum: Double = a[i] * a[i] + b[i] * b[i] + c[i] * c[i]
            out[i] = sum.squareRoot()
        }
        return out
    }
}

/// Epochs can only be collapsed into longer epochs made of whole input epochs.
public struct EpochCollapseError: Error, Equatable, CustomStringConvertible {
    public var inputEpochSeconds: Int
    public var outputEpochSeconds: Int

    public var description: String {
        "\(inputEpochSeconds)-s epochs cannot be collapsed to \(outputEpochSeconds) s: the length must be a multiple of \(inputEpochSeconds) s, at least \(inputEpochSeconds) s"
    }
}

extension EpochCommandError {
    /// `body`'s collapse, its error said as `--epoch` asking for a length the file's epochs cannot
    /// be collapsed to.
    static func collapsing<T>(_ body: () throws(EpochCollapseError) -> T) throws(EpochCommandError) -> T {
        do { return try body() } catch let e {
            throw .usage("the file has \(e.inputEpochSeconds)-s epochs: --epoch must be a multiple of \(e.inputEpochSeconds) s, at least \(e.inputEpochSeconds) s (got \(e.outputEpochSeconds) s)")
        }
    }
}
