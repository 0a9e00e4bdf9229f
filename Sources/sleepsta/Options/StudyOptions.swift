import ArgumentParser
import Foundation
import SleepCore
import SleepIngest
import SleepPipeline

/// `run` and `nightly` with a study file (``StudyFile``): the options it gives, checked as the
/// command line checks them, and where each value in force came from, for the protocol file.
///
/// Precedence, from strongest: the command line, the study file, (`nightly` only) the last run's
/// remembered parameters, the defaults. An option given on the command line that differs from the
/// study file's key is said at the start of the run and written into the protocol.
struct StudyOptions {
    /// The options with the study file's keys filled in where the command line gives none.
    var options: PipelineOptions
    var study: StudyFile?
    /// The keys the command line gives (``StudyFile/keys`` names).
    var fromCommandLine: Set<String>
    /// The keys the study file gives and the command line does not.
    var fromStudy: Set<String>
    /// "--tz Europe/Paris overrides the study file's tz "Europe/Berlin"", one line a key.
    var overrides: [String]

    /// `--study`, else `sleepsta.toml` at the data folder's root, else `remembered` (the study file
    /// of the last run, for `nightly`) while it exists.
    static func path(_ options: PipelineOptions, remembered: String? = nil) -> String? {
        if let given = options.study { return given }
        let atRoot = options.data + "/" + StudyFile.fileName
        if FileManager.default.fileExists(atPath: atRoot) { return atRoot }
        if let remembered, FileManager.default.fileExists(atPath: remembered) { return remembered }
        return nil
    }

    init(_ given: PipelineOptions, remembered: String? = nil) throws {
        options = given
        fromCommandLine = Self.givenKeys(given)
        fromStudy = []
        overrides = []
        guard let path = Self.path(given, remembered: remembered) else { study = nil; return }
        let study: StudyFile
        do { study = try StudyFile.read(path: path) } catch { throw ValidationError("study file: \(error)") }
        self.study = study
        for key in StudyFile.keys.map(\.name) where study.values[key] != nil {
            if fromCommandLine.contains(key) {
                if let note = Self.override(key, study: study, options: given) { overrides.append(note) }
            } else {
                try apply(key, from: study)
                fromStudy.insert(key)
            }
        }
        try options.validate()
    }

    /// The study-file keys the command line gives.
    static func givenKeys(_ o: PipelineOptions) -> Set<String> {
        let given: [(String, Bool)] = [
            ("data", o.dataOption != nil), ("db", o.dbOption != nil), ("reports", o.reportsOption != nil),
            ("ignore", !o.ignore.isEmpty), ("diary", o.diary != nil || o.noDiary),
        ]
        return Set(given.filter { $0.1 }.map { $0.0 }).union(o.givenParameters.filter { $0 != "diary" })
    }

    private mutating func apply(_ key: String, from study: StudyFile) throws {
        func value<T: ExpressibleByArgument>(_ type: T.Type) throws -> T {
            let text = study.text(key) ?? ""
            guard let v = T(argument: text) else {
                let values = T.allValueStrings.isEmpty ? "" : ": expected one of " + T.allValueStrings.joined(separator: ", ")
                throw ValidationError("study file \(study.place(key)): '\(PrintableText.escaped(text))' is not a value of --\(key)\(values)")
            }
            return v
        }
        switch key {
        case "title": break
        case "data": options.dataOption = study.text(key)
        case "db": options.dbOption = study.text(key)
        case "reports": options.reportsOption = study.text(key)
        case "tz": options.tz = study.text(key)
        case "interval": options.interval = try value(IntervalLength.self)
        case "metric": options.metric = try value(MovementMetric.self)
        case "kind": options.kind = try value(KindOption.self)
        case "sleep-algorithm": options.sleepAlgorithm = try value(SleepAlgorithmOption.self)
        case "method": options.method = try value(NightMethodChoice.self)
        case "units": options.units = try value(AccelerationUnits.self)
        case "diary": options.diary = study.text(key)
        case "participants": options.participants = study.text(key)
        case "wake-threshold":
            guard case .number(let n)? = study.values[key] else { return }
            do { try NumberOption.checkWakeThreshold(n) } catch { throw ValidationError("study file \(study.place(key)): \(error)") }
            options.wakeThreshold = n
        case "ignore":
            if case .strings(let globs)? = study.values[key] { options.ignore = globs }
        default: break
        }
    }

    /// The line saying that the command line's value wins over the study file's, nil when they agree.
    private static func override(_ key: String, study: StudyFile, options: PipelineOptions) -> String? {
        let fileValue: String
        switch study.values[key] {
        case .string(let s)?: fileValue = s
        case .number(let n)?: fileValue = NumberOption.text(n)
        case .strings(let g)?: fileValue = g.joined(separator: ", ")
        default: return nil
        }
        let given = ProtocolFile.values(options)[key] ?? ""
        guard given != fileValue else { return nil }
        return "--\(key) \(given.isEmpty ? "(none)" : given) overrides the study file's \(key) \"\(fileValue)\" (\(study.place(key)))"
    }
}
