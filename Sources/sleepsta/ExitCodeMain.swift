import ArgumentParser
import Foundation
import SleepPipeline

extension Sleepsta {
    /// argument-parser exits 64 (EX_USAGE) on a bad option; sleepsta's contract with cron is 2 for
    /// every usage or environment error, so usage errors are mapped here. Help and version still exit 0.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitStatus.environment)
            }
            exit(withError: error)
        }
    }
}
