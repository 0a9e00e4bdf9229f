import Foundation
import SleepCore

/// Reads ActiGraph ActiLife `.agd` epoch files.
///
/// An `.agd` is an SQLite database (ActiLife 6): table `settings` (`settingName`, `settingValue`:
/// `epochlength` in seconds, `devicename`, `deviceserial`, `softwareversion`, `filter` …) and table
/// `data` (`dataTimestamp` = .NET ticks, 100 ns since 0001-01-01 **on the device's local clock**,
/// then one REAL column per quantity: `axis1`, `axis2`, `axis3`, `steps`, `lux`, `inclineOff`,
/// `inclineStanding`, `inclineSitting`, `inclineLying`; older files have fewer).
///
/// Exception to "SQL only in SleepStore": an `.agd` is an *input file* that happens to be SQLite,
/// not sleepsta's store, so it is read here, **read-only** (the file is never written), through
/// SQLite's C API (``AGDDatabase``): four fixed statements do not need GRDB, and without it the
/// readers' module compiles beside GRDB instead of after it. The SQL is fixed text; no name or
/// value from the file becomes part of a statement.
public struct AGDReader: EpochFileReader {
    public static let format = EpochFileFormat.actiGraphAGD
    public init() {}

    static let sqliteMagic: [UInt8] = Array("SQLite format 3".utf8) + [0]
    /// .NET ticks per second and the tick count of 1970-01-01T00:00.
    static let ticksPerSecond: Int64 = 10_000_000
    /// Above this a value cell is damage, not a count, lux or step total of one epoch.
    static let largestPlausibleValue = 1e9
    static let unixEpochTicks: Int64 = 621_355_968_000_000_000
    /// Settings about the subject (not the device): not copied into the metadata.
    static let personalSettings: Set<String> = ["subjectname", "sex", "height", "mass", "age", "race", "dateofbirth"]

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        // The content is checked in read(), so that a damaged .agd gets a clear error instead of
        // "unrecognised format".
        fileName.lowercased().hasSuffix(".agd")
    }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> EpochRecording {
        let head = try FileBytes.head(path: path, count: 100)
        guard head.starts(with: Self.sqliteMagic) else {
            throw IngestError(file: path, byteOffset: 0, message: "not an SQLite database: an ActiGraph .agd file starts with 'SQLite format 3'")
        }
        // Nothing is ever written beside the user's file. SQLite opens a database in WAL mode (the
        // header's bytes 18–19 are 2) with a `-shm` index and a `-wal` log beside it, creates them
        // when they are missing, and a read-only connection cannot remove them when it closes; so
        // such a file, or one that already has a `-wal` beside it, is read from a private copy.
        let walMode = head.count > 19 && (head[18] == 2 || head[19] == 2)
        let copy = walMode || FileManager.default.fileExists(atPath: path + "-wal") ? try PrivateCopy(of: path) : nil
        defer { copy?.remove() }
        do {
            let db = try AGDDatabase(readOnlyPath: copy?.databasePath ?? path)
            return try Self.read(db, path: path, options: options)
        } catch let error as IngestError {
            throw error
        } catch {
            throw IngestError(file: path, message: "cannot read the .agd database: \(error)")
        }
    }

    /// The database and its `-wal` log copied into a private temporary folder, to be opened there.
    struct PrivateCopy {
        let folder: String
        let databasePath: String

        init(of path: String) throws(IngestError) {
            var template = Array((NSTemporaryDirectory() + "/sleepsta-agd-XXXXXX").utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw IngestError(file: path, message: "cannot make a private temporary folder to read this WAL-mode .agd from: \(String(cString: strerror(errno)))")
            }
            folder = String(cString: made)
            databasePath = folder + "/recording.agd"
            do {
                try FileManager.default.copyItem(atPath: path, toPath: databasePath)
                if FileManager.default.fileExists(atPath: path + "-wal") {
                    try FileManager.default.copyItem(atPath: path + "-wal", toPath: databasePath + "-wal")
                }
            } catch {
                try? FileManager.default.removeItem(atPath: folder)
                throw IngestError(file: path, message: "cannot copy this WAL-mode .agd into \(folder) to read it without writing beside it: \(error.localizedDescription)")
            }
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// The recording in an open `.agd` database (`make fuzz` hands it databases made in memory).
    package static func read(_ db: AGDDatabase, path: String, options: IngestOptions) throws -> EpochRecording {
        for table in ["settings", "data"] {
            guard try db.tableExists(table) else {
                throw IngestError(file: path, path: table, message: "no table '\(table)': expected an ActiGraph .agd with tables settings and data")
            }
        }
        var settings: [String: String] = [:]
        try db.forEachRow("SELECT settingName, settingValue FROM settings") { row in
            guard let name = row.text(0) else { return }
            settings[name.lowercased()] = row.text(1) ?? ""
        }
        guard let epochText = settings["epochlength"] else {
            throw IngestError(file: path, path: "settings", message: "no 'epochlength' setting: expected the epoch length in seconds")
        }
        guard let epochSeconds = Int(epochText.trimmingSpaces), epochSeconds > 0 else {
            throw IngestError(file: path, path: "settings.epochlength", message: "epoch length '\(epochText)' is not a positive whole number of seconds")
        }

        let rowsQuery = "SELECT * FROM data ORDER BY rowid"
        let columnNames = try db.columnNames(of: rowsQuery)
        guard let timestampIndex = columnNames.firstIndex(where: { $0.lowercased() == "datatimestamp" }) else {
            throw IngestError(file: path, path: "data", message: "no column 'dataTimestamp': expected .NET ticks per epoch")
        }
        let valueNames = columnNames.enumerated().filter { $0.offset != timestampIndex }.map(\.element)
        guard !valueNames.isEmpty else {
            throw IngestError(file: path, path: "data", message: "no value columns: expected axis1 (and usually axis2, axis3, steps, lux …)")
        }
        var table = EpochRowTable(path: path, rowTableName: "data",
                                  numericColumns: valueNames.map { .init(name: EpochColumnNaming.canonical($0), sourceName: $0) })
        // Columns are read by position from `SELECT *`: a column name from the file never becomes
        // SQL text (a name with a quote in it could otherwise run its own query).
        let valueIndices = columnNames.indices.filter { $0 != timestampIndex }
        var rowNumber = 0
        var values = [Double](repeating: .nan, count: valueNames.count)
        try db.forEachRow(rowsQuery) { row in
            rowNumber += 1
            let ticks: Int64
            switch row.value(timestampIndex) {
            case .integer(let v): ticks = v
            // A column declared REAL stores whole ticks as doubles.
            case .real(let v) where v == v.rounded() && abs(v) < 9.2e18: ticks = Int64(v)
            default: throw table.error(position: rowNumber, "dataTimestamp is empty or not an integer: expected .NET ticks")
            }
            guard ticks % ticksPerSecond == 0 else {
                throw table.error(position: rowNumber, "dataTimestamp \(ticks) is not on a whole second: expected epoch starts in whole seconds")
            }
            // Checked: ticks near Int64.min would overflow the shift to 1970.
            let (sinceUnixEpoch, overflow) = ticks.subtractingReportingOverflow(unixEpochTicks)
            guard !overflow else {
                throw table.error(position: rowNumber, "dataTimestamp \(ticks) lies before year 1: expected .NET ticks")
            }
            let local = sinceUnixEpoch / ticksPerSecond
            for (c, index) in valueIndices.enumerated() {
                // Numbers only: text or a blob in a value cell is a missing value (SQLite would
                // read it as 0), counted as such by the table.
                let value: Double
                switch row.value(index) {
                case .integer(let v): value = Double(v)
                case .real(let v): value = v
                case .other: value = .nan
                }
                if !value.isNaN && !(value.isFinite && abs(value) <= Self.largestPlausibleValue) {
                    throw table.error(position: rowNumber, "\(valueNames[c]) is \(value): expected a finite value up to \(Int(Self.largestPlausibleValue)) per epoch")
                }
                values[c] = value
            }
            table.append(localSecond: local, position: rowNumber, values: values)
        }

        var metadata: [String: String] = [:]
        for (k, v) in settings where !personalSettings.contains(k) { metadata[k] = v }
        var warnings: [String] = []
        if let expected = settings["epochcount"].flatMap({ Int($0.trimmingSpaces) }), expected != rowNumber {
            warnings.append("settings say \(expected) epochs, the data table holds \(rowNumber)")
        }
        return try table.build(format: .actiGraphAGD, epochSeconds: epochSeconds, options: options, statedOffsetSeconds: nil,
                               metadata: metadata, warnings: warnings)
    }
}
