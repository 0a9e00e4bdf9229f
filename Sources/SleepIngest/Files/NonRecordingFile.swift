import SleepCore

/// A file of a study folder that is recognisably not a recording: a table that sits beside the
/// recordings (a sleep summary, a diary, the participants' details, questionnaire scores), told by
/// its header row. `run` and `nightly` skip such a file with one line in their summary instead of
/// failing on it, and `inspect` says what it is.
///
/// Only the header (the first non-blank line, split at `,`, `;` or tabs) decides, never the file's
/// name; names are compared as ``EpochColumnNaming/canonical(_:)`` spells them (`In Bed Time` is
/// `in_bed_time`). A header that also names a movement column (x, y, z, axis1…3, counts, ENMO,
/// vector magnitude, acceleration …) is never a side file. The kinds, first match wins:
///
/// - ``Kind/sleepstaExport``: a `parameters_key` or `analysis_id` column (what `sleepsta export` writes).
/// - ``Kind/actiLifeSleepSummary``: `in_bed_time`, `in_bed_date`, `out_bed_time` or `sleep_algorithm`,
///   with `efficiency`, `latency`, `total_sleep_time…` or `wake_after_sleep_onset…` (ActiLife's sleep
///   scoring export, MMASH's `sleep.csv`).
/// - ``Kind/sleepDiary``: the columns ``SleepDiary`` reads: an id (`id`, `participant` …), a night
///   (`night`, `date`), an in-bed time (`in_bed`, `lights_off`, `start` …) and an out-of-bed time.
/// - ``Kind/participantsTable``: `id` with `path`, `file` or `folder`, at most four columns (``ParticipantsTable``).
/// - ``Kind/nightSummary``: two or more per-night sleep measures (`tst`, `total_sleep_time…`,
///   `efficiency`, `sleep_efficiency…`, `waso…`, `latency`, `sol…`, `awakenings`, `time_in_bed…`,
///   `sleeponset`, `wakeup`, `sptduration`, `minutes_asleep`, `totalminutesasleep` …): GGIR's part 4
///   night summary, Fitbit's and Oura's sleep exports, a study's own table.
/// - ``Kind/participantDetails``: two or more of `gender`, `sex`, `age`, `weight`, `height`, `bmi`,
///   `date_of_birth` … (MMASH's `user_info.csv`).
/// - ``Kind/activityDiary``: `activity`, `start` and `end` (MMASH's `Activity.csv`, an activity log).
/// - ``Kind/heartBeatIntervals``: `ibi…`, `rr`, `rr_ms`, `rr_interval…`, `nn_interval…` (MMASH's `RR.csv`).
/// - ``Kind/questionnaire``: two or more questionnaire scores: `meq`, `stai…`, `psqi`, `pittsburgh`,
///   `panas…`, `bisbas…`, `daily_stress`, `ess`, `epworth`, `isi`, `phq…`, `gad…`, `bdi…`, `mctq…`,
///   `kss` (MMASH's `questionnaire.csv`).
/// - ``Kind/salivaSamples``: a column naming cortisol, melatonin or amylase (MMASH's `saliva.csv`).
/// - ``Kind/wearPeriods``: `wear` or a `nonwear…` column with `period_start` or `start` (ActiLife's
///   Choi and Troiano wear-time periods).
public struct NonRecordingFile: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case sleepstaExport, actiLifeSleepSummary, sleepDiary, participantsTable, nightSummary, participantDetails
        case activityDiary, heartBeatIntervals, questionnaire, salivaSamples, wearPeriods

        /// What the file is, as the run summary and `inspect` say it.
        public var label: String {
            switch self {
            case .sleepstaExport: return "a sleepsta export"
            case .actiLifeSleepSummary: return "an ActiLife sleep summary"
            case .sleepDiary: return "a sleep diary (give it with --diary)"
            case .participantsTable: return "a participants table (give it with --participants)"
            case .nightSummary: return "a per-night sleep summary table"
            case .participantDetails: return "a participant table"
            case .activityDiary: return "an activity diary"
            case .heartBeatIntervals: return "heart-beat (RR) intervals"
            case .questionnaire: return "questionnaire scores"
            case .salivaSamples: return "saliva samples (hormone assays)"
            case .wearPeriods: return "a wear/non-wear period list"
            }
        }
    }

    public var kind: Kind
    /// The header's line number (1 unless blank lines come first).
    public var line: Int
    /// The header columns that told the kind, as the file spells them.
    public var columns: [String]

    /// `not a recording: an ActiLife sleep summary (its header names In Bed Time, Efficiency)`.
    public var message: String {
        "not a recording: \(kind.label) (its header names \(columns.prefix(4).joined(separator: ", ")))"
    }

    /// The error a reader of recordings gives for this file: marked (``IngestError/notRecording``)
    /// so that a batch skips it instead of counting it as failed.
    func error(path: String) -> IngestError {
        var e = IngestError(file: path, line: line, message: message)
        e.notRecording = self
        return e
    }

    /// The side file whose first bytes are `head` (`cut`: the file goes on after them), or nil.
    package static func identify(head: [UInt8], cut: Bool) -> NonRecordingFile? {
        let text = TextHead(head, cut: cut)
        guard let header = text.first else { return nil }
        let spelled = TextHead.fields(of: header.text, delimiter: TextHead.delimiter(of: header.text))
        let columns = Header(spelled)
        guard columns.names.contains(where: { !$0.isEmpty && $0.first!.isLetter }), !columns.names.contains(where: Header.isMovement) else { return nil }
        for kind in Kind.allCases {
            if let evidence = columns.evidence(for: kind) {
                return NonRecordingFile(kind: kind, line: header.number, columns: evidence)
            }
        }
        return nil
    }
}

extension NonRecordingFile {
    /// A header row's columns, canonical and as spelled, with each kind's rule.
    struct Header {
        let spelled: [String]
        let names: [String]

        init(_ spelled: [String]) {
            self.spelled = spelled
            names = spelled.map(EpochColumnNaming.canonical)
        }

        /// The spelled columns whose canonical names satisfy `matches`.
        func columns(_ matches: (String) -> Bool) -> [String] {
            zip(names, spelled).filter { matches($0.0) }.map(\.1)
        }

        func has(_ wanted: Set<String>) -> Bool { names.contains(where: wanted.contains) }

        /// The columns that make the header one of `kind`, or nil when it is not.
        func evidence(for kind: Kind) -> [String]? {
            let found: [String]
            switch kind {
            case .sleepstaExport:
                found = columns { $0 == "parameters_key" || $0 == "analysis_id" }
            case .actiLifeSleepSummary:
                let bed = columns { ["in_bed_time", "in_bed_date", "out_bed_time", "sleep_algorithm"].contains($0) }
                let measure = columns { $0 == "efficiency" || $0 == "latency" || $0.hasPrefix("total_sleep_time") || $0.hasPrefix("wake_after_sleep_onset") }
                found = bed.isEmpty || measure.isEmpty ? [] : bed + measure
            case .sleepDiary:
                let parts = [SleepDiary.idTitles, SleepDiary.nightTitles, SleepDiary.startTitles, SleepDiary.endTitles]
                found = parts.allSatisfy(has) ? columns { name in parts.contains { $0.contains(name) } } : []
            case .participantsTable:
                found = names.count <= 4 && has(["id"]) && has(["path", "file", "folder"]) ? columns { ["id", "path", "file", "folder"].contains($0) } : []
            case .nightSummary:
                found = atLeastTwo(columns(Self.isNightMeasure))
            case .participantDetails:
                found = atLeastTwo(columns(Self.participantDetails.contains))
            case .activityDiary:
                found = has(["activity"]) && has(["start"]) && has(["end"]) ? columns { ["activity", "start", "end"].contains($0) } : []
            case .heartBeatIntervals:
                found = columns { ["ibi", "rr", "rr_s", "rr_ms", "rri", "nn"].contains($0) || $0.hasPrefix("ibi_")
                    || $0.hasPrefix("rr_interval") || $0.hasPrefix("nn_interval") }
            case .questionnaire:
                found = atLeastTwo(columns(Self.isQuestionnaireScore))
            case .salivaSamples:
                found = columns { $0.contains("cortisol") || $0.contains("melatonin") || $0.contains("amylase") }
            case .wearPeriods:
                let wear = columns { $0 == "wear" || $0.hasPrefix("nonwear") || $0.hasPrefix("non_wear") }
                found = wear.isEmpty || !has(["period_start", "start"]) ? [] : wear
            }
            return found.isEmpty ? nil : found
        }

        private func atLeastTwo(_ found: [String]) -> [String] { found.count >= 2 ? found : [] }

        static let nightMeasures: Set<String> = [
            "tst", "se", "sol", "waso", "efficiency", "latency", "sleep_latency", "awakenings", "number_of_awakenings",
            "sleeponset", "sleep_onset", "wakeup", "wake_up", "sptduration", "spt_duration", "minutesasleep", "minutes_asleep",
            "minutesawake", "minutes_awake", "totalminutesasleep", "totaltimeinbed", "timeinbed", "time_in_bed", "tib",
            "total_minutes_in_bed", "sleep_duration",
        ]
        static let nightMeasurePrefixes = [
            "total_sleep", "sleep_efficiency", "wake_after_sleep_onset", "sleep_onset_latency", "sleep_period", "time_in_bed_",
            "tst_", "waso_", "sol_", "se_",
        ]
        static func isNightMeasure(_ name: String) -> Bool {
            nightMeasures.contains(name) || nightMeasurePrefixes.contains(where: name.hasPrefix)
        }

        static let participantDetails: Set<String> = [
            "gender", "sex", "age", "weight", "height", "bmi", "date_of_birth", "birth_date", "birthdate", "dob",
            "year_of_birth", "birth_year", "handedness", "ethnicity",
        ]

        static let questionnaires = ["meq", "stai", "psqi", "pittsburgh", "panas", "bisbas", "daily_stress", "ess", "epworth",
                                     "isi", "phq", "gad", "bdi", "mctq", "kss"]
        /// `stai`, `stai1`, `stai_trait`, `panas_pos_10`; not `essay` or `isin`.
        static func isQuestionnaireScore(_ name: String) -> Bool {
            questionnaires.contains { q in
                guard name.hasPrefix(q) else { return false }
                let rest = name.dropFirst(q.count)
                return rest.isEmpty || rest.first == "_" || rest.first!.isNumber
            }
        }

        /// A column of movement (raw axes, counts, ENMO …): its file is a recording, or meant to be one.
        static func isMovement(_ name: String) -> Bool {
            if ["x", "y", "z", "vm", "enmo", "counts", "activity_counts", "pim", "zcm", "tat", "acc", "mad"].contains(name) { return true }
            if name.hasPrefix("axis") || name.hasPrefix("accel") || name.hasPrefix("acc_") || name.hasPrefix("enmo_") { return true }
            return ["x", "y", "z"].contains { a in name.hasPrefix(a + "_") || name.hasSuffix("_" + a) }
        }
    }
}
