
/// What `sleepsta counts` is asked to do.
public struct CountsRequest: Sendable {
    public var path: String
    public var epochSeconds: Int
    public var trimming: ActiGraphCounts.Trimming
    public var timeZoneIdentifier: String?

    public init(path: String, epochSeconds: Int = 60, trimming: ActiGraphCounts.Trimming = .normal, timeZoneIdentifier: String? = nil) {
        self.path = path; self.epochSeconds = epochSeconds; self.trimming = trimming; self.timeZoneIdentifier = timeZoneIdentifier
    }
}

/// The result of `sleepsta counts`: ActiGraph counts per epoch.
public struct CountsResult: Sendable {
    /// Columns `axis1`, `axis2`, `axis3` (NaN where the source has no such axis) and `vm`.
    public var recording: EpochRecording
    public var notes: [String]


    public func values(_ name: String) -> [Double] {
        recording.column(named: name)?.values ?? [Double](repeating: .nan, count: recording.count)
    }
}

/// `sleepsta counts`: ActiGraph counts from raw samples (``ActiGraphCounts``), or the counts an
/// epoch file already holds (collapsed to the epoch length asked for).
public enum ActivityCountsRun {
    /// The counts of the input `load` reads (after the request is checked).
    public static func run(_ request: CountsRequest, load: () throws -> EpochInput) throws -> CountsResult {
        guard request.epochSeconds >= 1 else { throw EpochCommandError.usage("--epoch must be at least 1 s") }
        switch try load() {
        case .raw(let raw):
            let recording = try raw.countEpochs(epochSeconds: request.epochSeconds, trimming: request.trimming)
            return CountsResult(recording: recording, notes: recording.warnings)
        case .epochs(let file):
            guard file.column(named: "axis1") != nil else {
                throw EpochCommandError.input("\(request.path): no axis1 column: counts need ActiGraph axis counts or raw samples (the file has \(file.columns.map(\.name).joined(separator: ", ")))")
            }
            if request.trimming != .normal {
                throw EpochCommandError.usage("--filter lfe needs raw samples: the file's counts were already computed (filter: \(file.metadata["filter"] ?? "unknown"))")
            }
            var recording = try EpochCommandError.collapsing { () throws(EpochCollapseError) in try file.collapsed(toEpochSeconds: request.epochSeconds) }
            // The vector magnitude of the counts as they are (a file's own VM column may be rounded).
            let axes = ["axis1", "axis2", "axis3"].map { recording.column(named: $0)?.values }
            if let a = axes[0], let b = axes[1], let c = axes[2] {
                let vm = EpochRecording.vectorMagnitude(a, b, c)
                recording.columns.removeAll { $0.name == "vm" }
                recording.columns.append(EpochColumn(name: "vm", sourceName: "vm", unit: "counts", reduction: .vectorMagnitude, values: vm))
            }
            var notes = recording.warnings
            notes.append("counts as the file holds them (\(file.format.rawValue), \(file.epochSeconds)-s epochs\(file.epochSeconds == request.epochSeconds ? "" : ", collapsed to \(request.epochSeconds) s"))")
            return CountsResult(recording: recording, notes: notes)
        }
    }
}
