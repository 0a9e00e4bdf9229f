import Testing
import SleepCore

/// Europe/Berlin 2024: CET (+1) until 2024-03-31 01:00 UTC, CEST (+2) until 2024-10-27 01:00 UTC.
let berlin2024 = UTCOffsetTimeline(initialOffsetSeconds: 3600, transitions: [
    .init(utcSecond: 1_711_846_800, offsetSeconds: 7200),
    .init(utcSecond: 1_729_990_800, offsetSeconds: 3600),
])

@Suite("Clock, time zones and nights")
struct TimeTests {
    @Test("civil dates round-trip through days since 1970, across centuries")
    func civilRoundTrip() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
        #expect(CivilDate(daysSinceEpoch: 0).description == "1970-01-01")
        #expect(CivilDate(year: 2038, month: 1, day: 19).daysSinceEpoch == 24_855)
        #expect(CivilDate(year: 2024, month: 2, day: 29).adding(days: 1).description == "2024-03-01")
    }

    @Test("ISO 8601 with offset, and the offset timeline across DST")
    func isoFormatting() {
        #expect(LocalClock.iso8601(utcSecond: 1_711_846_799, timeline: berlin2024) == "2024-03-31T01:59:59+01:00")
        #expect(LocalClock.iso8601(utcSecond: 1_711_846_800, timeline: berlin2024) == "2024-03-31T03:00:00+02:00")
        #expect(UTCOffsetTimeline.formatOffset(-16_200) == "-04:30")
        #expect(UTCOffsetTimeline.formatOffset(20_700) == "+05:45")
    }

    @Test("local to UTC: gaps map to the transition, overlaps to the first occurrence")
    func localToUTC() {
        // 2024-03-31 02:30 local does not exist in Berlin.
        let gapLocal = CivilDate(year: 2024, month: 3, day: 31).daysSinceEpoch * 86_400 + 2 * 3600 + 1800
        #expect(berlin2024.utcSecond(atLocal: gapLocal) == 1_711_846_800)
        // 2024-10-27 02:30 local happens twice; the first is CEST (UTC 00:30).
        let overlapLocal = CivilDate(year: 2024, month: 10, day: 27).daysSinceEpoch * 86_400 + 2 * 3600 + 1800
        #expect(berlin2024.utcSecond(atLocal: overlapLocal) == 1_729_989_000)
    }

    @Test("spring DST night is 23 h, autumn DST night is 25 h, others 24 h")
    func dstNights() {
        let spring = NightSplitter.window(for: CivilDate(year: 2024, month: 3, day: 30), timeline: berlin2024)
        let autumn = NightSplitter.window(for: CivilDate(year: 2024, month: 10, day: 26), timeline: berlin2024)
        let plain = NightSplitter.window(for: CivilDate(year: 2024, month: 6, day: 14), timeline: berlin2024)
        #expect(spring.durationSeconds == 23 * 3600)
        #expect(autumn.durationSeconds == 25 * 3600)
        #expect(plain.durationSeconds == 24 * 3600)
        #expect(LocalClock.iso8601(utcSecond: spring.startUTC, timeline: berlin2024) == "2024-03-30T12:00:00+01:00")
        #expect(LocalClock.iso8601(utcSecond: spring.endUTC, timeline: berlin2024) == "2024-03-31T12:00:00+02:00")
    }

    @Test("a night's samples are assigned noon to noon on the local clock")
    func nightAssignment() {
        // 2024-06-14 11:59:59 local (+2) belongs to the night of the 13th; 12:00:00 to the 14th.
        let noonUTC: Int64 = 1_718_359_200 // 2024-06-14T10:00:00Z = 12:00 local
        #expect(NightSplitter.nightDate(atUTC: noonUTC - 1, timeline: berlin2024).description == "2024-06-13")
        #expect(NightSplitter.nightDate(atUTC: noonUTC, timeline: berlin2024).description == "2024-06-14")
        // A recording from 22:00 to 07:00 local is one night; the 10-minute grid from local noon is clock aligned.
        let start = noonUTC + 10 * 3600
        let s = SecondSeries(startSecond: start, movement: .init(repeating: 0.01, count: 9 * 3600),
                             legacyMovement: .init(repeating: 0.01, count: 9 * 3600), sampleCounts: .init(repeating: 1, count: 9 * 3600))
        let nights = NightSplitter.nights(in: s, timeline: berlin2024)
        #expect(nights.count == 1)
        let iv = IntervalAggregator.aggregate(s, length: .fifteenMinutes, gridOriginUTC: nights[0].startUTC, fromUTC: start, toUTC: s.endSecond)
        #expect(LocalClock.iso8601(utcSecond: iv[0].startUTC, timeline: berlin2024) == "2024-06-14T22:00:00+02:00")
    }

    @Test("15-minute intervals stay on the local clock in a +05:45 zone")
    func oddOffsetAlignment() {
        let kathmandu = UTCOffsetTimeline.fixed(20_700)
        let w = NightSplitter.window(for: CivilDate(year: 2024, month: 1, day: 10), timeline: kathmandu)
        let s = SecondSeries(startSecond: w.startUTC + 11 * 3600 + 7, movement: .init(repeating: 0.01, count: 3600),
                             legacyMovement: .init(repeating: 0.01, count: 3600), sampleCounts: .init(repeating: 1, count: 3600))
        let iv = IntervalAggregator.aggregate(s, length: .fifteenMinutes, gridOriginUTC: w.startUTC, fromUTC: s.startSecond, toUTC: s.endSecond)
        #expect(iv.allSatisfy { kathmandu.localSecond(atUTC: $0.startUTC) % 900 == 0 })
        #expect(LocalClock.hhmm(localSecond: kathmandu.localSecond(atUTC: iv[0].startUTC)) == "23:00")
    }

    @Test("a recording spanning two evenings yields two nights")
    func twoNights() {
        let noonUTC: Int64 = 1_718_359_200
        let n = 40 * 3600
        let s = SecondSeries(startSecond: noonUTC + 9 * 3600, movement: .init(repeating: 0.01, count: n),
                             legacyMovement: .init(repeating: 0.01, count: n), sampleCounts: .init(repeating: 1, count: n))
        #expect(NightSplitter.nights(in: s, timeline: berlin2024).map(\.date.description) == ["2024-06-14", "2024-06-15", "2024-06-16"])
    }
}
