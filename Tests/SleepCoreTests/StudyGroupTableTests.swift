import Testing
import SleepCore

/// ``StudyTable``: Table 1's statistics per group (over nights and over participants' means) and
/// the inclusion rule, with every excluded participant and night named with its reason.
@Suite("StudyGroupTable")
struct StudyGroupTableTests {
    static func night(_ p: Participant, _ date: String, tst: Double, wear: Double = 8, status: NightStatus = .scored) -> StudyNight {
        let m = NightSummaryMetrics(resolutionSeconds: 600, inBedStartUTC: 0, inBedEndUTC: 28_800, sleepOnsetUTC: 600, wakeTimeUTC: 28_200,
                                    timeInBedMinutes: 480, sleepPeriodMinutes: 460, totalSleepTimeMinutes: tst, sleepOnsetLatencyMinutes: 10,
                                    wakeAfterSleepOnsetMinutes: 460 - tst, sleepEfficiencyPercent: tst / 4.8, awakenings: 2,
                                    lightMinutes: 0, deepMinutes: 0, awakeMinutes: 0)
        return StudyNight(participant: p, nightID: "\(p.id)_\(date)", date: CivilDate(iso: date)!, recordingPath: p.id + ".csv",
                          status: status.rawValue, wearHours: wear, metrics: status == .scored ? m : nil)
    }

    static let p1 = Participant(id: "P1", group: "control"), p2 = Participant(id: "P2", group: "control")
    static let p3 = Participant(id: "P3", group: "patient"), p4 = Participant(id: "P4", group: "patient")
    // 2024-03-04 is a Monday, 2024-03-08 a Friday (a weekend night), 2024-03-09 a Saturday.
    static let cohort = [night(p1, "2024-03-04", tst: 400), night(p1, "2024-03-08", tst: 420), night(p2, "2024-03-05", tst: 360),
                         night(p3, "2024-03-04", tst: 300), night(p3, "2024-03-05", tst: 330), night(p3, "2024-03-09", tst: 390),
                         night(p3, "2024-03-10", tst: 0, status: .insufficientData), night(p4, "2024-03-04", tst: 380, wear: 3)]

    static func tst(_ g: StudyTable.Group) -> StudyTable.Statistic { g.statistics.first { $0.metric == "total_sleep_time_min" }! }

    @Test("without a rule: every scored night counts; mean ± SD over nights and over the participants' means, per group")
    func noRule() throws {
        let t = StudyTable.compute(Self.cohort)
        #expect(t.groups.map(\.name) == ["control", "patient"])
        let control = t.groups[0], patient = t.groups[1]
        #expect(control.participants == 2 && control.nights == 3 && patient.participants == 2 && patient.nights == 4)
        let c = Self.tst(control)
        #expect(c.nights.n == 3 && abs(c.nights.mean! - 1180.0 / 3) < 1e-9)
        // Over participants: P1's mean 410 and P2's 360: mean 385, SD √((25² + 25²) / 1).
        #expect(c.participants.n == 2 && c.participants.mean == 385 && abs(c.participants.sd! - (1250.0).squareRoot()) < 1e-9)
        // The insufficient night is listed with its reason; nobody is left out.
        #expect(t.exclusions == [StudyTable.Exclusion(participant: Self.p3, group: "patient", nightID: "P3_2024-03-10",
                                                      date: CivilDate(iso: "2024-03-10"), recordingPath: "P3.csv",
                                                      reason: "not scored (insufficient-data)")])
        #expect(t.participants.allSatisfy { $0.included })
    }

    @Test("the inclusion rule: too few valid nights or too few hours worn leave a participant or a night out, named with the reason")
    func rule() throws {
        let t = StudyTable.compute(Self.cohort, rule: InclusionRule(minValidNights: 2, minWearHours: 5))
        let control = t.groups[0], patient = t.groups[1]
        #expect(control.participants == 1 && control.nights == 2 && patient.participants == 1 && patient.nights == 3)
        let c = Self.tst(control), p = Self.tst(patient)
        #expect(c.nights.mean == 410 && abs(c.nights.sd! - (200.0).squareRoot()) < 1e-9)
        #expect(c.participants.n == 1 && c.participants.mean == 410 && c.participants.sd == nil, "SD needs two participants")
        // 300, 330, 390: mean 340, SD √((40² + 10² + 50²) / 2) = √2100.
        #expect(p.nights.mean == 340 && abs(p.nights.sd! - (2100.0).squareRoot()) < 1e-9)
        let reasons = t.exclusions.map { "\($0.participant.id) \($0.nightID ?? "-"): \($0.reason)" }
        #expect(reasons == ["P2 -: 1 valid night < --min-valid-nights 2",
                            "P3 P3_2024-03-10: not scored (insufficient-data)",
                            "P4 P4_2024-03-04: worn 3 h < --min-wear-hours 5",
                            "P4 -: no valid night"])
        let p1 = try #require(t.participants.first { $0.participant == Self.p1 })
        #expect(p1.validNights == 2 && p1.validWeekdayNights == 1 && p1.validWeekendNights == 1 && p1.included && p1.reason == nil)
        let p3 = try #require(t.participants.first { $0.participant == Self.p3 })
        #expect(p3.nights == 4 && p3.validNights == 3 && p3.validWeekendNights == 1, "Saturday 2024-03-09 starts a weekend night; Sunday does not")
        #expect(t.participants.first { $0.participant == Self.p2 }?.included == false)
    }

    @Test("without groups every participant is in one group, all; wear hours are the covered hours less the sleep period's not-worn minutes")
    func ungrouped() {
        let t = StudyTable.compute([Self.night(Participant(id: "a.csv"), "2024-03-04", tst: 400), Self.night(Participant(id: "b.csv"), "2024-03-04", tst: 300)])
        #expect(t.groups.map(\.name) == ["all"] && t.groups[0].participants == 2 && Self.tst(t.groups[0]).participants.mean == 350)
        #expect(StudyNight.wearHours(coverageSeconds: 8 * 3600, notWornInSleepPeriodMinutes: 90) == 6.5)
        #expect(StudyNight.wearHours(coverageSeconds: 3600, notWornInSleepPeriodMinutes: nil) == 1)
        #expect(StudyTable.summary([1, .nan, 3]).n == 2 && StudyTable.summary([]).mean == nil)
    }
}
