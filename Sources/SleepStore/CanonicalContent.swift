import Foundation
import GRDB

extension SleepDatabase {
    /// The content of every merged table (``ShardMerge/Plan``) as sorted text lines, one per row,
    /// independent of row ids and of which run stored a row: a row-id key is left out, a foreign
    /// key to a row-id table is written as the referenced row's natural key, columns referring to
    /// the run log are left out, BLOBs are hex. Two databases hold the same nights, analyses and
    /// metrics exactly when their canonical contents are equal (a sharded and merged cohort and a
    /// single run, say).
    public func canonicalContent() throws -> [String: [String]] {
        try pool.read { db in
            let plan = try ShardMerge.Plan(db)
            var keyText: [String: [Int64: String]] = [:]   // row id -> natural key text, per row-id table
            var result: [String: [String]] = [:]
            for t in plan.tables {
                let selectColumns = (t.hasRowID ? [t.primaryKey[0]] : []) + t.compared
                let sql = "SELECT \(selectColumns.map(ShardMerge.quote).joined(separator: ", ")) FROM \(ShardMerge.quote(t.name))"
                var lines: [String] = []
                var ids: [Int64: String] = [:]
                let rows = try Row.fetchCursor(db, sql: sql)
                while let row = try rows.next() {
                    func text(_ column: String) -> String {
                        let value: DatabaseValue = row[column]
                        if let fk = t.foreignKeys.first(where: { $0.column == column }), let parent = plan.table(fk.parent),
                           parent.hasRowID, fk.parentColumn == parent.primaryKey[0], let id = Int64.fromDatabaseValue(value) {
                            return "→" + (keyText[fk.parent]?[id] ?? "missing \(fk.parent) \(id)")
                        }
                        return Self.canonicalText(value)
                    }
                    let line = t.compared.map { "\($0)=\(text($0))" }.joined(separator: "|")
                    lines.append(line)
                    if t.hasRowID {
                        ids[row[t.primaryKey[0]] as Int64] = "(" + t.naturalKey.map { text($0) }.joined(separator: ",") + ")"
                    }
                }
                keyText[t.name] = ids
                result[t.name] = lines.sorted()
            }
            return result
        }
    }

    static func canonicalText(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let i): return String(i)
        case .double(let x): return "\(x)r"
        case .string(let s): return String(reflecting: s)
        case .blob(let b): return "x'" + hex(b) + "'"
        }
    }

    static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](); out.reserveCapacity(data.count * 2)
        for byte in data { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
