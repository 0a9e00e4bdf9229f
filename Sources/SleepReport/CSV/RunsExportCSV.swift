import SleepCore
import SleepStore

/// `sleepsta export --what runs`: one row per stored run.
public enum RunsExportCSV {
    /// The `runs` table under `columns`. A row still `running` whose run no live process holds (the
    /// run lock on the database is free) was killed: it is shown as `interrupted`, as the next run stores it.
    /// - Returns: the number of data rows written.
    public static func write(_ snapshot: ExportSnapshot, databasePath: String, columns: [String], to out: CSVOutput) throws -> Int {
        return try out.whole {
            let runs = try snapshot.runs()
            // A live run is the newest `running` row (it marked the older ones when it started).
            let newestRunning = runs.last { $0.status == "running" }?.id
            let liveID = newestRunning != nil && RunLock.isHeld(databasePath: databasePath) ? newestRunning : nil
            try out.write(CSVFormat.line(columns))
            for r in runs {
                let status = r.status == "running" && r.id != liveID ? "interrupted" : r.status
                try out.write(CSVFormat.line([CSVFormat.number(r.id), r.startedUTC, r.finishedUTC ?? "", r.toolVersion, r.command, status,
                                              String(r.filesSeen), String(r.filesIngested), String(r.filesUnchanged),
                                              String(r.filesFailed), r.parametersJSON, r.parametersChanged ?? ""]))
            }
            return runs.count
        }
    }
}
