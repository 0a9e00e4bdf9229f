import GRDB

extension SleepDatabase {
    /// Paths of every stored recording (relative to the data folder the batch ran over).
    public func recordingPaths() throws -> [String] {
        try pool.read { db in try String.fetchAll(db, sql: "SELECT path FROM recordings ORDER BY path") }
    }

    /// Removes the recording stored under `path` with its nights, series and analyses (one
    /// transaction); returns the ids of the nights it had, so their report folders can go too.
    @discardableResult
    public func deleteRecording(path: String) throws -> [String] {
        try pool.write { db in
            let nights = try String.fetchAll(db, sql: """
                SELECT n.id FROM nights n JOIN recordings r ON r.id = n.recording_id WHERE r.path = ? ORDER BY n.id
                """, arguments: [path])
            try db.execute(sql: "DELETE FROM recordings WHERE path = ?", arguments: [path])
            return nights
        }
    }
}

extension SleepDatabase {
    /// Every stored recording's path with the evening dates (`YYYY-MM-DD`) of its nights.
    public func nightDatesByRecordingPath() throws -> [String: Set<String>] {
        try pool.read { db in
            var result: [String: Set<String>] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT r.path, n.night_date FROM recordings r LEFT JOIN nights n ON n.recording_id = r.id") {
                let path: String = row["path"]
                var dates = result[path] ?? []
                if let date: String = row["night_date"] { dates.insert(date) }
                result[path] = dates
            }
            return result
        }
    }
}
