import GRDB
import GRDBSQLite
import SleepCore

extension SleepDatabase {
    /// Inserts one analysis's scored epochs into `scores`, binding each row's values straight to
    /// SQLite's prepared statement.
    ///
    /// Hand-written because it is the one bulk insert of a run: a 7-day wearable recording has
    /// 138,000 scored 5-s epochs, and building GRDB's `StatementArguments` for each row (an array of
    /// boxed values and a one-letter `String`) took most of the store step (`perf`: a quarter of
    /// the time between reading the file and rendering). The rows are the same: the same values
    /// in the same columns, NULL for a missing activity or state.
    static func insertScores(_ epochs: [ScoredEpoch], epochSeconds: Int, analysisID: Int64, db: Database) throws {
        guard !epochs.isEmpty else { return }
        // Prepared (and finalized) by GRDB; only the binding and stepping are done by hand.
        let prepared = try db.makeStatement(sql: "INSERT INTO scores (analysis_id, start_utc, epoch_seconds, activity, state) VALUES (?, ?, ?, ?, ?)")
        let statement = prepared.sqliteStatement
        defer { withExtendedLifetime(prepared) {} }
        // SQLITE_TRANSIENT: SQLite copies the one-byte state text before the call returns.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        var letters: (UInt8, UInt8) = (UInt8(ascii: "S"), UInt8(ascii: "W"))
        try withUnsafeBytes(of: &letters) { letter in
            let sleep = letter.baseAddress!.assumingMemoryBound(to: CChar.self)
            for e in epochs {
                sqlite3_bind_int64(statement, 1, analysisID)
                sqlite3_bind_int64(statement, 2, e.startUTC)
                sqlite3_bind_int64(statement, 3, Int64(epochSeconds))
                if e.activity.isNaN { sqlite3_bind_null(statement, 4) } else { sqlite3_bind_double(statement, 4, e.activity) }
                switch e.state {
                case .sleep?: sqlite3_bind_text(statement, 5, sleep, 1, transient)
                case .wake?: sqlite3_bind_text(statement, 5, sleep + 1, 1, transient)
                case nil: sqlite3_bind_null(statement, 5)
                }
                let code = sqlite3_step(statement)
                guard code == SQLITE_DONE else {
                    throw StoreError("cannot store the scored epoch at \(e.startUTC) of analysis \(analysisID): \(String(cString: sqlite3_errmsg(db.sqliteConnection))) (\(code))")
                }
                sqlite3_reset(statement)
            }
        }
    }

    /// An analysis's scored epochs in time order, read column by column from SQLite's statement:
    /// GRDB's generic row decoding looked up the metadata of `Double?` and `String?` for every value
    /// (`perf`: the largest share of rendering a 7-day wearable recording's pages). A state other
    /// than `S` or `W` reads as none, as before.
    static func fetchScores(analysisID: Int64, db: Database) throws -> [ScoredEpoch] {
        let prepared = try db.makeStatement(sql: "SELECT start_utc, activity, state FROM scores WHERE analysis_id = ? ORDER BY start_utc")
        let statement = prepared.sqliteStatement
        defer { withExtendedLifetime(prepared) {} }
        sqlite3_bind_int64(statement, 1, analysisID)
        var epochs: [ScoredEpoch] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw StoreError("cannot read the scores of analysis \(analysisID): \(String(cString: sqlite3_errmsg(db.sqliteConnection))) (\(code))")
            }
            // The rules of ``StoredColumns`` for these two columns, without a GRDB row per epoch.
            let start = sqlite3_column_int64(statement, 0)
            guard sqlite3_column_type(statement, 0) == SQLITE_INTEGER, StoredLimits.utc.contains(start) else {
                throw StoredRowError("analysis \(analysisID): table scores: start_utc is not a time between 1900 and 2200")
            }
            let activityType = sqlite3_column_type(statement, 1)
            let activity = activityType == SQLITE_NULL ? Double.nan : sqlite3_column_double(statement, 1)
            guard activityType == SQLITE_NULL || ((activityType == SQLITE_FLOAT || activityType == SQLITE_INTEGER)
                                                  && activity.isFinite && activity.magnitude <= StoredLimits.realMagnitude) else {
                throw StoredRowError("analysis \(analysisID): table scores: the epoch at \(start) has an activity that is not a finite number in range")
            }
            var state: SleepWake?
            if sqlite3_column_type(statement, 2) == SQLITE_TEXT, sqlite3_column_bytes(statement, 2) == 1,
               let text = sqlite3_column_text(statement, 2) {
                state = text[0] == UInt8(ascii: "S") ? .sleep : (text[0] == UInt8(ascii: "W") ? .wake : nil)
            }
            epochs.append(ScoredEpoch(startUTC: start, activity: activity, state: state))
        }
        return epochs
    }
}
