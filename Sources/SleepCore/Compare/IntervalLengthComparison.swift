/// The comparison of one set of nights analysed at several interval lengths: per night and
/// length the analysis, and for each longer length against the shortest (the reference) the
/// per-night differences of every night metric, their agreement across nights, the epoch-level
/// agreement on a common grid, and the awakenings the longer interval hides.
///
/// Pure: the nights' analyses come in, numbers go out; the same input gives the same output.
public struct IntervalLengthComparison: Sendable, Equatable {
    /// One night with its analysis at every compared length (same order as ``lengths``).
    public struct Night: Sendable, Equatable {
        public var nightID: String
        /// The night window's start (local noon): origin of both interval grids.
        public var windowStartUTC: Int64
        public var analyses: [NightAnalysis]
        public init(nightID: String, windowStartUTC: Int64, analyses: [NightAnalysis]) {
            self.nightID = nightID; self.windowStartUTC = windowStartUTC; self.analyses = analyses
        }
    }

    /// One night's comparison of a pair of lengths.
    public struct PairNight: Sendable, Equatable {
        public var nightID: String
        /// The night-analysis method (recording kind) of the night.
        public var kind: RecordingKind = .phoneInBed
        /// Whether the method scores sleep/wake per interval, so that its metrics depend on the length.
        public var metricsDependOnInterval = true
        /// Metric values at the reference and test lengths, in ``ComparedMetric/allCases`` order.
        public var reference: [Double?]
        public var test: [Double?]
        public var grid: CommonGridAgreement
        public var hiddenAwakenings: HiddenAwakenings

        /// test − reference for a metric; nil when undefined at either length.
        public func difference(_ metric: ComparedMetric) -> Double? {
            let k = ComparedMetric.allCases.firstIndex(of: metric)!
            guard let r = reference[k], let t = test[k] else { return nil }
            return t - r
        }
        public func referenceValue(_ metric: ComparedMetric) -> Double? { reference[ComparedMetric.allCases.firstIndex(of: metric)!] }
        public func testValue(_ metric: ComparedMetric) -> Double? { test[ComparedMetric.allCases.firstIndex(of: metric)!] }
    }

    /// The agreement of one method's nights (one recording kind) of a pair.
    public struct MethodAgreement: Sendable, Equatable {
        public var kind: RecordingKind
        /// Whether this method's metrics depend on the interval length (phones); the others'
        /// differ by design only in the phase minutes.
        public var metricsDependOnInterval: Bool
        public var nightCount: Int
        /// One per ``ComparedMetric``, in `allCases` order.
        public var metrics: [MetricAgreement]
        public func agreement(_ metric: ComparedMetric) -> MetricAgreement { metrics[ComparedMetric.allCases.firstIndex(of: metric)!] }
    }

    /// A longer length compared with the reference.
    public struct Pair: Sendable, Equatable {
        public var reference: IntervalLength
        public var test: IntervalLength
        /// Nights scored at both lengths, in input order (every method).
        public var nights: [PairNight]
        /// One per ``ComparedMetric``, in `allCases` order, over the nights whose method scores per
        /// interval (``PairNight/metricsDependOnInterval``) only: nights of per-epoch methods have
        /// zero differences by design and would inflate n and the ICC.
        public var metrics: [MetricAgreement]
        /// Per method (recording kind), in ``RecordingKind/allCases`` order, kinds without nights left out.
        public var methods: [MethodAgreement] = []
        /// Nights that enter ``metrics``.
        public var pooledNightCount: Int { nights.filter(\.metricsDependOnInterval).count }
        /// Cells of all nights pooled.
        public var pooledGrid: CommonGridAgreement
        public var referenceAwakenings: Int { nights.reduce(0) { $0 + $1.hiddenAwakenings.referenceAwakenings } }
        public var hiddenAwakenings: Int { nights.reduce(0) { $0 + $1.hiddenAwakenings.hiddenCount } }
        public var hiddenAwakeningMinutes: Double { nights.reduce(0) { $0 + $1.hiddenAwakenings.hiddenMinutes } }
        /// Awakenings of the test length during which the reference scores sleep throughout.
        public var appearedAwakenings: Int { nights.reduce(0) { $0 + $1.hiddenAwakenings.appearedCount } }
        public var appearedAwakeningMinutes: Double { nights.reduce(0) { $0 + $1.hiddenAwakenings.appearedMinutes } }
        /// Awakenings found by either length.
        public var eitherAwakenings: Int { nights.reduce(0) { $0 + $1.hiddenAwakenings.eitherCount } }

        public func agreement(_ metric: ComparedMetric) -> MetricAgreement { metrics[ComparedMetric.allCases.firstIndex(of: metric)!] }
    }

    /// Ascending; the first is the reference.
    public var lengths: [IntervalLength]
    public var nights: [Night]
    /// One per length after the first.
    public var pairs: [Pair]

    /// Nights not scored at every length (status per length), left out of the pairs they miss.
    public var incompleteNights: [(nightID: String, statuses: [NightStatus])] {
        nights.filter { n in n.analyses.contains { $0.status != .scored } }.map { ($0.nightID, $0.analyses.map(\.status)) }
    }

    /// - Parameters:
    ///   - lengths: the compared lengths, ascending and distinct (at least two).
    ///   - nights: each with one analysis per length, in the order of `lengths`.
    public static func compute(lengths: [IntervalLength], nights: [Night]) -> IntervalLengthComparison {
        precondition(lengths.count >= 2 && lengths == lengths.sorted() && Set(lengths).count == lengths.count,
                     "two or more distinct lengths, ascending")
        precondition(nights.allSatisfy { $0.analyses.count == lengths.count }, "one analysis per length")
        let pairs = (1..<lengths.count).map { k in pair(reference: 0, test: k, lengths: lengths, nights: nights) }
        return IntervalLengthComparison(lengths: lengths, nights: nights, pairs: pairs)
    }

    static func pair(reference r: Int, test t: Int, lengths: [IntervalLength], nights: [Night]) -> Pair {
        // One cell for every night of the pair, so pooled cells all weigh the same time.
        var cell = CommonGridAgreement.cellSeconds(lengths[r].seconds, lengths[t].seconds)
        for night in nights {
            let a = night.analyses[r], b = night.analyses[t]
            let hypnograms = [IntervalHypnogram(a), IntervalHypnogram(b),
                              IntervalHypnogram.metricsLabelling(a), IntervalHypnogram.metricsLabelling(b)].compactMap { $0 }
            for h in hypnograms {
                cell = CommonGridAgreement.cellSeconds(cell, CommonGridAgreement.phaseSeconds(h, gridOriginUTC: night.windowStartUTC))
                cell = CommonGridAgreement.cellSeconds(cell, h.intervalSeconds)
            }
        }
        var pooled = CommonGridAgreement.empty(cellSeconds: cell)
        var rows: [PairNight] = []
        for night in nights {
            let a = night.analyses[r], b = night.analyses[t]
            // Sleep/wake and awakenings on the labels the metrics saw (epochs for per-epoch
            // methods); phases on the intervals.
            guard let ma = a.metrics, let mb = b.metrics, let ia = IntervalHypnogram(a), let ib = IntervalHypnogram(b),
                  let ha = IntervalHypnogram.metricsLabelling(a), let hb = IntervalHypnogram.metricsLabelling(b) else { continue }
            let grid = CommonGridAgreement.compute(reference: ha, test: hb, phases: (ia, ib), inBed: (ma.inBedStartUTC, ma.inBedEndUTC),
                                                   gridOriginUTC: night.windowStartUTC, cellSeconds: cell)
            pooled.add(grid)
            rows.append(PairNight(
                nightID: night.nightID, kind: a.kind, metricsDependOnInterval: a.labels().metricsDependOnInterval,
                reference: ComparedMetric.allCases.map { $0.value(ma, nightStartUTC: night.windowStartUTC) },
                test: ComparedMetric.allCases.map { $0.value(mb, nightStartUTC: night.windowStartUTC) },
                grid: grid, hiddenAwakenings: HiddenAwakenings.compute(reference: ha, test: hb)))
        }
        let methods = RecordingKind.allCases.compactMap { kind -> MethodAgreement? in
            let own = rows.filter { $0.kind == kind }
            guard let first = own.first else { return nil }
            return MethodAgreement(kind: kind, metricsDependOnInterval: first.metricsDependOnInterval, nightCount: own.count,
                                   metrics: agreements(own))
        }
        return Pair(reference: lengths[r], test: lengths[t], nights: rows, metrics: agreements(rows.filter(\.metricsDependOnInterval)),
                    methods: methods, pooledGrid: pooled)
    }

    /// One agreement per metric over the nights where it is defined at both lengths.
    static func agreements(_ rows: [PairNight]) -> [MetricAgreement] {
        ComparedMetric.allCases.enumerated().map { k, metric -> MetricAgreement in
            var ref: [Double] = [], test: [Double] = []
            for row in rows {
                if let x = row.reference[k], let y = row.test[k] { ref.append(x); test.append(y) }
            }
            return MetricAgreement.compute(metric: metric, reference: ref, test: test)
        }
    }
}
