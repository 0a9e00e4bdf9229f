import SleepCore

/// Everything a night page shows, gathered by the pipeline from the store.
public struct NightReportInput: Sendable {
    public var nightID: String
    public var date: CivilDate
    public var timeline: UTCOffsetTimeline
    public var timeZoneName: String?
    public var recordingPath: String
    public var recordingFormat: SourceFormat
    /// Label/value rows about the data (rate, coverage, gaps...).
    public var dataFacts: [(label: String, value: String)]
    public var warnings: [String]
    public var preBedSurvey: [(question: String, answer: String)]
    public var postBedSurvey: [(question: String, answer: String)]
    public var analysis: NightAnalysis
    public var sourceResolutionSeconds: Int
    /// The nights before and after this one in the report (links at the top of the page).
    public var previousNight: (nightID: String, date: CivilDate)? = nil
    public var nextNight: (nightID: String, date: CivilDate)? = nil
    /// Where the zone came from (`recordings.time_zone_source`: `option`, `data`, `assumed-utc`; empty: not known).
    public var timeZoneSource: TimeZoneSource? = nil
    /// Why the recording got its kind (and so this night its method), from `recordings.kind_reason`.
    public var kindReason: String = ""
    /// Relative link to the recording's page (rhythm, actogram), if any.
    public var recordingPage: String? = nil

    public init(nightID: String, date: CivilDate, timeline: UTCOffsetTimeline, timeZoneName: String?, recordingPath: String,
                recordingFormat: SourceFormat, dataFacts: [(label: String, value: String)], warnings: [String],
                preBedSurvey: [(question: String, answer: String)], postBedSurvey: [(question: String, answer: String)],
                analysis: NightAnalysis, sourceResolutionSeconds: Int) {
        self.nightID = nightID; self.date = date; self.timeline = timeline; self.timeZoneName = timeZoneName
        self.recordingPath = recordingPath; self.recordingFormat = recordingFormat; self.dataFacts = dataFacts
        self.warnings = warnings; self.preBedSurvey = preBedSurvey; self.postBedSurvey = postBedSurvey
        self.analysis = analysis; self.sourceResolutionSeconds = sourceResolutionSeconds
    }
}

/// One row of the index page.
public struct IndexRow: Sendable {
    public var nightID: String
    public var date: CivilDate
    public var recordingPath: String
    public var timeline: UTCOffsetTimeline
    public var analysis: NightAnalysis?
    /// The participant the night's recording belongs to (``ParticipantRule``).
    public var participant: Participant
    public init(nightID: String, date: CivilDate, recordingPath: String, timeline: UTCOffsetTimeline, analysis: NightAnalysis?,
                participant: Participant? = nil) {
        self.nightID = nightID; self.date = date; self.recordingPath = recordingPath; self.timeline = timeline; self.analysis = analysis
        self.participant = participant ?? Participant(id: recordingPath)
    }
}

/// A participant's line on the index and the page it links to.
public struct ParticipantIndexEntry: Sendable {
    public var summary: ParticipantSummary
    /// The participant page, relative to the reports folder (`participants/p07/index.html`).
    public var href: String
    /// The mean nap count per included day (``ParticipantDays/napsPerDay(_:)``); nil where no day
    /// has its periods (older stores, methods that find none): the index then shows "–".
    public var napsPerDay: Double? = nil
    public init(summary: ParticipantSummary, href: String, napsPerDay: Double? = nil) {
        self.summary = summary; self.href = href; self.napsPerDay = napsPerDay
    }
}

