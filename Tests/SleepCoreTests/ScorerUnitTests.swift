import Foundation
import Testing
import SleepCore

// Hand-made inputs for the sleep/wake scorers: Webster's rules one by one, edge padding, ties with
// the threshold, the GGIR van Hees bout rule and ActiLife's epoch collapse.

/// "WWSS…" → labels (S sleep, W wake, - unscored).
private func scorerLabels(_ s: String) -> [SleepWake?] {
    s.map { $0 == "S" ? .sleep : ($0 == "W" ? .wake : nil) }
}

private func scorerString(_ labels: [SleepWake?]) -> String {
    String(labels.map { $0.map(\.letter) ?? "-" })
}

private func repeated(_ c: Character, _ n: Int) -> String { String(repeating: String(c), count: n) }

@Suite("Webster rescoring rules")
struct ScorerWebsterTests {
    @Test func rule1OneMinuteAfterFourWake() {
        let input = "SS" + repeated("W", 4) + repeated("S", 12)
        let expected = "SS" + repeated("W", 5) + repeated("S", 11)
        for variant in WebsterRescoring.Variant.allCases {
            #expect(scorerString(WebsterRescoring.apply(scorerLabels(input), variant: variant)) == expected)
        }
        // Three wake minutes are not enough.
        let short = "SS" + repeated("W", 3) + repeated("S", 12)
        #expect(scorerString(WebsterRescoring.apply(scorerLabels(short))) == short)
    }

    @Test func rule2ThreeMinutesAfterTenWake() {
        let input = "S" + repeated("W", 10) + repeated("S", 12)
        let expected = "S" + repeated("W", 13) + repeated("S", 9)
        for variant in WebsterRescoring.Variant.allCases {
            #expect(scorerString(WebsterRescoring.apply(scorerLabels(input), variant: variant)) == expected)
        }
        // Nine wake minutes: only rule 1 applies.
        let nine = "S" + repeated("W", 9) + repeated("S", 12)
        #expect(scorerString(WebsterRescoring.apply(scorerLabels(nine))) == "S" + repeated("W", 10) + repeated("S", 11))
    }

    @Test func rule3FourMinutesAfterFifteenWake() {
        let input = "S" + repeated("W", 15) + repeated("S", 12)
        let expected = "S" + repeated("W", 19) + repeated("S", 8)
        for variant in WebsterRescoring.Variant.allCases {
            #expect(scorerString(WebsterRescoring.apply(scorerLabels(input), variant: variant)) == expected)
        }
    }

    @Test func rulesOneToThreeNeedARunAsLongAsTheRescoredPart() {
        // After 15 wake minutes a 2-minute sleep run followed by 1 wake minute: rules 2 and 3 need 3 and
        // 4 sleep minutes; rule 1 rescores the first one only (both published implementations).
        let input = repeated("W", 15) + "SSW" + repeated("S", 12)
        let expected = repeated("W", 15) + "WSW" + repeated("S", 12)
        for variant in WebsterRescoring.Variant.allCases {
            #expect(scorerString(WebsterRescoring.apply(scorerLabels(input), variant: variant)) == expected)
        }
    }

    @Test func rule4ShortSleepSurroundedByTenWake() {
        // 6 sleep minutes between 10 wake minutes on each side → all wake (rule 4). 7 are too many
        // (only rules 1–2 then rescore the first 3). The last run also loses its first 3 (rule 2).
        let six = repeated("S", 5) + repeated("W", 10) + repeated("S", 6) + repeated("W", 10) + repeated("S", 5)
        let sixExpected = repeated("S", 5) + repeated("W", 29) + repeated("S", 2)
        let seven = repeated("S", 5) + repeated("W", 10) + repeated("S", 7) + repeated("W", 10) + repeated("S", 5)
        let sevenExpected = repeated("S", 5) + repeated("W", 13) + repeated("S", 4) + repeated("W", 13) + repeated("S", 2)
        for variant in WebsterRescoring.Variant.allCases {
            #expect(scorerString(WebsterRescoring.apply(scorerLabels(six), variant: variant)) == sixExpected)
            #expect(scorerString(WebsterRescoring.apply(scorerLabels(seven), variant: variant)) == sevenExpected)
        }
    }

    @Test func rule5TenMinutesSurroundedByTwentyWake() {
        let ten = repeated("W", 20) + repeated("S", 10) + repeated("W", 20)
        #expect(scorerString(WebsterRescoring.apply(scorerLabels(ten))) == repeated("W", 50))
        // 19 wake minutes after: not surrounded; rules 1–3 rescore the first 4.
        let notSurrounded = repeated("W", 20) + repeated("S", 10) + repeated("W", 19)
        #expect(scorerString(WebsterRescoring.apply(scorerLabels(notSurrounded)))
                == repeated("W", 24) + repeated("S", 6) + repeated("W", 19))
    }

    @Test func rulesApplyToTheInitialLabelsOnly() {
        // After rescoring the first minute, the second sleep minute is not "after 4 wake minutes" again.
        let input = repeated("W", 4) + repeated("S", 5)
        #expect(scorerString(WebsterRescoring.apply(scorerLabels(input))) == repeated("W", 5) + repeated("S", 4))
    }

    @Test func variantsDifferOnGapsHoldingShortWakeRuns() {
        // Between two 10-minute wake runs: S S W S S (5 epochs). pyActigraphy rescores the whole gap
        // (≤ 6 epochs between two long wake runs); the run-by-run reading sees sleep runs bordered by
        // a 1-minute wake run, so only rule 1 applies to the first one. Rules 1–2 then take 3 minutes
        // of the last run in both.
        let input = repeated("W", 10) + "SSWSS" + repeated("W", 10) + repeated("S", 8)
        let py = WebsterRescoring.apply(scorerLabels(input), variant: .pyActigraphy)
        let webster = WebsterRescoring.apply(scorerLabels(input), variant: .webster)
        #expect(scorerString(py) == repeated("W", 28) + repeated("S", 5))
        #expect(scorerString(webster) == repeated("W", 10) + "WSWSS" + repeated("W", 13) + repeated("S", 5))
    }

    @Test func unscoredEpochs() {
        // .webster: an unscored epoch breaks the wake run; 4 wake minutes after it still count.
        let input = "W-WWWW" + "SSSS"
        #expect(scorerString(WebsterRescoring.apply(scorerLabels(input), variant: .webster)) == "W-WWWW" + "WSSS")
        let broken = "WWW-" + "SSSS"
        #expect(scorerString(WebsterRescoring.apply(scorerLabels(broken), variant: .webster)) == broken)
        // .pyActigraphy counts unscored epochs as wake (its scorers emit 0 there), and keeps them unscored.
        #expect(scorerString(WebsterRescoring.apply(scorerLabels(broken), variant: .pyActigraphy)) == "WWW-" + "WSSS")
    }
}

@Suite("Scorer edges, ties and parameters")
struct ScorerEdgeTests {
    @Test func coleKripkeActiLifeZeroPaddingAndCap() {
        // One minute of 1000 counts (10 after scaling) among zeros: D = 0.001 · W · 10 at each offset.
        // Sleep iff W · 10 < 1000: wake where W > 100, i.e. offsets with weights 106 (−4 → the minute 4
        // after the count) and 230 (the count itself).
        var counts = [Double](repeating: 0, count: 9)
        counts[4] = 1000
        let labels = ColeKripke.score(countsPerEpoch: counts)
        // Scored minute i sees the count at offset 4 − i: weights for offsets +2…−4 are 67,74,230,76,58,54,106.
        #expect(scorerString(labels) == "SSSSWSSSW")
        // Padding: a count in the first minute is weighted as if zeros preceded it.
        #expect(scorerString(ColeKripke.score(countsPerEpoch: [1000, 0, 0, 0, 0])) == "WSSSW")
        // The cap: 1 000 000 counts act like 30 000 (300 after scaling): D = 0.001 · 230 · 300 = 69.
        let index = ColeKripke.index(countsPerEpoch: [0, 0, 0, 0, 1_000_000])
        #expect(index[4] == 69)
        #expect(index[0] == 0)
    }

    @Test func coleKripkeExactThreshold() {
        // ActiLife: 230 · 30 + 76 · 1225 = 100 000 → D = 0.001 · (230 · 0.3 + 76 · 12.25) = 1 exactly → wake
        // (sleep needs D < 1); one count less in the minute before → 99 924 → sleep.
        #expect(ColeKripke.score(countsPerEpoch: [0, 0, 0, 1225, 30, 0, 0])[4] == .wake)
        #expect(ColeKripke.score(countsPerEpoch: [0, 0, 0, 1224, 30, 0, 0])[4] == .sleep)
        #expect(ColeKripke.index(countsPerEpoch: [0, 0, 0, 1225, 30, 0, 0])[4] == 1)
        // The 1992 parameter sets, each at its own limit 1/P with the centre weight alone.
        #expect(ColeKripke.index(countsPerEpoch: [0, 0, 0, 0, 100], variant: .meanActivity1992)[4] == 23)
        #expect(ColeKripke.index(countsPerEpoch: [0, 0, 0, 0, 100], variant: .maxOverlapping10s1992)[4] == 1.408)
        #expect(ColeKripke.index(countsPerEpoch: [0, 0, 0, 0, 100], variant: .maxNonOverlapping10s1992)[4] == 1.736)
        #expect(ColeKripke.index(countsPerEpoch: [0, 0, 0, 0, 100], variant: .maxNonOverlapping30s1992)[4] == 1.21)
        #expect(ColeKripke.index(countsPerEpoch: [0, 0, 0, 0, 100, 0, 0, 0, 0], variant: .pyActigraphyMean)[4] == 23.0 / 30)
    }

    @Test func coleKripkePyActigraphyEdges() {
        let counts = [Double](repeating: 0, count: 12)
        let labels = ColeKripke.score(countsPerEpoch: counts, variant: .pyActigraphyMean)
        #expect(scorerString(labels) == "----SSSS----")
        var withGap = [Double](repeating: 0, count: 20)
        withGap[10] = .nan
        // A missing minute leaves itself and every minute whose −4…+4 window reaches it unscored.
        #expect(scorerString(ColeKripke.score(countsPerEpoch: withGap, variant: .pyActigraphyMean))
                == "----SS---------S----")
    }

    @Test func sadehActiLifeZeroPadding() {
        // 300 counts in the first minute, zeros after: PS at minute 0 with zero padding (sample SD of 0,0,0,0,0,300).
        let counts: [Double] = [300, 0, 0, 0, 0, 0, 0, 0]
        let ps = Sadeh.index(countsPerEpoch: counts)
        let mean = 300.0 / 11
        let sd = ((5 * 50.0 * 50 + 250.0 * 250) / 5).squareRoot()
        let expected = 7.601 - 0.065 * mean - 0.056 * sd - 0.703 * log(301.0)
        #expect(abs(ps[0] - expected) < 1e-12)
        #expect(Sadeh.score(countsPerEpoch: counts)[0] == .wake)
        // The cap: 10 000 counts score exactly like 300.
        #expect(Sadeh.index(countsPerEpoch: [10_000] + Array(counts.dropFirst())) == ps)
        // All zeros: PS = 7.601 everywhere, sleep.
        #expect(Sadeh.index(countsPerEpoch: [0, 0, 0]) == [7.601, 7.601, 7.601])
        // NAT: 50 counts at minute 5 count for minutes 0…10 (50 ≤ x < 100), lowering PS by 1.08.
        var nat = [Double](repeating: 0, count: 11)
        nat[5] = 50
        let natPS = Sadeh.index(countsPerEpoch: nat)
        #expect(abs(natPS[0] - (7.601 - 0.065 * 50 / 11 - 1.08)) < 1e-12)
    }

    @Test func sadehPyActigraphyEdgesAndNextMinuteLog() {
        let counts = [Double](repeating: 0, count: 14)
        #expect(scorerString(Sadeh.score(countsPerEpoch: counts, variant: .pyActigraphy)) == "-----SSSS-----")
        // ln of the *next* minute: a count right after minute 6 changes minute 6's LG only through x₇.
        var next = [Double](repeating: 0, count: 14)
        next[7] = 9
        let ps = Sadeh.index(countsPerEpoch: next, variant: .pyActigraphy)
        let mean = 9.0 / 11
        #expect(abs(ps[6] - (7.601 - 0.065 * mean - 0.703 * log(10.0))) < 1e-12)  // SD over minutes 1…6 = 0
        // NAT counts 50 < x < 100 only: 50 is not counted.
        var fifty = [Double](repeating: 0, count: 14)
        fifty[5] = 50
        let fiftyPS = Sadeh.index(countsPerEpoch: fifty, variant: .pyActigraphy)
        let sd50 = (5 * (50.0 / 6) * (50.0 / 6) + (250.0 / 6) * (250.0 / 6)) / 5
        #expect(abs(fiftyPS[5] - (7.601 - 0.065 * 50 / 11 - 0.056 * sd50.squareRoot())) < 1e-12)
    }

    @Test func oakleyThresholdTieIsSleepInActiware() {
        // French Actiware export, line 5874: 15, 51, [25], 21, 0 → 0.6 + 10.2 + 25 + 4.2 + 0 = 40 exactly.
        let counts: [Double] = [0, 0, 15, 51, 25, 21, 0, 0, 0]
        #expect(Oakley.activityScores(countsPerEpoch: counts, epochSeconds: 60)[4] == 40)
        #expect(Oakley.score(countsPerEpoch: counts, epochSeconds: 60, variant: .actiware)[4] == .sleep)
        #expect(Oakley.score(countsPerEpoch: counts, epochSeconds: 60, variant: .zeroPadded)[4] == .sleep)
        #expect(Oakley.score(countsPerEpoch: counts, epochSeconds: 60, variant: .pyActigraphy)[4] == .wake)
        #expect(Oakley.score(countsPerEpoch: counts + [1], epochSeconds: 60, threshold: .counts(39.99))[4] == .wake)
    }

    @Test func oakleyWeightsPerEpochLength() {
        // A single count of 100 seen from each offset: weight × 100.
        func profile(_ seconds: Int, half: Int) -> [Double] {
            var counts = [Double](repeating: 0, count: 2 * half + 1)
            counts[half] = 100
            return Oakley.activityScores(countsPerEpoch: counts, epochSeconds: seconds)
        }
        #expect(profile(15, half: 8) == [4, 4, 4, 4, 20, 20, 20, 20, 400, 20, 20, 20, 20, 4, 4, 4, 4])
        #expect(profile(30, half: 4) == [4, 4, 20, 20, 200, 20, 20, 4, 4])
        #expect(profile(60, half: 2) == [4, 20, 100, 20, 4])
        #expect(profile(120, half: 1) == [12, 50, 12])
        #expect(Oakley.score(countsPerEpoch: [1, 2, 3], epochSeconds: 45).allSatisfy { $0 == nil })
    }

    @Test func oakleyEdgesPerVariant() {
        let counts = [Double](repeating: 0, count: 12)
        // Actiware leaves the first 2 minutes unscored (4 epochs of 30 s), scores the end with zero padding.
        #expect(scorerString(Oakley.score(countsPerEpoch: counts, epochSeconds: 30)) == "----SSSSSSSS")
        #expect(scorerString(Oakley.score(countsPerEpoch: counts, epochSeconds: 30, variant: .zeroPadded)) == "SSSSSSSSSSSS")
        #expect(scorerString(Oakley.score(countsPerEpoch: counts, epochSeconds: 30, variant: .pyActigraphy)) == "----SSSS----")
        // A missing count: that epoch unscored; neighbours treat it as 0 (Actiware).
        var gap = [Double](repeating: 0, count: 8)
        gap[5] = .nan
        gap[6] = 250
        // minute 4 sees 250 · 0.04 = 10, minute 7 sees 250 · 0.2 = 50.
        #expect(scorerString(Oakley.score(countsPerEpoch: gap, epochSeconds: 60)) == "--SSS-WW")
    }

    @Test func oakleyAutomaticThreshold() {
        // 60-s epochs: MOBILE if ≥ 4 counts. Counts 0, 3, 4, 10, NaN: sum 17, 2 mobile minutes → 17/2 · 0.88888.
        let t = Oakley.automaticThreshold(countsPerEpoch: [0, 3, 4, 10, .nan], epochSeconds: 60)
        #expect(t == 17.0 / 2 * 0.88888)
        // 15-s epochs: MOBILE if ≥ 1; mobile time = 2 epochs × 0.25 min.
        #expect(Oakley.automaticThreshold(countsPerEpoch: [0, 1, 5], epochSeconds: 15) == 6.0 / 0.5 * 0.88888)
        #expect(Oakley.automaticThreshold(countsPerEpoch: [0, 0], epochSeconds: 60) == nil)
    }

    @Test func scrippsConstants() {
        // A lone count a scored at its own epoch: D = 0.204 · 0.03 · a; a = 163 → 0.99756 sleep, 164 → 1.00368 wake.
        let below = [Double](repeating: 0, count: 10) + [163] + [Double](repeating: 0, count: 10)
        let above = [Double](repeating: 0, count: 10) + [164] + [Double](repeating: 0, count: 10)
        #expect(Scripps.score(countsPerEpoch: below)[10] == .sleep)
        #expect(Scripps.score(countsPerEpoch: above)[10] == .wake)
        // The epoch right after it weighs it by 0.0664: a = 73 → 0.98884 sleep, 74 → 1.00239 wake.
        #expect(Scripps.score(countsPerEpoch: [Double](repeating: 0, count: 10) + [73, 0])[11] == .sleep)
        #expect(Scripps.score(countsPerEpoch: [Double](repeating: 0, count: 10) + [74, 0])[11] == .wake)
        // pyActigraphy needs the full −10…+10 window.
        let zeros = [Double](repeating: 0, count: 22)
        #expect(scorerString(Scripps.score(countsPerEpoch: zeros, variant: .pyActigraphy)) == repeated("-", 10) + "SS" + repeated("-", 10))
    }
}

@Suite("van Hees 2015 (GGIR HASIB)")
struct ScorerVanHeesTests {
    @Test func boutBetweenTwoPostureChangesMoreThanFiveMinutesApart() {
        // 5-s epochs: changes (|Δ| > 5°) after epochs 9 and 80 (71 epochs apart > 60) and after 100.
        // Wiggles of 4.9° (not > 5) in between never count.
        var angle = [Double](repeating: 0, count: 130)
        for i in 10...80 { angle[i] = 20 }  // change between 9→10, and 80→81
        for i in 101..<130 { angle[i] = 40 } // change between 100→101 (20 epochs after 80: too short)
        for i in stride(from: 12, through: 78, by: 3) { angle[i] += 4.9 }
        let labels = VanHees2015.score(angleZDegrees: angle)
        let sleep = labels.indices.filter { labels[$0] == .sleep }
        #expect(sleep.first == 9 && sleep.last == 80 && sleep.count == 72)
    }

    @Test func gapOfExactlyTheThresholdIsNotABout() {
        var angle = [Double](repeating: 0, count: 100)
        for i in 11...70 { angle[i] = 10 }  // changes after 10 and 70: 60 epochs apart, not > 60
        for i in 0..<5 { angle[i] = Double(i % 2) * 10 }  // 4 more changes at the start (total 6 < 10)
        #expect(VanHees2015.score(angleZDegrees: angle).allSatisfy { $0 == .sleep })
        // With 10 or more changes and no long gap, everything is wake.
        var busy = angle
        for i in 80..<90 { busy[i] = Double(i % 2) * 10 }
        #expect(VanHees2015.score(angleZDegrees: busy).allSatisfy { $0 == .wake })
    }

    @Test func edgesAndMissingAngles() {
        // The stretch before the first change is wake even if long; NaN never makes a change.
        var angle = [Double](repeating: 0, count: 300)
        angle[100] = .nan
        for i in 150..<300 { angle[i] = 30 }
        for i in 220..<300 { angle[i] = 60 }
        for i in 290..<300 { angle[i] = 0 }
        let labels = VanHees2015.score(angleZDegrees: angle)
        // Changes after epochs 149, 219 and 289 (70 apart each): bouts 149…219 and 219…289.
        #expect(labels[0...148].allSatisfy { $0 == .wake })
        #expect(labels[149...289].allSatisfy { $0 == .sleep })
        #expect(labels[290...].allSatisfy { $0 == .wake })
        #expect(VanHees2015.score(angleZDegrees: []).isEmpty)
    }
}

@Suite("ActiLife epoch collapse")
struct ScorerEpochCollapseTests {
    @Test func clockAlignmentAndIncompleteEdges() throws {
        // 10-s epochs starting at 10:54:30 (seconds of day 39 270): the first minute gets 3 epochs.
        let axis: [Double] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        let lux: [Double] = [1, 2, 2, 0, 0, 0, 0, 0, 0, 5]
        let result = try #require(EpochCollapse.collapse(
            columns: [axis, lux], reductions: [.sum, .floorMean],
            inputEpochSeconds: 10, outputEpochSeconds: 60, firstEpochStartSeconds: 39_270))
        #expect(result.firstOutputStartSeconds == 39_240)
        #expect(result.columns[0] == [6, 39, 10])  // 1+2+3, 4+…+9, 10
        #expect(result.columns[1] == [1, 0, 5])   // floor(5/3), floor(0/6), floor(5/1)
        #expect(result.presentInputEpochs == [3, 6, 1])
        let complete = try #require(EpochCollapse.collapse(
            axis, inputEpochSeconds: 10, outputEpochSeconds: 60, firstEpochStartSeconds: 39_270, keepIncomplete: false))
        #expect(complete[0].isNaN && complete[1] == 39 && complete[2].isNaN)
    }

    @Test func missingEpochsAreSkipped() throws {
        let values: [Double] = [1, .nan, 3, .nan, .nan, .nan, .nan, .nan, .nan, .nan, .nan, .nan, 7]
        let out = try #require(EpochCollapse.collapse(values, inputEpochSeconds: 5, outputEpochSeconds: 30,
                                                      firstEpochStartSeconds: 0))
        #expect(out.count == 3)
        #expect(out[0] == 4 && out[1].isNaN && out[2] == 7)
        #expect(EpochCollapse.collapse([1], inputEpochSeconds: 7, outputEpochSeconds: 60, firstEpochStartSeconds: 0) == nil)
        // Negative clock values (before 1970) align on the same grid.
        let neg = try #require(EpochCollapse.collapse(columns: [[1, 2]], inputEpochSeconds: 10, outputEpochSeconds: 60,
                                                      firstEpochStartSeconds: -10))
        #expect(neg.firstOutputStartSeconds == -60 && neg.columns[0] == [1, 2])
    }
}
