import ArgumentParser
import Foundation
import SleepCore
import SleepIngest
import SleepPipeline
import SleepReport

/// What `score`, `periods` and `counts` share: the epoch-length syntax, the output format check,
/// notes on stderr, and the exit codes (0 ok, 1 the file cannot be read or used, 2 usage).
enum EpochCommandSupport {
    /// `60s`, `1m`, `5s`, `15s` (a unit is required, as for `--interval`).
    static func epochSeconds(_ text: String?, option: String = "--epoch") throws -> Int? {
        guard let text else { return nil }
        guard let length = IntervalLength(parsing: text) else {
            throw ValidationError("\(option) '\(text)' is not a length: use a number with a unit, e.g. 60s, 30s, 15s, 5s, 1m")
        }
        return length.seconds
    }

    static func checkFormat(_ format: String) throws {
        guard format.lowercased() == "csv" else {
            throw ValidationError("--format '\(format)': only csv is supported for now")
        }
    }

    static func note(_ lines: [String], quiet: Bool) {
        guard !quiet else { return }
        for line in lines { FileHandle.standardError.write(Data("sleepsta: note: \(line)\n".utf8)) }
    }

    /// Runs the library call, mapping its errors to a message on stderr and sleepsta's exit codes.
    static func run(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as IngestError {
            FileHandle.standardError.write(Data("sleepsta: \(error)\n".utf8))
            throw ExitCode(1)
        } catch let error as EpochCommandError {
            FileHandle.standardError.write(Data("sleepsta: \(error)\n".utf8))
            throw ExitCode(error.exitCode)
        } catch let error as PipelineError {
            FileHandle.standardError.write(Data("sleepsta: \(error)\n".utf8))
            throw ExitCode(2)
        } catch let error as CSVOutput.Failure {
            FileHandle.standardError.write(Data("sleepsta: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
