/// The Mustache template of the comparison page (`Reports/compare-<lengths>/index.html`); the
/// page head is the shared ``Templates/layoutHead``.
enum ComparisonTemplates {
    static let page = """
    {{> head}}
    <body>
    <p><a href="../index.html">← all nights</a></p>
    <h1>Interval lengths compared: {{lengthsLabel}}</h1>
    <p class="sub">{{nightCount}} nights ({{span}}) · reference {{reference}} · differences are longer − shorter</p>
    <p>Every length is derived from the database (no raw file is read again) and analysed with the same parameters: phone nights from the per-second base series, wearable nights from their stored 5-s epochs, epoch files from the file's own epochs.
    {{#methods}}<p class="method"><b>{{kind}}</b> ({{nightsText}}): {{note}} Parameters <code>{{key}}</code>.</p>{{/methods}}
    Definitions: below, the <a href="../definitions.html">night metrics' definitions</a> and sleepsta’s docs/comparing-intervals.md. Data for other tools: <a href="statistics.csv">statistics.csv</a>, <a href="night-differences.csv">night-differences.csv</a>, <a href="night-agreement.csv">night-agreement.csv</a>.</p>
    {{#hasIncomplete}}<p class="note">Left out where not scored: {{#incomplete}}{{night}} ({{statuses}}); {{/incomplete}}</p>{{/hasIncomplete}}
    {{#pairs}}
    <h2>{{test}} vs {{reference}}: night metrics across {{nightsText}} scored per interval</h2>
    {{#hasUnpooled}}<p class="note method-pooling">Wrist and epoch methods do not depend on the interval length: their sleep/wake and night metrics are scored per epoch, so their differences are zero by design. Their {{unpooledText}} ({{unpooledKinds}}) are listed per method below and per night, but not pooled into these interval statistics (n, bias, limits of agreement, ICC).</p>{{/hasUnpooled}}
    {{#fewNights}}<p class="note caution">Only {{nightsText}}: with fewer than {{minimumNights}}, the 95 % limits of agreement and the ICC are too uncertain to mean much (their confidence intervals span most of the range); read them as a description of these nights, not as an estimate.</p>{{/fewNights}}
    <table class="stats stack">
    <tr><th>Metric</th><th>Unit</th><th>n</th><th>Mean {{reference}}</th><th>Mean {{test}}</th><th>Bias (mean diff.)</th><th>95 % CI of bias</th><th>SD of diff.</th><th>95 % limits of agreement</th><th>Mean |diff.|</th><th>ICC (2,1)</th><th>Plot</th></tr>
    {{#metrics}}<tr><td data-label="Metric">{{name}}</td><td data-label="Unit">{{unit}}</td><td class="num" data-label="n">{{n}}</td><td class="num" data-label="Mean {{reference}}">{{refMean}}</td><td class="num" data-label="Mean {{test}}">{{testMean}}</td><td class="num" data-label="Bias">{{bias}}</td><td class="num" data-label="95 % CI of bias">{{biasCI}}</td><td class="num" data-label="SD of diff.">{{sd}}</td><td class="num" data-label="95 % limits of agreement">{{loa}}</td><td class="num" data-label="Mean |diff.|">{{mad}}</td><td class="num" data-label="ICC (2,1)">{{icc}}</td><td data-label="Plot"><a href="{{chart}}">plot</a></td></tr>
    {{/metrics}}
    </table>
    {{#perMethod}}
    <h3>Per method: {{test}} − {{reference}}</h3>
    <table class="stats stack permethod">
    <tr><th>Method</th><th>Depends on the interval</th><th>Metric</th><th>n</th><th>Bias (mean diff.)</th><th>SD of diff.</th><th>95 % limits of agreement</th><th>ICC (2,1)</th></tr>
    {{#methodRows}}<tr><td data-label="Method">{{method}}</td><td data-label="Depends on the interval">{{depends}}</td><td data-label="Metric">{{name}}</td><td class="num" data-label="n">{{n}}</td><td class="num" data-label="Bias">{{bias}}</td><td class="num" data-label="SD of diff.">{{sd}}</td><td class="num" data-label="95 % limits of agreement">{{loa}}</td><td class="num" data-label="ICC (2,1)">{{icc}}</td></tr>
    {{/methodRows}}
    </table>
    {{/perMethod}}
    <h3>Bland–Altman plots: {{test}} − {{reference}}</h3>
    <div class="multiples">{{#metrics}}<figure><a href="{{chart}}"><img src="{{chart}}" alt="Bland–Altman plot, {{label}}"></a><figcaption>{{label}}</figcaption></figure>{{/metrics}}</div>
    <h3>Epoch-level agreement on a common {{cell}} grid (all nights pooled)</h3>
    <table>
    <tr><th>Labels</th><th>Cells</th><th>Accuracy</th><th>Cohen's κ</th></tr>
    <tr><td>sleep/wake (the labels the metrics use: intervals for phones, scored epochs otherwise)</td><td class="num">{{swCells}}</td><td class="num">{{swAccuracy}}</td><td class="num">{{swKappa}}</td></tr>
    <tr><td>phases (wake, light, deep)</td><td class="num">{{phaseCells}}</td><td class="num">{{phaseAccuracy}}</td><td class="num">{{phaseKappa}}</td></tr>
    </table>
    <p class="def">Cells: rows {{reference}}, columns {{test}}.</p>
    <table>
    <tr><th>{{reference}} \\ {{test}}</th>{{#phaseHeader}}<th>{{.}}</th>{{/phaseHeader}}</tr>
    {{#phaseMatrix}}<tr><th>{{label}}</th>{{#cells}}<td class="num">{{.}}</td>{{/cells}}</tr>
    {{/phaseMatrix}}
    </table>
    <h3>Awakenings found by either length: {{reference}} and {{test}}</h3>
    <p>{{eitherText}} found by either length. Hidden by {{test}}: {{hidden}} of {{referenceAwakeningsText}} seen at {{reference}} ({{hiddenPercent}}) are scored as sleep throughout at {{test}}; together {{hiddenMinutes}} of wake. Found only by {{test}}: {{appearedText}} during which {{reference}} scores sleep throughout; together {{appearedMinutes}} of wake.</p>
    <table class="stack">
    <tr><th>Night</th><th>Awakenings {{reference}}</th><th>Awakenings {{test}}</th><th>Either length</th><th>Hidden by {{test}}</th><th>Only at {{test}}</th><th>Sleep/wake accuracy</th><th>κ</th><th>Phase accuracy</th><th>κ</th></tr>
    {{#perNight}}<tr><td data-label="Night"><a href="#{{id}}">{{id}}</a></td><td class="num" data-label="Awakenings {{reference}}">{{refAwakenings}}</td><td class="num" data-label="Awakenings {{test}}">{{testAwakenings}}</td><td class="num" data-label="Either length">{{either}}</td><td class="num" data-label="Hidden by {{test}}">{{hidden}}</td><td class="num" data-label="Only at {{test}}">{{appeared}}</td><td class="num" data-label="Sleep/wake accuracy">{{swAccuracy}}</td><td class="num" data-label="Sleep/wake κ">{{swKappa}}</td><td class="num" data-label="Phase accuracy">{{phaseAccuracy}}</td><td class="num" data-label="Phase κ">{{phaseKappa}}</td></tr>
    {{/perNight}}
    </table>
    {{/pairs}}
    <h2>Nights</h2>
    {{#nights}}
    <h3 id="{{id}}">Night of {{date}} <span class="def">{{id}} · <code>{{recording}}</code></span></h3>
    <span class="chartbox"><img class="chart" src="{{chart}}" alt="Mean acceleration (mg) at {{lengthsLabel}} intervals over the night, on the same time axis"></span>
    <table>
    <tr><th>Metric</th>{{#lengthHeaders}}<th>{{.}}</th>{{/lengthHeaders}}{{#differenceHeaders}}<th>{{.}}</th>{{/differenceHeaders}}</tr>
    <tr><td>Status</td>{{#statuses}}<td>{{.}}</td>{{/statuses}}{{#differenceHeaders}}<td></td>{{/differenceHeaders}}</tr>
    {{#rows}}<tr><td>{{name}}</td>{{#values}}<td class="num">{{.}}</td>{{/values}}{{#differences}}<td class="num">{{.}}</td>{{/differences}}</tr>
    {{/rows}}
    </table>
    {{#lengths}}
    <details><summary>{{length}} intervals: movement, state and phase</summary>
    <table>
    <tr><th>Start (local)</th><th>UTC offset</th><th>Movement sum (g·s)</th><th>Mean acceleration (mg)</th><th>Coverage (s)</th><th>State</th><th>Phase</th></tr>
    {{#intervals}}<tr><td>{{start}}</td><td>{{offset}}</td><td class="num">{{sum}}</td><td class="num">{{perMinute}}</td><td class="num">{{coverage}}</td><td>{{state}}</td><td>{{phase}}</td></tr>
    {{/intervals}}
    </table>
    </details>
    {{/lengths}}
    {{/nights}}
    <h2>Definitions</h2>
    <ul>
    <li><b>Difference</b>: longer-interval value − {{reference}} value of the same night. <b>Mean difference</b> = Bland–Altman <b>bias</b>; <b>95 % limits of agreement</b> = bias ± 1.96 × SD of the differences (SD with n − 1; Bland &amp; Altman 1986), with parametric 95 % CIs of the bias (t, n − 1 df).</li>
    <li><b>ICC(2,1)</b>: two-way random effects, absolute agreement, single measures (Shrout &amp; Fleiss 1979; ICC(A,1) in McGraw &amp; Wong 1996; pingouin ICC2).</li>
    <li><b>Common grid</b>: cells of the greatest common divisor of the two lengths, on the grid through the night's local noon, so each cell lies in exactly one interval of each length and takes its label; cells overlapping the in-bed span. Sleep/wake uses the intervals' scored states (cells without a state at either length left out); phases use the hypnogram of the night metrics (wake, including outside the sleep period; light; deep). Accuracy = share of cells with the same label; Cohen's κ (1960) over all classes.</li>
    <li><b>Hidden awakening</b>: a wake run inside the {{reference}} sleep period that sleep follows, during which every overlapping longer interval counts as sleep in the longer hypnogram. <b>Found only by the longer length</b>: the same the other way round, an awakening of the longer hypnogram during which every overlapping {{reference}} interval counts as sleep. <b>Either length</b> = the larger of the {{reference}} awakenings plus those found only by the longer length, and the longer length's awakenings plus those it hides: never below the count at either length.</li>
    <li><b>Sleep onset / wake time</b> enter the statistics as minutes after the night's local noon; tables of nights show them as clock times.</li>
    </ul>
    <footer>sleepsta · {{lengthsLabel}} · definitions in sleepsta’s docs/methods.md</footer>
    </body>
    </html>

    """
}
