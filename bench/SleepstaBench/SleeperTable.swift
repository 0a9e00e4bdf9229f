import Foundation
import SleepCore
import SleepstaWorkloads

/// The family of generated sleepers through each method, summed per sleep model: the table the
/// bench prints and records (docs/validation.md, "Generated sleepers").
struct SleeperTable {
    struct Row: Codable {
        var model: String, method: String
        var nights = 0, within15 = 0, within30 = 0
        var laidDownSleepMinutes = 0.0
    }
    var rows: [Row] = []
    var outcomes: [String: [SleeperFamily.Outcome]] = [:]

    static func make(seeds: [UInt64], verbose: Bool) throws -> SleeperTable {
        var table = SleeperTable()
        for member in SleeperFamily.members(seeds: seeds) {
            let epochs = try SleeperFamily.epochs(member)
            for (name, method) in SleeperFamily.methods {
                let found = SleeperFamily.outcomes(member, epochs: epochs, method: method)
                if verbose { for o in found { print("\(name): \(o)") } }
                table.outcomes[name, default: []] += found
                let key = member.model.rawValue
                var row = table.rows.first { $0.model == key && $0.method == name } ?? Row(model: key, method: name)
                for o in found {
                    row.nights += 1
                    if o.within(onset: 15, wake: 15, tst: 30) { row.within15 += 1 }
                    if o.within(onset: 30, wake: 30, tst: 45) { row.within30 += 1 }
                    row.laidDownSleepMinutes += o.sleepWhileLaidDownMinutes
                }
                if let i = table.rows.firstIndex(where: { $0.model == key && $0.method == name }) { table.rows[i] = row } else { table.rows.append(row) }
            }
        }
        return table
    }

    var text: String {
        var lines = ["sleep model    method           nights  within 15/15/30 min  within 30/30/45 min  asleep while laid down"]
        for r in rows {
            func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
            lines.append(pad(r.model, 15) + pad(r.method, 17) + pad("\(r.nights)", 8) + pad("\(r.within15)", 21) + pad("\(r.within30)", 21)
                         + "\(Int(r.laidDownSleepMinutes)) min")
        }
        return lines.joined(separator: "\n")
    }
}
