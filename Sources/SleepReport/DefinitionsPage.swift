import Mustache
import SleepCore

/// `definitions.html` at the top of the reports folder: what every number on the pages means,
/// with its unit. Written with every report and linked from the index, each night page and the
/// comparison pages, so the definitions travel with the reports (docs/methods.md says the same at
/// more length, section “Definitions”).
public enum DefinitionsPage {
    public static let fileName = "definitions.html"

    public static func page() -> String {
        let context: [String: Any] = [
            "title": "sleepsta — definitions",
            "secondaryMinimum": NumberText.minutes(SleepPeriod.secondaryMinimumMinutes),
            "napMinimum": NumberText.minutes(SleepPeriod.napMinimumSleepMinutes),
            "kinds": SleepPeriodKind.allCases.map { ["code": $0.rawValue, "meaning": kindMeaning($0)] },
            "classes": DayMinuteClass.allCases.map { ["code": $0.code, "meaning": classMeaning($0)] },
        ]
        return HTMLPages.library.render(context, withTemplate: "definitions") ?? ""
    }

    /// What a period kind is, with the thresholds the kinds are told apart by (from
    /// ``SleepPeriod``, so the page follows them when they change).
    static func kindMeaning(_ kind: SleepPeriodKind) -> String {
        switch kind {
        case .main:
            return "The day's longest sleep period: the one the night's row, metrics and chart shading report."
        case .secondary:
            return "Another sleep period of at least \(NumberText.minutes(SleepPeriod.secondaryMinimumMinutes)) from onset to wake (SPT): the other half of a split night, a night worker's second sleep."
        case .nap:
            return "A shorter sleep period (SPT under \(NumberText.minutes(SleepPeriod.secondaryMinimumMinutes))) with at least \(NumberText.minutes(SleepPeriod.napMinimumSleepMinutes)) of sleep."
        }
    }

    /// What a minute class is: every minute of a day has exactly one (``DayMinuteClass``); the
    /// code is the one exports and the participant timeline's legend use.
    static func classMeaning(_ c: DayMinuteClass) -> String {
        switch c {
        case .noData: return "No samples: before or after the recording, or a gap. Neither sleep nor wake."
        case .awake: return "Worn, with data, in no sleep period."
        case .notWornTemperature: return "Not worn: the device's temperature fell below skin level while it lay still."
        case .notWornStill: return "Not worn: the device lay still at one attitude (laid down)."
        case .notWornNoMovement: return "Not worn: no movement for so long (GGIR's 2013 non-wear rule, van Hees 2013), or the file's own off-wrist mark."
        case .sleepMain: return "In the day's main sleep period (onset to wake)."
        case .sleepSecondary: return "In a secondary sleep period (onset to wake)."
        case .nap: return "In a nap (onset to wake)."
        case .carriedSleep: return "In a sleep period of an earlier day that runs on past this day's noon (see carried sleep below)."
        }
    }

    static let template = """
    {{> head}}
    <body>
    <p class="nav"><a href="index.html">← all nights</a></p>
    <h1>Definitions</h1>
    <p class="sub">What the numbers on these pages mean, with their units.</p>
    <h2>Movement</h2>
    <dl>
    <dt>Movement per second (g)</dt><dd>For each second, the mean over its samples of (|x| + |y| + |z|) / 3: the mean absolute acceleration over the axes (<code>--metric legacy-app</code> reproduces the Sleepsta app's formula instead).</dd>
    <dt>Mean acceleration (mg)</dt><dd>What charts and pages show: the per-second movement averaged over the seconds with data of an interval, in milli-g (1 mg = 0.001 g = 0.00981 m/s²). It equals the per-minute movement (g·s/min) ÷ 60 × 1000 and is comparable across interval lengths and unaffected by gaps.</dd>
    <dt>Movement sum (g·s)</dt><dd>The sum of the per-second movement over an interval's seconds with data (the app's accumulator). Exports and the database keep it, and the per-minute movement in g·s/min (<code>movement_sum</code>, <code>movement_per_minute</code>).</dd>
    <dt>ENMO (mg)</dt><dd>Wearable nights: Euclidean norm minus one g, negatives set to zero, per 5-s epoch (GGIR's metric).</dd>
    <dt>Coverage (s)</dt><dd>Seconds of an interval with data. An interval without data is shown grey (“no data”): neither sleep nor wake.</dd>
    </dl>
    <h2>Time</h2>
    <dl>
    <dt>Night</dt><dd>Local noon to the next local noon in the recording's time zone, named by its evening's date: 23 h on a spring DST night, 25 h on an autumn one.</dd>
    <dt>Time zone and its source</dt><dd><code>option</code>: <code>--tz</code>; <code>data</code>: the offsets or zone the file states; <code>assumed-utc</code>: nothing stated one and UTC was assumed (run again with <code>--tz</code> to split the nights on the local clock).</dd>
    <dt>Chart time axis</dt><dd>Elapsed time, labelled with the local clock: on a spring DST night the skipped hour has no label, on an autumn night the repeated hour is labelled twice, in order, and a dashed line marks the change. The interval table gives each interval's UTC offset.</dd>
    <dt>Intervals</dt><dd>A grid through the night's local noon (a source of interval totals keeps its own phase where the lengths allow).</dd>
    </dl>
    <h2>Sleep and wake</h2>
    <dl>
    <dt>Sleep/wake (S/W)</dt><dd>Scored on 60-s epochs with Oakley's weighting (±2 min, weights 1/25, 1/5, 1, 1/5, 1/25). An epoch is wake when the weighted movement exceeds the wake threshold; an interval's state is the majority of its epochs (ties: sleep).</dd>
    <dt>Wake threshold (g·s per 60-s epoch)</dt><dd>The wake-threshold factor (<code>--wake-threshold</code>, default 4) × the night's median epoch movement; so it is relative to the night and independent of the unit.</dd>
    <dt>Sleep period</dt><dd>From the first to the last persistent sleep run (≥ 10 min of sleep epochs), on the interval hypnogram.</dd>
    <dt>Movement phases (awake, light, deep)</dt><dd>Inside the sleep period: wake intervals are <em>awake</em>; sleep intervals at or below the 25th percentile of the night's sleep movement are <em>deep</em>, the rest <em>light</em>. Movement intensity, not EEG sleep stages.</dd>
    </dl>
    <h2 id="periods">Every sleep of the day</h2>
    <p>A day is the same window as a night: local noon to the next local noon. It holds every sleep period the method found in it, each of one kind:</p>
    <table>
    <tr><th>Kind</th><th>Definition</th></tr>
    {{#kinds}}<tr><td><code>{{code}}</code></td><td>{{meaning}}</td></tr>
    {{/kinds}}
    </table>
    <p>Kinds are told apart by SPT: a sleep other than the main one is <code>secondary</code> from {{secondaryMinimum}} of SPT on, a <code>nap</code> below it, and a nap needs at least {{napMinimum}} of sleep.
    Each period has its time in bed, onset and wake, SPT, TST, WASO, awakenings and efficiency (TST / time in bed × 100) as a night does, and a source:
    <code>data</code> (found in the recording) or <code>diary</code> (a sleep diary gave its time in bed). Minutes without data or not worn inside a period are neither sleep nor wake.</p>
    <p><b>Which day a period belongs to</b>: the day its sleep onset falls in, and that day only.
    <b>Carried sleep</b>: the minutes of a period that runs on past the noon ending its day (a night worker's sleep from 08:30 to 15:30) are counted by the next day as sleep carried from the day before (<code>sleep-carried</code>), never as a period of its own; pages and the participant timeline draw them in the kind of the period they belong to.</p>
    <p>Every minute of a day has exactly one class:</p>
    <table>
    <tr><th>Class</th><th>Definition</th></tr>
    {{#classes}}<tr><td><code>{{code}}</code></td><td>{{meaning}}</td></tr>
    {{/classes}}
    </table>
    <p>Naps per day (index, participant page): the mean number of naps over the days whose night is scored; nap minutes per day: the mean minutes classed <code>nap</code> over those days.
    Movement phases (awake, light, deep) inside a period are levels of movement intensity, not sleep stages: a wrist's movement cannot tell EEG stages apart.</p>
    <h2>Night metrics</h2>
    <table>
    <tr><th>Metric</th><th>Unit</th><th>Definition</th></tr>
    <tr><td>In bed</td><td>clock time</td><td>first to last second with data</td></tr>
    <tr><td>Time in bed (TIB)</td><td>min</td><td>length of the in-bed span</td></tr>
    <tr><td>Sleep onset, wake time</td><td>clock time</td><td>start and end of the sleep period</td></tr>
    <tr><td>Sleep period time (SPT)</td><td>min</td><td>wake time − sleep onset</td></tr>
    <tr><td>Total sleep time (TST)</td><td>min</td><td>sleep inside the sleep period</td></tr>
    <tr><td>Sleep onset latency (SOL)</td><td>min</td><td>sleep onset − in-bed start</td></tr>
    <tr><td>Wake after sleep onset (WASO)</td><td>min</td><td>wake inside the sleep period (intervals without data are not wake)</td></tr>
    <tr><td>No data in the sleep period</td><td>min</td><td>intervals of the sleep period without data: in neither TST nor WASO</td></tr>
    <tr><td>Sleep efficiency (SE)</td><td>%</td><td>TST / (TIB − no data in the sleep period) × 100</td></tr>
    <tr><td>Sleep maintenance efficiency (SME)</td><td>%</td><td>TST / (SPT − no data in the sleep period) × 100</td></tr>
    <tr><td>Awakenings</td><td>count</td><td>wake bouts inside the sleep period that sleep follows (a gap neither makes nor splits one)</td></tr>
    <tr><td>Sleep fragmentation index (SFI)</td><td>per hour</td><td>sleep→wake transitions (the final awakening included) per hour of TST</td></tr>
    <tr><td>Light, deep</td><td>min</td><td>time in each movement phase inside the sleep period</td></tr>
    </table>
    <p>A night with less than 2 h of data is charted but not scored (<code>insufficient-data</code>); one without a persistent sleep run is <code>no-sleep-found</code>.
    Wearable nights (GGIR's method: HDCZA sleep period window, van Hees 2015 sustained inactivity) name each metric's GGIR part-4 column on their page.
    With <code>--sleep-algorithm cole-kripke</code> or <code>sadeh</code>, sleep/wake inside the window comes instead from ActiGraph axis-1 counts per minute,
    computed from the raw samples as ActiLife does (agcounts), scored with ActiLife's Cole–Kripke or Sadeh; the page's parameter table says which ran.</p>
    <h2>Epoch files</h2>
    <p>Files whose activity device software already reduced to epochs (Actiware, ActiLife, <code>.agd</code>, QUT, MMASH …) are scored as that
    software does: Actiwatch counts by Oakley (Actiware's arithmetic, wake above 40 counts), ActiGraph counts by Cole–Kripke (ActiLife,
    60-s epochs; Sadeh with <code>--sleep-algorithm sadeh</code>), acceleration summaries (ENMO) by the phones' relative rule. Time in bed comes from a sleep diary, the file's own rest
    intervals, ActiLife's Tudor-Locke sleep period, the span of a recording of the night only, or the movement, in that order; the page says
    which. Runs of at least 2 h of zero counts are taken as not worn: missing data, neither sleep nor wake. Where the file carries its own
    sleep/wake, the page gives the agreement with it (accuracy, Cohen's κ) and its TST by the same rules.</p>
    <h2>Rhythm across days (recording pages)</h2>
    <table>
    <tr><th>Metric</th><th>Unit</th><th>Definition</th></tr>
    <tr><td>Interdaily stability (IS)</td><td>0–1</td><td>how alike the days' hourly activity profiles are (Witting et al. 1990)</td></tr>
    <tr><td>Intradaily variability (IV)</td><td>≈0–2</td><td>how fragmented the rhythm is from hour to hour</td></tr>
    <tr><td>L5, M10</td><td>activity per epoch</td><td>mean activity of the least active 5 h and the most active 10 h of the average day, with their onset clock times</td></tr>
    <tr><td>Relative amplitude (RA)</td><td>0–1</td><td>(M10 − L5) / (M10 + L5)</td></tr>
    <tr><td>Sleep regularity index (SRI)</td><td>−100–100</td><td>how likely the same sleep/wake state is 24 h apart, rescaled (Phillips et al. 2017)</td></tr>
    </table>
    <p>As pyActigraphy 1.2.2 computes them: counts binarized at &gt; 4, hourly bins; wearables use ENMO in mg per minute, not binarized.
    Recordings of at least 3 days only; phones record the nights only and get none. Night metrics are also averaged per recording over all,
    weekday and weekend nights (a weekend night starts on a Friday or Saturday evening).</p>
    <h2>Comparing interval lengths</h2>
    <p>Differences are the longer length's value − the shorter one's of the same night. Bland–Altman bias and 95 % limits of agreement (bias ± 1.96 SD), ICC(2,1);
    with few nights (fewer than 10) limits of agreement and ICC are too uncertain to mean much.</p>
    <footer>sleepsta · sleepsta’s docs/methods.md says the same at more length</footer>
    </body>
    </html>

    """
}
