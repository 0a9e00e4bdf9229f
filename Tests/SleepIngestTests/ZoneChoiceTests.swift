import Testing
import SleepCore
import SleepIngest

/// A zone the file states wins over `--tz`; `--tz` places only files that state none.
@Suite("Which zone places a recording's nights")
struct ZoneChoiceTests {
    /// 2024-06-14 22:00Z to 2024-06-15 06:00Z (CEST in Berlin, EDT in New York).
    static let summer: (first: Int64, last: Int64) = (1_718_402_400, 1_718_431_199)

    @Test("a named zone in the file wins over --tz; one warning names both when their offsets differ")
    func namedZoneWins() throws {
        let z = try ZoneChoice(path: "app.json", option: "America/New_York", statedName: "Europe/Berlin", span: Self.summer, noneWarning: "none")
        #expect(z.name == "Europe/Berlin" && z.source == .data && z.timeline.offset(atUTC: Self.summer.first) == 7200)
        let w = try #require(z.warning)
        #expect(w.contains("Europe/Berlin") && w.contains("--tz America/New_York"))
        // Another name with the same offsets over the recording: no warning.
        let same = try ZoneChoice(path: "app.json", option: "Europe/Paris", statedName: "Europe/Berlin", span: Self.summer, noneWarning: "none")
        #expect(same.name == "Europe/Berlin" && same.warning == nil)
    }

    @Test("stated offsets win and are named by their offsets; --tz places only files that state nothing; nothing at all is UTC with a warning")
    func offsetsOptionNone() throws {
        let stated = UTCOffsetTimeline(initialOffsetSeconds: 3600, transitions: [.init(utcSecond: Self.summer.first + 3600, offsetSeconds: 7200)])
        let z = try ZoneChoice(path: "f.csv", option: "Asia/Tokyo", stated: stated, span: Self.summer, noneWarning: "none")
        #expect(z.name == "UTC+01:00/+02:00" && z.source == .data && z.warning != nil)
        let agreeing = try ZoneChoice(path: "f.csv", option: "Europe/Berlin", stated: .fixed(7200), span: Self.summer, noneWarning: "none")
        #expect(agreeing.name == "UTC+02:00" && agreeing.warning == nil)
        let option = try ZoneChoice(path: "f.csv", option: "Europe/Berlin", span: Self.summer, noneWarning: "none")
        #expect(option.name == "Europe/Berlin" && option.source == .option && option.warning == nil)
        let none = try ZoneChoice(path: "f.csv", option: nil, span: Self.summer, noneWarning: "no zone")
        #expect(none.name == "UTC" && none.source == .assumedUTC && none.warning == "no zone")
        #expect(throws: IngestError.self) { try ZoneChoice(path: "f.csv", option: "Mars/Olympus", span: nil, noneWarning: "") }
        #expect(throws: IngestError.self) { try ZoneChoice(path: "f.json", option: nil, statedName: "Nowhere/Land", span: nil, noneWarning: "") }
    }
}
