/// Awakenings that a longer interval hides.
///
/// An awakening of the reference (shorter-interval) hypnogram, i.e. a wake run inside its sleep
/// period that sleep follows (``IntervalHypnogram/awakenings``), is **hidden** by the longer
/// interval when every interval of the longer hypnogram that overlaps the awakening's time is
/// sleep there: the longer interval's majority vote (or its sleep period) swallowed it. An
/// awakening that overlaps at least one wake interval of the longer hypnogram (even one that
/// lies before its sleep onset or after its wake time) is not hidden.
public struct HiddenAwakenings: Sendable, Equatable, Codable {
    /// Awakenings of the reference hypnogram.
    public var referenceAwakenings: Int
    /// Those of them the test hypnogram scores as sleep throughout.
    public var hidden: [IntervalHypnogram.Bout]

    public var hiddenCount: Int { hidden.count }
    /// Wake minutes of the hidden awakenings (at the reference resolution).
    public var hiddenMinutes: Double { hidden.reduce(0) { $0 + $1.minutes } }

    public init(referenceAwakenings: Int, hidden: [IntervalHypnogram.Bout]) {
        self.referenceAwakenings = referenceAwakenings; self.hidden = hidden
    }

    public static func compute(reference: IntervalHypnogram, test: IntervalHypnogram) -> HiddenAwakenings {
        let bouts = reference.awakenings
        let hidden = bouts.filter { bout in
            var t = bout.startUTC
            while t < bout.endUTC {
                // Outside the test hypnogram nothing is scored sleep: not hidden.
                guard let j = test.index(atUTC: t), test.stages[j].isSleep else { return false }
                t = test.startUTC + Int64((j + 1) * test.intervalSeconds)
            }
            return true
        }
        return HiddenAwakenings(referenceAwakenings: bouts.count, hidden: hidden)
    }
}
