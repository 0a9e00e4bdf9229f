import Foundation
import GRDBSQLite

/// A read-only SQLite connection to an ActiGraph `.agd` file: just what ``AGDReader`` asks of it
/// (does a table exist, a table's column names, each row of a fixed query), on SQLite's C API.
///
/// Why not GRDB, which sleepsta's store uses: reading four fixed statements needs none of its
/// records, migrations or concurrency, and a module that imports GRDB cannot start compiling until
/// GRDB, the package's largest dependency, is compiled; through the C API the readers' module is
/// compiled beside it.
package final class AGDDatabase {
    /// One cell as the reader distinguishes it: SQLite's two number storage classes, and the rest.
    package enum Value { case integer(Int64), real(Double), other }

    /// The current row of a statement being stepped.
    package struct Row {
        fileprivate let statement: OpaquePointer

        package func value(_ column: Int) -> Value {
            switch sqlite3_column_type(statement, Int32(column)) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, Int32(column)))
            case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, Int32(column)))
            default: return .other
            }
        }

        /// The cell as text (numbers in SQLite's text form), nil for NULL.
        package func text(_ column: Int) -> String? {
            guard sqlite3_column_type(statement, Int32(column)) != SQLITE_NULL,
                  let bytes = sqlite3_column_text(statement, Int32(column)) else { return nil }
            return String(cString: bytes)
        }
    }

    /// An SQLite failure with its result code and SQLite's own message.
    package struct Failure: Error, CustomStringConvertible {
        package let code: Int32
        package let message: String
        package var description: String { "SQLite error \(code): \(message)" }
    }

    private let connection: OpaquePointer
    /// Whether this object closes the connection (not when it wraps one made by someone else).
    private let owned: Bool

    /// Opens `path` read-only: SQLite never creates or writes the file (a WAL-mode file still needs
    /// its `-shm`, which is why ``AGDReader`` reads such files from a private copy).
    package init(readOnlyPath path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close(handle)
            throw Failure(code: code, message: message)
        }
        connection = handle
        owned = true
    }

    /// Wraps a connection opened elsewhere (the fuzzer's in-memory databases); it is not closed here.
    package init(connection: OpaquePointer) {
        self.connection = connection
        owned = false
    }

    deinit { if owned { sqlite3_close(connection) } }

    package func tableExists(_ name: String) throws -> Bool {
        var found = false
        try forEachRow("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", text: name) { _ in found = true }
        return found
    }

    /// The names of the columns `sql` returns, in order: from the prepared statement itself, so
    /// that they line up with its rows (a table's schema can list columns that `SELECT *` does not).
    package func columnNames(of sql: String) throws -> [String] {
        try withStatement(sql) { statement in
            (0..<sqlite3_column_count(statement)).map { sqlite3_column_name(statement, $0).map { String(cString: $0) } ?? "" }
        }
    }

    /// Steps `sql` (one statement, at most one text parameter bound) and hands each row to `body`.
    package func forEachRow<E: Error>(_ sql: String, text parameter: String? = nil,
                                      _ body: (Row) throws(E) -> Void) throws -> Void {
        try withStatement(sql) { statement in
            if let parameter {
                // SQLITE_TRANSIENT: SQLite copies the text before this call returns.
                let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
                guard sqlite3_bind_text(statement, 1, parameter, -1, transient) == SQLITE_OK else { throw failure() }
            }
            while true {
                switch sqlite3_step(statement) {
                case SQLITE_ROW: try body(Row(statement: statement))
                case SQLITE_DONE: return
                default: throw failure()
                }
            }
        }
    }

    /// `sql` prepared for `body`, finalized after it.
    private func withStatement<T>(_ sql: String, _ body: (OpaquePointer) throws -> T) throws -> T {
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &prepared, nil) == SQLITE_OK, let statement = prepared else {
            throw failure()
        }
        defer { sqlite3_finalize(statement) }
        return try body(statement)
    }

    private func failure() -> Failure {
        Failure(code: sqlite3_errcode(connection), message: String(cString: sqlite3_errmsg(connection)))
    }
}
