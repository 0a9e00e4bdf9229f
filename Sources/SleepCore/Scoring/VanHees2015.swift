/// van Hees 2015 sustained-inactivity detection from the wrist's z-angle, as GGIR implements it.
///
/// A *posture change* happens between two consecutive epochs whose angle-z differs by more than the
/// angle threshold (5°). Every stretch between two consecutive posture changes that lie more than the
/// time threshold (5 minutes) apart is a sustained inactivity bout, scored sleep, **including both
/// epochs at which those changes start**; everything else is wake.
///
/// - van Hees VT, Sabia S, Anderson KN, et al. A novel, open access method to assess sleep duration
///   using a wrist-worn accelerometer. *PLoS ONE* 2015;10(11):e0142533, doi:10.1371/journal.pone.0142533.
/// - GGIR (R package), `HASIB(HASIB.algo = "vanHees2015")`, defaults `timethreshold = 5`,
///   `anglethreshold = 5`, on 5-s epochs (`windowsizes[1]`). Reproduced from its definition:
///   - `postch = which(abs(diff(anglez)) > anglethreshold)`: the change between epochs i and i+1 is
///     attributed to epoch i;
///   - bouts where `diff(postch) > timethreshold · 60 / epoch` (strictly more epochs apart), marked
///     from `postch[k]` to `postch[k+1]` inclusive;
///   - when no gap is long enough: the whole series is sleep if there are fewer than 10 posture
///     changes ("possibly a day without wearing"), otherwise all wake;
///   - the stretch before the first and after the last posture change is never sleep;
///   - a missing angle (NA) never makes a posture change (`which` drops NA).
public enum VanHees2015 {
    /// Scores each epoch of angle-z (degrees; `Double.nan` = missing) as sleep (sustained inactivity)
    /// or wake.
    /// - Parameters:
    ///   - angleZDegrees: mean z-angle per epoch (GGIR: per 5-s epoch).
    ///   - epochSeconds: epoch length (GGIR default 5).
    ///   - timeThresholdMinutes: minimum duration without posture change (GGIR default 5).
    ///   - angleThresholdDegrees: change of angle-z that counts as a posture change (GGIR default 5).
    public static func score(
        angleZDegrees: [Double], epochSeconds: Double = 5,
        timeThresholdMinutes: Double = 5, angleThresholdDegrees: Double = 5
    ) -> [SleepWake] {
        let n = angleZDegrees.count
        guard n > 0 else { return [] }
        var changes: [Int] = []
        for i in 0..<(n - 1) {
            let d = angleZDegrees[i + 1] - angleZDegrees[i]
            if abs(d) > angleThresholdDegrees { changes.append(i) }  // NaN compares false
        }
        let minimumGapEpochs = timeThresholdMinutes * 60 / epochSeconds
        var out = [SleepWake](repeating: .wake, count: n)
        var foundBout = false
        if changes.count > 1 {
            for k in 0..<(changes.count - 1) where Double(changes[k + 1] - changes[k]) > minimumGapEpochs {
                foundBout = true
                for i in changes[k]...changes[k + 1] { out[i] = .sleep }
            }
        }
        if !foundBout && changes.count < 10 {
            return [SleepWake](repeating: .sleep, count: n)
        }
        return out
    }
}
