import Mustache
import SleepCore

/// What the recording page shows: the recording, its rest-activity rhythm across days, the mean
/// and SD of its night metrics (all, weekday and weekend nights) and its actogram.
public struct RecordingReportInput: Sendable {
    public struct NightLink: Sendable {
        public var href: String
        public var date: String
        public var status: String
        public var inBed: String
        public var tst: String
        public var se: String
        public init(href: String, date: String, status: String, inBed: String, tst: String, se: String) {
            self.href = href; self.date = date; self.status = status; self.inBed = inBed; self.tst = tst; self.se = se
        }
    }
    /// Already made printable by the caller (file names from disk).
    public var path: String
    public var format: String
    public var kind: String
    public var kindReason: String
    public var timeZone: String
    public var facts: [(label: String, value: String)]
    public var warnings: [String]
    public var rhythm: RecordingRhythm?
    public var averages: NightMetricAverages
    public var nights: [NightLink]
    public var actogramFile: String?

    public init(path: String, format: String, kind: String, kindReason: String, timeZone: String,
                facts: [(label: String, value: String)], warnings: [String], rhythm: RecordingRhythm?,
                averages: NightMetricAverages, nights: [NightLink], actogramFile: String?) {
        self.path = path; self.format = format; self.kind = kind; self.kindReason = kindReason; self.timeZone = timeZone
        self.facts = facts; self.warnings = warnings; self.rhythm = rhythm; self.averages = averages; self.nights = nights
        self.actogramFile = actogramFile
    }
}

extension HTMLPages {
    static let recordingLibrary: PageLibrary = PageLibrary { lib in
        lib.register(try MustacheTemplate(string: Templates.layoutHead), named: "head")
        lib.register(try MustacheTemplate(string: RecordingTemplates.recording), named: "recording")
    }

    /// The recording page (`recordings/<stem>/index.html`).
    public static func recordingPage(_ r: RecordingReportInput) -> String {
        var rhythmRows: [[String: String]] = []
        var rhythmNote = ""
        if let h = r.rhythm {
            if h.status == .computed, let m = h.metrics {
                rhythmRows = [
                    ["label": "Interdaily stability (IS)", "value": NumberText.fixed(m.interdailyStability, 4), "def": "0–1: how alike the days' hourly activity profiles are (Witting et al. 1990; pyActigraphy 1.2.2)"],
                    ["label": "Intradaily variability (IV)", "value": NumberText.fixed(m.intradailyVariability, 4), "def": "≈0–2: how fragmented the rhythm is hour to hour"],
                    ["label": "Relative amplitude (RA)", "value": NumberText.fixed(m.relativeAmplitude, 4), "def": "(M10 − L5) / (M10 + L5)"],
                    ["label": "L5", "value": NumberText.fixed(m.l5, 4) + (RecordingRhythm.clockText(m.l5StartSecondsSinceMidnight).map { " from \($0)" } ?? ""), "def": "mean activity of the least active 5 h of the average day, and its onset (local clock)"],
                    ["label": "M10", "value": NumberText.fixed(m.m10, 4) + (RecordingRhythm.clockText(m.m10StartSecondsSinceMidnight).map { " from \($0)" } ?? ""), "def": "mean activity of the most active 10 h of the average day, and its onset"],
                    ["label": "Sleep regularity index (SRI)", "value": NumberText.fixed(h.sleepRegularityIndex, 2), "def": "−100–100: probability of the same sleep/wake state 24 h apart, rescaled (Phillips et al. 2017; pyActigraphy's form)"],
                ]
            }
            rhythmNote = h.status == .computed ? "Activity: \(h.source); \(NumberText.fixed(h.days, 1)) days." : (h.statusReason ?? h.status.rawValue)
        } else {
            rhythmNote = r.kind == RecordingKind.phoneInBed.rawValue
                ? "Not computed: a phone on the mattress records the nights only, and the rhythm needs the days too."
                : "Not computed for this recording."
        }
        let averageRows: [[String: String]] = Dictionary(grouping: r.averages.rows, by: \.metric).sorted { a, b in
            let order = NightMetricAverages.metrics.map(\.name)
            return (order.firstIndex(of: a.key) ?? 0) < (order.firstIndex(of: b.key) ?? 0)
        }.map { _, rows in
            func cell(_ s: NightMetricAverages.Scope) -> String {
                guard let row = rows.first(where: { $0.scope == s }), let mean = row.mean else { return "–" }
                return NumberText.fixed(mean, 1) + (row.sd.map { " ± " + NumberText.fixed($0, 1) } ?? "") + " (n=\(row.n))"
            }
            let first = rows[0]
            return ["label": first.label + (first.unit.isEmpty ? "" : " (\(first.unit))"), "all": cell(.all), "weekday": cell(.weekday), "weekend": cell(.weekend)]
        }
        let context: [String: Any] = [
            "title": "Recording \(r.path)",
            "path": r.path, "format": r.format, "kind": r.kind, "kindReason": r.kindReason, "timeZone": r.timeZone,
            "facts": r.facts.map { ["label": $0.label, "value": $0.value] },
            "warnings": r.warnings, "hasWarnings": !r.warnings.isEmpty,
            "rhythm": rhythmRows, "hasRhythm": !rhythmRows.isEmpty, "rhythmNote": rhythmNote,
            "averages": averageRows, "nightCount": String(r.nights.count), "nightCountText": Plural.count(r.nights.count, "night"),
            "nights": r.nights.map { ["href": $0.href, "date": $0.date, "status": $0.status, "inBed": $0.inBed, "tst": $0.tst, "se": $0.se] },
            "actogram": r.actogramFile ?? "", "hasActogram": r.actogramFile != nil,
        ]
        return recordingLibrary.render(context, withTemplate: "recording") ?? ""
    }
}

enum RecordingTemplates {
    static let recording = """
    {{> head}}
    <body>
    <p><a href="../../index.html">← all nights</a></p>
    <h1>Recording <code>{{path}}</code></h1>
    <p class="sub">{{format}} · {{kind}} · time zone {{timeZone}}</p>
    <p class="method"><b>Why this method</b>: {{kindReason}}.</p>
    {{#hasWarnings}}<div class="note"><b>Warnings</b><ul>{{#warnings}}<li>{{.}}</li>{{/warnings}}</ul></div>{{/hasWarnings}}
    <h2>Actogram</h2>
    {{#hasActogram}}<p><span class="chartbox"><img class="chart" src="{{actogram}}" alt="Double-plotted actogram of {{path}}: one row per day, 48 hours per row"></span></p>{{/hasActogram}}
    {{^hasActogram}}<p class="def">No activity series to draw.</p>{{/hasActogram}}
    <h2>Rest-activity rhythm across days</h2>
    <p class="def">{{rhythmNote}}</p>
    {{#hasRhythm}}<div style="overflow-x:auto"><table>
    <tr><th>Metric</th><th>Value</th><th>Definition</th></tr>
    {{#rhythm}}<tr><td>{{label}}</td><td class="num">{{value}}</td><td class="def">{{def}}</td></tr>
    {{/rhythm}}</table></div>{{/hasRhythm}}
    <h2>Night metrics across {{nightCountText}}</h2>
    <p class="def">Mean ± SD (n nights) of the scored nights: all (GGIR's _AD), weekday (_WD) and weekend nights (_WE; a weekend night starts on a Friday or Saturday evening).</p>
    <div style="overflow-x:auto"><table>
    <tr><th>Metric</th><th>All nights</th><th>Weekday nights</th><th>Weekend nights</th></tr>
    {{#averages}}<tr><td>{{label}}</td><td class="num">{{all}}</td><td class="num">{{weekday}}</td><td class="num">{{weekend}}</td></tr>
    {{/averages}}</table></div>
    <h2>Nights</h2>
    <div style="overflow-x:auto"><table>
    <tr><th>Night</th><th>In bed</th><th>TST</th><th>SE %</th><th>Status</th></tr>
    {{#nights}}<tr><td><a href="{{href}}">{{date}}</a></td><td>{{inBed}}</td><td class="num">{{tst}}</td><td class="num">{{se}}</td><td>{{status}}</td></tr>
    {{/nights}}</table></div>
    <h2>Recording</h2>
    <table>{{#facts}}<tr><td>{{label}}</td><td>{{value}}</td></tr>
    {{/facts}}</table>
    </body>
    </html>

    """
}
