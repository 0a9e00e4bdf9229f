/// A recording's source format: one type for the raw-sample formats and the device software's
/// epoch exports, so that code which follows how another tool reads a file (GGIR's read chunks,
/// its reading of a device clock) asks a type, not a spelled name. The raw value is the name the
/// store, the exports and the pages show; the two families' names never collide.
public enum SourceFormat: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    case samples(SampleFormat)
    case epochs(EpochFileFormat)

    public init?(rawValue: String) {
        if let s = SampleFormat(rawValue: rawValue) { self = .samples(s) }
        else if let e = EpochFileFormat(rawValue: rawValue) { self = .epochs(e) }
        else { return nil }
    }

    public var rawValue: String {
        switch self {
        case .samples(let s): return s.rawValue
        case .epochs(let e): return e.rawValue
        }
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let format = SourceFormat(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown source format '\(text)'"))
        }
        self = format
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    /// Whether GGIR reads the device's clock as wall-clock time across a change of the clocks
    /// (`GGIRread::readAxivity` parses each block's device time in the zone; ``GGIRClockView``).
    /// Only the `.cwa` is known to: the other readers' handling was not measured.
    public var readsDeviceClockAsWallClock: Bool { self == .samples(.axivityCWA) }
}

/// The formats of raw acceleration samples (and the app's exports of them) that Ingest reads.
/// The raw value is what the store and reports show.
public enum SampleFormat: String, Sendable, Codable, CaseIterable {
    /// `timestamp,x,y,z` raw samples in g (docs/formats.md).
    case rawCSV = "raw-csv"
    /// The Sleepsta app's JSON export: nights of interval motion totals with surveys.
    case appJSON = "sleepsta-app-json"
    /// SensorLog (iOS) CSV: CoreMotion columns such as `motionUserAccelerationX(G)`, `loggingTime(txt)`.
    case sensorLogCSV = "sensorlog-csv"
    /// Sensor Logger (iOS/Android) `Accelerometer.csv` / `TotalAcceleration.csv`: `time` in ns, m/s².
    case sensorLoggerCSV = "sensor-logger-csv"
    /// Sleep as Android `sleep-export.csv`: per-record header, actigraphy per time bin, events.
    case sleepAsAndroidCSV = "sleep-as-android-csv"
    /// Raw CSV of a formatted local time, x, y, z in g and further columns (GGIR's raw CSV, AX6 exports).
    case wideRawCSV = "raw-csv-extra-columns"
    /// ActiGraph `.gt3x` (zip with `info.txt` and `log.bin`).
    case actiGraphGT3X = "actigraph-gt3x"
    /// ActiLife raw CSV export (`------------ Data File Created By ActiGraph …`, epoch period 00:00:00).
    case actiLifeRawCSV = "actilife-raw-csv"
    /// Axivity AX3/AX6 `.cwa` (512-byte blocks).
    case axivityCWA = "axivity-cwa"
    /// GENEActiv `.bin` (text pages with hex-packed 12-bit samples).
    case geneActivBin = "geneactiv-bin"
}

