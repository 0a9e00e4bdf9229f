import SleepCore

/// The comparison's statistics as a Markdown table (what `sleepsta compare` prints: readable
/// in a terminal, pasteable into notes and issues).
public enum ComparisonTable {
    public static func markdown(_ c: IntervalLengthComparison) -> String {
        var lines: [String] = []
        // What the interval length changes, per method (phones: everything; others: the phases).
        for note in ComparisonPages.methodNotes(c) {
            lines.append("\(note["kind"] ?? "") (\(Plural.count(Int(note["nights"] ?? "") ?? 0, "night"))): \(note["note"] ?? "")")
        }
        if !lines.isEmpty { lines.append("") }
        for pair in c.pairs {
            let r = pair.reference.description, t = pair.test.description
            lines.append("\(t) vs \(r): differences \(t) − \(r) over \(Plural.count(pair.pooledNightCount, "night")) scored per interval at both lengths")
            lines.append("")
            lines.append("| metric | unit | n | mean \(r) | mean \(t) | mean difference (bias) | SD of differences | 95 % limits of agreement | ICC(2,1) |")
            lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
            for m in pair.metrics {
                let ba = m.blandAltman
                let loa = ba?.lowerLimitOfAgreement.map { "\(fixed($0, 2)) to \(fixed(ba?.upperLimitOfAgreement, 2))" } ?? "–"
                lines.append("| \(m.metric.abbreviation) (`\(m.metric.rawValue)`) | \(m.metric.unit) | \(m.count) | \(fixed(m.referenceMean, 1)) | "
                             + "\(fixed(m.testMean, 1)) | \(fixed(ba?.bias, 2)) | \(fixed(ba?.standardDeviation, 2)) | \(loa) | \(fixed(m.intraclassCorrelation, 3)) |")
            }
            let g = pair.pooledGrid
            let cell = IntervalLength(seconds: g.cellSeconds)?.description ?? "\(g.cellSeconds)s"
            lines.append("")
            lines.append("Epoch-level agreement on a common \(cell) grid: sleep/wake accuracy \(percent(g.sleepWake.accuracy)), "
                         + "κ \(fixed(g.sleepWake.cohenKappa, 3)) (\(g.sleepWake.total) cells); phases accuracy \(percent(g.phases.accuracy)), "
                         + "κ \(fixed(g.phases.cohenKappa, 3)) (\(g.phases.total) cells).")
            let share = pair.referenceAwakenings > 0 ? " (\(percent(Double(pair.hiddenAwakenings) / Double(pair.referenceAwakenings))))" : ""
            lines.append("Awakenings hidden by \(t) intervals: \(pair.hiddenAwakenings) of \(pair.referenceAwakenings)\(share), "
                         + "\(fixed(pair.hiddenAwakeningMinutes, 0)) min of wake; found only by \(t) intervals: \(pair.appearedAwakenings), "
                         + "\(fixed(pair.appearedAwakeningMinutes, 0)) min of wake; found by either length: \(pair.eitherAwakenings).")
            lines.append("")
        }
        for n in c.incompleteNights {
            lines.append("not scored at every length: \(n.nightID) (\(zip(c.lengths, n.statuses).map { "\($0): \($1.rawValue)" }.joined(separator: ", ")))")
        }
        return lines.joined(separator: "\n")
    }

    static func fixed(_ v: Double?, _ decimals: Int) -> String {
        guard let v, v.isFinite else { return "–" }
        var p = 1.0
        for _ in 0..<decimals { p *= 10 }
        let r = (v * p).rounded() / p
        if decimals == 0 { return String(Int(r)) }
        var s = String(r == 0 ? 0 : r)
        if let dot = s.firstIndex(of: "."), s.distance(from: dot, to: s.endIndex) - 1 < decimals {
            s += String(repeating: "0", count: decimals - (s.distance(from: dot, to: s.endIndex) - 1))
        }
        return s
    }

    static func percent(_ fraction: Double?) -> String {
        fraction.map { fixed($0 * 100, 1) + " %" } ?? "–"
    }
}
