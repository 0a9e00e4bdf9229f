#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import Testing
import SleepPipeline
import SleepReport
import SleepStore

/// One bad (or merely unusual) input and what must come of it.
struct BadInput: @unchecked Sendable {
    enum Content {
        case text(String)
        case bytes([UInt8])
        /// A sparse file of `sizeBytes` whose only written bytes are `head` (holes read as zeros).
        case sparse(sizeBytes: Int64, head: [UInt8])
    }
    enum Expectation {
        /// Refused: the error names the file and contains each fragment (position, what was expected).
        case refused([String])
        /// Accepted: stored, and the check passes on the database (nights of this recording).
        case accepted((_ db: SleepDatabase, _ nights: [[String: String]]) throws -> Void)
    }
    var what: String
    /// The file name; `nameBytes` when the name is not UTF-8.
    var name: String
    var nameBytes: [UInt8]? = nil
    var content: Content
    var expect: Expectation
}

/// A table of bad inputs, run as ONE batch with a good recording among them: each gives a clear
/// error or a correct result, the batch goes on, nothing of a refused file is stored, and every
/// string from input is escaped in the HTML.
@Suite("Bad input, tried systematically", .serialized)
struct BadInputTests {
    static let evening: Int64 = 1_718_391_600   // 2024-06-14T19:00:00Z

    // MARK: Builders

    /// Rows of `timestamp,x,y,z` (1 Hz) from `startUTC` for `seconds`, ISO 8601 with the offset
    /// `offset(utc)` stated per row, or epoch seconds when `offset` is nil.
    static func rows(startUTC: Int64, seconds: Int, step: Int = 1, offset: ((Int64) -> Int)? = nil) -> String {
        var out = "timestamp,x,y,z\n"
        for s in stride(from: 0, to: seconds, by: step) {
            let t = startUTC + Int64(s)
            let v = (s / 60) % 7 == 0 ? "0.0420,-0.0310,0.0150" : "0.0010,-0.0020,0.0015"
            if let offset { out += iso(t, offsetSeconds: offset(t)) + "," + v + "\n" } else { out += "\(t),\(v)\n" }
        }
        return out
    }

    static func iso(_ utc: Int64, offsetSeconds: Int) -> String {
        let local = utc + Int64(offsetSeconds)
        let days = Int64((Double(local) / 86_400).rounded(.down))
        let secs = local - days * 86_400
        // Civil date from days since 1970-01-01 (Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        let sign = offsetSeconds < 0 ? "-" : "+"
        let o = Int64(abs(offsetSeconds))
        func pad(_ v: Int64, _ width: Int = 2) -> String {
            let t = String(v)
            return String(repeating: "0", count: max(0, width - t.count)) + t
        }
        return "\(pad(y, 4))-\(pad(m))-\(pad(d))T\(pad(secs / 3600)):\(pad(secs / 60 % 60)):\(pad(secs % 60))\(sign)\(pad(o / 3600)):\(pad(o / 60 % 60))"
    }

    static func garbage(_ count: Int, seed: UInt64, first: UInt8? = nil) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        if let first { bytes[0] = first }
        return bytes
    }

    static let export = """
        {"timeZone": "Europe/Berlin", "nights": [{"id": "2024-06-14", "intervalSeconds": 600,
          "motionData": [{"motion": 34.4, "timestamp": 1718399400}, {"motion": 18.2, "timestamp": 1718400000},
                         {"motion": 2.5, "timestamp": 1718400600}, {"motion": 2.3, "timestamp": 1718401200}],
          "preBedSurvey": {"caffeine": "no", "stress (1-5)": 2},
          "postBedSurvey": [{"question": "rested (1-5)", "answer": 4}]}]}
        """

    /// The export cut at each of its sections: inside the zone, the nights array, a motion value,
    /// a survey, and just before the last brace.
    static var truncatedExports: [(String, String)] {
        let marks = ["\"timeZone\": \"Eur", "\"nights\": [", "{\"motion\": 34", "\"timestamp\": 17184", "\"preBedSurvey\": {\"caff",
                     "[{\"question\": \"rested", "\"answer\": 4}]}]"]
        return marks.enumerated().map { k, mark in
            let r = export.range(of: mark)!
            return ("truncated-export-\(k + 1).json", String(export[..<r.upperBound]))
        }
    }

    static func stateOffset(berlin utc: Int64) -> Int {
        // 2024 Berlin: CEST from 2024-03-31T01:00Z to 2024-10-27T01:00Z.
        (utc >= 1_711_846_800 && utc < 1_729_990_800) ? 7200 : 3600
    }

    // MARK: The table

    static var cases: [BadInput] {
        var list: [BadInput] = [
            // Raw-sample CSV
            BadInput(what: "empty CSV", name: "empty.csv", content: .text(""), expect: .refused(["empty file"])),
            BadInput(what: "header only", name: "header-only.csv", content: .text("timestamp,x,y,z\n"), expect: .refused(["no sample rows"])),
            // Cut short (a copy or download interrupted): the rows before the cut are the recording,
            // the incomplete last row is dropped, and a warning says so.
            BadInput(what: "truncated inside a row", name: "cut-row.csv",
                     content: .text("timestamp,x,y,z\n1718398800,0.1,0.1,0.1\n1718398801,0.1"),
                     expect: .accepted { db, _ in
                         let r = try #require(try db.query("SELECT (SELECT group_concat(text, char(10)) FROM recording_warnings w WHERE w.recording_id = r.id) AS warnings FROM recordings r WHERE r.path = 'cut-row.csv'").first)
                         #expect(r["warnings"]!.contains("file ends inside its last row (the 14 bytes from offset 39 have no line end: cut short): that incomplete row was dropped"))
                     }),
            BadInput(what: "truncated inside the timestamp", name: "cut-time.csv",
                     content: .text("timestamp,x,y,z\n1718398800,0.1,0.1,0.1\n17183"),
                     expect: .accepted { db, _ in
                         let r = try #require(try db.query("SELECT (SELECT group_concat(text, char(10)) FROM recording_warnings w WHERE w.recording_id = r.id) AS warnings FROM recordings r WHERE r.path = 'cut-time.csv'").first)
                         #expect(r["warnings"]!.contains("the 5 bytes from offset 39 have no line end: cut short"))
                     }),
            BadInput(what: "a damaged last row with its line end (damage, not a cut)", name: "bad-last-row.csv",
                     content: .text("timestamp,x,y,z\n1718398800,0.1,0.1,0.1\n1718398801,0.1\n"), expect: .refused([":3:"])),
            BadInput(what: "truncated inside the only data row", name: "cut-first-row.csv",
                     content: .text("timestamp,x,y,z\n1718398800,0.1"), expect: .refused(["no sample rows"])),
            BadInput(what: "truncated inside the header", name: "cut-header.csv", content: .text("timestamp,x,"), expect: .refused(["cut-header.csv"])),
            BadInput(what: "binary garbage", name: "garbage.csv", content: .bytes(garbage(20_000, seed: 1)), expect: .refused(["garbage.csv"])),
            BadInput(what: "garbage after a valid start", name: "garbage-tail.csv",
                     content: .bytes(Array("timestamp,x,y,z\n1718398800,0.1,0.1,0.1\n".utf8) + garbage(5000, seed: 2)), expect: .refused(["garbage-tail.csv:3"])),
            BadInput(what: "NaN value", name: "nan.csv", content: .text("1718398800,0.1,0.1,0.1\n1718398801,nan,0.1,0.1\n"),
                     expect: .refused([":2:", "NaN or infinite"])),
            BadInput(what: "infinite value", name: "inf.csv", content: .text("1718398800,0.1,0.1,0.1\n1718398801,0.1,-inf,0.1\n"),
                     expect: .refused([":2:", "NaN or infinite"])),
            BadInput(what: "value overflowing a double", name: "overflow.csv", content: .text("1718398800,0.1,0.1,1e999\n"),
                     expect: .refused([":1:"])),
            BadInput(what: "timestamps going backwards", name: "backwards.csv",
                     content: .text("1718398800,0.1,0.1,0.1\n1718398801,0.1,0.1,0.1\n1718398700,0.1,0.1,0.1\n"),
                     expect: .refused([":3:", "backwards"])),
            BadInput(what: "timestamps jumping 3 years ahead (corrupt clock)", name: "jump.csv",
                     content: .text("1718398800,0.1,0.1,0.1\n1818398800,0.1,0.1,0.1\n"), expect: .refused([":2:"])),
            BadInput(what: "m/s² instead of g", name: "ms2.csv",
                     content: .text((0..<200).map { "\(1_718_398_800 + $0),0.12,0.31,9.79" }.joined(separator: "\n")),
                     expect: .refused(["9.80665"])),
            BadInput(what: "five fields", name: "five.csv", content: .text("1718398800,0.1,0.1,0.1\n1718398801,0.1,0.1,0.1,7\n"),
                     expect: .refused([":2:"])),
            BadInput(what: "header naming other columns", name: "bad-header.csv", content: .text("time,a,b,c\n1718398800,0.1,0.1,0.1\n"),
                     expect: .refused(["bad-header.csv"])),
            BadInput(what: "a line longer than 1 MiB", name: "long-line.csv",
                     content: .text("1718398800,0.1,0.1,0.1\n" + String(repeating: "7", count: 1_200_000) + "\n"), expect: .refused(["long-line.csv"])),
            BadInput(what: "offset stated, then missing", name: "offset-dropped.csv",
                     content: .text("2024-06-14T23:00:00+02:00,0.1,0.1,0.1\n2024-06-14T23:00:01,0.1,0.1,0.1\n"), expect: .refused([":2:", "offset"])),
            BadInput(what: "4 KiB of zero bytes", name: "zeros.csv", content: .bytes([UInt8](repeating: 0, count: 4096)), expect: .refused(["zeros.csv"])),
            BadInput(what: "10 GB sparse file of zero bytes", name: "sparse-10g.csv",
                     content: .sparse(sizeBytes: 10 << 30, head: []), expect: .refused(["sparse-10g.csv", "sparse"])),
            BadInput(what: "10 GB sparse file behind a valid header", name: "sparse-header.csv",
                     content: .sparse(sizeBytes: 10 << 30, head: Array("timestamp,x,y,z\n1718398800,0.1,0.1,0.1\n".utf8)),
                     expect: .refused(["sparse-header.csv", "sparse"])),
            BadInput(what: "non-UTF-8 file name", name: "latin1-\u{FFFD}.csv", nameBytes: Array("latin1-".utf8) + [0xE9, 0xFF] + Array(".csv".utf8),
                     content: .text(rows(startUTC: evening, seconds: 600)), expect: .refused(["latin1-\\xE9\\xFF.csv", "not valid UTF-8"])),

            // Accepted, with the right result
            BadInput(what: "duplicated timestamps", name: "duplicates.csv",
                     content: .text("timestamp,x,y,z\n" + rows(startUTC: evening, seconds: 3 * 3600).split(separator: "\n").dropFirst().flatMap { [$0, $0] }.joined(separator: "\n") + "\n"),
                     expect: .accepted { db, nights in
                         let r = try #require(try db.query("SELECT q.duplicate_timestamps, (SELECT group_concat(text, char(10)) FROM recording_warnings w WHERE w.recording_id = r.id) AS warnings FROM recordings r JOIN recording_quality q ON q.recording_id = r.id WHERE r.path = 'duplicates.csv'").first)
                         #expect(r["duplicate_timestamps"] == "10800")
                         #expect(r["warnings"]!.contains("repeat the previous timestamp"))
                         #expect(nights.count == 1)
                     }),
            BadInput(what: "a time zone the data does not state (no --tz)", name: "no-zone.csv",
                     content: .text(rows(startUTC: evening + 5400, seconds: 3 * 3600)),
                     expect: .accepted { db, nights in
                         let r = try #require(try db.query("SELECT r.time_zone, r.time_zone_source, (SELECT group_concat(text, char(10)) FROM recording_warnings w WHERE w.recording_id = r.id) AS warnings FROM recordings r WHERE r.path = 'no-zone.csv'").first)
                         #expect(r["time_zone_source"] == "assumed-utc")
                         #expect(r["warnings"]!.contains("no time zone"))
                         #expect(nights.map { $0["night_date"]! } == ["2024-06-14"])
                         #expect(nights.first?["window_start_utc"] == "1718366400")   // noon UTC
                     }),
            BadInput(what: "a night across the spring DST change (23 h)", name: "dst-spring.csv",
                     content: .text(rows(startUTC: 1_711_832_400, seconds: 6 * 3600, offset: { stateOffset(berlin: $0) })),
                     expect: .accepted { _, nights in
                         #expect(nights.map { $0["night_date"]! } == ["2024-03-30"])
                         #expect(nights.map { Int($0["window_end_utc"]!)! - Int($0["window_start_utc"]!)! } == [23 * 3600])
                     }),
            BadInput(what: "a night across the autumn DST change (25 h)", name: "dst-autumn.csv",
                     content: .text(rows(startUTC: 1_729_972_800, seconds: 7 * 3600, offset: { stateOffset(berlin: $0) })),
                     expect: .accepted { _, nights in
                         #expect(nights.map { $0["night_date"]! } == ["2024-10-26"])
                         #expect(nights.map { Int($0["window_end_utc"]!)! - Int($0["window_start_utc"]!)! } == [25 * 3600])
                     }),
            BadInput(what: "a night across 2038-01-19T03:14:08Z (beyond 32-bit time)", name: "y2038.csv",
                     content: .text(rows(startUTC: 2_147_472_000, seconds: 4 * 3600, offset: { _ in 0 })),
                     expect: .accepted { db, nights in
                         #expect(nights.map { $0["night_date"]! } == ["2038-01-18"])
                         let r = try #require(try db.query("SELECT first_utc, end_utc FROM recordings WHERE path = 'y2038.csv'").first)
                         #expect(Int64(r["first_utc"]!)! < 2_147_483_648 && Int64(r["end_utc"]!)! > 2_147_483_648)
                     }),
            BadInput(what: "epoch milliseconds in 2040", name: "y2040-ms.csv",
                     content: .text("timestamp,x,y,z\n" + (0..<7200).map { "\(2_208_988_800_000 + Int64($0) * 1000),0.001,0.002,0.001" }.joined(separator: "\n")),
                     expect: .accepted { _, nights in #expect(nights.map { $0["night_date"]! } == ["2039-12-31"]) }),
            BadInput(what: "the first night of 1970 (epoch 0, a night window before the epoch)", name: "y1970.csv",
                     content: .text(rows(startUTC: 0, seconds: 3 * 3600, offset: { _ in 0 })),
                     expect: .accepted { _, nights in
                         #expect(nights.map { $0["night_date"]! } == ["1969-12-31"])
                         #expect(nights.first?["window_start_utc"] == "-43200")
                     }),
            BadInput(what: "CRLF line ends and a byte-order mark", name: "crlf-bom.csv",
                     content: .bytes([0xEF, 0xBB, 0xBF] + Array(rows(startUTC: evening + 3600, seconds: 3 * 3600).replacingOccurrences(of: "\n", with: "\r\n").utf8)),
                     expect: .accepted { _, nights in #expect(nights.count == 1) }),
            BadInput(what: "HTML and script in the file name", name: "<img src=x onerror=alert(1)>.csv",
                     content: .text(rows(startUTC: evening + 3600, seconds: 3 * 3600)),
                     expect: .accepted { _, nights in #expect(nights.count == 1) }),

            // The app's JSON export
            BadInput(what: "empty export", name: "empty.json", content: .text(""), expect: .refused(["empty file"])),
            BadInput(what: "export of whitespace", name: "blank.json", content: .text(" \n\t\n"), expect: .refused(["empty file"])),
            BadInput(what: "binary garbage after a brace", name: "garbage.json", content: .bytes(garbage(3000, seed: 3, first: UInt8(ascii: "{"))),
                     expect: .refused(["garbage.json", "not valid JSON"])),
            BadInput(what: "NaN in JSON", name: "nan.json", content: .text(export.replacingOccurrences(of: "34.4", with: "NaN")),
                     expect: .refused(["nan.json"])),
            BadInput(what: "a number overflowing a double", name: "overflow.json", content: .text(export.replacingOccurrences(of: "34.4", with: "1e999")),
                     expect: .refused(["overflow.json"])),
            BadInput(what: "negative motion", name: "negative.json", content: .text(export.replacingOccurrences(of: "34.4", with: "-3")),
                     expect: .refused(["motionData[0].motion"])),
            BadInput(what: "a motion total beyond any acceleration (1e300, once an infinite Float)", name: "huge-motion.json",
                     content: .text(export.replacingOccurrences(of: "34.4", with: "1e300")), expect: .refused(["motionData[0].motion", "50 g"])),
            BadInput(what: "timestamp Int64.min (once an overflow trap)", name: "int64-min.json",
                     content: .text(export.replacingOccurrences(of: "1718399400", with: "-9223372036854775808")),
                     expect: .refused(["motionData[0].timestamp", "between 1970 and 9999"])),
            BadInput(what: "timestamp Int64.max (year 292 million)", name: "int64-max.json",
                     content: .text(export.replacingOccurrences(of: "1718401200", with: "9223372036854775807")),
                     expect: .refused(["motionData[3].timestamp"])),
            BadInput(what: "timestamps backwards", name: "backwards.json", content: .text(export.replacingOccurrences(of: "1718400000", with: "1718300000")),
                     expect: .refused(["motionData[1].timestamp", "backwards"])),
            BadInput(what: "timestamps duplicated", name: "duplicates.json", content: .text(export.replacingOccurrences(of: "1718400000", with: "1718399400")),
                     expect: .refused(["motionData[1].timestamp", "repeats"])),
            BadInput(what: "motion as a string", name: "string-motion.json", content: .text(export.replacingOccurrences(of: "34.4", with: "\"34.4\"")),
                     expect: .refused(["motionData[0].motion", "expected a number"])),
            BadInput(what: "missing motionData", name: "no-motion.json", content: .text("{\"nights\": [{\"id\": \"x\"}]}"),
                     expect: .refused(["motionData"])),
            BadInput(what: "unknown time zone name", name: "mars.json", content: .text(export.replacingOccurrences(of: "Europe/Berlin", with: "Mars/Olympus_Mons")),
                     expect: .refused(["Mars/Olympus_Mons", "unknown time zone"])),
            BadInput(what: "a survey answer that is not UTF-8", name: "latin1-answer.json",
                     content: .bytes(Array(export.replacingOccurrences(of: "\"no\"", with: "\"n\u{1}\"").utf8).map { $0 == 1 ? 0xE9 : $0 }),
                     expect: .refused(["latin1-answer.json"])),
            BadInput(what: "timestamps in 2040 (milliseconds)", name: "y2040.json",
                     content: .text(export.replacingOccurrences(of: "1718399400", with: "2208990000000").replacingOccurrences(of: "1718400000", with: "2208990600000")
                        .replacingOccurrences(of: "1718400600", with: "2208991200000").replacingOccurrences(of: "1718401200", with: "2208991800000")),
                     expect: .accepted { _, nights in #expect(nights.map { $0["night_date"]! } == ["2039-12-31"]) }),
            BadInput(what: "HTML and script in survey questions and answers", name: "script-survey.json",
                     content: .text(export.replacingOccurrences(of: "\"caffeine\": \"no\"", with: "\"<b>caffeine</b>\": \"<script>alert('x')</script> & \\\"more\\\"\"")),
                     expect: .accepted { _, nights in #expect(nights.count == 1) }),
        ]
        list += truncatedExports.map { name, text in
            BadInput(what: "export truncated: …\(text.suffix(12))", name: name, content: .text(text), expect: .refused([name]))
        }
        return list
    }

    // MARK: The run

    @Test("≥ 30 bad inputs in one batch: clear errors or correct results, the batch goes on, nothing partial stored, HTML escaped")
    func badInputs() throws {
        let cases = Self.cases
        #expect(cases.count >= 30)
        #expect(Set(cases.map(\.name)).count == cases.count)
        let w = Workspace()
        w.write("good.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start))
        for c in cases {
            let name = c.nameBytes ?? Array(c.name.utf8)
            switch c.content {
            case .text(let t): try Self.createFile(directory: w.data, nameBytes: name, bytes: Array(t.utf8))
            case .bytes(let b): try Self.createFile(directory: w.data, nameBytes: name, bytes: b)
            case .sparse(let size, let head): try Self.createFile(directory: w.data, nameBytes: name, bytes: head, sparseSize: size)
            }
        }
        let readBefore = Self.bytesReadByThisProcess()
        var logger = Logger(label: "bad-input")
        logger.logLevel = .critical
        let summary = try Pipeline(configuration: PipelineConfiguration(dataDirectory: w.data, databasePath: w.db, reportsDirectory: w.reports,
                                                                        timeZoneIdentifier: nil), logger: logger).run()
        if let before = readBefore, let after = Self.bytesReadByThisProcess() {
            // Two 10 GB sparse files are in the batch: refusing them must not read them.
            #expect(after - before < 1 << 30, "read \(after - before) bytes")
        }

        let db = try SleepDatabase(path: w.db)
        #expect(try db.integrityCheck() == "ok")
        #expect(try db.query("PRAGMA foreign_key_check").isEmpty)
        let stored = Set(try db.query("SELECT path FROM recordings").compactMap { $0["path"] })
        let failures = Dictionary(summary.failures.map { ($0.path, $0.error) }, uniquingKeysWith: { a, _ in a })
        #expect(stored.contains("good.csv"), "the batch went on past the bad files")
        var refused = 0, accepted = 0
        for c in cases {
            let key = c.nameBytes == nil ? c.name : String(decoding: c.nameBytes!, as: UTF8.self)
            switch c.expect {
            case .refused(let fragments):
                refused += 1
                guard let error = failures[key] else {
                    Issue.record("\(c.what) (\(c.name)): not refused"); continue
                }
                #expect(c.nameBytes != nil || error.contains(c.name), "\(c.what): the error names the file: \(error)")
                for f in fragments { #expect(error.contains(f), "\(c.what): '\(f)' missing in: \(error)") }
                #expect(!stored.contains(key), "\(c.what): refused but stored")
            case .accepted(let check):
                accepted += 1
                #expect(failures[key] == nil, "\(c.what): \(failures[key] ?? "")")
                #expect(stored.contains(key), "\(c.what): not stored")
                let nights = try db.query("""
                    SELECT n.* FROM nights n JOIN recordings r ON r.id = n.recording_id WHERE r.path = ? ORDER BY n.night_date
                    """, [key])
                try check(db, nights)
            }
        }
        #expect(summary.filesFailed == refused)
        #expect(stored.count == accepted + 1)
        // Nothing partial: every night belongs to a stored recording and has its series and analysis.
        #expect(try db.query("SELECT id FROM nights WHERE id NOT IN (SELECT night_id FROM base_series) OR id NOT IN (SELECT night_id FROM analyses)").isEmpty)

        // Every HTML page: input strings escaped, never markup.
        let pages = ReportTree.files(in: w.reports).filter { $0.key.hasSuffix(".html") }
        #expect(pages.count >= accepted + 1)
        for (name, data) in pages {
            // The pages' own script apart, which holds nothing from input.
            let html = HTMLPages.ownScripts.reduce(String(decoding: data, as: UTF8.self)) { $0.replacingOccurrences(of: $1, with: "") }
            for raw in ["<script", "<img src=x", "<b>caffeine", "onerror=alert(1)>"] {
                #expect(!html.contains(raw), "\(name) contains unescaped '\(raw)'")
            }
        }
        let index = String(decoding: pages["index.html"] ?? Data(), as: UTF8.self)
        #expect(index.contains("&lt;img src=x onerror=alert(1)&gt;.csv"))
        let surveyPage = pages.first { $0.key.hasPrefix("script-survey_") }.map { String(decoding: $0.value, as: UTF8.self) } ?? ""
        #expect(surveyPage.contains("&lt;script&gt;alert("), "the survey answer is shown, escaped")
        print("BAD INPUT: \(cases.count) inputs (\(refused) refused with a clear error, \(accepted) accepted with the right result), batch of \(summary.filesSeen) files")
    }

    /// Creates a file whose name is the given bytes (which need not be UTF-8) holding `bytes`,
    /// extended to `sparseSize` without writing (a hole) when given.
    static func createFile(directory: String, nameBytes: [UInt8], bytes: [UInt8], sparseSize: Int64? = nil) throws {
        let full = Array(directory.utf8) + [UInt8(ascii: "/")] + nameBytes + [0]
        let fd = full.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: full.count) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            guard n > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            offset += n
        }
        if let sparseSize { guard ftruncate(fd, off_t(sparseSize)) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) } }
    }

    /// `rchar` from /proc/self/io: bytes this process has read through read() and friends.
    static func bytesReadByThisProcess() -> Int64? {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("rchar:") {
            return Int64(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}

/// A FIFO in the data folder (passed over) or as `--participants` (refused at once, naming it).
@Suite("A FIFO where a file belongs never hangs a run")
struct FIFORunTests {
    /// A FIFO at `path`, with a watchdog: should a read block on it, a writer opened 30 s later
    /// gives it end of file, so the time check fails instead of the suite hanging.
    static func fifo(_ path: String) {
        #expect(mkfifo(path, 0o644) == 0)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 30)
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
    }

    @Test("a FIFO among the recordings is passed over and the other night stored; a FIFO as --participants is refused at once, naming it")
    func fifoInTheBatch() throws {
        let w = Workspace()
        w.write("night.csv", Workspace.phoneNight(startUTC: 1_718_406_000))
        Self.fifo(w.data + "/stuck.csv")
        let start = Date()
        let summary = try w.run { _ in }
        #expect(Date().timeIntervalSince(start) < 20)
        // The folder scan lists regular files only: the FIFO is not a recording, and no failure.
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        let db = try SleepDatabase(path: w.db)
        #expect(try db.query("SELECT COUNT(*) AS n FROM recordings").first?["n"] == "1")

        let table = w.root + "/participants.csv"
        Self.fifo(table)
        let again = Date()
        var message = ""
        do { _ = try ParticipantOption.rule(table) } catch { message = "\(error)" }
        #expect(Date().timeIntervalSince(again) < 20)
        #expect(message.contains(table) && message.contains("FIFO"), "\(message)")
    }
}
