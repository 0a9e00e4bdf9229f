/// GGIR parity (`--method ggir`): a wrist night as GGIR 3.3-6 analyses it with its defaults, for a
/// paper that needs GGIR's numbers. Chosen for a wrist recording by ``AnalysisParameters/nightMethod``;
/// each night is a slice of the recording-level result (``GGIRRecording``: GGIR's non-wear clean-up,
/// imputation and sleep bouts look at the other days), computed once per recording; the night's own
/// steps are ``GGIRNightAnalysis``'s.
///
/// Steps (GGIR 3.3-6 sources; docs/methods.md, "GGIR parity", lists every deviation):
/// 1. Non-wear by GGIR 3's `"2023"` rule (``GGIRNonWear2023``, stored per epoch at ingest), its
///    `g.weardec` clean-up and `g.impute` imputation of invalid epochs from the other days
///    (``GGIRPart2``).
/// 2. Sustained inactivity bouts (van Hees 2015, `HASIB.R`) on the whole imputed angle-z, then
///    removed from invalid epochs (`ignorenonwear = TRUE`).
/// 3. The night: epochs from 12:00:05 to 12:00:00 local (`g.sib.det`). HDCZA (`HASPT.R`) on the
///    imputed angle-z, invalid epochs judged on their imputed values (`HASPT.ignore.invalid = FALSE`);
///    a window ending in its last hour is searched again from 18:00 to 18:00 and kept if it still
///    ends at or after noon. A night cut short at the recording's start gets the mean of the other
///    nights' windows, as GGIR ends up doing.
/// 4. Part 4 (`g.part4.R`, `relyonguider = FALSE`): onset = start of the first bout overlapping the
///    window, wake = start of the last epoch of the last overlapping bout; SPT and TST (Σ bouts' last
///    epoch start − first epoch start) as clock-hour differences with GGIR's correction on a night
///    with a change of the clocks (``part4Durations(onsetUTC:wakeUTC:bouts:night:timeline:)``);
///    WASO = SPT − TST (invalid epochs inside count as WASO).
/// 5. GGIR's cleaned summary: a night is kept when its invalid fraction (invalid + missing epochs
///    / 17,280) is at most 8/24 (`includenightcrit = 16`) and a bout overlaps the window; others are
///    `insufficient-data` or `no-sleep-found`, with GGIR's reason.
public struct GGIRNightMethod: NightAnalysisMethod {
    public static let version = "3.3-6"
    public static let algorithm = "ggir-parity-3.3-6"
    public static let summary = "wearable-24h, GGIR parity (--method ggir): GGIR 3.3-6's defaults — non-wear by its 2023 rule, invalid epochs imputed from the other days, HDCZA on the imputed angle-z (van Hees 2018), sustained inactivity bouts (van Hees 2015), its part 4 and its night inclusion (includenightcrit 16 h)"
    static let epochsPerDay = 86_400 / WearableEpochs.epochSeconds

    public init() {}
    public var kind: RecordingKind { .wearable24h }
    public var algorithm: String { Self.algorithm }
    public var summary: String { Self.summary }
    /// GGIR's part 2 reads the other days, and its non-wear is the 2023 rule's stored scores.
    public var inputs: NightInputs { [.wholeRecording, .ggirNonWearScores] }

    public static func parametersKey(_ p: AnalysisParameters) -> String {
        "method=wearable-24h;variant=ggir-\(version);interval=\(p.interval.seconds)s;nonwear=ggir2023(150mg,13mg,chunks)+weardec;"
            + "impute=other-days-slot-mean;spt=hdcza-ggir(invalid-imputed)+daysleeper;sib=vanhees2015(5deg,5min,ignorenonwear);"
            + "part4=relyonguider-false;includenight=16h;clock=device-as-wall;deep=q\(p.deepQuantile)"
    }
    public func parametersKey(_ p: AnalysisParameters) -> String { Self.parametersKey(p) }

    /// GGIR's part 2 and bouts over the whole recording (``GGIRRecording``), once for all its nights.
    public func prepare(recording: WearableEpochs, facts: RecordingFacts, timeline: UTCOffsetTimeline) -> (any Sendable)? {
        GGIRRecording.make(recording, facts: facts, timeline: timeline)
    }

    /// What GGIR computes per night window, in UTC seconds of epoch starts.
    struct Night {
        var guiderOnsetUTC: Int64, guiderWakeUTC: Int64, daysleeper: Bool, threshold: Double
        /// Part 4's fallback when no night has an HDCZA window (``l5Guider(_:night:timeline:in:)``).
        var l5: Bool = false
    }

    /// A night GGIR gives no numbers for, and why.
    struct Refusal: Error {
        var status: NightStatus, note: NightNote
        func analysis(_ p: AnalysisParameters) -> NightAnalysis {
            NightAnalysis(status: status, parameters: p, intervals: [], epochs: [], wakeThreshold: nil, metrics: nil,
                          kind: .wearable24h, notes: [note])
        }
    }

    public var diaryNonwearNotApplied: String? {
        "--method ggir does as GGIR's part 4, which does not read self-reported non-wear (its part 5 only lists it); the default wrist method applies the row"
    }

    public func analyze(_ night: NightData, parameters p: AnalysisParameters) -> NightAnalysis {
        var analysis: NightAnalysis
        switch Self.recording(for: night) {
        case .failure(let refusal): analysis = refusal.analysis(p)
        case .success(let recording): analysis = GGIRNightAnalysis(recording: recording, night: night, parameters: p).analyze()
        }
        // GGIR's part 4 reads the sleeplog's sleep times only; self-reported non-wear it lists in
        // part 5 (g.sibreport) and never uses to score. Parity leaves the rows out, and says so.
        let W = night.window
        let ignored = night.diaryNotWornUTC.reduce(0) { $0 + max(0, min($1[1], W.endUTC) - max($1[0], W.startUTC)) }
        if ignored > 0 { analysis.notes.append(.ggirDiaryNonwearNotApplied(seconds: Int(ignored))) }
        return analysis
    }

    /// The recording-level result the night is a slice of: the one prepared for its recording
    /// (``prepare(recording:facts:timeline:)``), else made here from the night's whole recording.
    static func recording(for night: NightData) -> Result<GGIRRecording, Refusal> {
        guard let stored = night.epochs, stored.count > 0 else {
            return .failure(Refusal(status: .unsuitable, note: .ggirNoEpochs))
        }
        // GGIR's clean-up, imputation and read chunks need the whole recording and its format: a
        // night alone would give other numbers under the same key, so none are given. The whole
        // recording holds the night's data, but may be shorter than the night's stored epochs
        // (its window and the 6 h after, padded beyond the recording's ends): a recording of a
        // day or less is a whole recording too.
        guard let whole = night.recordingEpochs, Self.holds(whole, dataOf: stored), let facts = night.recording else {
            return .failure(Refusal(status: .unsuitable, note: .ggirNoWholeRecording))
        }
        var prepared = night.recordingResult as? Result<GGIRRecording, GGIRRecording.Unavailable>
        if case .success(let made)? = prepared, made.timeline != night.timeline { prepared = nil }
        switch prepared ?? GGIRRecording.make(whole, facts: facts, timeline: night.timeline) {
        case .success(let recording): return .success(recording)
        case .failure(.noScores):
            return .failure(Refusal(status: .unsuitable, note: .ggirNoNonWearScores))
        case .failure(.nothingAnalysed):
            return .failure(Refusal(status: .insufficientData, note: .ggirNothingAnalysed))
        }
    }

    /// Whether `whole` spans every epoch of `night` that has data.
    static func holds(_ whole: WearableEpochs, dataOf night: WearableEpochs) -> Bool {
        guard whole.count > 0 else { return false }
        guard let data = night.dataEpochs else { return true }
        return whole.startUTC <= night.epochStartUTC(data.lowerBound) && night.epochStartUTC(data.upperBound) < whole.endUTC
    }

    /// `g.part4`'s SPT and TST in minutes: differences of clock hours (after midnight + 24) on the
    /// night's clock, then its corrections on a night with a change of the clocks (`is_this_a_dst_night`,
    /// which finds the changed hour `h` among the hours from 21:00 to 06:00):
    /// - clocks forward: an hour less of both when a bout overlapping the guider runs from by `h` to
    ///   from `h + 1`;
    /// - clocks back: an hour more of SPT when onset is by `h` and wake from `h + 1`, and
    ///   (`correctSptEdgingInDoubleHour`) an hour more for onset by `h` with wake inside `h…h + 1`,
    ///   and another for onset inside `h…h + 1` with wake from `h + 1`.
    /// On any other night these are the epochs' elapsed time.
    package static func part4Durations(onsetUTC: Int64, wakeUTC: Int64, bouts: [(Int64, Int64)], night w: NightWindow,
                               timeline: UTCOffsetTimeline) -> (spt: Double, tst: Double) {
        let midnightLocal = timeline.localSecond(atUTC: w.startUTC) - 12 * 3600
        // Clock seconds after the night's first midnight (GGIR's hours × 3600), whole seconds.
        func clock(_ utc: Int64) -> Int64 { timeline.localSecond(atUTC: utc) - midnightLocal }
        var spt = clock(wakeUTC) - clock(onsetUTC)
        var tst = bouts.reduce(Int64(0)) { $0 + clock($1.1) - clock($1.0) }
        if let change = Self.clockChangeNight(w, timeline: timeline) {
            let from = (change.hour + 24) * 3600, to = (change.hour + 25) * 3600
            if change.forward {
                if bouts.contains(where: { clock($0.0) <= from && clock($0.1) >= to }) { spt -= 3600; tst -= 3600 }
            } else {
                let onset = clock(onsetUTC), wake = clock(wakeUTC)
                if onset <= from && wake >= to { spt += 3600 }
                if onset <= from && wake >= from && wake <= to { spt += 3600 }
                if wake >= to && onset >= from && onset <= to { spt += 3600 }
            }
        }
        return (Double(spt) / 60, Double(tst) / 60)
    }

    /// GGIR's `is_this_a_dst_night`: the local hours of the ten hours from 21:00 on the night's date;
    /// fewer than nine hours between the first and the last means the clocks went back (the
    /// repeated hour), more means they went forward (the first hour of 21–23, 0–7 that is missing).
    package static func clockChangeNight(_ w: NightWindow, timeline: UTCOffsetTimeline) -> (forward: Bool, hour: Int)? {
        let midnightLocal = timeline.localSecond(atUTC: w.startUTC) - 12 * 3600
        let evening = timeline.utcSecond(atLocal: midnightLocal + 21 * 3600)
        let hours = (0...9).map { k in Int(LocalClock.floorDiv(timeline.localSecond(atUTC: evening + Int64(k) * 3600), 3600) % 24 + 24) % 24 }
        let span = hours[9] + 24 - hours[0]
        if span < 9 {
            var seen = Set<Int>()
            guard let repeated = hours.first(where: { !seen.insert($0).inserted }) else { return nil }
            return (false, repeated)
        }
        if span > 9 {
            guard let missing = (Array(21...23) + Array(0...7)).first(where: { !hours.contains($0) }) else { return nil }
            return (true, missing)
        }
        return nil
    }

    /// The runs of `flags` (epochs of `whole` with data) inside `shown`, as `[from, to)` UTC seconds.
    static func spans(of flags: [Bool], whole: WearableEpochs, within shown: WearableEpochs) -> [[Int64]] {
        let E = Int64(WearableEpochs.epochSeconds)
        let from = max(0, Int((shown.startUTC - whole.startUTC) / E)), to = min(whole.count, Int((shown.endUTC - whole.startUTC) / E))
        var result: [[Int64]] = []
        var i = from
        while i < to {
            guard flags[i] && whole.hasData(i) else { i += 1; continue }
            var j = i
            while j < to && flags[j] && whole.hasData(j) { j += 1 }
            result.append([whole.epochStartUTC(i), whole.epochStartUTC(j)])
            i = j
        }
        return result
    }

    /// HDCZA on one night window of the imputed angle-z, with GGIR's day-sleeper rerun.
    static func guider(_ w: NightWindow, in rec: GGIRRecording) -> Night? {
        let part2 = rec.part2, whole = rec.whole
        func run(_ r: Range<Int>) -> SleepPeriodTimeWindow? {
            guard !r.isEmpty else { return nil }
            let angles = r.map { part2.angleZ[$0].isFinite ? part2.angleZ[$0] : 0 }
            return HDCZA.detect(angleZ: angles, invalid: r.map { part2.invalid[$0] }, parameters: HDCZA.Parameters(invalidEpochs: .useSignal))
        }
        let r = rec.window(w)
        guard let spt = run(r) else { return nil }
        var result = Night(guiderOnsetUTC: whole.epochStartUTC(r.lowerBound + spt.span.startEpoch),
                           guiderWakeUTC: whole.epochStartUTC(r.lowerBound + spt.span.endEpoch),
                           daysleeper: false, threshold: spt.threshold)
        // g.sib.det: the window ends within the last hour of noon → 18:00 to 18:00, kept if it
        // still ends at or after noon; only when the later window lies inside the data.
        let lastHour = 3600 / WearableEpochs.epochSeconds
        if r.lowerBound + spt.span.endEpoch >= r.upperBound - lastHour {
            let later = rec.window(w, shiftSeconds: 6 * 3600)
            let unclamped = rec.index(w.endUTC + 6 * 3600) + 1
            if later.upperBound == unclamped && later.upperBound < part2.judged.upperBound && later.count > 23 * 3600 / WearableEpochs.epochSeconds,
               let again = run(later), later.lowerBound + again.span.endEpoch >= r.upperBound {
                result = Night(guiderOnsetUTC: whole.epochStartUTC(later.lowerBound + again.span.startEpoch),
                               guiderWakeUTC: whole.epochStartUTC(later.lowerBound + again.span.endEpoch),
                               daysleeper: true, threshold: again.threshold)
            }
        }
        return result
    }

    /// g.part4 when no night of the recording has an HDCZA window (a recording of a day or less:
    /// its one night is cut short at the start, and GGIR stores no window for such a night): the
    /// guider `L512`, L5 ± 6 h. L5 is `g.sib.det`'s: the centre of the least active 5 h (3,601
    /// epochs) of the window's ENMO by a centred rolling mean (zoo's `fill = "extend"` at the edges),
    /// first minimum, in hours counted as if the window began at noon (it begins at the recording's
    /// start), 0 for a window of 5 h or less or a flat mean; then part 4's arithmetic on clock hours
    /// (an onset from 24 h on less 24, a wake less 24 from 24 h on, plus 24).
    static func l5Guider(_ range: Range<Int>, night w: NightWindow, timeline t: UTCOffsetTimeline, in rec: GGIRRecording) -> Night {
        let perHour = 3600 / WearableEpochs.epochSeconds
        let k = 5 * perHour + 1, half = k / 2
        // ENMO as GGIR's part 2 keeps it, to 4 decimals (a recording of a day or less is not imputed).
        let acc = range.map { i -> Double in
            let v = Double(rec.whole.enmo[i])
            return v.isFinite ? (v * 10_000).rounded() / 10_000 : 0
        }
        var l5 = 0.0
        if acc.count > k {
            var sum = acc[0..<k].reduce(0, +)
            var means = [sum / Double(k)]
            for c in (half + 1)..<(acc.count - half) {
                sum += acc[c + half] - acc[c - half - 1]
                means.append(sum / Double(k))
            }
            let rolled = [Double](repeating: means[0], count: half) + means + [Double](repeating: means[means.count - 1], count: half)
            if let lowest = rolled.min(), rolled.contains(where: { $0 != lowest }), let at = rolled.firstIndex(of: lowest) {
                l5 = Double(at + 1) / Double(perHour) + 12
            }
        }
        var onset = l5 - 6, wake = l5 + 6
        if onset >= 24 { onset -= 24 }
        if wake >= 24 { wake -= 24 }
        wake += 24
        let base = t.localSecond(atUTC: w.startUTC) - 12 * 3600   // the night date's midnight
        func at(_ hours: Double) -> Int64 { t.utcSecond(atLocal: base + Int64((hours * 3600).rounded())) }
        return Night(guiderOnsetUTC: at(onset), guiderWakeUTC: at(wake), daysleeper: false, threshold: .nan, l5: true)
    }

    /// g.part4 for a window GGIR stored no guider for: the mean clock time of the other nights'
    /// guider onsets and wakes (in hours after this night's noon-day midnight, 12–36).
    static func meanGuider(for w: NightWindow, timeline t: UTCOffsetTimeline, in rec: GGIRRecording) -> Night? {
        func midnightLocal(_ v: NightWindow) -> Int64 { t.localSecond(atUTC: v.startUTC) + 12 * 3600 }
        let firstMidnight = midnightLocal(w)
        var onsets: [Double] = [], wakes: [Double] = []
        var k: Int64 = 1
        while true {
            let m = firstMidnight + k * 86_400
            let start = t.utcSecond(atLocal: m - 12 * 3600), end = t.utcSecond(atLocal: m + 12 * 3600)
            let other = NightWindow(date: w.date, startUTC: start, endUTC: end)
            guard rec.window(other).count > 0, rec.part2.judged.contains(rec.index(t.utcSecond(atLocal: m))) else { break }
            if let g = guider(other, in: rec) {
                onsets.append(Double(t.localSecond(atUTC: g.guiderOnsetUTC) - (m - 86_400)) / 3600)
                wakes.append(Double(t.localSecond(atUTC: g.guiderWakeUTC) - (m - 86_400)) / 3600)
            }
            k += 1
        }
        guard !onsets.isEmpty else { return nil }
        let base = firstMidnight - 86_400
        func at(_ hours: Double) -> Int64 { t.utcSecond(atLocal: base + Int64((hours * 3600).rounded())) }
        return Night(guiderOnsetUTC: at(onsets.reduce(0, +) / Double(onsets.count)),
                     guiderWakeUTC: at(wakes.reduce(0, +) / Double(wakes.count)), daysleeper: false, threshold: .nan)
    }
}
