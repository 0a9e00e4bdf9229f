import Foundation
import SleepCore
import SleepReport
import SleepStore

extension Exporter {
    /// `export --what recordings`: per recording its rhythm (one row per measure) and, per stored
    /// parameter set, the mean and SD of each night metric over all, weekday and weekend nights.
    static func writeRecordings(_ snapshot: ExportSnapshot, analyses: [AnalysisExportEntry], unreadable: Unreadable, to out: CSVOutput) throws -> Int {
        return try out.whole {
            var rows = 0
            try out.write(CSVFormat.line(ExportTable.recordings.columns))
            let byRecording = Dictionary(grouping: analyses, by: \.night.recordingPath)
            for item in try snapshot.recordingsWithRhythm(unreadable: unreadable.add) {
                let r = item.recording
                let days = item.rhythm.map { CSVFormat.number($0.days) } ?? ""
                func row(_ measure: String, _ scope: String, _ value: String, sd: Double? = nil, n: Int? = nil, unit: String, source: String, key: String = "") throws {
                    try out.write(CSVFormat.line([r.path, r.format.rawValue, r.kind.rawValue, days, measure, scope, value, CSVFormat.number(sd),
                                                  n.map(String.init) ?? "", unit, source, key]))
                    rows += 1
                }
                if let h = item.rhythm, h.status == .computed, let m = h.metrics {
                    try row("interdaily_stability", "recording", CSVFormat.number(m.interdailyStability), unit: "", source: h.source)
                    try row("intradaily_variability", "recording", CSVFormat.number(m.intradailyVariability), unit: "", source: h.source)
                    try row("relative_amplitude", "recording", CSVFormat.number(m.relativeAmplitude), unit: "", source: h.source)
                    try row("l5", "recording", CSVFormat.number(m.l5), unit: "activity per epoch", source: h.source)
                    try row("l5_start", "recording", item.l5Start ?? "", unit: "local clock", source: h.source)
                    try row("m10", "recording", CSVFormat.number(m.m10), unit: "activity per epoch", source: h.source)
                    try row("m10_start", "recording", item.m10Start ?? "", unit: "local clock", source: h.source)
                    try row("sleep_regularity_index", "recording", CSVFormat.number(h.sleepRegularityIndex), unit: "", source: h.source)
                } else if let h = item.rhythm {
                    try row("rhythm_status", "recording", h.status.rawValue, unit: "", source: h.statusReason ?? h.source)
                }
                let perKey = Dictionary(grouping: byRecording[r.path] ?? [], by: \.parametersKey)
                for key in perKey.keys.sorted() {
                    let nights = perKey[key]!.filter { $0.status == NightStatus.scored.rawValue }.compactMap { a in a.metrics.map { (a.night.date, $0) } }
                    for avg in NightMetricAverages.compute(nights).rows {
                        try row(avg.metric, avg.scope.rawValue, CSVFormat.number(avg.mean), sd: avg.sd, n: avg.n, unit: avg.unit,
                                source: "scored nights", key: key)
                    }
                }
            }
            return rows
        }
    }
}

extension Exporter {
    /// `export --what participants`: one row per participant and parameter set (``ParticipantSummary``),
    /// from the same analyses as `--what nights`.
    static func writeParticipants(_ snapshot: ExportSnapshot, analyses: [AnalysisExportEntry], rule: ParticipantRule,
                                  unreadable: Unreadable, to out: CSVOutput) throws -> Int {
        return try out.whole {
            var rows = 0
            try out.write(CSVFormat.line(ExportTable.participants.columns))
            let rhythms = try snapshot.rhythmNumbers(unreadable: unreadable.add)
            let matcher = ParticipantMatcher(rule)
            let groups = Dictionary(grouping: analyses) { GroupKey(participant: matcher.participant(recordingPath: $0.night.recordingPath), key: $0.parametersKey) }
            for group in groups.keys.sorted(by: { ($0.participant, $0.key) < ($1.participant, $1.key) }) {
                let entries = groups[group]!
                let recordings = Array(Set(entries.map(\.night.recordingPath))).sorted()
                let scored = entries.filter { $0.status == NightStatus.scored.rawValue }.compactMap { a in
                    a.metrics.map { ParticipantSummary.Night(date: a.night.date, metrics: $0, timeline: a.night.timeline) }
                }
                let insufficient = entries.filter { $0.status == NightStatus.insufficientData.rawValue }.count
                let s = ParticipantSummary.compute(participant: group.participant, recordings: recordings, nights: entries.count,
                                                   insufficient: insufficient, scored: scored,
                                                   rhythms: recordings.compactMap { rhythms[$0] })
                var fields = [PrintableText.escaped(s.participant.id), PrintableText.escaped(s.participant.group),
                              recordings.map(PrintableText.escaped).joined(separator: ";"), String(s.nights), String(s.nightsScored)]
                for stat in s.statistics { fields += [stat.mean, stat.sd, stat.weekday, stat.weekend].map { CSVFormat.number($0) } }
                fields += [CSVFormat.number(s.interdailyStability), CSVFormat.number(s.intradailyVariability),
                           CSVFormat.number(s.sleepRegularityIndex), group.key, String(s.nightsInsufficient)]
                try out.write(CSVFormat.line(fields)); rows += 1
            }
            return rows
        }
    }

    private struct GroupKey: Hashable { var participant: Participant; var key: String }
}
