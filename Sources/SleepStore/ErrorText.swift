extension SleepDatabase {
    /// An error's description without the SQL statement GRDB appends (`… - while executing \`INSERT …\``):
    /// what a message to the user names, the statement being the store's business. SQLite's "busy"
    /// (another program held the database past the wait) says who and what to do (``BusyWait``).
    public static func shortDescription(_ error: any Error) -> String {
        if BusyWait.isBusy(error) { return BusyWait.explanation() }
        let text = String(describing: error)
        return text.components(separatedBy: " - while executing").first ?? text
    }
}
