/// The sleep/wake label of one epoch, as every scorer in SleepCore returns it.
///
/// Raw values follow Actiware's convention (0 = sleep, 1 = wake) so that exported columns
/// can be compared with Actiware exports directly.
public enum SleepWake: UInt8, Sendable, Hashable, Codable, CaseIterable {
    case sleep = 0
    case wake = 1

    /// ActiLife's letter: `S` or `W`.
    public var letter: Character { self == .sleep ? "S" : "W" }

    public var isSleep: Bool { self == .sleep }
}

/// A sleep stage on the coarse scale used by consumer trackers and by yasa's evaluation
/// (0 = wake, 1 = light (N1+N2), 2 = deep (N3), 3 = REM).
///
/// sleepsta's own phase estimate from movement only ever produces `wake`, `light` and `deep`
/// (movement intensity levels inside the sleep period); `rem` exists so that reference
/// hypnograms (PSG) can be represented and compared.
public enum SleepStage: UInt8, Sendable, Hashable, Codable, CaseIterable {
    case wake = 0
    case light = 1
    case deep = 2
    case rem = 3

    public var isSleep: Bool { self != .wake }
    public var sleepWake: SleepWake { self == .wake ? .wake : .sleep }
}
