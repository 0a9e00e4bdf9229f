import CGD
import Foundation
import Testing
import SleepCore
import SleepReport

/// A day with a main sleep, a nap and a secondary (day) sleep that runs past the window's noon,
/// and the next day, which carries that sleep's last hour: what the method will fill and the
/// pages must show.
enum DayFixtures {
    static let timeline = UTCOffsetTimeline.fixed(7200)
    static let date = CivilDate(year: 2024, month: 6, day: 14)
    /// 2024-06-14 12:00 local (+02:00): the day's window starts.
    static let noon: Int64 = 1_718_359_200
    static func at(_ minutes: Int) -> Int64 { noon + Int64(minutes) * 60 }

    static func period(_ kind: SleepPeriodKind, onset: Int, wake: Int, tst: Double, source: SleepPeriodSource = .data) -> SleepPeriod {
        SleepPeriod(kind: kind, source: source, inBedStartUTC: at(onset - 10), inBedEndUTC: at(wake + 5), sleepOnsetUTC: at(onset),
                    wakeTimeUTC: at(wake), sleepPeriodMinutes: Double(wake - onset), totalSleepTimeMinutes: tst,
                    wasoMinutes: Double(wake - onset) - tst, awakenings: 2, sleepEfficiencyPercent: tst / Double(wake - onset + 15) * 100)
    }

    /// Main 22:40–05:40, nap 14:02–14:58, secondary 10:00–13:00 (past the window's noon).
    static let periods = [
        period(.main, onset: 640, wake: 1060, tst: 380),
        period(.nap, onset: 122, wake: 178, tst: 50),
        period(.secondary, onset: 1320, wake: 1500, tst: 170, source: .diary),
    ]

    /// The first day's minutes: no data 12:00–12:30, the nap, not worn (laid down) 15:20–16:20,
    /// the main sleep, the secondary sleep to the window's end, awake otherwise.
    static func firstDay() -> DayMinutes {
        var d = DayMinutes(startUTC: noon, classes: .init(repeating: .awake, count: 1440))
        d.mark(fromUTC: at(0), toUTC: at(30), as: .noData)
        d.mark(fromUTC: at(122), toUTC: at(178), as: .nap)
        d.mark(fromUTC: at(200), toUTC: at(260), as: .notWornStill)
        d.mark(fromUTC: at(640), toUTC: at(1060), as: .sleepMain)
        d.mark(fromUTC: at(1320), toUTC: at(1440), as: .sleepSecondary)
        return d
    }

    /// The next day: the secondary sleep's last hour carried (12:00–13:00), awake after it.
    static func secondDay() -> DayMinutes {
        var d = DayMinutes(startUTC: at(1440), classes: .init(repeating: .awake, count: 1440))
        d.mark(fromUTC: at(1440), toUTC: at(1500), as: .carriedSleep)
        d.mark(fromUTC: at(1440 + 700), toUTC: at(1440 + 1100), as: .sleepMain)
        return d
    }

    /// The wearable night of the first day: 10-min intervals over the whole window.
    static func analysis(periods: [SleepPeriod]? = DayFixtures.periods, day: DayMinutes? = firstDay(), start: Int64 = noon) -> NightAnalysis {
        var a = GoldenFixtures.wearable()
        a.intervals = GoldenFixtures.intervals(count: 144, from: start)
        a.metrics?.inBedStartUTC = at(630); a.metrics?.inBedEndUTC = at(1065)
        a.metrics?.sleepOnsetUTC = at(640); a.metrics?.wakeTimeUTC = at(1060)
        a.epochs = []
        a.periods = periods
        a.day = day
        return a
    }

    static func nightInput(_ a: NightAnalysis) -> NightReportInput {
        NightReportInput(nightID: "p1_2024-06-14", date: date, timeline: timeline, timeZoneName: "Europe/Berlin",
                         recordingPath: "p1.cwa", recordingFormat: .samples(.rawCSV), dataFacts: [], warnings: [],
                         preBedSurvey: [], postBedSurvey: [], analysis: a, sourceResolutionSeconds: 1)
    }

    /// The two days as index rows of one participant.
    static func rows() -> [IndexRow] {
        var second = analysis(periods: [period(.main, onset: 1440 + 700, wake: 1440 + 1100, tst: 360)], day: secondDay(), start: at(1440))
        second.metrics?.inBedStartUTC = at(1440 + 690); second.metrics?.inBedEndUTC = at(1440 + 1105)
        second.metrics?.sleepOnsetUTC = at(1440 + 700); second.metrics?.wakeTimeUTC = at(1440 + 1100)
        return [
            IndexRow(nightID: "p1_2024-06-14", date: date, recordingPath: "p1.cwa", timeline: timeline, analysis: analysis()),
            IndexRow(nightID: "p1_2024-06-15", date: CivilDate(year: 2024, month: 6, day: 15), recordingPath: "p1.cwa",
                     timeline: timeline, analysis: second),
        ]
    }
}

/// The colour of the finished PNG at (x, y), as (r, g, b).
func pixel(_ png: [UInt8], _ x: Int32, _ y: Int32) -> (Int32, Int32, Int32)? {
    guard let im = png.withUnsafeBytes({ gdImageCreateFromPngPtr(Int32($0.count), UnsafeMutableRawPointer(mutating: $0.baseAddress)) })
    else { return nil }
    defer { gdImageDestroy(im) }
    let c = sleepsta_gd_truecolor_pixel(im, x, y)
    return ((c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF)
}

/// Columns of the PNG holding a pixel of `rgb` (each channel within `tolerance`) in rows `ys`.
func columns(_ png: [UInt8], _ rgb: (Int32, Int32, Int32), rows ys: Range<Int32>, tolerance: Int32 = 0) -> [Int32] {
    guard let im = png.withUnsafeBytes({ gdImageCreateFromPngPtr(Int32($0.count), UnsafeMutableRawPointer(mutating: $0.baseAddress)) })
    else { return [] }
    defer { gdImageDestroy(im) }
    var found: [Int32] = []
    for x in 0..<sleepsta_gd_width(im) {
        for y in ys where y < sleepsta_gd_height(im) {
            let c = sleepsta_gd_truecolor_pixel(im, x, y)
            if abs((c >> 16) & 0xFF - rgb.0) <= tolerance && abs((c >> 8) & 0xFF - rgb.1) <= tolerance && abs(c & 0xFF - rgb.2) <= tolerance {
                found.append(x); break
            }
        }
    }
    return found
}

@Suite("Every sleep of the day: night chart, night page, participant timeline, index, definitions")
struct DayPeriodsTests {
    @Test("the night chart marks each period by kind and its axis runs on to a day sleep's wake past the window's noon")
    func nightChartMarks() throws {
        let chart = NightPageText.chart(DayFixtures.analysis(), epochs: nil, timeline: DayFixtures.timeline, date: DayFixtures.date,
                                        interval: AnalysisParameters().interval)
        #expect(chart.periods.map(\.label) == ["main 22:40–05:40", "nap 14:02–14:58", "secondary 10:00–13:00 (diary)"])
        let png = ChartRenderer().png(chart)
        // The nap's and the secondary sleep's pale bands in the plot, each where its period is.
        let napShade = columns(png, ChartRenderer.kindShades[.nap]!, rows: 150..<300)
        let secondaryShade = columns(png, ChartRenderer.kindShades[.secondary]!, rows: 150..<300)
        #expect(napShade.count > 20 && secondaryShade.count > 100, "nap \(napShade.count), secondary \(secondaryShade.count)")
        // Their brackets in their kinds' colours above the plot.
        #expect(!columns(png, ChartRenderer.kindColours[.nap]!, rows: 40..<76, tolerance: 30).isEmpty)
        #expect(!columns(png, ChartRenderer.kindColours[.secondary]!, rows: 40..<76, tolerance: 30).isEmpty)
        // The data end at the window's noon; the secondary sleep runs an hour past it, and so does the axis.
        let line = columns(png, (0, 114, 178), rows: 100..<330, tolerance: 40)
        let lastLine = try #require(line.max()), lastShade = try #require(secondaryShade.max())
        #expect(lastShade > lastLine + 20, "shade to \(lastShade), line to \(lastLine)")
        #expect(try #require(napShade.max()) < lastLine / 3)
    }

    @Test("the next day's chart brackets the sleep carried from the day before, apart from its own periods")
    func carriedOnChart() throws {
        let second = try #require(DayFixtures.rows()[1].analysis)
        let chart = NightPageText.chart(second, epochs: nil, timeline: DayFixtures.timeline, date: CivilDate(year: 2024, month: 6, day: 15),
                                        interval: AnalysisParameters().interval)
        #expect(chart.carried.count == 1 && chart.carried.first?.start == DayFixtures.at(1440) && chart.carried.first?.end == DayFixtures.at(1500))
        #expect(chart.periods.map(\.label) == ["main 23:40–06:20"])
        let bracket = columns(ChartRenderer().png(chart), ChartRenderer.classColour(.carriedSleep), rows: 40..<76, tolerance: 12)
        // At the chart's start (12:00–13:00 and its label); the main label's anti-aliased edges may match further right.
        #expect(bracket.filter { $0 < 140 }.count > 30, "\(bracket)")
    }

    @Test("without periods the night chart is drawn as before: no marks, the axis on the data alone")
    func nilPeriodsChart() throws {
        let without = NightPageText.chart(DayFixtures.analysis(periods: nil), epochs: nil, timeline: DayFixtures.timeline,
                                          date: DayFixtures.date, interval: AnalysisParameters().interval)
        let empty = NightPageText.chart(DayFixtures.analysis(periods: []), epochs: nil, timeline: DayFixtures.timeline,
                                        date: DayFixtures.date, interval: AnalysisParameters().interval)
        #expect(without.periods.isEmpty && without.periodSpan == nil && without.carried.isEmpty)
        let bare = NightPageText.chart(DayFixtures.analysis(periods: nil, day: nil), epochs: nil, timeline: DayFixtures.timeline,
                                       date: DayFixtures.date, interval: AnalysisParameters().interval)
        #expect(bare.carried.isEmpty && bare.periods.isEmpty)
        let renderer = ChartRenderer(fontPath: nil)
        #expect(SHA256Hex.pixels(renderer.png(without)) == SHA256Hex.pixels(renderer.png(empty)))
        for kind in [SleepPeriodKind.nap, .secondary] {
            #expect(columns(renderer.png(without), ChartRenderer.kindShades[kind]!, rows: 0..<420).isEmpty)
        }
    }

    @Test("the night page lists the day's periods with their metrics and says what tells sleep from still wake")
    func nightPageTable() {
        let html = HTMLPages.nightPage(DayFixtures.nightInput(DayFixtures.analysis()), chartFile: "movement.png")
        #expect(html.contains("Sleep periods of the day (3 sleep periods)"))
        #expect(html.contains(#"<tr class="period-main"><td data-label="Kind">main</td><td data-label="In bed">22:30–05:45</td><td data-label="Onset">22:40</td><td data-label="Wake">05:40</td><td class="num" data-label="SPT">7 h 0 min</td><td class="num" data-label="TST">6 h 20 min</td>"#))
        #expect(html.contains(#"<tr class="period-nap"><td data-label="Kind">nap</td><td data-label="In bed">13:52–15:03</td><td data-label="Onset">14:02</td><td data-label="Wake">14:58</td><td class="num" data-label="SPT">56 min</td><td class="num" data-label="TST">50 min</td><td class="num" data-label="WASO">6 min</td><td class="num" data-label="Awakenings">2</td><td class="num" data-label="Efficiency">70.4 %</td><td data-label="Source">data</td></tr>"#))
        #expect(html.contains(#"<td data-label="Onset">10:00</td><td data-label="Wake">13:00</td>"#))
        #expect(html.contains(#"<td data-label="Source">diary</td>"#))
        #expect(html.contains("sustained inactivity (no change of wrist angle above 5° for 5 min, van Hees 2015)"))
        #expect(html.contains("so it is not sleep."))
        // A phone night's periods get the table but not the wrist's evidence.
        var phone = DayFixtures.analysis()
        phone.kind = .phoneInBed
        let phonePage = HTMLPages.nightPage(DayFixtures.nightInput(phone), chartFile: "movement.png")
        #expect(phonePage.contains("period-nap") && !phonePage.contains("van Hees 2015) for most"))
        #expect(html.contains("only by the skin temperature"), "what a still nap without temperature needs")
        // GGIR parity looks for one window a night and says so; an epoch file names its sources.
        var ggir = DayFixtures.analysis()
        ggir.parameters.nightMethod = .ggir
        let ggirPage = HTMLPages.nightPage(DayFixtures.nightInput(ggir), chartFile: "movement.png")
        #expect(ggirPage.contains("GGIR finds one sleep period window a night") && !ggirPage.contains("van Hees 2015) for most"))
        var file = DayFixtures.analysis()
        file.kind = .epochFile
        #expect(HTMLPages.nightPage(DayFixtures.nightInput(file), chartFile: "movement.png").contains("ActiLife&#39;s Tudor-Locke periods")
                || HTMLPages.nightPage(DayFixtures.nightInput(file), chartFile: "movement.png").contains("ActiLife's Tudor-Locke periods"))
    }

    @Test("a night without periods renders its page as before: no table of periods")
    func nilPeriodsPage() {
        let html = HTMLPages.nightPage(DayFixtures.nightInput(DayFixtures.analysis(periods: nil, day: nil)), chartFile: "movement.png")
        #expect(!html.contains("Sleep periods of the day") && !html.contains("period-") && !html.contains("van Hees 2015) for most"))
        #expect(html.contains("Total sleep time (TST)"))
    }

    @Test("the participant timeline: a row per day with each minute's class colour, carried sleep in its period's kind")
    func participantTimeline() throws {
        let days = ParticipantDays.make(DayFixtures.rows())
        #expect(days.count == 2)
        // The second day's carried hour belongs to the first day's secondary sleep.
        #expect(days[1].account.minutes.classes[30] == .sleepSecondary)
        #expect(ParticipantDays.napsPerDay(days) == 0.5)
        #expect(ParticipantDays.napMinutesPerDay(days) == 28)
        let timeline = ParticipantDays.timeline(days, title: "Participant p1 · every sleep of the day")
        #expect(timeline.rows[0].marks.map(\.text) == ["nap 14:02", "main 22:40", "secondary 10:00"])
        let png = ChartRenderer().png(timeline)
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        let L = DayTimeline.Layout.self
        func at(row: Int, minute: Int) -> (Int32, Int32, Int32)? {
            let x = Int32(L.x(minute: minute, span: timeline.spanMinutes, width: 1200).rounded())
            return pixel(png, x, L.barTop(row: row) + L.barHeight / 2)
        }
        let expected: [(Int, Int, DayMinuteClass)] = [
            (0, 15, .noData), (0, 150, .nap), (0, 230, .notWornStill), (0, 400, .awake), (0, 800, .sleepMain),
            (0, 1400, .sleepSecondary), (1, 30, .sleepSecondary), (1, 400, .awake), (1, 900, .sleepMain),
        ]
        for (row, minute, cls) in expected {
            let got = try #require(at(row: row, minute: minute))
            #expect(got == ChartRenderer.classColour(cls), "row \(row) minute \(minute): \(got) for \(cls.code)")
        }
    }

    @Test("the participant page shows the timeline and the mean naps; without days it shows no such section")
    func participantPage() {
        let rows = DayFixtures.rows()
        let summary = ParticipantSummary.compute(participant: Participant(id: "p1"), recordings: ["p1.cwa"], nights: 2, scored: [], rhythms: [])
        var input = ParticipantReportInput(summary: summary, rule: "each recording file", recordings: [], nights: rows)
        input.days = ParticipantDays.make(rows)
        input.dayChart = "days.png"
        let html = HTMLPages.participantPage(input)
        #expect(html.contains("Every sleep of the day") && html.contains(#"src="days.png""#))
        #expect(html.contains(#"<b class="naps-per-day">0.50</b>"#) && html.contains("28 min"))
        #expect(html.contains("nap 14:02–14:58; main 22:40–05:40; secondary 10:00–13:00"))
        let plain = HTMLPages.participantPage(ParticipantReportInput(summary: summary, rule: "each recording file", recordings: [], nights: rows))
        #expect(!plain.contains("Every sleep of the day") && !plain.contains("days.png"))
    }

    @Test("the index's participant table gives naps per day, – without periods")
    func indexNaps() {
        let rows = DayFixtures.rows().map { r -> IndexRow in var r = r; r.participant = Participant(id: "p1"); return r }
        let summary = ParticipantSummary.compute(participant: Participant(id: "p1"), recordings: ["p1.cwa"], nights: 2, scored: [], rhythms: [])
        let entry = ParticipantIndexEntry(summary: summary, href: "participants/p1/index.html",
                                          napsPerDay: ParticipantDays.napsPerDay(ParticipantDays.make(rows)))
        let html = HTMLPages.indexPage(rows, parameters: AnalysisParameters(), participants: [entry])
        #expect(html.contains("<th>Naps per day</th>") && html.contains(#"<td class="num" data-label="Naps per day">0.50</td>"#))
        let none = HTMLPages.indexPage(rows, parameters: AnalysisParameters(),
                                       participants: [ParticipantIndexEntry(summary: summary, href: "participants/p1/index.html")])
        #expect(none.contains(#"<td class="num" data-label="Naps per day">–</td>"#))
    }

    @Test("the overview's axis stays 18:00–14:00 without day sleep and widens to take a day sleep in")
    func overviewSpan() {
        let night = NightsOverview.Row(label: "a", inBed: (36_000, 66_000), sleep: (37_000, 65_000), totalSleepMinutes: 400)
        let plain = NightsOverview(title: "t", rows: [night]).span
        #expect(plain.from == 6 * 3600 && plain.to == 26 * 3600)
        // Asleep 08:30–15:30 (20.5 h to 27.5 h after noon) and a nap at 13:10.
        let day = NightsOverview.Row(label: "b", inBed: (73_000, 99_500), sleep: (73_800, 99_000), totalSleepMinutes: 400,
                                     others: [(kind: .nap, start: 4_200, end: 7_000)])
        let wide = NightsOverview(title: "t", rows: [night, day]).span
        #expect(wide.from == 0 && wide.to == 28 * 3600)
        let row = ReportBuilder.overviewRow(DayFixtures.rows()[0], participantInLabel: false)
        #expect(row.others.map { $0.kind } == [.nap, .secondary])
        #expect(row.others.last.map { $0.end } == 25 * 3600)
        #expect(ChartRenderer().png(NightsOverview(title: "t", rows: [night, day, row])).count > 1000)
    }

    @Test("definitions list every period kind and every minute class code, with the kinds' thresholds")
    func definitions() {
        let html = DefinitionsPage.page()
        for kind in SleepPeriodKind.allCases { #expect(html.contains("<tr><td><code>\(kind.rawValue)</code></td>"), "\(kind)") }
        for c in DayMinuteClass.allCases { #expect(html.contains("<tr><td><code>\(c.code)</code></td>"), "\(c.code)") }
        #expect(html.contains(#"id="periods""#) && html.contains("2 h 0 min") && html.contains("15 min"))
        #expect(html.contains("Carried sleep") && html.contains("not sleep stages"))
    }
}

/// Writes the pages of ``DayFixtures`` (night page and chart, participant page and timeline,
/// index with its overview, definitions) to `$SLEEPSTA_SHOTS`, to be looked at in a browser:
/// run only when that variable names a folder.
@Suite("Every sleep of the day: pages written to look at")
struct DayPagesForScreenshots {
    @Test("write the pages", .enabled(if: ProcessInfo.processInfo.environment["SLEEPSTA_SHOTS"] != nil))
    func write() throws {
        let dir = ProcessInfo.processInfo.environment["SLEEPSTA_SHOTS"]!
        let renderer = ChartRenderer()
        let rows = DayFixtures.rows().map { r -> IndexRow in var r = r; r.participant = Participant(id: "p1"); return r }
        for r in rows {
            let a = r.analysis!
            let chart = NightPageText.chart(a, epochs: nil, timeline: r.timeline, date: r.date, interval: AnalysisParameters().interval)
            _ = try ReportWriter.write(renderer.png(chart), to: "\(dir)/\(r.nightID)/movement.png")
            var input = DayFixtures.nightInput(a)
            input.nightID = r.nightID; input.date = r.date
            _ = try ReportWriter.write(HTMLPages.nightPage(input, chartFile: "movement.png"), to: "\(dir)/\(r.nightID)/index.html")
        }
        let summary = ParticipantSummary.compute(participant: Participant(id: "p1"), recordings: ["p1.cwa"], nights: 2, scored: [], rhythms: [])
        var input = ParticipantReportInput(summary: summary, rule: "each recording file", recordings: [], nights: rows)
        input.days = ParticipantDays.make(rows)
        input.dayChart = "days.png"
        _ = try ReportWriter.write(renderer.png(ParticipantDays.timeline(input.days, title: "Participant p1 · every sleep of the day")),
                                   to: "\(dir)/participants/p1/days.png")
        _ = try ReportWriter.write(HTMLPages.participantPage(input), to: "\(dir)/participants/p1/index.html")
        let overview = ReportBuilder.overviewCharts(rows, participantInLabel: false)
        _ = try ReportBuilder.writeOverview(overview, in: dir, renderer: renderer)
        let entry = ParticipantIndexEntry(summary: summary, href: "participants/p1/index.html", napsPerDay: ParticipantDays.napsPerDay(input.days))
        _ = try ReportWriter.write(HTMLPages.indexPage(rows, parameters: AnalysisParameters(), participants: [entry]), to: "\(dir)/index.html")
        _ = try ReportWriter.write(DefinitionsPage.page(), to: "\(dir)/definitions.html")
    }
}
