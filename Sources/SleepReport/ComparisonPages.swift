import Mustache
import SleepCore

/// The comparison page and its charts' content. Every string from input (night ids, recording
/// paths) goes through Mustache's escaping `{{ }}`; nothing on the page changes between runs.
public enum ComparisonPages {
    static let library: PageLibrary = PageLibrary { lib in
        lib.register(try MustacheTemplate(string: Templates.layoutHead), named: "head")
        lib.register(try MustacheTemplate(string: ComparisonTemplates.page), named: "compare")
    }

    public static func page(_ input: ComparisonReportInput) -> String {
        let c = input.comparison
        let lengthsLabel = c.lengths.map(\.description).joined(separator: " vs ")
        let dates = input.nights.map(\.date)
        let span = dates.isEmpty ? "no nights" : "\(dates.min()!) to \(dates.max()!)"
        let context: [String: Any] = [
            "title": "sleepsta — interval lengths compared: \(lengthsLabel)",
            "lengthsLabel": lengthsLabel, "reference": c.lengths[0].description,
            "nightCount": String(c.nights.count), "span": span,
            "incomplete": c.incompleteNights.map { ["night": $0.nightID, "statuses": $0.statuses.map(\.rawValue).joined(separator: ", ")] },
            "hasIncomplete": !c.incompleteNights.isEmpty,
            "pairs": c.pairs.map(pairContext),
            "methods": methodNotes(c),
            "nights": c.nights.indices.map { nightContext(c, index: $0, info: input.nights[$0]) },
        ]
        return library.render(context, withTemplate: "compare") ?? ""
    }

    /// One sentence per method of the compared nights: what the interval length changes for it.
    /// Phones score per interval, so everything may change; wearables and epoch files score per
    /// epoch, so sleep/wake and every metric but the phase minutes are the same at each length,
    /// which the sentence says and checks night by night.
    public static func methodNotes(_ c: IntervalLengthComparison) -> [[String: String]] {
        let byKind = Dictionary(grouping: c.nights) { $0.analyses[0].kind }
        return RecordingKind.allCases.compactMap { kind -> [String: String]? in
            guard let nights = byKind[kind] else { return nil }
            let shown = nights.first { $0.analyses[0].status == .scored }?.analyses[0] ?? nights[0].analyses[0]
            let labels = shown.labels()
            let key = shown.key.split(separator: ";").filter { !$0.hasPrefix("interval=") }.joined(separator: ";")
            if labels.metricsDependOnInterval {
                return ["kind": kind.rawValue, "nights": String(nights.count), "nightsText": Plural.count(nights.count, "night"), "key": key,
                        "note": "sleep/wake is scored per interval, so the night metrics, the awakenings and the phases all depend on the interval length; the tables below compare them."]
            }
            // Files of one method may have other epochs (Actiware at 30 s and 60 s): name each.
            let pers = Set(nights.filter { $0.analyses[0].status == .scored }.map { $0.analyses[0].labels().scoredPer })
            let per = (pers.isEmpty ? [labels.scoredPer] : pers.sorted()).map { $0.replacingOccurrences(of: "epochs", with: "epoch") }
                .joined(separator: " or ")
            let phaseOnly: Set<ComparedMetric> = [.light, .deep]
            let scored = nights.filter { $0.analyses.allSatisfy { $0.status == .scored } }
            let identical = scored.filter { n in
                let first = n.analyses[0].metrics
                return n.analyses.dropFirst().allSatisfy { a in
                    ComparedMetric.allCases.filter { !phaseOnly.contains($0) }.allSatisfy {
                        $0.value(a.metrics!, nightStartUTC: n.windowStartUTC) == $0.value(first!, nightStartUTC: n.windowStartUTC)
                    }
                }
            }
            return ["kind": kind.rawValue, "nights": String(nights.count), "nightsText": Plural.count(nights.count, "night"), "key": key,
                    "note": "sleep/wake and the night metrics are scored per \(per), not per interval, so they do not depend on the interval length (identical at every length on \(identical.count) of \(scored.count) scored nights; sleep/wake κ and awakenings below compare these epochs). Only the chart, the interval table and the phase minutes change with the length."]
        }
    }

    static func pairContext(_ pair: IntervalLengthComparison.Pair) -> [String: Any] {
        let metrics: [[String: String]] = pair.metrics.map { m in
            let d = decimals(m.metric)
            let ba = m.blandAltman
            let clock = m.metric == .sleepOnset || m.metric == .wakeTime
            return [
                "name": "\(m.metric.abbreviation) (\(m.metric.rawValue))", "unit": clock ? "clock time; differences in min" : m.metric.unit,
                "n": String(m.count),
                "refMean": clock ? clockAfterNoon(m.referenceMean) : NumberText.fixed(m.referenceMean, d),
                "testMean": clock ? clockAfterNoon(m.testMean) : NumberText.fixed(m.testMean, d),
                "label": "\(m.metric.abbreviation): \(pair.test) − \(pair.reference)",
                "bias": NumberText.fixed(ba?.bias, d + 1),
                "biasCI": ba?.biasConfidenceInterval.map { "\(NumberText.fixed($0.lowerBound, d + 1)) to \(NumberText.fixed($0.upperBound, d + 1))" } ?? "–",
                "sd": NumberText.fixed(ba?.standardDeviation, d + 1),
                "loa": ba?.lowerLimitOfAgreement.map { "\(NumberText.fixed($0, d + 1)) to \(NumberText.fixed(ba?.upperLimitOfAgreement, d + 1))" } ?? "–",
                "mad": NumberText.fixed(m.meanAbsoluteDifference, d + 1), "icc": NumberText.fixed(m.intraclassCorrelation, 3),
                "chart": ComparisonReportLayout.blandAltmanChart(reference: pair.reference, test: pair.test, metric: m.metric),
            ]
        }
        let g = pair.pooledGrid
        let phaseNames = CommonGridAgreement.phaseClasses.map { $0 == .wake ? "wake" : ($0 == .deep ? "deep" : "light") }
        let phaseMatrix: [[String: Any]] = phaseNames.indices.map { r in
            ["label": phaseNames[r], "cells": phaseNames.indices.map { String(g.phases[reference: r, test: $0]) }]
        }
        let perNight: [[String: String]] = pair.nights.map { n in [
            "id": n.nightID,
            "refAwakenings": NumberText.fixed(n.referenceValue(.awakenings), 0), "testAwakenings": NumberText.fixed(n.testValue(.awakenings), 0),
            "hidden": String(n.hiddenAwakenings.hiddenCount), "appeared": String(n.hiddenAwakenings.appearedCount),
            "either": String(n.hiddenAwakenings.eitherCount),
            "swAccuracy": percent(n.grid.sleepWake.accuracy), "swKappa": NumberText.fixed(n.grid.sleepWake.cohenKappa, 3),
            "phaseAccuracy": percent(n.grid.phases.accuracy), "phaseKappa": NumberText.fixed(n.grid.phases.cohenKappa, 3),
        ] }
        let referenceAwakenings = pair.referenceAwakenings
        let unpooled = pair.nights.count - pair.pooledNightCount
        return [
            "nightsText": Plural.count(pair.pooledNightCount, "night"), "methodRows": methodRows(pair),
            // One method scored per interval is the pooled table itself: the per-method table would repeat it.
            "perMethod": pair.methods.count > 1 || unpooled > 0,
            "hasUnpooled": unpooled > 0, "unpooledText": Plural.count(unpooled, "night"),
            "unpooledKinds": pair.methods.filter { !$0.metricsDependOnInterval }.map(\.kind.rawValue).joined(separator: " and "),
            "fewNights": pair.pooledNightCount < minimumNightsForAgreement, "minimumNights": String(minimumNightsForAgreement),
            "reference": pair.reference.description, "test": pair.test.description, "nights": String(pair.nights.count),
            "metrics": metrics, "cell": IntervalLength(seconds: g.cellSeconds)?.description ?? "\(g.cellSeconds)s",
            "swCells": String(g.sleepWake.total), "swAccuracy": percent(g.sleepWake.accuracy), "swKappa": NumberText.fixed(g.sleepWake.cohenKappa, 3),
            "phaseCells": String(g.phases.total), "phaseAccuracy": percent(g.phases.accuracy), "phaseKappa": NumberText.fixed(g.phases.cohenKappa, 3),
            "phaseHeader": phaseNames, "phaseMatrix": phaseMatrix,
            "hidden": String(pair.hiddenAwakenings), "referenceAwakenings": String(referenceAwakenings),
            "referenceAwakeningsText": Plural.count(referenceAwakenings, "awakening"),
            "hiddenPercent": referenceAwakenings > 0 ? percent(Double(pair.hiddenAwakenings) / Double(referenceAwakenings)) : "–",
            "hiddenMinutes": NumberText.minutes(pair.hiddenAwakeningMinutes),
            "appeared": String(pair.appearedAwakenings), "appearedMinutes": NumberText.minutes(pair.appearedAwakeningMinutes),
            "appearedText": Plural.count(pair.appearedAwakenings, "awakening"),
            "either": String(pair.eitherAwakenings), "eitherText": Plural.count(pair.eitherAwakenings, "awakening"),
            "perNight": perNight,
        ]
    }

    /// One row per method and metric: each method's own agreement, so that per-epoch methods
    /// (zero differences by design) are seen apart from the per-interval ones.
    static func methodRows(_ pair: IntervalLengthComparison.Pair) -> [[String: String]] {
        pair.methods.flatMap { method in
            method.metrics.map { m in
                let d = decimals(m.metric), ba = m.blandAltman
                return ["method": method.kind.rawValue, "depends": method.metricsDependOnInterval ? "yes" : "no (per epoch)",
                        "name": "\(m.metric.abbreviation) (\(m.metric.rawValue))", "n": String(m.count),
                        "bias": NumberText.fixed(ba?.bias, d + 1), "sd": NumberText.fixed(ba?.standardDeviation, d + 1),
                        "loa": ba?.lowerLimitOfAgreement.map { "\(NumberText.fixed($0, d + 1)) to \(NumberText.fixed(ba?.upperLimitOfAgreement, d + 1))" } ?? "–",
                        "icc": NumberText.fixed(m.intraclassCorrelation, 3)]
            }
        }
    }

    static func nightContext(_ c: IntervalLengthComparison, index k: Int, info: ComparisonReportInput.NightInfo) -> [String: Any] {
        let night = c.nights[k]
        let tl = info.timeline
        let rows: [[String: Any]] = ComparedMetric.allCases.map { metric in
            let values = night.analyses.map { a in a.metrics.flatMap { metric.value($0, nightStartUTC: night.windowStartUTC) } }
            let shown = values.map { display($0, metric: metric, nightStartUTC: night.windowStartUTC, timeline: tl) }
            let differences = values.dropFirst().map { v -> String in
                guard let v, let r = values[0] else { return "–" }
                return signed(v - r, nightDecimals(metric))
            }
            let clock = metric == .sleepOnset || metric == .wakeTime
            return ["name": "\(metric.abbreviation)" + (clock ? " (clock time; differences in min)" : metric.unit == "min" || metric.unit == "%" ? " (\(metric.unit))" : ""),
                    "values": shown, "differences": Array(differences)]
        }
        let lengths: [[String: Any]] = zip(c.lengths, night.analyses).map { length, a in
            ["length": length.description, "intervals": a.intervals.map { iv -> [String: String] in
                let mv = iv.movement
                return ["start": LocalClock.hhmm(localSecond: tl.localSecond(atUTC: mv.startUTC)),
                        "offset": UTCOffsetTimeline.formatOffset(tl.offset(atUTC: mv.startUTC)), "sum": NumberText.fixed(mv.movementSum, 3),
                        "perMinute": NumberText.fixed(MovementUnits.milliG(perMinute: mv.movementPerMinute), 2), "coverage": String(mv.coverageSeconds),
                        "state": iv.state.map { String($0.letter) } ?? "", "phase": iv.phase?.rawValue ?? ""]
            }]
        }
        return [
            "id": night.nightID, "date": info.date.description, "recording": info.recordingPath,
            "chart": ComparisonReportLayout.movementChart(nightID: night.nightID),
            "lengthHeaders": c.lengths.map(\.description),
            "differenceHeaders": c.lengths.dropFirst().map { "\($0) − \(c.lengths[0])" },
            "statuses": night.analyses.map(\.status.rawValue),
            "rows": rows, "lengths": lengths,
        ]
    }

    /// Below this many nights, limits of agreement and ICC are too uncertain to mean much: the page says so.
    public static let minimumNightsForAgreement = 10

    /// A mean of minutes after the night's local noon as a clock time (`HH:MM`, wrapping past midnight).
    package static func clockAfterNoon(_ minutes: Double?) -> String {
        guard let minutes, minutes.isFinite, let whole = Int(exactly: minutes.rounded()) else { return "–" }
        let m = (whole % 1440 + 12 * 60) % 1440
        return LocalClock.hhmm(localSecond: Int64((m + 1440) % 1440) * 60)
    }

    /// Clock metrics as local clock time, the rest as numbers.
    static func display(_ v: Double?, metric: ComparedMetric, nightStartUTC: Int64, timeline: UTCOffsetTimeline) -> String {
        guard let v else { return "–" }
        switch metric {
        case .sleepOnset, .wakeTime:
            guard v.isFinite, v.magnitude <= 1e9, let seconds = Int64(exactly: (v * 60).rounded()) else { return "–" }
            return LocalClock.hhmm(localSecond: timeline.localSecond(atUTC: nightStartUTC + seconds))
        default:
            return NumberText.fixed(v, nightDecimals(metric))
        }
    }

    /// Decimals of one night's value: counts are whole.
    static func nightDecimals(_ m: ComparedMetric) -> Int {
        switch m {
        case .awakenings: return 0
        case .sleepFragmentationIndex: return 2
        default: return 1
        }
    }

    static func decimals(_ m: ComparedMetric) -> Int {
        switch m {
        case .awakenings: return 1
        case .sleepFragmentationIndex: return 2
        default: return 1
        }
    }

    static func signed(_ v: Double, _ decimals: Int) -> String {
        let text = NumberText.fixed(abs(v), decimals)
        if Double(text) == 0 { return text }
        return (v < 0 ? "−" : "+") + text
    }

    static func percent(_ fraction: Double?) -> String {
        guard let fraction else { return "–" }
        return NumberText.fixed(fraction * 100, 1) + " %"
    }

    // MARK: Charts

    /// Movement per minute of every length on the same clock axis (per-minute means are
    /// comparable across lengths; a length's curve breaks where its intervals hold no data).
    public static func movementChart(_ c: IntervalLengthComparison, index k: Int, info: ComparisonReportInput.NightInfo) -> MovementChart {
        let night = c.nights[k]
        let series = zip(c.lengths, night.analyses).map { length, a in
            MovementChart.Series(label: "\(length) intervals", points: a.intervals.map { iv in
                MovementChart.Point(startLocal: iv.movement.startUTC, endLocal: iv.movement.endUTC,
                                    value: MovementUnits.milliG(perMinute: iv.movement.movementPerMinute), phase: nil)
            })
        }
        var chart = MovementChart(title: "Night of \(info.date) · \(MovementUnits.meanAccelerationLabel) at \(c.lengths.map(\.description).joined(separator: ", ")) intervals",
                                  yAxisLabel: MovementUnits.meanAccelerationLabel, series: series, sleepPeriod: nil, showPhases: false)
        chart.clock = info.timeline
        // Each length's interval states: the sleep/wake the lengths disagree on.
        chart.seriesSleepWake = night.analyses.map { a in
            a.intervals.compactMap { iv in iv.state.map { (start: iv.movement.startUTC, end: iv.movement.endUTC, state: $0) } }
        }
        return chart
    }

    /// The Bland–Altman plot of one metric of a pair.
    public static func blandAltmanChart(_ pair: IntervalLengthComparison.Pair, metric: ComparedMetric) -> BlandAltmanChart {
        // The nights of the statistics beside the plot: per-interval methods only.
        let points = pair.nights.filter(\.metricsDependOnInterval).compactMap { n -> BlandAltmanChart.Point? in
            guard let r = n.referenceValue(metric), let t = n.testValue(metric) else { return nil }
            return BlandAltmanChart.Point(mean: (r + t) / 2, difference: t - r)
        }
        let ba = pair.agreement(metric).blandAltman
        return BlandAltmanChart(
            title: "\(metric.abbreviation): \(pair.test) − \(pair.reference), \(Plural.count(points.count, "night"))",
            xAxisLabel: "mean of \(pair.reference) and \(pair.test) (\(metric.unit))",
            yAxisLabel: "difference \(pair.test) − \(pair.reference) (\(metric.unit))",
            points: points, bias: ba?.bias, lowerLimit: ba?.lowerLimitOfAgreement, upperLimit: ba?.upperLimitOfAgreement)
    }
}
