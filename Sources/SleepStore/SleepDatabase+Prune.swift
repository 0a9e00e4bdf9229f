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
