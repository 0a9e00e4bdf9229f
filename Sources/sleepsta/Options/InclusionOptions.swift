import ArgumentParser
import SleepCore
import SleepIngest

/// The study inclusion rule (`export --what groups|inclusion|exclusions|quality` and the index's
/// Table 1): which nights are valid and which participants have enough of them. 0 is no rule.
struct InclusionOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Study tables: leave out a participant with fewer valid nights than this (0: no rule; default; run and nightly: the study file's min-valid-nights).", valueName: "N"))
    var minValidNights: Int?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Study tables: a scored night is valid when worn at least this many hours (0: every scored night; default; run and nightly: the study file's min-wear-hours).", valueName: "H"))
    var minWearHours: Double?

    func validate() throws {
        if let minValidNights { try Self.checkNights(Double(minValidNights), option: "--min-valid-nights") }
        if let minWearHours { try Self.checkHours(minWearHours, option: "--min-wear-hours") }
    }

    static func checkNights(_ n: Double, option: String) throws {
        guard n >= 0, n <= 10_000, n == n.rounded() else { throw ValidationError("\(option) must be a whole number from 0 to 10000, got \(NumberOption.text(n))") }
    }

    static func checkHours(_ h: Double, option: String) throws {
        guard h.isFinite, h >= 0, h <= 24 else { throw ValidationError("\(option) must be between 0 and 24, got \(NumberOption.text(h))") }
    }

    var rule: InclusionRule { InclusionRule(minValidNights: minValidNights ?? 0, minWearHours: minWearHours ?? 0) }

    /// The rule of `run` and `nightly`: each value from the command line, else the study file's
    /// key (checked as the option checks it), else 0; with a line for each option that overrides the file.
    func resolved(study: StudyFile?) throws -> (rule: InclusionRule, notes: [String]) {
        var r = rule, notes: [String] = []
        let keys: [(key: String, given: Double?, check: (Double, String) throws -> Void, take: (inout InclusionRule, Double) -> Void)] = [
            ("min-valid-nights", minValidNights.map(Double.init), Self.checkNights, { $0.minValidNights = Int($1) }),
            ("min-wear-hours", minWearHours, Self.checkHours, { $0.minWearHours = $1 }),
        ]
        for k in keys {
            guard let study, case .number(let value)? = study.values[k.key] else { continue }
            do { try k.check(value, k.key) } catch { throw ValidationError("study file \(study.place(k.key)): \(error)") }
            if let given = k.given, given != value {
                notes.append("--\(k.key) \(NumberOption.text(given)) overrides the study file's \(k.key) \(NumberOption.text(value)) (\(study.place(k.key)))")
            } else if k.given == nil { k.take(&r, value) }
        }
        return (r, notes)
    }

    /// The keys the command line gives.
    var givenKeys: Set<String> {
        Set([minValidNights != nil ? "min-valid-nights" : nil, minWearHours != nil ? "min-wear-hours" : nil].compactMap { $0 })
    }
}
