/// Awakenings that one interval length sees and the other does not, in both directions.
///
/// An awakening of the reference (shorter-interval) hypnogram, i.e. a wake run inside its sleep
/// period that sleep follows (``IntervalHypnogram/awakenings``), is **hidden** by the longer
/// interval when every interval of the longer hypnogram that overlaps the awakening's time is
/// sleep there: the longer interval's majority vote (or its sleep period) swallowed it. An
/// awakening that overlaps at least one wake interval of the longer hypnogram (even one that
/// lies before its sleep onset or after its wake time) is not hidden.
///
/// The other direction counts as much: an awakening of the longer hypnogram during which the
/// reference scores sleep throughout **appears** only at the longer length (a grid that cuts the
/// data differently can make a wake interval out of wake epochs the shorter grid split between
/// two sleep intervals).
///
/// The awakenings found by either length are the larger of two counts: the reference's plus
/// those found only by the test, and the test's plus those hidden by it. Each count starts from
/// one length's own awakenings, so the result is never below either length's count, even where
/// one length splits an awakening in two that the other sees as one (then neither split part is
/// "found only" by its length, and a count from the other length alone would miss one).
public struct HiddenAwakenings: Sendable, Equatable, Codable {
    /// Awakenings of the reference hypnogram.
    public var referenceAwakenings: Int
    /// Those of them the test hypnogram scores as sleep throughout.
    public var hidden: [IntervalHypnogram.Bout]
    /// Awakenings of the test hypnogram that the reference scores as sleep throughout.
    public var appeared: [IntervalHypnogram.Bout]

    public var hiddenCount: Int { hidden.count }
    /// Wake minutes of the hidden awakenings (at the reference resolution).
    public var hiddenMinutes: Double { hidden.reduce(0) { $0 + $1.minutes } }
    public var appearedCount: Int { appeared.count }
    /// Wake minutes of the awakenings only the test length found (at the test resolution).
    public var appearedMinutes: Double { appeared.reduce(0) { $0 + $1.minutes } }
    /// Awakenings of the test hypnogram.
    public var testAwakenings: Int
    /// Awakenings found by either length: never below ``referenceAwakenings`` nor ``testAwakenings``.
    public var eitherCount: Int { max(referenceAwakenings + appearedCount, testAwakenings + hiddenCount) }

    public init(referenceAwakenings: Int, hidden: [IntervalHypnogram.Bout], appeared: [IntervalHypnogram.Bout], testAwakenings: Int) {
        self.referenceAwakenings = referenceAwakenings; self.hidden = hidden; self.appeared = appeared
        self.testAwakenings = testAwakenings
    }

    public static func compute(reference: IntervalHypnogram, test: IntervalHypnogram) -> HiddenAwakenings {
        let bouts = reference.awakenings
        return HiddenAwakenings(referenceAwakenings: bouts.count,
                                hidden: bouts.filter { asleepThroughout($0, in: test) },
                                appeared: test.awakenings.filter { asleepThroughout($0, in: reference) },
                                testAwakenings: test.awakenings.count)
    }

    /// Whether every interval of `hypnogram` overlapping the bout is sleep (outside the hypnogram
    /// nothing is scored sleep).
    static func asleepThroughout(_ bout: IntervalHypnogram.Bout, in hypnogram: IntervalHypnogram) -> Bool {
        var t = bout.startUTC
        while t < bout.endUTC {
            guard let j = hypnogram.index(atUTC: t), hypnogram.stages[j].isSleep else { return false }
            t = hypnogram.startUTC + Int64((j + 1) * hypnogram.intervalSeconds)
        }
        return true
    }
}
