import Foundation
import Testing
import SleepPipeline

/// Issue 14 items 11 and 12: help written for the 80 columns argument-parser wraps to when not on
/// a terminal, `run --help` naming every format, and one name per option (old spellings kept).
@Suite("Command line: help text and option names", .serialized, .enabled(if: SleepstaBinary.path != nil, "sleepsta binary not built"))
struct CommandLineHelpTests {
    static let commands = ["", "run", "nightly", "compare", "export", "score", "periods", "counts", "inspect"]

    func sleepsta(_ arguments: [String], in directory: String = NSTemporaryDirectory()) throws -> ChildProcess.Outcome {
        try ChildProcess.sleepsta(arguments, in: directory, outputPrefix: NSTemporaryDirectory() + "sleepsta-cli-\(UUID().uuidString)").wait()
    }

    /// Words a hard line break left on the next line although they fit on this one (argument-parser
    /// fills lines to 79 columns of its 80): the sign of
    /// text wrapped by hand and then again by argument-parser.
    static func rewrapped(_ help: String, width: Int = 79) -> [String] {
        let lines = help.components(separatedBy: "\n")
        var found: [String] = []
        for (a, b) in zip(lines, lines.dropFirst()) where !a.isEmpty && !b.isEmpty && !b.hasPrefix(" ") && !a.hasPrefix(" ")
            && !a.hasSuffix(":") && !b.hasPrefix("USAGE") && !b.hasPrefix("OPTIONS") && !b.hasPrefix("ARGUMENTS") && !b.hasPrefix("SUBCOMMANDS") {
            let firstWord = b.split(separator: " ").first.map(String.init) ?? b
            if a.count + 1 + firstWord.count <= width { found.append(a + " ⏎ " + b) }
        }
        // An indented line (an example, an option's help) wrapped onto column 0.
        for (a, b) in zip(lines, lines.dropFirst()) where a.hasPrefix("  ") && !b.isEmpty && !b.hasPrefix(" ")
            && !b.hasSuffix(":") && !["USAGE", "OPTIONS", "ARGUMENTS", "SUBCOMMANDS", "Epoch", "Column", "Exit"].contains(where: { b.hasPrefix($0) }) {
            found.append(a + " ⏎ " + b)
        }
        return found
    }

    @Test("every command's help fits 80 columns without text wrapped twice")
    func helpAt80Columns() throws {
        for command in Self.commands {
            let outcome = try sleepsta((command.isEmpty ? [] : [command]) + ["--help"])
            let help = outcome.stdout
            #expect(help.contains("OVERVIEW:"), "\(command)")
            let overview = help.components(separatedBy: "USAGE:")[0]
            #expect(Self.rewrapped(overview).isEmpty, "sleepsta \(command) --help:\n\(Self.rewrapped(overview).joined(separator: "\n"))")
            for line in overview.components(separatedBy: "\n") { #expect(line.count <= 80, "\(command): \(line)") }
        }
    }

    @Test("run --help names every format the pipeline reads")
    func runHelpListsFormats() throws {
        let help = try sleepsta(["run", "--help"]).stdout
        for format in ["timestamp,x,y,z", "JSON export", ".gt3x", "ActiLife raw CSV", ".cwa", ".bin", "Sleep as Android", "SensorLog", "Sensor Logger", "further columns", "gzip"] {
            #expect(help.contains(format), "\(format)")
        }
    }

    @Test("one name per option: -q, -v, -o, --format, --wake-threshold everywhere they apply; the old spellings still parse")
    func optionNames() throws {
        for (command, names) in [("run", ["-q, --quiet", "-v, --verbose", "--wake-threshold"]), ("nightly", ["-q, --quiet", "-v, --verbose"]),
                                 ("compare", ["-q, --quiet", "-v, --verbose", "--wake-threshold"]), ("export", ["-o, --output", "--format", "periods    one row per sleep period", "days       one row per participant day"]),
                                 ("score", ["-q, --quiet", "-o, --output", "--format", "--wake-threshold"]),
                                 ("periods", ["-q, --quiet", "-o, --output", "--format"]), ("counts", ["-q, --quiet", "-o, --output", "--format"]),
                                 ("inspect", ["--format <format>"])] {
            let help = try sleepsta([command, "--help"]).stdout
            for name in names { #expect(help.contains(name), "\(command) lacks \(name)") }
        }
        // Short flags parse (the two exclude each other: the validation error proves both were read).
        let both = try sleepsta(["run", "-q", "-v", "--data", "/nonexistent"])
        #expect(both.exitCode == 2 && both.stderr.contains("--verbose and --quiet exclude each other"), "\(both.stderr)")
        // score: --wake-threshold and the old --threshold are the same option (the missing file fails after parsing: exit 1, not 2).
        for spelling in ["--wake-threshold", "--threshold"] {
            let outcome = try sleepsta(["score", "/nonexistent.agd", "--algorithm", "oakley", spelling, "40", "-q", "-o", "/tmp/never.csv"])
            #expect(outcome.exitCode == 1, "\(spelling): \(outcome.stderr)")
        }
        // inspect: --format json and the old --json print the same.
        let dir = NSTemporaryDirectory() + "sleepsta-inspect-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Workspace.phoneNight(startUTC: PipelineTests.night1Start, hours: 1).write(toFile: dir + "/a.csv", atomically: true, encoding: .utf8)
        let json = try sleepsta(["inspect", "a.csv", "--json"], in: dir), format = try sleepsta(["inspect", "a.csv", "--format", "json"], in: dir)
        #expect(json.exitCode == 0 && json.stdout == format.stdout && json.stdout.hasPrefix("{"))
        #expect(try sleepsta(["inspect", "a.csv", "--format", "xml"], in: dir).exitCode == 2)
    }
}
