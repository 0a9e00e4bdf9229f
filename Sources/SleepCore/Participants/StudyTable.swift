/// Who and which nights a study counts: a night is valid when it was scored and worn for at least
/// ``minWearHours``; a participant is included with at least ``minValidNights`` valid nights.
/// 0 for either is no rule (every scored night is valid, every participant with one is included).
public struct InclusionRule: Sendable, Hashable, Codable {
    public var minValidNights: Int
    public var minWearHours: Double
    public init(minValidNights: Int = 0, minWearHours: Double = 0) { self.minValidNights = minValidNights; self.minWearHours = minWearHours }
    public static let none = InclusionRule()
}

/// One stored night as the study table needs it.
public struct StudyNight: Sendable, Equatable {
    public var participant: Participant
    public var nightID: String
    public var date: CivilDate
    public var recordingPath: String
    /// The analysis status (`scored`, `insufficient-data` …).
    public var status: String
    /// Hours of the night's window with data, less the minutes found not worn in its sleep period.
    public var wearHours: Double
    /// The night metrics, when scored.
    public var metrics: NightSummaryMetrics?
    public var parametersKey: String

    public init(participant: Participant, nightID: String, date: CivilDate, recordingPath: String, status: String, wearHours: Double,
                metrics: NightSummaryMetrics?, parametersKey: String = "") {
        self.participant = participant; self.nightID = nightID; self.date = date; self.recordingPath = recordingPath
        self.status = status; self.wearHours = wearHours; self.metrics = metrics; self.parametersKey = parametersKey
    }

    /// A stored night as the tables read it, from what the store keeps: wear hours by
    /// ``wearHours(coverageSeconds:notWornInSleepPeriodMinutes:)``, metrics only when scored.
    public static func stored(participant: Participant, nightID: String, date: CivilDate, recordingPath: String, status: String,
                              coverageSeconds: Int, metrics: NightSummaryMetrics?, parametersKey: String = "") -> StudyNight {
        StudyNight(participant: participant, nightID: nightID, date: date, recordingPath: recordingPath, status: status,
                   wearHours: wearHours(coverageSeconds: coverageSeconds, notWornInSleepPeriodMinutes: metrics?.notWornInSleepPeriodMinutes),
                   metrics: status == NightStatus.scored.rawValue ? metrics : nil, parametersKey: parametersKey)
    }

    /// Wear hours of a night from what the store keeps: its covered seconds less the minutes the
    /// analysis found not worn in the sleep period (never below 0).
    public static func wearHours(coverageSeconds: Int, notWornInSleepPeriodMinutes: Double?) -> Double {
        max(0, Double(coverageSeconds) / 3600 - (notWornInSleepPeriodMinutes ?? 0) / 60)
    }
}

/// A paper's Table 1 from the stored nights: per participant group, n (participants, nights) and
/// the mean ± SD of each night metric over the valid nights and over the participants' means,
/// after an ``InclusionRule``; with every participant's valid weekday and weekend nights and every
/// excluded participant and night with its reason. Without groups every participant is in `all`.
///
/// Weekend nights are those starting on a Friday or Saturday evening (GGIR's part 4, see
/// ``NightMetricAverages/isWeekendNight(_:)``). SD is the sample SD (n − 1), nil for fewer than two.
public struct StudyTable: Sendable, Equatable {
    /// A participant's nights after the rule.
    public struct ParticipantRow: Sendable, Equatable {
        public var participant: Participant
        public var group: String
        public var nights: Int
        public var validNights: Int
        public var validWeekdayNights: Int
        public var validWeekendNights: Int
        public var included: Bool
        /// Why not included (nil when included).
        public var reason: String?
    }

    /// An excluded participant (`nightID` nil) or night, with why.
    public struct Exclusion: Sendable, Equatable {
        public var participant: Participant
        public var group: String
        public var nightID: String?
        public var date: CivilDate?
        public var recordingPath: String?
        public var reason: String

        package init(participant: Participant, group: String, nightID: String?, date: CivilDate?, recordingPath: String?, reason: String) {
            self.participant = participant; self.group = group; self.nightID = nightID
            self.date = date; self.recordingPath = recordingPath; self.reason = reason
        }
    }

    /// One metric of one group.
    public struct Statistic: Sendable, Equatable {
        public var metric: String
        public var label: String
        public var unit: String
        /// Over the group's valid nights of included participants.
        public var nights: (n: Int, mean: Double?, sd: Double?)
        /// Over the included participants' means of their valid nights.
        public var participants: (n: Int, mean: Double?, sd: Double?)
        public static func == (a: Statistic, b: Statistic) -> Bool {
            a.metric == b.metric && a.nights == b.nights && a.participants == b.participants
        }
    }

    public struct Group: Sendable, Equatable {
        public var name: String
        public var participants: Int
        public var nights: Int
        public var statistics: [Statistic]
    }

    public var rule: InclusionRule
    public var groups: [Group]
    public var participants: [ParticipantRow]
    public var exclusions: [Exclusion]

    /// The group name a participant without one is counted under.
    public static let ungrouped = "all"

    public static func groupName(_ p: Participant) -> String { p.group.isEmpty ? ungrouped : p.group }

    /// Whether `night` counts under `rule`, or why not.
    public static func nightExclusion(_ night: StudyNight, rule: InclusionRule) -> String? {
        guard night.status == NightStatus.scored.rawValue, night.metrics != nil else { return "not scored (\(night.status))" }
        if rule.minWearHours > 0, night.wearHours < rule.minWearHours {
            return "worn \(Self.hours(night.wearHours)) h < --min-wear-hours \(Self.hours(rule.minWearHours))"
        }
        return nil
    }

    public static func compute(_ nights: [StudyNight], rule: InclusionRule = .none) -> StudyTable {
        var rows: [ParticipantRow] = [], exclusions: [Exclusion] = []
        var valid: [Participant: [StudyNight]] = [:]
        let byParticipant = Dictionary(grouping: nights, by: \.participant)
        for p in byParticipant.keys.sorted() {
            let own = byParticipant[p]!.sorted { ($0.date, $0.nightID) < ($1.date, $1.nightID) }
            var ok: [StudyNight] = []
            for n in own {
                if let why = nightExclusion(n, rule: rule) {
                    exclusions.append(Exclusion(participant: p, group: groupName(p), nightID: n.nightID, date: n.date,
                                                recordingPath: n.recordingPath, reason: why))
                } else { ok.append(n) }
            }
            let weekend = ok.filter { NightMetricAverages.isWeekendNight($0.date) }.count
            var reason: String? = nil
            if ok.isEmpty { reason = "no valid night" } else if ok.count < rule.minValidNights {
                reason = "\(ok.count) valid \(ok.count == 1 ? "night" : "nights") < --min-valid-nights \(rule.minValidNights)"
            }
            if let reason { exclusions.append(Exclusion(participant: p, group: groupName(p), nightID: nil, date: nil, recordingPath: nil, reason: reason)) }
            else { valid[p] = ok }
            rows.append(ParticipantRow(participant: p, group: groupName(p), nights: own.count, validNights: ok.count,
                                       validWeekdayNights: ok.count - weekend, validWeekendNights: weekend, included: reason == nil, reason: reason))
        }
        let groupNames = Set(byParticipant.keys.map(groupName)).sorted()
        let groups = groupNames.map { name -> Group in
            // In participant order, so the sums (and a mean that rounds at .x5) are the same on every run.
            let members = valid.filter { groupName($0.key) == name }.sorted { $0.key < $1.key }.map(\.value)
            let all = members.flatMap { $0 }
            let statistics = NightMetricAverages.metrics.map { m -> Statistic in
                let overNights = summary(all.compactMap { $0.metrics.flatMap(m.value) })
                let means = members.compactMap { own in summary(own.compactMap { $0.metrics.flatMap(m.value) }).mean }
                return Statistic(metric: m.name, label: m.label, unit: m.unit, nights: overNights, participants: summary(means))
            }
            return Group(name: name, participants: members.count, nights: all.count, statistics: statistics)
        }
        return StudyTable(rule: rule, groups: groups, participants: rows, exclusions: exclusions)
    }

    /// Count, mean and sample SD (n − 1; nil for fewer than two) of the finite `values`.
    public static func summary(_ values: [Double]) -> (n: Int, mean: Double?, sd: Double?) {
        let v = values.filter(\.isFinite)
        guard !v.isEmpty else { return (0, nil, nil) }
        let mean = v.reduce(0, +) / Double(v.count)
        guard v.count > 1 else { return (1, mean, nil) }
        return (v.count, mean, (v.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(v.count - 1)).squareRoot())
    }

    static func hours(_ h: Double) -> String {
        let r = (h * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
