import SleepCore

/// Night ids: `<recording path without extension, made safe>_<evening date>`, e.g.
/// `phone-1hz-alex_2024-03-30` or `participant_2024-03-30` for `participant.cwa`. Stable across
/// runs (they name report folders and export rows); databases whose ids kept a device extension
/// are renamed by migration `v6-night-ids-without-device-extensions`.
public enum NightNaming {
    public static func recordingStem(_ relativePath: String) -> String {
        var stem = relativePath
        for ext in [".csv.gz", ".json.gz", ".gt3x.gz", ".cwa.gz", ".bin.gz", ".csv", ".json", ".gt3x", ".cwa", ".bin", ".agd", ".awd", ".mtn"]
            where stem.lowercased().hasSuffix(ext) {
            stem = String(stem.dropLast(ext.count)); break
        }
        let safe = stem.unicodeScalars.map { s -> Character in
            if s.isASCII, s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "-" || s == "." { return Character(s) }
            return "_"
        }
        let result = String(safe).trimmingPrefix(while: { $0 == "." || $0 == "_" })
        return result.isEmpty ? "recording" : String(result.prefix(80))
    }

    public static func nightID(stem: String, date: CivilDate, ordinal: Int) -> String {
        ordinal == 0 ? "\(stem)_\(date)" : "\(stem)_\(date)-\(ordinal + 1)"
    }

    /// Whether `id` is a night id this code makes: a stem of `[A-Za-z0-9._-]` (no leading dot or
    /// underscore), `_`, an evening date, and optionally `-N`. Ids read from elsewhere (a shard to
    /// merge, a store to render) are checked with it before they name a folder.
    public static func isNightID(_ id: String) -> Bool {
        guard ReportPaths.isFolderName(id), id.first != "_", let cut = id.lastIndex(of: "_"), cut > id.startIndex else { return false }
        let tail = id[id.index(after: cut)...]
        guard tail.count >= 10, CivilDate(iso: tail.prefix(10)) != nil else { return false }
        let ordinal = tail.dropFirst(10)
        return ordinal.isEmpty || (ordinal.first == "-" && (2...5).contains(ordinal.count) && ordinal.dropFirst().allSatisfy { $0.isASCII && $0.isNumber })
    }
}

/// The ids of one recording's nights, in the order they are made: the n-th night of an evening
/// date gets ordinal n, and an id another recording already has is bumped to the next ordinal.
public struct NightIDSequence {
    let stem: String
    let taken: Set<String>
    private var perDate: [CivilDate: Int] = [:]

    public init(stem: String, taken: Set<String>) { self.stem = stem; self.taken = taken }

    public mutating func next(_ date: CivilDate) -> String {
        let ordinal = perDate[date, default: 0]
        perDate[date] = ordinal + 1
        var bump = ordinal
        var id = NightNaming.nightID(stem: stem, date: date, ordinal: bump)
        while taken.contains(id) { bump += 1; id = NightNaming.nightID(stem: stem, date: date, ordinal: bump) }
        return id
    }
}

extension StringProtocol {
    func trimmingPrefix(while predicate: (Character) -> Bool) -> SubSequence {
        var s = self[...]
        while let f = s.first, predicate(f) { s = s.dropFirst() }
        return s
    }
}
