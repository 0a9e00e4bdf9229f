import GRDB

extension SleepDatabase {
    /// The files that failed in the latest run of one of `commands` (the run whose index page
    /// lists them), by path.
    public func latestRunFailures(commands: [String]) throws -> [(path: String, error: String)] {
        try pool.read { db in
            let marks = commands.map { _ in "?" }.joined(separator: ", ")
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM runs WHERE command IN (\(marks)) ORDER BY id DESC LIMIT 1",
                                              arguments: StatementArguments(commands)) else { return [] }
            return try Row.fetchAll(db, sql: "SELECT path, error FROM run_failures WHERE run_id = ? ORDER BY path, rowid",
                                    arguments: [id]).map { (path: $0["path"], error: $0["error"]) }
        }
    }
}

extension SleepDatabase {
    /// The shell command that lists every failure of run `runID`, for a summary that lists only
    /// the first few.
    public static func failuresCommand(databasePath: String, runID: Int64?) -> String {
        "sqlite3 \(databasePath) \"SELECT path, error FROM run_failures WHERE run_id = \(runID.map(String.init) ?? "?")\""
    }
}
