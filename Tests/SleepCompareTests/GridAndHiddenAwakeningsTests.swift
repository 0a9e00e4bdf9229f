import Testing
import SleepCore

/// Hand-worked examples of the common grid and of hidden awakenings.
@Suite("Common grid and hidden awakenings")
struct GridAndHiddenAwakeningsTests {
    /// 10-min reference W S S W S S and 15-min test W S W S over one hour from the grid origin.
    /// On the 5-min grid: reference W W S S S S W W S S S S, test W W W S S S W W W S S S:
    /// 10 of 12 cells agree; marginals reference 8 S / 4 W, test 6 / 6, so pₑ = (8·6 + 4·6)/144
    /// = 0.5 and κ = (10/12 − 0.5)/0.5 = 2/3.
    @Test func gridMappingByHand() throws {
        let s = SleepWake.sleep, w = SleepWake.wake
        let reference = IntervalHypnogram(startUTC: 0, intervalSeconds: 600, stages: [.wake, .light, .deep, .wake, .light, .light],
                                          states: [w, s, s, w, s, s])
        let test = IntervalHypnogram(startUTC: 0, intervalSeconds: 900, stages: [.wake, .light, .wake, .deep], states: [w, s, w, s])
        let g = CommonGridAgreement.compute(reference: reference, test: test, inBed: (0, 3600), gridOriginUTC: 0)
        #expect(g.cellSeconds == 300)
        #expect(g.sleepWake.total == 12)
        #expect(g.sleepWake[reference: 0, test: 0] == 6 && g.sleepWake[reference: 0, test: 1] == 2)
        #expect(g.sleepWake[reference: 1, test: 1] == 4 && g.sleepWake[reference: 1, test: 0] == 0)
        #expect(abs(try #require(g.sleepWake.accuracy) - 10.0 / 12.0) < 1e-15)
        #expect(abs(try #require(g.sleepWake.cohenKappa) - 2.0 / 3.0) < 1e-12)
        // Phases (wake 0, light 1, deep 2): reference W W L L D D W W L L L L, test W W W L L L W W W D D D.
        #expect(g.phases[reference: 0, test: 0] == 4)
        #expect(g.phases[reference: 1, test: 0] == 2 && g.phases[reference: 1, test: 1] == 1 && g.phases[reference: 1, test: 2] == 3)
        #expect(g.phases[reference: 2, test: 1] == 2)
        // The in-bed span limits the cells: from 00:07 to 00:52 → cells 5..50 min.
        let clipped = CommonGridAgreement.compute(reference: reference, test: test, inBed: (420, 3120), gridOriginUTC: 0)
        #expect(clipped.sleepWake.total == 10)
        // Cells where a state is missing count for phases only.
        var missing = reference
        missing.states[0] = nil
        let m = CommonGridAgreement.compute(reference: missing, test: test, inBed: (0, 3600), gridOriginUTC: 0)
        #expect(m.sleepWake.total == 10 && m.phases.total == 12)
    }

    @Test func gridOfCoprimeLengthsUsesTheirCommonDivisor() {
        #expect(CommonGridAgreement.cellSeconds(600, 900) == 300)
        #expect(CommonGridAgreement.cellSeconds(600, 1800) == 600)
        #expect(CommonGridAgreement.cellSeconds(90, 600) == 30)
        // 90-s against 10-min intervals on a 30-s grid: every 10-min interval holds 20 cells.
        let reference = IntervalHypnogram(startUTC: 0, intervalSeconds: 90, stages: Array(repeating: .light, count: 20),
                                          states: Array(repeating: .sleep, count: 20))
        let test = IntervalHypnogram(startUTC: 0, intervalSeconds: 600, stages: [.light, .light, .wake], states: [.sleep, .sleep, .wake])
        let g = CommonGridAgreement.compute(reference: reference, test: test, inBed: (0, 1800), gridOriginUTC: 0)
        #expect(g.sleepWake.total == 60)          // 0 ..< 1800 s: both cover it
        #expect(g.sleepWake[reference: 0, test: 0] == 40 && g.sleepWake[reference: 0, test: 1] == 20)
    }

    /// Reference 10 min: L L W L L L (a 10-min awakening at 00:20–00:30). At 15 min the interval
    /// 00:15–00:30 is sleep (L L L L): the awakening is hidden. With W there it is not.
    @Test func hiddenAwakeningsByHand() {
        let s = SleepWake.sleep, w = SleepWake.wake
        let reference = IntervalHypnogram(startUTC: 0, intervalSeconds: 600, stages: [.light, .light, .wake, .light, .light, .light],
                                          states: [s, s, w, s, s, s])
        #expect(reference.awakenings == [IntervalHypnogram.Bout(startUTC: 1200, endUTC: 1800)])
        let hiding = IntervalHypnogram(startUTC: 0, intervalSeconds: 900, stages: [.light, .light, .light, .light], states: [s, s, s, s])
        let h = HiddenAwakenings.compute(reference: reference, test: hiding)
        #expect(h.referenceAwakenings == 1 && h.hiddenCount == 1 && h.hiddenMinutes == 10)
        let showing = IntervalHypnogram(startUTC: 0, intervalSeconds: 900, stages: [.light, .wake, .light, .light], states: [s, w, s, s])
        #expect(HiddenAwakenings.compute(reference: reference, test: showing).hiddenCount == 0)
        // An awakening the test puts before its sleep onset (wake there) is not hidden either.
        let lateOnset = IntervalHypnogram(startUTC: 0, intervalSeconds: 900, stages: [.wake, .wake, .light, .light], states: [s, s, s, s])
        #expect(HiddenAwakenings.compute(reference: reference, test: lateOnset).hiddenCount == 0)
        // Wake before the first and after the last sleep interval is no awakening.
        let edges = IntervalHypnogram(startUTC: 0, intervalSeconds: 600, stages: [.wake, .light, .wake, .wake, .light, .wake],
                                      states: [w, s, w, w, s, w])
        #expect(edges.awakenings == [IntervalHypnogram.Bout(startUTC: 1200, endUTC: 2400)])
    }
}

/// Awakenings the longer length finds and the shorter does not, and grids with their own phase.
@Suite("Awakenings found by either length")
struct EitherLengthAwakeningsTests {
    /// Reference 10 min on the app's grid (00:05 …): L L L L L L (no awakening). Test 15 min on the
    /// clock: L W L L (a 15-min awakening at 00:15–00:30). The reference sleeps throughout it, so
    /// it appears only at 15 min; either length finds 1.
    @Test func awakeningOnlyTheLongerLengthFinds() {
        let s = SleepWake.sleep, w = SleepWake.wake
        let reference = IntervalHypnogram(startUTC: 300, intervalSeconds: 600, stages: Array(repeating: .light, count: 6),
                                          states: Array(repeating: s, count: 6))
        let test = IntervalHypnogram(startUTC: 0, intervalSeconds: 900, stages: [.light, .wake, .light, .light], states: [s, w, s, s])
        let h = HiddenAwakenings.compute(reference: reference, test: test)
        #expect(h.referenceAwakenings == 0 && h.hiddenCount == 0)
        #expect(h.appeared == [IntervalHypnogram.Bout(startUTC: 900, endUTC: 1800)] && h.appearedMinutes == 15)
        #expect(h.eitherCount == 1)
        // Swapped, the same awakening is hidden: one direction's "appeared" is the other's "hidden".
        let back = HiddenAwakenings.compute(reference: test, test: reference)
        #expect(back.hiddenCount == 1 && back.appearedCount == 0 && back.eitherCount == 1)
    }

    /// A 10-min grid that starts 2 min after the origin against a 15-min grid through it: the
    /// common cell must divide the phase too (1 min), or cells would straddle intervals.
    @Test func commonGridDividesTheGridsPhases() {
        let s = SleepWake.sleep, w = SleepWake.wake
        let reference = IntervalHypnogram(startUTC: 120, intervalSeconds: 600, stages: [.wake, .light, .light], states: [w, s, s])
        let test = IntervalHypnogram(startUTC: 0, intervalSeconds: 900, stages: [.wake, .light, .light], states: [w, s, s])
        let g = CommonGridAgreement.compute(reference: reference, test: test, inBed: (120, 1920), gridOriginUTC: 0)
        #expect(g.cellSeconds == 60)
        // 02:00–12:00 reference wake, 00:00–15:00 test wake: minutes 2..12 agree wake, 12..15 differ, 15..32 agree sleep.
        #expect(g.sleepWake[reference: 1, test: 1] == 10 && g.sleepWake[reference: 0, test: 1] == 3 && g.sleepWake[reference: 0, test: 0] == 17)
    }
}

@Suite("Hypnogram awakenings skip intervals without data")
struct HypnogramGapTests {
    /// L W - L L - L: the wake interval is one awakening (ending where it ends, not at the gap's
    /// end); the second gap, between sleep intervals, is none, as in the night metrics.
    @Test func gapsAreNeitherSleepNorWake() {
        let s = SleepWake.sleep, w = SleepWake.wake
        let h = IntervalHypnogram(startUTC: 0, intervalSeconds: 600, stages: [.light, .wake, .wake, .light, .light, .wake, .light],
                                  states: [s, w, nil, s, s, nil, s])
        #expect(h.awakenings == [IntervalHypnogram.Bout(startUTC: 600, endUTC: 1200)])
    }
}
