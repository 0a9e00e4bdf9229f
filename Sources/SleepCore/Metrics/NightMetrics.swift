/// Summary statistics of one night computed from a hypnogram (sleep stages or sleep/wake per epoch).
///
/// Definitions follow the AASM scoring manual (Iber et al. 2007; Silber et al. 2007, "The visual
/// scoring of sleep in adults", J Clin Sleep Med 3(2):121–131) as implemented by yasa's
/// `Hypnogram.sleep_statistics` (Vallat & Walker 2021, eLife 10:e70092; yasa ≥ 0.7). Every
/// quantity is computed in continuous time from the runs ("bouts") of the hypnogram, so the same
/// code serves 30-s PSG epochs, 60-s actigraphy epochs and the pipeline's 10- or 15-min
/// intervals; an epoch only partly inside the lights-off/lights-on window counts for the part
/// that is inside.
///
/// | field | definition | yasa key |
/// |---|---|---|
/// | TIB | lights on − lights off | `TIB` |
/// | SPT | start of the first sleep epoch → end of the last sleep epoch | `SPT` |
/// | TST | time scored as any sleep stage | `TST` |
/// | WASO | wake inside SPT | `WASO` |
/// | SE | 100 · TST / TIB | `SE` |
/// | SME | 100 · TST / SPT | `SME` |
/// | SOL | lights off → first sleep epoch | `SOL` |
/// | SOL_5min | lights off → first run of ≥ 5 min uninterrupted sleep | `SOL_5min` |
/// | SFI | sleep→wake transitions per hour of TST (final awakening included) | `SFI` |
/// | stage % | stage time / TST · 100 | `%N1`… |
///
/// The SRI pipeline of Menghini et al. (2021, SLEEP 44(2):zsaa170, function `ebe2sleep`) uses a
/// different WASO: all wake after the first sleep epoch until lights on (it includes the final
/// awakening). That value is ``wakeAfterSleepOnsetToLightsOnMinutes``.
public struct NightMetrics: Sendable, Hashable, Codable {

    /// Tunable definitions.
    public struct Options: Sendable, Hashable, Codable {
        /// Minimum length of the uninterrupted sleep run whose start defines
        /// ``persistentSleepLatencyMinutes``. yasa uses 5 min (`SOL_5min`); insomnia trials often
        /// use 10 min ("latency to persistent sleep", 20 consecutive 30-s epochs).
        public var persistentSleepMinutes: Double
        /// Minimum length of a wake bout for ``awakeningsAtLeastMinimum``. A bout counts when its
        /// duration is ≥ this value. 0 counts every bout (then equal to ``awakenings``).
        public var minimumAwakeningMinutes: Double

        public init(persistentSleepMinutes: Double = 5, minimumAwakeningMinutes: Double = 0) {
            self.persistentSleepMinutes = persistentSleepMinutes
            self.minimumAwakeningMinutes = minimumAwakeningMinutes
        }
    }

    /// Minutes and share of TST for each sleep stage (only for staged hypnograms).
    public struct StageTimes: Sendable, Hashable, Codable {
        public var lightMinutes: Double
        public var deepMinutes: Double
        public var remMinutes: Double
        /// Percent of TST (nil when TST is 0).
        public var lightPercent: Double?
        public var deepPercent: Double?
        public var remPercent: Double?
    }

    /// Epoch length of the input hypnogram, seconds.
    public var epochSeconds: Double
    /// Time in bed (lights off → lights on), minutes.
    public var timeInBedMinutes: Double
    /// Sleep period time (first sleep epoch start → last sleep epoch end), minutes; 0 without sleep.
    public var sleepPeriodMinutes: Double
    /// Total sleep time, minutes.
    public var totalSleepMinutes: Double
    /// Wake after sleep onset inside the sleep period (AASM / yasa), minutes; nil without sleep.
    public var wakeAfterSleepOnsetMinutes: Double?
    /// Wake after the first sleep epoch until lights on (SRI `ebe2sleep` definition), minutes;
    /// nil without sleep. Equals WASO + ``finalWakeMinutes``.
    public var wakeAfterSleepOnsetToLightsOnMinutes: Double?
    /// Wake between the end of the last sleep epoch and lights on, minutes; nil without sleep.
    public var finalWakeMinutes: Double?
    /// All wake inside TIB, minutes (TIB − TST).
    public var wakeMinutes: Double
    /// Sleep efficiency, percent of TIB (nil when TIB is 0).
    public var sleepEfficiencyPercent: Double?
    /// Sleep maintenance efficiency, percent of SPT (nil without sleep).
    public var sleepMaintenanceEfficiencyPercent: Double?
    /// Sleep onset latency, minutes from lights off to the first sleep epoch (nil without sleep).
    public var sleepOnsetLatencyMinutes: Double?
    /// Latency to persistent sleep, minutes from lights off to the start of the first sleep run
    /// lasting at least ``Options/persistentSleepMinutes`` (nil when there is none).
    public var persistentSleepLatencyMinutes: Double?
    /// Number of wake bouts inside the sleep period (each maximal run of wake between two sleep
    /// runs is one awakening; the final awakening is not inside SPT and is not counted).
    public var awakenings: Int
    /// Number of wake bouts inside SPT lasting at least ``Options/minimumAwakeningMinutes``.
    public var awakeningsAtLeastMinimum: Int
    /// Number of sleep→wake transitions in TIB: awakenings plus the final awakening when the
    /// night ends in wake before lights on (yasa counts these in its transition matrix).
    public var sleepToWakeTransitions: Int
    /// Sleep fragmentation index: ``sleepToWakeTransitions`` per hour of TST (yasa `SFI`;
    /// nil when TST is 0).
    public var sleepFragmentationIndexPerHour: Double?
    /// Stage times; nil when the input was sleep/wake only.
    public var stages: StageTimes?
    /// Options used.
    public var options: Options

    /// Night statistics of a staged hypnogram.
    ///
    /// - Parameters:
    ///   - stages: one stage per epoch; epoch `i` covers `[i·epochSeconds, (i+1)·epochSeconds)`
    ///     seconds from the start of the hypnogram.
    ///   - epochSeconds: epoch (interval) length in seconds, > 0.
    ///   - lightsOffSeconds: lights off, seconds from the start of the hypnogram (default 0).
    ///   - lightsOnSeconds: lights on, seconds from the start of the hypnogram (default: end of
    ///     the hypnogram). Both bounds are clipped to the hypnogram.
    public static func compute(
        stages: [SleepStage],
        epochSeconds: Double,
        lightsOffSeconds: Double? = nil,
        lightsOnSeconds: Double? = nil,
        options: Options = Options()
    ) -> NightMetrics {
        compute(
            count: stages.count, epochSeconds: epochSeconds,
            lightsOffSeconds: lightsOffSeconds, lightsOnSeconds: lightsOnSeconds,
            options: options, staged: true, stageAt: { stages[$0] })
    }

    /// Night statistics of a sleep/wake hypnogram (``stages`` is nil).
    public static func compute(
        sleepWake: [SleepWake],
        epochSeconds: Double,
        lightsOffSeconds: Double? = nil,
        lightsOnSeconds: Double? = nil,
        options: Options = Options()
    ) -> NightMetrics {
        compute(
            count: sleepWake.count, epochSeconds: epochSeconds,
            lightsOffSeconds: lightsOffSeconds, lightsOnSeconds: lightsOnSeconds,
            options: options, staged: false,
            stageAt: { sleepWake[$0] == .sleep ? SleepStage.light : SleepStage.wake })
    }

    /// A maximal run of sleep or of wake, clipped to the lights-off/lights-on window (seconds).
    struct Bout: Equatable {
        var isSleep: Bool
        var start: Double
        var end: Double
        var duration: Double { end - start }
    }

    private static func compute(
        count: Int,
        epochSeconds: Double,
        lightsOffSeconds: Double?,
        lightsOnSeconds: Double?,
        options: Options,
        staged: Bool,
        stageAt: (Int) -> SleepStage
    ) -> NightMetrics {
        precondition(epochSeconds > 0, "epochSeconds must be > 0")
        let recordEnd = Double(count) * epochSeconds
        let lo = min(max(lightsOffSeconds ?? 0, 0), recordEnd)
        let hi = max(min(lightsOnSeconds ?? recordEnd, recordEnd), lo)
        let (bouts, stageSeconds) = boutsInWindow(count: count, epochSeconds: epochSeconds, lo: lo, hi: hi, stageAt: stageAt)

        let tib = hi - lo
        var tst = 0.0
        for bout in bouts where bout.isSleep { tst += bout.duration }
        var metrics = NightMetrics(
            epochSeconds: epochSeconds,
            timeInBedMinutes: tib / 60,
            sleepPeriodMinutes: 0,
            totalSleepMinutes: tst / 60,
            wakeAfterSleepOnsetMinutes: nil,
            wakeAfterSleepOnsetToLightsOnMinutes: nil,
            finalWakeMinutes: nil,
            wakeMinutes: (tib - tst) / 60,
            sleepEfficiencyPercent: tib > 0 ? 100 * tst / tib : nil,
            sleepMaintenanceEfficiencyPercent: nil,
            sleepOnsetLatencyMinutes: nil,
            persistentSleepLatencyMinutes: nil,
            awakenings: 0,
            awakeningsAtLeastMinimum: 0,
            sleepToWakeTransitions: 0,
            sleepFragmentationIndexPerHour: nil,
            stages: nil,
            options: options)
        metrics.fillSleepPeriod(bouts: bouts, lightsOff: lo, lightsOn: hi, totalSleepSeconds: tst)
        if staged { metrics.stages = stageTimes(stageSeconds, totalSleepSeconds: tst) }
        return metrics
    }

    /// The sleep and wake bouts inside the lights-off/lights-on window, and the seconds of each
    /// stage there (indexed by the stage's raw value).
    ///
    /// Bouts are built on sleep vs wake (all sleep stages merged), as yasa does for SOL_5min and
    /// as AASM awakenings are defined; stage times are accumulated per epoch on the side.
    private static func boutsInWindow(
        count: Int, epochSeconds: Double, lo: Double, hi: Double, stageAt: (Int) -> SleepStage
    ) -> (bouts: [Bout], stageSeconds: [Double]) {
        var bouts: [Bout] = []
        var stageSeconds = [Double](repeating: 0, count: 4)
        guard hi > lo else { return (bouts, stageSeconds) }
        let first = Int((lo / epochSeconds).rounded(.down))
        let last = min(count - 1, Int((hi / epochSeconds).rounded(.up)) - 1)
        guard first <= last else { return (bouts, stageSeconds) }
        for i in first...last {
            let start = max(Double(i) * epochSeconds, lo)
            let end = min(Double(i + 1) * epochSeconds, hi)
            guard end > start else { continue }
            let stage = stageAt(i)
            stageSeconds[Int(stage.rawValue)] += end - start
            if let lastBout = bouts.last, lastBout.isSleep == stage.isSleep {
                bouts[bouts.count - 1].end = end
            } else {
                bouts.append(Bout(isSleep: stage.isSleep, start: start, end: end))
            }
        }
        return (bouts, stageSeconds)
    }

    /// The quantities that exist only with sleep: SPT, WASO, final wake, SME, latencies,
    /// awakenings and SFI. Left at their no-sleep values when no bout is sleep.
    private mutating func fillSleepPeriod(bouts: [Bout], lightsOff lo: Double, lightsOn hi: Double, totalSleepSeconds tst: Double) {
        guard let f = bouts.firstIndex(where: { $0.isSleep }), let l = bouts.lastIndex(where: { $0.isSleep }) else { return }
        let onset = bouts[f].start
        let offset = bouts[l].end
        let spt = offset - onset
        var waso = 0.0
        var awakenings = 0
        var longAwakenings = 0
        let minimumAwakeningSeconds = options.minimumAwakeningMinutes * 60
        for bout in bouts[f...l] where !bout.isSleep {
            waso += bout.duration
            awakenings += 1
            // Tolerance: durations are sums of epoch lengths and may carry rounding error.
            if bout.duration >= minimumAwakeningSeconds - 1e-9 { longAwakenings += 1 }
        }
        let finalWake = hi - offset
        sleepPeriodMinutes = spt / 60
        wakeAfterSleepOnsetMinutes = waso / 60
        finalWakeMinutes = finalWake / 60
        wakeAfterSleepOnsetToLightsOnMinutes = (waso + finalWake) / 60
        sleepMaintenanceEfficiencyPercent = spt > 0 ? 100 * tst / spt : nil
        sleepOnsetLatencyMinutes = (onset - lo) / 60
        self.awakenings = awakenings
        awakeningsAtLeastMinimum = longAwakenings
        sleepToWakeTransitions = awakenings + (l < bouts.count - 1 ? 1 : 0)
        if tst > 0 {
            sleepFragmentationIndexPerHour = Double(sleepToWakeTransitions) / (tst / 3600)
        }
        let persistentSeconds = options.persistentSleepMinutes * 60
        if let p = bouts.first(where: { $0.isSleep && $0.duration >= persistentSeconds - 1e-9 }) {
            persistentSleepLatencyMinutes = (p.start - lo) / 60
        }
    }

    /// Light, deep and REM minutes and their shares of TST.
    private static func stageTimes(_ stageSeconds: [Double], totalSleepSeconds tst: Double) -> StageTimes {
        let light = stageSeconds[Int(SleepStage.light.rawValue)]
        let deep = stageSeconds[Int(SleepStage.deep.rawValue)]
        let rem = stageSeconds[Int(SleepStage.rem.rawValue)]
        return StageTimes(
            lightMinutes: light / 60, deepMinutes: deep / 60, remMinutes: rem / 60,
            lightPercent: tst > 0 ? 100 * light / tst : nil,
            deepPercent: tst > 0 ? 100 * deep / tst : nil,
            remPercent: tst > 0 ? 100 * rem / tst : nil)
    }
}
