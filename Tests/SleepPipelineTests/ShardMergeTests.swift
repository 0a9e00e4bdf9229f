import Foundation
import Logging
import Testing
import SleepCore
import SleepPipeline
import SleepStore
import SleepstaWorkloads

/// Issue 17: a cohort split into shards (`run --shard K/N`), merged (`merge`) and rendered from
/// the merged database (`render`) equals one run over the whole folder: the same rows in every
/// table (row ids and run rows apart) and the same report files, byte for byte.
@Suite("Shards, merge and render", .serialized)
struct ShardMergeTests {
    /// A cohort of mixed formats with the cases that make sharding hard: two files of one stem
    /// (their nights share a date, so one night id is bumped), a copy of a file under another
    /// name, a file that fails, an app export, a wearable `.cwa` (epoch milestone), phone CSVs, one
    /// of them cut short inside its last row (a recording with a warning).
    final class Cohort {
        let w = Workspace()
        var root: String { w.root }
        var data: String { w.data }

        init() throws {
            let fm = FileManager.default
            for dir in ["a", "b", "copies"] { try fm.createDirectory(atPath: data + "/" + dir, withIntermediateDirectories: true) }
            // 2024-06-10 … 06-15, 23:00 Berlin: six phone nights of 6 to 8 h in two folders.
            for k in 0..<6 {
                let bytes = SyntheticNights.rawCSV(startUTC: 1_718_053_200 + Int64(k) * 86_400, hours: 6 + Double(k % 3), rateHz: 1, seed: UInt64(100 + k))
                _ = fm.createFile(atPath: data + "/\(k % 2 == 0 ? "a" : "b")/night-\(k).csv", contents: Data(bytes))
            }
            // Cut inside its last row's second field: a row that does not parse, so it is dropped with a warning.
            let whole = SyntheticNights.rawCSV(startUTC: 1_718_053_200 + 8 * 86_400, hours: 6, rateHz: 1, seed: 200)
            let lastRow = whole.dropLast().lastIndex(of: UInt8(ascii: "\n"))! + 1
            _ = fm.createFile(atPath: data + "/a/night-cut.csv", contents: Data(whole[..<(lastRow + 14)]))
            // A copy of a/night-0.csv: stored once, under the path that sorts first.
            try fm.copyItem(atPath: data + "/a/night-0.csv", toPath: data + "/copies/night-0-copy.csv")
            // p.csv and p.json share the stem "p"; p.csv's night (2024-03-29 23:30 Berlin) meets the export's first.
            let appExport = try String(contentsOfFile: Self.repository + "/Data/sleepsta-app-export.json", encoding: .utf8)
            w.write("p.json", appExport)
            _ = fm.createFile(atPath: data + "/p.csv", contents: Data(SyntheticNights.rawCSV(startUTC: 1_711_751_400, hours: 7, rateHz: 1, seed: 9)))
            w.write("broken.csv", "timestamp,x,y,z\n1718398800,0.1,0.1,0.1\n1718398801,0.1,oops,0.1\n")
            try WearableCWAGenerator(signal: WearableCSVGenerator(days: 1.5)).write(to: data + "/wrist.cwa")
        }

        static var repository: String {
            var url = URL(fileURLWithPath: #filePath)
            for _ in 0..<3 { url.deleteLastPathComponent() }
            return url.path
        }

        func configuration(db: String, reports: String, shard: Shard? = nil, interval: IntervalLength = .tenMinutes) -> PipelineConfiguration {
            var c = PipelineConfiguration(dataDirectory: data, databasePath: db, reportsDirectory: reports,
                                          parameters: AnalysisParameters(), timeZoneIdentifier: "Europe/Berlin")
            c.parameters.interval = interval
            c.shard = shard
            return c
        }

        @discardableResult
        func run(db: String, reports: String, shard: Shard? = nil, interval: IntervalLength = .tenMinutes) throws -> RunSummary {
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            return try Pipeline(configuration: configuration(db: db, reports: reports, shard: shard, interval: interval), logger: logger).run()
        }

        /// Runs every shard of `count` into `root/shards-<count>/shard-K.sqlite`; returns the paths.
        func runShards(_ count: Int) throws -> [String] {
            try (1...count).map { k in
                let db = root + "/shards-\(count)/shard-\(k).sqlite"
                try run(db: db, reports: root + "/shards-\(count)/reports-\(k)", shard: Shard(index: k, count: count)!)
                return db
            }
        }
    }

    static func allRows(_ path: String) throws -> [String: [String]] {
        // Every table but the run log, with row ids: for "merging again changes nothing".
        try StoreSnapshot(databasePath: path).tables
    }

    @Test("the assignment is a deterministic partition that keeps a stem's files together and balances bytes")
    func assignment() throws {
        var rng = SplitMix64(seed: 17)
        var files: [(relativePath: String, sizeBytes: Int64)] = []
        for i in 0..<300 {
            let size = Int64(rng.next() % 50_000_000) + 1_000
            files.append(("site\(i % 7)/rec-\(i).csv", size))
            if i % 25 == 0 { files.append(("site\(i % 7)/rec-\(i).csv.gz", size / 3)) }   // same stem
        }
        let total = files.map(\.sizeBytes).reduce(0, +)
        for n in [1, 2, 3, 4, 7, 16] {
            let owners = Shard.assignment(of: files, count: n)
            #expect(owners.count == files.count && owners.allSatisfy { (1...n).contains($0) })
            // The same listing in another order: every file goes to the same shard.
            let shuffled = files.shuffled(using: &rng)
            let again = Dictionary(uniqueKeysWithValues: zip(shuffled.map(\.relativePath), Shard.assignment(of: shuffled, count: n)))
            #expect(zip(files, owners).allSatisfy { again[$0.0.relativePath] == $0.1 })
            for (file, owner) in zip(files, owners) where file.relativePath.hasSuffix(".gz") {
                let plain = String(file.relativePath.dropLast(3))
                #expect(owners[files.firstIndex { $0.relativePath == plain }!] == owner, "\(plain) and its .gz in different shards")
            }
            // Longest-processing-time bound: no shard exceeds the mean by more than the largest group.
            var load = [Int64](repeating: 0, count: n + 1)
            for (file, owner) in zip(files, owners) { load[owner] += file.sizeBytes }
            let largest = files.map(\.sizeBytes).max()! * 2
            #expect(load.max()! <= total / Int64(n) + largest, "loads \(load)")
        }
        #expect(Shard(parsing: "3/8") == Shard(index: 3, count: 8))
        #expect(Shard(parsing: "0/8") == nil && Shard(parsing: "9/8") == nil && Shard(parsing: "3") == nil && Shard(parsing: "a/b") == nil)
    }

    @Test("3 shards merged and rendered equal one run: every table (ids and runs apart) and every report file; merging again changes nothing; merge order does not matter")
    func shardedEqualsSingle() throws {
        let cohort = try Cohort()
        let root = cohort.root
        let single = try cohort.run(db: root + "/single.sqlite", reports: root + "/single-reports")
        #expect(single.failures.map(\.path) == ["broken.csv"])
        let shards = try cohort.runShards(3)

        let merged = try ShardMergeRun(databasePath: root + "/all.sqlite", shardPaths: shards, expectedShards: 3).run()
        #expect(merged.missing.isEmpty && merged.merged == [1, 2, 3] && merged.exitCode == ExitStatus.success)
        #expect(merged.counts["recordings"]?.skipped == 0 || merged.counts["recordings"]?.skipped == 1)   // the copy, if in another shard
        let rendered = try ReportRender(databasePath: root + "/all.sqlite", reportsDirectory: root + "/merged-reports").run()
        #expect(rendered.nights == single.nightsInStore)

        let expected = try SleepDatabase(path: root + "/single.sqlite").canonicalContent()
        let actual = try SleepDatabase(path: root + "/all.sqlite").canonicalContent()
        #expect(Set(expected.keys) == Set(actual.keys))
        for table in expected.keys.sorted() {
            #expect(expected[table] == actual[table], "\(table): \(expected[table]!.count) rows in one run, \(actual[table]?.count ?? 0) merged")
        }
        // Every kind of content is in the cohort (a table left empty would prove nothing).
        for table in ["recordings", "recording_warnings", "nights", "base_series", "epoch_series", "analyses", "intervals", "scores", "night_metrics"] {
            #expect((expected[table]?.count ?? 0) > 0, "\(table) is empty")
        }
        #expect(try SleepDatabase(path: root + "/single.sqlite").query("SELECT id FROM nights WHERE id = 'p_2024-03-29-2'").count == 1)
        #expect(try SleepDatabase(path: root + "/all.sqlite").query("SELECT path FROM recordings WHERE path LIKE '%night-0%'").map { $0["path"]! } == ["a/night-0.csv"])
        // A shard's warnings arrive with its recording, under the merged recording's id.
        let cut: Set<String> = ["a/night-cut.csv"]
        let fromShard = try #require(try shards.compactMap { try SleepDatabase(path: $0).recordingsWithRhythm(paths: cut).first }.first)
        let mergedCut = try #require(try SleepDatabase(path: root + "/all.sqlite").recordingsWithRhythm(paths: cut).first)
        #expect(fromShard.recording.warnings.contains { $0.contains("file ends inside its last row") }, "\(fromShard.recording.warnings)")
        #expect(mergedCut.recording.warnings == fromShard.recording.warnings)

        let singleFiles = ReportTree.files(in: root + "/single-reports")
        let mergedFiles = ReportTree.files(in: root + "/merged-reports")
        #expect(singleFiles.count > 10)
        #expect(ReportTree.differences(singleFiles, mergedFiles).isEmpty, "\(ReportTree.differences(singleFiles, mergedFiles))")

        // Again, shard by shard: nothing changes (not even a row id), and render writes nothing.
        let before = try Self.allRows(root + "/all.sqlite")
        for shard in shards.reversed() {
            let again = try ShardMergeRun(databasePath: root + "/all.sqlite", shardPaths: [shard], expectedShards: 3).run()
            #expect(again.counts.values.allSatisfy { $0.inserted == 0 && $0.replaced == 0 }, "\(again.counts)")
        }
        #expect(try Self.allRows(root + "/all.sqlite") == before)
        let rerendered = try ReportRender(databasePath: root + "/all.sqlite", reportsDirectory: root + "/merged-reports").run()
        #expect(rerendered.written == 0)

        // The other order into a fresh database: the same content.
        _ = try ShardMergeRun(databasePath: root + "/all-reversed.sqlite", shardPaths: shards.reversed()).run()
        #expect(try SleepDatabase(path: root + "/all-reversed.sqlite").canonicalContent() == expected)
    }

    @Test("every table of the schema is merged or explicitly excluded as run bookkeeping")
    func everyTableMergedOrExcluded() throws {
        let w = Workspace()
        let db = try SleepDatabase(path: w.db)
        let tables = Set(try db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").map { $0["name"]! })
        // Plan throws for a table it cannot match across databases (a row id without a UNIQUE key).
        let plan = try db.mergePlan()
        #expect(Set(plan.merged).union(plan.excluded) == tables)
        #expect(Set(plan.merged).isDisjoint(with: plan.excluded))
        #expect(Set(plan.excluded) == ShardMerge.bookkeepingTables.intersection(tables))
        // Parents before children.
        #expect(plan.merged.firstIndex(of: "recordings")! < plan.merged.firstIndex(of: "nights")!)
        #expect(plan.merged.firstIndex(of: "nights")! < plan.merged.firstIndex(of: "analyses")!)
        #expect(plan.merged.firstIndex(of: "analyses")! < plan.merged.firstIndex(of: "intervals")!)
        #expect(plan.merged.firstIndex(of: "analyses")! < plan.merged.firstIndex(of: "night_metrics")!)
    }

    @Test("a table added by a later migration is merged without merge knowing it: by its UNIQUE key, or by content when it has none")
    func tableFromLaterMigration() throws {
        let cohort = try Cohort()
        let root = cohort.root
        let shards = try cohort.runShards(2)
        let single = root + "/single.sqlite"
        try cohort.run(db: single, reports: root + "/single-reports")
        // What another branch's migration might add: a table of per-recording facts with a row id and
        // no UNIQUE key, and one keyed by night; filled in every database from its own rows.
        for path in shards + [single] {
            try SleepDatabase(path: path).pool.write { db in
                try db.execute(sql: """
                    CREATE TABLE recording_facts (id INTEGER PRIMARY KEY, recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
                        fact TEXT NOT NULL, value REAL);
                    CREATE TABLE night_notes (night_id TEXT PRIMARY KEY REFERENCES nights(id) ON DELETE CASCADE, note TEXT NOT NULL);
                    INSERT INTO recording_facts (recording_id, fact, value) SELECT id, 'samples', sample_count FROM recordings ORDER BY content_hash DESC;
                    INSERT INTO night_notes (night_id, note) SELECT id, 'night of ' || night_date FROM nights;
                    """)
            }
        }
        let all = root + "/all.sqlite"
        try FileManager.default.copyItem(atPath: shards[0], toPath: all)   // a merged database with the same schema
        let emptied = try SleepDatabase(path: all)
        let tables = try emptied.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('grdb_migrations') AND name NOT LIKE 'sqlite_%'").map { $0["name"]! }
        try emptied.pool.write { db in
            for table in tables { try db.execute(sql: "DELETE FROM \"\(table)\"") }
        }
        let plan = try SleepDatabase(path: all).mergePlan()
        #expect(plan.merged.contains("recording_facts") && plan.merged.contains("night_notes"))
        _ = try ShardMergeRun(databasePath: all, shardPaths: shards, expectedShards: 2).run()
        _ = try ShardMergeRun(databasePath: all, shardPaths: shards, expectedShards: 2).run()   // again: nothing doubles
        let expected = try SleepDatabase(path: single).canonicalContent()
        let actual = try SleepDatabase(path: all).canonicalContent()
        #expect((expected["recording_facts"]?.count ?? 0) > 0 && (expected["night_notes"]?.count ?? 0) > 0)
        #expect(actual == expected, "\(Set(expected.keys).union(actual.keys).filter { expected[$0] != actual[$0] }.sorted())")
    }

    @Test("merge refuses, naming the shard and changing nothing: other parameters, another schema, an unfinished run, an unsharded database; missing shards exit 1")
    func refusals() throws {
        let cohort = try Cohort()
        let root = cohort.root
        let shards = try cohort.runShards(2)
        let all = root + "/all.sqlite"
        let first = try ShardMergeRun(databasePath: all, shardPaths: [shards[0]], expectedShards: 2).run()
        #expect(first.missing == [2] && first.exitCode == ExitStatus.someFilesFailed)
        let before = try Self.allRows(all)
        let runsBefore = try SleepDatabase(path: all).allRuns().count

        func refused(_ paths: [String], containing text: String, expect: Int? = 2) {
            do {
                _ = try ShardMergeRun(databasePath: all, shardPaths: paths, expectedShards: expect).run()
                Issue.record("merge of \(paths) was not refused")
            } catch {
                #expect("\(error)".contains(text), "\(error)")
                if case PipelineError.environment = error {} else { Issue.record("not an environment error (exit 2): \(error)") }
            }
        }
        // Other parameters: shard 2 of a 15-minute run.
        let other = root + "/other-15m.sqlite"
        try cohort.run(db: other, reports: root + "/other-reports", shard: Shard(index: 2, count: 2)!, interval: IntervalLength(parsing: "15m")!)
        refused([shards[1], other], containing: other)
        refused([other], containing: "other parameters")
        // Another shard count.
        let three = root + "/three.sqlite"
        try cohort.run(db: three, reports: root + "/three-reports", shard: Shard(index: 2, count: 3)!)
        refused([three], containing: "one of 3", expect: nil)
        // Another schema: an older sleepsta's database.
        let old = root + "/old.sqlite"
        try SleepDatabase.createSchema(path: old, upTo: SleepDatabase.knownMigrations[0])
        refused([old], containing: "\(old) has schema")
        // A task killed mid-run: its run row never finished.
        let killed = root + "/killed.sqlite"
        try FileManager.default.copyItem(atPath: shards[1], toPath: killed)
        try SleepDatabase(path: killed).pool.write { try $0.execute(sql: "UPDATE runs SET status = 'running', finished_utc = NULL") }
        refused([killed], containing: "did not finish")
        // A database of an unsharded run.
        let plain = root + "/plain.sqlite"
        try cohort.run(db: plain, reports: root + "/plain-reports")
        refused([plain], containing: "not written by a sharded run")
        refused([root + "/nothing.sqlite"], containing: "no such file")

        #expect(try Self.allRows(all) == before)
        #expect(try SleepDatabase(path: all).allRuns().count == runsBefore)
        let second = try ShardMergeRun(databasePath: all, shardPaths: [shards[1]], expectedShards: 2).run()
        #expect(second.missing.isEmpty && second.merged == [1, 2])
    }

    @Test("a merge killed (SIGKILL) part way leaves the merged database as it was; merging again completes it")
    func killedMerge() throws {
        guard SleepstaBinary.path != nil else { Issue.record(Comment(rawValue: SleepstaBinary.missingMessage)); return }
        let cohort = try Cohort()
        let root = cohort.root
        let shards = try cohort.runShards(3)
        let all = root + "/all.sqlite"
        _ = try ShardMergeRun(databasePath: all, shardPaths: [shards[0]]).run()
        let before = try SleepDatabase(path: all).canonicalContent()
        let clock = ContinuousClock()
        let mergeTime = try clock.measure { _ = try ShardMergeRun(databasePath: root + "/complete.sqlite", shardPaths: shards).run() }
        let mergeMicroseconds = UInt64(mergeTime.components.seconds * 1_000_000 + mergeTime.components.attoseconds / 1_000_000_000_000)
        let complete = try SleepDatabase(path: root + "/complete.sqlite").canonicalContent()
        #expect(before != complete)
        var rng = SplitMix64(seed: 4)
        var killedPartWay = 0
        for attempt in 0..<6 {
            let child = try ChildProcess.sleepsta(["merge", "--db", all] + shards, in: root, outputPrefix: root + "/merge-\(attempt)")
            // Process start-up (about 10 ms), then somewhere inside the merge as timed in-process.
            usleep(UInt32(10_000 + mergeMicroseconds / 10 + rng.next() % max(1, mergeMicroseconds * 8 / 10)))
            let ended = !child.isRunning
            child.kill()
            let outcome = child.wait()
            let now = try SleepDatabase(path: all).canonicalContent()
            if outcome.killed && !ended {
                #expect(now == before || now == complete, "attempt \(attempt): a killed merge left a mixture")
                if now == before { killedPartWay += 1 }
            }
            if now == complete { break }
        }
        print("SHARDS merge takes \(mergeMicroseconds / 1000) ms; killed merges that left the database as it was: \(killedPartWay)")
        _ = try ShardMergeRun(databasePath: all, shardPaths: shards, expectedShards: 3).run()
        #expect(try SleepDatabase(path: all).canonicalContent() == complete)
    }
}

/// The files of a run are ingested on every core, with the result of a serial run.
@Suite("Files ingested in parallel", .serialized)
struct ParallelIngestTests {
    @Test("files on 2 and 4 threads give the serial run's store (row ids included), summary and reports, also after moves, copies and changes")
    func parallelEqualsSerial() throws {
        let cohort = try ShardMergeTests.Cohort()
        let root = cohort.root
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        func run(_ name: String, threads: Int) throws -> RunSummary {
            var c = cohort.configuration(db: root + "/\(name).sqlite", reports: root + "/\(name)-reports")
            c.ingestThreads = threads
            return try Pipeline(configuration: c, logger: logger).run()
        }
        func compare(_ step: String) throws {
            let serial = try run("serial", threads: 1)
            let serialStore = try StoreSnapshot(databasePath: root + "/serial.sqlite")
            let serialReports = ReportTree.files(in: root + "/serial-reports")
            for threads in [2, 4] {
                let parallel = try run("parallel-\(threads)", threads: threads)
                #expect(parallel.filesIngested == serial.filesIngested && parallel.filesUnchanged == serial.filesUnchanged
                        && parallel.nightsStored == serial.nightsStored && parallel.warnings == serial.warnings, "\(step), \(threads) threads")
                #expect(parallel.failures.map(\.path) == serial.failures.map(\.path) && parallel.failures.map(\.error) == serial.failures.map(\.error))
                let store = try StoreSnapshot(databasePath: root + "/parallel-\(threads).sqlite")
                #expect(store == serialStore, "\(step), \(threads) threads: \(store.differences(from: serialStore))")
                let reports = ReportTree.files(in: root + "/parallel-\(threads)-reports")
                #expect(ReportTree.differences(serialReports, reports).isEmpty, "\(step): \(ReportTree.differences(serialReports, reports))")
            }
            print("PARALLEL \(step): \(serial.filesIngested) ingested, \(serial.filesUnchanged) unchanged, \(serial.failures.count) failed, store identical on 1, 2 and 4 threads")
        }
        try compare("first run")
        // A file moved, one changed, a new copy of a stored file, a new file sharing a stem.
        let fm = FileManager.default
        try fm.moveItem(atPath: cohort.data + "/b/night-1.csv", toPath: cohort.data + "/a/night-1-moved.csv")
        _ = fm.createFile(atPath: cohort.data + "/p.csv", contents: Data(SyntheticNights.rawCSV(startUTC: 1_711_751_400, hours: 6, rateHz: 1, seed: 10)))
        try fm.copyItem(atPath: cohort.data + "/a/night-2.csv", toPath: cohort.data + "/0-first-copy.csv")
        _ = fm.createFile(atPath: cohort.data + "/b/night-3.csv.gz", contents: Data("not gzip".utf8))
        try compare("after changes")
    }
}
