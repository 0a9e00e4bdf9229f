extension SleepDatabase {
    /// An error's description without the SQL statement GRDB appends (`… - while executing \`INSERT …\``):
    /// what a message to the user names, the statement being the store's business.
    public static func shortDescription(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.components(separatedBy: " - while executing").first ?? text
    }
}
