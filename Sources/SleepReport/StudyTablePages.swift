import SleepCore
import SleepStore

/// The index's Table 1 (``StudyTable``): per participant group, n and mean ± SD of each night
/// metric over the valid nights and over the participants' means, then the participants and
/// nights the inclusion rule leaves out, with their reasons. The markup is the `study` partial of
/// the index; its context is ``context(_:)``.
/// One method's Table 1: the nights one night-analysis method scored (one parameters key),
/// under the heading that names the method.
public struct StudyTableSection: Sendable {
    public var method: String
    public var table: StudyTable
    public init(method: String, table: StudyTable) { self.method = method; self.table = table }
}

enum StudyTablePages {
    static let template = """
    {{#hasStudyTable}}<h2 id="table-1">Table 1: nights by group</h2>
    <p class="def">Per group: participants and valid nights (scored{{#minWear}}, worn at least {{minWear}} h{{/minWear}}{{#minNights}}; participants with at least {{minNights}} valid nights{{/minNights}}); each metric as mean ± SD over the valid nights, and over the participants' means. A weekend night starts on a Friday or Saturday evening. Methods are not pooled: each method's nights have their own table. <code>sleepsta export --what groups</code> writes these tables.</p>
    {{#studyTables}}{{#hasMethodHeading}}<h3 id="table-1-{{anchor}}">{{method}}</h3>{{/hasMethodHeading}}
    {{#noValidNight}}<p class="def">No valid night: every night of this method is left out (below).</p>{{/noValidNight}}{{^noValidNight}}
    <table class="stats stack">
    <tr><th>Group</th><th>n participants</th><th>n nights</th>{{#metricNames}}<th>{{.}}</th>{{/metricNames}}</tr>
    {{#studyGroups}}<tr><td data-label="Group">{{name}}</td><td class="num" data-label="n participants">{{participants}}</td><td class="num" data-label="n nights">{{nights}}</td>{{#cells}}<td class="num" data-label="{{label}}">{{overNights}}<br><span class="def">{{overParticipants}}</span></td>{{/cells}}</tr>
    {{/studyGroups}}
    </table>{{/noValidNight}}
    {{/studyTables}}
    <p class="def">Each cell: over nights, then (below) over participants' means.</p>
    {{#hasStudyExclusions}}<h3 id="exclusions">Left out of Table 1 ({{studyExclusionCount}})</h3>
    <table class="stack">
    <tr><th>Participant</th><th>Group</th><th>Method</th><th>Night</th><th>Reason</th></tr>
    {{#studyExclusions}}<tr><td data-label="Participant">{{participant}}</td><td data-label="Group">{{group}}</td><td data-label="Method">{{method}}</td><td data-label="Night">{{night}}</td><td data-label="Reason">{{reason}}</td></tr>
    {{/studyExclusions}}
    </table>{{/hasStudyExclusions}}{{/hasStudyTable}}
    """

    /// The partial's context; nothing shows without a table or without nights.
    static func context(_ sections: [StudyTableSection]) -> [String: Any] {
        let shown = sections.filter { !$0.table.participants.isEmpty }
        guard let first = shown.first else { return ["hasStudyTable": false] }
        let names = NightMetricAverages.metrics.map { $0.unit.isEmpty ? $0.label : "\($0.label) (\($0.unit))" }
        let rule = first.table.rule
        return [
            "hasStudyTable": true,
            // A section over an empty string still renders: no rule is `false`, which hides its words.
            "minWear": rule.minWearHours > 0 ? CSVFormat.number(rule.minWearHours) as Any : false,
            "minNights": rule.minValidNights > 0 ? String(rule.minValidNights) as Any : false,
            "metricNames": names,
            "studyTables": shown.enumerated().map { index, section -> [String: Any] in
                ["method": section.method, "anchor": String(index + 1), "hasMethodHeading": shown.count > 1,
                 "noValidNight": section.table.groups.allSatisfy { $0.nights == 0 },
                 "studyGroups": section.table.groups.map { g -> [String: Any] in
                     ["name": g.name, "participants": String(g.participants), "nights": String(g.nights),
                      "cells": zip(g.statistics, names).map { s, label in
                          ["label": label, "overNights": meanSD(s.nights), "overParticipants": meanSD(s.participants)]
                      }]
                 }]
            },
            "hasStudyExclusions": shown.contains { !$0.table.exclusions.isEmpty },
            "studyExclusionCount": String(shown.map(\.table.exclusions.count).reduce(0, +)),
            "studyExclusions": shown.flatMap { section in
                section.table.exclusions.map { e in
                    ["participant": e.participant.id, "group": e.group, "method": section.method, "night": e.nightID ?? "all nights", "reason": e.reason]
                }
            },
        ]
    }

    /// `410.0 ± 14.1` (one decimal), `410.0` for one value, `–` for none.
    static func meanSD(_ s: (n: Int, mean: Double?, sd: Double?)) -> String {
        guard let mean = s.mean else { return "–" }
        func one(_ v: Double) -> String { String((v * 10).rounded() / 10) }
        return one(mean) + (s.sd.map { " ± " + one($0) } ?? "")
    }
}

extension ReportBuilder {
    /// Table 1 over the index's rows (the analyses the pages show), under ``inclusion``: one
    /// table per parameters key, as `export --what groups` writes them, so a phone night's
    /// movement sums are never averaged with a wearable's sleep times. Nights without an
    /// analysis stand under the method their kind would run.
    func studyTables(_ rows: [IndexRow], catalog: [String: NightCatalogEntry]) -> [StudyTableSection] {
        func method(_ r: IndexRow) -> (method: any NightAnalysisMethod, parameters: AnalysisParameters) {
            let p = r.analysis?.parameters ?? parameters
            return (NightAnalysisMethods.method(for: r.analysis?.kind ?? catalog[r.nightID]?.kind ?? .phoneInBed, parameters: p), p)
        }
        let byKey = Dictionary(grouping: rows) { r -> String in
            let (m, p) = method(r)
            return m.parametersKey(p)
        }
        return byKey.keys.sorted().map { key in
            let own = byKey[key]!
            let (m, p) = method(own.first!)
            let table = StudyTable.compute(own.map { r in
                StudyNight.stored(participant: r.participant, nightID: r.nightID, date: r.date, recordingPath: r.recordingPath,
                                  status: r.analysis?.status.rawValue ?? "not analysed", coverageSeconds: catalog[r.nightID]?.coverageSeconds ?? 0,
                                  metrics: r.analysis?.metrics)
            }, rule: inclusion)
            return StudyTableSection(method: "\(m.kind.rawValue): \(m.algorithm(p))", table: table)
        }
    }
}
