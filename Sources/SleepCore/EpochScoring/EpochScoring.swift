
/// The sleep/wake algorithms of `sleepsta score` (the names are the command-line contract).
public enum ScoringAlgorithm: String, Sendable, CaseIterable {
    case coleKripke = "cole-kripke"
    case sadeh = "sadeh"
    case oakley = "oakley"
    case scripps = "scripps"
    case vanHees2015 = "van-hees-2015"

    /// The command-line names of the variants, first = default.
    public var variantNames: [String] {
        switch self {
        case .coleKripke: return ColeKripke.Variant.allCases.map { ScoringVariantName.cli($0.rawValue) }
        case .sadeh: return Sadeh.Variant.allCases.map { ScoringVariantName.cli($0.rawValue) }
        case .oakley: return Oakley.Variant.allCases.map { ScoringVariantName.cli($0.rawValue) }
        case .scripps: return Scripps.Variant.allCases.map { ScoringVariantName.cli($0.rawValue) }
        case .vanHees2015: return ["ggir"]
        }
    }

    /// The activity column used when `--column` is not given, in order of preference.
    var defaultColumns: [String] {
        switch self {
        case .coleKripke, .sadeh: return ["axis1", "activity"]
        case .oakley, .scripps: return ["activity", "axis1"]
        case .vanHees2015: return ["anglez"]
        }
    }

    /// The epoch length the algorithm is defined on, if fixed.
    var requiredEpochSeconds: Int? {
        switch self {
        case .coleKripke, .sadeh: return 60
        default: return nil
        }
    }
}

/// Command-line spellings of the SleepCore variant enums: `maxOverlapping10s1992` is written
/// `max-overlapping-10s-1992`, `pyActigraphy` `pyactigraphy`. Matching ignores case, `-` and `_`,
/// so the Swift spelling is accepted too.
public enum ScoringVariantName {
    public static func cli(_ rawValue: String) -> String {
        var out = ""
        var previous: Character? = nil
        for ch in rawValue.replacing("pyActigraphy", with: "pyactigraphy") {
            if let p = previous, (ch.isUppercase && p.isLowercase) || (ch.isNumber && p.isLetter) { out += "-" }
            out.append(Character(ch.lowercased()))
            previous = ch
        }
        return out
    }

    static func normalized(_ text: String) -> String {
        text.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " }
    }

    static func match<V: RawRepresentable & CaseIterable>(_ text: String?, _ type: V.Type, algorithm: ScoringAlgorithm,
                                                          default fallback: V) throws(EpochCommandError) -> V where V.RawValue == String {
        guard let text else { return fallback }
        if let v = V.allCases.first(where: { normalized($0.rawValue) == normalized(text) }) { return v }
        throw .usage("--variant '\(text)' is not a variant of \(algorithm.rawValue): use \(algorithm.variantNames.joined(separator: ", "))")
    }
}

/// What `sleepsta score` is asked to do.
public struct ScoreRequest: Sendable {
    public var path: String
    public var algorithm: ScoringAlgorithm
    /// A variant name (``ScoringAlgorithm/variantNames``); nil = the default (the device software's).
    public var variant: String?
    /// Webster's rescoring after Cole–Kripke: `webster` or `pyactigraphy`; nil = none (ActiLife).
    public var rescore: String?
    /// Epoch length to score; finer epochs are collapsed (ActiLife's rules). nil = the algorithm's
    /// (60 s for Cole–Kripke and Sadeh), else the file's (raw samples: 60 s; van Hees: 5 s).
    public var epochSeconds: Int?
    /// Oakley's wake threshold: a number of counts or `low`, `medium`, `high`, `auto`. nil = medium (40).
    public var threshold: String?
    /// Activity column of a multi-column epoch file; nil = `axis1` for Cole–Kripke/Sadeh, `activity`
    /// (Actiwatch) else `axis1` for Oakley/Scripps, `anglez` for van Hees.
    public var column: String?
    public var timeZoneIdentifier: String?

    public init(path: String, algorithm: ScoringAlgorithm, variant: String? = nil, rescore: String? = nil,
                epochSeconds: Int? = nil, threshold: String? = nil, column: String? = nil, timeZoneIdentifier: String? = nil) {
        self.path = path; self.algorithm = algorithm; self.variant = variant; self.rescore = rescore
        self.epochSeconds = epochSeconds; self.threshold = threshold; self.column = column
        self.timeZoneIdentifier = timeZoneIdentifier
    }
}

/// One scored epoch.
public struct ScoreRow: Sendable, Equatable {
    public var startUTC: Int64
    /// The input value (counts, or degrees for van Hees); NaN = missing.
    public var activity: Double
    /// The algorithm's index where it has one (Cole–Kripke D, Sadeh PS, Oakley's activity score); NaN otherwise.
    public var score: Double
    /// nil = not scored (missing input, or an edge the variant leaves unscored).
    public var state: SleepWake?
    /// The file's own label for this epoch (ActiLife's or Actiware's scoring), if it has one.
    public var fileState: SleepWake?
}

/// The result of `sleepsta score`.
public struct ScoreResult: Sendable {
    public var recording: EpochRecording
    public var algorithm: ScoringAlgorithm
    /// The activity column scored (canonical name).
    public var columnName: String
    /// The variant used (command-line name).
    public var variantName: String
    public var epochs: [ScoreRow]
    /// Name of the file's label column carried as `file_state`, if any.
    public var fileStateColumn: String?
    /// Facts worth telling the user on stderr.
    public var notes: [String]
}

/// `sleepsta score`: read, collapse, score.
public enum EpochScoring {
    /// Scores the input `load` reads (the file of ``ScoreRequest/path``; SleepPipeline passes the reader).
    public static func run(_ request: ScoreRequest, load: () throws -> EpochInput) throws -> ScoreResult {
        try score(load(), request)
    }

    /// Scores an already loaded input (``SleepPeriodsRun`` reuses this).
    public static func score(_ input: EpochInput, _ request: ScoreRequest) throws -> ScoreResult {
        let algorithm = request.algorithm
        // Cole et al. 1992's maximum variants are defined on the largest 10-s (or 30-s) epoch of each
        // minute: scored per minute, from finer epochs reduced by their maximum (see perMinuteMaximum).
        let maximumEpoch = algorithm == .coleKripke
            ? (try? ScoringVariantName.match(request.variant, ColeKripke.Variant.self, algorithm: algorithm, default: .actilife))
            : nil
        try checkOptions(request, maximumEpoch: maximumEpoch)
        var notes: [String] = []
        let recording = try epochRecording(input, request, maximumEpoch: maximumEpoch, notes: &notes)
        notes += recording.warnings

        let column = try pickColumn(recording, request: request)
        var counts = column.values
        if let variant = maximumEpoch, let reduced = variant.maximumEpochSeconds, case .epochs(let file) = input, file.epochSeconds < 60 {
            counts = try perMinuteMaximum(file, column: try pickColumn(file, request: request), reduced: reduced,
                                          overlapping: variant == .maxOverlapping10s1992, minutes: recording, notes: &notes)
        }
        var scored = try apply(algorithm, to: counts, epochSeconds: recording.epochSeconds, request: request, notes: &notes)
        for i in scored.scores.indices where scored.labels[i] == nil { scored.scores[i] = .nan }

        let fileLabels = recording.labelColumns.first
        let starts = recording.epochStartsUTC
        let epochs = (0..<recording.count).map { i in
            ScoreRow(startUTC: starts[i], activity: counts[i], score: scored.scores[i], state: scored.labels[i], fileState: fileLabels?.labels[i])
        }
        return ScoreResult(recording: recording, algorithm: algorithm, columnName: column.name, variantName: scored.variantName,
                           epochs: epochs, fileStateColumn: fileLabels?.name, notes: notes)
    }

    /// Refuses options the algorithm does not take: another epoch length than the one it is
    /// defined on (a maximum variant's reduced epoch aside), a threshold other than Oakley's,
    /// rescoring other than after Cole–Kripke.
    static func checkOptions(_ request: ScoreRequest, maximumEpoch: ColeKripke.Variant?) throws(EpochCommandError) {
        let algorithm = request.algorithm
        if let required = algorithm.requiredEpochSeconds, let asked = request.epochSeconds, asked != required,
           !(maximumEpoch?.maximumEpochSeconds != nil && asked == maximumEpoch?.maximumEpochSeconds) {
            throw EpochCommandError.usage("\(algorithm.rawValue) scores \(required)-s epochs: use --epoch \(required)s (finer epochs are collapsed to it)")
        }
        if request.threshold != nil && algorithm != .oakley {
            throw EpochCommandError.usage("--threshold applies to oakley only (its wake threshold in counts, or low/medium/high/auto)")
        }
        if request.rescore != nil && algorithm != .coleKripke {
            throw EpochCommandError.usage("--rescore applies to cole-kripke only (Webster's rules)")
        }
    }

    /// The epochs to score: an epoch file collapsed to the epoch length scored, or epochs computed
    /// from raw samples (angle-z for van Hees, ActiGraph counts otherwise).
    static func epochRecording(_ input: EpochInput, _ request: ScoreRequest, maximumEpoch: ColeKripke.Variant?,
                               notes: inout [String]) throws -> EpochRecording {
        let algorithm = request.algorithm
        switch input {
        case .epochs(let file):
            let target = (maximumEpoch?.maximumEpochSeconds != nil ? 60 : nil) ?? request.epochSeconds ?? algorithm.requiredEpochSeconds ?? file.epochSeconds
            return try EpochCommandError.collapsing { () throws(EpochCollapseError) in try file.collapsed(toEpochSeconds: target) }
        case .raw(let raw):
            if algorithm == .vanHees2015 {
                return try raw.angleZEpochs(epochSeconds: request.epochSeconds ?? 5)
            }
            let recording = try raw.countEpochs(epochSeconds: request.epochSeconds ?? algorithm.requiredEpochSeconds ?? 60)
            notes.append("scored on ActiGraph counts computed from the raw samples (\(recording.metadata["original sample rate"] ?? "?") Hz)")
            if algorithm == .oakley {
                notes.append("Oakley's thresholds are in Actiwatch counts; ActiGraph counts are on another scale, so the result is not Actiware's")
            }
            return recording
        }
    }

    /// One algorithm's output: a state per epoch (nil = not scored), its index per epoch (NaN
    /// where it has none) and the variant's command-line name.
    struct Scored {
        var labels: [SleepWake?]
        var scores: [Double]
        var variantName: String
    }

    /// Runs the requested algorithm and variant on the activity values.
    static func apply(_ algorithm: ScoringAlgorithm, to counts: [Double], epochSeconds: Int, request: ScoreRequest,
                      notes: inout [String]) throws(EpochCommandError) -> Scored {
        switch algorithm {
        case .coleKripke:
            return try coleKripke(counts, request: request)
        case .sadeh:
            let variant = try ScoringVariantName.match(request.variant, Sadeh.Variant.self, algorithm: algorithm, default: .actilife)
            return Scored(labels: Sadeh.score(countsPerEpoch: counts, variant: variant),
                          scores: Sadeh.index(countsPerEpoch: counts, variant: variant),
                          variantName: ScoringVariantName.cli(variant.rawValue))
        case .oakley:
            return try oakley(counts, epochSeconds: epochSeconds, request: request)
        case .scripps:
            let variant = try ScoringVariantName.match(request.variant, Scripps.Variant.self, algorithm: algorithm, default: .zeroPadded)
            return Scored(labels: Scripps.score(countsPerEpoch: counts, variant: variant),
                          scores: [Double](repeating: .nan, count: counts.count),
                          variantName: ScoringVariantName.cli(variant.rawValue))
        case .vanHees2015:
            if let v = request.variant, ScoringVariantName.normalized(v) != "ggir" {
                throw EpochCommandError.usage("--variant '\(v)' is not a variant of van-hees-2015: use ggir")
            }
            // GGIR leaves no angle missing; a missing angle never makes a posture change and is not scored here.
            let sib = VanHees2015.score(angleZDegrees: counts, epochSeconds: Double(epochSeconds))
            if epochSeconds != 5 { notes.append("van Hees 2015 is defined on 5-s epochs (GGIR); scoring \(epochSeconds)-s epochs") }
            return Scored(labels: zip(sib, counts).map { $1.isNaN ? nil : $0 },
                          scores: [Double](repeating: .nan, count: counts.count), variantName: "ggir")
        }
    }

    /// Cole–Kripke, with Webster's rescoring when asked.
    static func coleKripke(_ counts: [Double], request: ScoreRequest) throws(EpochCommandError) -> Scored {
        let variant = try ScoringVariantName.match(request.variant, ColeKripke.Variant.self, algorithm: .coleKripke, default: .actilife)
        var rescoring: WebsterRescoring.Variant? = nil
        if let r = request.rescore {
            guard let v = WebsterRescoring.Variant.allCases.first(where: { ScoringVariantName.normalized($0.rawValue) == ScoringVariantName.normalized(r) }) else {
                throw EpochCommandError.usage("--rescore '\(r)': use webster or pyactigraphy")
            }
            rescoring = v
        }
        return Scored(labels: ColeKripke.score(countsPerEpoch: counts, variant: variant, rescoring: rescoring),
                      scores: ColeKripke.index(countsPerEpoch: counts, variant: variant),
                      variantName: ScoringVariantName.cli(variant.rawValue) + (rescoring.map { "+rescore-\(ScoringVariantName.cli($0.rawValue))" } ?? ""))
    }

    /// Oakley (Actiware), on the epoch lengths it is defined on.
    static func oakley(_ counts: [Double], epochSeconds: Int, request: ScoreRequest) throws(EpochCommandError) -> Scored {
        let variant = try ScoringVariantName.match(request.variant, Oakley.Variant.self, algorithm: .oakley, default: .actiware)
        guard Oakley.supportedEpochSeconds.contains(epochSeconds) else {
            throw EpochCommandError.usage("oakley is defined on 15-, 30-, 60- and 120-s epochs; the data has \(epochSeconds)-s epochs: use --epoch 30s or 60s")
        }
        let threshold = try oakleyThreshold(request.threshold)
        if threshold == .automatic,
           Oakley.automaticThreshold(countsPerEpoch: counts, epochSeconds: epochSeconds) == nil {
            throw EpochCommandError.input("--threshold auto: no epoch is mobile, Actiware's automatic threshold is undefined")
        }
        return Scored(labels: Oakley.score(countsPerEpoch: counts, epochSeconds: epochSeconds, threshold: threshold, variant: variant),
                      scores: Oakley.activityScores(countsPerEpoch: counts, epochSeconds: epochSeconds),
                      variantName: ScoringVariantName.cli(variant.rawValue))
    }

    /// The per-minute activity Cole et al. 1992 define their maximum variants on: the file's epochs
    /// summed to `reduced`-second epochs (10 or 30 s), then the largest of them in each minute, on
    /// the same minutes as `minutes` (the file collapsed to 60 s). The paper's overlapping 10-s
    /// epochs slide by the Actillume's 2-s samples, which an epoch file does not hold: the
    /// overlapping variant's weights are applied to the non-overlapping maximum, and a note says so.
    static func perMinuteMaximum(_ file: EpochRecording, column: EpochColumn, reduced: Int, overlapping: Bool, minutes: EpochRecording,
                                 notes: inout [String]) throws(EpochCommandError) -> [Double] {
        let e = file.epochSeconds
        guard reduced % e == 0 else {
            throw .usage("this variant takes the maximum \(reduced)-s epoch of each minute; the file's \(e)-s epochs do not divide \(reduced) s")
        }
        let per = reduced / e
        var windows: [Double] = []
        var starts: Int64 = file.firstEpochLocalSecond
        if per == 1 {
            windows = column.values
        } else if let sums = EpochCollapse.collapse(column.values, reduction: .sum, inputEpochSeconds: e, outputEpochSeconds: reduced,
                                                    firstEpochStartSeconds: file.firstEpochLocalSecond) {
            windows = sums
            starts = file.firstEpochLocalSecond - ((file.firstEpochLocalSecond % Int64(reduced)) + Int64(reduced)) % Int64(reduced)
        }
        guard let maxima = EpochCollapse.collapse(windows, reduction: .maximum, inputEpochSeconds: reduced, outputEpochSeconds: 60,
                                                  firstEpochStartSeconds: starts),
              maxima.count == minutes.count else {
            throw .input("cannot reduce \(e)-s epochs to the maximum \(reduced)-s epoch per minute")
        }
        notes.append("\(e)-s epochs reduced as Cole et al. 1992 define this variant: the largest \(reduced)-s epoch of each minute"
                     + (overlapping ? " (the paper's overlapping epochs slide by 2-s samples, which this file does not hold: non-overlapping ones are used)" : ""))
        return maxima
    }

    static func pickColumn(_ recording: EpochRecording, request: ScoreRequest) throws(EpochCommandError) -> EpochColumn {
        let available = recording.columns.map(\.name).joined(separator: ", ")
        if let name = request.column {
            guard let c = recording.column(named: name) else {
                throw .usage("--column '\(name)': the data has no such column; it has \(available)")
            }
            return c
        }
        for name in request.algorithm.defaultColumns {
            if let c = recording.column(named: name) { return c }
        }
        if request.algorithm == .vanHees2015 {
            throw .input("van-hees-2015 needs angle-z: give raw samples, or an epoch file with an anglez column (this one has \(available))")
        }
        throw .input("no \(request.algorithm.defaultColumns.joined(separator: " or ")) column: pick the activity column with --column (the data has \(available))")
    }

    package static func oakleyThreshold(_ text: String?) throws(EpochCommandError) -> Oakley.WakeThreshold {
        guard let text else { return .medium }
        switch text.lowercased() {
        case "low": return .low
        case "medium": return .medium
        case "high": return .high
        case "auto", "automatic": return .automatic
        default:
            guard let v = Double(text), v.isFinite, v >= 0 else {
                throw .usage("--wake-threshold '\(text)': expected counts of 0 or more (e.g. 40) or low (20), medium (40), high (80), auto")
            }
            switch v {
            case 20: return .low
            case 40: return .medium
            case 80: return .high
            default: return .counts(v)
            }
        }
    }
}
