import SleepStore

extension Pipeline {
    /// Runs left `running` by a process that died (SIGKILL, power loss) become `interrupted`.
    /// Called with the run lock held, so none of them can still be alive.
    func markInterruptedRuns(_ db: SleepDatabase) throws {
        let ids = try db.markRunsInterrupted()
        if !ids.isEmpty {
            logger.notice("run(s) \(ids.map(String.init).joined(separator: ", ")) did not finish (killed?); marked interrupted")
        }
    }
}
