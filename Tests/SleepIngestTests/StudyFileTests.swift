import Foundation
import Testing
import SleepIngest

/// The study file's reader (``StudyTOML``, ``StudyFile``) and the ignore globs (``IgnorePatterns``).
@Suite("Study file and ignore patterns")
struct StudyFileTests {
    static func entries(_ text: String) throws(IngestError) -> [StudyTOML.Entry] { try StudyTOML.parse(text, path: "s.toml") }

    @Test("the TOML a protocol needs: comments, both string kinds with escapes, numbers, booleans, lists across lines")
    func reads() throws {
        let e = try Self.entries("""
            # a comment
            title = "Pilot \\"A\\" \\u00e9"   # trailing comment
            diary = 'C:\\study\\diary.csv'
            wake_threshold = 2.5
            n = 1_000
            flag = true
            ignore = [
              "*.pdf",  # documents
              'old/*',
            ]

            """)
        #expect(e == [
            .init(key: "title", value: .string("Pilot \"A\" é"), line: 2),
            .init(key: "diary", value: .string("C:\\study\\diary.csv"), line: 3),
            .init(key: "wake_threshold", value: .number(2.5), line: 4),
            .init(key: "n", value: .number(1000), line: 5),
            .init(key: "flag", value: .bool(true), line: 6),
            .init(key: "ignore", value: .strings(["*.pdf", "old/*"]), line: 7),
        ])
    }

    @Test("what a protocol has no use for is refused by line, never misread")
    func refuses() {
        let cases: [(String, String)] = [
            ("a = 1\n[t]\n", "s.toml:2: a study file's keys stand at the top level"),
            ("a.b = 1\n", "s.toml:1: dotted keys are not used"),
            ("a = {x = 1}\n", "s.toml:1: inline tables are not used"),
            ("a = \"open\n", "s.toml:1: a string is not closed on its line"),
            ("a = \"\"\"x\"\"\"\n", "s.toml:1: multi-line strings are not used"),
            ("a = 2024-06-14\n", "s.toml:1: dates are not used"),
            ("a = Europe/Berlin\n", "s.toml:1: 'a = Europe/Berlin': a text value needs quotes (a = \"Europe/Berlin\")"),
            ("a = \"x\" b\n", "s.toml:1: unexpected text after the value of 'a'"),
            ("a = \"C:\\new\\x\"\n", "s.toml:1: unknown escape \\x"),
            ("a = [1, 2]\n", "s.toml:1: the list of 'a' holds strings in quotes only"),
            ("\n\na\n", "s.toml:3: expected '=' after the key 'a'"),
            ("a =\n", "s.toml:1: 'a' has no value"),
        ]
        for (text, message) in cases {
            #expect { try Self.entries(text) } throws: { "\($0)".hasPrefix(message) }
        }
    }

    @Test("keys are run options: unknown keys get the nearest, paths resolve against the file's folder, a rule stays a rule")
    func studyKeys() throws {
        let dir = NSTemporaryDirectory() + "sleepsta-study-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/sleepsta.toml"
        try "diary = \"diary.csv\"\nparticipants = \"folder:2\"\nwake_threshold = 3\nignore = \"*.pdf\"\ndb = \"/srv/s.sqlite\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let s = try StudyFile.read(path: path)
        #expect(s.text("diary") == dir + "/diary.csv" && s.text("participants") == "folder:2" && s.text("db") == "/srv/s.sqlite")
        #expect(s.values["wake-threshold"] == .number(3) && s.values["ignore"] == .strings(["*.pdf"]))
        #expect(s.place("diary") == "\(path) line 1 (diary)" && s.digest.count == 64)
        try "metod = \"ggir\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try StudyFile.read(path: path) } throws: { "\($0)".contains(":1: unknown key 'metod' (did you mean 'method'?)") }
        try "tz = 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try StudyFile.read(path: path) } throws: { "\($0)".contains(":1: 'tz' must be a string in quotes") }
    }

    @Test("ignore globs: a name anywhere without '/', the path from the data folder with it, exact paths; a folder inside")
    func ignorePatterns() {
        let p = IgnorePatterns(globs: ["*.pdf", "./old/*", "backup/"], paths: ["S01/diary.csv"])
        #expect(p.globs == ["*.pdf", "old/*", "backup"])
        #expect(p.matches("a/b/protocol.pdf", name: "protocol.pdf"))
        #expect(p.matches("old/night.csv", name: "night.csv"))
        #expect(!p.matches("S01/old/night.csv", name: "night.csv"))   // '/' anchors at the data folder
        #expect(!p.matches("old/x/night.csv", name: "night.csv"))     // '*' does not cross '/'
        #expect(p.matches("S03/backup", name: "backup"))
        #expect(p.matches("S01/diary.csv", name: "diary.csv") && !p.matches("S02/diary.csv", name: "diary.csv"))
        #expect(IgnorePatterns.relativePath(of: "/data/study/S01/../S02/p.csv", inside: "/data/study/") == "S02/p.csv")
        #expect(IgnorePatterns.relativePath(of: "/data/other/p.csv", inside: "/data/study") == nil)
        #expect(IgnorePatterns.relativePath(of: "/data/study", inside: "/data/study") == nil)
    }
}
