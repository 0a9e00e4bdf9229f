import Foundation
import Testing
import SleepCore
import SleepIngest

/// A participants table: rows of at most 4 KiB and the read-whole budget, as a diary's; rows that
/// contradict an earlier row named by row.
@Suite("Participants table: row limit, budget, contradictions")
struct ParticipantsTableTests {
    static func refusal(_ body: () throws -> Void) -> IngestError? { ReadWholeBudgetTests.refusal(body) }

    @Test("a participants table: rows of at most 4 KiB (refused with file and row), the same budget, contradictions named by row")
    func participantsTable() throws {
        let folder = NSTemporaryDirectory() + "sleepsta-participants-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/participants.csv"
        try Data(("id,path\np1,a.csv\n" + String(repeating: "p", count: 5000) + ",b.csv\n").utf8).write(to: URL(fileURLWithPath: path))
        let long = Self.refusal { _ = try ParticipantsTable.read(path: path) }
        #expect(long?.file == path && long?.line == 3 && long?.message.contains("row is 5006 bytes long: a participants row (id,group,path) is at most 4096") == true,
                "\(String(describing: long))")
        try Data(Array("id,path\n".utf8) + [UInt8](repeating: 0x0A, count: ReadWholeBudgetTests.size)).write(to: URL(fileURLWithPath: path))
        #expect(Self.refusal { _ = try ParticipantsTable.read(path: path) }?.message.contains("lines in") == true)

        try Data("id,group,path\np1,a,x.csv\np2,a,x.csv\np1,b,y.csv\np1,a,./z.csv\np3,,x.csv/\n".utf8).write(to: URL(fileURLWithPath: path))
        let rows = try ParticipantsTable.read(path: path)
        #expect(rows.map(\.row) == [2, 3, 4, 5, 6])
        let problems = ParticipantsTable.contradictions(rows, path: path)
        #expect(problems.count == 3, "\(problems)")
        #expect(problems[0].hasPrefix("\(path) row 3: path 'x.csv' is already participant 'p1''s (row 2)"))
        #expect(problems[1].hasPrefix("\(path) row 4: id 'p1' is in group 'b' here but in group 'a' in row 2"))
        #expect(problems[2].hasPrefix("\(path) row 6: path 'x.csv'"))
    }
}
