/// Built-in Mustache templates (kept in code so the binary is self-contained).
enum Templates {
    static let layoutHead = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{{title}}</title>
    <style>
    body { font-family: -apple-system, "DejaVu Sans", "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1240px; color: #222; padding: 0 1rem; }
    h1 { font-size: 1.5rem; margin-bottom: .2rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
    .sub { color: #666; margin-top: 0; }
    table { border-collapse: collapse; font-size: .9rem; }
    th, td { text-align: left; padding: .25rem .7rem; border-bottom: 1px solid #eee; vertical-align: top; }
    th { background: #f6f6f6; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
    .def { color: #777; font-size: .85rem; }
    .note { background: #fff6e0; border-left: 4px solid #e69f00; padding: .5rem 1rem; }
    img.chart { max-width: 100%; height: auto; border: 1px solid #eee; }
    details summary { cursor: pointer; color: #0072b2; }
    footer { margin-top: 3rem; color: #888; font-size: .85rem; }
    table.stats td.num, td.date { white-space: nowrap; } table.stats td, table.stats th { padding: .25rem .45rem; }
    .multiples { display: flex; flex-wrap: wrap; gap: .6rem; } .multiples figure { margin: 0; width: 300px; }
    .multiples img { width: 100%; height: auto; border: 1px solid #eee; } .multiples figcaption { font-size: .8rem; color: #555; }
    /* Narrow screens (phones, 400 px): a wide table scrolls sideways inside the page instead of being cut off. */
    table { display: block; max-width: 100%; overflow-x: auto; -webkit-overflow-scrolling: touch; }
    code { overflow-wrap: break-word; }
    /* break-word, not anywhere: a long path still wraps, but a cell's minimum width stays its longest
       word, so a narrow table scrolls instead of splitting "Value" or a file name letter by letter. */
    @media (max-width: 640px) { body { margin: 1rem auto; padding: 0 .5rem; } th, td { padding: .2rem .4rem; overflow-wrap: break-word; } h1 { font-size: 1.25rem; } }
    /* Charts keep their size on narrow screens and scroll inside their own box. */
    .chartbox { display: block; max-width: 100%; overflow-x: auto; }
    @media (max-width: 640px) { .chartbox img.chart { max-width: none; width: 900px; } }
    /* Tables of many columns (the index's) stack on narrow screens: one block per row, each value labelled. */
    @media (max-width: 640px) {
      table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; width: auto; }
      table.stack tr:first-child { display: none; }
      table.stack tr { border-bottom: 1px solid #ddd; padding: .3rem 0; }
      table.stack td { border: none; padding: .05rem .3rem; text-align: left; }
      table.stack td::before { content: attr(data-label) ": "; font-weight: 600; color: #555; }
      table.stack td:empty { display: none; }
    }
    </style>
    </head>
    """

    /// A chart wider than the screen (phones) opens on the night's sleep, not on its left edge
    /// (noon): each `.chartbox` with `data-focus` (a share of the chart's width) scrolls to it.
    static let chartFocusScript = """
    <script>
    document.querySelectorAll(".chartbox[data-focus]").forEach(function (box) {
      var centre = box.scrollWidth * parseFloat(box.dataset.focus);
      if (box.scrollWidth > box.clientWidth) { box.scrollLeft = Math.max(0, centre - box.clientWidth / 2); }
    });
    </script>
    """

    static let night = """
    {{> head}}
    <body>
    <p class="nav"><a href="../index.html">← all nights</a>{{#previous}} · <a href="../{{id}}/index.html" rel="prev">← previous night ({{date}})</a>{{/previous}}{{#next}} · <a href="../{{id}}/index.html" rel="next">next night ({{date}}) →</a>{{/next}} · <a href="../definitions.html">definitions</a></p>
    <h1>Night of {{date}}</h1>
    <p class="sub">{{nightID}} · recording <code>{{recording}}</code> ({{format}}) · time zone {{timeZone}}</p>
    <p class="method"><b>Method</b>: {{method}}.{{#hasKindReason}} <b>Why this method</b>: {{kindReason}}.{{/hasKindReason}}</p>
    {{#recordingPage}}<p><a href="{{.}}">The recording: rhythm across days, actogram, all its nights</a></p>{{/recordingPage}}
    {{^scored}}<p class="note">{{statusNote}}{{#hasStatusReason}} Reason: {{statusReason}}.{{/hasStatusReason}}</p>{{/scored}}
    {{#scoredNote}}<p class="note">{{statusReason}}.</p>{{/scoredNote}}
    {{#hasNonWearNote}}<p class="note caution">{{nonWearNote}}</p>{{/hasNonWearNote}}
    {{#coarseSource}}<p class="note">The source holds totals per {{sourceResolution}} only; intervals shorter than that are spread evenly, not measured.</p>{{/coarseSource}}
    <span class="chartbox"{{#chartFocus}} data-focus="{{.}}"{{/chartFocus}}><img class="chart" src="{{chart}}" alt="{{chartAlt}}"></span>
    {{#scored}}
    <h2>Night metrics (per {{scoredPer}})</h2>
    <table class="stack">
    <tr><th>Metric</th>{{#ggirNames}}<th>GGIR part 4</th>{{/ggirNames}}<th>Value</th><th>Definition</th></tr>
    {{#metrics}}<tr><td data-label="Metric">{{label}}</td>{{#ggirNames}}<td data-label="GGIR part 4">{{#ggir}}<code>{{ggir}}</code>{{/ggir}}</td>{{/ggirNames}}<td class="num" data-label="Value">{{value}}</td><td class="def" data-label="Definition">{{def}}</td></tr>
    {{/metrics}}
    </table>
    {{/scored}}
    {{#hasDayPeriods}}
    <h2>Sleep periods of the day ({{periodCount}})</h2>
    <p class="def">Every sleep of this noon-to-noon day, the main one first: marked on the chart above by kind. Times are local; SPT, TST, WASO, awakenings and efficiency as for the night (<a href="../definitions.html#periods">definitions</a>).</p>
    <table class="stack">
    <tr><th>Kind</th><th>In bed</th><th>Onset</th><th>Wake</th><th>SPT</th><th>TST</th><th>WASO</th><th>Awakenings</th><th>Efficiency</th><th>Source</th></tr>
    {{#dayPeriods}}<tr class="period-{{kind}}"><td data-label="Kind">{{kind}}</td><td data-label="In bed">{{inBed}}</td><td data-label="Onset">{{onset}}</td><td data-label="Wake">{{wake}}</td><td class="num" data-label="SPT">{{spt}}</td><td class="num" data-label="TST">{{tst}}</td><td class="num" data-label="WASO">{{waso}}</td><td class="num" data-label="Awakenings">{{awakenings}}</td><td class="num" data-label="Efficiency">{{se}}</td><td data-label="Source">{{source}}</td></tr>
    {{/dayPeriods}}
    </table>
    {{#periodEvidence}}<p class="evidence">{{.}}</p>{{/periodEvidence}}
    {{/hasDayPeriods}}
    {{#hasActiware}}
    <h2>{{actiwareTitle}}</h2>
    <p>{{actiwareNote}}</p>
    <table>
    <tr><th>Quantity</th><th>sleepsta</th><th>{{actiwareSource}}</th><th>Difference</th></tr>
    {{#actiwareRows}}<tr><td>{{label}}</td><td class="num">{{ours}}</td><td class="num">{{theirs}}</td><td class="num">{{diff}}</td></tr>
    {{/actiwareRows}}
    </table>
    {{/hasActiware}}
    {{#hasSurvey}}
    <h2>Survey answers</h2>
    <table>
    <tr><th>When</th><th>Question</th><th>Answer</th></tr>
    {{#preBed}}<tr><td>before bed</td><td>{{q}}</td><td>{{a}}</td></tr>
    {{/preBed}}{{#postBed}}<tr><td>after waking</td><td>{{q}}</td><td>{{a}}</td></tr>
    {{/postBed}}
    </table>
    {{/hasSurvey}}
    <h2>Data and quality</h2>
    <table>
    {{#nightFacts}}<tr><td>{{label}}</td><td>{{value}}</td></tr>
    {{/nightFacts}}{{#facts}}<tr><td>{{label}}</td><td>{{value}}</td></tr>
    {{/facts}}
    </table>
    {{#hasWarnings}}<ul>{{#warnings}}<li>{{.}}</li>{{/warnings}}</ul>{{/hasWarnings}}
    <h2>Parameters</h2>
    <table>
    {{#parameters}}<tr><td>{{label}}</td><td>{{value}}</td></tr>
    {{/parameters}}
    </table>
    <h2>Intervals</h2>
    <details><summary>Movement, state and phase per {{interval}} interval</summary>
    <table>
    <tr><th>Start (local)</th><th>UTC offset</th><th>{{movementUnit}}</th><th>{{perMinuteUnit}}</th><th>Coverage (s)</th><th>State</th><th>Phase</th></tr>
    {{#intervals}}<tr><td>{{start}}</td><td>{{offset}}</td><td class="num">{{sum}}</td><td class="num">{{perMinute}}</td><td class="num">{{coverage}}</td><td>{{state}}</td><td>{{phase}}</td></tr>
    {{/intervals}}
    </table>
    </details>
    <footer>sleepsta · <a href="../definitions.html">definitions</a> (also in sleepsta’s docs/methods.md)</footer>
    {{> chartFocusScript}}
    </body>
    </html>

    """

    static let index = """
    {{> head}}
    <body>
    <h1>sleepsta — {{count}}</h1>
    <p class="sub">{{span}} · {{interval}} intervals{{#hasApart}} · <a href="#apart">{{apartCount}} more with too little data</a>{{/hasApart}}</p>
    {{#hasLinks}}<ul class="links">{{#links}}<li><a href="{{href}}">{{label}}</a></li>{{/links}}</ul>{{/hasLinks}}
    {{#hasRecordingLinks}}<details><summary>Recording pages ({{recordingCount}}): rhythm across days, actogram, all nights</summary><ul>{{#recordingLinks}}<li><a href="{{href}}">{{label}}</a></li>{{/recordingLinks}}</ul></details>{{/hasRecordingLinks}}
    <p><a href="definitions.html">Definitions of every metric and column</a></p>
    {{#hasOverview}}<p><span class="chartbox"><img class="chart" src="{{firstOverview}}" alt="Time in bed and sleep period of each night, one row per night, by participant"></span></p>
    {{#hasMoreOverview}}<details><summary>The other nights ({{moreOverviewCount}})</summary>{{#moreOverview}}<p><span class="chartbox"><img class="chart" loading="lazy" src="{{file}}" alt="Time in bed and sleep period of each night, one row per night, by participant"></span></p>{{/moreOverview}}</details>{{/hasMoreOverview}}{{/hasOverview}}
    {{#hasFailures}}<h2>Files that failed ({{failureCount}})</h2>
    <p class="note">These files were not stored; fix or remove them and run again.</p>
    <table>
    <tr><th>File</th><th>Error</th></tr>
    {{#failures}}<tr><td><code>{{path}}</code></td><td>{{error}}</td></tr>
    {{/failures}}
    </table>
    {{/hasFailures}}
    {{^hasNights}}<p>No nights are stored yet.</p>{{/hasNights}}
    {{#hasParticipants}}<h2>Participants ({{participantCount}})</h2>
    <p class="def">One row per participant ({{participantRule}}): nights scored of those with enough data for an analysis, mean ± SD over the scored nights, naps per day (the mean nap count per day whose night is scored; – where the analyses hold no periods), and the rest-activity rhythm of their recordings. Onset and wake are local clock times.</p>
    <table class="stack">
    <tr><th>Participant</th><th>Nights</th><th>TST</th><th>Onset</th><th>Wake</th><th>SE %</th><th>WASO</th><th>TST weekday / weekend</th><th>Naps per day</th><th>SRI</th><th>IS / IV</th></tr>
    {{#participants}}<tr><td data-label="Participant"><a href="{{href}}">{{id}}</a>{{#hasGroup}}<br><span class="def">{{group}}</span>{{/hasGroup}}</td><td class="num" data-label="Nights">{{scored}} of {{nights}}</td><td class="num" data-label="TST">{{tst}}</td><td class="num" data-label="Onset">{{onset}}</td><td class="num" data-label="Wake">{{wake}}</td><td class="num" data-label="SE %">{{se}}</td><td class="num" data-label="WASO">{{waso}}</td><td class="num" data-label="TST weekday / weekend">{{tstWeek}}</td><td class="num" data-label="Naps per day">{{naps}}</td><td class="num" data-label="SRI">{{sri}}</td><td class="num" data-label="IS / IV">{{isiv}}</td></tr>
    {{/participants}}
    </table>{{/hasParticipants}}
    {{> study}}
    {{#hasNights}}<h2>Nights by participant</h2>
    {{#groups}}<h3 id="{{anchor}}"><a href="{{href}}">{{id}}</a> <span class="def">{{count}}</span></h3>
    <table class="stack">
    <tr><th>Night</th><th>Recording</th><th>In bed</th><th>TIB</th><th>TST</th><th>SE %</th><th>SOL</th><th>WASO</th><th>Awakenings</th><th>Status</th></tr>
    {{#nights}}<tr><td data-label="Night"><a href="{{id}}/index.html">{{date}}</a><br><span class="def">{{id}}</span></td><td data-label="Recording"><code>{{recording}}</code></td><td data-label="In bed">{{inBed}}</td><td class="num" data-label="TIB">{{tib}}</td><td class="num" data-label="TST">{{tst}}</td><td class="num" data-label="SE %">{{se}}</td><td class="num" data-label="SOL">{{sol}}</td><td class="num" data-label="WASO">{{waso}}</td><td class="num" data-label="Awakenings">{{awakenings}}</td><td data-label="Status">{{status}}</td></tr>
    {{/nights}}
    </table>
    {{/groups}}{{/hasNights}}
    {{#hasApart}}<h2 id="apart">Nights with too little data ({{apartCount}})</h2>
    <p class="def">Stored and shown, but not scored: too few hours of data (or not worn) for a night's analysis, or a fragment of a day at the start or end of a recording. They are left out of the tables above.</p>
    <table class="stack">
    <tr><th>Night</th><th>Participant</th><th>Recording</th><th>Reason</th></tr>
    {{#apart}}<tr><td class="date" data-label="Night"><a href="{{id}}/index.html">{{date}}</a></td><td data-label="Participant">{{participant}}</td><td data-label="Recording"><code>{{recording}}</code></td><td data-label="Reason">{{reason}}</td></tr>
    {{/apart}}
    </table>{{/hasApart}}
    <footer>Parameters: {{#keys}}{{#kind}}{{kind}}: {{/kind}}<code>{{key}}</code>{{^last}} · {{/last}}{{/keys}} · data span {{span}} · <a href="definitions.html">definitions</a></footer>
    </body>
    </html>

    """
}
