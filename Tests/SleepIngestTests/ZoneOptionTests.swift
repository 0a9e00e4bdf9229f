import Foundation
import Testing
import SleepCore
import SleepIngest

/// `--tz` as the readers and the store take it: IANA names as given, fixed offsets in one
/// spelling with no DST, anything else refused with the nearest real zones.
@Suite("--tz: zone names, fixed offsets, suggestions")
struct ZoneOptionTests {
    @Test("fixed offsets are stored as UTC±HH:MM, are constant, and open as timelines in every spelling")
    func fixedOffsets() throws {
        for (text, name) in [("+01:00", "UTC+01:00"), ("+0100", "UTC+01:00"), ("UTC+1", "UTC+01:00"), ("-05:30", "UTC-05:30"),
                             ("GMT-3", "UTC-03:00"), ("+00:00", "UTC"), ("UTC+01:00", "UTC+01:00")] {
            #expect(try ZoneTimeline.optionZone(text) == name, "\(text)")
            let timeline = try #require(ZoneTimeline.timeline(identifier: name))
            #expect(timeline == ZoneTimeline.timeline(identifier: text))
            #expect(timeline.transitions.isEmpty, "\(text): a fixed offset has no DST")
        }
        let plusOne = try #require(ZoneTimeline.timeline(identifier: "UTC+01:00"))
        // 2024-01-15 and 2024-07-15 noon UTC: the same offset in winter and summer.
        #expect(plusOne.offset(atUTC: 1_705_320_000) == 3600 && plusOne.offset(atUTC: 1_721_044_800) == 3600)
        // A night on a fixed offset runs noon to noon on that clock, 24 h also on DST dates.
        let night = NightSplitter.window(for: CivilDate(year: 2024, month: 3, day: 30), timeline: plusOne)
        #expect(night.durationSeconds == 24 * 3600)
        #expect(LocalClock.iso8601(utcSecond: night.startUTC, timeline: plusOne) == "2024-03-30T12:00:00+01:00")
    }

    @Test("IANA names pass as given; typos and wrong case get the nearest real zone")
    func suggestions() throws {
        #expect(try ZoneTimeline.optionZone("Europe/Berlin") == "Europe/Berlin")
        #expect(try ZoneTimeline.optionZone("UTC") == "UTC")
        for (typo, suggested) in [("Europe/Berln", "Europe/Berlin"), ("europe/berlin", "Europe/Berlin"), ("Berlin", "Europe/Berlin"),
                                  ("America/New_Yrok", "America/New_York"), ("new york", "America/New_York")] {
            let error = #expect(throws: ZoneTimeline.UnknownZone.self, "\(typo)") { try ZoneTimeline.optionZone(typo) }
            #expect(error?.suggestions.first == suggested, "\(typo): \(error?.suggestions ?? [])")
            #expect(error?.description.contains("unknown time zone '\(typo)' (did you mean \(suggested)") == true, "\(error?.description ?? "")")
            #expect(error?.description.contains("fixed UTC offset such as +01:00") == true)
        }
        let far = #expect(throws: ZoneTimeline.UnknownZone.self) { try ZoneTimeline.optionZone("Mars/Olympus_Mons") }
        #expect(far?.suggestions.isEmpty == true)
        #expect(far?.description == "unknown time zone 'Mars/Olympus_Mons': expected an IANA name such as Europe/Berlin (with its DST rules) or a fixed UTC offset such as +01:00, -05:30, +0100, UTC+1 or GMT-3 (no DST)")
        #expect(throws: ZoneTimeline.UnknownZone.self) { try ZoneTimeline.optionZone("+15:00") }
    }
}
