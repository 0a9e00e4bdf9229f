#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Sadeh sleep/wake scoring of 1-minute epochs.
///
/// `PS = 7.601 − 0.065·MEAN − 1.08·NAT − 0.056·SD − 0.703·LG`, where for minute t
/// - MEAN: mean activity over the 11 minutes t−5…t+5;
/// - NAT: number of those 11 minutes with 50 ≤ activity < 100;
/// - SD: standard deviation of the activity over t−5…t;
/// - LG: ln(activity at t + 1).
///
/// - Sadeh A, Sharkey KM, Carskadon MA. Activity-based sleep-wake identification: an empirical test of
///   methodological issues. *Sleep* 1994;17(3):201–207, doi:10.1093/sleep/17.3.201.
/// - ActiGraph ActiLife 6 (User's Manual 04/03/2012; support note on the Sadeh and Cole–Kripke
///   algorithms): axis-1 counts per minute capped at 300, zero padding, sleep if PS > −4. ActiLife's SD
///   is the *sample* standard deviation (n − 1) of the 6 values, zero padding included: with the
///   population SD, 18 of the 1500 ActiLife labels in the reference export come out different.
/// - pyActigraphy 1.2.2 `ScoringMixin.Sadeh` / `_sadeh`: see ``Variant/pyActigraphy``.
///
/// GGIR's `HASIB(HASIB.algo = "Sadeh1994")` (not offered here, no reference run available) scores
/// full windows only (first and last 5 minutes wake), counts 50 < x < 100 in NAT, uses the sample SD
/// and the current minute's ln(x + 1), and takes PS ≥ 0 as sleep, capping at 300 except for
/// zero-crossing counts.
public struct Sadeh: SleepWakeScorer {
    public enum Variant: String, Sendable, Hashable, Codable, CaseIterable {
        /// ActiLife 6: counts capped at 300; windows padded with zeros at the record edges (missing
        /// counts inside a window also count as 0); NAT counts 50 ≤ x < 100; sample SD over t−5…t;
        /// ln(x_t + 1); **sleep if PS > −4**. Every minute with a count is scored.
        case actilife
        /// pyActigraphy 1.2.2: raw counts (no cap); MEAN and NAT need the complete window t−5…t+5 and
        /// SD the complete t−5…t (pandas rolling windows), so the first and last 5 minutes and every
        /// minute with a missing count in reach are not scored (pyActigraphy reports them as wake);
        /// NAT counts **50 < x < 100**; sample SD; **LG = ln(x_{t+1} + 1)**, the *next* minute's
        /// count (`data.shift(-1)`); **sleep if PS > 0**.
        case pyActigraphy
    }

    public var variant: Variant

    public init(variant: Variant = .actilife) {
        self.variant = variant
    }

    public func score(countsPerEpoch: [Double]) -> [SleepWake?] {
        Self.score(countsPerEpoch: countsPerEpoch, variant: variant)
    }

    /// Scores 1-minute epochs of counts (`Double.nan` = missing). `nil` = not scored.
    public static func score(countsPerEpoch: [Double], variant: Variant = .actilife) -> [SleepWake?] {
        let threshold: Double = variant == .actilife ? -4 : 0
        return SleepWakeKernel.labels(index(countsPerEpoch: countsPerEpoch, variant: variant)) { $0 > threshold }
    }

    /// The probability-of-sleep index PS per minute (NaN where not scored).
    public static func index(countsPerEpoch: [Double], variant: Variant = .actilife) -> [Double] {
        let n = countsPerEpoch.count
        var ps = [Double](repeating: .nan, count: n)
        guard n > 0 else { return ps }
        let actilife = variant == .actilife
        let x: [Double] = actilife
            ? countsPerEpoch.map { $0.isNaN ? .nan : Swift.min($0, 300) } : countsPerEpoch
        x.withUnsafeBufferPointer { x in
            ps.withUnsafeMutableBufferPointer { out in
                // The value at j; outside the record or missing: 0 for ActiLife, nil (window incomplete,
                // minute not scored) for pyActigraphy.
                func value(_ j: Int) -> Double? {
                    guard j >= 0, j < n, !x[j].isNaN else { return actilife ? 0 : nil }
                    return x[j]
                }
                epochs: for t in 0..<n where !x[t].isNaN {
                    var sum = 0.0
                    var nat = 0.0
                    for j in (t - 5)...(t + 5) {
                        guard let v = value(j) else { continue epochs }
                        sum += v
                        let inNAT = actilife ? (v >= 50 && v < 100) : (v > 50 && v < 100)
                        if inNAT { nat += 1 }
                    }
                    let mean = sum / 11
                    var last6Sum = 0.0
                    for j in (t - 5)...t {
                        guard let v = value(j) else { continue epochs }
                        last6Sum += v
                    }
                    let last6Mean = last6Sum / 6
                    var squares = 0.0
                    for j in (t - 5)...t {
                        let d = value(j)! - last6Mean
                        squares += d * d
                    }
                    let sd = (squares / 5).squareRoot()
                    let lgCount: Double
                    if actilife {
                        lgCount = x[t]
                    } else {
                        guard let next = value(t + 1) else { continue epochs }
                        lgCount = next
                    }
                    let lg = log(lgCount + 1)
                    out[t] = 7.601 - 0.065 * mean - 1.08 * nat - 0.056 * sd - 0.703 * lg
                }
            }
        }
        return ps
    }
}
