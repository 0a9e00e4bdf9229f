import ArgumentParser
import SleepCore

/// The study inclusion rule (`export --what groups|inclusion|exclusions|quality` and the index's
/// Table 1): which nights are valid and which participants have enough of them. 0 is no rule.
struct InclusionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Study tables: leave out a participant with fewer valid nights than this (0: no rule; default).", valueName: "N"))
    var minValidNights: Int = 0

    @Option(name: .long, help: ArgumentHelp("Study tables: a scored night is valid when worn at least this many hours (0: every scored night; default).", valueName: "H"))
    var minWearHours: Double = 0

    func validate() throws {
        guard minValidNights >= 0 else { throw ValidationError("--min-valid-nights must be 0 or more, got \(minValidNights)") }
        guard minWearHours.isFinite, minWearHours >= 0, minWearHours <= 24 else {
            throw ValidationError("--min-wear-hours must be between 0 and 24, got \(minWearHours)")
        }
    }

    var rule: InclusionRule { InclusionRule(minValidNights: minValidNights, minWearHours: minWearHours) }
}
