import Foundation
import SleepCore

/// A sleep diary (`--diary FILE`), as GGIR's sleeplog and pyActigraphy's `SleepDiary` use one:
/// per recording and night, when the person went to bed and got up. When a night has a diary row,
/// the diary is the guider for its time in bed.
///
/// CSV with a header row; column titles, any case (`_`, `-` and spaces alike):
/// - `id` (or `recording`, `participant`): matches a recording whose path, file name, file name
///   without extension, or one of its folder names is this text (`user_1` matches `user_1/Actigraph.csv`);
///   with a participants table (``bind(participants:)``), a participant id matches that
///   participant's recordings (`S02`, as diaries are usually keyed);
/// - `night` (or `date`): the evening's date, `YYYY-MM-DD` (the night of 2024-03-30 runs into the 31st);
/// - `in_bed` (or `lights_off`, `bedtime`), `out_of_bed` (or `lights_on`, `wake`, `rise`): local clock
///   times `HH:MM[:SS]`, or `YYYY-MM-DD HH:MM[:SS]`. A bare time at or after noon is on the night's
///   date, before noon on the next day;
/// - `type` (optional): `sleep` (default), `nap` or `nonwear`. A night may have several `sleep`
///   rows (a split night: asleep 22:45–01:50, up, asleep again 03:50–06:50) and `nap` rows: each is
///   a sleep period of the day with its own time in bed. The longest `sleep` row is the night's
///   time in bed (the main period, which the night's row and metrics report); the others are
///   periods beside it (``DiaryPeriodGuide``). A `nonwear` row marks its span not worn (the
///   methods that judge wear take it as off the wrist, whatever the data say).
///
/// Rows that cannot be used (a bad date or time, end not after start, a sleep or nap row that
/// overlaps an earlier one of the same night, an id that matches no recording) are reported with
/// their row number; the others apply.
public struct SleepDiary: Sendable {
    public struct Entry: Sendable, Equatable {
        public enum Kind: String, Sendable { case sleep, nap, nonwear }
        public var row: Int
        public var id: String
        public var night: CivilDate
        /// Local clock (seconds since 1970-01-01T00:00 local).
        public var startLocal: Int64
        public var endLocal: Int64
        public var kind: Kind
    }

    public var path: String
    public var entries: [Entry]
    /// Problems found while reading, each naming its row.
    public var problems: [String]
    /// A digest of the usable rows: part of the analysis key, so that a changed diary re-analyses.
    /// With a participants table bound, the table's rows of the diary's participant ids are in it too.
    public var digest: String
    /// The digest of the rows alone, before a table was bound.
    private var rowsDigest = ""
    /// The participants table bound (``bind(participants:)``), and the diary's ids that are its participant ids.
    private var table: ParticipantMatcher? = nil
    private var participantIDs: Set<String> = []

    static let idTitles: Set<String> = ["id", "recording", "participant", "participant_id", "subject", "file"]
    static let nightTitles: Set<String> = ["night", "date", "night_date"]
    static let startTitles: Set<String> = ["in_bed", "inbed", "lights_off", "lightsoff", "bedtime", "bed_time", "sleep_start", "start"]
    static let endTitles: Set<String> = ["out_of_bed", "outofbed", "lights_on", "lightson", "wake", "wake_time", "rise", "sleep_end", "end"]
    static let typeTitles: Set<String> = ["type", "kind", "event"]

    /// Largest diary read (about 200 000 rows): a diary is typed or exported per night, and a file
    /// far larger is not one; reading it whole must not cost gigabytes.
    public static let maximumBytes = 8 << 20
    /// Longest row: a diary row is an id, a date, two times and a type.
    public static let maximumLineBytes = 4096

    public static func read(path: String) throws(IngestError) -> SleepDiary {
        // A sparse or special file is refused as a recording would be.
        try InputPreflight.check(path: path)
        let bytes = try FileBytes.readAll(path: path, limit: maximumBytes)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw IngestError(file: path, byteOffset: 0, message: "the sleep diary is not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws(IngestError) -> SleepDiary {
        let lines = try diaryLines(text, path: path)
        guard let header = lines.first else {
            throw IngestError(file: path, line: 1, message: "the sleep diary is empty: expected a header row (id,night,in_bed,out_of_bed[,type])")
        }
        let separator: Character = header.contains(";") && !header.contains(",") ? ";" : (header.contains("\t") && !header.contains(",") ? "\t" : ",")
        let columns = try Columns(header: header, separator: separator, path: path)
        var entries: [Entry] = [], problems: [String] = []
        var periodsOfNight: [String: [Entry]] = [:]
        for (index, line) in lines.enumerated().dropFirst() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let row = index + 1
            let entry: Entry
            switch columns.entry(fields(line, separator: separator), row: row) {
            case .entry(let e): entry = e
            case .problem(let problem): problems.append("\(path) row \(row): \(problem)"); continue
            }
            if entry.kind != .nonwear {
                // Two sleeps of one person cannot overlap: the later row is a mistake or a copy.
                let key = "\(entry.id)\u{1F}\(entry.night)"
                if let earlier = periodsOfNight[key]?.first(where: { $0.startLocal < entry.endLocal && entry.startLocal < $0.endLocal }) {
                    let what = entry.kind == .sleep && earlier.kind == .sleep ? "a second sleep row" : "a \(entry.kind.rawValue) row"
                    problems.append("\(path) row \(row): \(what) for \(entry.id), night \(entry.night), that overlaps row \(earlier.row) (\(LocalClock.hhmm(localSecond: earlier.startLocal))–\(LocalClock.hhmm(localSecond: earlier.endLocal))): ignored (the sleep periods of a night do not overlap)")
                    continue
                }
                periodsOfNight[key, default: []].append(entry)
            }
            entries.append(entry)
        }
        var hasher = FNV1a()
        for e in entries { hasher.add("\(e.id)|\(e.night)|\(e.startLocal)|\(e.endLocal)|\(e.kind.rawValue);") }
        return SleepDiary(path: path, entries: entries, problems: problems, digest: hasher.hex, rowsDigest: hasher.hex)
    }

    /// The text's lines without line ends, byte-order mark or trailing blank lines; a row longer
    /// than ``maximumLineBytes`` is refused. The lines are counted first and held to
    /// ``ReadWholeBudget`` before any is allocated: with the file's bytes and its text, a diary
    /// costs at most 14 × its size + 16 MiB (under 130 MiB at ``maximumBytes``).
    static func diaryLines(_ text: String, path: String) throws(IngestError) -> [String] {
        var text = text
        let measure = text.withUTF8 { ReadWholeBudget.measure($0) }
        try ReadWholeBudget.check(projected: measure.projected, fileBytes: text.utf8.count, shape: measure.shape, path: path,
                                  expected: "a diary has a row per night, not mostly empty lines")
        var lines: [String] = []
        lines.reserveCapacity(measure.lines + 1)
        let ends = CharacterSet(charactersIn: "\r\u{FEFF}")
        text.withUTF8 { bytes in
            var start = 0
            // Split at LF (a CR before it is trimmed below, as are CRs and a BOM at either end).
            for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
                let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                let needsTrim = line.unicodeScalars.first.map { $0 == "\r" || $0 == "\u{FEFF}" } == true
                    || line.unicodeScalars.last.map { $0 == "\r" || $0 == "\u{FEFF}" } == true
                lines.append(needsTrim ? line.trimmingCharacters(in: ends) : line)
                start = i + 1
            }
        }
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
        if let long = lines.firstIndex(where: { $0.utf8.count > maximumLineBytes }) {
            throw IngestError(file: path, line: long + 1, message: "row is \(lines[long].utf8.count) bytes long: a diary row (id,night,in_bed,out_of_bed[,type]) is at most \(maximumLineBytes)")
        }
        return lines
    }

    /// A row read: its entry, or why it cannot be used.
    enum RowReading {
        case entry(Entry)
        case problem(String)
    }

    /// Where the header puts each of the diary's columns.
    struct Columns {
        let id: Int, night: Int, start: Int, end: Int
        let type: Int?

        init(header: String, separator: Character, path: String) throws(IngestError) {
            let titles = SleepDiary.fields(header, separator: separator).map { EpochColumnNaming.canonical($0) }
            func column(_ names: Set<String>) -> Int? { titles.firstIndex { names.contains($0) } }
            guard let id = column(idTitles), let night = column(nightTitles), let start = column(startTitles), let end = column(endTitles) else {
                throw IngestError(file: path, line: 1, message: "sleep diary header '\(header.prefix(120))': expected the columns id, night, in_bed and out_of_bed (optional: type)")
            }
            self.id = id; self.night = night; self.start = start; self.end = end
            type = column(typeTitles)
        }

        /// One row's entry: an id, a night, a kind and in-bed / out-of-bed times that make sense together.
        func entry(_ f: [String], row: Int) -> RowReading {
            func field(_ c: Int) -> String { c < f.count ? f[c] : "" }
            let id = field(self.id)
            guard !id.isEmpty else { return .problem("no id") }
            guard let night = CivilDate(iso: field(self.night)) else {
                return .problem("night '\(field(self.night))' is not a date: expected YYYY-MM-DD")
            }
            var kind = Entry.Kind.sleep
            if let type, !field(type).isEmpty {
                guard let k = Entry.Kind(rawValue: field(type).lowercased()) else {
                    return .problem("type '\(field(type))': expected sleep, nap or nonwear")
                }
                kind = k
            }
            guard let startLocal = localSecond(field(start), night: night, isEnd: false, after: nil) else {
                return .problem("in bed '\(field(start))' is not a time: expected HH:MM or YYYY-MM-DD HH:MM")
            }
            // An explicit date must be the night's: its evening or the morning after.
            let nightStart = night.daysSinceEpoch * 86_400
            guard startLocal >= nightStart && startLocal < nightStart + 2 * 86_400 else {
                return .problem("in bed '\(field(start))' is not on the night of \(night) (its evening or the next morning)")
            }
            guard let endLocal = localSecond(field(end), night: night, isEnd: true, after: startLocal) else {
                return .problem("out of bed '\(field(end))' is not a time: expected HH:MM or YYYY-MM-DD HH:MM")
            }
            guard endLocal > startLocal else {
                return .problem("out of bed (\(field(end))) is not after in bed (\(field(start)))")
            }
            guard endLocal - startLocal <= 24 * 3600 else {
                return .problem("\(field(start)) to \(field(end)) is longer than 24 h")
            }
            return .entry(Entry(row: row, id: id, night: night, startLocal: startLocal, endLocal: endLocal, kind: kind))
        }
    }

    /// A row's fields as the epoch files' CSV splitter reads them (RFC 4180: a quoted field may
    /// hold the separator and `""` for a quote, so `"smith, john"` is one id; unquoted fields trimmed).
    static func fields(_ line: String, separator: Character) -> [String] {
        let bytes = Array(line.utf8)
        return DelimitedText.split(bytes, 0, bytes.count, delimiter: separator.asciiValue ?? UInt8(ascii: ","))
    }

    /// `HH:MM[:SS]` on the night's date (at or after noon) or the next day (before noon; for an end
    /// time, the first such time after `after`), or `YYYY-MM-DD HH:MM[:SS]`.
    static func localSecond(_ text: String, night: CivilDate, isEnd: Bool, after: Int64?) -> Int64? {
        let t = text.replacingOccurrences(of: "T", with: " ")
        let parts = t.split(separator: " ")
        if parts.count == 2, let date = CivilDate(iso: String(parts[0])), let s = secondOfDay(String(parts[1])) {
            return date.daysSinceEpoch * 86_400 + Int64(s)
        }
        guard parts.count == 1, let s = secondOfDay(String(parts[0])) else { return nil }
        let midnight = night.daysSinceEpoch * 86_400
        var value = midnight + Int64(s) + (s < 12 * 3600 ? 86_400 : 0)
        if isEnd, let after { while value <= after - 86_400 { value += 86_400 } }
        return value
    }

    static func secondOfDay(_ text: String) -> Int? {
        let p = text.split(separator: ":").map { Int($0) }
        guard p.count == 2 || p.count == 3, p.allSatisfy({ $0 != nil }) else { return nil }
        let h = p[0]!, m = p[1]!, s = p.count == 3 ? p[2]! : 0
        guard (0..<24).contains(h), (0..<60).contains(m), (0..<60).contains(s) else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// Matches ids that are participant ids of `rule`'s table (`--participants FILE`) to that
    /// participant's recordings; any other rule unbinds. Which files such an id names is part of
    /// what the diary says, so those table rows join the digest: another table re-analyses, while
    /// a diary none of whose ids is a participant id keeps its digest.
    public mutating func bind(participants rule: ParticipantRule) {
        guard case .table(let rows) = rule else { table = nil; participantIDs = []; digest = rowsDigest; return }
        participantIDs = Set(rows.map(\.id)).intersection(entries.map(\.id))
        table = ParticipantMatcher(rule)
        var hasher = FNV1a()
        hasher.add(rowsDigest)
        for r in rows where participantIDs.contains(r.id) { hasher.add("\(r.id)>\(r.path);") }
        digest = participantIDs.isEmpty ? rowsDigest : hasher.hex
    }

    /// Whether row id `id` names the recording at `path`: ``matches(id:recordingPath:)``, or `id` is
    /// the recording's participant in the bound participants table.
    public func applies(_ id: String, to path: String) -> Bool {
        if Self.matches(id: id, recordingPath: path) { return true }
        guard let table, participantIDs.contains(id) else { return false }
        return table.participant(recordingPath: path).id == id
    }

    /// Whether a diary id names the recording at `path` (relative to the data folder).
    public static func matches(id: String, recordingPath path: String) -> Bool {
        if id == path { return true }
        let components = path.split(separator: "/").map(String.init)
        guard let name = components.last else { return false }
        if id == name { return true }
        var stem = name
        for suffix in [".gz"] where stem.lowercased().hasSuffix(suffix) { stem = String(stem.dropLast(suffix.count)) }
        if let dot = stem.lastIndex(of: "."), id == String(stem[..<dot]) { return true }
        return components.dropLast().contains(id)
    }

    /// The diary's time in bed for a recording's night (its main period), or nil.
    public func guide(recordingPath: String, night: NightWindow, timeline: UTCOffsetTimeline) -> TimeInBedGuide? {
        guides(recordingPath: recordingPath, night: night, timeline: timeline).main
    }

    /// What the diary says of a recording's night: the main time in bed (the longest `sleep` row;
    /// the first of equals) and the day's other periods (other `sleep` rows, `nap` rows, and the
    /// spans of `nonwear` rows), in time order.
    public func guides(recordingPath: String, night: NightWindow, timeline: UTCOffsetTimeline) -> DiaryGuides {
        let rows = entries.filter { $0.night == night.date && applies($0.id, to: recordingPath) }
        let name = (path as NSString).lastPathComponent
        func span(_ e: Entry) -> (Int64, Int64)? {
            let start = timeline.utcSecond(atLocal: e.startLocal), end = timeline.utcSecond(atLocal: e.endLocal)
            // Both times inside the hour skipped in spring: no time in bed at all on this clock.
            return end > start ? (start, end) : nil
        }
        let sleeps = rows.filter { $0.kind == .sleep && span($0) != nil }
        let longest = sleeps.map { $0.endLocal - $0.startLocal }.max()
        let main = sleeps.first { $0.endLocal - $0.startLocal == longest }
        var result = DiaryGuides()
        if let main, let s = span(main) {
            result.main = TimeInBedGuide(startUTC: s.0, endUTC: s.1, source: "the sleep diary (\(name) row \(main.row))")
        }
        for e in rows where e.row != main?.row {
            guard let s = span(e) else { continue }
            let kind = DiaryPeriodGuide.Kind(rawValue: e.kind.rawValue) ?? .sleep
            result.others.append(DiaryPeriodGuide(kind: kind, startUTC: s.0, endUTC: s.1,
                                                  source: "the sleep diary (\(name) row \(e.row))"))
        }
        result.others.sort { $0.startUTC < $1.startUTC }
        return result
    }

    /// How the diary's rows meet the stored nights: how many rows there are (every kind, and
    /// unusable ones), how many apply to a night, the same by kind, and one line per row that
    /// applies to none, naming the row and why.
    public struct Use: Sendable {
        public var path: String
        public var rows: Int
        public var applied: Int
        public var problems: [String]
        /// Usable rows of each kind, and of those the rows applied to a night.
        public var rowsByKind: [Entry.Kind: Int] = [:]
        public var appliedByKind: [Entry.Kind: Int] = [:]
        /// Rows that could not be read (a bad date or time, an overlap).
        public var unusable = 0

        /// `sleep 10 of 11, nap 1 of 2, nonwear 1 of 1, 1 unusable` (kinds the diary has).
        public var byKindText: String {
            let kinds = [Entry.Kind.sleep, .nap, .nonwear].filter { (rowsByKind[$0] ?? 0) > 0 }
                .map { "\($0.rawValue) \(appliedByKind[$0] ?? 0) of \(rowsByKind[$0] ?? 0)" }
            return (kinds + (unusable > 0 ? ["\(unusable) unusable"] : [])).joined(separator: ", ")
        }
    }

    /// The diary's use over `nightDates` (each stored recording's path with its nights' evening
    /// dates): unusable rows, ids that match no recording, nights a matching recording does not have.
    ///
    /// Rows whose id matches no recording are summarised per id (one line per id, its rows
    /// listed), so that a diary of a larger study does not print a line per row of every other
    /// participant.
    ///
    /// With `timelines` (each recording's clock), a row whose in-bed or out-of-bed time does not
    /// exist on that clock (inside the hour skipped in spring) is reported too: it is placed an
    /// hour off, where the clock goes on.
    ///
    /// `nonwearNotApplied` gives, per recording path, why its method does not apply `nonwear` rows
    /// (`--method ggir`): such a row that applies to no other recording is not counted as applied
    /// and is reported with that reason.
    public func use(nightDates: [String: Set<String>], timelines: [String: UTCOffsetTimeline] = [:],
                    nonwearNotApplied: [String: String] = [:]) -> Use {
        var problems = self.problems
        var applied: [Entry.Kind: Int] = [:]
        var unmatched: [(id: String, rows: [Int])] = []
        for e in entries {
            let recordings = nightDates.filter { applies(e.id, to: $0.key) }
            if recordings.isEmpty {
                if let k = unmatched.firstIndex(where: { $0.id == e.id }) { unmatched[k].rows.append(e.row) } else { unmatched.append((e.id, [e.row])) }
            } else if !recordings.values.contains(where: { $0.contains(e.night.description) }) {
                problems.append("\(path) row \(e.row): '\(e.id)' has no night of \(e.night) (nights run noon to noon, named by their evening)")
            } else {
                let placed = recordings.keys.compactMap { timelines[$0] }
                if let tl = placed.first, tl.utcSecond(atLocal: e.endLocal) <= tl.utcSecond(atLocal: e.startLocal) {
                    problems.append("\(path) row \(e.row): \(LocalClock.hhmm(localSecond: e.startLocal)) to \(LocalClock.hhmm(localSecond: e.endLocal)) spans no time on the recording's clock (the hour skipped when summer time starts): not applied")
                    continue
                }
                let paths = recordings.keys.sorted()
                if e.kind == .nonwear, let reason = paths.compactMap({ nonwearNotApplied[$0] }).first,
                   paths.allSatisfy({ nonwearNotApplied[$0] != nil }) {
                    problems.append("\(path) row \(e.row): nonwear not applied to \(paths.joined(separator: ", ")): \(reason)")
                    continue
                }
                applied[e.kind, default: 0] += 1
                for (recording, _) in recordings {
                    guard let tl = timelines[recording] else { continue }
                    for (label, local) in [("in bed", e.startLocal), ("out of bed", e.endLocal)]
                        where tl.localSecond(atUTC: tl.utcSecond(atLocal: local)) != local {
                        problems.append("\(path) row \(e.row): \(label) \(LocalClock.hhmm(localSecond: local)) does not exist on the clock of \(recording) that night (the hour skipped when summer time starts); it is taken as the time an hour later")
                    }
                }
            }
        }
        for u in unmatched {
            let rows = u.rows.prefix(5).map(String.init).joined(separator: ", ") + (u.rows.count > 5 ? ", … (\(u.rows.count) rows)" : "")
            problems.append("\(path) row\(u.rows.count > 1 ? "s" : "") \(rows): id '\(u.id)' matches no recording "
                            + (table == nil ? "(ids match a path, a file name with or without its extension, or a folder name; if it is a participant id, --participants FILE with a table id,group,path maps ids to files)"
                                            : "nor a participant id of the participants table (ids match a participant id, a path, a file name with or without its extension, or a folder name)"))
        }
        var use = Use(path: path, rows: entries.count + self.problems.count, applied: applied.values.reduce(0, +), problems: problems)
        use.rowsByKind = Dictionary(grouping: entries, by: \.kind).mapValues(\.count)
        use.appliedByKind = applied
        use.unusable = self.problems.count
        return use
    }

    /// Rows whose id matches none of `recordingPaths`.
    public func unmatchedRows(recordingPaths: [String]) -> [Entry] {
        entries.filter { e in !recordingPaths.contains { applies(e.id, to: $0) } }
    }
}
