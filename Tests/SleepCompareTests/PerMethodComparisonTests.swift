import Testing
import SleepCore
import SleepReport

/// Nights of methods that score per epoch have zero metric differences between interval lengths
/// by design: the interval statistics pool only the per-interval (phone) nights, and every
/// method gets its own statistics on the page and in statistics.csv.
@Suite("Comparison per method")
struct PerMethodComparisonTests {
    /// 3 phone nights whose TST differs between the lengths, 5 wearable nights identical at both.
    static func comparison() -> IntervalLengthComparison {
        var nights: [IntervalLengthComparison.Night] = []
        for k in 0..<3 {
            let a = MetricsLabellingTests.analysis(kind: .phoneInBed)
            var b = a
            b.metrics!.totalSleepTimeMinutes += Double(k + 1) * 5
            nights.append(.init(nightID: "phone-\(k)", windowStartUTC: 0, analyses: [a, b]))
        }
        for k in 0..<5 {
            var a = MetricsLabellingTests.analysis(kind: .wearable24h)
            a.metrics!.totalSleepTimeMinutes += Double(k) * 7
            nights.append(.init(nightID: "wrist-\(k)", windowStartUTC: 0, analyses: [a, a]))
        }
        return IntervalLengthComparison.compute(lengths: [.tenMinutes, .fifteenMinutes], nights: nights)
    }

    @Test("the interval statistics pool only the phone nights; each method has its own")
    func statistics() throws {
        let pair = try #require(Self.comparison().pairs.first)
        #expect(pair.nights.count == 8 && pair.pooledNightCount == 3)
        let tst = pair.agreement(.totalSleepTime)
        #expect(tst.count == 3)
        #expect(tst.blandAltman?.bias == 10)
        #expect(pair.methods.map(\.kind) == [.phoneInBed, .wearable24h])
        let wrist = pair.methods[1]
        #expect(!wrist.metricsDependOnInterval && wrist.nightCount == 5)
        #expect(wrist.agreement(.totalSleepTime).count == 5 && wrist.agreement(.totalSleepTime).blandAltman?.bias == 0)
        #expect(wrist.agreement(.totalSleepTime).intraclassCorrelation == 1)
        #expect(pair.methods[0].agreement(.totalSleepTime) == tst)
    }

    @Test("statistics.csv: a method column, pooled rows and one row per method and metric")
    func csv() throws {
        let lines = ComparisonCSV.statistics(Self.comparison()).split(separator: "\n").map(String.init)
        #expect(lines[0].hasSuffix(",icc_2_1,method"))
        let tst = lines.filter { $0.hasPrefix("10m,15m,total_sleep_time_min,") }
        #expect(tst.count == 3)
        #expect(tst[0].hasSuffix(",pooled") && tst[0].contains(",min,3,"))
        #expect(tst[1].hasSuffix(",phone-in-bed") && tst[1].contains(",min,3,"))
        #expect(tst[2].hasSuffix(",wearable-24h") && tst[2].contains(",min,5,"))
        #expect(lines.count == 1 + 3 * ComparedMetric.allCases.count)
        let differences = ComparisonCSV.nightDifferences(Self.comparison()).split(separator: "\n")
        #expect(differences[0].hasSuffix(",difference,method"))
        #expect(differences.contains { $0.hasPrefix("wrist-0,") && $0.hasSuffix(",wearable-24h") })
    }

    @Test("the page says the wrist nights are listed but not pooled, and shows a table per method")
    func page() throws {
        let c = Self.comparison()
        let info = ComparisonReportInput.NightInfo(date: CivilDate(year: 2024, month: 6, day: 14),
                                                   timeline: UTCOffsetTimeline(initialOffsetSeconds: 0), recordingPath: "r.csv")
        let page = ComparisonPages.page(ComparisonReportInput(comparison: c, nights: Array(repeating: info, count: c.nights.count),
                                                              parameters: AnalysisParameters()))
        #expect(page.contains("night metrics across 3 nights scored per interval</h2>"))
        #expect(page.contains("Wrist and epoch methods do not depend on the interval length"))
        #expect(page.contains("Their 5 nights (wearable-24h) are listed per method below and per night, but not pooled into these interval statistics"))
        let rows = page.components(separatedBy: "\n").filter { $0.contains("<td data-label=\"Method\">") }
        #expect(rows.count == 2 * ComparedMetric.allCases.count)
        #expect(rows.contains { $0.contains(">wearable-24h<") && $0.contains(">no (per epoch)<") && $0.contains("(total_sleep_time_min)") })
        #expect(page.contains("<h3>Per method: "))
    }

    @Test("phone nights only: the pooled table is the one method's, so no per-method table repeats it")
    func onePhoneMethod() throws {
        let phones = IntervalLengthComparison.compute(lengths: [.tenMinutes, .fifteenMinutes],
                                                      nights: Self.comparison().nights.filter { $0.nightID.hasPrefix("phone-") })
        let info = ComparisonReportInput.NightInfo(date: CivilDate(year: 2024, month: 6, day: 14),
                                                   timeline: UTCOffsetTimeline(initialOffsetSeconds: 0), recordingPath: "r.csv")
        let page = ComparisonPages.page(ComparisonReportInput(comparison: phones, nights: Array(repeating: info, count: phones.nights.count),
                                                              parameters: AnalysisParameters()))
        #expect(page.contains("night metrics across 3 nights scored per interval</h2>"))
        #expect(!page.contains("Per method: ") && !page.contains("<td data-label=\"Method\">"))
        #expect(!page.contains("do not depend on the interval length"))
        // The CSV keeps its per-method rows: a script reads one shape whatever the cohort.
        #expect(ComparisonCSV.statistics(phones).contains(",phone-in-bed\n"))
    }
}

/// The awakenings found by either length are never fewer than those found at one length.
@Suite("Either-length count never below one length's")
struct EitherCountNeverBelowTests {
    static func hypnogram(_ letters: String, seconds: Int) -> IntervalHypnogram {
        let stages: [SleepStage] = letters.map { $0 == "W" ? .wake : .light }
        return IntervalHypnogram(startUTC: 0, intervalSeconds: seconds, stages: stages, states: stages.map { $0 == .wake ? .wake : .sleep })
    }

    @Test("one long 10-min awakening that the 15-min grid splits in two counts as two, not one")
    func splitAwakening() {
        // 10 min: wake 20:00–50:00 (one awakening). 15 min: wake 15:00–30:00 and 45:00–60:00, sleep between.
        let reference = Self.hypnogram("SSWWWSSS", seconds: 600)
        let test = Self.hypnogram("SWSWSS", seconds: 900)
        let h = HiddenAwakenings.compute(reference: reference, test: test)
        #expect(h.referenceAwakenings == 1 && h.testAwakenings == 2)
        // Neither 15-min awakening lies in 10-min sleep throughout, none is hidden: the old
        // reference + appeared gave 1, below the 15-min count.
        #expect(h.appearedCount == 0 && h.hiddenCount == 0)
        #expect(h.eitherCount == 2)
        #expect(h.eitherCount >= max(h.referenceAwakenings, h.testAwakenings))
        // The other way round it holds as well.
        let swapped = HiddenAwakenings.compute(reference: test, test: reference)
        #expect(swapped.eitherCount == 2)
    }
}
