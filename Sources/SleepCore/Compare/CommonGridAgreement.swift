/// Epoch-level agreement of two interval hypnograms of the same night at different interval
/// lengths, after mapping both to a common time grid.
///
/// The common grid's cell is the greatest common divisor of the two lengths (5 min for 10 and
/// 15 min, 10 min for 10 and 30 min) and of each grid's offset from the night's local noon (an
/// app export's grid follows the app's own intervals, e.g. 22:55, 23:05 …), so every cell lies
/// inside exactly one interval of each length and takes that interval's label: no cell is split,
/// and every cell weighs the same time. Cells count when they overlap
/// the in-bed span (first to last second with data, the same for both lengths) and both
/// hypnograms have an interval there.
///
/// - Sleep/wake: the states the metrics were computed on (``IntervalHypnogram/metricsLabelling(_:)``:
///   the intervals' for phones, the scored epochs' for wearables and epoch files); cells where
///   either state is missing (no scored epoch) are left out. Classes: 0 sleep, 1 wake (``SleepWake``).
/// - Phases: the interval hypnogram (``IntervalHypnogram``): wake (including everything outside
///   the sleep period), light, deep. Classes 0 wake, 1 light, 2 deep.
///
/// Rows of each matrix are the reference (shorter) length, columns the test (longer) length;
/// accuracy and Cohen's κ come from ``ConfusionMatrix``.
public struct CommonGridAgreement: Sendable, Equatable {
    /// Cell length of the common grid, seconds.
    public var cellSeconds: Int
    public var sleepWake: ConfusionMatrix
    public var phases: ConfusionMatrix

    /// Phase classes of ``phases`` (SleepStage order without REM, which movement cannot tell).
    public static let phaseClasses: [SleepStage] = [.wake, .light, .deep]

    public init(cellSeconds: Int, sleepWake: ConfusionMatrix, phases: ConfusionMatrix) {
        self.cellSeconds = cellSeconds; self.sleepWake = sleepWake; self.phases = phases
    }

    /// An empty agreement for pooling nights.
    public static func empty(cellSeconds: Int) -> CommonGridAgreement {
        CommonGridAgreement(cellSeconds: cellSeconds, sleepWake: ConfusionMatrix(classCount: 2),
                            phases: ConfusionMatrix(classCount: phaseClasses.count))
    }

    /// Greatest common divisor of two interval lengths in seconds (the common grid's cell).
    public static func cellSeconds(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }

    /// Offset of a hypnogram's interval grid from `gridOriginUTC`, in `[0, intervalSeconds)`.
    public static func phaseSeconds(_ h: IntervalHypnogram, gridOriginUTC: Int64) -> Int {
        let L = Int64(h.intervalSeconds)
        return Int(h.startUTC - gridOriginUTC - LocalClock.floorDiv(h.startUTC - gridOriginUTC, L) * L)
    }

    /// - Parameters:
    ///   - inBed: `[first, end)` UTC seconds with data (``NightSummaryMetrics/inBedStartUTC`` …).
    ///   - gridOriginUTC: the night window's start, through which the cells run.
    ///   - cellSeconds: a common divisor of both lengths and both grids' phases; nil: the greatest.
    ///   - phases: the interval hypnograms of the phases where the sleep/wake labels are epochs
    ///     (``IntervalHypnogram/metricsLabelling(_:)``); nil: `reference` and `test` themselves.
    public static func compute(reference: IntervalHypnogram, test: IntervalHypnogram,
                               phases: (reference: IntervalHypnogram, test: IntervalHypnogram)? = nil,
                               inBed: (startUTC: Int64, endUTC: Int64), gridOriginUTC: Int64,
                               cellSeconds given: Int? = nil) -> CommonGridAgreement {
        let all = [reference, test] + (phases.map { [$0.reference, $0.test] } ?? [])
        let cell = given ?? all.reduce(0) { c, h in
            cellSeconds(c, cellSeconds(h.intervalSeconds, phaseSeconds(h, gridOriginUTC: gridOriginUTC)))
        }
        let phaseReference = phases?.reference ?? reference, phaseTest = phases?.test ?? test
        var result = empty(cellSeconds: cell)
        let C = Int64(cell)
        let from = max(reference.startUTC, test.startUTC, inBed.startUTC)
        let to = min(reference.endUTC, test.endUTC, inBed.endUTC)
        guard to > from else { return result }
        // First cell overlapping `from`, on the grid through the night's noon (and both grids).
        var c = gridOriginUTC + LocalClock.floorDiv(from - gridOriginUTC, C) * C
        while c < to {
            if let i = reference.index(atUTC: c), let j = test.index(atUTC: c),
               let r = reference.states[i], let t = test.states[j] {
                result.sleepWake.add(reference: Int(r.rawValue), test: Int(t.rawValue))
            }
            if let i = phaseReference.index(atUTC: c), let j = phaseTest.index(atUTC: c) {
                result.phases.add(reference: phaseClass(phaseReference.stages[i]), test: phaseClass(phaseTest.stages[j]))
            }
            c += C
        }
        return result
    }

    static func phaseClass(_ s: SleepStage) -> Int {
        switch s {
        case .wake: return 0
        case .light, .rem: return 1
        case .deep: return 2
        }
    }

    /// Adds another night's cells (pooled agreement over nights).
    public mutating func add(_ other: CommonGridAgreement) {
        precondition(other.cellSeconds == cellSeconds, "different grids")
        sleepWake.add(other.sleepWake)
        phases.add(other.phases)
    }
}
