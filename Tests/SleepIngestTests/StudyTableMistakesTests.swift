import Foundation
import Testing
import SleepCore
import SleepIngest

/// A researcher's participants table and diary as they come: every mistake of the table named by
/// row or recording with what was expected, diary ids that are participant ids, and the diary's
/// rows counted by kind.
@Suite("Study tables: participants table mistakes, diaries keyed by participant")
struct StudyTableMistakesTests {
    static let recordings = ["S01/night1.cwa", "S02/night1.cwa", "S03/night1.cwa", "S03/night2.cwa", "S04.cwa"]

    @Test("a typo in a path, an id in two groups, a recording in no row: one line each, with the row and what was expected")
    func tableMistakes() {
        let rows = [
            ParticipantTableRow(id: "S01", group: "control", path: "S01", row: 2),
            ParticipantTableRow(id: "S02", group: "control", path: "S02/nigth1.cwa", row: 3),
            ParticipantTableRow(id: "S03", group: "control", path: "S03/night1.cwa", row: 4),
            ParticipantTableRow(id: "S03", group: "treated", path: "S03/night2.cwa", row: 5),
        ]
        let problems = ParticipantsTable.problems(rows, path: "participants.csv", recordings: Self.recordings)
        #expect(problems.count == 4, "\(problems)")
        #expect(problems.contains("participants.csv row 5: id 'S03' is in group 'treated' here but in group 'control' in row 4; the two are kept apart as two participants (expected one group per id)"), "\(problems)")
        #expect(problems.contains("participants.csv row 3: path 'S02/nigth1.cwa' matches no recording under --data (expected a recording's path relative to --data, a folder holding recordings, or a file name; the nearest is 'S02/night1.cwa')"), "\(problems)")
        #expect(problems.contains("participants.csv: recording 'S02/night1.cwa' is in no row, so it is a participant of its own named by its path (expected a row id,group,S02/night1.cwa)"), "\(problems)")
        #expect(problems.contains { $0.contains("recording 'S04.cwa' is in no row") }, "\(problems)")
        // A folder row, a file-name row and a whole path all name their recordings: no line for them.
        let fine = [ParticipantTableRow(id: "A", group: "", path: "S01", row: 2), ParticipantTableRow(id: "B", group: "", path: "night1.cwa", row: 3),
                    ParticipantTableRow(id: "C", group: "", path: "S03/night2.cwa", row: 4), ParticipantTableRow(id: "D", group: "", path: "S04.cwa", row: 5)]
        #expect(ParticipantsTable.problems(fine, path: "p.csv", recordings: Self.recordings).isEmpty)
        // A file that failed to read is present: its row is no typo.
        let failed = [ParticipantTableRow(id: "E", group: "", path: "broken.cwa", row: 2)]
        #expect(!ParticipantsTable.problems(failed, path: "p.csv", recordings: [], present: ["broken.cwa"]).contains { $0.contains("matches no recording") })
    }

    static let window = NightWindow(date: CivilDate(year: 2024, month: 6, day: 12), startUTC: 1_718_186_400, endUTC: 1_718_272_800)

    @Test("a diary keyed by participant id applies to the participant's recordings through the table; without one the row says how to map it")
    func participantIDs() throws {
        let text = """
            id,night,in_bed,out_of_bed,type
            S02,2024-06-12,22:40,06:55,sleep
            S02,2024-06-12,14:00,14:50,nap
            S02,2024-06-12,17:00,18:00,nonwear
            S09,2024-06-12,22:00,06:00,sleep
            """
        var diary = try SleepDiary.parse(text, path: "diary.csv")
        let nights: [String: Set<String>] = ["rec/wrist-a.cwa": ["2024-06-12"]]
        let alone = diary.use(nightDates: nights)
        #expect(alone.applied == 0)
        #expect(alone.problems.contains("diary.csv rows 2, 3, 4: id 'S02' matches no recording (ids match a path, a file name with or without its extension, or a folder name; if it is a participant id, --participants FILE with a table id,group,path maps ids to files)"), "\(alone.problems)")
        let unbound = diary.digest
        diary.bind(participants: .table([ParticipantTableRow(id: "S02", group: "", path: "rec/wrist-a.cwa", row: 2)]))
        #expect(diary.digest != unbound, "which files an id names is part of the analysis key")
        let use = diary.use(nightDates: nights)
        #expect(use.applied == 3 && use.rows == 4, "\(use)")
        #expect(use.byKindText == "sleep 1 of 2, nap 1 of 1, nonwear 1 of 1", "\(use.byKindText)")
        #expect(use.problems == ["diary.csv row 5: id 'S09' matches no recording nor a participant id of the participants table (ids match a participant id, a path, a file name with or without its extension, or a folder name)"], "\(use.problems)")
        let g = diary.guides(recordingPath: "rec/wrist-a.cwa", night: Self.window, timeline: .fixed(7200))
        #expect(g.main?.source == "the sleep diary (diary.csv row 2)")
        #expect(g.others.map(\.kind) == [.nap, .nonwear], "the nap a period, the nonwear row a span not worn")
        #expect(g.others[1].startUTC == Self.window.startUTC + 5 * 3600 && g.others[1].endUTC == Self.window.startUTC + 6 * 3600)
        // Another recording of the table is not S02's.
        #expect(diary.guides(recordingPath: "rec/wrist-b.cwa", night: Self.window, timeline: .fixed(7200)).main == nil)
        // A table none of whose ids the diary uses leaves the digest as it was.
        diary.bind(participants: .table([ParticipantTableRow(id: "X", group: "", path: "rec", row: 2)]))
        #expect(diary.digest == unbound)
        diary.bind(participants: .file)
        #expect(diary.digest == unbound && diary.use(nightDates: nights).applied == 0)
    }

    @Test("wrist epochs: a diary's nonwear span flags its epochs not worn, and nothing outside it")
    func notWornEpochs() {
        var e = WearableEpochs.empty(startUTC: 1000)
        e.nonWear = [Bool](repeating: false, count: 10)
        e.enmo = [Float](repeating: 0, count: 10); e.angleZ = e.enmo; e.mad = e.enmo
        e.sampleCounts = [UInt16](repeating: 500, count: 10)
        e.markNotWorn([[1010, 1025], [990, 1000], [1040, 1030]])
        #expect(e.nonWear == [false, false, true, true, true, false, false, false, false, false])
    }
}
