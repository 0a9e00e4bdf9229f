import Foundation
import Logging
import SleepCore
import SleepPipeline
import SleepStore

/// A temporary data folder, database and reports folder for end-to-end runs.
final class CompareWorkspace {
    let root = NSTemporaryDirectory() + "sleepsta-compare-\(UUID().uuidString)"
    var data: String { root + "/Data" }
    var db: String { root + "/db.sqlite" }
    var reports: String { root + "/Reports" }

    init() { try! FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: root) }

    func write(_ name: String, _ text: String) {
        precondition(FileManager.default.createFile(atPath: data + "/" + name, contents: Data(text.utf8)))
    }

    /// Synthetic nights (see ``SyntheticNight``), one 1 Hz CSV each.
    func writeNights(seeds: [UInt64], prefix: String = "phone") {
        for (k, seed) in seeds.enumerated() {
            write("\(prefix)-\(k + 1).csv", SyntheticNight(seed: seed, evening: 10 + k).csv)
        }
    }

    static var quietLogger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    @discardableResult
    func run(interval: IntervalLength = .tenMinutes, command: String = "run") throws -> RunSummary {
        var p = AnalysisParameters()
        p.interval = interval
        return try Pipeline(configuration: PipelineConfiguration(dataDirectory: data, databasePath: db, reportsDirectory: reports,
                                                                 parameters: p, timeZoneIdentifier: "Europe/Berlin", command: command),
                            logger: Self.quietLogger).run()
    }

    @discardableResult
    func compare(_ lengths: [IntervalLength] = [.tenMinutes, .fifteenMinutes], nights: [String] = []) throws -> CompareSummary {
        try IntervalComparisonRun(configuration: CompareConfiguration(databasePath: db, reportsDirectory: reports, lengths: lengths,
                                                                      nightSelectors: nights),
                                  logger: Self.quietLogger).run()
    }

    func export(_ table: ExportTable, interval: IntervalLength? = nil, analysis: AnalysisSelection = .current) throws -> [[String]] {
        let path = root + "/export-\(table.rawValue).csv"
        try Exporter(configuration: ExportConfiguration(databasePath: db, table: table, interval: interval, analysis: analysis,
                                                        outputPath: path)).run()
        return RFC4180.parse(try String(contentsOfFile: path, encoding: .utf8))
    }

    /// Every report file with its bytes and modification time.
    func reportFiles() throws -> [String: (Data, Date)] {
        var result: [String: (Data, Date)] = [:]
        let walker = FileManager.default.enumerator(atPath: reports)!
        while let item = walker.nextObject() as? String {
            let p = reports + "/" + item
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: p, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let date = try FileManager.default.attributesOfItem(atPath: p)[.modificationDate] as! Date
            result[item] = (try Data(contentsOf: URL(fileURLWithPath: p)), date)
        }
        return result
    }

    /// The data tables' rows (not `runs`, which gains a row per run by design).
    func dataRows() throws -> [String: [[String: String]]] {
        let db = try SleepDatabase(path: self.db)
        var result: [String: [[String: String]]] = [:]
        for t in ["recordings", "nights", "base_series", "analyses", "intervals", "scores", "night_metrics"] {
            result[t] = try db.query("SELECT * FROM \(t) ORDER BY 1, 2")
        }
        return result
    }
}
