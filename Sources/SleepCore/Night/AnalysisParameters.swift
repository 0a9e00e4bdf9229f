/// Every parameter a night's analysis depends on. Stored with each run and each analysis, so a
/// number in the database can always be traced to how it was computed.
public struct AnalysisParameters: Sendable, Hashable, Codable {
    /// Interval length for movement totals, interval states and night metrics.
    public var interval: IntervalLength
    /// Per-sample formula of the movement series that is scored and charted.
    public var metric: MovementMetric
    /// Scoring epoch in seconds (the scorer works on epochs; intervals take their epochs' majority).
    public var epochSeconds: Int
    /// Oakley wake threshold as a multiple of the night's median epoch activity (see ``PhoneSleepScorer``).
    public var wakeThresholdFactor: Double
    /// A sleep run must last this long to open or close the sleep period (persistent sleep).
    public var persistentSleepMinutes: Int
    /// Sleep intervals at or below this quantile of the night's sleep movement are `deep`.
    public var deepQuantile: Double
    /// Nights with less data than this are stored and charted but not scored.
    public var minimumCoverageSeconds: Int
    /// Digest of the sleep diary in use (`--diary`), nil without one. Part of the analysis key of
    /// the methods a diary guides (epoch files); a changed diary is a new analysis.
    public var diaryDigest: String? = nil
    /// `--sleep-algorithm`: sleep/wake inside the sleep period of wearables and ActiGraph-count
    /// epoch files; nil = each method's default (van Hees 2015 for wearables, Cole–Kripke as
    /// ActiLife for ActiGraph counts). Older stored parameters decode as nil.
    public var sleepAlgorithm: SleepAlgorithmChoice? = nil
    /// `--method`: the wearable night method; nil = sleepsta's (``WearableNightMethod``), `.ggir` =
    /// GGIR 3.3-6's defaults reproduced (``GGIRNightMethod``). Older stored parameters decode as nil.
    public var nightMethod: NightMethodChoice? = nil

    public init(interval: IntervalLength = .tenMinutes, metric: MovementMetric = .meanAbsoluteAxis,
                epochSeconds: Int = 60, wakeThresholdFactor: Double = 4, persistentSleepMinutes: Int = 10,
                deepQuantile: Double = 0.25, minimumCoverageSeconds: Int = 2 * 3600) {
        self.interval = interval; self.metric = metric; self.epochSeconds = epochSeconds
        self.wakeThresholdFactor = wakeThresholdFactor; self.persistentSleepMinutes = persistentSleepMinutes
        self.deepQuantile = deepQuantile; self.minimumCoverageSeconds = minimumCoverageSeconds
    }

    /// The ranges a parameter set must lie in, the command line's and the defaults' (a wake
    /// threshold that is a positive finite factor, an epoch that divides a minute …): the first
    /// parameter outside its range and why, nil when every one is fine. Stored parameters are
    /// decoded through it, so a stored set the command line could not give is an error.
    public var problem: (parameter: String, reason: String)? {
        if !(wakeThresholdFactor.isFinite && wakeThresholdFactor > 0 && wakeThresholdFactor <= 1e6) {
            return ("wakeThresholdFactor", "\(wakeThresholdFactor) is not a positive factor")
        }
        if !(epochSeconds > 0 && epochSeconds <= 60 && 60 % epochSeconds == 0) { return ("epochSeconds", "\(epochSeconds) s does not divide a minute") }
        if !(1...1440).contains(persistentSleepMinutes) { return ("persistentSleepMinutes", "\(persistentSleepMinutes) is not 1 to 1440 minutes") }
        if !(deepQuantile.isFinite && (0...1).contains(deepQuantile)) { return ("deepQuantile", "\(deepQuantile) is not a quantile (0 to 1)") }
        if !(0...86_400).contains(minimumCoverageSeconds) { return ("minimumCoverageSeconds", "\(minimumCoverageSeconds) is not 0 s to 1 day") }
        return nil
    }

    private enum CodingKeys: String, CodingKey {
        case interval, metric, epochSeconds, wakeThresholdFactor, persistentSleepMinutes, deepQuantile, minimumCoverageSeconds
        case diaryDigest, sleepAlgorithm, nightMethod
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(interval: try c.decode(IntervalLength.self, forKey: .interval), metric: try c.decode(MovementMetric.self, forKey: .metric),
                  epochSeconds: try c.decode(Int.self, forKey: .epochSeconds),
                  wakeThresholdFactor: try c.decode(Double.self, forKey: .wakeThresholdFactor),
                  persistentSleepMinutes: try c.decode(Int.self, forKey: .persistentSleepMinutes),
                  deepQuantile: try c.decode(Double.self, forKey: .deepQuantile),
                  minimumCoverageSeconds: try c.decode(Int.self, forKey: .minimumCoverageSeconds))
        diaryDigest = try c.decodeIfPresent(String.self, forKey: .diaryDigest)
        sleepAlgorithm = try c.decodeIfPresent(SleepAlgorithmChoice.self, forKey: .sleepAlgorithm)
        nightMethod = try c.decodeIfPresent(NightMethodChoice.self, forKey: .nightMethod)
        if let (parameter, reason) = problem {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys(stringValue: parameter)!], debugDescription: reason))
        }
    }

    /// The scoring algorithm's name as stored and shown.
    public static let algorithmName = "oakley-relative"

    /// A stable text key of these parameters (the store's analysis key). Field order is fixed.
    public var key: String {
        "interval=\(interval.seconds)s;metric=\(metric.rawValue);algorithm=\(Self.algorithmName);epoch=\(epochSeconds)s;"
            + "threshold=\(wakeThresholdFactor)xmedian;persistent=\(persistentSleepMinutes)m;deep=q\(deepQuantile);mincoverage=\(minimumCoverageSeconds)s"
    }
}

/// The sleep/wake algorithm `--sleep-algorithm` picks for the methods that offer a choice.
public enum SleepAlgorithmChoice: String, Sendable, Hashable, Codable, CaseIterable {
    /// van Hees et al. 2015: sustained inactivity, no change in angle-z above 5° for 5 min (wearables).
    case vanHees2015 = "vanhees2015"
    /// Cole et al. 1992 with ActiLife's parameters, on ActiGraph axis-1 counts per minute.
    case coleKripke = "cole-kripke"
    /// Sadeh et al. 1994 with ActiLife's parameters, on ActiGraph axis-1 counts per minute.
    case sadeh = "sadeh"

    /// Whether it scores ActiGraph counts (for a wearable: counts computed from the raw samples).
    public var needsCounts: Bool { self != .vanHees2015 }
}

/// `--method`: which wearable night method runs.
public enum NightMethodChoice: String, Sendable, Hashable, Codable, CaseIterable {
    /// sleepsta's wearable method (still sleep kept as sleep).
    case sleepsta
    /// GGIR 3.3-6's defaults, for numbers a paper needs to match GGIR's.
    case ggir
}
