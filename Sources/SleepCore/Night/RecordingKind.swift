/// What kind of recording a file is, which decides the night-analysis method.
///
/// * `phone-in-bed`: a phone on the mattress logging user acceleration (gravity removed), covering
///   mostly the time in bed. Analysed by ``PhoneInBedMethod`` (``NightAnalyzer``).
/// * `wearable-24h`: a wrist (or hip) accelerometer logging acceleration with gravity, worn day and
///   night. Analysed by ``WearableNightMethod`` (GGIR's chain: non-wear, HDCZA, van Hees 2015).
public enum RecordingKind: String, Sendable, Hashable, Codable, CaseIterable {
    case phoneInBed = "phone-in-bed"
    case wearable24h = "wearable-24h"
    /// An epoch file (Actiware, ActiLife, `.agd`, QUT, MMASH …): activity already reduced to epochs
    /// by device software. Analysed by ``EpochFileNightMethod`` (each device software's defaults).
    case epochFile = "epoch-file"
}

/// The kind chosen for one recording and the reason, in one sentence a person can check.
public struct RecordingKindDecision: Sendable, Hashable, Codable {
    public var kind: RecordingKind
    public var reason: String
    public init(kind: RecordingKind, reason: String) { self.kind = kind; self.reason = reason }
}

/// Chooses a recording's kind from what the data shows.
///
/// Rules, in order:
/// 1. `--kind phone-in-bed|wearable-24h` (the user knows best) wins.
/// 2. A wearable device format (Axivity, GENEActiv, ActiGraph raw) is `wearable-24h`: these devices
///    record acceleration with gravity and are worn for days.
/// 3. Acceleration with gravity (mean |a| ≈ 1 g) spanning at least ``wearableMinimumSpanSeconds``
///    (20 h) is `wearable-24h`: a device worn day and night.
/// 4. Everything else is `phone-in-bed`: user acceleration (gravity removed), or gravity over less
///    than 20 h (a phone logging total acceleration through one night; its movement includes gravity,
///    which the recording's warnings say).
public enum RecordingKindClassifier {
    /// A recording with gravity must span this long to be taken for a device worn day and night.
    public static let wearableMinimumSpanSeconds = 20 * 3600

    /// - Parameters:
    ///   - gravity: whether the acceleration includes gravity, as the reader found it.
    ///   - isWearableDeviceFormat: the file is a raw wearable format (`.cwa`, `.bin`, `.gt3x`, ActiLife raw CSV).
    ///   - format: the format's name, for the reason.
    ///   - spanSeconds: first to last second with data.
    ///   - override: `--kind`, nil for `auto`.
    public static func decide(gravity: GravityContent, isWearableDeviceFormat: Bool, format: SourceFormat, spanSeconds: Int,
                              override: RecordingKind? = nil) -> RecordingKindDecision {
        let hours = LocalClock.hoursText(seconds: spanSeconds)
        if let override {
            return RecordingKindDecision(kind: override, reason: "chosen with --kind \(override.rawValue) (the data: \(format), gravity \(gravity.rawValue), \(hours) of data)")
        }
        if isWearableDeviceFormat {
            return RecordingKindDecision(kind: .wearable24h, reason: "a wearable accelerometer file (\(format)), gravity \(gravity.rawValue), \(hours) of data")
        }
        if gravity == .included && spanSeconds >= wearableMinimumSpanSeconds {
            return RecordingKindDecision(kind: .wearable24h, reason: "acceleration with gravity over \(hours): a device worn day and night")
        }
        if gravity == .included {
            return RecordingKindDecision(kind: .phoneInBed, reason: "acceleration with gravity over only \(hours) (less than 20 h): taken for a phone on the mattress through one night")
        }
        return RecordingKindDecision(kind: .phoneInBed, reason: gravity == .removed
            ? "user acceleration (gravity removed) over \(hours): a phone on the mattress"
            : "acceleration whose gravity content is unknown, over \(hours): analysed as a phone on the mattress")
    }
}

extension LocalClock {
    /// `7.5 h` / `45 min`: a duration for sentences.
    public static func hoursText(seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" }
        let tenths = (Double(seconds) / 360).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths)) h" : "\(tenths) h"
    }
}
