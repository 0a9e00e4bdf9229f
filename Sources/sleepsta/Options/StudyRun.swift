import ArgumentParser
import SleepCore
import SleepPipeline

/// `run` and `nightly` from their options: the study file read, the last run's parameters taken
/// (`nightly`) or named where `run` drops them, the configuration, and what to say before the
/// summary.
struct StudyRun {
    var configuration: PipelineConfiguration
    var options: PipelineOptions
    /// Lines printed before the summary: options overriding the study file, options `run` drops.
    var notes: [String]
    /// `protocol.toml`'s text (``ProtocolFile``).
    var protocolText: String

    static func prepare(_ given: PipelineOptions, inclusion: InclusionOptions, command: String) throws -> StudyRun {
        let every = Set(RememberedParameter.all.map(\.key))
        var study = try StudyOptions(given)
        // A cron line without --study keeps the study file the last run read.
        if command == "nightly", study.study == nil, given.study == nil,
           let last = try? RunParameters.remembered(databasePath: given.db, given: every), let path = last.parameters.study?.path {
            study = try StudyOptions(given, remembered: path)
        }
        let o = study.options
        let rule = try inclusion.resolved(study: study.study)
        study.fromCommandLine.formUnion(inclusion.givenKeys)
        study.fromStudy.subtract(inclusion.givenKeys)
        var notes = study.overrides + rule.notes
        var taken: Set<String> = []
        var c: PipelineConfiguration
        if command == "nightly" {
            let remembered = try PipelineInvocation.environment { try RunParameters.remembered(databasePath: o.db, given: o.givenParameters) }
            c = try o.configuration(command: command, remembered: remembered?.parameters)
            if remembered != nil { taken = every.subtracting(o.givenParameters) }
        } else {
            c = try o.configuration(command: command)
            // `run` takes no remembered value; a row it cannot read only costs this note.
            if study.study == nil, let last = try? RunParameters.remembered(databasePath: o.db, given: []) {
                notes += dropped(RunParameters(c).changes(from: last.parameters), given: o.givenParameters)
            }
        }
        c.study = study.study?.stamp
        c.inclusion = rule.rule
        return StudyRun(configuration: c, options: o, notes: notes, protocolText: ProtocolFile.text(c, study: study, remembered: taken))
    }

    /// The line saying which of the last run's options `run` does not carry over (``RunParameters/changes(from:)``
    /// phrases of the parameters not given), empty when it drops none.
    static func dropped(_ changes: [String], given: Set<String>) -> [String] {
        let keys = RememberedParameter.all.map(\.key).filter { !given.contains($0) }
        let lost = changes.filter { change in keys.contains { change.hasPrefix($0 + " ") } }
        guard !lost.isEmpty else { return [] }
        var line = "run uses only the options it is given, so these of the last run are not used: " + lost.joined(separator: "; ")
        if lost.contains(where: { $0.hasPrefix("tz ") }) {
            line += " (recordings stored with a zone keep it; new files that state none are read on the UTC clock)"
        }
        return [line + ". Give them again, keep them in a study file (docs/study-file.md), or use nightly, which reuses them."]
    }
}
