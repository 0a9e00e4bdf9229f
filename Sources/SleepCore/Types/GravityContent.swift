/// Whether a recording's acceleration includes gravity: the readers decide it from the mean
/// norm at rest (≈ 1 g included, ≈ 0 removed), and it decides which metrics mean anything
/// (``RawMetrics/suitability(of:gravity:)``) and which night method a recording gets
/// (``RecordingKindClassifier``). The raw value is what the store and the pages show.
public enum GravityContent: String, Sendable, Hashable, CaseIterable, Codable {
    /// Device acceleration in g with gravity (accelerometer raw data, GGIR's input): ‖a‖ ≈ 1 g at rest.
    case included
    /// User acceleration with gravity subtracted (CoreMotion `userAcceleration`): ‖a‖ ≈ 0 at rest.
    case removed
    /// The reader could not tell (the mean norm at the start was neither ≈ 1 g nor ≈ 0).
    case unknown
}
