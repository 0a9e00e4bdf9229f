import Testing
import SleepCore
import SleepReport

@Suite("Night page: non-wear beside the sleep window")
struct NonWearNoteTests {
    static func analysis(nonWearNear minutes: Double?) -> NightAnalysis {
        let start: Int64 = 1_718_366_400   // 2024-06-14 12:00 UTC
        let e = WearableEpochs(startUTC: start, enmo: [0.01], angleZ: [0], mad: [0.01], sampleCounts: [500], nonWear: [false])
        var w = WearableNightSummary(epochs: e)
        w.guiderOnsetUTC = start + 11 * 3600          // 23:00
        w.guiderWakeupUTC = start + 18 * 3600 + 1800  // 06:30
        w.nonWearNearWindowMinutes = minutes
        return NightAnalysis(status: .scored, parameters: AnalysisParameters(), intervals: [], epochs: [], wakeThreshold: nil,
                             metrics: nil, kind: .wearable24h, wearable: w)
    }

    @Test("15 min or more of non-wear in the window, the hour before it or the half hour after it: a caution naming the window; less, or none stored: no caution")
    func caution() throws {
        let tl = UTCOffsetTimeline(initialOffsetSeconds: 0)
        let note = try #require(HTMLPages.nonWearNote(Self.analysis(nonWearNear: 75), tl))
        #expect(note.hasPrefix("1 h 15 min marked not worn lie in this night's sleep window (23:00–06:30), the hour before it or the half hour after it."), "\(note)")
        #expect(note.contains("--diary"))
        #expect(HTMLPages.nonWearNote(Self.analysis(nonWearNear: 10), tl) == nil)
        #expect(HTMLPages.nonWearNote(Self.analysis(nonWearNear: nil), tl) == nil)
        #expect(HTMLPages.wearableFacts(Self.analysis(nonWearNear: 75), tl).contains { $0["label"] == "Not worn in the sleep window, the hour before it or the half hour after it" && $0["value"] == "1 h 15 min" })
    }

    @Test("Still, but worn: each stretch with what cleared it (the angle's wander, or turns into other still postures)")
    func stillWornReasons() {
        let tl = UTCOffsetTimeline(initialOffsetSeconds: 0)
        let start: Int64 = 1_718_366_400
        var w = Self.analysis(nonWearNear: nil).wearable!
        w.stillWornSpansUTC = [[start + 11 * 3600, start + 12 * 3600], [start + 14 * 3600, start + 14 * 3600 + 900]]
        w.stillBetweenTurnsSpansUTC = [[start + 14 * 3600, start + 14 * 3600 + 900]]
        #expect(HTMLPages.stillWornText(w, tl) == "1 h 0 min (23:00–00:00) still, but with the small back-and-forth changes of angle of a resting forearm "
                + "that a device laid down does not show; 15 min (02:00–02:15) held one angle but turned within 2 min into another still posture, "
                + "as a sleeper does and a device laid down never does. GGIR's 2013 rule takes such stillness (an hour or more) for non-wear; counted as worn")
        w.stillWornSpansUTC = nil
        #expect(HTMLPages.stillWornText(w, tl) == "none")
    }
}
