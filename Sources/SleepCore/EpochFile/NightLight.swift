/// Light around one night, from an epoch file's light channel: the mean illuminance (lux) over
/// the sleep period and over the hour before sleep onset.
///
/// Why these two: light in the evening delays and suppresses melatonin (room light of about
/// 200 lux before bedtime shortened melatonin duration by about 90 minutes; Gooley et al. 2011,
/// J Clin Endocrinol Metab 96:E463–E472), and light during the sleep period is the wrist's
/// measure of a lit bedroom. Both are means of the epochs the file gives a value for (epochs
/// without one are left out, as in the activity channel); an interval without such an epoch has
/// no mean (nil, an empty cell in the export).
///
/// The channel: ActiLife's `Lux`, Actiware's `White Light`, MotionWatch's and the generic
/// `Light`, in that order. Raw-sample wearables (GENEActiv's light channel, `.gt3x`'s `lux.bin`)
/// are not read for light, so their nights have none.
public struct NightLight: Sendable, Equatable, Codable {
    /// The file's own title of the channel read (`Lux`, `White Light` …).
    public var columnTitle: String
    /// Mean lux over the epochs from sleep onset to wake time.
    public var meanLuxSleepPeriod: Double?
    /// Mean lux over the epochs of the hour before sleep onset (those the night's epochs hold).
    public var meanLuxHourBefore: Double?

    public init(columnTitle: String, meanLuxSleepPeriod: Double?, meanLuxHourBefore: Double?) {
        self.columnTitle = columnTitle; self.meanLuxSleepPeriod = meanLuxSleepPeriod; self.meanLuxHourBefore = meanLuxHourBefore
    }

    /// Canonical names of light channels, in order of preference (``EpochColumn/name``).
    public static let channels = ["lux", "white_light", "light"]

    /// The light around the sleep period `onsetUTC..<wakeUTC`, or nil when `series` has no light channel.
    public static func compute(_ series: EpochNightSeries, onsetUTC: Int64, wakeUTC: Int64) -> NightLight? {
        guard let channel = channels.lazy.compactMap({ series.column($0) }).first, wakeUTC > onsetUTC else { return nil }
        func mean(from a: Int64, to b: Int64) -> Double? {
            var sum = 0.0, n = 0
            for (i, v) in channel.values.enumerated() where !v.isNaN && v.isFinite {
                let t = series.epochStartUTC(i)
                if t >= a && t < b { sum += v; n += 1 }
            }
            return n > 0 ? sum / Double(n) : nil
        }
        return NightLight(columnTitle: channel.sourceName, meanLuxSleepPeriod: mean(from: onsetUTC, to: wakeUTC),
                          meanLuxHourBefore: mean(from: onsetUTC - 3600, to: onsetUTC))
    }
}
