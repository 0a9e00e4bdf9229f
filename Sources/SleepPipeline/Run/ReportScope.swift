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
        if previous.parametersJSON != parametersJSON { return "the previous run used other parameters or folders" }
        return nil
    }
}
