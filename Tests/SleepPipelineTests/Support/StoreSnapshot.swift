import Foundation
import SleepStore

/// The content of a database's data tables as sorted row texts, for "identical to an
/// uninterrupted run" comparisons: every table but the run log (`runs`, `run_failures`) and
/// GRDB's migration table, without the `run_id` column (which run stored a row differs by
/// design), with BLOBs as hex so the base series are compared byte for byte.
struct StoreSnapshot: Equatable {
    var tables: [String: [String]]

    /// `file_stats` is the stat cache (when each file's hash was last verified), bookkeeping like the run log.
    static let excludedTables: Set<String> = ["runs", "run_failures", "grdb_migrations", "file_stats"]

    init(databasePath: String) throws {
        let db = try SleepDatabase(path: databasePath)
        var tables: [String: [String]] = [:]
        let names = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .compactMap { $0["name"] }.filter { !Self.excludedTables.contains($0) }
        for table in names {
            let columns = try db.query("SELECT name, type FROM pragma_table_info(?)", [table])
            let select = columns.compactMap { c -> String? in
                guard let name = c["name"], name != "run_id" else { return nil }
                return (c["type"] ?? "").uppercased() == "BLOB" ? "hex(\"\(name)\") AS \"\(name)\"" : "\"\(name)\""
            }.joined(separator: ", ")
            tables[table] = try db.query("SELECT \(select) FROM \"\(table)\"").map { row in
                row.keys.sorted().map { "\($0)=\(row[$0]!)" }.joined(separator: "|")
            }.sorted()
        }
        self.tables = tables
    }

    var rowCount: Int { tables.values.reduce(0) { $0 + $1.count } }

    /// Tables whose rows differ from `other`'s, with counts, for a readable failure message.
    func differences(from other: StoreSnapshot) -> [String] {
        Set(tables.keys).union(other.tables.keys).sorted().compactMap { t in
            let a = tables[t] ?? [], b = other.tables[t] ?? []
            guard a != b else { return nil }
            return "\(t): \(a.count) vs \(b.count) rows, \(Set(a).subtracting(b).count) not in the other"
        }
    }

    /// Whether every row here is also in `other` (a run killed part way stored a subset of what
    /// the full run stores, and nothing different).
    func isSubset(of other: StoreSnapshot) -> Bool {
        tables.allSatisfy { t, rows in Set(rows).isSubset(of: Set(other.tables[t] ?? [])) }
    }
}

/// Every file under a reports folder (hidden files included, so leftover temporary files count)
/// with its bytes.
enum ReportTree {
    static func files(in directory: String) -> [String: Data] {
        var result: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [:] }
        while let item = walker.nextObject() as? String {
            let path = directory + "/" + item
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            // protocol.toml names the run's folders, which differ between the trees compared by design.
            if item == "protocol.toml" { continue }
            result[item] = FileManager.default.contents(atPath: path) ?? Data()
        }
        return result
    }

    static func differences(_ a: [String: Data], _ b: [String: Data]) -> [String] {
        Set(a.keys).union(b.keys).sorted().compactMap { k in
            switch (a[k], b[k]) {
            case (nil, _): return "only in the second: \(k)"
            case (_, nil): return "only in the first: \(k)"
            case let (x?, y?): return x == y ? nil : "differs: \(k) (\(x.count) vs \(y.count) bytes)"
            }
        }
    }
}
