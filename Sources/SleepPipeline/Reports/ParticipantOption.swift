import SleepCore
import SleepIngest
import SleepStore

/// `--participants`: a rule (`file`, `folder`, `folder:N`) or the path of a participants table.
public enum ParticipantOption {
    public static func rule(_ spec: String) throws -> ParticipantRule {
        if let rule = ParticipantRule.parse(spec) { return rule }
        do { return .table(try ParticipantsTable.read(path: spec)) } catch {
            throw PipelineError.environment("'\(spec)' is neither file, folder, folder:N nor a readable participants table: \(error)")
        }
    }

    /// The rule the last finished run of `runs` used (each file when it recorded none or it can no longer be read).
    package static func remembered(runs: [RunRecord]) -> ParticipantRule {
        guard let run = runs.last(where: { ["run", "nightly"].contains($0.command) && $0.finishedUTC != nil }),
              let spec = RunParameters.recorded(in: run)?.participants else { return .file }
        return (try? rule(spec)) ?? .file
    }
}
