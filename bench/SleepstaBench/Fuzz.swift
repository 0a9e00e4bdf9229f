import ArgumentParser
import Foundation
import GRDB
import SleepCore
import SleepIngest
import SleepstaWorkloads

/// `sleepsta-bench fuzz`: generated hostile input for the readers that take names and structure
/// from the file (the `.agd` reader, whose file is an SQLite database, and the sleep diary), run
/// a million times, and for what is read back from a database (shards with hostile rows merged,
/// rendered and exported; remembered parameters as nightly reads them). Each execution must return or refuse with an ``IngestError``; a crash ends the
/// process (and the run fails), and the slowest execution is reported, so a hang or a runaway
/// allocation shows as a number, not as a stuck cron job.
struct Fuzz: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fuzz the .agd reader, the sleep diary parser, merged shards or remembered parameters with generated hostile input.",
        discussion: """
        Prints executions, how many were read and refused, and the slowest one. Exit 0 when every
        execution read or was refused with an error naming its input (an IngestError; for merged,
        an error naming the shard; for remembered, one naming the parameter); 1 otherwise.
          sleepsta-bench fuzz --target agd --runs 1000000
          sleepsta-bench fuzz --target diary --runs 1000000
          sleepsta-bench fuzz --target readwhole --runs 20000   (text files read whole: memory within its bound)
          sleepsta-bench fuzz --target merged --runs 1000
          sleepsta-bench fuzz --target remembered --runs 100000
        """)

    enum Target: String, ExpressibleByArgument, CaseIterable { case agd, diary, readwhole, merged, remembered }

    @Option(help: "agd, diary, readwhole, merged or remembered.") var target: Target
    @Option(help: "Executions.") var runs = 1_000_000
    @Option(help: "Seed of the generator (the same seed, the same inputs).") var seed: UInt64 = 20_261_126

    func run() throws {
        var rng = SplitMix64(seed: seed)
        var read = 0, refused = 0, other: [String] = []
        var slowest = 0.0
        var readWhole = ReadWholeFuzz()
        let started = Date()
        var merged: MergedFuzz? = nil
        if target == .merged { merged = try MergedFuzz() }
        for k in 0..<runs {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let outcome: Outcome
            switch target {
            case .agd: outcome = AGDFuzz.execute(&rng)
            case .diary: outcome = DiaryFuzz.execute(&rng)
            case .readwhole: outcome = readWhole.execute(&rng)
            case .merged: outcome = merged!.execute(&rng, index: k)
            case .remembered: outcome = RememberedFuzz.execute(&rng)
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            slowest = max(slowest, seconds)
            switch outcome {
            case .read: read += 1
            case .refused: refused += 1
            case .other(let text): if other.count < 10 { other.append("execution \(k): \(text)") }
            }
            if (k + 1) % (target == .merged ? 100 : 100_000) == 0 {
                FileHandle.standardError.write(Data("fuzz \(target.rawValue): \(k + 1) of \(runs) (\(Int(Date().timeIntervalSince(started))) s)\n".utf8))
            }
        }
        print("fuzz \(target.rawValue): \(runs) executions in \(String(format: "%.1f", Date().timeIntervalSince(started))) s (seed \(seed)): "
              + "\(read) read, \(refused) refused with a positioned error, \(other.count) other; slowest \(String(format: "%.3f", slowest)) s")
        if target == .readwhole {
            let memory = readWhole.memory()
            print("fuzz readwhole: " + memory.text)
            if !memory.withinBound { other.append("above the bound: " + memory.text) }
        }
        for o in other { print("  \(o)") }
        if !other.isEmpty { throw ExitCode(1) }
    }

    enum Outcome { case read, refused, other(String) }
}

/// `.agd` files as SQLite databases in memory: hostile column names (quotes, SQL, Unicode),
/// cells of every storage class, timestamps off the grid, backwards, far apart, and settings
/// that are not numbers.
enum AGDFuzz {
    static let names = ["axis1", "axis2", "axis3", "steps", "lux", "inclineOff", "vm", "Axis1",
                        #"axis9" , (SELECT 1) AS "z"#, #"a""b"#, "x'); DROP TABLE data; --", "ü軸", " ", "a b", "dataTimestamp2"]
    static let epochTexts = ["60", "10", "1", "30", "0", "-5", "abc", "", " 15 ", "99999999999999999999", "1e3", "60.5"]
    static let t0: Int64 = 634_763_912_400_000_000
    static let tick: Int64 = 10_000_000

    static func execute(_ rng: inout SplitMix64) -> Fuzz.Outcome {
        do {
            let queue = try DatabaseQueue()
            let epoch = Int64([60, 10, 30, 1][Int(rng.next() % 4)])
            try queue.write { db in
                if rng.next() % 50 != 0 {
                    try db.execute(sql: "CREATE TABLE settings (settingID INTEGER PRIMARY KEY, settingName VARCHAR(64), settingValue VARCHAR(8192))")
                    if rng.next() % 20 != 0 {
                        let text = rng.next() % 4 == 0 ? epochTexts[Int(rng.next() % UInt64(epochTexts.count))] : String(epoch)
                        try db.execute(sql: "INSERT INTO settings (settingName, settingValue) VALUES ('epochlength', ?)", arguments: [text])
                    }
                }
                guard rng.next() % 50 != 0 else { return }
                var columns: [String] = rng.next() % 30 == 0 ? [] : ["dataTimestamp"]
                let count = rng.next() % 100 == 0 ? 200 + Int(rng.next() % 300) : 1 + Int(rng.next() % 5)
                for c in 0..<count {
                    var name = names[Int(rng.next() % UInt64(names.count))]
                    // SQLite's column names are case-insensitive.
                    if columns.contains(where: { $0.lowercased() == name.lowercased() }) { name += "_\(c)" }
                    columns.append(name)
                }
                try db.execute(sql: "CREATE TABLE data (" + columns.map { quote($0) + ($0 == "dataTimestamp" ? " INTEGER" : rng.next() % 3 == 0 ? "" : " REAL") }.joined(separator: ", ") + ")")
                let rows = Int(rng.next() % 40)
                var ticks = t0
                for _ in 0..<rows {
                    switch rng.next() % 200 {
                    case 0: ticks -= epoch * tick                       // backwards
                    case 1: ticks += 3                                  // off the second
                    case 2: ticks += Int64(rng.next() % 200) * 86_400 * tick   // a gap of up to 200 days
                    case 3: ticks = Int64(bitPattern: rng.next())       // anything
                    case 4: break                                       // a repeat
                    default: ticks += epoch * tick
                    }
                    var values: [DatabaseValue] = []
                    for name in columns {
                        if name == "dataTimestamp" {
                            values.append(rng.next() % 100 == 0 ? "text".databaseValue : ticks.databaseValue)
                        } else {
                            values.append(cell(&rng))
                        }
                    }
                    try db.execute(sql: "INSERT INTO data VALUES (" + columns.map { _ in "?" }.joined(separator: ", ") + ")",
                                   arguments: StatementArguments(values))
                }
            }
            do {
                _ = try queue.read { db in
                    try AGDReader.read(AGDDatabase(connection: db.sqliteConnection!), path: "fuzz.agd", options: IngestOptions())
                }
                return .read
            } catch let e as IngestError {
                return e.message.isEmpty ? .other("an IngestError without a message") : .refused
            }
        } catch {
            return .other("\(error)")
        }
    }

    static func cell(_ rng: inout SplitMix64) -> DatabaseValue {
        switch rng.next() % 40 {
        case 0: return .null
        case 1: return "12".databaseValue
        case 2: return Data([0, 1, 2]).databaseValue
        case 3: return 1e308.databaseValue
        case 4: return (-Double(rng.next() % 1000)).databaseValue
        case 5: return Int64(bitPattern: rng.next()).databaseValue
        default: return Double(rng.next() % 5000).databaseValue
        }
    }

    static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}

/// Sleep diaries: valid rows mutated field by field and byte by byte (quotes, separators, dates
/// that do not exist, times past 24 h, huge years, control characters), parsed, applied to
/// recordings and placed on a DST night's clock.
enum DiaryFuzz {
    static let headers = ["id,night,in_bed,out_of_bed", "id,night,in_bed,out_of_bed,type", "id;night;in_bed;out_of_bed", "ID,Night,In Bed,Out of bed",
                          "participant,date,lights_off,lights_on", "night,id,out_of_bed,in_bed", "x,y"]
    static let ids = ["alex", "\"smith, john\"", "p-07", "", "\"\"", "\"a\"\"b\"", "ü", "../x", "a\u{202E}b", "Data/alex.csv"]
    static let dates = ["2024-03-30", "2024-03-31", "2024-02-30", "2024-13-01", "99999-01-01", "0000-00-00", "", "2024-3-30", "30/03/2024"]
    static let times = ["23:10", "07:05", "02:30", "24:00", "25:29", "23:59:59", "12:00", "-1:00", "2024-03-30 23:10", "2024-03-31 02:30",
                        "2024-04-30 23:10", "9999999999:00", "", "00:00"]
    static let types = ["", "sleep", "nap", "nonwear", "SLEEP", "bogus"]
    static let timeline = ZoneTimeline.timeline(identifier: "Europe/Berlin")!
    static let night = NightWindow(date: CivilDate(iso: "2024-03-30")!, startUTC: 1_711_796_400, endUTC: 1_711_879_200)

    static func execute(_ rng: inout SplitMix64) -> Fuzz.Outcome {
        var lines = [headers[Int(rng.next() % UInt64(headers.count))]]
        for _ in 0..<Int(rng.next() % 8) {
            var fields = [pick(ids, &rng), pick(dates, &rng), pick(times, &rng), pick(times, &rng)]
            if rng.next() % 2 == 0 { fields.append(pick(types, &rng)) }
            var line = fields.joined(separator: rng.next() % 10 == 0 ? ";" : ",")
            if rng.next() % 5 == 0, !line.isEmpty {   // a byte-level mutation
                var bytes = Array(line.utf8)
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 4 {
                case 0: bytes[at] = UInt8(rng.next() % 128)
                case 1: bytes.insert([UInt8(ascii: "\""), UInt8(ascii: ","), 0x0D, 0x0A, 0][Int(rng.next() % 5)], at: at)
                case 2: bytes.remove(at: at)
                default: bytes += bytes
                }
                line = String(decoding: bytes, as: UTF8.self)
            }
            lines.append(line)
        }
        do {
            let diary = try SleepDiary.parse(lines.joined(separator: rng.next() % 3 == 0 ? "\r\n" : "\n"), path: "fuzz.csv")
            let use = diary.use(nightDates: ["alex.csv": ["2024-03-30"], "Data/alex.csv": ["2024-03-31"], "p-07/night.cwa": []])
            guard use.applied >= 0, use.rows >= use.applied else { return .other("use counts \(use.rows) rows, \(use.applied) applied") }
            if let g = diary.guide(recordingPath: "alex.csv", night: night, timeline: timeline), g.endUTC <= g.startUTC {
                return .other("a guide that ends before it starts: \(g)")
            }
            return .read
        } catch {
            return error.message.isEmpty ? .other("an IngestError without a message") : .refused
        }
    }

    static func pick(_ a: [String], _ rng: inout SplitMix64) -> String { a[Int(rng.next() % UInt64(a.count))] }
}
