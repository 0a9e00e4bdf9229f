/// Webster's rescoring rules, applied to 1-minute sleep/wake labels (usually Cole–Kripke's).
///
/// Rules as listed by Cole et al. 1992 (p. 465) after Webster et al. 1982:
/// 1. after at least 4 minutes scored wake, the next 1 minute scored sleep is rescored wake;
/// 2. after at least 10 minutes scored wake, the next 3 minutes scored sleep are rescored wake;
/// 3. after at least 15 minutes scored wake, the next 4 minutes scored sleep are rescored wake;
/// 4. 6 minutes or less scored sleep, surrounded by at least 10 minutes scored wake (before and
///    after), are rescored wake;
/// 5. 10 minutes or less scored sleep, surrounded by at least 20 minutes scored wake, are rescored wake.
///
/// - Webster JB, Kripke DF, Messin S, Mullaney DJ, Wyborney G. An activity-based sleep monitor system
///   for ambulatory use. *Sleep* 1982;5(4):389–399, doi:10.1093/sleep/5.4.389.
/// - Cole RJ et al. *Sleep* 1992;15(5):461–469.
///
/// Both published implementations apply every rule to the *initial* labels (rules do not feed each
/// other) and apply rules 1–3 only to a sleep run at least as long as the rule's 1, 3 or 4 minutes
/// (a shorter run is left to the rules with fewer minutes). They differ in rules 4–5, hence two variants.
/// Rules are counted in epochs (minutes for 1-minute epochs).
public enum WebsterRescoring {
    public enum Variant: String, Sendable, Hashable, Codable, CaseIterable {
        /// Rules 4–5 look at each sleep run and the wake runs right before and after it
        /// (actigraph.sleepr 0.3 `webster_rescore`, the literal reading of the rules). Unscored
        /// (`nil`) epochs end runs and count as neither sleep nor wake.
        case webster
        /// pyActigraphy 1.2.2 `sleep.scoring.utils.rescore`: rules 4–5 find wake runs of at least 10 (20)
        /// epochs and rescore everything between two consecutive such runs when that gap is at most
        /// 6 (10) epochs long, even if the gap holds several short sleep and wake runs. Unscored epochs
        /// count as wake, as pyActigraphy's scorers emit 0 (wake) for them.
        case pyActigraphy
    }

    /// Returns `labels` with Webster's rules applied. Unscored epochs stay unscored.
    public static func apply(_ labels: [SleepWake?], variant: Variant = .webster) -> [SleepWake?] {
        let n = labels.count
        guard n > 0 else { return labels }
        var rescore = [Bool](repeating: false, count: n)
        switch variant {
        case .webster: markAdjacentRuns(labels, into: &rescore)
        case .pyActigraphy: markPyActigraphy(labels, into: &rescore)
        }
        var out = labels
        for i in 0..<n where rescore[i] && out[i] == .sleep { out[i] = .wake }
        return out
    }

    /// (minimum preceding wake, epochs rescored at the start of the sleep run) for rules 1–3.
    static let afterWakeRules: [(wake: Int, rescored: Int)] = [(4, 1), (10, 3), (15, 4)]
    /// (maximum sleep run, minimum wake on both sides) for rules 4–5.
    static let surroundedRules: [(sleep: Int, wake: Int)] = [(6, 10), (10, 20)]

    /// A maximal run of identical labels: `[start, end)`.
    struct Run {
        let label: SleepWake?
        let start: Int
        let end: Int
        var length: Int { end - start }
    }

    static func runs(_ labels: [SleepWake?]) -> [Run] {
        var out: [Run] = []
        var start = 0
        for i in 1...labels.count where i == labels.count || labels[i] != labels[start] {
            out.append(Run(label: labels[start], start: start, end: i))
            start = i
        }
        return out
    }

    private static func markAdjacentRuns(_ labels: [SleepWake?], into rescore: inout [Bool]) {
        let all = runs(labels)
        for (r, run) in all.enumerated() where run.label == .sleep {
            let before = r > 0 && all[r - 1].label == .wake ? all[r - 1].length : 0
            let after = r + 1 < all.count && all[r + 1].label == .wake ? all[r + 1].length : 0
            for rule in afterWakeRules where before >= rule.wake && run.length >= rule.rescored {
                for i in run.start..<(run.start + rule.rescored) { rescore[i] = true }
            }
            for rule in surroundedRules
            where run.length <= rule.sleep && before >= rule.wake && after >= rule.wake {
                for i in run.start..<run.end { rescore[i] = true }
            }
        }
    }

    private static func markPyActigraphy(_ labels: [SleepWake?], into rescore: inout [Bool]) {
        // pyActigraphy sees 1 = sleep and 0 for everything else.
        let asleep = labels.map { $0 == .sleep }
        let binary: [SleepWake?] = asleep.map { $0 ? .sleep : .wake }
        let all = runs(binary)
        for run in all where run.label == .sleep {
            for rule in afterWakeRules where run.length >= rule.rescored && run.start >= rule.wake {
                let wakeBefore = !asleep[(run.start - rule.wake)..<run.start].contains(true)
                if wakeBefore {
                    for i in run.start..<(run.start + rule.rescored) { rescore[i] = true }
                }
            }
        }
        for rule in surroundedRules {
            let longWake = all.filter { $0.label == .wake && $0.length >= rule.wake }
            guard longWake.count > 1 else { continue }
            for k in 0..<(longWake.count - 1) {
                let gapStart = longWake[k].end
                let gapEnd = longWake[k + 1].start
                if gapEnd - gapStart <= rule.sleep {
                    for i in gapStart..<gapEnd { rescore[i] = true }
                }
            }
        }
    }
}
