import SleepCore
import SleepStore

/// Which nights a run renders report files for.
public enum ReportScope: Sendable, Equatable {
    /// Every night (`run`): a deleted or edited Reports folder is rebuilt.
    case all
    /// Only nights ingested or analysed in this run and nights whose files are missing, plus the
    /// index (`nightly`) — unless the reports on disk may not match the store, see ``renderAllReason``.
    case affected

    /// Why an `affected` run must nevertheless render every night, or nil when the nights it
    /// touches are enough. The reports folder holds what the previous run wrote only if that run
    /// finished (a killed or failed run may have stored nights it never rendered), with the same
    /// tool version (templates change between versions) and the same parameters and folders
    /// (`parametersJSON` holds both).
    public static func renderAllReason(previousRun: RunRecord?, toolVersion: String, parametersJSON: String) -> String? {
        guard let previous = previousRun else { return "first run on this database" }
        if previous.finishedUTC == nil || !["ok", "some-files-failed"].contains(previous.status) {
            return "the previous run (\(previous.startedUTC)) did not finish"
        }
        if previous.toolVersion != toolVersion { return "the previous run used sleepsta \(previous.toolVersion)" }
        if previous.parametersJSON != parametersJSON { return otherParameters }
        return nil
    }

    static let otherParameters = "the previous run used other parameters or folders"

    /// What an `affected` run renders besides the nights it touched.
    public enum Extent: Sendable, Equatable {
        /// Nothing more.
        case affected
        /// Every night, for this reason (``renderAllReason(previousRun:toolVersion:parametersJSON:)``).
        case all(String)
        /// The nights of these kinds: only the analysis changed (``kindsWithNewAnalysis(previousRun:parametersJSON:)``).
        case kinds(Set<RecordingKind>)
    }

    public static func extent(previousRun: RunRecord?, toolVersion: String, parametersJSON: String) -> Extent {
        switch renderAllReason(previousRun: previousRun, toolVersion: toolVersion, parametersJSON: parametersJSON) {
        case nil: return .affected
        case .some(otherParameters): return kindsWithNewAnalysis(previousRun: previousRun, parametersJSON: parametersJSON).map(Extent.kinds) ?? .all(otherParameters)
        case let reason?: return .all(reason)
        }
    }

    /// The recording kinds whose nights a change of the analysis alone gives new pages, when the
    /// previous run differs from this one (`parametersJSON`) in nothing but the analysis parameters
    /// (`--method`, the interval, the diary's content, thresholds): a page shows its night's
    /// analysis under its kind's key, so the nights of a kind whose key stayed show nothing new.
    /// `--method ggir` changes the wrist nights' key only; an interval, the phone nights' only.
    /// nil when anything else differs (zone, folders, kind and unit options, diary path,
    /// participants, study file), which may change every page, or when either row cannot be read.
    public static func kindsWithNewAnalysis(previousRun: RunRecord?, parametersJSON: String) -> Set<RecordingKind>? {
        guard let previousJSON = previousRun?.parametersJSON,
              var before = try? RunParameters.remembered(parametersJSON: previousJSON, given: []),
              let now = try? RunParameters.remembered(parametersJSON: parametersJSON, given: []) else { return nil }
        let old = NightAnalysisMethods.keys(before.analysis), new = NightAnalysisMethods.keys(now.analysis)
        before.analysis = now.analysis; before.key = now.key
        guard before == now else { return nil }
        return Set(RecordingKind.allCases.filter { old[$0] != new[$0] })
    }
}
