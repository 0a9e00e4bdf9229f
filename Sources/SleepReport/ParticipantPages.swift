import Mustache
import SleepCore

/// What a participant page shows: the participant's summary (``ParticipantSummary``), their
/// recordings and their nights, each linked.
public struct ParticipantReportInput: Sendable {
    public struct Link: Sendable {
        public var href: String
        public var label: String
        public init(href: String, label: String) { self.href = href; self.label = label }
    }
    public var summary: ParticipantSummary
    /// How participants were defined (`each recording file` …).
    public var rule: String
    /// Already made printable by the caller.
    public var recordings: [Link]
    public var nights: [IndexRow]
    /// The overview charts of the participant's nights, in the page's folder.
    public var overviewCharts: [String]
    /// The participant's days with minute classes (``ParticipantDays/make(_:)``); empty where no
    /// analysis has them, and the page then shows no section of days.
    public var days: [ParticipantDay] = []
    /// The day timeline's PNG (``DayTimeline``), in the page's folder.
    public var dayChart: String? = nil
    public init(summary: ParticipantSummary, rule: String, recordings: [Link], nights: [IndexRow], overviewCharts: [String] = []) {
        self.summary = summary; self.rule = rule; self.recordings = recordings; self.nights = nights; self.overviewCharts = overviewCharts
    }
}

extension HTMLPages {
    /// The participant page (`participants/<id>/index.html`): links go two folders up.
    public static func participantPage(_ p: ParticipantReportInput) -> String {
        let s = p.summary
        let rows: [[String: String]] = s.statistics.map { st in
            let isClock = st.name.hasSuffix("_hours")
            func text(_ v: Double?) -> String {
                if isClock { return ParticipantSummary.clockText(v) }
                switch st.unit {
                case "min": return NumberText.minutes(v)
                case "%": return NumberText.fixed(v, 1) + (v == nil ? "" : " %")
                default: return NumberText.fixed(v, 1)
                }
            }
            let sd: String = st.sd.map { isClock ? NumberText.minutes($0 * 60) : (st.unit == "min" ? NumberText.minutes($0) : NumberText.fixed($0, 1)) } ?? "–"
            return ["label": st.label, "name": st.name, "mean": text(st.mean), "sd": sd, "weekday": text(st.weekday),
                    "weekend": text(st.weekend), "n": String(st.n)]
        }
        let nights: [[String: String]] = p.nights.map { r in
            let m = r.analysis?.metrics
            return ["href": "../../\(r.nightID)/index.html", "date": r.date.description, "recording": r.recordingPath,
                    "status": r.analysis?.status.rawValue ?? "not analysed",
                    "inBed": m.map { "\(NumberText.clock($0.inBedStartUTC, r.timeline))–\(NumberText.clock($0.inBedEndUTC, r.timeline))" } ?? "–",
                    "tst": NumberText.minutes(m?.totalSleepTimeMinutes), "se": m.map { NumberText.fixed($0.sleepEfficiencyPercent, 1) } ?? "–"]
        }
        var context: [String: Any] = [
            "title": "Participant \(s.participant.id)", "id": s.participant.id, "group": s.participant.group,
            "hasGroup": !s.participant.group.isEmpty, "rule": p.rule,
            "nights": Plural.count(s.nights - s.nightsInsufficient, "night"), "scored": String(s.nightsScored),
            "insufficient": s.nightsInsufficient > 0 ? " (and \(s.nightsInsufficient) with too little data)" : "",
            "statistics": rows, "nightRows": nights, "overviewCharts": p.overviewCharts.map { ["file": $0] },
            "recordings": p.recordings.map { ["href": $0.href, "label": $0.label] },
            "is": NumberText.fixed(s.interdailyStability, 3), "iv": NumberText.fixed(s.intradailyVariability, 3),
            "sri": NumberText.fixed(s.sleepRegularityIndex, 1),
        ]
        context.merge(participantDaysContext(p)) { first, _ in first }
        return library.render(context, withTemplate: "participant") ?? ""
    }

    /// The participant page's days: the timeline, the mean naps and nap minutes per included
    /// day, and a row per day with its periods; nothing where no day has minute classes.
    static func participantDaysContext(_ p: ParticipantReportInput) -> [String: Any] {
        let days = p.days
        let rows: [[String: String]] = days.map { d in
            let a = d.account
            let periods = a.periods.map { "\($0.kind.rawValue) \(NumberText.clock($0.sleepOnsetUTC, d.timeline))–\(NumberText.clock($0.wakeTimeUTC, d.timeline))" }
            return ["href": "../../\(d.nightID)/index.html", "date": d.date.description,
                    "periods": periods.isEmpty ? "–" : periods.joined(separator: "; "),
                    "naps": String(a.napCount), "napMinutes": NumberText.minutes(Double(a.minutes.minutes(.nap))),
                    "notWorn": NumberText.minutes(Double(a.notWornMinutes)), "valid": NumberText.minutes(Double(a.validWearMinutes)),
                    "included": a.included ? "yes" : "no (\(a.excludedReason ?? "–"))"]
        }
        let included = days.filter(\.account.included).count
        return [
            "hasDays": !days.isEmpty, "dayRows": rows, "dayChart": p.dayChart.map { [$0] } ?? [],
            "napsPerDay": NumberText.fixed(ParticipantDays.napsPerDay(days), 2),
            "napMinutesPerDay": NumberText.minutes(ParticipantDays.napMinutesPerDay(days)),
            "includedDays": Plural.count(included, "included day"),
        ]
    }
}

enum ParticipantTemplates {
    static let participant = """
    {{> head}}
    <body>
    <!-- \(ReportBuilder.participantPageMarker) -->
    <p class="nav"><a href="../../index.html">← all participants and nights</a> · <a href="../../definitions.html">definitions</a></p>
    <h1>Participant {{id}}</h1>
    <p class="sub">{{#hasGroup}}group {{group}} · {{/hasGroup}}{{scored}} of {{nights}} scored{{insufficient}} · participants: {{rule}}</p>
    <h2>Night metrics</h2>
    <p class="def">Over the scored nights: mean, SD, and the means of weekday and weekend nights (a weekend night starts on a Friday or Saturday evening), as GGIR's person summary (_mn, _sd, _wd, _we in <code>export --what participants</code>). Onset and wake are local clock times; their SD is in minutes.</p>
    <table class="stack">
    <tr><th>Metric</th><th>Mean</th><th>SD</th><th>Weekday</th><th>Weekend</th><th>Nights</th></tr>
    {{#statistics}}<tr><td data-label="Metric">{{label}}</td><td class="num" data-label="Mean">{{mean}}</td><td class="num" data-label="SD">{{sd}}</td><td class="num" data-label="Weekday">{{weekday}}</td><td class="num" data-label="Weekend">{{weekend}}</td><td class="num" data-label="Nights">{{n}}</td></tr>
    {{/statistics}}
    </table>
    <h2>Rest-activity rhythm</h2>
    <p>Interdaily stability {{is}} · intradaily variability {{iv}} · sleep regularity index {{sri}} <span class="def">(means over the recordings of at least 3 days; per recording on its page)</span></p>
    {{#hasDays}}
    <h2>Every sleep of the day</h2>
    <p>Naps per day: <b class="naps-per-day">{{napsPerDay}}</b> · nap minutes per day: <b>{{napMinutesPerDay}}</b> <span class="def">(means over {{includedDays}}: days whose night is scored)</span></p>
    {{#dayChart}}<p><span class="chartbox" data-focus="0.5"><img class="chart" src="{{.}}" alt="Each day from noon to noon, every minute coloured by its class: sleep by kind (main, secondary, nap), awake, not worn, no data"></span></p>{{/dayChart}}
    <table class="stack">
    <tr><th>Day</th><th>Sleep periods (onset–wake)</th><th>Naps</th><th>Nap minutes</th><th>Not worn</th><th>Worn, with data</th><th>Included</th></tr>
    {{#dayRows}}<tr><td data-label="Day"><a href="{{href}}">{{date}}</a></td><td data-label="Sleep periods">{{periods}}</td><td class="num" data-label="Naps">{{naps}}</td><td class="num" data-label="Nap minutes">{{napMinutes}}</td><td class="num" data-label="Not worn">{{notWorn}}</td><td class="num" data-label="Worn, with data">{{valid}}</td><td data-label="Included">{{included}}</td></tr>
    {{/dayRows}}
    </table>
    <p class="def">Kinds and minute classes: <a href="../../definitions.html#periods">definitions</a>.</p>
    {{/hasDays}}
    <h2>Recordings</h2>
    <ul>{{#recordings}}<li><a href="{{href}}"><code>{{label}}</code></a></li>{{/recordings}}</ul>
    <h2>Nights</h2>
    {{#overviewCharts}}<p><span class="chartbox"><img class="chart" src="{{file}}" alt="Time in bed and sleep period of each night, one row per night"></span></p>{{/overviewCharts}}
    <table class="stack">
    <tr><th>Night</th><th>Recording</th><th>In bed</th><th>TST</th><th>SE %</th><th>Status</th></tr>
    {{#nightRows}}<tr><td data-label="Night"><a href="{{href}}">{{date}}</a></td><td data-label="Recording"><code>{{recording}}</code></td><td data-label="In bed">{{inBed}}</td><td class="num" data-label="TST">{{tst}}</td><td class="num" data-label="SE %">{{se}}</td><td data-label="Status">{{status}}</td></tr>
    {{/nightRows}}
    </table>
    {{> chartFocusScript}}
    </body>
    </html>

    """
}
