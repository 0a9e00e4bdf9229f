import ArgumentParser
import SleepPipeline

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ingest every recording under a folder, analyse each night, store it and render the reports.",
        discussion: """
        Files are recognised by content (SHA-256): a file already in the database is skipped, a changed
        file replaces its earlier version, and nights are re-analysed from the stored per-second series
        when the parameters change. Report files are rewritten only when their content changes.

        Formats: raw-sample CSV `timestamp,x,y,z` (g) and the Sleepsta app's JSON export (see README).
        """)

    @OptionGroup var options: PipelineOptions

    func run() throws {
        try PipelineInvocation.execute(try options.configuration(command: "run"), options: options, quietUnlessTerminal: false)
    }
}
