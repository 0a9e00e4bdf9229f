import ArgumentParser
import Foundation
import SleepIngest

package struct Inspect: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "Describe recording files without writing anything: format, device, sample rate, time span, time zone, units and quality.",
        discussion: """
        Reads each file with the reader the pipeline would use and prints what it found, including the quality facts (gaps, sample-rate drift, repeated or backward timestamps, clipping, idle sleep, still periods). A file that cannot be read is reported with file, line or offset and what was expected; a table that is no recording (a sleep summary, a diary, participant details) is described as such ("not a recording: …") and counts as read. Exit codes: 0 all files read; 1 some could not be read; 2 usage error.
        """)

    @Argument(help: ArgumentHelp("Recording files (any supported format, also gzip-compressed).", valueName: "file"))
    var files: [String]

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(ZoneOption.help + ".", valueName: "zone"))
    package var tz: String?

    @Option(name: .long, help: ArgumentHelp("Output format: text or json.", valueName: "format"))
    var format: String = "text"

    /// The old spelling of `--format json`, kept working.
    @Flag(name: .long, help: "Same as --format json.")
    var json = false

    var asJSON: Bool { json || format == "json" }

    package func validate() throws {
        guard format == "text" || format == "json" else { throw ValidationError("--format must be text or json") }
        _ = try ZoneOption.zone(tz)
    }

    package func run() throws {
        var failed = false
        let zone = try ZoneOption.zone(tz)
        for (k, file) in files.enumerated() {
            do {
                let inspection = try RecordingInspector.inspect(path: file, options: IngestOptions(timeZoneIdentifier: zone))
                print((k > 0 && !asJSON ? "\n" : "") + (asJSON ? RecordingInspector.json(inspection) : RecordingInspector.text(inspection)))
            } catch where error.notRecording != nil {
                // A table beside the recordings (a sleep summary, a diary …): said, not failed.
                let f = error.notRecording!
                print((k > 0 && !asJSON ? "\n" : "") + (asJSON ? RecordingInspector.json(notRecording: f, path: file) : RecordingInspector.text(notRecording: f, path: file)))
            } catch {
                FileHandle.standardError.write(Data("sleepsta: \(error)\n".utf8))
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}
