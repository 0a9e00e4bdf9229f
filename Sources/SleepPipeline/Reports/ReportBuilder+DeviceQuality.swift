import Foundation

extension ReportBuilder {
    /// The quality facts the raw-sample readers add (sample-rate drift, backward timestamps,
    /// clipping, idle sleep, damaged blocks, still periods), for the night page. Recordings stored
    /// before these facts existed simply show none of them.
    static func deviceQualityFacts(qualityJSON: String) -> [(label: String, value: String)] {
        guard let q = try? JSONDecoder().decode(DeviceQualityFacts.self, from: Data(qualityJSON.utf8)) else { return [] }
        var facts: [(String, String)] = []
        if let nominal = q.nominalSampleRateHz {
            var text = "nominal \(Self.number(nominal)) Hz"
            if let drift = q.sampleRateDriftPercent { text += String(format: ", effective vs nominal %+.3f %%", drift) }
            if let lo = q.hourlyRateMinHz, let hi = q.hourlyRateMaxHz { text += ", hourly \(Self.number(lo))–\(Self.number(hi)) Hz" }
            facts.append(("Sample rate (recording)", text))
        }
        if q.backwardTimestampsKept != nil || q.backwardSamplesDropped != nil {
            facts.append(("Backward timestamps", "\(q.backwardTimestampsKept ?? 0) kept within their second, \(q.backwardSamplesDropped ?? 0) dropped (≤ 1 s back)"))
        }
        if let clipped = q.clippedSamples, let range = q.deviceRangeG {
            facts.append(("Clipped samples", "\(clipped) within 0.5 g of the ±\(Self.number(range)) g range"))
        }
        if let idle = q.idleSleepSecondsFilled, idle > 0 { facts.append(("Idle sleep filled", "\(idle) s (device asleep; last sample repeated)")) }
        if let skipped = q.skippedBlocks, skipped > 0 { facts.append(("Damaged blocks skipped", "\(skipped)")) }
        if let periods = q.stillPeriods {
            facts.append(("Still periods ≥ 60 min (recording)", "\(periods), \(q.stillSeconds ?? 0) s in total, longest \(q.longestStillSeconds ?? 0) s (device not worn, or lying away from the sleeper)"))
        }
        if let calibration = q.calibration {
            var text = calibration
            if let before = q.calibrationErrorBeforeMilliG {
                text += String(format: "; error %.1f mg before", before)
                if let after = q.calibrationErrorAfterMilliG { text += String(format: ", %.1f mg after", after) }
            }
            if let o = q.calibrationOffsetG, let sc = q.calibrationScale, o.count == 3, sc.count == 3 {
                text += String(format: "; fit: offset %+.4f, %+.4f, %+.4f g, scale %.4f, %.4f, %.4f", o[0], o[1], o[2], sc[0], sc[1], sc[2])
            }
            facts.append(("Auto-calibration (van Hees 2014)", text))
        }
        if let counts = q.activityCounts { facts.append(("ActiGraph counts from raw (agcounts)", counts)) }
        if let nonWear = q.nonWearSeconds {
            facts.append(("Not worn (recording, GGIR 2013 rule)", "\(q.nonWearPeriods ?? 0) period(s), \(nonWear / 60) min in total, of \((q.wearableEpochs ?? 0) * 5 / 60) min with data"))
        }
        return facts
    }

    static func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(format: "%.3f", v) }

    struct DeviceQualityFacts: Decodable {
        var nominalSampleRateHz: Double?
        var sampleRateDriftPercent: Double?
        var hourlyRateMinHz: Double?
        var hourlyRateMaxHz: Double?
        var backwardTimestampsKept: Int?
        var backwardSamplesDropped: Int?
        var deviceRangeG: Double?
        var clippedSamples: Int?
        var idleSleepSecondsFilled: Int?
        var skippedBlocks: Int?
        var stillPeriods: Int?
        var stillSeconds: Int?
        var longestStillSeconds: Int?
        var calibration: String?
        var calibrationErrorBeforeMilliG: Double?
        var calibrationErrorAfterMilliG: Double?
        var calibrationOffsetG: [Double]?
        var calibrationScale: [Double]?
        var activityCounts: String?
        var wearableEpochs: Int?
        var nonWearSeconds: Int?
        var nonWearPeriods: Int?
    }
}
