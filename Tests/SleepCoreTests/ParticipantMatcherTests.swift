import Foundation
import Testing
import SleepCore

/// A participants table indexed once (``ParticipantMatcher``) answers as the rule's scan of every
/// row does, for every recording, and in time that does not grow with the table.
@Suite("Participants matched through an index of the table's rows")
struct ParticipantMatcherTests {
    /// A small seeded generator: the same tables on every run.
    struct LCG {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
    }

    @Test("the same participant as the scan for generated tables and paths: files, folders, bare names, ties, trailing slashes, Unicode")
    func sameAsTheScan() {
        var rng = LCG(state: 45)
        let parts = ["a", "b", "site-1", "p07", "n1.csv", "n2.cwa", "é", "e\u{301}", "x.gz", "night.csv"]
        func path(_ depth: Int) -> String { (0..<depth).map { _ in parts[rng.next(parts.count)] }.joined(separator: "/") }
        for _ in 0..<200 {
            var rows: [ParticipantTableRow] = []
            for k in 0..<(1 + rng.next(30)) {
                var p = path(1 + rng.next(3))
                if rng.next(10) == 0 { p += "/" }
                rows.append(ParticipantTableRow(id: "P\(rng.next(8))", group: ["", "g1", "g2"][rng.next(3)], path: p, row: k + 2))
            }
            let rule = ParticipantRule.table(rows)
            let matcher = ParticipantMatcher(rule)
            for _ in 0..<50 {
                let recording = path(1 + rng.next(4))
                #expect(matcher.participant(recordingPath: recording) == rule.participant(recordingPath: recording), "\(recording) in \(rows)")
            }
        }
        for rule in [ParticipantRule.file, .folder(level: 1), .folder(level: 2)] {
            #expect(ParticipantMatcher(rule).participant(recordingPath: "a/b/c.csv") == rule.participant(recordingPath: "a/b/c.csv"))
        }
    }

    /// What makes a cohort fast, checked without a clock (timings belong in the bench): each
    /// lookup reads the rows its path can match, never the whole table as the scan does.
    @Test("300 recordings against a table of 100 000 rows: each lookup reads one row, not the table")
    func cohortLookupsReadTheirRowsOnly() {
        let rows = (0..<100_000).map { ParticipantTableRow(id: "P\($0)", group: "g\($0 % 3)", path: "site-\($0 % 7)/p\($0)/night.csv") }
        let recordings = (0..<300).map { "site-\(($0 * 311) % 7)/p\($0 * 311)/night.csv" }
        let matcher = ParticipantMatcher(.table(rows))
        let found = recordings.map { matcher.participant(recordingPath: $0) }
        let read = recordings.map { matcher.candidates(recordingPath: $0).count }
        #expect(read.allSatisfy { $0 == 1 }, "rows read per lookup: \(Set(read).sorted())")
        #expect(found[1] == Participant(id: "P311", group: "g\(311 % 3)"))
        #expect(found.allSatisfy { $0.id.hasPrefix("P") })
        // The same answers as the scan (three of them: the scan reads the whole table each time).
        for k in 0..<3 { #expect(found[k] == ParticipantRule.table(rows).participant(recordingPath: recordings[k])) }
    }
}
