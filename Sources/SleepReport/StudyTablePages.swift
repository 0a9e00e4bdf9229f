import SleepCore
import SleepStore

/// The index's Table 1 (``StudyTable``): per participant group, n and mean ± SD of each night
/// metric over the valid nights and over the participants' means, then the participants and
/// nights the inclusion rule leaves out, with their reasons. The markup is the `study` partial of
/// the index; its context is ``context(_:)``.
enum StudyTablePages {
    static let template = """
    {{#hasStudyTable}}<h2 id="table-1">Table 1: nights by group</h2>
    <p class="def">Per group: participants and valid nights (scored{{#minWear}}, worn at least {{minWear}} h{{/minWear}}{{#minNights}}; participants with at least {{minNights}} valid nights{{/minNights}}); each metric as mean ± SD over the valid nights, and over the participants' means. A weekend night starts on a Friday or Saturday evening. <code>sleepsta export --what groups</code> writes this table.</p>
    <table class="stack">
    <tr><th>Group</th><th>n participants</th><th>n nights</th>{{#metricNames}}<th>{{.}}</th>{{/metricNames}}</tr>
    {{#studyGroups}}<tr><td data-label="Group">{{name}}</td><td class="num" data-label="n participants">{{participants}}</td><td class="num" data-label="n nights">{{nights}}</td>{{#cells}}<td class="num" data-label="{{label}}">{{overNights}}<br><span class="def">{{overParticipants}}</span></td>{{/cells}}</tr>
    {{/studyGroups}}
    </table>
    <p class="def">Each cell: over nights, then (below) over participants' means.</p>
    {{#hasStudyExclusions}}<h3 id="exclusions">Left out of Table 1 ({{studyExclusionCount}})</h3>
    <table class="stack">
    <tr><th>Participant</th><th>Group</th><th>Night</th><th>Reason</th></tr>
    {{#studyExclusions}}<tr><td data-label="Participant">{{participant}}</td><td data-label="Group">{{group}}</td><td data-label="Night">{{night}}</td><td data-label="Reason">{{reason}}</td></tr>
    {{/studyExclusions}}
    </table>{{/hasStudyExclusions}}{{/hasStudyTable}}
    """

    /// The partial's context; nothing shows without a table or without nights.
    static func context(_ table: StudyTable?) -> [String: Any] {
        guard let table, !table.participants.isEmpty else { return ["hasStudyTable": false] }
        let names = NightMetricAverages.metrics.map { $0.unit.isEmpty ? $0.label : "\($0.label) (\($0.unit))" }
        return [
            "hasStudyTable": true,
            // A section over an empty string still renders: no rule is `false`, which hides its words.
            "minWear": table.rule.minWearHours > 0 ? CSVFormat.number(table.rule.minWearHours) as Any : false,
            "minNights": table.rule.minValidNights > 0 ? String(table.rule.minValidNights) as Any : false,
            "metricNames": names,
            "studyGroups": table.groups.map { g -> [String: Any] in
                ["name": g.name, "participants": String(g.participants), "nights": String(g.nights),
                 "cells": zip(g.statistics, names).map { s, label in
                     ["label": label, "overNights": meanSD(s.nights), "overParticipants": meanSD(s.participants)]
                 }]
            },
            "hasStudyExclusions": !table.exclusions.isEmpty, "studyExclusionCount": String(table.exclusions.count),
            "studyExclusions": table.exclusions.map { e in
                ["participant": e.participant.id, "group": e.group, "night": e.nightID ?? "all nights", "reason": e.reason]
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
    /// Table 1 over the index's rows (the analyses the pages show), under ``inclusion``.
    func studyTable(_ rows: [IndexRow], catalog: [String: NightCatalogEntry]) -> StudyTable {
        StudyTable.compute(rows.map { r in
            StudyNight(participant: r.participant, nightID: r.nightID, date: r.date, recordingPath: r.recordingPath,
                       status: r.analysis?.status.rawValue ?? "not analysed",
                       wearHours: StudyNight.wearHours(coverageSeconds: catalog[r.nightID]?.coverageSeconds ?? 0,
                                                       notWornInSleepPeriodMinutes: r.analysis?.metrics?.notWornInSleepPeriodMinutes),
                       metrics: r.analysis?.status == .scored ? r.analysis?.metrics : nil)
        }, rule: inclusion)
    }
}
