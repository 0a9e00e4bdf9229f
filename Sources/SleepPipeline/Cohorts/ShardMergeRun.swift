import Foundation
import SleepCore
import SleepReport
import SleepStore

/// `sleepsta merge --db ALL SHARD…`: shard databases (each written by `run --shard K/N`) into one.
///
/// Before anything is written every shard is checked, and the merge refuses (exit 2), naming the
/// shard, when one has another schema than this sleepsta, was not written by a sharded run, has a
/// last run that did not finish (a killed task: rerun the shard), or used other analysis
/// parameters, zone, kind, units, sleepsta version, shard count or data-folder listing than the
/// others or than the runs already merged into ALL. Then all shards are merged in one transaction
/// together with a `runs` row (command `merge`) naming the shards merged, so a killed merge leaves
/// ALL as it was, and merging a shard again changes nothing (``ShardMerge``).
public struct ShardMergeRun {
    public var databasePath: String
    public var shardPaths: [String]
    /// `--expect N`: report shards of 1…N merged neither now nor before (exit 1 when any).
    public var expectedShards: Int?
    public var toolVersion = SleepstaVersion.current

    public init(databasePath: String, shardPaths: [String], expectedShards: Int? = nil) {
        self.databasePath = databasePath; self.shardPaths = shardPaths; self.expectedShards = expectedShards
    }

    public struct Summary: Sendable {
        public var shards: [(path: String, stamp: ShardStamp, filesFailed: Int)] = []
        public var counts: MergeCounts = [:]
        /// Shard indices merged into ALL so far (this merge and earlier ones).
        public var merged: [Int] = []
        public var expected: Int?
        public var missing: [Int] = []
        public var exitCode: Int32 { missing.isEmpty ? ExitStatus.success : ExitStatus.someFilesFailed }
    }

    /// What a run's `parameters_json` says, as far as merging cares.
    struct ShardRunParameters: Codable {
        var analysis: AnalysisParameters?
        var key: String?
        var timeZone: String?
        var kind: String?
        var units: String?
        var shard: ShardStamp?
        var shards: MergedShards?

        /// Everything that must agree between shards for their union to be one run's result.
        func agreement(toolVersion: String) -> String {
            let analysisText = analysis.flatMap { try? Pipeline.json($0) } ?? "-"
            return "sleepsta \(toolVersion), parameters \(key ?? "-") \(analysisText), --tz \(timeZone ?? "none"), --kind \(kind ?? "auto"), --units \(units ?? "auto")"
        }
    }

    /// What a `merge` row records about the shards.
    struct MergedShards: Codable {
        var count: Int
        var folderDigest: String
        var merged: [Int]
    }

    static func parameters(_ run: RunRecord) -> ShardRunParameters? {
        try? JSONDecoder().decode(ShardRunParameters.self, from: Data(run.parametersJSON.utf8))
    }

    public func run() throws -> Summary {
        var seen = Set<String>()
        let paths = shardPaths.filter { seen.insert(($0 as NSString).standardizingPath).inserted }
        guard !paths.isEmpty else { throw PipelineError.environment("merge: no shard database given") }
        let known = SleepDatabase.knownMigrations
        var summary = Summary()
        summary.expected = expectedShards
        var reference: (agreement: String, count: Int, digest: String, source: String)?
        var shardParameters: ShardRunParameters?

        func agree(_ p: ShardRunParameters, toolVersion: String, count: Int, digest: String, source: String) throws {
            let a = p.agreement(toolVersion: toolVersion)
            guard let r = reference else { reference = (a, count, digest, source); return }
            if r.agreement != a {
                throw PipelineError.environment("merge: \(source) was made with other parameters than \(r.source): \(a) vs \(r.agreement); nothing was merged")
            }
            if r.count != count { throw PipelineError.environment("merge: \(source) is one of \(count) shards, \(r.source) one of \(r.count); nothing was merged") }
            if r.digest != digest {
                throw PipelineError.environment("merge: \(source) saw another data folder listing than \(r.source) (files added, removed or resized between the tasks' starts, so a file may be in two shards or none); rerun every shard on a settled folder; nothing was merged")
            }
        }

        for path in paths {
            let facts: ShardFacts
            do { facts = try SleepDatabase.shardFacts(path: path) } catch { throw PipelineError.environment("merge: shard \(path): \(error)") }
            guard facts.migrations == known else {
                throw PipelineError.environment("merge: shard \(path) has schema [\(facts.migrations.joined(separator: ", "))], this sleepsta [\(known.joined(separator: ", "))]; rerun that shard with this sleepsta; nothing was merged")
            }
            // Names from a shard become paths and SQL reads: a shard sleepsta made has no views and
            // only night ids sleepsta makes.
            guard facts.views.isEmpty else {
                throw PipelineError.environment("merge: shard \(path) holds views (\(facts.views.prefix(3).map { PrintableText.escaped($0) }.joined(separator: ", "))), which sleepsta never makes; nothing was merged")
            }
            if let bad = facts.nightIDs.first(where: { !NightNaming.isNightID($0) }) {
                throw PipelineError.environment("merge: shard \(path) holds the night id '\(PrintableText.escaped(bad))', which is not one sleepsta makes (stem_YYYY-MM-DD, letters, digits, - _ .); nothing was merged")
            }
            guard let last = facts.runs.last(where: { ["run", "nightly"].contains($0.command) }) else {
                throw PipelineError.environment("merge: shard \(path) holds no run; nothing was merged")
            }
            guard last.finishedUTC != nil, ["ok", "some-files-failed"].contains(last.status) else {
                throw PipelineError.environment("merge: shard \(path): its last run (started \(last.startedUTC)) did not finish (status \(last.status)): the task was killed or failed; rerun that shard; nothing was merged")
            }
            guard let p = Self.parameters(last), let stamp = p.shard else {
                throw PipelineError.environment("merge: \(path) was not written by a sharded run (sleepsta run --shard K/N); nothing was merged")
            }
            try agree(p, toolVersion: last.toolVersion, count: stamp.count, digest: stamp.folderDigest, source: "shard \(path) (\(stamp.index)/\(stamp.count))")
            shardParameters = shardParameters ?? p
            summary.shards.append((path, stamp, last.filesFailed))
        }
        if let n = expectedShards, let r = reference, r.count != n {
            throw PipelineError.environment("merge: --expect \(n), but the shards are of \(r.count); nothing was merged")
        }

        let directory = (databasePath as NSString).deletingLastPathComponent
        if !directory.isEmpty { try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        let lock = try RunLock.forRun(databasePath: databasePath)
        defer { withExtendedLifetime(lock) {} }
        let db: SleepDatabase
        do { db = try SleepDatabase(path: databasePath) } catch { throw PipelineError.environment("merge: \(error)") }
        var earlier: [Int] = []
        if let previous = try db.allRuns().last(where: { ["run", "nightly", "merge"].contains($0.command) && $0.finishedUTC != nil }),
           let p = Self.parameters(previous) {
            let count = p.shards?.count ?? p.shard?.count ?? reference!.count
            let digest = p.shards?.folderDigest ?? p.shard?.folderDigest ?? reference!.digest
            try agree(p, toolVersion: previous.toolVersion, count: count, digest: digest, source: "\(databasePath) (its \(previous.command) of \(previous.startedUTC))")
            earlier = try db.allRuns().filter { $0.command == "merge" }.compactMap { Self.parameters($0)?.shards?.merged }.flatMap { $0 }
        }
        summary.merged = Array(Set(earlier + summary.shards.map(\.stamp.index))).sorted()
        if let n = expectedShards { summary.missing = (1...max(1, n)).filter { !summary.merged.contains($0) } }

        var p = shardParameters!
        p.shard = nil
        p.shards = MergedShards(count: reference!.count, folderDigest: reference!.digest, merged: summary.shards.map(\.stamp.index).sorted())
        let now = Pipeline.timestamp()
        let run = RunRecord(startedUTC: now, finishedUTC: now, toolVersion: toolVersion, command: "merge",
                            parametersJSON: try Pipeline.json(p), filesSeen: summary.shards.map(\.stamp.shardFiles).reduce(0, +),
                            filesFailed: summary.shards.map(\.filesFailed).reduce(0, +),
                            status: summary.missing.isEmpty ? "ok" : "shards-missing")
        do { summary.counts = try db.mergeShards(summary.shards.map(\.path), run: run) } catch {
            throw PipelineError.environment("merge into \(databasePath): \(SleepDatabase.shortDescription(error)); \(databasePath) is as it was")
        }
        return summary
    }
}

extension ShardMergeRun.Summary {
    /// The lines `sleepsta merge` prints.
    public var text: String {
        var lines: [String] = []
        for s in shards {
            lines.append("shard \(s.stamp.index)/\(s.stamp.count): \(s.path) (\(s.stamp.shardFiles) of \(s.stamp.folderFiles) files\(s.filesFailed > 0 ? ", \(s.filesFailed) failed in its run" : ""))")
        }
        for (table, c) in counts.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(table): \(c.inserted) added, \(c.replaced) replaced, \(c.unchanged) already there\(c.skipped > 0 ? ", \(c.skipped) skipped (copies kept at another path)" : "")")
        }
        if let n = expected {
            lines.append(missing.isEmpty ? "all \(n) shards merged" : "missing shards: \(missing.map(String.init).joined(separator: ", ")) of \(n) (run them, then merge them)")
        } else {
            lines.append("shards merged so far: \(merged.map(String.init).joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}
