import ArgumentParser
import Foundation
import SleepCore
import SleepIngest
import SleepPipeline
import SleepReport

/// What `score`, `periods` and `counts` share besides their options (``EpochOutputOptions``):
/// notes on stderr, and the exit codes (0 ok, 1 the file cannot be read or used, 2 usage).
enum EpochCommandSupport {
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
