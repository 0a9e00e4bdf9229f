
/// Formats that hold activity already reduced to one value per epoch by device software
/// (ActiLife, Actiware) or by a data set's authors, as opposed to raw acceleration samples.
public enum EpochFileFormat: String, Sendable, Codable, CaseIterable {
    /// ActiGraph ActiLife `.agd` (an SQLite database: tables `data`, `settings`).
    case actiGraphAGD = "actigraph-agd"
    /// ActiLife epoch CSV: the export with the `------------ Data File Created By ActiGraph …`
    /// header block, the `Date,Time,Axis1,…` export, or plain `timestamp,axis1,axis2,axis3,…`.
    case actiLifeCSV = "actilife-epoch-csv"
    /// Philips Respironics Actiware 5 export (sections, epoch-by-epoch table), any language.
    case actiwareCSV = "actiware-csv"
    /// QUT Apple Watch / Actiwatch data set: `timestamp,Actiwatch activity counts,Actiware classification,Apple Watch ENMO`.
    case qutEpochCSV = "qut-epoch-csv"
    /// MMASH `Actigraph.csv`: 1-s ActiGraph counts with a day number and a clock time.
    case mmashActigraphCSV = "mmash-actigraph-csv"
    /// CamNtech / Philips Actiwatch `.AWD`: 7 header lines, then one activity count per epoch.
    case actiwatchAWD = "actiwatch-awd"
    /// CamNtech MotionWatch `.mtn` (an XML change log with `motion` and `Light` channels).
    case motionWatchMTN = "motionwatch-mtn"
    /// UK Biobank 5-s epoch CSV (`acceleration (mg) - START - END - sampleRate = 5 seconds,imputed`).
    case ukBiobankEpochCSV = "ukbiobank-epoch-csv"
    /// biobankAccelerometerAnalysis time series (`time,acc,…` with `+0100 [Europe/London]` times, `-timeSeries.csv.gz`).
    case bbaTimeSeries = "bba-timeseries-csv"
    /// Condor Instruments ActTrust export (`+--- Condor Instruments Report ---+`, `;`-separated PIM/TAT/ZCM).
    case actTrust = "condor-acttrust"
    /// Epochs computed by sleepsta from raw samples (ActiGraph counts, angle-z).
    case derivedFromRawSamples = "raw-samples"
}

/// One numeric quantity per epoch.
public struct EpochColumn: Sendable, Equatable {
    /// How a column combines when epochs are collapsed into longer ones (ActiLife's rules for
    /// its columns; a mean for quantities that are averages over the epoch).
    public enum Reduction: String, Sendable, Equatable {
        /// Counts, steps, inclinometer seconds, Actiwatch activity.
        case sum
        /// ActiLife's lux: mean of the present epochs, rounded down.
        case floorMean
        /// Averages (ENMO, angle-z, heart rate, Actiware light).
        case mean
        /// √(axis1² + axis2² + axis3²) of the collapsed axes (ActiLife's VM).
        case vectorMagnitude
    }

    /// Canonical name (`axis1`, `vm`, `steps`, `lux`, `activity`, `enmo`, `anglez` …): lowercase,
    /// words joined by `_`. `--column` matches it or the file's own spelling.
    public var name: String
    /// The column title as the file spells it.
    public var sourceName: String
    /// Unit of the values (`counts`, `lux`, `g`, `degrees`, `bpm`, `s` …).
    public var unit: String
    public var reduction: Reduction
    /// One value per epoch; `Double.nan` = missing.
    public var values: [Double]

    public init(name: String, sourceName: String, unit: String, reduction: Reduction, values: [Double]) {
        self.name = name; self.sourceName = sourceName; self.unit = unit; self.reduction = reduction; self.values = values
    }
}

/// Sleep/wake labels that the file carries (ActiLife's or Actiware's own scoring), kept so that
/// they can be compared with sleepsta's.
public struct EpochLabelColumn: Sendable, Equatable {
    public var name: String
    public var sourceName: String
    /// One label per epoch; nil where the file gives none.
    public var labels: [SleepWake?]

    public init(name: String, sourceName: String, labels: [SleepWake?]) {
        self.name = name; self.sourceName = sourceName; self.labels = labels
    }
}

/// An epoch file as a regular grid of epochs.
///
/// Time: ActiLife and Actiware write the device's local clock. Epochs lie on a regular grid of
/// that clock from ``firstEpochLocalSecond``; rows a file leaves out (MMASH drops seconds) are
/// epochs whose values are NaN. The device clock runs on without DST jumps, so the UTC start of
/// epoch i is the first epoch's UTC start + i × ``epochSeconds``; ``timeline`` turns UTC back into
/// the local clock for output. Where the file states no offset and no `--tz` is given, the local
/// clock is used as is (offset 0, ``timeZoneSource`` = `.assumedUTC`) and times are printed
/// without an offset.
public struct EpochRecording: Sendable {
    public var path: String
    public var format: EpochFileFormat
    public var epochSeconds: Int
    /// Start of the first epoch on the recording's local clock (seconds since 1970-01-01T00:00 local).
    public var firstEpochLocalSecond: Int64
    /// Sub-second part of every epoch start (only for epochs derived from raw samples that begin
    /// mid-second; 0 for files).
    public var startFractionSeconds: Double
    public var count: Int
    public var timeline: UTCOffsetTimeline
    public var timeZoneName: String?
    public var timeZoneSource: TimeZoneSource
    public var columns: [EpochColumn]
    public var labelColumns: [EpochLabelColumn]
    /// Device and settings facts as the file states them (device, serial, software, filter …).
    public var metadata: [String: String]
    /// Epochs inside the recording for which the file has no row.
    public var absentEpochs: Int
    public var warnings: [String]
    /// An Actiware export's analysis inputs and own intervals (``ActiwareIntervals``); nil for other files.
    public var actiware: ActiwareFileAnalysis? = nil

    public init(path: String, format: EpochFileFormat, epochSeconds: Int, firstEpochLocalSecond: Int64,
                startFractionSeconds: Double = 0, count: Int, timeline: UTCOffsetTimeline, timeZoneName: String?,
                timeZoneSource: TimeZoneSource, columns: [EpochColumn], labelColumns: [EpochLabelColumn] = [],
                metadata: [String: String] = [:], absentEpochs: Int = 0, warnings: [String] = []) {
        self.path = path; self.format = format; self.epochSeconds = epochSeconds
        self.firstEpochLocalSecond = firstEpochLocalSecond; self.startFractionSeconds = startFractionSeconds
        self.count = count; self.timeline = timeline; self.timeZoneName = timeZoneName
        self.timeZoneSource = timeZoneSource; self.columns = columns; self.labelColumns = labelColumns
        self.metadata = metadata; self.absentEpochs = absentEpochs; self.warnings = warnings
    }

    /// UTC second at which the first epoch starts.
    public var firstEpochStartUTC: Int64 { timeline.utcSecond(atLocal: firstEpochLocalSecond) }

    /// UTC start of epoch `i` (whole seconds; add ``startFractionSeconds`` for the exact instant).
    public func startUTC(ofEpoch i: Int) -> Int64 { firstEpochStartUTC + Int64(i) * Int64(epochSeconds) }

    /// UTC start of every epoch.
    public var epochStartsUTC: [Int64] {
        let first = firstEpochStartUTC, step = Int64(epochSeconds)
        return (0..<count).map { first + Int64($0) * step }
    }

    /// Whether output times carry a UTC offset: only when one is known (`--tz` or the file).
    public var hasKnownOffset: Bool { timeZoneSource != .assumedUTC }

    /// The column with this canonical name or this source spelling (case and punctuation ignored).
    public func column(named name: String) -> EpochColumn? {
        let wanted = EpochColumnNaming.canonical(name)
        return columns.first { $0.name == wanted } ?? columns.first { EpochColumnNaming.canonical($0.sourceName) == wanted }
    }

    /// The label column with this canonical name or source spelling.
    public func labelColumn(named name: String) -> EpochLabelColumn? {
        let wanted = EpochColumnNaming.canonical(name)
        return labelColumns.first { $0.name == wanted } ?? labelColumns.first { EpochColumnNaming.canonical($0.sourceName) == wanted }
    }
}

/// Canonical column names: lowercase ASCII letters and digits, other runs joined by `_`, plus the
/// aliases of the field (ActiLife's `Vector Magnitude`/`VM`, `Inclinometer Off`/`inclineOff` …).
public enum EpochColumnNaming {
    public static func canonical(_ text: String) -> String {
        var out = ""
        var pendingSeparator = false
        for scalar in text.lowercased().unicodeScalars {
            let folded = fold(scalar)
            if let folded {
                if pendingSeparator && !out.isEmpty { out += "_" }
                pendingSeparator = false
                out.unicodeScalars.append(folded)
            } else {
                pendingSeparator = true
            }
        }
        return aliases[out] ?? out
    }

    /// ASCII letter or digit for a scalar, folding the accents of French and German titles.
    private static func fold(_ s: Unicode.Scalar) -> Unicode.Scalar? {
        switch s {
        case "a"..."z", "0"..."9": return s
        case "à", "â", "ä", "á": return "a"
        case "é", "è", "ê", "ë": return "e"
        case "î", "ï", "í": return "i"
        case "ô", "ö", "ó": return "o"
        case "ù", "û", "ü", "ú": return "u"
        case "ç": return "c"
        case "ß": return "s"
        default: return nil
        }
    }

    static let aliases: [String: String] = [
        "vector_magnitude": "vm",
        "inclinometer_off": "inclineoff", "incline_off": "inclineoff",
        "inclinometer_standing": "inclinestanding", "incline_standing": "inclinestanding",
        "inclinometer_sitting": "inclinesitting", "incline_sitting": "inclinesitting",
        "inclinometer_lying": "inclinelying", "incline_lying": "inclinelying",
        "axis_1": "axis1", "axis_2": "axis2", "axis_3": "axis3",
        "angle_z": "anglez",
    ]
}
