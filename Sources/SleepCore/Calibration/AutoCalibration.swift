#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Auto-calibration of a tri-axial accelerometer against local gravity: per-axis offset and scale
/// such that the device reads 1 g in every orientation it was held still in.
///
/// **Source.** V. T. van Hees, Z. Fang, J. Langford et al., "Autocalibration of accelerometer data
/// for free-living physical activity assessment using local gravity and temperature: an evaluation
/// on four continents", *J Appl Physiol* 117(7):738–744, 2014.
///
/// **Reference software.** GGIR `g.calibrate` (wadpac/GGIR, `R/g.calibrate.R`, read at 388064b,
/// May 2026; the fit is Zhou Fang's code inside it) and the use of its result in `R/g.part1.R`.
/// Reimplemented from those definitions. Checked (see the tests) against GGIR's fit loop run in
/// R 4.2.2 on the same window means (agreement to 1e-12), and against GGIR's integration test
/// (`tests/testthat/test_integration.R`): its recording rebuilt bit for bit and its features with
/// R's arithmetic give the scale (0.98473, 0.98425, 0.98462) and 7494 points that test asserts.
/// Steps, as GGIR does them:
/// 1. **Features** on consecutive non-overlapping 10-s windows (GGIR `calibEpochSize = 10`, fixed
///    and independent of `windowsizes`): per window the mean and the sample standard deviation
///    (R `sd`, n − 1) of each axis. Samples with x = y = z = 0 exactly are dropped first (GGIR
///    removes them with `g.imputeTimegaps(impute = FALSE)`: they mark idle/unrecorded stretches).
///    GGIR also averages temperature per window as an optional covariate of the fit; sleepsta's
///    recordings carry no temperature, so the fit is GGIR's with `use.temp = FALSE` (its
///    temperature column is then a zero dummy that `lm.wfit` pivots out).
/// 2. Only whole hours are processed (GGIR `blockResolution = 3600`: each loaded chunk is cut to
///    whole hours, the rest carried over, and what is left at the end of the file is never used):
///    ``Parameters/blockSeconds``.
/// 3. **Duplicates**: a window that repeats the window after it is removed (GGIR, "remove
///    duplicates, e.g. caused by periods of nonwear", on all windows since wadpac/GGIR d397378,
///    January 2024, development version 3.0-4; on the no-movement windows only before). See the
///    difference noted below.
/// 4. **Enough data**: more than `minloadcrit − 21` windows must remain (GGIR compares the window
///    count with its hour criterion `minloadcrit = 168`: more than 147 windows, about 25 min):
///    ``Parameters/minimumWindowCount`` = 148. Hours used = windows · 10 s / 3600.
/// 5. The first remaining window is discarded (GGIR `features_temp[-1, ]`).
/// 6. **No movement**: SD < 0.013 g on all three axes and |mean| < 2 g on all three axes (the
///    latter against clipping), both strict. Fewer than 10 such windows: not calibrated ("no
///    non-movement data available").
/// 7. Error before = mean over those windows of |‖mean‖ − 1|, rounded to 5 decimals in g
///    (GGIR `round(..., digits = 5)`), reported here in mg.
/// 8. **Sphere coverage**: on every axis the still windows' means must reach both below
///    −0.3 g and above +0.3 g (strict; GGIR `spherecrit`), otherwise not calibrated.
/// 9. **Fit** (iteratively re-weighted least squares, at most 1000 iterations): offset o = 0,
///    scale s = 1, weights w = 1, res₀ = ∞. Each iteration: c = (m + o)·s per window and axis;
///    closest point on the unit sphere p = c / ‖c‖; per axis a weighted linear regression
///    p ≈ a + b·c (GGIR `lm.wfit`) whose fitted values replace c; o ← o + a / (s·b), then
///    s ← s·b; res = Σᵢ wᵢ‖cᵢ − pᵢ‖² / (n Σ w) (GGIR `3 * mean(weights * (curr - closestpoint)^2
///    / sum(weights))`, with the weights of this iteration); then wᵢ = min(1 / ‖cᵢ − pᵢ‖, 100);
///    stop when |res − res_prev| < 1e-10. (res shrinks with n, so on many windows the tolerance
///    is met early: on 60,000 windows GGIR's loop, like this one, stops after 9 iterations about
///    2 mg short of the true offset.)
/// 10. Error after as in 7 with (m + o)·s. GGIR `scale(x, center = -offset, scale = 1/scale)` is
///     (x − (−o)) / (1/s) = (x + o)·s: calibrated value = (raw + offset) · scale.
/// 11. **Use**: `g.part1` keeps the coefficients unless error after > error before (both rounded;
///     equal counts as kept) and otherwise resets them to offset 0, scale 1 — so GGIR uses a fit
///     whose error after is 10 mg or more as long as it is not worse. ``Result/ggirMessage``
///     carries `g.calibrate`'s QC message, whose "recalibration done, no problems detected" also
///     needs error after < 0.01 g and more than `minloadcrit` (168) hours used;
///     ``Parameters/strictAcceptance`` makes the 0.01 g part decide use as well.
///
/// **Where sleepsta differs, and why.**
/// * Windows lie on a grid of whole multiples of ``Parameters/windowSeconds`` in UTC and follow
///   the timestamps; GGIR cuts the sample sequence into blocks of `sf · 10` samples from the first
///   sample, whatever the clock says. So across a gap GGIR's window spans the gap, ours does not. A
///   window counts only with at least ``Parameters/minimumWindowFill`` (half) of its nominal
///   samples (and at least 2), nominal being ``Parameters/sampleRateHz`` · 10 s when given, else
///   the median sample count of all windows (robust to a few short windows; a logging app's
///   jitter changes it by a sample or two). The whole-hour cut (step 2) counts hours from the first
///   window on the same grid.
/// * Duplicates (step 3) compare exact values, and ours are not GGIR's to the last bit. GGIR's test
///   is `rowSums(f[i, 2:7] == f[i + 1, 2:7]) == 3`: window i goes when exactly three of its six
///   features (three means, three SDs) equal those of window i + 1. GGIR's means are differences of
///   a running `cumsum` over a ~12-h chunk, so on a constant stretch (non-wear filled with the last
///   value) the three SDs are 0 in both windows while the means may or may not differ in their last
///   bits: GGIR drops some of the repeated windows, at random and depending on how the file was
///   chunked. Our means are exact, so a repeated window matches on all six and GGIR's rule as
///   written (``DuplicateRule/ggir``, the default) drops none; ``DuplicateRule/identical`` drops all
///   repeats (the rule's comment, "remove duplicates, e.g. caused by periods of nonwear").
///   On GGIR's own integration-test recording (rebuilt in the tests), where 8213 windows repeat
///   their successor exactly, GGIR's current code drops 1788 windows and fits 8030 still ones
///   (scale 0.98488, 0.98461, 0.98466); the default drops none and fits 9807 (scale 0.98472,
///   0.98387, 0.98435: within 7.4e-4), whereas dropping every repeat leaves 1594 and moves the
///   x scale to 0.943 (that recording's remaining still windows are off the sphere by design),
///   which is why the default follows the code.
/// * One fit on all the data. GGIR refits after every loaded chunk (about 12 h) on everything read
///   so far and stops reading once a fit passes its QC with more than 168 h used; for a recording
///   of up to 7 days (plus one chunk) that is the fit on all windows, as here. On longer recordings
///   GGIR uses only the first 7-odd days.
/// * GGIR removes, for ActiGraph and Movisens only, rows whose closest point is NaN (a zero mean
///   vector); here such rows are removed for every device (a still window with a zero mean vector
///   cannot occur with gravity present; GGIR would stop with an error on the other brands).
///
/// **Numerics.** The SD of a window is accumulated from the sum and the sum of squares of
/// (sample − first sample of the window): the shift removes the 1-g gravity component, so the two
/// sums hold only the few-mg wobble of a still window and the textbook formula loses nothing to
/// cancellation (a plain Σx² − (Σx)²/n would lose about five of the sixteen digits of the variance
/// of a 3-mg wobble under 1 g); with
/// a 10-s window (≤ 1000 samples at 100 Hz) this is as accurate as Welford's update and needs no
/// division per sample. The regressions use weighted two-pass (centred) sums.
public enum AutoCalibration {
    /// One value per axis.
    public struct Axes: Sendable, Hashable, Codable {
        public var x: Double
        public var y: Double
        public var z: Double
        public init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }
        public static let zero = Axes(x: 0, y: 0, z: 0)
        public static let one = Axes(x: 1, y: 1, z: 1)
    }

    public struct Parameters: Sendable, Hashable, Codable {
        /// Feature window (GGIR `calibEpochSize`, 10 s).
        public var windowSeconds: Double
        /// No-movement criterion on the SD of each axis (GGIR `sdcriter`, 0.013 g; GGIR uses
        /// 1.2 × `rmc.noise` for its ad-hoc CSV format instead).
        public var sdCriterionG: Double
        /// |mean| of each axis must be below this in a still window (GGIR: 2 g, against clipping).
        public var maxAbsoluteMeanG: Double
        /// Sphere coverage (GGIR `spherecrit`, 0.3 g).
        public var sphereCriterionG: Double
        /// GGIR `maxiter`, 1000.
        public var maxIterations: Int
        /// GGIR `tol`, 1e-10 (on the change of the weighted residual).
        public var tolerance: Double
        /// Upper bound of a window's weight (GGIR `1 / 0.01`).
        public var maxWeight: Double
        /// Windows needed after duplicate removal (GGIR `nrow > minloadcrit - 21`, 168 − 21 = 147).
        public var minimumWindowCount: Int
        /// Still windows needed (GGIR: fewer than 10 is "no non-movement data available").
        public var minimumStillWindows: Int
        /// Hours GGIR wants before it calls a fit "done" (GGIR `minloadcrit`, 168); only
        /// ``Result/ggirMessage`` depends on it.
        public var minimumLoadHours: Double
        /// Error after that `g.calibrate`'s QC message calls good (0.01 g).
        public var maxErrorAfterG: Double
        /// When true, a fit is used only if also error after < ``maxErrorAfterG`` (not GGIR's
        /// `g.part1`, which uses any fit that does not increase the error).
        public var strictAcceptance: Bool
        /// Which repeated windows are removed (step 3).
        public var duplicateRule: DuplicateRule
        /// Only windows within whole blocks of this length from the first window are used (GGIR
        /// `blockResolution`, 3600 s); nil uses every window.
        public var blockSeconds: Double?
        /// A window needs at least this fraction of its nominal sample count (sleepsta's rule).
        public var minimumWindowFill: Double
        /// Nominal sample rate; nil: inferred (median samples per window).
        public var sampleRateHz: Double?

        public init(windowSeconds: Double = 10, sdCriterionG: Double = 0.013, maxAbsoluteMeanG: Double = 2,
                    sphereCriterionG: Double = 0.3, maxIterations: Int = 1000, tolerance: Double = 1e-10,
                    maxWeight: Double = 100, minimumWindowCount: Int = 148, minimumStillWindows: Int = 10,
                    minimumLoadHours: Double = 168, maxErrorAfterG: Double = 0.01, strictAcceptance: Bool = false,
                    duplicateRule: DuplicateRule = .ggir, blockSeconds: Double? = 3600,
                    minimumWindowFill: Double = 0.5, sampleRateHz: Double? = nil) {
            precondition(windowSeconds > 0 && sdCriterionG > 0 && maxAbsoluteMeanG > 0 && sphereCriterionG >= 0)
            precondition(maxIterations >= 1 && tolerance >= 0 && maxWeight > 0 && minimumStillWindows >= 1)
            precondition(blockSeconds.map { $0 >= windowSeconds } ?? true && minimumWindowFill >= 0)
            precondition(sampleRateHz.map { $0 > 0 } ?? true)
            self.windowSeconds = windowSeconds
            self.sdCriterionG = sdCriterionG
            self.maxAbsoluteMeanG = maxAbsoluteMeanG
            self.sphereCriterionG = sphereCriterionG
            self.maxIterations = maxIterations
            self.tolerance = tolerance
            self.maxWeight = maxWeight
            self.minimumWindowCount = minimumWindowCount
            self.minimumStillWindows = minimumStillWindows
            self.minimumLoadHours = minimumLoadHours
            self.maxErrorAfterG = maxErrorAfterG
            self.strictAcceptance = strictAcceptance
            self.duplicateRule = duplicateRule
            self.blockSeconds = blockSeconds
            self.minimumWindowFill = minimumWindowFill
            self.sampleRateHz = sampleRateHz
        }

        /// GGIR's defaults (van Hees et al. 2014).
        public static let ggir = Parameters()
    }

    /// Which of two successive windows with equal features is removed: the earlier one, when ...
    public enum DuplicateRule: String, Sendable, Hashable, Codable, CaseIterable {
        /// ... exactly three of the six features (means and SDs) are equal: GGIR's code.
        case ggir
        /// ... all six are equal.
        case identical
        /// Keep every window.
        case none

        package func isDuplicate(_ a: Window, of b: Window) -> Bool {
            switch self {
            case .none: return false
            case .identical: return a.mean == b.mean && a.sd == b.sd
            case .ggir:
                var equal = 0
                if a.mean.x == b.mean.x { equal += 1 }
                if a.mean.y == b.mean.y { equal += 1 }
                if a.mean.z == b.mean.z { equal += 1 }
                if a.sd.x == b.sd.x { equal += 1 }
                if a.sd.y == b.sd.y { equal += 1 }
                if a.sd.z == b.sd.z { equal += 1 }
                return equal == 3
            }
        }
    }

    /// One feature window: `index` · ``Parameters/windowSeconds`` is its start in UTC seconds.
    public struct Window: Sendable, Hashable {
        public var index: Int64
        public var sampleCount: Int
        public var mean: Axes
        /// Sample SD (n − 1).
        public var sd: Axes
        public init(index: Int64, sampleCount: Int, mean: Axes, sd: Axes) {
            self.index = index; self.sampleCount = sampleCount; self.mean = mean; self.sd = sd
        }

        package func isStill(_ p: Parameters) -> Bool {
            let c = p.sdCriterionG, m = p.maxAbsoluteMeanG
            return sd.x < c && sd.y < c && sd.z < c && abs(mean.x) < m && abs(mean.y) < m && abs(mean.z) < m
        }
    }

    /// What the fit needs: the still windows and how much data they came from (GGIR's
    /// `features_temp` after the no-movement selection, its `nrow` before it, and the counts of
    /// what was set aside on the way).
    public struct Features: Sendable, Equatable {
        public var windowSeconds: Double
        /// Windows that received at least one sample.
        public var windowCount: Int
        /// Windows beyond the last whole block (step 2).
        public var trimmedWindowCount: Int
        /// Windows with fewer samples than the fill rule asks.
        public var sparseWindowCount: Int
        /// Windows removed as repeating the next one (step 3).
        public var duplicateWindowCount: Int
        /// Windows left after steps 2–3 (GGIR `nrow(features_temp)`, which sets its hours used).
        public var usedWindowCount: Int
        /// The no-movement windows, in time order (GGIR's `spheredata` / `npoints` rows).
        public var still: [Window]

        public init(windowSeconds: Double = 10, windowCount: Int, trimmedWindowCount: Int = 0,
                    sparseWindowCount: Int = 0, duplicateWindowCount: Int = 0, usedWindowCount: Int,
                    still: [Window]) {
            self.windowSeconds = windowSeconds
            self.windowCount = windowCount
            self.trimmedWindowCount = trimmedWindowCount
            self.sparseWindowCount = sparseWindowCount
            self.duplicateWindowCount = duplicateWindowCount
            self.usedWindowCount = usedWindowCount
            self.still = still
        }

        public var stillWindowCount: Int { still.count }
        /// GGIR `nhoursused`.
        public var hoursUsed: Double { Double(usedWindowCount) * windowSeconds / 3600 }
    }

    /// Streaming feature collector: constant work per sample, O(windows) memory (one ``Window``,
    /// 64 bytes, per 10 s: 3.9 MB for 7 days), no allocation per sample (the window list grows by
    /// amortised appends once per window).
    public struct FeatureCollector: SampleSink, Sendable {
        public let parameters: Parameters
        /// Closed windows so far, every one that received a sample (before any selection).
        public private(set) var windows: [Window] = []
        /// Samples not used: non-finite, exactly (0, 0, 0), or earlier than the current window.
        public private(set) var ignoredSamples = 0

        private var current: Int64 = .min
        /// `current` and `current + 1` as doubles (an empty range before the first window).
        private var currentLow = Double.infinity, currentHigh = -Double.infinity
        private var count = 0
        // The open window's first sample, and the sums of (sample − first) and of its squares, as
        // (x, y, z, 0) vectors: lane by lane the same IEEE operations as three scalars, but 16-byte
        // aligned. As scalars the compiler paired them into unaligned 16-byte loads and stores, and
        // where this struct landed on the reader's stack one pair straddled a page boundary on
        // every sample, a stall that `perf` showed on a large share of a `.cwa` run's samples.
        private var origin = SIMD4<Double>()
        private var sums = SIMD4<Double>()
        private var squares = SIMD4<Double>()

        public init(parameters: Parameters = .ggir) { self.parameters = parameters }

        @inline(__always)
        public mutating func add(timestamp: Double, x: Double, y: Double, z: Double) {
            guard Self.usable(x, y, z) else { ignoredSamples += 1; return }
            let q = timestamp / parameters.windowSeconds
            // Within the open window, floor(q) is `current` exactly when current ≤ q < current + 1
            // (whole numbers): two comparisons instead of a floor (a libm call) per sample. Outside
            // them (or for a q that is NaN) floor(q) is not `current`.
            if !(q >= currentLow && q < currentHigh) {
                guard let k = Self.window(q) else { ignoredSamples += 1; return }
                guard k > current else { ignoredSamples += 1; return }
                closeWindow()
                current = k
                currentLow = Double(k); currentHigh = Double(k + 1)
                origin = SIMD4(x, y, z, 0)
            }
            let d = SIMD4(x, y, z, 0) - origin
            sums += d
            squares += d * d
            count += 1
        }

        /// Whether a sample counts at all: finite, and not exactly (0, 0, 0).
        @inline(__always)
        static func usable(_ x: Double, _ y: Double, _ z: Double) -> Bool {
            x.isFinite && y.isFinite && z.isFinite && !(x == 0 && y == 0 && z == 0)
        }

        /// The window of `q` = timestamp / window length (floor), nil where it has none.
        @inline(__always)
        static func window(_ q: Double) -> Int64? {
            let position = q.rounded(.down)
            return position.isFinite && abs(position) < 9e15 ? Int64(position) : nil
        }

        private mutating func closeWindow() {
            if let window = openWindow { windows.append(window) }
            count = 0
            sums = .zero; squares = .zero
        }

        /// A lean first pass over a raw CSV collects only these (see ``SampleSink/takesWholeSeconds``).
        public static var takesWholeSeconds: Bool { true }
        public static var wantsChunkFeatures: Bool { true }
        public mutating func absorb(_ features: Chunk) { append(features) }

        /// Takes a run of samples collected apart (``Chunk``: a parser thread's part of a file)
        /// that follows every sample added so far in time order, with the same result, bit for
        /// bit, as adding each of its samples here: the head samples (the window this collector
        /// may still have open) one by one, then the chunk's own windows and its open one.
        public mutating func append(_ chunk: Chunk) {
            precondition(chunk.body.parameters.windowSeconds == parameters.windowSeconds, "a chunk of other windows")
            for s in chunk.head { add(timestamp: s.x, x: s.y, y: s.z, z: s.w) }
            guard chunk.inBody else { return }
            let body = chunk.body
            precondition(body.current > current, "a chunk's windows follow the collector's")
            closeWindow()
            windows.append(contentsOf: body.windows)
            ignoredSamples += body.ignoredSamples
            current = body.current; currentLow = body.currentLow; currentHigh = body.currentHigh
            count = body.count; origin = body.origin; sums = body.sums; squares = body.squares
        }

        /// The features of a run of consecutive samples in time order, collected on their own (on a
        /// parser thread of the parallel CSV path) and appended to the collector of the samples
        /// before them (``append(_:)``). The samples up to the run's first window boundary may
        /// continue that collector's open window, whose first sample (the origin of its sums) is
        /// not here: they are kept as they are (at most one window's worth) and added one by one.
        /// From the first sample of a later window on, a collector of its own sums them: that
        /// window starts in this run, so its sums are the ones the whole file's collector forms.
        public struct Chunk: Sendable {
            /// (timestamp, x, y, z) of the samples before the first window boundary.
            public private(set) var head: [SIMD4<Double>] = []
            private var headWindow: Int64 = .min
            fileprivate var body: FeatureCollector
            fileprivate private(set) var inBody = false

            public init(parameters: Parameters = .ggir) {
                body = FeatureCollector(parameters: parameters)
                head.reserveCapacity(1024)
            }

            /// Empties the chunk for the next run, keeping its storage.
            public mutating func reset() {
                head.removeAll(keepingCapacity: true)
                headWindow = .min
                inBody = false
                body = FeatureCollector(parameters: body.parameters)
            }

            /// `count` samples stored as (timestamp, x, y, z) one after another (the parser threads'
            /// blocks): the same as adding them one by one, in one call instead of one per sample.
            public mutating func add(interleaved p: UnsafePointer<Double>, count: Int) {
                for i in 0..<count {
                    let s = p + 4 * i
                    add(timestamp: s[0], x: s[1], y: s[2], z: s[3])
                }
            }

            @inline(__always)
            public mutating func add(timestamp: Double, x: Double, y: Double, z: Double) {
                if inBody { body.add(timestamp: timestamp, x: x, y: y, z: z); return }
                // The sample's window as the collector would find it; a sample it would ignore
                // (not finite, all zero, no window) stays in the head, where it is ignored in turn.
                if FeatureCollector.usable(x, y, z), let k = FeatureCollector.window(timestamp / body.parameters.windowSeconds) {
                    if headWindow == .min {
                        headWindow = k
                    } else if k > headWindow {
                        inBody = true
                        body.add(timestamp: timestamp, x: x, y: y, z: z)
                        return
                    }
                }
                head.append(SIMD4(timestamp, x, y, z))
            }
        }

        /// The window being filled, summarised.
        private var openWindow: Window? {
            guard count > 0 else { return nil }
            let n = Double(count)
            func sd(_ s: Double, _ ss: Double) -> Double {
                count > 1 ? sqrt(max(0, (ss - s * s / n) / (n - 1))) : .nan
            }
            return Window(index: current, sampleCount: count,
                          mean: Axes(x: origin.x + sums.x / n, y: origin.y + sums.y / n, z: origin.z + sums.z / n),
                          sd: Axes(x: sd(sums.x, squares.x), y: sd(sums.y, squares.y), z: sd(sums.z, squares.z)))
        }

        /// GGIR's selection (steps 2–6 of ``AutoCalibration``) over every window seen, the last
        /// (usually partial) one included.
        public func finish() -> Features {
            var all = windows
            if let open = openWindow { all.append(open) }
            let p = parameters
            let windowCount = all.count
            guard !all.isEmpty else {
                return Features(windowSeconds: p.windowSeconds, windowCount: 0, usedWindowCount: 0, still: [])
            }
            let nominal: Double
            if let rate = p.sampleRateHz {
                nominal = rate * p.windowSeconds
            } else {
                var counts = all.map(\.sampleCount)
                counts.sort()
                nominal = Double(counts[counts.count / 2])
            }
            let minimumCount = max(2, Int((p.minimumWindowFill * nominal).rounded(.up)))

            // Step 2: whole blocks from the first window; the last window counts as covered when full.
            var trimmed = 0
            if let block = p.blockSeconds {
                let perBlock = max(1, Int64((block / p.windowSeconds).rounded()))
                let first = all[0].index, last = all[all.count - 1]
                let covered = last.index - first + (last.sampleCount >= minimumCount ? 1 : 0)
                let limit = first + (covered / perBlock) * perBlock
                let kept = all.prefix { $0.index < limit }.count
                trimmed = all.count - kept
                all.removeLast(trimmed)
            }
            let valid = all.filter { $0.sampleCount >= minimumCount }
            let sparse = all.count - valid.count

            // Step 3: drop a window that repeats its successor.
            var used: [Window] = []
            used.reserveCapacity(valid.count)
            for i in valid.indices {
                if i + 1 < valid.count, p.duplicateRule.isDuplicate(valid[i], of: valid[i + 1]) { continue }
                used.append(valid[i])
            }
            let duplicates = valid.count - used.count

            // Steps 5–6: drop the first window, keep the still ones.
            let still = used.dropFirst().filter { $0.isStill(p) }
            return Features(windowSeconds: p.windowSeconds, windowCount: windowCount, trimmedWindowCount: trimmed,
                            sparseWindowCount: sparse, duplicateWindowCount: duplicates,
                            usedWindowCount: used.count, still: Array(still))
        }
    }

    public enum Status: Sendable, Equatable, Codable {
        /// The coefficients are in ``Result/offset`` and ``Result/scale``.
        case calibrated
        /// Not calibrated: offset 0, scale 1.
        case skipped(reason: String)
    }

    public struct Result: Sendable, Equatable, Codable {
        /// In effect: the fitted offset when ``isApplied``, else 0 (g).
        public var offset: Axes
        /// In effect: the fitted scale when ``isApplied``, else 1.
        public var scale: Axes
        /// The fit whether used or not (GGIR `g.calibrate`'s `offset`/`scale`); nil when none ran.
        public var fittedOffset: Axes?
        public var fittedScale: Axes?
        /// GGIR `cal.error.start` · 1000 (rounded to 0.01 mg); nil when it was not computed
        /// (too little data, fewer than 10 still windows).
        public var errorBeforeMilliG: Double?
        /// GGIR `cal.error.end` · 1000; nil when no fit ran.
        public var errorAfterMilliG: Double?
        /// GGIR `npoints`: still windows the fit used.
        public var stillWindows: Int
        /// GGIR `nhoursused`.
        public var hoursUsed: Double
        /// Iterations of the fit (0 when none ran).
        public var iterations: Int
        public var status: Status
        /// GGIR `QCmessage`, verbatim.
        public var ggirMessage: String

        public var isApplied: Bool { status == .calibrated }

        /// Calibrated acceleration: (raw + offset) · scale per axis.
        @inlinable public func apply(x: Double, y: Double, z: Double) -> (Double, Double, Double) {
            ((x + offset.x) * scale.x, (y + offset.y) * scale.y, (z + offset.z) * scale.z)
        }
    }

    static let messageNotEnoughData = "recalibration not done because not enough data in the file or because file is corrupt"
    static let messageNoStill = "recalibration not done because no non-movement data available"
    static let messageSphere = "recalibration not done because not enough points on all sides of the sphere"
    static let messageDone = "recalibration done, no problems detected"
    static let messageAttempted = "recalibration attempted with all available data, but possibly not good enough: Check calibration error variable to varify this"
    static let messageWorse = "recalibration not done because recalibration does not decrease error"

    /// Runs GGIR's checks and fit (steps 4 and 6–11 of ``AutoCalibration``) on collected features.
    /// The no-movement selection itself (SD and |mean| criteria, step 6) was made by the
    /// ``FeatureCollector`` with its own parameters; the count, sphere, fit and use rules are taken
    /// from `parameters`.
    public static func fit(_ features: Features, parameters: Parameters = .ggir) -> Result {
        let p = parameters
        var result = Result(offset: .zero, scale: .one, fittedOffset: nil, fittedScale: nil,
                            errorBeforeMilliG: nil, errorAfterMilliG: nil, stillWindows: 0,
                            hoursUsed: 0, iterations: 0, status: .calibrated, ggirMessage: "")
        guard features.usedWindowCount >= p.minimumWindowCount else {
            result.status = .skipped(reason: "not enough data: \(features.usedWindowCount) usable "
                                     + "\(formatted(features.windowSeconds))-s windows, at least \(p.minimumWindowCount) needed")
            result.ggirMessage = messageNotEnoughData
            return result
        }
        result.hoursUsed = features.hoursUsed
        let still = features.still
        guard still.count >= p.minimumStillWindows else {
            result.status = .skipped(reason: "no non-movement data: \(still.count) still windows (SD < "
                                     + "\(formatted(p.sdCriterionG)) g on every axis), at least \(p.minimumStillWindows) needed")
            result.ggirMessage = messageNoStill
            return result
        }
        result.stillWindows = still.count
        var mx = still.map(\.mean.x), my = still.map(\.mean.y), mz = still.map(\.mean.z)
        let before = calibrationError(mx, my, mz, offset: .zero, scale: .one)
        result.errorBeforeMilliG = before / 100

        var lacking: [String] = []
        for (name, values) in [("x", mx), ("y", my), ("z", mz)] {
            let lo = values.min()!, hi = values.max()!
            if !(lo < -p.sphereCriterionG && hi > p.sphereCriterionG) {
                lacking.append("\(name) axis (still-window means \(formatted(lo))…\(formatted(hi)) g)")
            }
        }
        guard lacking.isEmpty else {
            result.status = .skipped(reason: "not enough points on all sides of the sphere: "
                                     + lacking.joined(separator: ", ") + " does not reach both below −"
                                     + "\(formatted(p.sphereCriterionG)) g and above +\(formatted(p.sphereCriterionG)) g")
            result.ggirMessage = messageSphere
            return result
        }

        let (offset, scale, iterations) = iterate(&mx, &my, &mz, parameters: p)
        result.iterations = iterations
        result.fittedOffset = offset
        result.fittedScale = scale
        let after = calibrationError(still.map(\.mean.x), still.map(\.mean.y), still.map(\.mean.z),
                                     offset: offset, scale: scale)
        result.errorAfterMilliG = after / 100
        if after > before {
            result.ggirMessage = messageWorse
            result.status = .skipped(reason: "recalibration does not decrease the error (before \(formatted(before / 100)) mg, "
                                     + "after \(formatted(after / 100)) mg)")
            return result
        }
        let goodEnough = after / 1e5 < p.maxErrorAfterG
        result.ggirMessage = after < before && goodEnough && result.hoursUsed > p.minimumLoadHours
            ? messageDone : messageAttempted
        if p.strictAcceptance && !goodEnough {
            result.status = .skipped(reason: "error after \(formatted(after / 100)) mg is not below "
                                     + "\(formatted(p.maxErrorAfterG * 1000)) mg")
            return result
        }
        result.offset = offset
        result.scale = scale
        return result
    }

    /// Mean |‖(m + o)·s‖ − 1| in g, rounded to 5 decimals as GGIR does, returned in units of
    /// 1e-5 g (a whole number: exact comparisons, and mg = units / 100 without binary residue).
    static func calibrationError(_ mx: [Double], _ my: [Double], _ mz: [Double], offset o: Axes, scale s: Axes) -> Double {
        var sum = 0.0
        for i in mx.indices {
            let x = (mx[i] + o.x) * s.x, y = (my[i] + o.y) * s.y, z = (mz[i] + o.z) * s.z
            sum += abs(sqrt(x * x + y * y + z * z) - 1)
        }
        return (sum / Double(mx.count) * 1e5).rounded(.toNearestOrEven)
    }

    /// Zhou Fang's iteration as in GGIR (step 9). Rows whose calibrated vector has zero length are
    /// removed (the arrays are shortened in place).
    static func iterate(_ mx: inout [Double], _ my: inout [Double], _ mz: inout [Double],
                        parameters p: Parameters) -> (offset: Axes, scale: Axes, iterations: Int) {
        var o = Axes.zero, s = Axes.one
        var n = mx.count
        var weights = [Double](repeating: 1, count: n)
        var cx = [Double](repeating: 0, count: n), cy = cx, cz = cx
        var px = cx, py = cx, pz = cx
        var previous = Double.infinity
        var iterations = 0
        for iteration in 1...p.maxIterations {
            iterations = iteration
            // c = (m + o)·s, p = c / ‖c‖, and the weighted means of both. A row whose c has no
            // length (p undefined) is removed with its weight, and the pass is redone.
            var sumW = 0.0
            var mcx = 0.0, mcy = 0.0, mcz = 0.0, mpx = 0.0, mpy = 0.0, mpz = 0.0
            while true {
                sumW = 0; mcx = 0; mcy = 0; mcz = 0; mpx = 0; mpy = 0; mpz = 0
                var degenerate = false
                for i in 0..<n {
                    let x = (mx[i] + o.x) * s.x, y = (my[i] + o.y) * s.y, z = (mz[i] + o.z) * s.z
                    let length = sqrt(x * x + y * y + z * z)
                    if !(length > 0 && length.isFinite) { degenerate = true; break }
                    cx[i] = x; cy[i] = y; cz[i] = z
                    px[i] = x / length; py[i] = y / length; pz[i] = z / length
                    let w = weights[i]
                    sumW += w
                    mcx += w * x; mcy += w * y; mcz += w * z
                    mpx += w * px[i]; mpy += w * py[i]; mpz += w * pz[i]
                }
                guard degenerate else { break }
                let keep = (0..<n).filter { i in
                    let x = (mx[i] + o.x) * s.x, y = (my[i] + o.y) * s.y, z = (mz[i] + o.z) * s.z
                    let length = sqrt(x * x + y * y + z * z)
                    return length > 0 && length.isFinite
                }
                mx = keep.map { mx[$0] }; my = keep.map { my[$0] }; mz = keep.map { mz[$0] }
                weights = keep.map { weights[$0] }
                n = keep.count
            }
            guard n >= 3 else { break }
            mcx /= sumW; mcy /= sumW; mcz /= sumW; mpx /= sumW; mpy /= sumW; mpz /= sumW
            // Per axis weighted regression p ≈ a + b·c (centred sums).
            var sxxX = 0.0, sxyX = 0.0, sxxY = 0.0, sxyY = 0.0, sxxZ = 0.0, sxyZ = 0.0
            for i in 0..<n {
                let w = weights[i]
                let dx = cx[i] - mcx, dy = cy[i] - mcy, dz = cz[i] - mcz
                sxxX += w * dx * dx; sxyX += w * dx * (px[i] - mpx)
                sxxY += w * dy * dy; sxyY += w * dy * (py[i] - mpy)
                sxxZ += w * dz * dz; sxyZ += w * dz * (pz[i] - mpz)
            }
            guard sxxX > 0 && sxxY > 0 && sxxZ > 0 else { break }
            let bx = sxyX / sxxX, by = sxyY / sxxY, bz = sxyZ / sxxZ
            let ax = mpx - bx * mcx, ay = mpy - by * mcy, az = mpz - bz * mcz
            o = Axes(x: o.x + ax / (s.x * bx), y: o.y + ay / (s.y * by), z: o.z + az / (s.z * bz))
            s = Axes(x: s.x * bx, y: s.y * by, z: s.z * bz)
            // Residual with this iteration's weights, then the new weights.
            var weightedSquares = 0.0
            for i in 0..<n {
                let ex = ax + bx * cx[i] - px[i], ey = ay + by * cy[i] - py[i], ez = az + bz * cz[i] - pz[i]
                let squared = ex * ex + ey * ey + ez * ez
                weightedSquares += weights[i] * squared
                weights[i] = min(1 / sqrt(squared), p.maxWeight)
            }
            let residual = weightedSquares / (Double(n) * sumW)
            if abs(residual - previous) < p.tolerance { break }
            previous = residual
        }
        return (o, s, iterations)
    }

    static func formatted(_ value: Double) -> String {
        let scaled = (value * 1000).rounded() / 1000
        return scaled == scaled.rounded() && abs(scaled) < 1e15 ? String(Int(scaled)) : String(scaled)
    }
}
