import Foundation
import GRDB
import SleepCore

/// Merging shard databases (`sleepsta merge`), generic over the schema: the tables and how their
/// rows are matched are read from SQLite itself (`sqlite_master`, `pragma_table_info`,
/// `pragma_foreign_key_list`, `pragma_index_list`), so a table added by a later migration is merged
/// without this file knowing it.
///
/// Every table is merged except the run bookkeeping (``bookkeepingTables``): which runs stored a
/// row differs by design between a sharded and a single run. A row is matched across databases by
/// its *natural key*:
/// - a table whose primary key is a row id (`id INTEGER PRIMARY KEY`: recordings, analyses) is
///   matched by its first UNIQUE key (`content_hash`; `night_id, parameters_key`), and its ids
///   are renumbered: foreign keys to it are rewritten through the shard-to-merged id map;
/// - any other table by its primary key (`nights.id`, `intervals(analysis_id, start_utc)` after
///   the id map);
/// - a table without either (a later migration's table of per-recording facts, say) by all its
///   columns but a row id and run references: a row is what it holds. A UNIQUE key is better: it
///   lets a changed row replace the old one instead of standing beside it.
///
/// Per shard row: an identical row in the merged database is left alone (merging a shard twice
/// changes nothing); a different one is replaced (deleting it cascades to its children, which the
/// shard then brings); a new one is inserted. Two rules come from how a single run stores
/// recordings (``SleepDatabase/replaceRecording(_:runID:nights:)``): a recording replaces another
/// at the same path (the file changed), and of two copies of one file (same content, two paths)
/// the one at the lexicographically first path is kept, as a run that meets the files in path
/// order keeps the first. Columns that refer to the bookkeeping tables (`analyses.run_id`) are NULL.
public enum ShardMerge {
    /// Tables not merged: the run log (which run stored what) and GRDB's migration list.
    /// `file_stats` is the machine-local stat cache (``FileStatFastPath`` in SleepPipeline): inodes
    /// and times of one node's files, rebuilt by the next run that reads them; not merged.
    public static let bookkeepingTables: Set<String> = ["runs", "run_failures", "grdb_migrations", "file_stats"]

    /// Columns that identify a row besides its natural key, by table: a row from a shard deletes the
    /// merged database's rows that have the same value there (and another natural key).
    static let replacedOnSameValue: [String: [String]] = ["recordings": ["path"]]

    /// For tables whose rows may meet a row of the same natural key but another value in a column:
    /// the row with the smaller value there is kept (copies of one recording: the first path).
    static let keepSmaller: [String: String] = ["recordings": "path"]

    struct ForeignKey { var column: String; var parent: String; var parentColumn: String }

    struct TablePlan {
        var name: String
        var columns: [String]
        var primaryKey: [String]
        /// The primary key is SQLite's row id: it differs between databases and is renumbered.
        var hasRowID: Bool
        var naturalKey: [String]
        var foreignKeys: [ForeignKey]
        /// Columns referring to bookkeeping tables: NULL when merged, ignored when compared.
        var bookkeepingColumns: Set<String>
        /// Every column but a row-id key.
        var copied: [String] { hasRowID ? columns.filter { $0 != primaryKey[0] } : columns }
        /// `copied` without the bookkeeping columns: what two rows must agree on to be the same.
        var compared: [String] { copied.filter { !bookkeepingColumns.contains($0) } }
    }

    /// How each table is merged, in an order where parents come before children.
    public struct Plan {
        var tables: [TablePlan]
        /// Tables present but not merged (bookkeeping).
        public var excluded: [String]
        /// Tables merged, parents first.
        public var merged: [String] { tables.map(\.name) }

        func table(_ name: String) -> TablePlan? { tables.first { $0.name == name } }

        init(_ db: Database) throws {
            let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            excluded = names.filter { ShardMerge.bookkeepingTables.contains($0) }
            var plans: [String: TablePlan] = [:]
            for name in names where !ShardMerge.bookkeepingTables.contains(name) {
                plans[name] = try Self.plan(table: name, db: db)
            }
            // Parents first (Kahn's algorithm over the foreign keys between merged tables; ties by name).
            var ordered: [TablePlan] = []
            var remaining = Set(plans.keys)
            while !remaining.isEmpty {
                let ready = remaining.sorted().filter { name in
                    plans[name]!.foreignKeys.allSatisfy { $0.parent == name || !remaining.contains($0.parent) }
                }
                guard let next = ready.first else {
                    throw StoreError("merge: the foreign keys between tables \(remaining.sorted().joined(separator: ", ")) form a cycle; cannot order them")
                }
                ordered.append(plans[next]!)
                remaining.remove(next)
            }
            tables = ordered
        }

        static func plan(table name: String, db: Database) throws -> TablePlan {
            let info = try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?) ORDER BY cid", arguments: [name])
            let columns = info.map { $0["name"] as String }
            let notNull = Set(info.filter { ($0["notnull"] as Int) != 0 }.map { $0["name"] as String })
            let primaryKey = info.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }.map { $0["name"] as String }
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [name]) ?? ""
            let withoutRowID = sql.uppercased().replacingOccurrences(of: " ", with: "").hasSuffix("WITHOUTROWID")
            let rowIDKey = !withoutRowID && primaryKey.count == 1
                && (info.first { ($0["name"] as String) == primaryKey[0] }?["type"] as String?)?.uppercased() == "INTEGER"
            var foreignKeys: [ForeignKey] = []
            var bookkeeping = Set<String>()
            for fk in try Row.fetchAll(db, sql: "SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq", arguments: [name]) {
                let parent: String = fk["table"], column: String = fk["from"]
                let parentColumn: String = (fk["to"] as String?) ?? "rowid"
                if ShardMerge.bookkeepingTables.contains(parent) {
                    guard !notNull.contains(column) else {
                        throw StoreError("merge: \(name).\(column) must refer to bookkeeping table \(parent) (NOT NULL), which is not merged; add \(name) to ShardMerge.bookkeepingTables or make the column nullable")
                    }
                    bookkeeping.insert(column)
                } else {
                    foreignKeys.append(ForeignKey(column: column, parent: parent, parentColumn: parentColumn))
                }
            }
            // A row-id key that is itself a foreign key (night_metrics.analysis_id: one row per analysis)
            // is the parent's id: rewritten through the parent's id map like any foreign key, not renumbered.
            let hasRowID = rowIDKey && !foreignKeys.contains { $0.column == primaryKey[0] } && !bookkeeping.contains(primaryKey[0])
            // Without a key, a row is what it holds: every column but a row id and the run references.
            let content = columns.filter { !bookkeeping.contains($0) && !(hasRowID && $0 == primaryKey[0]) }
            var naturalKey = primaryKey.isEmpty ? content : primaryKey
            if hasRowID {
                var unique: [[String]] = []
                for index in try Row.fetchAll(db, sql: "SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND origin <> 'pk' ORDER BY name", arguments: [name]) {
                    let indexName: String = index["name"]
                    let cols = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [indexName])
                    if !cols.isEmpty, !cols.contains(primaryKey[0]) { unique.append(cols) }
                }
                naturalKey = unique.min(by: { $0.count < $1.count }) ?? content
            }
            guard !naturalKey.isEmpty else {
                throw StoreError("merge: table \(name) holds nothing but a row id, so its rows cannot be matched across shard databases; add it to ShardMerge.bookkeepingTables if it should not be merged")
            }
            return TablePlan(name: name, columns: columns, primaryKey: primaryKey, hasRowID: hasRowID, naturalKey: naturalKey,
                             foreignKeys: foreignKeys, bookkeepingColumns: bookkeeping)
        }
    }

    /// What merging did to one table's rows.
    public struct TableCounts: Sendable, Equatable {
        public var inserted = 0
        /// Rows that replaced a different row with the same natural key.
        public var replaced = 0
        /// Rows already in the merged database, identical.
        public var unchanged = 0
        /// Rows not taken: a copy of a recording kept at another path, and the rows below it.
        public var skipped = 0
        public init() {}
    }

    /// Merges every table of `shard` into `target` (inside the caller's transaction).
    /// Every shard row is first checked as the readers read it (``StoredColumns``, ``StoredRowRules``):
    /// a row sleepsta would not write is refused, naming `shardPath`, the table and the row, and
    /// the caller's transaction rolls back.
    static func merge(shard: Database, into target: Database, plan: Plan, counts: inout [String: TableCounts], shardPath: String) throws {
        // Shard row id -> merged row id, per row-id table.
        var idMap: [String: [Int64: Int64]] = [:]
        // Values of referenced columns of rows not taken, per "table.column": their children are not taken either.
        var skippedValues: [String: Set<DatabaseValue>] = [:]
        let referenced = Set(plan.tables.flatMap { t in t.foreignKeys.map { "\($0.parent).\($0.parentColumn)" } })

        for t in plan.tables {
            var c = counts[t.name] ?? TableCounts()
            defer { counts[t.name] = c }
            let selectColumns = (t.hasRowID ? [t.primaryKey[0]] : []) + t.copied
            let order = t.naturalKey.map(quote).joined(separator: ", ")
            let rows = try Row.fetchCursor(shard, sql: "SELECT \(selectColumns.map(quote).joined(separator: ", ")) FROM \(quote(t.name)) ORDER BY \(order)")
            let insert = try target.cachedStatement(sql: "INSERT INTO \(quote(t.name)) (\(t.copied.map(quote).joined(separator: ", "))) VALUES (\(t.copied.map { _ in "?" }.joined(separator: ", ")))")
            let matchWhere = t.naturalKey.map { "\(quote($0)) IS ?" }.joined(separator: " AND ")
            let find = try target.cachedStatement(sql: "SELECT \(selectColumns.map(quote).joined(separator: ", ")) FROM \(quote(t.name)) WHERE \(matchWhere)")
            let columns = try StoredColumns([t.name], db: shard)
            while let row = try rows.next() {
                do { try columns.check(row); try StoredRowRules.check(row, table: t.name) } catch let e as StoredRowError {
                    let key = t.naturalKey.map { "\($0) \(PrintableText.escaped((row[$0] as DatabaseValue?)?.description ?? "?"))" }.joined(separator: ", ")
                    throw StoreError("shard \(shardPath): table \(t.name), row (\(key)): \(e.message); nothing was merged")
                }
                var values: [String: DatabaseValue] = [:]
                for column in t.copied { values[column] = row[column] as DatabaseValue }
                for column in t.bookkeepingColumns { values[column] = .null }
                // Rewrite foreign keys through the id maps; a row under a row not taken is not taken.
                var taken = true
                for fk in t.foreignKeys {
                    guard let value = values[fk.column], !value.isNull else { continue }
                    if let parent = plan.table(fk.parent), parent.hasRowID, fk.parentColumn == parent.primaryKey[0] || fk.parentColumn == "rowid" {
                        guard let old = Int64.fromDatabaseValue(value), let mapped = idMap[fk.parent]?[old] else { taken = false; break }
                        values[fk.column] = mapped.databaseValue
                    } else if skippedValues["\(fk.parent).\(fk.parentColumn)"]?.contains(value) == true {
                        taken = false; break
                    }
                }
                let key = t.naturalKey.map { values[$0] ?? .null }
                let existing = try Row.fetchOne(find, arguments: StatementArguments(key))
                if taken, let e = existing, let column = keepSmaller[t.name], let mine = String.fromDatabaseValue(values[column] ?? .null),
                   let theirs = e[column] as String?, theirs < mine {
                    taken = false   // a copy of a recording already kept at a path that sorts first
                }
                guard taken else {
                    c.skipped += 1
                    for column in t.columns where referenced.contains("\(t.name).\(column)") {
                        skippedValues["\(t.name).\(column)", default: []].insert(row[column] as DatabaseValue)
                    }
                    continue
                }
                var replacing = false
                if let e = existing {
                    if t.compared.allSatisfy({ (e[$0] as DatabaseValue) == values[$0] }) {
                        if t.hasRowID { idMap[t.name, default: [:]][row[t.primaryKey[0]] as Int64] = e[t.primaryKey[0]] as Int64 }
                        c.unchanged += 1
                        continue
                    }
                    try target.execute(sql: "DELETE FROM \(quote(t.name)) WHERE \(matchWhere)", arguments: StatementArguments(key))
                    c.replaced += 1
                    replacing = true
                }
                for column in replacedOnSameValue[t.name] ?? [] {
                    let keyMismatch = t.naturalKey.map { "\(quote($0)) IS NOT ?" }.joined(separator: " OR ")
                    try target.execute(sql: "DELETE FROM \(quote(t.name)) WHERE \(quote(column)) IS ? AND (\(keyMismatch))",
                                       arguments: StatementArguments([values[column] ?? .null] + key))
                }
                try insert.execute(arguments: StatementArguments(t.copied.map { values[$0] ?? .null }))
                if t.hasRowID { idMap[t.name, default: [:]][row[t.primaryKey[0]] as Int64] = target.lastInsertedRowID }
                if !replacing { c.inserted += 1 }
            }
        }
    }

    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A shard database as `merge` sees it before touching anything: its schema and its runs.
public struct ShardFacts: Sendable {
    public var path: String
    public var migrations: [String]
    /// Every run, oldest first.
    public var runs: [RunRecord]
    /// Every night id the shard holds (names that become report folders: checked before merging).
    public var nightIDs: [String] = []
    /// Views among the shard's objects: a shard made by sleepsta has none, and a view can run an
    /// endless query when merge reads it as a table.
    public var views: [String] = []
}

/// Per table, after a merge.
public typealias MergeCounts = [String: ShardMerge.TableCounts]

extension SleepDatabase {
    /// The schema and runs of the database at `path`, read without migrating or changing it.
    public static func shardFacts(path: String) throws -> ShardFacts {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError("\(path): no such file") }
        do {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.read { db in
                guard try db.tableExists("grdb_migrations"), try db.tableExists("runs") else {
                    throw StoreError("\(path) is not a sleepsta database (no migrations or runs table)")
                }
                let migrations = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
                let runs = try Row.fetchAll(db, sql: "SELECT * FROM runs ORDER BY id").map { try Self.runRecord($0) }
                var facts = ShardFacts(path: path, migrations: migrations, runs: runs)
                facts.views = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")
                if facts.views.isEmpty, try db.tableExists("nights") {
                    facts.nightIDs = try String.fetchAll(db, sql: "SELECT id FROM nights ORDER BY id")
                }
                return facts
            }
        } catch let error as StoreError { throw error } catch {
            throw StoreError("cannot read \(path): \(error)")
        }
    }

    /// A `runs` row; one whose columns are not of their types (``StoredColumns``) is a
    /// ``StoredRowError`` naming the run, never a trap.
    static func runRecord(_ r: Row) throws -> RunRecord {
        do { try StoredColumns.runs.check(r) } catch let e as StoredRowError {
            throw StoredRowError("table runs, row \((r["id"] as DatabaseValue).description): \(e.message)")
        }
        return RunRecord(id: r["id"], startedUTC: r["started_utc"], finishedUTC: r["finished_utc"], toolVersion: r["tool_version"],
                  command: r["command"], parametersJSON: r["parameters_json"], filesSeen: r["files_seen"],
                  filesIngested: r["files_ingested"], filesUnchanged: r["files_unchanged"], filesFailed: r["files_failed"],
                  status: r["status"], parametersChanged: r["parameters_changed"])
    }

    /// How this database's tables are merged: the tables merged (parents first) and those excluded.
    public func mergePlan() throws -> ShardMerge.Plan {
        try pool.read { db in try ShardMerge.Plan(db) }
    }

    /// Merges the shard databases at `shardPaths` into this one, in one transaction together with
    /// the `runs` row `run` (finished, with its parameters), so a merge killed at any point leaves
    /// this database as it was. The caller has checked that the shards have this schema. A shard
    /// holding a row this sleepsta's readers would refuse (``StoredColumns``, ``StoredRowRules``:
    /// a value of another type or beyond its range, a blob of another length, JSON that does not
    /// decode, a day not covering its night's window) is refused, naming the shard, the table and
    /// the row, and nothing is merged; so is one SQLite cannot read as this schema (`no such column`).
    public func mergeShards(_ shardPaths: [String], run: RunRecord) throws -> MergeCounts {
        try pool.writeWithoutTransaction { target in
            var counts: MergeCounts = [:]
            try target.inTransaction {
                let plan = try ShardMerge.Plan(target)
                // The files that failed: those of the previous merge, then each shard's last run's.
                let lastRunFailures = """
                    SELECT path, error FROM run_failures WHERE run_id =
                        (SELECT id FROM runs WHERE command IN (?, ?) ORDER BY id DESC LIMIT 1) ORDER BY path, rowid
                    """
                var failures: [String: String] = [:], fromShards = Set<String>()
                for row in try Row.fetchAll(target, sql: lastRunFailures, arguments: ["merge", "merge"]) { failures[row["path"]] = row["error"] }
                for path in shardPaths {
                    let queue = try DatabaseQueue(path: path)
                    defer { try? queue.close() }
                    do {
                        try queue.read { shard in
                            // Rows first (a night's window before the day that must cover it), then the days.
                            try ShardMerge.merge(shard: shard, into: target, plan: plan, counts: &counts, shardPath: path)
                            try Self.checkDays(shard: shard, path: path)
                            for row in try Row.fetchAll(shard, sql: lastRunFailures, arguments: ["run", "nightly"]) {
                                // run_failures is not merged, but read: text sleepsta wrote, or left out.
                                guard let failed = String.fromDatabaseValue(row["path"] as DatabaseValue) else { continue }
                                failures[failed] = String.fromDatabaseValue(row["error"] as DatabaseValue) ?? ""; fromShards.insert(failed)
                            }
                        }
                    } catch let e as StoreError where e.message.hasPrefix("shard ") {
                        throw e
                    } catch {
                        // SQLite's own words (`no such column: x`) do not say which shard.
                        throw StoreError("shard \(path): \(SleepDatabase.shortDescription(error)); nothing was merged")
                    }
                }
                try target.execute(sql: """
                    INSERT INTO runs (started_utc, finished_utc, tool_version, command, parameters_json, files_seen,
                        files_ingested, files_unchanged, files_failed, status, parameters_changed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [run.startedUTC, run.finishedUTC, run.toolVersion, run.command, run.parametersJSON,
                                     run.filesSeen, run.filesIngested, run.filesUnchanged, run.filesFailed, run.status,
                                     run.parametersChanged])
                // Listed with the merge run (the cohort index shows them); an earlier merge's failure
                // whose file is now stored (a shard run again after the file was fixed) is dropped.
                let mergeID = target.lastInsertedRowID
                let stored = Set(try String.fetchAll(target, sql: "SELECT path FROM recordings"))
                for (path, error) in failures.sorted(by: { $0.key < $1.key }) where fromShards.contains(path) || !stored.contains(path) {
                    try target.execute(sql: "INSERT INTO run_failures (run_id, path, error) VALUES (?, ?, ?)", arguments: [mergeID, path, error])
                }
                return .commit
            }
            return counts
        }
    }
}

extension SleepDatabase {
    /// Replaces a run's `parameters_json` (a sharded run adds what it learnt from listing the folder).
    public func updateRunParameters(id: Int64, json: String) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE runs SET parameters_json = ? WHERE id = ?", arguments: [json, id])
        }
    }
}
